"""tavily news: topic "news" sent, a conflicting topic refused, published_date made ISO 8601 by normalization.

The answer is Tavily's documented news result shape (the fixture news_with_raw_content,
written from Tavily's API reference: no news answer of Tavily's is on record).
"""

import json

import pytest
from vertical_answers import FIXTURES, JSON, answer

from websearch_sync.backends.tavily import Tavily
from websearch_sync.backends.tavily_news import TavilyNews
from websearch_sync.config import Settings
from websearch_sync.engine.normalize import normalize_items
from websearch_sync.errors import InvalidInput
from websearch_sync.models import SearchParams

NEWS = TavilyNews(Settings(providers={"tavily": {"api_key": "test-tavily-key"}}))


def params(**kwargs):
    return SearchParams(**dict({"query": "eino release", "max_results": 5, "vertical": "news"}, **kwargs))


def test_request_is_a_news_search():
    spec = NEWS.build_request(params(time_range="week"))
    assert spec.method == "POST" and spec.url == "https://api.tavily.com/search"
    assert spec.json == {"query": "eino release", "max_results": 5, "topic": "news", "time_range": "week"}
    assert spec.headers["Authorization"] == "Bearer test-tavily-key"


def test_a_news_search_sends_no_country():
    """Tavily takes `country` with the general topic only: the locale's region is not sent."""
    assert "country" not in NEWS.build_request(params(locale="en-US")).json


def test_another_topic_is_refused():
    NEWS.check_params(params(options={"topic": "news"}))
    with pytest.raises(InvalidInput) as caught:
        NEWS.check_params(params(options={"topic": "finance"}))
    assert caught.value.detail_code == "bad_topic"


def test_published_date_is_iso():
    meta = json.loads((FIXTURES / "tavily" / "news_with_raw_content.meta.json").read_text(encoding="utf-8"))
    response = answer(meta["response"]["body_text"], "https://api.tavily.com/search", content_type=JSON)
    items = normalize_items(NEWS.interpret(response, params()).items, "tavily", 5, "news")
    assert [item["published_at"] for item in items] == ["2025-03-11T17:00:00Z", "2025-03-10T09:30:00Z"]
    assert [item["url"] for item in items] == [
        "https://news.example.com/eino-v0-4",
        "https://github.com/cloudwego/eino",
    ]
    assert not any("source" in item or "image_url" in item for item in items)


@pytest.mark.parametrize("engine", [NEWS, Tavily(NEWS.settings)])
def test_more_than_twenty_results_are_asked_as_twenty(engine):
    """Tavily's ``max_results`` is at most 20 (its API reference) and it has no next page:
    ``max_results=50`` asks for 20 (before: 50, outside the range Tavily accepts)."""
    assert engine.build_request(params(max_results=50)).json["max_results"] == 20
    assert engine.build_request(params(max_results=20)).json["max_results"] == 20
