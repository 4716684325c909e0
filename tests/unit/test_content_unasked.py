"""A result's page text that a backend gives without ``include_content`` (a plugin's parse may):
it was passed on whole, so a service's megabyte of text reached the caller and, through the search
tool, the model (a 1 MB tool text). It is cut at ``max_content_chars``' default, as a service's text
is when asked for, and says so (``content_truncated_by``)."""

import websearch_sync as ws
from websearch_sync.config import DEFAULT_CONTENT_CHARS
from websearch_sync.mcp.tools import McpTools
from websearch_sync.testing import fake_results

ITEM = {"title": "a page", "url": "https://example.org/a", "snippet": "s"}


def _search_and_tool(content: str):
    with fake_results({"ddg_html": [dict(ITEM, content=content)]}):
        with ws.SearchClient(settings=ws.Settings(backend="ddg_html"), cache_ttl_s=0) as client:
            (item,) = client.search("q")["items"]
            text = McpTools(client).call("web_search", {"query": "q"}).text
    return item, text


def test_a_megabyte_of_page_text_not_asked_for_is_cut_and_says_so():
    item, text = _search_and_tool("word " * 200_000)
    assert len(item["content"]) == DEFAULT_CONTENT_CHARS and item["content_truncated_by"] == ["max_chars"]
    assert len(text) < DEFAULT_CONTENT_CHARS + 2_000


def test_short_page_text_not_asked_for_is_kept_whole():
    item, _ = _search_and_tool("a short page text")
    assert item["content"] == "a short page text" and "content_truncated_by" not in item


def test_page_text_asked_for_is_cut_at_the_calls_own_max_content_chars_not_the_default():
    """Asked for with a larger ``max_content_chars``, a service's text is cut there only (the cut of
    text not asked for must not reach it)."""
    with fake_results({"ddg_html": [dict(ITEM, content="word " * 1_500)]}):
        with ws.SearchClient(settings=ws.Settings(backend="ddg_html"), cache_ttl_s=0) as client:
            (item,) = client.search("q", include_content=True, max_content_chars=9_000)["items"]
    assert item["content"] == ("word " * 1_500).strip() and len(item["content"]) > DEFAULT_CONTENT_CHARS
    assert "content_truncated_by" not in item
