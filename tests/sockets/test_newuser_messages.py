"""A new user's walk: every message speaks the caller's language (issue 23, point 16).

The command line names its flags, Python names its arguments, a model reading a tool
result gets no remedy it cannot apply, and a message names the setting the user set.
"""

import pytest
from faults import never_answer, respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.tool import call_tool

#: A page whose text begins after 30 000 bytes of inline script (a modern app shell).
LATE_TEXT_PAGE = (
    b"<html><head><title>t</title><script>" + b"var a = 1;\n" * 3000 + b"</script></head>"
    b"<body><article><p>" + b"Readable words of the article. " * 40 + b"</p></article></body></html>"
)


def test_the_cli_names_its_own_flag_for_a_private_address(capsys):
    assert main(["fetch", "http://127.0.0.1:9/"]) == 2
    err = capsys.readouterr().err
    assert "--allow-private" in err
    assert "allow_private=True" not in err


def test_python_gets_the_argument_and_a_model_gets_no_remedy_it_cannot_apply():
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch("http://127.0.0.1:9/")
    assert "allow_private=True" in str(info.value)
    answer = call_tool("web_fetch", {"url": "http://127.0.0.1:9/"})
    assert answer["error"]["detail_code"] == "private_address"
    assert (
        "allow_private" not in answer["error"]["message"]
        and "WEB_FETCH_ALLOW_PRIVATE" not in answer["error"]["message"]
    )


def test_a_bad_searxng_base_url_names_the_variable_that_set_it(monkeypatch, capsys):
    monkeypatch.setenv("SEARXNG_BASE_URL", "searx.example")  # no scheme
    assert main(["search", "q", "-b", "searxng"]) == 2
    err = capsys.readouterr().err
    assert "SEARXNG_BASE_URL" in err and "WEB_SEARCH_ENDPOINT_SEARXNG" not in err


def test_a_page_cut_by_the_byte_cap_says_so(capsys):
    with FaultServer({"/late": respond(200, LATE_TEXT_PAGE)}) as server:
        with pytest.raises(ws.WebParseError) as info:
            # 30 s, not the subject: a process's first fetch builds its wire and extractor (2-7 s under load)
            ws.fetch(server.url("/late"), allow_private=True, max_bytes=4000, timeout_ms=30_000)
        assert "byte cap" in info.value.message and "JavaScript" not in info.value.message
        assert "max_bytes" in str(info.value)
        assert main(["fetch", server.url("/late"), "--allow-private", "--max-bytes", "4000"]) == 5
        err = capsys.readouterr().err
        assert "raise --max-bytes" in err and "JavaScript" not in err
        # Read whole, the same page has text: the cap was the reason.
        assert "Readable words" in ws.fetch(server.url("/late"), allow_private=True, timeout_ms=30_000)["text"]


def test_a_one_millisecond_timeout_is_called_too_small(monkeypatch, capsys):
    with FaultServer({"/s": never_answer(5)}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_DDG_HTML", server.url("/s"))
        assert main(["search", "q", "-b", "ddg_html", "--timeout-ms", "1"]) == 4
    err = capsys.readouterr().err
    assert "--timeout-ms 1 is too small" in err
