"""startpage_html images: the request, the recorded page (2026-08, 50 images in the props of
its React root) read field by field, the captcha redirect, an unknown layout.

Expected values are read by eye from fixtures/startpage_html/phrona__images.html.
"""

import pytest
from vertical_answers import answer, body

from websearch_sync.backends.startpage_images import StartpageImages
from websearch_sync.config import Settings
from websearch_sync.errors import WebBlocked, WebParseError
from websearch_sync.models import SearchParams

IMAGES = StartpageImages(Settings())
URL = "https://www.startpage.com/sp/search"


def params(**kwargs):
    return SearchParams(query="rust programming", max_results=10, **kwargs)


def test_request():
    spec = IMAGES.build_request(params(time_range="week", safe_search="strict", options={"pageno": 2}))
    assert spec.url == URL and spec.allow_redirects is False
    assert spec.params == {
        "query": "rust programming",
        "cat": "images",
        "page": "2",
        "segment": "startpage.udog",
        "qadf": "heavy",
    }


def test_images():
    items = IMAGES.interpret(answer(body("startpage_html", "phrona__images.html"), URL), params()).items
    assert len(items) == 50
    assert items[0] == {
        "title": "Rust Programming Language",
        "url": "https://rust-lang.org/",
        "image_url": "https://www.rust-lang.org/static/images/rust-social-wide.jpg",
        "thumbnail_url": "https://tse4.mm.bing.net/th/id/OIP.W8KBrJgmsIlYtn24AhHfSQHaDt?r=0&pid=Api",
        "width": 2048,
        "height": 1024,
    }
    assert items[-1]["url"] == "https://www.scribd.com/document/831120192/Rust-programming-language"
    assert (items[-1]["width"], items[-1]["height"]) == (768, 1024)


def test_a_call_for_more_images_than_the_one_page_holds_is_told():
    """An image search takes up to 100; Startpage's one page holds 50, and no later page is read."""
    assert IMAGES.not_sent(SearchParams(query="q", max_results=100, vertical="images")) == ["max_results"]
    assert IMAGES.not_sent(SearchParams(query="q", max_results=50, vertical="images")) == []


def test_the_captcha_redirect_is_a_block():
    redirect = answer("", URL, status=302, headers={"Location": "https://www.startpage.com/sp/captcha?b=1"})
    with pytest.raises(WebBlocked):
        IMAGES.interpret(redirect, params())


@pytest.mark.parametrize(
    "page",
    [
        "<html><body>no props</body></html>",
        "<script>React.createElement(UIStartpage.AppSerpImages, {not json</script>",
        '<script>React.createElement(UIStartpage.AppSerpImages, {"render": {"presenter": {}}})</script>',
        body("startpage_html", "web-search-mcp__startpage.html"),  # a web results page
    ],
    ids=["no-props", "broken-props", "no-sections", "web-page"],
)
def test_an_unknown_layout_is_a_parse_error(page):
    with pytest.raises(WebParseError):
        IMAGES.interpret(answer(page, URL), params())


def test_structure_report_of_the_recorded_page():
    report = IMAGES.structure_report(answer(body("startpage_html", "phrona__images.html"), URL))
    assert report == {"not_blocked": True, "results_region": True, "result_blocks": True, "thumbnail_urls": True}


def test_no_later_image_page_is_asked_for_none_being_on_record(fake_clock):
    """The recorded page links pages 2-5, but no later image page is on record: a short page asked
    for the next one (b6eb794d) of a shape nobody saw. It reads one page; max_pages is no option of its."""
    import websearch_sync as ws

    assert IMAGES.results_per_page is None and "max_pages" not in IMAGES.option_names()
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="startpage_html", vertical="images", settings=Settings(), max_pages=2)
    assert info.value.detail_code == "bad_option" and "max_pages" in info.value.message


def test_the_backends_listing_says_the_image_engines_limit():
    """``backends --json`` showed ``max_results_limit: null`` for startpage_html (its web engine's),
    though an image call gets at most the recorded page's 50: each vertical's limit is listed."""
    from websearch_sync.cli.backends_cmd import backend_rows

    read = len(IMAGES.interpret(answer(body("startpage_html", "phrona__images.html"), URL), params()).items)
    row = next(row for row in backend_rows(Settings()) if row["name"] == "startpage_html")
    assert row["max_results_limits"] == {"images": read} and row["max_results_limit"] is None
