"""The vertical engines of Bing, Yahoo, Brave, SearXNG, Tavily and Startpage as a user meets them:
registered beside the web engines, picked by ``vertical=``, an endpoint override moving them
to its host, a recorded answer through ``websearch_sync.search`` (normalised items)."""

from pathlib import Path

import pytest
import responses
from clocks import FakeClock
from vertical_answers import HTML, body

import websearch_sync as ws
from websearch_sync.client.selection import keyless_chain
from websearch_sync.engine import registry

ENGINES = {
    "bing_html": ("web", "news", "images", "videos"),
    "yahoo_html": ("web", "news"),
    "brave": ("web", "news", "images", "videos"),
    "searxng": ("web", "news", "images", "videos"),
    "tavily": ("web", "news"),
    "startpage_html": ("web", "images"),
    "mojeek_html": ("web",),
    "wikipedia": ("web",),
}


@pytest.mark.parametrize("name, verticals", sorted(ENGINES.items()))
def test_registered_verticals(name, verticals):
    assert registry.verticals_of(name) == verticals
    for vertical in verticals:
        assert registry.backend_class(name, vertical).vertical == vertical


@pytest.mark.parametrize(
    "name, vertical, override, sent",
    [
        ("bing_html", "news", "http://127.0.0.1:8080/search", "http://127.0.0.1:8080/news/infinitescrollajax"),
        ("bing_html", "web", "http://127.0.0.1:8080/search", "http://127.0.0.1:8080/search"),
        ("yahoo_html", "news", "https://proxy.example/yahoo", "https://proxy.example/search"),
        (
            "brave",
            "videos",
            "https://proxy.example/res/v1/web/search",
            "https://proxy.example/res/v1/videos/search",
        ),
        ("searxng", "images", "https://searx.example.org/search", "https://searx.example.org/search"),
        ("ddg_html", "news", "http://127.0.0.1:8080/html/", "http://127.0.0.1:8080/"),
        ("tavily", "news", "https://proxy.example/tavily", "https://proxy.example/tavily"),
    ],
)
def test_an_endpoint_override_keeps_the_verticals_own_path(name, vertical, override, sent):
    keyed = {name: {"api_key": "k"}} if name in ("brave", "tavily") else {}
    settings = ws.Settings(endpoints={name: override}, providers=keyed)
    assert registry.backend_class(name, vertical)(settings).endpoint_url() == sent


def test_news_through_search(fake_clock):
    with responses.RequestsMock() as mock:
        mock.add(
            "GET",
            "https://www.bing.com/news/infinitescrollajax",
            body=body("bing_html", "phrona__news.html"),
            content_type=HTML,
        )
        result = ws.search("rust programming", backend="bing_html", vertical="news", locale="en-US")
    assert result["provider_meta"]["vertical"] == "news"
    assert [item["published_at"] for item in result["items"]] == [
        "2022-07-28",
        "2026-07-09",
        "2022-09-27",
        "2020-01-21",
    ]
    assert [item["rank"] for item in result["items"]] == [1, 2, 3, 4]
    assert {item["provider"] for item in result["items"]} == {"bing_html"}


def test_video_durations_and_counts_are_numbers():
    with responses.RequestsMock() as mock:
        mock.add(
            "GET",
            "https://www.bing.com/videos/asyncv2",
            body=body("bing_html", "phrona__videos.html"),
            content_type=HTML,
            headers={"Date": "Sat, 01 Aug 2026 18:10:00 GMT"},
        )
        result = ws.search("rust programming", backend="bing_html", vertical="videos", max_results=35)
        assert len(mock.calls) == 1  # 48 videos on the page: no second page asked
    first = result["items"][0]
    assert (first["duration"], first["view_count"], first["publisher"]) == (14500, 338300, "YouTube")
    assert len(result["items"]) == 35


def test_a_backend_without_the_vertical_refuses_before_any_request():
    with responses.RequestsMock() as mock:
        with pytest.raises(ws.InvalidInput) as caught:
            ws.search("q", backend="mojeek_html", vertical="images")
        assert len(mock.calls) == 0
    assert caught.value.detail_code == "unsupported_vertical"
    assert "bing_html" in caught.value.message and "startpage_html" in caught.value.message


def test_the_docs_table_says_what_is_registered():
    text = (Path(__file__).resolve().parents[3] / "docs" / "verticals.md").read_text(encoding="utf-8")
    columns = ("web", "news", "images", "videos")
    for name in ENGINES:
        row = next(line for line in text.splitlines() if line.startswith("| `%s`" % name))
        cells = [cell.strip() for cell in row.strip("|").split("|")[1:]]
        assert tuple(v for v, cell in zip(columns, cells) if cell == "yes") == registry.verticals_of(name), row


def test_auto_news_moves_past_a_blocked_duckduckgo_to_bing():
    assert keyless_chain("news") == ("ddg_html", "bing_html", "yahoo_html")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add("GET", "https://duckduckgo.com/", body=body("ddg_html", "duck-duck-scrape__news_anomaly_block.1.html"))
        mock.add(
            "GET", "https://duckduckgo.com/news.js", body=body("ddg_html", "duck-duck-scrape__news_anomaly_block.2.txt")
        )
        mock.add("GET", "https://www.bing.com/news/infinitescrollajax", body=body("bing_html", "phrona__news.html"))
        with ws.SearchClient(cache_ttl_s=0, retries=0, clock=FakeClock()) as client:
            result = client.search("rust programming", backend="auto", vertical="news")
    assert result["provider_meta"]["provider_name"] == "bing_html"
    assert len(result["items"]) == 4
    assert result["errors"][0]["type"] == "WebBlocked" and result["errors"][0]["provider"] == "ddg_html"
