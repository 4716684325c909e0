"""An argument no command takes is refused with the usage of the command it was given to (argparse's
``parse_args`` showed the top level's, ``websearch-sync [-h] [--version] COMMAND ...``, which says
nothing about what the command does take)."""

import json

import pytest

from websearch_sync.cli import main
from websearch_sync.shellwords import shell_quote


@pytest.mark.parametrize(
    "argv, usage",
    [
        (["backends", "extra"], "usage: websearch-sync backends "),
        (["search", "-b", "stub", "q", "--bogus"], "usage: websearch-sync search "),
        (["state", "clear", "extra"], "usage: websearch-sync state "),
        (["state", "show", "--jsno"], "usage: websearch-sync state show "),  # a command's command: its own usage
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
        (["state", "show", "--jsno"], "unrecognized arguments: --jsno (did you mean --json?)\n"),
        (["state", "show", "--cache"], "unrecognized arguments: --cache (--cache is a flag of state clear)\n"),
        (["search", "-b", "stub", "q", "--bogus"], "unrecognized arguments: --bogus\n"),  # nothing close: no guess
    ],
)
def test_a_mistyped_flag_is_refused_naming_the_commands_closest_flag(capsys, argv, said):
    """argparse names the typo alone; the refusal names the flag meant, of the command it was given to."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith(said)


@pytest.mark.parametrize("flag", ["--quiet", "--engine", "--no-cache", "--verbose"])
def test_a_flag_no_flag_is_close_to_gets_no_guess(capsys, flag):
    """Compared with the ``--`` every flag shares, ``--limit`` was "close" to ``--site``, ``--count``
    to ``--json``, ``--engine`` to ``--time-range``: the name alone is compared, and none is close."""
    assert main(["search", "-b", "stub", "q", flag]) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: %s\n" % flag)


@pytest.mark.parametrize(
    "typed, ours",
    [
        (["-r", "us-en"], "--locale, a language tag, language first: us-en is en-US"),
        (["--region", "us-en"], "--locale, a language tag"),
        (["-t", "d"], "--time-range day, week, month or year: d is day"),
        (["--timelimit", "d"], "--time-range"),
        (["-s", "on"], "--safe-search off, moderate or strict: on is strict"),
        (["-m", "5"], "-n"),
        (["-p", "2"], "-n, the results wanted, read over as many pages as they take; a backend that pages by number"),
        (["-o", "out.json"], "--format json, jsonl or markdown"),
        (["-pr", "socks5h://127.0.0.1:9150"], "the WEB_SEARCH_PROXY variable"),
    ],
)
def test_a_flag_of_ddgs_command_line_is_refused_naming_ours(capsys, typed, ours):
    """``ddgs text -q q -r us-en -t d -m 5``'s flags given to ``search``: ``-r``, ``-t``, ``-m`` and
    ``-p`` were refused naming nothing (``--safesearch`` alone got ``--safe-search``, by its letters)."""
    assert main(["search", "-b", "stub", "q", *typed]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: %s (ddgs's %s: here %s" % (typed[0], typed[0], ours) in err, err


@pytest.mark.parametrize(
    "typed, flag",
    [("-td", "-t"), ("-m5", "-m"), ("-rus-en", "-r"), ("-p2", "-p"), ("-prsocks5h://127.0.0.1:9150", "-pr")],
)
def test_a_ddgs_flag_with_its_value_joined_is_named_too(capsys, typed, flag):
    """``-td``, ``-m5``, ``-rus-en``: a short flag's value joined, as ddgs's parser takes them, got no hint."""
    assert main(["search", "-b", "stub", "q", typed]) == 2
    assert "unrecognized arguments: %s (ddgs's %s: here " % (typed, flag) in capsys.readouterr().err


@pytest.mark.parametrize(
    "typed, ours",
    [
        (["-size", "Large"], "--image-size with --vertical images"),
        (["--size", "Large"], "--image-size with --vertical images"),
        (["-type", "gif"], "--image-type with --vertical images"),
        (["--type_image", "gif"], "--image-type with --vertical images"),
        (["-c", "Red"], "--image-color with --vertical images"),
        (["-l", "Wide"], "--image-layout with --vertical images"),
        (["-lic", "Public"], "--image-license with --vertical images, --video-license with --vertical videos"),
        (["--license_image", "any"], "--image-license with --vertical images (any is creative_commons)"),
        (["-res", "high"], "--video-resolution with --vertical videos (standart is standard)"),
        (["-d", "short"], "--video-duration with --vertical videos"),
        (
            ["--license_videos", "youtube"],
            "--video-license with --vertical videos (creativeCommon is creative_commons)",
        ),
    ],
)
def test_a_flag_of_ddgs_images_or_videos_is_refused_naming_ours(capsys, typed, ours):
    """``ddgs images -size Large -type gif``, ``ddgs videos -res high``: ``-size`` was named ddgs's ``-s``
    (safe search), ``-type`` its ``-t`` (time), ``-res`` its ``-r`` (region), ``--size`` "did you mean
    --site?", ``--type_image`` "--time-range?"; ``-c``, ``-l``, ``-d``, ``-lic`` named nothing."""
    assert main(["search", "-b", "stub", "--vertical", "images", "q", *typed]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: %s (ddgs's %s: here %s)" % (typed[0], typed[0], ours) in err, err


def test_a_word_after_one_dash_is_no_ddgs_media_flag_with_a_value(capsys):
    """ddgs's one-letter ``-c``, ``-l`` and ``-d`` are named only as typed: ``-debug`` is no ``-d ebug``."""
    assert main(["search", "-b", "stub", "q", "-debug"]) == 2
    assert "ddgs" not in capsys.readouterr().err


def test_one_of_our_flags_with_one_dash_is_no_ddgs_flag_with_a_value(capsys):
    """``-site`` is ``--site`` with a dash missing, not ddgs's ``-s`` (safe search) with ``ite``."""
    assert main(["search", "-b", "stub", "q", "-site"]) == 2
    assert "ddgs" not in capsys.readouterr().err


def test_a_ddgs_query_flag_names_the_query_argument(capsys):
    """``ddgs text -q "rust async"`` typed as ``search -q "rust async"``: the words are the query, the flag is no flag of ours."""
    assert main(["search", "-b", "stub", "-q", "rust async"]) == 2
    assert capsys.readouterr().err.endswith(
        "unrecognized arguments: -q (ddgs's -q: here the query is search's argument, given without a flag)\n"
    )


def test_ddgs_flags_are_named_for_search_only(capsys):
    """``fetch`` has no ddgs counterpart: its ``-t`` is refused as any unknown flag."""
    assert main(["fetch", "https://a.example/", "-t", "d"]) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: -t d\n")


@pytest.mark.parametrize(
    "argv, said",
    [
        (["search", "-b", "stub", "q", "--max-chars", "5"], "--max-chars (--max-chars is a flag of fetch) 5\n"),
        (
            ["fetch", "https://a.example/", "--max-results", "5"],
            "--max-results (--max-results is a flag of search, record, check-live) 5\n",
        ),
        (["search", "-b", "stub", "q", "--text"], "--text (did you mean --format text?)\n"),
        (["search", "-b", "stub", "q", "--news"], "--news (did you mean --vertical news?)\n"),
        (["fetch", "https://a.example/", "--text"], "--text (did you mean --mode text?)\n"),
        (["fetch", "https://a.example/", "--html"], "--html\n"),  # not --help
    ],
)
def test_another_commands_flag_or_a_flags_value_is_named_as_such(capsys, argv, said):
    """``search --max-chars`` was "did you mean --max-results?", ``fetch --max-results`` "did you
    mean --max-chars?", ``search --text`` "did you mean --site?": the command the flag belongs to,
    or the flag the word is a value of, is what the user needs."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: " + said)


@pytest.mark.parametrize(
    "argv, said",
    [
        (
            ["record", "stub", "--fixtures", "d", "--", "-q", "--vertical", "news"],
            "--vertical (--vertical is a flag of record: put it before --) news\n",
        ),
        (["search", "-b", "stub", "--", "q", "--json"], "--json (--json is a flag of search: put it before --)\n"),
    ],
)
def test_a_command_s_own_flag_after_the_double_dash_is_said_to_go_before_it(capsys, argv, said):
    """After ``--`` every word is an argument, so a command's own flag there is unrecognized. Before:
    ``record ... -- -q --vertical news`` said "--vertical is a flag of search, check-live", and
    ``search -- q --json`` "did you mean --format json?"."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: " + said)


@pytest.mark.parametrize(
    "typed, meant",
    [
        ("--site-filter", "--site"),  # its dest, site_filter
        ("--sitefilter", "--site"),
        ("--max_results", "--max-results"),
        ("--skip-existing", "--skip-done"),  # the one flag whose first word is skip
    ],
)
def test_a_flag_named_by_what_it_sets_or_its_first_word_is_meant(capsys, typed, meant):
    """Compared by name without the ``--`` (which made ``--limit`` close to ``--site``),
    ``--site-filter`` and ``--skip-existing`` lost the hint they had: the flag's ``dest`` and a
    first word only one flag has name it too."""
    assert main(["search", "-b", "stub", "q", typed, "x"]) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: %s (did you mean %s?) x\n" % (typed, meant))


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


@pytest.mark.parametrize(
    "argv, quoted",
    [
        (["search", "-b", "stub", "say", '"hi"'], """'say "hi"'"""),
        (["search", "-b", "stub", "price", "$5"], "'price $5'"),
        (["search", "-b", "stub", "it's", "done"], '"it\'s done"'),
    ],
)
def test_the_query_shown_quoted_is_safe_to_paste_into_a_shell(capsys, argv, quoted):
    """``"say "hi""`` and ``"price $5"`` (the words in double quotes) are no query the shell passes
    as typed: the line quotes it as ``shlex.quote`` does; ``it's`` in double quotes, which every shell reads alike
    (``shlex.quote``'s ``'it'"'"'s'`` is POSIX only)."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith("one argument: quote it, %s)\n" % quoted)


@pytest.mark.parametrize(
    "extra, said",
    [
        (["text"], "text (did you mean --mode text?)\n"),
        (["some", "words"], "some words\n"),
        (["b.example"], "b.example (fetch reads one URL: run it once for each)\n"),
    ],
)
def test_words_after_a_url_are_called_urls_only_when_they_look_like_urls(capsys, extra, said):
    """``fetch https://a.example/ text`` was told "fetch reads one URL": ``text`` is ``--mode``'s
    value, and words with neither ``://`` nor a dot are no URLs."""
    assert main(["fetch", "https://a.example/", *extra]) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: " + said)


def test_words_beside_a_queries_file_get_no_quoting_hint(capsys, tmp_path):
    """With ``--queries-file`` the queries are the file's: words after the first are no query's rest."""
    queries = tmp_path / "queries.txt"
    queries.write_text("q\n", encoding="utf-8")
    assert main(["search", "-b", "stub", "--queries-file", str(queries), "a", "b"]) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: b\n")


def test_the_command_alone_lists_the_commands(capsys):
    """``websearch-sync`` with nothing after it said only "the following arguments are required:
    COMMAND"; a newcomer's first try now gets the help: the commands, examples, where the docs are."""
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: websearch-sync ") and "\n    search    search the web" in err and "examples:" in err


@pytest.mark.parametrize(
    "argv, said",
    [
        (["serach", "q"], "error: unknown command 'serach' (did you mean search?)\n"),
        (["fetsh", "https://a.example/"], "error: unknown command 'fetsh' (did you mean fetch?)\n"),
        (
            ["python", "requests", "--json"],
            "error: unknown command 'python': the commands are search, fetch, backends, record, verify, check-live,"
            ' mcp, state; to search for it: websearch-sync search "python requests" --json\n',
        ),
        (["it's"], 'to search for it: websearch-sync search "it\'s"\n'),
    ],
)
def test_a_first_word_that_is_no_command_names_the_command_meant(capsys, argv, said):
    """argparse said "invalid choice: 'serach' (choose from ...)", and for a query typed without its
    command (``websearch-sync python requests``) nothing of how to search it."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith(said)


@pytest.mark.parametrize(
    "command, vertical",
    [("news", "news"), ("images", "images"), ("videos", "videos"), ("text", "web")],
)
def test_a_ddgs_command_names_the_vertical_it_searches(capsys, command, vertical):
    """``ddgs news -q "red panda"`` typed as ``websearch-sync news "red panda"``: it was told to search
    for the words "news red panda" on the web."""
    assert main([command, "red panda"]) == 2
    err = capsys.readouterr().err
    said = 'websearch-sync search "red panda"' + ("" if vertical == "web" else " --vertical " + vertical)
    assert "ddgs's %s: here %s" % (command, said) in err, err


@pytest.mark.parametrize(
    "argv, said",
    [
        (
            ["-b", "stub", "python"],
            "error: -b is a flag of search, state clear: the command comes first (websearch-sync search -b stub python)\n",
        ),
        (
            ["--json", "python"],
            "error: --json is a flag of search, fetch, backends, verify, check-live, state show: the command comes first"
            " (websearch-sync search --json python)\n",
        ),
        (["--bogus", "q"], "error: unrecognized arguments: --bogus\n"),  # no command's flag: the flag is the mistake
        # the command typed later on the line is the one put first (not a search for its name)
        (
            ["--backend", "stub", "mcp"],
            "error: --backend is a flag of mcp: the command comes first (websearch-sync mcp --backend stub)\n",
        ),
        (
            ["--json", "search", "q"],
            "error: --json is a flag of search: the command comes first (websearch-sync search --json q)\n",
        ),
    ],
)
def test_a_commands_flag_before_any_command_says_the_command_comes_first(capsys, argv, said):
    """argparse took the flag's value or the query for the command: "invalid choice: 'stub'"."""
    assert main(argv) == 2
    assert said in capsys.readouterr().err


def test_a_flag_typed_in_capitals_is_its_lower_case_one(capsys):
    assert main(["search", "-b", "stub", "q", "--JSON"]) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: --JSON (did you mean --json?)\n")


@pytest.mark.parametrize("flag", ["-h", "--help", "--version"])
def test_the_programs_own_flags_before_any_command_are_its_own(capsys, flag):
    """-h is also every command's flag: given first, it is the program's (its help), not "a flag of search"."""
    assert main([flag]) == 0
    out, err = capsys.readouterr()
    assert "is a flag of" not in err and out.startswith(("usage: websearch-sync", "websearch-sync "))


@pytest.mark.parametrize(
    "argv, said",
    [
        (
            ["--state-url", "x", "state", "show"],
            "websearch-sync state show: error: --state-url is a flag of state show: the command comes first"
            " (websearch-sync state show --state-url x)\n",
        ),
        (
            ["state", "--state-url", "x", "show"],
            "websearch-sync state show: error: --state-url is a flag of state show: the command comes first"
            " (websearch-sync state show --state-url x)\n",
        ),
        (
            ["--json", "state", "show"],
            "error: --json is a flag of state show: the command comes first (websearch-sync state show --json)\n",
        ),
        (
            ["--backend", "stub", "record", "stub", "q"],
            "websearch-sync record: error: unrecognized arguments: --backend"
            " (BACKEND is given without a flag: websearch-sync record BACKEND QUERY)\n",
        ),
    ],
)
def test_a_flag_before_a_commands_own_command_is_said_as_before_any_command(capsys, argv, said):
    """``--state-url x state show`` got argparse's "invalid choice: 'x'" (only the commands right
    under the program were followed), and ``--json state show`` "put it before --" (no ``--`` was typed)."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith(said)


@pytest.mark.parametrize(
    "argv, said",
    [
        (
            ["record", "--backend", "stub", "q"],
            "--backend (BACKEND is given without a flag: websearch-sync record BACKEND QUERY)",
        ),
        (
            ["check-live", "--backend", "stub"],
            "--backend (BACKEND is given without a flag: websearch-sync check-live BACKEND [QUERY ...])",
        ),
        (["fetch", "--url", "https://a.example/"], "--url (URL is given without a flag: websearch-sync fetch URL)"),
        # a short flag, by the long spelling other commands give it (-b: --backend)
        (["record", "-b", "stub", "q"], "-b (BACKEND is given without a flag: websearch-sync record BACKEND QUERY)"),
        # the value joined to the flag: argparse took q for BACKEND and said only "required: query"
        (
            ["record", "--backend=stub", "q"],
            "--backend=stub (BACKEND is given without a flag: websearch-sync record BACKEND QUERY)",
        ),
        (["record", "-bstub", "q"], "-bstub (BACKEND is given without a flag: websearch-sync record BACKEND QUERY)"),
        (
            ["fetch", "--url=https://a.example/"],
            "--url=https://a.example/ (URL is given without a flag: websearch-sync fetch URL)",
        ),
    ],
)
def test_a_commands_argument_typed_as_a_flag_is_said_to_take_no_flag(capsys, argv, said):
    """``record --backend stub q`` was told "--backend is a flag of search, verify, mcp, state clear":
    away from the command meant, whose BACKEND is an argument."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: %s\n" % said)


