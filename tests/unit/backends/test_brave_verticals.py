"""brave news, images and videos: the requests, the recorded answers (2024-12, 20 results
each) read field by field, the error envelope and answers of the wrong kind.

Expected values are read by eye from fixtures/brave/brave-search-python-client__*.json.
"""

import json

import pytest
import responses
from vertical_answers import JSON, answer, body

import websearch_sync as ws
from websearch_sync.backends.brave_verticals import BraveImages, BraveNews, BraveVideos
from websearch_sync.config import Settings
from websearch_sync.errors import AuthError, WebBlocked, WebParseError
from websearch_sync.models import SearchParams

SETTINGS = Settings(providers={"brave": {"api_key": "test-brave-key"}})
NEWS, IMAGES, VIDEOS = BraveNews(SETTINGS), BraveImages(SETTINGS), BraveVideos(SETTINGS)
ENGINES = [NEWS, IMAGES, VIDEOS]


def params(**kwargs):
    return SearchParams(query="hello world", max_results=10, **kwargs)


def read(engine, name):
    response = answer(body("brave", name), engine.default_endpoint, content_type=JSON)
    return engine.interpret(response, params()).items


@pytest.mark.parametrize(
    "engine, path", [(NEWS, "news"), (IMAGES, "images"), (VIDEOS, "videos")], ids=["news", "images", "videos"]
)
def test_requests(engine, path):
    spec = engine.build_request(params(locale="de-DE", time_range="week", safe_search="off"))
    assert spec.url == "https://api.search.brave.com/res/v1/%s/search" % path
    assert spec.headers["X-Subscription-Token"] == "test-brave-key"
    expected = {"q": "hello world", "count": 10, "search_lang": "de", "country": "DE", "safesearch": "off"}
    if path != "images":  # the image endpoint has no freshness
        expected["freshness"] = "pw"
    assert spec.params == expected


@pytest.mark.parametrize("asked, sent", [("off", "off"), ("moderate", "strict"), ("strict", "strict")])
def test_image_safe_search_is_off_or_strict(asked, sent):
    assert IMAGES.build_request(params(safe_search=asked)).params["safesearch"] == sent
    assert NEWS.build_request(params(safe_search=asked)).params["safesearch"] == asked


def test_news():
    items = read(NEWS, "brave-search-python-client__news.json")
    assert len(items) == 20
    assert items[0] == {
        "title": "World News and International Headlines : NPR",
        "url": "https://www.npr.org/sections/world/",
        "snippet": "NPR world news, international art and culture, world business and financial markets, world "
        "economy, and global trends in health, science and technology. Subscribe to the World Story of the Day "
        "podcast and RSS feed.",
        "published_at": "2024-12-31T17:09:03",
        "image_url": "https://imgs.search.brave.com/YfdTZnjAFIh-NVN2RQdDL8MLDbJ4AM3o8_Z-LZu3MFc/rs:fit:200:200:1:0/"
        "g:ce/aHR0cHM6Ly9tZWRp/YS5ucHIub3JnL2lu/Y2x1ZGUvaW1hZ2Vz/L2ZhY2Vib29rLWRl/ZmF1bHQtd2lkZS1z/"
        "MTQwMC1jMTAwLmpw/Zw",
    }
    assert items[-1]["published_at"] == "2023-07-04T17:05:03"  # page_age, not the people's "July 4, 2023"
    assert "image_url" not in items[-1]  # no thumbnail on that result
    assert not any("source" in item for item in items)  # the recording names no publisher


def test_images():
    items = read(IMAGES, "brave-search-python-client__images.json")
    assert len(items) == 20
    assert items[-1] == {
        "title": "hello world",
        "url": "https://blogs.vmware.com/opensource/2020/04/22/hello-world-timeless-code/",
        "image_url": "http://blogs.vmware.com/opensource/files/2020/04/Python-1024x578.png",
        "thumbnail_url": "https://imgs.search.brave.com/SrfuMt7L4HPTI0IXMNvGzKBubgPpJK-KkbOUOx5X31w/rs:fit:500:0:0:0/"
        "g:ce/aHR0cDovL2Jsb2dz/LnZtd2FyZS5jb20v/b3BlbnNvdXJjZS9m/aWxlcy8yMDIwLzA0/L1B5dGhvbi0xMDI0/eDU3OC5wbmc",
        "source": "blogs.vmware.com",
    }  # no pixel size in the recording: no width or height


