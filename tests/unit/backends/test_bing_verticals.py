"""bing_html news, images and videos: the requests, the recorded answers (2026-08, en-US)
read field by field, dates, sizes and counts, the Turnstile wall and an unknown layout.

Expected values are read by eye from the recorded bodies in fixtures/bing_html/.
"""

import pytest
from vertical_answers import answer, body

from websearch_sync.backends.bing_images import BingImages
from websearch_sync.backends.bing_news import BingNews
from websearch_sync.backends.bing_videos import BingVideos
from websearch_sync.config import Settings
from websearch_sync.engine.base import Page
from websearch_sync.errors import WebBlocked, WebParseError
from websearch_sync.models import ParseResult, SearchParams

NEWS = BingNews(Settings())
IMAGES = BingImages(Settings())
VIDEOS = BingVideos(Settings())


def params(**kwargs):
    kwargs.setdefault("max_results", 10)
    return SearchParams(query=kwargs.pop("query", "rust programming"), **kwargs)


def read(engine, name, **kwargs):
    response = answer(body("bing_html", name), engine.default_endpoint)
    return engine.interpret(response, params(**kwargs)).items


# -- requests -------------------------------------------------------------------------------


def test_news_request_is_the_recorded_one():
    spec = NEWS.build_request(params(locale="en-US"))
    assert spec.method == "GET" and spec.url == "https://www.bing.com/news/infinitescrollajax"
    assert spec.params == {
        "q": "rust programming",
        "InfiniteScroll": "1",
        "first": "1",
        "SFX": "1",
        "setlang": "en",
        "cc": "US",
    }


@pytest.mark.parametrize(
    "kwargs, sent",
    [
        ({"options": {"pageno": 3}}, {"first": "21", "SFX": "3"}),
        ({"time_range": "day"}, {"qft": 'interval="7"'}),
        ({"time_range": "month"}, {"qft": 'interval="9"'}),
    ],
)
def test_news_request_pages_and_time_ranges(kwargs, sent):
    query = NEWS.build_request(params(**kwargs)).params
    assert {key: query[key] for key in sent} == sent


def test_news_has_no_year_filter():
    assert "qft" not in NEWS.build_request(params(time_range="year")).params


def test_images_and_videos_requests():
    images = IMAGES.build_request(
        params(locale="en-US", options={"pageno": 2}, time_range="week", safe_search="strict")
    )
    assert images.url == "https://www.bing.com/images/async"
    assert images.params == {
        "q": "rust programming",
        "async": "1",
        "first": "36",
        "count": "35",
        "mkt": "en-US",
        "qft": "filterui:age-lt10080",
        "adlt": "strict",
    }
    videos = VIDEOS.build_request(params(time_range="day"))
    assert videos.url == "https://www.bing.com/videos/asyncv2"
    assert videos.params == {
        "q": "rust programming",
        "async": "content",
        "first": "1",
        "count": "35",
        "form": "VRFLTR",
        "qft": "filterui:videoage-lt1440",
    }


# -- news -----------------------------------------------------------------------------------


def test_news_cards():
    items = read(NEWS, "phrona__news.html")
    assert [item["source"] for item in items] == ["ZDNet", "TechRepublic", "ZDNet", "ZDNet"]
    assert items[1] == {
        "title": "TIOBE Index for July 2026: Top 10 Most Popular Programming Languages",
        "url": "https://www.techrepublic.com/article/news-tiobe-index-language-rankings/",
        "snippet": "Rust enters the top 10 for the first time, Python keeps the lead, C moves back above C++, "
        "and SQL edges out R in July\u2019s ...",
        "source": "TechRepublic",
        "published_at": "2026-07-09",
        "image_url": "https://www.bing.com/th?id=ONUT.HQ2a1zd8rg8BoDN-aAXJyw&pid=News&w=234&h=132&c=14&rs=2&qlt=90",
    }
    assert "image_url" not in items[0]  # the ZDNet cards have no picture