@pytest.mark.parametrize(
    "argv, said",
    [
        (["mcp", "--images"], "--images (that is the default: --no-images, its opposite, applies only when given)"),
        (
            ["search", "q", "--no-json"],
            "--no-json (that is the default: --json, its opposite, applies only when given)",
        ),
        (
            ["fetch", "https://a.example/", "--deny-private"],
            "--deny-private (that is the default: --allow-private, its opposite, applies only when given)",
        ),
        (
            ["fetch", "https://a.example/", "--no-comments"],
            "--no-comments (that is the default: --include-comments, its opposite, applies only when given)",
        ),
        (["mcp", "--no-comments"], "--no-comments"),  # --no-images says no to another subject
        (["search", "q", "--include-images"], "--include-images"),  # --include-content: another subject
        (["search", "q", "--no-retries"], "--no-retries"),  # its opposite takes a value: no guess
        (["mcp", "--disable-images"], "--disable-images (did you mean --no-images?)"),
        # off: a value of it, no "no"; given with it (--safe-search alone failed with "expected one argument")
        (["search", "q", "--safe-off"], "--safe-off (did you mean --safe-search off?)"),
    ],
)
def test_a_hint_never_names_a_flag_of_the_opposite_meaning_as_the_one_meant(capsys, argv, said):
    """``mcp --images`` was "did you mean --no-images?", ``search --no-json`` "did you mean --json?",
    ``mcp --no-comments`` "did you mean --no-images?": alike in letters, opposite or other in meaning."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: %s\n" % said)


@pytest.mark.parametrize(
    "argv, said",
    [
        (["verify", "-b", "stub"], "-b (did you mean --backend?) stub"),
        (["mcp", "-b", "stub"], "-b (did you mean --backend?) stub"),
    ],
)
def test_a_short_flag_whose_long_spelling_the_command_takes_names_that_flag(capsys, argv, said):
    """``verify -b x`` was "-b is a flag of search, state clear": away from the command, which takes --backend."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: %s\n" % said)


