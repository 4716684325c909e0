"""searxng news, images and videos: the category sent, the recorded news answer (2026-08,
10 results from 'bing news') read field by field, the fields of image and video results,
engine failures as for web search.

The news values are read by eye from fixtures/searxng/browse-API__news.json. No image or
video answer of SearXNG is on record: those tests hand the parser results written with the
field names SearXNG's templates use (``images.html``: img_src, thumbnail_src, resolution,
source; ``videos.html``: length, thumbnail, publishedDate).
"""

import datetime
import json

import pytest
from backend_kit import FIXTURES, recorded_json, replay_search
from vertical_answers import JSON, answer, body

import websearch_sync as ws
from websearch_sync.backends.searxng_verticals import SearXNGImages, SearXNGNews, SearXNGVideos
from websearch_sync.config import Settings
from websearch_sync.engine.base import answered_at
from websearch_sync.engine.normalize import normalize_items
from websearch_sync.errors import WebBlocked, WebParseError
from websearch_sync.models import SearchParams

SETTINGS = Settings(providers={"searxng": {"base_url": "https://searx.example.org"}})
NEWS, IMAGES, VIDEOS = SearXNGNews(SETTINGS), SearXNGImages(SETTINGS), SearXNGVideos(SETTINGS)
URL = "https://searx.example.org/search"


def params(**kwargs):
    return SearchParams(query="artificial intelligence", max_results=10, **kwargs)


def parsed(engine, data, **kwargs):
    content = data if isinstance(data, bytes) else json.dumps(data)
    return engine.interpret(answer(content, URL, content_type=JSON), params(**kwargs))


@pytest.mark.parametrize("engine", [NEWS, IMAGES, VIDEOS], ids=["news", "images", "videos"])
def test_the_request_asks_the_category(engine):
    spec = engine.build_request(params())
    assert spec.url == URL
    assert spec.params == {
        "q": "artificial intelligence",
        "format": "json",
        "locale": "en",
        "language": "all",
        "categories": engine.vertical,
    }
    asked = engine.build_request(params(options={"categories": ["science", engine.vertical]}))
    assert asked.params["categories"] == "%s,science" % engine.vertical
    scope = "searxng@searx.example.org"  # the instance: a block of its news engines leaves its web ones alone
    assert engine.cooldown_keys(params()) == (scope, "%s[categories=%s]" % (scope, engine.vertical))


def test_news_answer():
    result = parsed(NEWS, body("searxng", "browse-API__news.json"))
    assert len(result.items) == 10
    assert result.items[0] == {
        "title": "Target appoints its first-ever AI exec as the retailer pushes deeper into artificial intelligence. "
        "What it means for TGT stock.",
        "url": "https://www.msn.com/en-us/technology/artificial-intelligence/target-appoints-its-first-ever-ai-exec-"
        "as-the-retailer-pushes-deeper-into-artificial-intelligence-what-it-means-for-tgt-stock/ar-AA29YO3s",
        "snippet": "Artificial intelligence has quickly become a major spending priority. Worldwide AI spending is "
        "expected to reach $2.59 ...",
        "source": "Barchart on MSN",  # metadata "13 hours ago | Barchart on MSN"
        "published_at": "13 hours ago",  # resolved against the answer's Date by normalisation
        "image_url": "https://www.bing.com//th?id=ONUT.K3gfiVsQDvcawttNxLCQKg&pid=News&w=234&h=132&c=14&rs=2&qlt=90",
    }
    # publishedDate is null throughout: every date and publisher is the metadata's
    assert [(item["published_at"], item["source"]) for item in result.items[7:]] == [
        ("44 minutes ago", "MSN"),
        ("2023-06-13", "The Wall Street Journal"),  # "6/13/2023": month first whatever the market
        ("1 day ago", "The Motley Fool"),
    ]
    assert [error["engine"] for error in result.errors] == [
        "brave.news",
        "duckduckgo news",
        "reuters",
        "startpage news",
        "wikinews",
    ]


def test_a_news_date_and_img_src_are_read():
    data = json.loads(body("searxng", "browse-API__news.json"))
    data["results"][0].update(publishedDate="2026-08-13T09:00:00", img_src="https://img.example.org/a.jpg")
    item = parsed(NEWS, data).items[0]
    assert item["published_at"] == "2026-08-13T09:00:00" and item["image_url"] == "https://img.example.org/a.jpg"
    assert item["source"] == "Barchart on MSN"  # publishedDate beats the metadata's age, the publisher stays


