"""JSON nested too deeply, from a JSON API backend or a fetched ``application/json`` page: refused
for what it is (``not_json``, "nested over 256 levels deep"), not as "cut short or malformed", and
with the same verdict whatever the caller's stack (the parser's recursion limit counts its frames)."""

import pytest
from faults import respond
from servers import FaultServer
from test_fetch_pdf import fetch, fetch_error

import websearch_sync as ws
from websearch_sync.net.jsontext import MAX_JSON_DEPTH

JSON = "application/json"


def nested(depth: int) -> bytes:
    return b"[" * depth + b"1" + b"]" * depth


def searxng_answer(infobox: bytes) -> bytes:
    """A SearXNG answer with one result and an infobox whose content is ``infobox``."""
    return (
        b'{"query": "q", "results": [{"title": "t", "url": "https://a.example/", "content": "c", "engine": "x"}],'
        b' "infoboxes": [{"infobox": "i", "content": ' + infobox + b'}], "answers": [], "suggestions": [],'
        b' "unresponsive_engines": []}'
    )


def at_depth(frames: int, call):
    """``call()`` from ``frames`` frames further down the stack (a caller deep in its own code)."""
    return call() if frames == 0 else at_depth(frames - 1, call)


def search_error(server, frames: int = 0):
    settings = ws.Settings(providers={"searxng": {"base_url": server.url("/")}})
    with pytest.raises(ws.WebSearchError) as info:
        at_depth(frames, lambda: ws.search("q", backend="searxng", settings=settings))
    return info.value


@pytest.mark.parametrize("body", [b"[" * 100_000, nested(100_000), b'{"results": ' + b"[" * 100_000])
def test_a_search_answer_nested_too_deeply_says_so(body):
    with FaultServer({"/search": respond(200, body, content_type=JSON)}) as server:
        error = search_error(server)
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "not_json")
    assert error.message == "searxng answered with JSON nested over 256 levels deep, which is not read"


@pytest.mark.parametrize("body", [b"[" * 100_000, nested(100_000), nested(MAX_JSON_DEPTH + 1)])
def test_a_fetched_json_page_nested_too_deeply_says_so(body):
    with FaultServer({"/j": respond(200, body, content_type=JSON)}) as server:
        error = fetch_error(server.url("/j"))
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "not_json")
    assert error.message == "127.0.0.1 sent JSON nested over 256 levels deep, which fetch does not read"


def test_a_page_cut_by_max_bytes_is_still_too_deep_from_its_start():
    """What arrived already nests too deeply: not returned as 4000 ``[`` like JSON cut elsewhere."""
    with FaultServer({"/j": respond(200, nested(5000), content_type=JSON)}) as server:
        error = fetch_error(server.url("/j"), max_bytes=4000)
    shallow_body = b"[" * 200 + b"1, " * 2000 + b"1" + b"]" * 200
    with FaultServer({"/j": respond(200, shallow_body, content_type=JSON)}) as server:
        shallow = fetch(server.url("/j"), max_bytes=4000)  # cut JSON within the limit: shown as it came
    assert error.detail_code == "not_json" and "nested over 256 levels" in error.message
    assert shallow["truncated"] is True and shallow["text"] == shallow_body[:4000].decode()


@pytest.mark.parametrize("frames", [0, 300])
def test_the_verdict_does_not_depend_on_the_callers_stack(frames):
    """An answer nested 900 deep was read from a script's top level and "cut short or malformed"
    from 100 frames down; one at the limit reads from anywhere, one past it from nowhere."""
    with FaultServer(
        {
            "/search": respond(200, searxng_answer(nested(900)), content_type=JSON),
            "/j": respond(200, nested(MAX_JSON_DEPTH), content_type=JSON),
        }
    ) as server:
        error = search_error(server, frames)
        page = at_depth(frames, lambda: fetch(server.url("/j")))
    assert error.detail_code == "not_json" and "nested over 256 levels deep" in error.message
    assert page["extractor"] == "json" and page["text"].startswith("[\n  [\n    [\n")
    with FaultServer({"/search": respond(200, searxng_answer(nested(200)), content_type=JSON)}) as server:
        settings = ws.Settings(providers={"searxng": {"base_url": server.url("/")}})
        answer = at_depth(frames, lambda: ws.search("q", backend="searxng", settings=settings))
    assert [item["url"] for item in answer["items"]] == ["https://a.example/"]


def test_brackets_inside_strings_are_no_nesting():
    body = b'{"pattern": "' + b"[{" * 5000 + b'", "escaped": "\\\\\\"' + b"[" * 500 + b'"}'
    with FaultServer({"/j": respond(200, body, content_type=JSON)}) as server:
        page = fetch(server.url("/j"), max_chars=100_000)
    assert page["extractor"] == "json" and page["text"].count("[") == 5500