def test_another_commands_short_flag_is_named_as_such(capsys):
    """``fetch URL -n 3`` was "unrecognized arguments: -n 3": a short flag had no hint at all."""
    assert main(["fetch", "https://a.example/", "-n", "3"]) == 2
    assert capsys.readouterr().err.endswith(
        "unrecognized arguments: -n (-n is a flag of search, record, check-live) 3\n"
    )


@pytest.mark.parametrize(
    "word, posix, windows",
    [
        ("python requests", '"python requests"', '"python requests"'),
        ("it's", '"it\'s"', '"it\'s"'),
        ('say "hi"', """'say "hi"'""", """'say "hi"'"""),
        ("requests", "requests", "requests"),
        ("hello!", "'hello!'", "'hello!'"),  # bash's history expansion, also inside double quotes
        ("a`b` c", "'a`b` c'", "'a`b` c'"),  # PowerShell's escape, also inside double quotes
        ("$HOME x", "'$HOME x'", "'$HOME x'"),  # PowerShell expands it inside double quotes
        ("it's $HOME", "'it'\"'\"'s $HOME'", "'it''s $HOME'"),  # PowerShell doubles a quote
        ("\u2019x $y", "'\u2019x $y'", "'\u2019\u2019x $y'"),  # PowerShell's typographic single quote too
        ("100% x", '"100% x"', '"100% x"'),
        ("a,b", '"a,b"', '"a,b"'),  # printed bare for PowerShell, an array: two arguments
        ("a\nb", "'a\nb'", "'a\nb'"),
        ("@x", '"@x"', '"@x"'),  # printed bare for PowerShell, which splats it
        ("\u201cx\u201d", "'\u201cx\u201d'", "'\u201cx\u201d'"),  # PowerShell's quotes, not sh's
        ("a\\b\\", "'a\\b\\'", "'a\\b\\'"),
    ],
)
def test_a_word_shown_quoted_reads_as_one_argument_in_the_platforms_shell(word, posix, windows):
    """The hints quoted for POSIX shells alone: PowerShell, Windows' shell, expands ``$`` and reads
    backticks inside double quotes, and a bare ``a,b`` is an array there."""
    assert (shell_quote(word, "linux"), shell_quote(word, "win32")) == (posix, windows)


