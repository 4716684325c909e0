"""An argument no command takes is refused with the usage of the command it was given to (argparse's
``parse_args`` showed the top level's, ``websearch-sync [-h] [--version] COMMAND ...``, which says
nothing about what the command does take)."""

import json

import pytest

from websearch_sync.cli import main


@pytest.mark.parametrize(
    "argv, usage",
    [
        (["backends", "extra"], "usage: websearch-sync backends "),
        (["search", "-b", "stub", "q", "--bogus"], "usage: websearch-sync search "),
        (["state", "clear", "extra"], "usage: websearch-sync state "),
    ],
)
def test_an_unknown_argument_shows_its_commands_usage(capsys, argv, usage):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(usage), err
    assert "error: unrecognized arguments: %s" % argv[-1] in err


@pytest.mark.parametrize(
    "argv, said",
    [
        (["search", "-b", "stub", "q", "--jsn"], "unrecognized arguments: --jsn (did you mean --json?)\n"),
        (
            ["search", "-b", "stub", "q", "--formt", "json"],
            "unrecognized arguments: --formt (did you mean --format?) json\n",
        ),
        (
            ["fetch", "https://example.com/", "--mdoe=text"],
            "unrecognized arguments: --mdoe=text (did you mean --mode?)\n",
        ),
        (["backends", "--jsno"], "unrecognized arguments: --jsno (did you mean --json?)\n"),
        (["search", "-b", "stub", "q", "--bogus"], "unrecognized arguments: --bogus\n"),  # nothing close: no guess
    ],
)
def test_a_mistyped_flag_is_refused_naming_the_commands_closest_flag(capsys, argv, said):
    """argparse names the typo alone; the refusal names the flag meant, of the command it was given to."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith(said)


def test_the_json_error_form_of_a_mistyped_flag_names_the_flag_meant(capsys):
    assert main(["search", "-b", "stub", "q", "--json", "--include-contents"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["message"] == "unrecognized arguments: --include-contents (did you mean --include-content?)"


@pytest.mark.parametrize(
    "argv, said",
    [
        (
            ["search", "python", "requests", "timeout", "-b", "stub"],
            "unrecognized arguments: requests timeout (a query of several words is one argument: quote it, "
            '"python requests timeout")\n',
        ),
        (
            ["record", "stub", "rust", "async"],
            'unrecognized arguments: async (a query of several words is one argument: quote it, "rust async")\n',
        ),
        (["search", "python", "--formt", "json"], "unrecognized arguments: --formt (did you mean --format?) json\n"),
        (
            ["fetch", "https://a.example/", "https://b.example/"],
            "unrecognized arguments: https://b.example/ (fetch reads one URL: run it once for each)\n",
        ),
    ],
)
def test_a_query_left_unquoted_is_shown_quoted(capsys, argv, said):
    """``websearch-sync search python requests timeout``, a newcomer's first try, was refused as
    "unrecognized arguments: requests timeout"; a flag's value beside a mistyped flag is no query's word."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith(said)


def test_the_command_alone_lists_the_commands(capsys):
    """``websearch-sync`` with nothing after it said only "the following arguments are required:
    COMMAND"; a newcomer's first try now gets the help: the commands, examples, where the docs are."""
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: websearch-sync ") and "\n    search    search the web" in err and "examples:" in err