@pytest.mark.parametrize(
    "metadata, locale, published_at, source",
    [
        ("6/10/2023 | WSJ", "en-US", "2023-06-10", "WSJ"),  # a slashed day read in the market's order
        ("6/10/2023 | WSJ", "de-DE", "2023-10-06", "WSJ"),
        ("6/10/2023 | WSJ", None, None, "WSJ"),  # no market: the order is unknown, the day unread
        ("World", None, None, None),  # SearXNG's Reuters engine: a section, no date, no publisher
        ("2 days ago", None, "2 days ago", None),
        ("Posted by x | 3 comments | 1 day ago", None, "1 day ago", None),  # two other parts: which one?
        ("x" * 301 + " | 1 day ago", None, None, None),  # not a line of facts
    ],
)
def test_the_metadata_is_read_by_its_structure(metadata, locale, published_at, source):
    data = json.loads(body("searxng", "browse-API__news.json"))
    data["results"][0]["metadata"] = metadata
    item = parsed(NEWS, data, locale=locale).items[0]
    assert (item.get("published_at"), item.get("source")) == (published_at, source)


def test_a_relative_age_is_resolved_against_the_answers_date():
    """The recorded answer with the Date header its contract case gives it (fixtures/searxng/
    browse-API__news_vertical.meta.json): "13 hours ago" is 13 hours before it."""
    response = answer(body("searxng", "browse-API__news.json"), URL, content_type=JSON)
    response.headers["Date"] = "Thu, 13 Aug 2026 23:32:17 GMT"
    result = NEWS.interpret(response, params())
    items = normalize_items(result.items, "searxng", 10, "news", answered_at(response, params()))
    assert [item["published_at"] for item in items[:2]] == ["2026-08-13T10:32:17Z", "2026-08-07"]


def test_image_results():
    data = {
        "query": "rust",
        "results": [
            {
                "url": "https://www.rust-lang.org/",
                "title": "Rust Programming Language",
                "img_src": "https://www.rust-lang.org/static/images/rust-social-wide.jpg",
                "thumbnail_src": "https://tse4.mm.bing.net/th/id/OIP.W8KBrJgmsIlYtn24AhHfSQHaDt",
                "resolution": "2048 x 1024",
                "source": "rust-lang.org",
                "template": "images.html",
            },
            {"url": "https://x.example/", "title": "no size", "img_src": "https://x.example/a.png", "resolution": ""},
        ],
    }
    first, second = parsed(IMAGES, data).items
    assert first == {
        "title": "Rust Programming Language",
        "url": "https://www.rust-lang.org/",
        "image_url": "https://www.rust-lang.org/static/images/rust-social-wide.jpg",
        "thumbnail_url": "https://tse4.mm.bing.net/th/id/OIP.W8KBrJgmsIlYtn24AhHfSQHaDt",
        "width": 2048,
        "height": 1024,
        "source": "rust-lang.org",
    }
    assert second == {"title": "no size", "url": "https://x.example/", "image_url": "https://x.example/a.png"}


@pytest.mark.parametrize("length, duration", [("4:01:40", "4:01:40"), (241.0, 241.0), (None, None), ("", None)])
@pytest.mark.parametrize("views, count", [(338300, 338300), ("1.2M", 1200000), (None, None), ("n/a", None)])
def test_video_results(length, duration, views, count):
    result = {
        "url": "https://www.youtube.com/watch?v=qP7LzZqGh30",
        "title": "Rust Tutorial for Beginners",
        "content": "A full course",
        "publishedDate": "2024-04-29T00:00:00",
        "thumbnail": "https://i.ytimg.com/vi/qP7LzZqGh30/hqdefault.jpg",
        "author": "Harkirat Singh",
        "length": length,
        "views": views,
        "template": "videos.html",
    }
    (item,) = parsed(VIDEOS, {"query": "rust", "results": [result]}).items
    assert item.get("duration") == duration and item.get("view_count") == count
    assert item["published_at"] == "2024-04-29T00:00:00" and item["snippet"] == "A full course"
    assert "publisher" not in item  # author is the channel