SECRET = "SEKRET123abc"


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "-b", "stub", "q", "--api-key", SECRET],
        ["search", "-b", "stub", "q", "--api-key=" + SECRET],
        ["search", "-b", "stub", "q", "--brave-api-key", SECRET],
        ["search", "-b", "stub", "q", "--token=" + SECRET],
        ["search", "-b", "stub", "q", "--password", SECRET],
        ["search", "-b", "stub", "q", "--json", "--key", SECRET],
        ["search", "-b", "stub", "q", "--proxy", "http://user:%s@proxy.example:3128" % SECRET],
        ["fetch", "https://example.com/", "--api-key", SECRET],
        ["mcp", "--api-key", SECRET],
    ],
)
def test_a_credential_given_to_an_unknown_flag_is_never_echoed(capsys, argv):
    """Before: ``unrecognized arguments: --api-key SEKRET123abc`` on stderr (and, with ``--json``, on
    stdout): the key a newcomer typed, in a CI log. The flag is named, its value is not."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert SECRET not in err and SECRET not in out, err
    assert "unrecognized arguments: --" in err


def test_a_credential_flag_says_where_keys_go(capsys):
    assert main(["search", "-b", "stub", "q", "--api-key", SECRET]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --api-key (a key or password is no flag" in err and err.endswith(") ***\n"), err
    assert "BRAVE_API_KEY" in err and "websearch-sync backends" in err, err


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--versoin"], "unrecognized arguments: --versoin (did you mean --version?)\n"),
        (["--verison", "search", "q"], "unrecognized arguments: --verison (did you mean --version?)\n"),
        (["-V"], "unrecognized arguments: -V (did you mean --version?)\n"),
        (["-version"], "unrecognized arguments: -version (did you mean --version?)\n"),
        (["--bogus"], "unrecognized arguments: --bogus\n"),  # nothing close: no guess
    ],
)
def test_a_mistyped_flag_of_the_program_is_refused_naming_its_flag(capsys, argv, said):
    """A flag before any command that no command takes was "the following arguments are required:
    COMMAND" (``--versoin``), or named without the program's flag meant (``--verison search q``)."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.endswith(said)
    assert err.startswith("usage: websearch-sync [-h] [--version] COMMAND ...\n")  # the program's usage, its flags


