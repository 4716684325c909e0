"""A flag's value outside its choices names the closest one, as the library's own refusal does.

Before: argparse's ``invalid choice: 'd' (choose from 'day', 'week', 'month', 'year')`` alone, while
``search(time_range="d")`` says ``ddgs's 'd' is 'day'`` and ``--option timelimit=d`` says ``d is day``;
``--vertical image`` named no ``images``. The refusal stays a usage error before any query (a
batch is not run to fail each line)."""

import pytest

from websearch_sync.cli import main


@pytest.mark.parametrize(
    "flag, value, said",
    [
        ("--time-range", "d", "ddgs's 'd' is 'day'"),
        ("--time-range", "w", "ddgs's 'w' is 'week'"),
        ("--vertical", "image", "did you mean 'images'?"),
        ("--strategy", "fallbak", "did you mean 'fallback'?"),
        ("--safe-search", "moderat", "did you mean 'moderate'?"),
        ("--format", "jsn", "did you mean 'json'?"),
    ],
)
def test_a_value_outside_a_flags_choices_names_the_closest(capsys, flag, value, said):
    assert main(["search", "q", "-b", "stub", flag, value]) == 2
    err = capsys.readouterr().err
    assert "argument %s: invalid choice: %r (choose from " % (flag, value) in err, err
    assert said in err, err


def test_a_value_nothing_is_close_to_gets_argparses_refusal_alone(capsys):
    assert main(["search", "q", "-b", "stub", "--vertical", "zzz"]) == 2
    assert capsys.readouterr().err.rstrip().endswith("invalid choice: 'zzz' (choose from web, news, images, videos)")


def test_a_bad_choice_beside_a_queries_file_runs_no_query(capsys, tmp_path):
    queries = tmp_path / "q.txt"
    queries.write_text("one\ntwo\n")
    assert main(["search", "--queries-file", str(queries), "-b", "stub", "--time-range", "d"]) == 2
    captured = capsys.readouterr()
    assert "ok," not in captured.err and '"query"' not in captured.out


@pytest.mark.parametrize("command", [["record", "stub", "q"], ["check-live", "stub", "q"]])
def test_the_contract_commands_vertical_names_the_closest_too(capsys, command):
    assert main([*command, "--vertical", "image"]) == 2
    assert "invalid choice: 'image' (choose from web, news, images, videos) (did you mean 'images'?)" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "flags, said",
    [
        (["--locale", "english"], "error: InvalidInput/bad_locale: invalid locale: 'english'"),
        (["-n", "0"], "error: InvalidInput/bad_max_results: -n must be in 1..50, got 0"),
        (
            ["--vertical", "images", "--image-size", "huge"],
            "error: InvalidInput/bad_filter: --image-size must be one of",
        ),
        (["--option", "wiki=english"], "error: InvalidInput/bad_option"),
    ],
)
def test_a_batchs_bad_common_input_is_refused_once_before_any_query(capsys, tmp_path, flags, said):
    """Before: each line failed alike (``2 failed: InvalidInput/bad_locale ...``, one JSON error line a
    query: a thousand for a file of a thousand) and ``-n 0`` was said under its Python name there,
    ``max_results must be in 1..50``. Now the inputs every query shares are checked once, as for one
    QUERY: one error line, exit 2, no query run."""
    queries = tmp_path / "q.txt"
    queries.write_text("one\ntwo\n")
    assert main(["search", "--queries-file", str(queries), "-b", "stub", *flags]) == 2
    captured = capsys.readouterr()
    assert said in captured.err, captured.err
    assert '"query"' not in captured.out and "failed" not in captured.err, captured


@pytest.mark.parametrize(
    "flags, said",
    [
        (
            ["--image-size", "large"],
            "--image-size filters images: give it with --vertical images (this call searches web)",
        ),
        (
            ["--vertical", "news", "--video-duration", "short"],
            "--video-duration filters videos: give it with --vertical videos (this call searches news)",
        ),
        (["--vertical", "images", "--image-color", "redd"], "--image-color must be one of color, monochrome, red,"),
    ],
)
def test_a_filters_refusal_names_its_flag_and_the_vertical_flag(capsys, flags, said):
    """Before: ``websearch-sync search q --image-size large`` said ``image_size filters images: give it with
    vertical='images'``, the Python spelling of an argument the command line has no such word for. Now the
    filter and the vertical are named by their flags, as ``-n 0`` names ``-n``."""
    assert main(["search", "q", "-b", "stub", *flags]) == 2
    err = capsys.readouterr().err
    assert "error: InvalidInput/bad_filter: " + said in err, err
    assert "vertical=" not in err and "image_size" not in err and "video_duration" not in err, err


@pytest.mark.parametrize(
    "flag, value, meant",
    [
        ("--time-range", "7d", "week"),  # a duration, as many tools and people write one
        ("--time-range", "24h", "day"),
        ("--time-range", "1y", "year"),
        ("--time-range", "pw", "week"),  # Brave's freshness
        ("--safe-search", "0", "off"),  # SearXNG's safesearch levels
        ("--safe-search", "2", "strict"),
        ("--vertical", "general", "web"),  # SearXNG's category
        ("--format", "md", "markdown"),
        ("--format", "ndjson", "jsonl"),
    ],
)
def test_another_tools_short_form_names_ours(capsys, flag, value, meant):
    """Before: ``--time-range 7d`` was argparse's ``invalid choice`` alone (no spelling of ``7d`` is
    close to ``week``), while ``--time-range wek`` and ``-b brvae`` named the closest."""
    assert main(["search", "q", "-b", "stub", flag, value]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: %r (choose from " % value in err and "(did you mean %r?)" % meant in err, err


def test_the_mcp_log_level_names_the_closest_too(capsys):
    """``mcp --log-level`` had argparse's own choices, without the hint of every other flag's."""
    assert main(["mcp", "--log-level", "warn"]) == 2
    assert "invalid choice: 'warn' (choose from debug, info, warning, error) (did you mean 'warning'?)" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize("value, meant", [("7d", "week"), ("pd", "day"), ("30d", "month")])
def test_the_python_time_range_names_ours_too(value, meant):
    import websearch_sync as ws

    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="stub", time_range=value)
    assert info.value.message.endswith("got %r (did you mean %r?)" % (value, meant))


@pytest.mark.parametrize(
    "flags, key, taken",
    [
        (["--vertical", "Images"], "vertical", "images"),
        (["--time-range", "WEEK"], "time_range", "week"),
        (["--safe-search", "Strict"], "safe_search", "strict"),
    ],
)
def test_a_flags_value_in_another_case_is_taken_as_the_library_takes_it(capsys, flags, key, taken):
    """``search(vertical="Images")`` is taken (the library folds case); ``--vertical Images`` was argparse's
    ``invalid choice`` with a hint naming the same word (exit 2)."""
    import json

    assert main(["search", "q", "-b", "stub", "--json", *flags]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["items"]
    if key == "vertical":
        assert answer["provider_meta"]["vertical"] == taken


@pytest.mark.parametrize("command", [["mcp", "--log-level", "DEBUG"], ["mcp", "--strategy", "Merge"]])
def test_the_mcp_commands_choices_fold_case_too(capsys, command):
    """Folded before the server starts: a bad value after them still stops the command at its usage."""
    assert main([*command, "--cache-max-answers", "x"]) == 2
    assert "invalid choice" not in capsys.readouterr().err
