"""The offline stub answers a query of any length it accepts: a 2,000-emoji query (the longest a
query may be, 24,000 characters once escaped) made its three URLs longer than a result keeps, and
it answered "No results found." where every shorter query gets its three pages."""

import pytest

import websearch_sync as ws
from websearch_sync.backends import stub


@pytest.mark.parametrize("query", ["\U0001f600" * 2000, "\u00e9 " * 1000, "a" * 2000, "100% \u00e9%"])
@pytest.mark.parametrize("vertical", ["web", "news", "images", "videos"])
def test_the_longest_queries_get_the_stubs_pages(query, vertical):
    response = ws.search(query, backend="stub", vertical=vertical)
    urls = [item["url"] for item in response["items"]]
    assert len(urls) == 3, response
    assert all(len(url) <= 2100 for url in urls)


def test_a_url_is_cut_before_a_whole_escape_only():
    for text in ("\u00e9" * 700, "x" + "\u00e9" * 700, "xx" + "\u00e9" * 700):
        escaped = stub._escaped(text, stub.quote)
        assert len(escaped) <= stub._URL_QUERY_CHARS and escaped.count("%") * 3 == len(escaped.lstrip("x"))