def test_an_abbreviated_program_flag_still_works(capsys):
    """argparse's unique prefix of the program's own flag is that flag, not a mistake."""
    assert main(["--vers"]) == 0
    assert capsys.readouterr().out.startswith("websearch-sync ")


@pytest.mark.parametrize(
    "argv, said",
    [
        (["search", "q", "--limit", "3"], "unrecognized arguments: --limit (did you mean -n?) 3\n"),
        (["search", "q", "--count=3"], "unrecognized arguments: --count=3 (did you mean -n?)\n"),
        (["search", "q", "--num", "3"], "unrecognized arguments: --num (did you mean -n?) 3\n"),
        (["search", "q", "--top-k", "3"], "unrecognized arguments: --top-k (did you mean -n?) 3\n"),
        (["search", "q", "--provider", "brave"], "unrecognized arguments: --provider (did you mean -b?) brave\n"),
        (["search", "q", "--domain", "x.org"], "unrecognized arguments: --domain (did you mean --site?) x.org\n"),
        (["search", "q", "--country", "de"], "unrecognized arguments: --country (did you mean --locale?) de\n"),
        (["search", "q", "--freshness", "pd"], "unrecognized arguments: --freshness (did you mean --time-range?) pd\n"),
        (["fetch", "https://example.com/", "--max-length", "9"], "--max-length (did you mean --max-chars?) 9\n"),
    ],
)
def test_another_apis_name_of_a_flags_input_names_the_flag(capsys, argv, said):
    """``search(limit=3)`` names ``max_results`` (:data:`~websearch_sync.vocabulary.synonyms.OPTION_SYNONYMS`),
    and ``--option count=5`` names ``-n``; the flag ``--limit`` was refused naming nothing."""
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith(said)


