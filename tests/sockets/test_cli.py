"""The command line, through main(argv) and as a real subprocess."""

import argparse
import configparser
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.cli import build_parser, main
from websearch_sync.net import browser
from websearch_sync.net.browser import browser_available

ROOT = Path(__file__).resolve().parents[2]


def test_search_prints_numbered_results(capsys):
    assert main(["search", "python requests timeout"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "1. python requests timeout - Overview\n   URL: https://example.com/search?q=python+requests+timeout\n"
    )
    assert "\n3. " in out


def test_json_output_is_the_canonical_shape(capsys):
    assert main(["search", "q", "-n", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [i["rank"] for i in data["items"]] == [1, 2]
    assert data["provider_meta"]["provider_name"] == "stub"


@pytest.mark.parametrize(
    "argv, status, line",
    [
        (["search", "   "], 2, "error: InvalidInput/empty_query: "),
        (["search", "q", "-n", "51"], 2, "error: InvalidInput/bad_max_results: "),
        (["search", "q", "--vertical", "news", "-b", "wikipedia"], 2, "error: InvalidInput/unsupported_vertical: "),
        (["search", "q", "-b", "nope"], 2, "error: InvalidInput/unknown_backend: "),
        (["search", "q", "--timeout-ms", "0"], 2, "error: InvalidInput/bad_timeout: "),
    ],
)
def test_errors_are_one_line_on_stderr_with_a_status(capsys, argv, status, line):
    assert main(argv) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    first, *rest = captured.err.splitlines()
    assert first.startswith(line) and [r for r in rest if not r.startswith("hint: ")] == [] and len(rest) <= 1


@pytest.mark.parametrize(
    "argv, indent",
    [
        (["search", "q", "--json", "--time-range", "yesterday"], 2),
        (["search", "q", "--format", "jsonl", "-n", "many"], None),
        (["fetch", "https://a.example/", "--json", "--max-chars", "many"], 2),  # (--mode is checked as fetch checks it)
    ],
)
def test_a_usage_error_of_a_json_command_is_the_json_error_form_too(capsys, argv, indent):
    """docs/cli.md: with --json (or jsonl, a batch) the error form also goes to stdout. A usage
    error (argparse's) left stdout empty: a script reading JSON got nothing to read."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    error = json.loads(out)["error"]
    assert (error["type"], error["detail_code"], error["retryable"]) == ("InvalidInput", "bad_arguments", False)
    assert error["message"] in err  # the same words as argparse's line on stderr
    assert out.startswith("{\n  ") if indent else out.count("\n") == 1
    assert main(["search", "q", "-n", "many"]) == 2  # a text command's usage error: nothing on stdout
    assert capsys.readouterr().out == ""


def test_usage_errors_exit_2(capsys):
    assert main([]) == 2
    assert main(["search"]) == 2
    assert main(["search", "q", "-n", "many"]) == 2


def test_version_and_help(capsys):
    assert main(["--version"]) == 0
    assert "websearch-sync" in capsys.readouterr().out
    assert main(["--help"]) == 0
    assert "example" in capsys.readouterr().out


def _command_parsers(parser, path=()):
    """``(argv before --help, parser)`` for the command line and each of its commands, nested ones too."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                yield from _command_parsers(command, (*path, name))


def test_every_commands_help_can_be_printed():
    """argparse expands ``%`` in a help string only when it prints the help: a stray ``%`` (``100%``)
    or an unknown ``%(name)s`` makes that command's ``--help`` a traceback, which nothing else shows."""
    commands = dict(_command_parsers(build_parser()))
    assert {("state", "clear"), ("mcp",), ("check-live",)} <= set(commands)  # the walk reaches nested commands
    for path, parser in commands.items():
        assert parser.format_help().startswith("usage: " + " ".join(("websearch-sync", *path))), path


def test_upstream_failures_have_their_own_statuses(testjson, capsys, fake_clock):
    import os

    from faults import refused_port, respond
    from servers import FaultServer

    os.environ["WEB_SEARCH_ENDPOINT_TESTJSON"] = "http://127.0.0.1:%d/s" % refused_port()
    try:
        assert main(["search", "q", "-b", "testjson"]) == 4
        lines = capsys.readouterr().err.splitlines()  # each retry wait is a line, then the error
        assert lines[-1].startswith("error: NetworkError/connection_refused: ")
        assert [line.split(", retry ")[0] for line in lines[:-1]] == [
            "retry: testjson: NetworkError/connection_refused"
        ] * 2
        with FaultServer({"/s": respond(429, b"")}) as server:
            os.environ["WEB_SEARCH_ENDPOINT_TESTJSON"] = server.url("/s")
            assert main(["search", "q", "-b", "testjson"]) == 3
        with FaultServer({"/s": respond(502, b"")}) as server:
            os.environ["WEB_SEARCH_ENDPOINT_TESTJSON"] = server.url("/s")
            assert main(["search", "q", "-b", "testjson"]) == 5
    finally:
        del os.environ["WEB_SEARCH_ENDPOINT_TESTJSON"]


def test_search_options_and_formats(capsys):
    assert (
        main(
            [
                "search",
                "q",
                "-b",
                "stub",
                "--strategy",
                "merge",
                "--locale",
                "en-US",
                "--time-range",
                "week",
                "--format",
                "jsonl",
                "-n",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and json.loads(out)["items"][0]["rank"] == 1
    assert main(["search", "q", "--format", "markdown", "-n", "1"]) == 0
    assert capsys.readouterr().out.startswith("1. [q - Overview](<https://example.com/search?q=q>)")
    assert main(["search", "q", "--time-range", "decade"]) == 2


def test_query_and_queries_file_are_exclusive(tmp_path, capsys):
    queries = tmp_path / "q.txt"
    queries.write_text("a\n")
    assert main(["search"]) == 2
    assert main(["search", "q", "--queries-file", str(queries)]) == 2
    assert "either a QUERY or --queries-file" in capsys.readouterr().err
    assert main(["search", "--queries-file", str(tmp_path / "missing.txt")]) == 2


def test_batch_mode_writes_one_line_per_query_and_survives_failures(tmp_path, capsys):
    queries = tmp_path / "queries.txt"
    queries.write_text("first query\n\n   \n" + "x" * 2001 + "\nthird query\n", encoding="utf-8")
    status = main(["search", "--queries-file", str(queries), "-n", "2", "--cache-path", str(tmp_path / "c.sqlite3")])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["query"][:5] for line in lines] == ["first", "xxxxx", "third"]
    assert len(lines[0]["items"]) == 2 and len(lines[2]["items"]) == 2
    assert lines[1]["error"]["type"] == "InvalidInput" and lines[1]["error"]["detail_code"] == "query_too_long"
    assert status == 2  # the status of the first failed query


def test_backends_table(capsys):
    assert main(["backends"]) == 0
    out = capsys.readouterr().out
    header = ["BACKEND", "KIND", "VERTICALS", "CONFIGURED", "RATE", "LIMIT", "TRANSPORT", "ENVIRONMENT"]
    assert out.splitlines()[0].split() == header
    assert "stub" in out
    assert main(["backends", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {
        "name",
        "kind",
        "verticals",
        "configured",
        "missing",
        "env",
        "min_interval_s",
        "transport",
        "summary",
    } <= set(rows[0])
    verticals = {row["name"]: row["verticals"] for row in rows}
    assert verticals["stub"] == ["web", "news", "images", "videos"]
    assert verticals["wikipedia"] == ["web"]


@pytest.mark.parametrize(
    "impersonate, html, api", [("chrome", "curl_cffi/chrome", "requests"), ("off", "requests", "requests")]
)
def test_backends_shows_the_transport_and_profile(impersonate, html, api, capsys):
    if impersonate != "off" and not browser_available():
        pytest.skip("needs the browser extra")
    assert main(["backends", "--json", "--impersonate", impersonate]) == 0
    captured = capsys.readouterr()
    rows = {row["name"]: row for row in json.loads(captured.out)}
    assert rows["ddg_html"]["transport"] == html and rows["brave"]["transport"] == api
    assert ("to turn them on" in captured.err) == (impersonate == "off")


def test_without_the_extra_backends_says_how_to_turn_browser_requests_on(monkeypatch, capsys):
    monkeypatch.setattr(browser, "browser_available", lambda: False)
    assert main(["backends"]) == 0
    out = capsys.readouterr().out
    table, note = out.rsplit("transport:", 1)
    assert "curl_cffi" not in table.split("TRANSPORT")[1]  # no row claims the browser wire
    assert "pip install 'curl_cffi>=" in note and "(from a checkout: pip install -e '.[browser]')" in note
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=ws.Settings(impersonate="chrome"))
    assert info.value.detail_code == "missing_browser_extra" and "[browser]" in info.value.message


def test_backends_never_prints_values(monkeypatch, capsys, json_backends):
    json_backends("keyed", required=("api_key",), env_vars={"api_key": "KEYED_API_KEY"})
    monkeypatch.setenv("KEYED_API_KEY", "super-secret-value-123")
    assert main(["backends"]) == 0
    out = capsys.readouterr().out
    assert "KEYED_API_KEY" in out and "super-secret-value-123" not in out
    assert main(["backends", "--json"]) == 0
    out = capsys.readouterr().out
    assert "super-secret-value-123" not in out and '"configured": true' in out


def test_the_module_runs_a_batch_as_a_subprocess(tmp_path):
    """``python -m websearch_sync`` with no PATH: one line per query on a real pipe, the status of
    the failed query as the process's exit status, no progress bar on a stderr that is not a terminal."""
    queries = tmp_path / "queries.txt"
    queries.write_text("hello world\n" + "y" * 2001 + "\ntwo\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "websearch_sync", "search", "--queries-file", str(queries)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "", "PYTHONIOENCODING": "utf-8"},
    )
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 2, proc.stderr
    assert ["items" in line for line in lines] == [True, False, True]
    assert lines[0]["items"][0]["url"] == "https://example.com/search?q=hello+world"
    assert "\r" not in proc.stderr  # no progress bar when stderr is not a terminal
    assert proc.stderr.splitlines()[-2:] == [
        "2 ok, 1 failed",
        "  1 failed: InvalidInput/query_too_long: query is 2001 characters long; the limit is 2000",
    ]


def installed_console_script(name: str) -> Path:
    """The console script ``name`` as pip wrote it for this installation of websearch-sync (listed
    in its RECORD: beside ``sys.executable`` in a venv), once the installation is seen to declare
    the console scripts setup.cfg declares (an installation older than setup.cfg runs the old ones)."""
    found = list(metadata.distributions(name="websearch-sync"))
    if not found:
        pytest.skip("websearch-sync is not installed (a checkout on PYTHONPATH): it has no console script")
    # ``pip install -e .`` leaves setuptools' websearch_sync.egg-info in the checkout, found first when the
    # checkout is on sys.path (``python -m pytest``); pip's installation is the one with a RECORD.
    installed = next((found_one for found_one in found if found_one.read_text("RECORD") is not None), found[0])
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    lines = config["options.entry_points"]["console_scripts"].strip().splitlines()
    declared = {script.strip(): target.strip() for script, target in (line.split("=", 1) for line in lines)}
    scripts = {ep.name: ep.value for ep in installed.entry_points.select(group="console_scripts")}
    assert scripts == declared, "installed before setup.cfg changed: reinstall (pip install -e '.[test]')"
    listed = [path for path in installed.files or () if path.name in (name, name + ".exe")]
    assert len(listed) == 1, "the installation's RECORD lists %r as %s" % (name, listed)
    return Path(os.path.normpath(installed.locate_file(listed[0])))


def test_the_installed_command_searches_with_an_ascii_stdout(capsys):
    """The README's first command as pip installs it (the ``websearch-sync`` script of setup.cfg's
    entry point; every other test calls ``main`` or ``python -m``, which a wrong entry point leaves
    working), started with the interpreter's own strict ASCII stdout (``PYTHONIOENCODING``): what
    ASCII cannot hold is written as backslash escapes (docs/cli.md), not a UnicodeEncodeError."""
    argv = ["search", "北京 天气 ☃ \U0001f600", "-n", "1"]
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="ascii")
    done = subprocess.run([installed_console_script("websearch-sync"), *argv], capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr.decode("ascii", "replace")
    assert main(argv) == 0  # the same command in this process, on a UTF-8 stream: the text to expect, escaped
    expected = capsys.readouterr().out.encode("ascii", "backslashreplace").decode("ascii")
    assert "\\u5317\\u4eac" in expected  # the stub's title and snippet carry the query
    assert done.stdout.decode("ascii") == expected


ARTICLE = (
    "<html><head><title>Local article</title></head><body><nav>menu menu</nav><article><h1>Local article</h1>"
    + "<p>This paragraph is the main content of a small article served on the loopback interface. " * 3
    + "</p><p>A second paragraph with more words so that readability keeps it as the article body.</p>"
    "</article></body></html>"
).encode()


def test_fetch_command(capsys):
    from faults import respond
    from servers import FaultServer

    with FaultServer({"/a": respond(200, ARTICLE), "/missing": respond(404, b"gone")}) as server:
        assert main(["fetch", server.url("/a"), "--allow-private", "--mode", "text"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("Local article\nURL: %s" % server.url("/a"))
        assert "main content of a small article" in out
        assert main(["fetch", server.url("/a"), "--allow-private", "--json", "--max-chars", "40"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["truncated"] is True and data["length"] == 40 and data["final_url"] == server.url("/a")
        assert main(["fetch", server.url("/missing"), "--allow-private"]) == 5
        assert capsys.readouterr().err.startswith("error: WebProviderError/http_404: ")
        assert main(["fetch", server.url("/a")]) == 2  # loopback refused without --allow-private
        assert capsys.readouterr().err.startswith("error: InvalidInput/private_address: ")
    assert main(["fetch", "ftp://example.com/file"]) == 2
    assert main(["fetch", "https://example.com/", "--mode", "pdf"]) == 2


@pytest.mark.parametrize(
    "argv, named",
    [
        (["search", "q", "-b", "ddg"], "--backend='ddg'"),
        (["search", "q", "--backend", "brave,nope"], "--backend='brave,nope'"),
        (["record", "ddg", "q"], "BACKEND='ddg'"),
        (["check-live", "ddg"], "BACKEND='ddg'"),
    ],
)
def test_an_unknown_backend_on_the_command_line_is_named_as_typed(capsys, argv, named):
    """Before: "Settings.backend='ddg' names unknown backend 'ddg'", a setting the user never wrote."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: InvalidInput/unknown_backend: %s names unknown backend " % named), err
    assert "Settings" not in err