def test_blocked_engines_and_no_results_is_a_block_as_for_web_search():
    data = {"query": "q", "results": [], "unresponsive_engines": [["bing news", "CAPTCHA"]]}
    with pytest.raises(WebBlocked):
        parsed(NEWS, data)


@pytest.mark.parametrize(
    "engine, recorded, field",
    [(IMAGES, "searxng-templates__images.json", "img_src"), (NEWS, "browse-API__news.json", "url")],
    ids=["images", "news"],
)
def test_recorded_results_whose_identifying_field_was_renamed_are_an_unknown_shape(engine, recorded, field):
    """The recorded answer with the field a result is known by renamed: never "no results"."""
    data = json.loads((FIXTURES / "searxng" / recorded).read_text("utf-8"))
    for result in data["results"]:
        result["renamed_" + field] = result.pop(field, None)
    with pytest.raises(WebParseError) as caught:
        parsed(engine, data)
    assert caught.value.detail_code == "unexpected_shape"


@pytest.mark.parametrize(
    "engine, recorded",
    [(IMAGES, "searxng-templates__images.json"), (NEWS, "browse-API__news.json")],
    ids=["images", "news"],
)
def test_recorded_results_that_are_no_json_objects_are_an_unknown_shape(engine, recorded):
    """The recorded answer with each result replaced by its URL (strings, not objects): never
    "no results" (before: each skipped, an empty answer)."""
    data = json.loads((FIXTURES / "searxng" / recorded).read_text("utf-8"))
    data["results"] = [result["url"] for result in data["results"]]
    with pytest.raises(WebParseError) as caught:
        parsed(engine, data)
    assert caught.value.detail_code == "unexpected_shape"


#: An instance's ``/config`` (``searx/webapp.py: config``, the fields the backend reads) with two engines
#: of SearXNG's settings.yml: ``wikipedia`` (``categories: [general]``, no time-range support) and
#: ``bing news`` (``categories = ['news']``, time-range support).
NEWS_AND_GENERAL_CONFIG = {
    "categories": ["general", "news"],
    "engines": [
        {"name": "wikipedia", "categories": ["general"], "enabled": True, "timeout": 3.0, "time_range_support": False},
        {"name": "bing news", "categories": ["news"], "enabled": True, "timeout": 3.0, "time_range_support": True},
    ],
}


def test_a_news_search_with_a_time_range_is_judged_by_its_news_engines():
    """The recorded news answer for a news search with a time range, ``/config`` read after it: the
    instance asked its news engines (``categories=news``), which honour the range. Before: the
    check judged the call as if it named no category (the instance's ``general`` engines), and said
    ``wikipedia`` was skipped and "that was every engine of this search"."""
    base = "https://searx.example.org"
    result, calls = replay_search(
        "searxng",
        URL,
        recorded_json("searxng", "browse-API__news.json"),
        settings=SETTINGS,
        vertical="news",
        time_range="week",
        extra=[lambda mock: mock.add("GET", base + "/config", json=NEWS_AND_GENERAL_CONFIG)],
    )
    assert not isinstance(result, ws.WebSearchError)
    assert [c.request.url for c in calls[1:]] == [base + "/config"]
    assert [e["detail_code"] for e in result["errors"] if e["detail_code"] != "engine_error"] == []


def test_a_cached_news_answer_s_unverified_time_range_note_is_revised_for_its_news_engines():
    """A news search with a time range whose ``/config`` failed is cached with the note that the range
    is unverified; once another client (other credentials) has read ``/config``, the cached answer is
    served without it: its news engine honours the range. Revised for the call's category
    (``SearXNGVertical.revise_cached``); judged as web search's, for ``general``, the note would
    become "wikipedia skipped"."""
    base = "https://searx.example.org"
    news = recorded_json("searxng", "browse-API__news.json")
    client = ws.SearchClient(settings=SETTINGS, backend="searxng", cache_ttl_s=300, retries=0)
    refused = [lambda mock: mock.add("GET", base + "/config", status=500, body="")]
    first, calls = replay_search("searxng", URL, news, client=client, vertical="news", time_range="week", extra=refused)
    assert [c.request.url for c in calls[1:]] == [base + "/config"]
    assert "time_range_unverified" in [e["detail_code"] for e in first["errors"]]
    keyed = Settings(providers={"searxng": {"base_url": base, "api_key": "k"}})  # a read of its own
    read = [lambda mock: mock.add("GET", base + "/config", json=NEWS_AND_GENERAL_CONFIG)]
    _, calls = replay_search("searxng", URL, news, settings=keyed, time_range="week", query="other", extra=read)
    assert [c.request.url for c in calls[1:]] == [base + "/config"]
    cached, none_sent = replay_search("searxng", URL, news, client=client, vertical="news", time_range="week")
    assert none_sent == [] and cached["provider_meta"]["cached"] is True
    assert [e["detail_code"] for e in cached["errors"] if e["detail_code"] != "engine_error"] == []
    assert len(cached["errors"]) == len(first["errors"]) - 1