def test_videos():
    items = read(VIDEOS, "brave-search-python-client__videos.json")
    assert len(items) == 20
    first = items[0]
    assert {key: first[key] for key in ("url", "published_at", "duration", "publisher", "view_count")} == {
        "url": "https://www.youtube.com/watch?v=Yw6u6YkTgQ4",
        "published_at": "2018-03-30T17:57:36",
        "duration": "01:56",
        "publisher": "YouTube",
        "view_count": 6588953,
    }
    assert first["thumbnail_url"].startswith("https://imgs.search.brave.com/zPD1PWFA1Ia2DUIXKYWbIFLj")


def test_a_video_without_views_has_no_count():
    data = json.loads(body("brave", "brave-search-python-client__videos.json"))
    data["results"][0]["video"]["views"] = "many"
    del data["results"][1]["video"]
    response = answer(json.dumps(data), VIDEOS.default_endpoint, content_type=JSON)
    items = VIDEOS.interpret(response, params()).items
    assert "view_count" not in items[0] and "duration" not in items[1] and "publisher" not in items[1]


@pytest.mark.parametrize("engine", ENGINES, ids=["news", "images", "videos"])
def test_errors_are_web_searchs(engine):
    refused = json.dumps(
        {"type": "ErrorResponse", "error": {"status": 422, "code": "SUBSCRIPTION_TOKEN_INVALID", "detail": "invalid"}}
    )
    with pytest.raises(AuthError):
        engine.interpret(answer(refused, engine.default_endpoint, status=422, content_type=JSON), params())
    limited = answer(
        "{}", engine.default_endpoint, status=429, content_type=JSON, headers={"X-RateLimit-Reset": "1, 9"}
    )
    with pytest.raises(WebBlocked) as caught:
        engine.interpret(limited, params())
    assert caught.value.retry_after == 1


@pytest.mark.parametrize("engine", ENGINES, ids=["news", "images", "videos"])
@pytest.mark.parametrize(
    "content",
    [
        body("brave", "brave-search-python-client__1.json"),  # a web search answer ("type": "search")
        '{"type": "news", "results": {"not": "a list"}}',
        "<html>not JSON</html>",
    ],
    ids=["web-answer", "results-not-a-list", "html"],
)
def test_an_answer_of_another_shape_is_a_parse_error(engine, content):
    with pytest.raises(WebParseError):
        engine.interpret(answer(content, engine.default_endpoint, content_type=JSON), params())


@pytest.mark.parametrize(
    "engine, name",
    [
        (NEWS, "brave-search-python-client__news.json"),
        (IMAGES, "brave-search-python-client__images.json"),
        (VIDEOS, "brave-search-python-client__videos.json"),
    ],
    ids=["news", "images", "videos"],
)
def test_titles_are_plain_text_and_keep_angle_brackets(engine, name):
    """The vertical endpoints answer plain text, unlike web search (whose descriptions carry
    ``<strong>`` and ``&#x27;``): the recorded answers for the same query have a bare ``&`` and
    ``'``, no entity and no highlight. Their first title set to ``Option<T> & Box<dyn Error>``
    stays so through normalization (before: read as markup, ``Option & Box``)."""
    data = json.loads(body("brave", name))
    title = "Option<T> & Box<dyn Error>"
    data["results"][0]["title"] = title
    with responses.RequestsMock() as mock:
        mock.get(engine.default_endpoint, json=data)
        result = ws.search("hello world", backend="brave", vertical=engine.vertical, settings=SETTINGS, retries=0)
    assert result["items"][0]["title"] == title


