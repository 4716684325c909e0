"""``include_content`` with a backend whose service gives page text (Tavily, Jina): a page the
service answered without text is read by the client like any other result's page (its pace, its
deadline, its error entries), and each item says who read its ``content`` (``content_by``).

The services' answers are their recorded ones (fixtures/tavily, fixtures/jina) with the address of
the entry that has no text moved to a loopback page."""

import json
from pathlib import Path

from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.tool import format_results

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
PAGE = (
    b"<html><head><title>Eino</title></head><body><article><p>"
    + b"Eino is an LLM application framework written in Go, read from the page itself. " * 4
    + b"</p></article></body></html>"
)


def _tavily_news_answer() -> dict:
    """The recorded news answer with raw_content: its first entry has page text, its second none."""
    meta = json.loads((FIXTURES / "tavily" / "news_with_raw_content.meta.json").read_text(encoding="utf-8"))
    return json.loads(meta["response"]["body_text"])


def _search(backend: str, answer: dict, server: FaultServer, **options) -> dict:
    server.routes["/api"] = respond(200, json.dumps(answer).encode(), content_type="application/json")
    settings = ws.Settings(
        endpoints={backend: server.url("/api")}, providers={backend: {"api_key": "k-0123456789"}}, allow_private=True
    )
    with ws.SearchClient(backend, settings=settings, cache_ttl_s=0) as client:
        return client.search("eino release", include_content=True, **options)


def test_a_tavily_result_without_page_text_is_read_by_the_client_and_marked():
    answer = _tavily_news_answer()
    given, missing = answer["results"]
    assert given["raw_content"] and missing["raw_content"] is None  # what the recording holds
    with FaultServer({"/eino": respond(200, PAGE)}) as server:
        missing["url"] = server.url("/eino")
        result = _search("tavily", answer, server, topic="news", time_range="week")
        asked = [request.path for request in server.requests]
    first, second = result["items"]
    assert (first["content"], first["content_by"]) == (given["raw_content"], "tavily")
    assert second["content"].startswith("Eino is an LLM application framework") and second["content_by"] == "fetch"
    assert asked == ["/api", "/eino"]  # the page Tavily gave text for is not read again
    assert "errors" not in result


def test_a_jina_result_without_page_text_that_cannot_be_read_is_an_error_entry(fake_clock):
    answer = json.loads((FIXTURES / "jina" / "jina-docs__when_founded.json").read_text(encoding="utf-8"))
    answer["data"][1]["content"] = ""  # a page Jina could not read
    with FaultServer({}) as server:  # the page is gone: 404
        answer["data"][1]["url"] = server.url("/gone")
        result = _search("jina", answer, server)
    first, second = result["items"]
    assert (first["content"], first["content_by"]) == (answer["data"][0]["content"], "jina")
    assert second["content"] == "" and "content_by" not in second
    [error] = result["errors"]
    assert (error["provider"], error["detail_code"], error["url"]) == ("fetch", "http_404", second["url"])


def test_the_stubs_made_up_pages_are_still_never_read():
    with ws.SearchClient("stub", cache_ttl_s=0) as client:
        result = client.search("q", include_content=True, max_results=2)
    assert all("content" not in item for item in result["items"]) and "errors" not in result


def test_an_items_content_says_what_cut_it_as_a_fetch_result_does():
    """``content_truncated_by`` is fetch's ``truncated_by`` for a page read here, ``["max_chars"]``
    for a service's text cut to ``max_content_chars``; an item whose text was not cut has none
    (before, an item did not say whether its content was cut at all); the tool text says it."""
    answer = _tavily_news_answer()
    missing = answer["results"][1]
    with FaultServer({"/eino": respond(200, PAGE)}) as server:
        missing["url"] = server.url("/eino")
        cut = _search("tavily", answer, server, topic="news", max_content_chars=40)
        whole = _search("tavily", answer, server, topic="news")  # 4000 characters: more than either text
    assert [(len(item["content"]), item.get("content_truncated_by")) for item in cut["items"]] == [
        (40, ["max_chars"]),
        (40, ["max_chars"]),
    ]
    assert [item["content_by"] for item in whole["items"]] == ["tavily", "fetch"]
    assert all("content_truncated_by" not in item and item["content"] for item in whole["items"])
    ws.testing.assert_contract(cut)
    assert format_results(cut).count("   Content (truncated to 40 characters)\n") == 2  # what a model reads
