"""Offline stub results never pass for web results (issue 23, point 12).

Python callers get one ``OfflineResultsWarning`` and one logged warning per process, the
formatted tool output says the results are made up, and ``include_content`` never reads the
stub's made-up pages. (The MCP server's start-up line is checked in tests/sockets/test_mcp.py.)
One test starts a fresh interpreter, for what a script sees with Python's default warning filters
and no logging configured; the others reset the once-per-process state in this process.
"""

import logging
import os
import subprocess
import sys
from pathlib import Path

import responses

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.backends import stub
from websearch_sync.backends.stub import OFFLINE_WARNING

ROOT = Path(__file__).resolve().parents[2]


def clean_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_SEARCH_", "WEB_FETCH_"))}
    env["PYTHONPATH"] = str(ROOT)
    return env


def test_a_script_sees_the_notice_once_at_its_first_search():
    """A fresh interpreter, as a user's script meets the library: Python's default warning filters
    and no logging configured (pytest changes both). The warning is shown once, at the caller's
    first search; three more searches on other lines (one by a client) add none; and no log record
    beside it (logging's last resort would print the same words again)."""
    script = (
        "import websearch_sync as ws\n"
        "ws.search('one')\n"
        "ws.search('two')\n"
        "ws.SearchClient().search('three')\n"
        "ws.search('four')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], env=clean_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    notices = [line for line in done.stderr.splitlines() if OFFLINE_WARNING in line]
    assert notices == ["<string>:2: OfflineResultsWarning: " + OFFLINE_WARNING], done.stderr


def test_a_service_logging_its_warnings_gets_the_notice_once_in_its_log():
    """A service that routes warnings to its log (``logging.captureWarnings(True)``, as many do) got
    the same words twice: the warning's record (``py.warnings``) and ours (``websearch_sync``)."""
    script = (
        "import logging\n"
        "logging.basicConfig(format='%(name)s: %(message)s')\n"
        "logging.captureWarnings(True)\n"
        "import websearch_sync as ws\n"
        "ws.search('one')\n"
        "ws.search('two')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], env=clean_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    notices = [line for line in done.stderr.splitlines() if OFFLINE_WARNING in line]
    assert notices == ["py.warnings: <string>:5: OfflineResultsWarning: " + OFFLINE_WARNING], done.stderr


def _offline(seen):
    return [str(w.message) for w in seen if issubclass(w.category, stub.OfflineResultsWarning)]


def test_python_callers_are_warned_once_per_process(unwarned):
    for query in ("one", "two", "three"):
        ws.search(query)
    with ws.SearchClient() as client:
        client.search("four")
    assert _offline(unwarned) == [OFFLINE_WARNING]


def test_an_application_that_configured_logging_also_gets_one_log_record(unwarned, caplog):
    # pytest's capture handler on the root logger stands for the application's (logging.basicConfig)
    ws.search("one")
    ws.search("two")
    logged = [(r.name, r.levelno) for r in caplog.records if r.getMessage() == OFFLINE_WARNING]
    assert logged == [("websearch_sync", logging.WARNING)]
    assert _offline(unwarned) == [OFFLINE_WARNING]  # beside the warning, once


def test_the_formatted_tool_output_says_the_results_are_made_up():
    """The offline default's note says how to search the web; the stub named (``SearchClient("stub")``)
    says only that the results are made up, as its snippets do."""
    for backend, note in ((None, tool.OFFLINE_NOTE), ("stub", tool.OFFLINE_NAMED_NOTE)):
        with ws.SearchClient(backend, settings=ws.Settings()) as client:
            result = tool.call_tool("web_search", {"query": "anything"}, client=client)
        for style in ("text", "markdown"):
            assert tool.format_results(result, style).endswith(note)


def test_web_results_carry_no_offline_note():
    result = {
        "items": [{"title": "T", "url": "https://a.example/", "snippet": "S", "provider": "brave", "rank": 1}],
        "provider_meta": {"provider_name": "brave"},
    }
    assert tool.OFFLINE_NOTE not in tool.format_results(result)


def test_include_content_never_reads_the_stubs_made_up_pages():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        with ws.SearchClient("stub", settings=ws.Settings()) as client:
            result = client.search("anything", include_content=True, timeout_ms=2000)
        assert len(mocked.calls) == 0
    assert "errors" not in result and all("content" not in item for item in result["items"])
    # and says so (before, the call's results simply had no content, without a word)
    assert result["provider_meta"]["not_sent"] == ["include_content"]


def test_a_stub_search_without_include_content_reports_nothing_unsent():
    with ws.SearchClient("stub", settings=ws.Settings()) as client:
        assert "not_sent" not in client.search("anything")["provider_meta"]


def test_the_stub_refuses_the_locale_word_as_the_web_backends_do():
    # docs/api.md: locale="auto" lets SearXNG detect the language, "other backends refuse it":
    # code tried on the offline default must not pass there and fail on a real engine
    for backend in ("stub", "ddg_html"):
        try:
            ws.search("q", backend=backend, locale="auto", settings=ws.Settings())
        except ws.InvalidInput as error:
            assert (error.detail_code, error.provider) == ("bad_locale", backend)
        else:
            raise AssertionError("%s took locale='auto'" % backend)


REMEDY = "set WEB_SEARCH_BACKEND to search the web"


def test_the_default_stubs_snippets_say_how_to_search_the_web(unwarned):
    snippets = [item["snippet"] for item in ws.search("one")["items"]]
    assert snippets and all(snippet.endswith("Offline stub result (%s)." % REMEDY) for snippet in snippets)


def test_a_stub_the_caller_named_says_only_that_its_results_are_made_up(unwarned):
    """``backend="stub"`` chose the stub, as its missing warning says: its snippets (all three
    verticals that have them) no longer tell the caller to set ``WEB_SEARCH_BACKEND``."""
    for vertical in ("web", "news", "videos"):
        items = ws.search("one", backend="stub", vertical=vertical)["items"]
        assert items and all(item["snippet"].endswith(". Offline stub result.") for item in items), items
    assert _offline(unwarned) == []


def test_the_command_line_with_stub_named_has_no_remedy_in_its_snippets(capsys):
    from websearch_sync.cli import main

    assert main(["search", "one", "-b", "stub"]) == 0
    out = capsys.readouterr().out
    assert "Offline stub result." in out and REMEDY not in out


def test_the_tools_note_tells_to_set_the_backend_only_for_the_default(unwarned):
    """The tool's note follows the snippets' rule: the offline default's says how to search the
    web (``set WEB_SEARCH_BACKEND``), a stub the caller named (``backend="stub"``) only that its
    results are made up; images, which have no snippet, the same."""
    default_text = tool.format_results(ws.search("one"))
    assert tool.OFFLINE_NOTE in default_text and REMEDY in default_text
    for vertical in ("web", "images"):
        named_text = tool.format_results(ws.search("one", backend="stub", vertical=vertical))
        assert tool.OFFLINE_NAMED_NOTE in named_text and "WEB_SEARCH_BACKEND" not in named_text, named_text


def test_the_command_lines_note_tells_to_choose_a_backend_only_for_the_default(capsys, monkeypatch):
    """The command line's stderr note: ``-b stub`` or ``WEB_SEARCH_BACKEND=stub`` chose the stub,
    and are not told to choose a backend; without either the note says how."""
    from websearch_sync.cli import main

    monkeypatch.delenv("WEB_SEARCH_BACKEND", raising=False)
    assert main(["search", "one"]) == 0
    assert "choose a backend with -b NAME" in capsys.readouterr().err
    for argv, environment in ((["search", "one", "-b", "stub"], None), (["search", "one"], "stub")):
        if environment:
            monkeypatch.setenv("WEB_SEARCH_BACKEND", environment)
        assert main(argv) == 0
        err = capsys.readouterr().err
        assert "offline stub backend, not from the web" in err and "choose a backend" not in err, err


def test_a_cached_stub_answer_is_not_served_to_a_call_that_named_it_otherwise(unwarned):
    """A named stub's answer and the default's differ (their snippets, ``offline_default``): the
    cache keeps each under its own key, either order, so neither is served the other's text."""
    for order in ((None, "stub"), ("stub", None)):
        with ws.SearchClient() as client:  # no backend named by the client: the call's decides
            for backend in order + order:
                answer = client.search("cached", backend=backend)
                named = backend is not None
                assert answer["provider_meta"].get("offline_default") is (None if named else True)
                assert all((REMEDY in item["snippet"]) is not named for item in answer["items"]), answer
            assert client.search("cached", backend=order[0])["provider_meta"]["cached"] is True


def test_the_mcp_servers_start_up_line_tells_to_set_the_backend_only_for_the_default():
    """``mcp`` warns on stderr that it serves the offline stub; its remedy (``set WEB_SEARCH_BACKEND``)
    only when no backend was named, the rule of the snippets and notes: ``mcp -b stub`` (the settings'
    backend) chose it. A server of a real engine says nothing."""
    from websearch_sync.cli.mcp_cmd import offline_line

    with ws.SearchClient(settings=ws.Settings()) as client:
        assert offline_line(client) == "websearch-sync mcp: warning: %s (backend: stub)" % OFFLINE_WARNING
    for client in (ws.SearchClient(settings=ws.Settings(backend="stub")), ws.SearchClient("stub")):
        with client:
            line = offline_line(client)
        assert line == "websearch-sync mcp: note: %s (backend: stub)" % stub.OFFLINE_FACT, line
    with ws.SearchClient(settings=ws.Settings(backend="ddg_html")) as client:
        assert offline_line(client) is None