def test_a_video_keeps_its_player_and_channel():
    """The videos case's results as SearXNG's videos template fills them (``iframe_src``, the player its
    YouTube engine gives; ``author``, the channel): each is the video's ``embed_url`` and ``uploader``
    (before: dropped), as DuckDuckGo's ``embed_url`` and ``uploader`` are; a result without them has none."""
    data = json.loads((FIXTURES / "searxng" / "searxng-templates__videos.json").read_text("utf-8"))
    items = parsed(VIDEOS, data).items
    for item, result in zip(items, data["results"]):
        assert (item.get("embed_url"), item.get("uploader")) == (result.get("iframe_src"), result.get("author"))
    assert items[1]["embed_url"].startswith("https://") and "uploader" not in items[0]


#: What an engine may write where a picture's address belongs, beside a usable one: an empty field (the
#: recorded news answer's img_src), a lazy-loading placeholder, a script, a path on the instance.
NO_PICTURES = ["", "data:image/gif;base64,R0lGODlhAQABAAAAACw=", "javascript:void(0)", "/image_proxy?url=x"]


@pytest.mark.parametrize("first", NO_PICTURES, ids=["empty", "data", "javascript", "relative"])
def test_a_picture_field_that_is_no_address_does_not_hide_the_next_one(first):
    picture = "https://img.example.org/t.jpg"
    news = json.loads(body("searxng", "browse-API__news.json"))
    news["results"][0].update(img_src=first, thumbnail=picture)
    image = {"url": "https://x.example/", "title": "t", "img_src": "https://x.example/a.png"}
    video = {"url": "https://www.youtube.com/watch?v=qP7LzZqGh30", "title": "t"}
    images = {"results": [dict(image, thumbnail_src=first, thumbnail=picture)]}
    videos = {"results": [dict(video, thumbnail=first, thumbnail_src=picture)]}
    assert parsed(NEWS, news).items[0]["image_url"] == picture
    assert parsed(IMAGES, images).items[0]["thumbnail_url"] == picture
    assert parsed(VIDEOS, videos).items[0]["thumbnail_url"] == picture


def test_a_published_date_that_is_no_date_does_not_hide_the_metadata_s():
    data = json.loads(body("searxng", "browse-API__news.json"))
    data["results"][0].update(publishedDate="Tue, 99 Foo 2026", metadata="2 days ago | WSJ")
    item = parsed(NEWS, data).items[0]
    assert (item["published_at"], item["source"]) == ("2 days ago", "WSJ")


@pytest.mark.parametrize("resolution, size", [("0 x 0", {}), ("0 x 480", {"height": 480}), ("640 x 0", {"width": 640})])
def test_a_size_of_zero_is_no_size(resolution, size):
    """SearXNG writes ``"0 x 0"`` where an engine gave no size: no picture is 0 pixels wide, so the
    normalised item leaves the 0 out (as a placeholder date is no date); a real other side stays."""
    data = {
        "query": "rust",
        "results": [
            {"url": "https://x.example/", "title": "t", "img_src": "https://x.example/a.png", "resolution": resolution}
        ],
    }
    result = parsed(IMAGES, data)
    (item,) = normalize_items(
        result.items, "searxng", 10, "images", datetime.datetime(2026, 8, 1, tzinfo=datetime.timezone.utc)
    )
    assert {key: item[key] for key in ("width", "height") if key in item} == size