@pytest.mark.parametrize("engine, field", [(NEWS, "url"), (IMAGES, "properties"), (VIDEOS, "url")], ids=str)
def test_results_without_the_field_a_result_needs_are_an_unknown_shape_not_no_results(engine, field):
    """The recorded answer with the field every result is known by renamed (its ``url``, an
    image's ``properties.url``): 20 results none of which can be read is a changed layout,
    ``WebParseError`` (before: "no results")."""
    data = json.loads(body("brave", "brave-search-python-client__%s.json" % engine.vertical))
    for result in data["results"]:
        result["renamed_" + field] = result.pop(field)
    with pytest.raises(WebParseError) as info:
        engine.interpret(answer(json.dumps(data), engine.default_endpoint, content_type=JSON), params())
    assert info.value.detail_code == "unexpected_shape" and "20" in info.value.message


@pytest.mark.parametrize("engine", ENGINES, ids=str)
def test_results_that_are_no_json_objects_are_an_unknown_shape_not_no_results(engine):
    """The recorded answer with each result replaced by its URL (a list of strings, not of
    objects): 20 results listed, none readable, ``WebParseError`` as docs/verticals.md says
    (before: each skipped, the answer read as "no results", and cached)."""
    data = json.loads(body("brave", "brave-search-python-client__%s.json" % engine.vertical))
    data["results"] = [result.get("url") for result in data["results"]]
    with pytest.raises(WebParseError) as info:
        engine.interpret(answer(json.dumps(data), engine.default_endpoint, content_type=JSON), params())
    assert info.value.detail_code == "unexpected_shape" and "20" in info.value.message


def test_a_date_no_datetime_holds_in_utc_is_no_date_not_a_crash():
    """The recorded news answer with its first ``page_age`` ``0001-01-01T00:00:00+01:00`` (in UTC
    before the year 1, which no ``datetime`` holds): that item has no ``published_at``, the others
    theirs (before: ``OverflowError`` out of ``search()``)."""
    data = json.loads(body("brave", "brave-search-python-client__news.json"))
    data["results"][0]["page_age"] = "0001-01-01T00:00:00+01:00"
    with responses.RequestsMock() as mock:
        mock.get(NEWS.default_endpoint, json=data)
        items = ws.search("hello world", backend="brave", vertical="news", settings=SETTINGS, retries=0)["items"]
    assert "published_at" not in items[0] and items[1]["published_at"].startswith("20")


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.vertical)
def test_the_vertical_reads_its_answers_by_the_json_kit_hooks(engine):
    """The kit's hooks read a vertical's answer, not web search's (before, ``results()`` was
    Brave web's: "not a search response"; ``results_at`` was ``web.results``), so the recorded
    answer's results are its 20, and a ``results`` that is not a list names what is there."""
    data = json.loads(body("brave", "brave-search-python-client__%s.json" % engine.vertical))
    assert engine.results(data, params()) == data["results"] and len(data["results"]) == 20
    assert engine.results_at == "results"
    with pytest.raises(WebParseError, match=r"a `results` that is not a list \(an object with keys not\)"):
        engine.results({"type": engine.vertical, "results": {"not": "a list"}}, params())


def test_a_video_names_its_channel_apart_from_its_platform():
    """The recorded answer's ``video.creator`` (the channel, ``Louie Zong``; ``video.publisher`` is the
    platform): each video's ``uploader`` (before: dropped); a video without a creator has none."""
    data = json.loads(body("brave", "brave-search-python-client__videos.json"))
    items = read(VIDEOS, "brave-search-python-client__videos.json")
    assert [item.get("uploader") for item in items] == [(r.get("video") or {}).get("creator") for r in data["results"]]
    assert items[0]["uploader"] == "Louie Zong" and items[0]["publisher"] == "YouTube"


def test_a_call_for_more_videos_than_brave_counts_asks_its_most_and_is_told():
    """A video search takes up to 60 (DuckDuckGo's page); Brave's video ``count`` goes up to 50, so a
    call for 60 asks 50 and says ``max_results`` in ``not_sent``; its images (count up to 200) take 100."""
    many = SearchParams(query="q", max_results=60, vertical="videos")
    assert VIDEOS.build_request(many).params["count"] == 50
    assert VIDEOS.not_sent(many) == ["max_results"]
    assert VIDEOS.not_sent(SearchParams(query="q", max_results=50, vertical="videos")) == []
    assert IMAGES.build_request(SearchParams(query="q", max_results=100, vertical="images")).params["count"] == 100
