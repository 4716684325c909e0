"""Issue 31.3: DuckDuckGo news, images and videos: the token page, then the JSON endpoint with its
``vqd``, then the answer's own ``next``; all at ddg_html's pace and within one deadline.

Bodies are recorded ones (fixtures/ddg_html, ../shared/fixtures/verticals); no recording has a
token page together with its JSON answer, so the token page is the cases' synthetic one-line
page (see their meta), and the second news page is a later capture of the same request."""

import json
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
import responses
from clocks import FakeClock
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.backends.ddg_verticals import vqd_token
from websearch_sync.engine import registry
from websearch_sync.engine.base import Page
from websearch_sync.models import SearchParams
from websearch_sync.net.transport import HttpResponse
from websearch_sync.testing import assert_contract

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "ddg_html"
#: Recorded pages copied from ../shared/fixtures/verticals (provenance in its SOURCES.md).
RECORDED = Path(__file__).resolve().parents[2] / "data" / "verticals"
TOKEN_PAGE = (FIXTURES / "phrona__news_rust_programming.1.html").read_text(encoding="utf-8")
NEWS = (FIXTURES / "phrona__news_rust_programming.2.json").read_text(encoding="utf-8")
TOKEN = "4-223413263753125317115557746668718077517"


def _client(clock=None):
    settings = ws.Settings(impersonate="off")
    return ws.SearchClient("ddg_html", settings=settings, clock=clock or FakeClock(), cache_ttl_s=0, retries=0)


def _query(request):
    return dict(parse_qsl(urlsplit(request.url).query, keep_blank_values=True))


_ENDPOINTS = {"news": "news.js", "images": "i.js", "videos": "v.js"}


def _answered(vertical, answer, **options):
    """A search of ``vertical`` whose JSON endpoint answers ``answer`` (after the token page)."""
    with responses.RequestsMock() as mock, _client() as client:
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/" + _ENDPOINTS[vertical], json=answer)
        return client.search("rust programming", vertical=vertical, **options)


@pytest.mark.parametrize(
    "page, token",
    [
        ("page1", "3-187597168013500738930030057550571572353-229244337669405795506828517375761024709"),
        ("page2", "3-187596927159886902760273222963980611681-229244337669405795506828517375761024709"),
    ],
)
def test_the_token_is_read_in_each_shape_the_recorded_pages_carry(page, token):
    path = RECORDED / ("se-scraper__test_keyword_%s.html" % page)
    text = path.read_text(encoding="utf-8")
    assert vqd_token(text) == token  # vqd=3-…& in the d.js URL
    assert vqd_token(text.replace("vqd=3-", "vqd=x")) == token  # vqd='3-…' in the page's script
    assert vqd_token('<script>vqd="%s";</script>' % TOKEN) == TOKEN  # today's vqd="4-…"
    assert vqd_token((FIXTURES / "GoogleScraper__news_prevqd_page.html").read_text(encoding="utf-8")) is None


def test_ddg_html_serves_every_vertical_under_its_own_name():
    assert registry.verticals_of("ddg_html") == ("web", "news", "images", "videos")
    assert registry.verticals_of("ddg_lite") == ("web",)
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="ddg_lite", vertical="news")
    assert info.value.detail_code == "unsupported_vertical" and "ddg_html" in info.value.message


def test_news_asks_the_token_page_then_news_js_with_its_token_at_the_pace():
    clock = FakeClock()
    with responses.RequestsMock() as mock, _client(clock) as client:
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/news.js", body=NEWS, content_type="application/json")
        response = client.search("rust programming", vertical="news", locale="en-US", time_range="week")
        page, answer = (call.request for call in mock.calls)
    assert _query(page) == {"q": "rust programming", "iar": "news", "t": "h_"}
    assert _query(answer) == {
        "l": "us-en",
        "o": "json",
        "q": "rust programming",
        "vqd": TOKEN,
        "p": "-1",
        "noamp": "1",
        "df": "w",
    }
    assert answer.headers["Referer"] == "https://duckduckgo.com/"
    assert len(response["items"]) == 5 and response["items"][0]["provider"] == "ddg_html"
    assert response["provider_meta"]["attempts"] == 2 and clock.sleeps == pytest.approx([1.0])