def test_a_news_picture_is_read_as_a_browser_reads_its_address():
    """A card's picture whose ``src`` starts with a backslash: a browser reads the recorded
    ``/th?id=...`` on Bing's host; ``urljoin`` made it ``https://www.bing.com/\\th?id=...``."""
    card = body("bing_html", "phrona__news.html").decode("utf-8")
    recorded = read(NEWS, "phrona__news.html")[1]["image_url"]
    backslashed = card.replace('src="/th?id=ONUT.HQ2a1zd8rg8BoDN', 'src="\\th?id=ONUT.HQ2a1zd8rg8BoDN', 1)
    assert backslashed != card
    response = answer(backslashed, NEWS.default_endpoint)
    assert NEWS.interpret(response, params()).items[1]["image_url"] == recorded


@pytest.mark.parametrize("locale", [None, "en-US", "de-DE"])
def test_news_dates_follow_the_pages_own_order(locale):
    # 7/28/2022 can only be month first: 7/9/2026 is then July 9th, whatever the locale says
    items = read(NEWS, "phrona__news.html", locale=locale)
    assert [item["published_at"] for item in items] == ["2022-07-28", "2026-07-09", "2022-09-27", "2020-01-21"]


def test_news_ambiguous_dates_without_a_locale_keep_the_age():
    card = body("bing_html", "phrona__news.html").decode("utf-8")
    one = card[: card.index('<div class="news-card newsitem', 10)]  # the first card: 7/28/2022, age "4y"
    response = answer(one.replace("7/28/2022", "7/9/2022"), NEWS.default_endpoint)
    assert NEWS.interpret(response, params()).items[0]["published_at"] == "4y"
    assert NEWS.interpret(response, params(locale="en-GB")).items[0]["published_at"] == "2022-09-07"


# -- images ---------------------------------------------------------------------------------


def test_image_tiles():
    items = read(IMAGES, "phrona__images.html")
    assert len(items) == 35
    assert items[0] == {
        "title": "RUST PROGRAMMING LANGUAGE",
        "url": "https://www.linkedin.com/pulse/rust-programming-language-jayasrinivasan-\u30b8\u30e3\u30e4\u30b9\u30ea\u30cb"
        "\u30f4\u30a1\u30b5\u30f3-s",
        "image_url": "https://media.licdn.com/dms/image/v2/D5612AQG_VNcB7VI-Cw/article-cover_image-shrink_600_2000/"
        "article-cover_image-shrink_600_2000/0/1681973828533?e=2147483647&v=beta&t=g9s877ixt5AzjxVXsY5WLjDwhHW_V8Jyw5YMpjcO7sA",
        "thumbnail_url": "https://ts3.mm.bing.net/th?id=OIP.L35WRcM4TUkmAAWb72UDcwHaEs&pid=15.1",
        "width": 700,
        "height": 444,
        "source": "linkedin.com",
    }
    assert all(item["width"] > 0 and item["height"] > 0 and item["source"] for item in items)


def test_an_image_tile_without_json_is_left_out():
    page = body("bing_html", "phrona__images.html").decode("utf-8")
    broken = page.replace('m="{&quot;sid', 'm="not JSON {&quot;sid', 1)  # the first tile's m
    items = IMAGES.interpret(answer(broken, IMAGES.default_endpoint), params()).items
    assert len(items) == 34 and items[0]["url"] == "https://travis.media/blog/why-rust/"


# -- videos ---------------------------------------------------------------------------------


def test_video_tiles():
    items = read(VIDEOS, "phrona__videos.html")
    assert len(items) == 49  # the TikTok video is shown twice; normalisation keeps one
    assert items[0] == {
        "title": "Rust Tutorial for Beginners - Full Course (With Notes and Project Ideas)",
        "url": "https://www.youtube.com/watch?v=qP7LzZqGh30",
        "published_at": "2024-04-29",
        "duration": "4:01:40",
        "publisher": "YouTube",
        "uploader": "Harkirat Singh",
        "thumbnail_url": "https://ts2.mm.bing.net/th?id=OVP.-Svu9jLbKY8sOy7zDQOAdAHgFo&pid=15.1&W=160&H=120",
        "view_count": 338300,
    }
    by_url = {item["url"]: item for item in items}
    assert by_url["https://www.youtube.com/watch?v=TSn2vCNvFkU"]["published_at"] == "3 hours ago"
    assert by_url["https://www.youtube.com/watch?v=TSn2vCNvFkU"]["view_count"] == 30
    assert by_url["https://www.youtube.com/watch?v=BpPEoZW5IiY"]["view_count"] == 1200000
    assert "view_count" not in by_url["https://www.youtube.com/watch?v=5KrK4qKNd_I"]  # "14 hours ago" only
    assert not any("snippet" in item for item in items)  # tiles carry no description


