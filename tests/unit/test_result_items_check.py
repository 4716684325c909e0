"""A parse result's items checked by ``map`` first (``registry._plain_items``) are judged as the
per-item loop judges them: the quick test passes only items the loop finds nothing wrong with."""

import pytest

from websearch_sync.engine import registry
from websearch_sync.models import ParseResult


class _Dict(dict):
    pass


ITEMS = [
    [],
    [{"url": "https://a.example/"}],
    [{"url": "https://a.example/", "title": "A"}, {"url": "https://b.example/"}],
    [{"url": "https://a.example/"}, {"title": "no url"}],
    [{"url": "https://a.example/", "provider": None}],
    [{"url": "https://a.example/", "provider": "ddg_html"}],
    [{"url": "https://a.example/", "provider": "no_such_backend"}],
    [{"url": "https://a.example/", "providers": ["ddg_html", "no_such_backend"]}],
    [{"url": "https://a.example/", "providers": ["ddg_html"]}],
    [{"url": "https://a.example/"}, ["not", "a", "dict"]],
    [_Dict(url="https://a.example/")],
    [_Dict(title="no url")],
]


@pytest.mark.parametrize("items", ITEMS)
def test_the_quick_items_check_judges_as_the_loop(items, monkeypatch):
    quick = registry._result_problem(ParseResult(items=items))
    monkeypatch.setattr(registry, "_plain_items", lambda items: False)
    assert quick == registry._result_problem(ParseResult(items=items))


def test_the_quick_check_passes_plain_items_only():
    assert registry._plain_items([{"url": "u"}, {"url": "v", "title": "t"}])
    for items in ITEMS[3:]:
        assert not registry._plain_items(items), items