@pytest.mark.parametrize(
    "typed, quoted",
    [
        (["-pinterest"], "-pinterest"),  # no -p with its page joined
        (["python", "-reddit", "-twitter"], '"python -reddit -twitter"'),  # no -r with a region, no -t with a time
        (["-snake"], "-snake"),  # no -s with a safe-search level
        (["-x"], "-x"),
    ],
)
def test_an_excluded_term_typed_unquoted_is_told_to_go_after_the_double_dash(capsys, typed, quoted):
    """Before: ``websearch-sync search -pinterest`` said ``(ddgs's -p: here -n, the results wanted ...)``,
    ``search python -reddit`` named ddgs's ``-r`` (a region), and ``search -x`` said ``unrecognized arguments:
    -x`` alone: a query's excluded term, which argparse reads as a flag, got another tool's flag or nothing.
    A word is now ddgs's flag with its value joined only when the rest is a value of that flag (``-td``), and
    words that are no flag are told how to search for them."""
    assert main(["search", "-b", "stub", *typed]) == 2
    err = capsys.readouterr().err
    assert "ddgs's" not in err, err
    assert "(a query with a word starting with - is one argument after --, which ends the flags: " in err, err
    assert err.rstrip().endswith("websearch-sync search -- %s)" % quoted), err


@pytest.mark.parametrize("typed", ["--verbose", "--jsn", "-rus-en"])
def test_a_flag_meant_gets_no_query_hint(capsys, typed):
    """``--verbose`` is a flag meant, never a query's word; ``--jsn`` and ``-rus-en`` keep their hints."""
    assert main(["search", "-b", "stub", "q", typed]) == 2
    assert "is one argument after --" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "typed, said",
    [
        (["--categories", "news"], "--categories (a backend option: --option categories=VALUE) news\n"),
        (["--pageno=2"], "--pageno=2 (a backend option: --option pageno=VALUE)\n"),
        (["--max-pages", "1"], "--max-pages (a backend option: --option max_pages=VALUE) 1\n"),
    ],
)
def test_a_backend_option_given_as_a_flag_names_the_option_flag(capsys, typed, said):
    """``search q -b searxng --categories news`` (an option docs/backends.md names) was refused naming
    nothing: backend options go through ``--option KEY=VALUE``, which the refusal now says."""
    assert main(["search", "-b", "stub", "q", *typed]) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: " + said)


def test_a_backend_option_is_named_only_where_option_is_taken(capsys):
    """``fetch`` takes no ``--option``: its ``--pageno`` is refused as any unknown flag."""
    assert main(["fetch", "https://a.example/", "--pageno", "2"]) == 2
    assert capsys.readouterr().err.endswith("unrecognized arguments: --pageno 2\n")