def test_the_endpoint_override_moves_both_requests_to_its_origin(fake_clock):
    """A mirror, a proxy or a test server set as ddg_html's endpoint gets the token page and the
    JSON answer too (before: the override was ignored and both went to duckduckgo.com)."""
    settings = ws.Settings(endpoints={"ddg_html": "http://127.0.0.1:8080/html/"})
    with responses.RequestsMock() as mock, ws.SearchClient(["ddg_html"], settings=settings) as client:
        mock.get("http://127.0.0.1:8080/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("http://127.0.0.1:8080/news.js", body=NEWS, content_type="application/json")
        response = client.search("rust programming", vertical="news")
        page, answer = (call.request for call in mock.calls)
    assert answer.headers["Referer"] == "http://127.0.0.1:8080/" and _query(answer)["vqd"] == TOKEN
    assert len(response["items"]) == 5


def test_more_news_than_a_page_asks_the_answers_own_next():
    later = RECORDED / "phrona__rust_programming_2026-08-22.json"
    first = json.loads(NEWS)
    with responses.RequestsMock() as mock, _client() as client:
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/news.js", body=NEWS, content_type="application/json")
        mock.get("https://duckduckgo.com/news.js", body=later.read_bytes(), content_type="application/json")
        response = client.search("rust programming", vertical="news", max_results=30)
        second_page = mock.calls[2].request
        calls = len(mock.calls)
    assert _query(second_page) == dict(parse_qsl(urlsplit(first["next"]).query))  # s=30 and the answer's vqd
    items = response["items"]
    assert [item["rank"] for item in items] == list(range(1, len(items) + 1))
    assert len({item["url"] for item in items}) == len(items) > 13
    assert [item["url"] for item in items[:13]] == [result["url"] for result in first["results"]]
    # the later capture's own next asks s=30 again: that page brings nothing new, so paging stops there
    assert response["provider_meta"]["pages"] == 3 and calls == 4


def test_an_images_next_without_a_token_gets_the_answers_token():
    images = (FIXTURES / "bort__images_puppy.2.json").read_bytes()
    engine = registry.backend_class("ddg_html", "images")(ws.Settings())
    answer = HttpResponse(
        200, CaseInsensitiveDict({"Content-Type": "application/json"}), images, "https://duckduckgo.com/i.js"
    )
    params = SearchParams(query="puppy", max_results=50, vertical="images")
    spec = engine.next_page(params, Page(2, 88, answer, engine.parse(answer, params)))
    assert spec is not None and spec.url.startswith("https://duckduckgo.com/i.js?q=puppy&") and "s=100" in spec.url
    assert spec.params == {"vqd": "4-123751406184030236872122724091288413361"}  # the answer's, as its page adds it


#: The block scripts' headers were not recorded: replayed with responses' default label, with the
#: label of the endpoint's own JSON answers and with a script's (variants of the recorded bodies).
@pytest.mark.parametrize("content_type", ["text/plain", "application/json", "application/x-javascript"])
@pytest.mark.parametrize(
    "body", ["duck-duck-scrape__news_anomaly_block.2.txt", "duck-duck-scrape__news_506_throttle.2.txt"]
)
def test_a_blocked_endpoint_is_a_bot_wall_and_cools_ddg_html_down(body, content_type):
    with responses.RequestsMock() as mock, _client() as client:
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/news.js", body=(FIXTURES / body).read_bytes(), content_type=content_type)
        with pytest.raises(ws.WebBlocked) as info:
            client.search("rust programming", vertical="news")
        assert info.value.detail_code == "captcha_required"
        with pytest.raises(ws.WebBlocked):  # the cool-down covers the web engine of the same name
            client.search("rust programming")


def test_a_field_of_another_json_type_is_no_text_not_its_python_spelling():
    """The recorded news answer with its first result's title an object, its publisher a list and
    its excerpt a boolean: those fields are not text, so the item has no title text, no ``source``
    and no ``snippet`` (before: ``"{'text': 'TIOBE'}"``, ``"['TechRepublic']"``, ``"True"``)."""
    answer = json.loads(NEWS)
    answer["results"][0].update(title={"text": "TIOBE"}, source=["TechRepublic"], excerpt=True)
    first = _answered("news", answer)["items"][0]
    assert first["url"] == answer["results"][0]["url"] and first["title"] == ""
    assert "source" not in first and "snippet" not in first


@pytest.mark.parametrize(
    "vertical, answer_file",
    [
        ("news", "phrona__news_rust_programming.2.json"),
        ("videos", "phrona__videos_rust_programming.2.json"),
        ("images", "bort__images_puppy.2.json"),
    ],
)
def test_titles_are_plain_text_and_keep_angle_brackets(vertical, answer_file):
    """DuckDuckGo's titles (and its videos' descriptions) are plain text: the recorded answers
    carry a bare ``&`` and ``'`` there, never an entity, while news excerpts are HTML (``<b>``,
    ``&#x27;``). The recorded answer with its first title ``Option<T> & Box<dyn Error> in Rust``
    keeps that title (before: read as markup, ``Option & Box in Rust``); the excerpt's ``<b>``
    and ``&#x27;`` still become text."""
    answer = json.loads((FIXTURES / answer_file).read_text(encoding="utf-8"))
    title = "Option<T> & Box<dyn Error> in Rust"
    answer["results"][0]["title"] = title
    if vertical == "videos":
        answer["results"][0]["description"] = "Why Vec<u8> &not; String"
    items = _answered(vertical, answer, max_results=10)["items"]
    assert items[0]["title"] == title
    if vertical == "videos":
        assert items[0]["snippet"] == "Why Vec<u8> &not; String"
    if vertical == "news":
        assert items[0]["snippet"].startswith("July 2026 TIOBE Index puts Rust in the top 10")
        assert "Everyone's favorite memory-safe programming language" in items[7]["snippet"]


def test_a_next_link_that_is_no_url_keeps_the_first_page():
    """The recorded news answer whose ``next`` is ``http://[::1/x`` (an IPv6 literal left open:
    no URL): the 13 results of the page read stand, and the unreadable ``next`` is a
    ``WebParseError`` in ``errors`` (before: the whole search failed, ``internal error in
    backend ddg_html: ValueError``)."""
    answer = dict(json.loads(NEWS), next="http://[::1/x")
    response = _answered("news", answer, max_results=30)
    assert len(response["items"]) == 13 and response["provider_meta"]["pages"] == 1
    assert [(e["type"], e["detail_code"]) for e in response["errors"]] == [("WebParseError", "unexpected_shape")]


@pytest.mark.parametrize("following", ["https://elsewhere.example/news.js?q=rust&s=30", "//elsewhere.example/news.js"])
def test_a_next_page_on_another_host_is_not_followed_and_says_so(following):
    """The recorded news answer with its ``next`` moved to another host: not followed (the
    token and the pace are DuckDuckGo's), and not taken for the last page either: the 13
    results read stand and the unfollowed page is a ``WebParseError`` in ``errors`` (before:
    13 results and no word of the pages asked for)."""
    answer = dict(json.loads(NEWS), next=following)
    response = _answered("news", answer, max_results=30)
    assert len(response["items"]) == 13 and response["provider_meta"]["pages"] == 1
    assert [(e["type"], e["detail_code"], e["page"]) for e in response["errors"]] == [
        ("WebParseError", "unexpected_shape", 2)
    ]
    assert "elsewhere.example" in response["errors"][0]["message"]


def test_a_number_no_json_reader_holds_exactly_is_left_out():
    """The recorded image answer with its first image 1e308 pixels wide and a video's duration
    ``"99999999999999999999999"`` seconds: such values are no size or duration, and past
    2**53 a JSON reader (JavaScript's numbers) cannot even hold them; they are left out (before:
    a 309-digit ``width``, a 23-digit ``duration``). A real size or duration is kept."""
    images = json.loads((FIXTURES / "bort__images_puppy.2.json").read_text(encoding="utf-8"))
    images["results"][0]["width"] = 1e308
    videos = json.loads((FIXTURES / "phrona__videos_rust_programming.2.json").read_text(encoding="utf-8"))
    videos["results"][0]["duration"] = "99999999999999999999999"
    found = {
        vertical: _answered(vertical, answer, max_results=2)["items"]
        for vertical, answer in (("images", images), ("videos", videos))
    }
    assert "width" not in found["images"][0] and found["images"][0]["height"] == images["results"][0]["height"]
    assert "duration" not in found["videos"][0] and found["videos"][1]["duration"] > 0


def test_digits_that_are_no_ascii_number_are_no_value_not_a_crash():
    """The recorded video and news answers with a duration ``"²"`` and a date ``"²²²²²²²²²"``
    (characters ``str.isdigit`` accepts and ``int`` refuses): the field is left out and the
    other results stand (before: ``ValueError`` out of ``search()``)."""
    videos = json.loads((FIXTURES / "phrona__videos_rust_programming.2.json").read_text(encoding="utf-8"))
    videos["results"][0]["duration"] = "\u00b2"
    news = json.loads(NEWS)
    news["results"][0]["date"] = "\u00b2" * 9
    found = {
        vertical: _answered(vertical, answer, max_results=2)["items"]
        for vertical, answer in (("videos", videos), ("news", news))
    }
    assert "duration" not in found["videos"][0] and found["videos"][1]["duration"] > 0
    assert "published_at" not in found["news"][0] and found["news"][1]["published_at"] == "2022-07-28T10:18:00Z"


def test_a_protocol_relative_image_is_an_https_image_result():
    """The recorded image answer with its first image and thumbnail written protocol-relative
    (``//data.ipic.ai/…``): that image is a result, its addresses https (before: its image was
    no http(s) URL, so the image result was dropped)."""
    answer = json.loads((FIXTURES / "bort__images_puppy.2.json").read_text(encoding="utf-8"))
    first = answer["results"][0]
    image, thumbnail = first["image"], first["thumbnail"]
    first.update(image=image[len("https:") :], thumbnail=thumbnail[len("https:") :])
    items = _answered("images", answer, max_results=2)["items"]
    assert (items[0]["image_url"], items[0]["thumbnail_url"]) == (image, thumbnail)


@pytest.mark.parametrize(
    "vertical, answer_file, field",
    [
        ("news", "phrona__news_rust_programming.2.json", "url"),
        ("videos", "phrona__videos_rust_programming.2.json", "content"),
        ("images", "bort__images_puppy.2.json", "image"),
    ],
)
def test_results_without_the_field_a_result_needs_are_an_unknown_shape_not_no_results(vertical, answer_file, field):
    """The recorded answer with the field every result is known by renamed (``url`` of a news
    result, ``content`` of a video, ``image`` of an image): the answer lists results but none can
    be read, which is a changed layout, ``WebParseError`` (before: "no results", and cached)."""
    answer = json.loads((FIXTURES / answer_file).read_text(encoding="utf-8"))
    for result in answer["results"]:
        result["renamed_" + field] = result.pop(field)
    with pytest.raises(ws.WebParseError) as info:
        _answered(vertical, answer)
    assert info.value.detail_code == "unexpected_shape" and str(len(answer["results"])) in info.value.message


@pytest.mark.parametrize(
    "vertical, answer_file",
    [
        ("news", "phrona__news_rust_programming.2.json"),
        ("videos", "phrona__videos_rust_programming.2.json"),
        ("images", "bort__images_puppy.2.json"),
    ],
)
def test_results_that_are_no_json_objects_are_an_unknown_shape_not_no_results(vertical, answer_file):
    """The recorded answer with each result replaced by its URL (a list of strings, not of
    objects): it lists results and none can be read, ``WebParseError`` (before: skipped one by
    one, the answer read as "no results", and cached)."""
    answer = json.loads((FIXTURES / answer_file).read_text(encoding="utf-8"))
    answer["results"] = [result.get("url") or result.get("content") for result in answer["results"]]
    with pytest.raises(ws.WebParseError) as info:
        _answered(vertical, answer)
    assert info.value.detail_code == "unexpected_shape" and str(len(answer["results"])) in info.value.message


def test_a_date_before_the_year_1000_is_still_iso_8601():
    """The recorded news answer with its first ``date`` -60000000000 (epoch seconds of the year
    68): ``published_at`` is ISO 8601 with its four-digit year, ``0068-…`` (before: ``68-…``,
    which no ISO reader takes)."""
    answer = json.loads(NEWS)
    answer["results"][0]["date"] = -60_000_000_000
    first = _answered("news", answer)["items"][0]
    assert first["published_at"] == "0068-09-03T13:20:00Z"


def test_a_next_page_without_any_token_is_not_asked_and_says_so():
    """The recorded news answer with the token taken out of its ``next`` and its ``vqd`` field
    gone: the endpoint needs a token, so the next page is not asked without one; the 13 results
    read stand and the page is a ``WebParseError`` in ``errors``, as a ``next`` on another host is
    (before: page 2 was asked with no token)."""
    recorded = json.loads(NEWS)
    answer = dict(recorded, next=recorded["next"].replace("&vqd=%s" % TOKEN, ""))
    del answer["vqd"]
    assert "vqd=" not in answer["next"]
    response = _answered("news", answer, max_results=30)
    assert len(response["items"]) == 13 and response["provider_meta"]["pages"] == 1
    assert [(e["type"], e["detail_code"], e["page"]) for e in response["errors"]] == [
        ("WebParseError", "unexpected_shape", 2)
    ]
    assert "no vqd token" in response["errors"][0]["message"]


def test_a_repeated_page_with_a_result_without_an_address_brings_nothing_new_and_ends_paging():
    """Page 2 repeats page 1's recorded answer, one result without its ``url`` (a variant): it
    brings nothing new, so no page 3 is asked for (before: the result without an address counted
    as new, and the same page was asked for again up to the 8-page limit, at one a second)."""
    repeat = json.loads(NEWS)
    del repeat["results"][0]["url"]
    with responses.RequestsMock() as mock, _client() as client:
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/news.js", body=NEWS, content_type="application/json")
        mock.get("https://duckduckgo.com/news.js", json=repeat)
        response = client.search("rust programming", vertical="news", max_results=30)
        calls = len(mock.calls)
    assert calls == 3 and response["provider_meta"]["pages"] == 2
    assert [item["url"] for item in response["items"]] == [result["url"] for result in json.loads(NEWS)["results"]]


def test_a_next_page_in_plain_http_is_not_followed():
    """The recorded answer's own ``next`` written as an absolute ``http://`` address on the same
    host: not followed (the query and the token would go in clear), as for another host."""
    following = "http://duckduckgo.com/" + json.loads(NEWS)["next"]
    response = _answered("news", dict(json.loads(NEWS), next=following), max_results=30)
    assert len(response["items"]) == 13 and response["provider_meta"]["pages"] == 1
    assert [(e["type"], e["detail_code"], e["page"]) for e in response["errors"]] == [
        ("WebParseError", "unexpected_shape", 2)
    ]


@pytest.mark.parametrize("host", ["\\\\elsewhere.example/", "https:\\\\elsewhere.example\\"])
def test_a_next_page_a_browser_reads_on_another_host_is_not_followed(host):
    """The recorded answer's own ``next`` behind a run of backslashes, another host's to a browser
    (and to the form posts' rule, ``browser_join``): ``urljoin`` read a path on the endpoint's host,
    so the page was asked for at ``https://duckduckgo.com/%5C%5Celsewhere.example/...``."""
    following = host + json.loads(NEWS)["next"]
    response = _answered("news", dict(json.loads(NEWS), next=following), max_results=30)
    assert len(response["items"]) == 13 and response["provider_meta"]["pages"] == 1
    assert [(e["type"], e["detail_code"], e["page"]) for e in response["errors"]] == [
        ("WebParseError", "unexpected_shape", 2)
    ]


def test_a_video_keeps_its_embed_address_and_a_non_http_one_is_left_out():
    """The recorded video answer's ``embed_url`` (the player a page embeds, which ddgs passes on):
    each video has the one its result gives (before: dropped). One that is no http(s) URL (a
    ``javascript:`` player) is left out as a picture's is, the video kept."""
    answer = json.loads((FIXTURES / "phrona__videos_rust_programming.2.json").read_text(encoding="utf-8"))
    answer["results"][1]["embed_url"] = "javascript:alert(1)"
    items = _answered("videos", answer, max_results=3)["items"]
    assert items[0]["embed_url"] == answer["results"][0]["embed_url"]
    assert items[2]["embed_url"] == answer["results"][2]["embed_url"]
    assert "embed_url" not in items[1] and items[1]["url"] == answer["results"][1]["content"]


def test_a_video_names_its_channel_apart_from_its_platform():
    """The recorded video answer's ``uploader`` (the channel, ``freeCodeCamp.org``; ``publisher`` is the
    platform, ``YouTube``), which ddgs passes on: each video has its own (before: dropped)."""
    answer = json.loads((FIXTURES / "phrona__videos_rust_programming.2.json").read_text(encoding="utf-8"))
    items = _answered("videos", answer, max_results=3)["items"]
    assert [item["uploader"] for item in items] == [result["uploader"] for result in answer["results"][:3]]
    assert items[0]["publisher"] == answer["results"][0]["publisher"]


def test_the_contract_kit_accepts_the_recorded_video_answer_with_its_player_and_channel():
    """``assert_contract`` on the recorded video answer read by ddg_html: its ``embed_url`` and ``uploader``
    are fields of a video (before: "unexpected key ... (raw upstream data?)" for each), of their kinds (a
    ``javascript:`` player or a channel that is a number breaks the contract)."""
    answer = json.loads((FIXTURES / "phrona__videos_rust_programming.2.json").read_text(encoding="utf-8"))
    result = _answered("videos", answer, max_results=3)
    assert all("embed_url" in item and "uploader" in item for item in result["items"])
    assert_contract(result, provider="ddg_html")
    result["items"][0].update(embed_url="javascript:alert(1)", uploader=42)
    with pytest.raises(AssertionError) as refused:
        assert_contract(result, provider="ddg_html")
    assert "embed_url 'javascript:alert(1)' is not http(s)" in str(refused.value)
    assert "uploader is not a str" in str(refused.value)


def test_the_tool_and_command_line_text_name_a_videos_channel():
    """The text a model (and ``websearch-sync search``) reads of the recorded video answer names each
    video's channel beside its platform (before: the platform only, ``Publisher: YouTube``)."""
    from websearch_sync import tool

    answer = json.loads((FIXTURES / "phrona__videos_rust_programming.2.json").read_text(encoding="utf-8"))
    text = tool.format_results(_answered("videos", answer, max_results=2))
    assert "Publisher: YouTube | Channel: freeCodeCamp.org | Published: 2023-06-08T12:43:32Z" in text
    assert "Channel: %s" % answer["results"][1]["uploader"] in text


def test_a_hundred_images_as_ddgs_gives_them_come_from_the_one_recorded_page():
    """duck-duck-scrape's recorded i.js answer holds 100 distinct images: one request after the token
    page gives all of them (ddgs's ``images(max_results=100)``; a call for 100 was refused)."""
    answer = json.loads((FIXTURES / "duck-duck-scrape__images_minecraft.2.json").read_text(encoding="utf-8"))
    response = _answered("images", answer, max_results=100)
    assert len(response["items"]) == 100 and response["provider_meta"]["attempts"] == 2
    assert [item["image_url"] for item in response["items"]] == [result["image"] for result in answer["results"]]
    assert_contract(response)  # no max_results given: an image search's own bound


@pytest.mark.parametrize(
    "vertical, answer_file, first",
    [
        ("news", "phrona__news_rust_programming.2.json", "60"),
        ("images", "duck-duck-scrape__images_minecraft.2.json", "200"),
        ("videos", "phrona__videos_rust_programming.2.json", "120"),
    ],
)
def test_pageno_starts_at_its_pages_first_result_as_the_answers_next_counts_a_page(vertical, answer_file, first):
    """ddgs's ``page=3``: ``s`` steps by the ``s`` of the recorded answer's own ``next`` (news 30,
    images 100, videos 60); page 1 sends none (pageno was refused for DuckDuckGo's verticals)."""
    answer = json.loads((FIXTURES / answer_file).read_text(encoding="utf-8"))
    step = dict(parse_qsl(urlsplit(answer["next"]).query))["s"]
    assert int(first) == 2 * int(step)
    for pageno, sent in ((3, first), (1, None)):
        with responses.RequestsMock() as mock, _client() as client:
            mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
            mock.get("https://duckduckgo.com/" + _ENDPOINTS[vertical], json=answer)
            response = client.search("rust programming", vertical=vertical, max_results=5, pageno=pageno)
            request = mock.calls[1].request
        assert _query(request).get("s") == sent and _query(request)["vqd"] == TOKEN
        assert len(response["items"]) == 5


@pytest.mark.parametrize(
    "vertical, answer_file",
    [
        ("news", "phrona__news_rust_programming.2.json"),
        ("images", "duck-duck-scrape__images_minecraft.2.json"),
        ("videos", "phrona__videos_rust_programming.2.json"),
    ],
)
def test_each_verticals_pageno_says_its_step_where_options_are_listed(vertical, answer_file):
    """``backends --json`` (and the docs' table written from it) tells each vertical's ``pageno`` step,
    the ``s`` of the recorded answer's own ``next``, whatever ``max_results`` is; Bing's web search,
    which steps by ``max_results``, says that instead."""
    from websearch_sync.cli.backends_cmd import option_rows

    answer = json.loads((FIXTURES / answer_file).read_text(encoding="utf-8"))
    step = dict(parse_qsl(urlsplit(answer["next"]).query))["s"]
    (row,) = [row for row in option_rows("ddg_html") if row["name"] == "pageno" and vertical in row["verticals"]]
    assert row["verticals"] == [vertical]
    assert "%s results a page whatever max_results is" % step in row["doc"]
    (bing,) = [row for row in option_rows("bing_html") if row["name"] == "pageno" and "web" in row["verticals"]]
    assert "max_results results a page" in bing["doc"]


@pytest.mark.parametrize("size", ["absent", 0, -30, True, "30"])
def test_a_vertical_engine_without_a_page_size_is_refused_when_its_class_is_made(size):
    """A page size of 0 (the old default) sent ``s=0`` for every ``pageno``: the step is each
    engine's own declaration, checked as the class is made."""
    from websearch_sync.backends.ddg_verticals import _DuckDuckGoVertical

    body = {"vertical": "news", "endpoint_path": "news.js"}
    if size != "absent":
        body["page_size"] = size
    with pytest.raises(TypeError, match="must declare page_size"):
        type("Forgetful", (_DuckDuckGoVertical,), body)


@pytest.mark.parametrize("pageno", [101, 10**30])
def test_a_pageno_past_the_last_is_refused_before_any_request(pageno):
    """``pageno`` is bounded (1..100): ``10**30`` was an ``s`` of 30 digits sent upstream."""
    with ws.testing.no_network(), _client() as client:
        with pytest.raises(ws.InvalidInput) as info:
            client.search("rust programming", vertical="images", pageno=pageno)
    assert info.value.detail_code == "bad_pageno" and "pageno must be in 1..100, got %r" % pageno == info.value.message


def test_pageno_one_is_the_search_without_pageno_one_cache_key():
    """The request of a call giving ``pageno=1`` is the one of a call giving none (no ``s``): the
    second is answered from the cache (it was a second token page and JSON request)."""
    with (
        responses.RequestsMock() as mock,
        ws.SearchClient("ddg_html", settings=ws.Settings(impersonate="off"), clock=FakeClock(), retries=0) as client,
    ):
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/news.js", json=dict(json.loads(NEWS), next=None))
        first = client.search("rust programming", vertical="news", max_results=5)
        again = client.search("rust programming", vertical="news", max_results=5, pageno=1)
        assert len(mock.calls) == 2 and "s" not in _query(mock.calls[1].request)
    assert again["provider_meta"]["cached"] is True and again["items"] == first["items"]


def test_sixty_videos_as_ddgs_asks_them_take_the_one_recorded_page():
    """The recorded v.js answer holds 57 videos of its page of 60 (its ``next`` says ``s=60``): a call for
    60, ddgs's ``videos(max_results=60)``, gets them all from the first request after the token page (it
    was refused: bad_max_results); 57 short of 60, the next page is asked (here the same answer: repeats)."""
    answer = json.loads((FIXTURES / "phrona__videos_rust_programming.2.json").read_text(encoding="utf-8"))
    response = _answered("videos", answer, max_results=60)
    assert len(response["items"]) == len(answer["results"]) == 57
    assert [item["url"] for item in response["items"]] == [result["content"] for result in answer["results"]]
    assert_contract(response)  # no max_results given: a video search's own bound


@pytest.mark.parametrize("medium", ["", "data:image/gif;base64,R0lGODlhAQABAAAAACw=", 12, "javascript:void(0)"])
def test_a_video_thumbnail_that_is_no_address_does_not_hide_the_next_size(medium):
    """The recorded video answer's ``images`` with its ``medium`` replaced: the ``small`` one, an
    address, is the thumbnail (an empty, a placeholder, a number or a script hid it)."""
    answer = json.loads((FIXTURES / "phrona__videos_rust_programming.2.json").read_text(encoding="utf-8"))
    answer["results"][0]["images"]["medium"] = medium
    (item,) = _answered("videos", answer, max_results=1)["items"]
    assert item["thumbnail_url"] == answer["results"][0]["images"]["small"]