# -- walls and unknown layouts --------------------------------------------------------------


@pytest.mark.parametrize("engine", [NEWS, IMAGES, VIDEOS], ids=["news", "images", "videos"])
@pytest.mark.parametrize("status", [200, 403])
def test_the_turnstile_wall_is_a_block(engine, status):
    wall = answer(body("bing_html", "web-search-mcp__turnstile.html"), engine.default_endpoint, status=status)
    with pytest.raises(WebBlocked) as caught:
        engine.interpret(wall, params())
    assert caught.value.detail_code == "captcha_required"


@pytest.mark.parametrize("engine", [NEWS, IMAGES, VIDEOS], ids=["news", "images", "videos"])
@pytest.mark.parametrize(
    "page",
    [
        "<html><body><p>Something else entirely</p></body></html>",
        body("bing_html", "se-scraper__page1.html"),  # a web results page: none of the vertical's tiles
    ],
    ids=["other-page", "web-page"],
)
def test_an_unknown_layout_is_a_parse_error(engine, page):
    with pytest.raises(WebParseError):
        engine.interpret(answer(page, engine.default_endpoint), params())


@pytest.mark.parametrize(
    "engine, name, detail",
    [
        (NEWS, "phrona__news.html", "snippets"),
        (IMAGES, "phrona__images.html", "thumbnail_urls"),
        (VIDEOS, "phrona__videos.html", "durations"),
    ],
    ids=["news", "images", "videos"],
)
def test_structure_report_of_the_recorded_answers(engine, name, detail):
    report = engine.structure_report(answer(body("bing_html", name), engine.default_endpoint))
    assert report == {"not_blocked": True, "results_region": True, "result_blocks": True, detail: True}


def test_next_pages():
    page1 = answer(body("bing_html", "phrona__news.html"), NEWS.default_endpoint)
    news = NEWS.next_page(params(max_results=20), Page(2, 4, page1, ParseResult(items=[{}] * 4)))
    assert (news.params["first"], news.params["SFX"]) == ("11", "2")  # ten cards a page, whatever this one held
    images = IMAGES.next_page(params(max_results=50), Page(2, 35, page1, ParseResult(items=[{}] * 35)))
    assert images.params["first"] == "36"  # after the tiles read
    videos = VIDEOS.next_page(params(max_results=50), Page(2, 49, page1, ParseResult(items=[{}] * 49)))
    assert videos.params["first"] == "50"


def test_a_date_in_digits_int_refuses_loses_that_date_not_the_page():
    """The recorded news fragment with its first card's date ``²/28/2022`` (``"²".isdigit()`` is
    true, ``int("²")`` fails): the cards are read and that date is not used to decide the page's
    day order (before: ``ValueError``, the whole page a ``WebParseError``)."""
    page = body("bing_html", "phrona__news.html").decode("utf-8")
    page = page.replace('aria-label="7/28/2022"', 'aria-label="\u00b2/28/2022"')
    items = NEWS.interpret(answer(page, NEWS.default_endpoint), params()).items
    assert len(items) == 4 and [item.get("published_at") for item in items[1:]] == [
        "2026-07-09",
        "2022-09-27",
        "2020-01-21",
    ]


def test_a_video_tile_names_its_channel_apart_from_its_platform():
    """The recorded tiles' second row: the platform (``YouTube``, ``publisher``) and the channel
    (``Harkirat Singh``), now the video's ``uploader`` (before: dropped). Every recorded tile has
    that row, the last 20, the short-video carousel's (``view=shortvideo``), too."""
    items = read(VIDEOS, "phrona__videos.html")
    assert (items[0]["publisher"], items[0]["uploader"]) == ("YouTube", "Harkirat Singh")
    by_url = {item["url"]: item for item in items}
    assert by_url["https://www.youtube.com/watch?v=BpPEoZW5IiY"]["uploader"] == "freeCodeCamp.org"
    page = body("bing_html", "phrona__videos.html").decode("utf-8")
    shorts = page.count('class="mc_vtvc b_canvas', page.index("view=shortvideo"))
    assert shorts == 20 and len(items) == 49
    assert all(item.get("publisher") and item.get("uploader") for item in items)
