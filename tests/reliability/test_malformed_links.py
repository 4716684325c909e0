"""Malformed URLs from upstream (``http://[::1``, an invalid IPv6 literal) are data, never a crash.

Regression tests for defects the hostile-input tests found: ``urlsplit`` raises
``ValueError`` on them, which escaped DuckDuckGo's link decoding (a whole page became a
parse error, and ``structure_report``, used by check-live, raised), Baidu's bot-wall
check of a ``Location`` header (internal_error) and fetch's redirect handling
(``ws.fetch`` raised ``ValueError``).
"""

import pytest
from faults import redirect, respond
from requests.structures import CaseInsensitiveDict
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.backends.baidu import is_baidu_captcha_url, is_baidu_link
from websearch_sync.backends.ddg import decode_ddg_href, parse_ddg_page
from websearch_sync.engine.registry import backend_class
from websearch_sync.net.transport import HttpResponse

MALFORMED = ["http://[::1", "https://[zz/x", "//[::1/l/?uddg=x", "http://a]b:80/"]


@pytest.mark.parametrize("url", MALFORMED)
def test_the_link_helpers_take_malformed_urls(url):
    assert is_baidu_link(url) is False
    assert is_baidu_captcha_url(url) is False
    assert isinstance(decode_ddg_href(url), str)


def test_a_malformed_result_link_drops_that_result_only():
    page = (
        '<html><body><div id="links">'
        '<div class="result"><a class="result__a" href="http://[::1">Broken</a></div>'
        '<div class="result"><a class="result__a" href="https://good.example/">Good</a></div>'
        '</div><div class="nav-link"></div></body></html>'
    )
    items = parse_ddg_page(page, "ddg_html")
    assert [i["title"] for i in items] == ["Broken", "Good"]  # raw items; normalisation drops the broken URL
    response = HttpResponse(
        200, CaseInsensitiveDict({"Content-Type": "text/html"}), page.encode(), "https://html.duckduckgo.com/html/"
    )
    backend = backend_class("ddg_html")(ws.Settings())
    assert backend.structure_report(response)["result_blocks"] is True
    with FaultServer({"/s": respond(200, page.encode(), content_type="text/html")}) as server:
        result = ws.search("q", backend="ddg_html", settings=ws.Settings(endpoints={"ddg_html": server.url("/s")}))
    assert [i["url"] for i in result["items"]] == ["https://good.example/"]


def test_baidu_redirected_to_a_malformed_url_is_an_unexpected_status():
    with FaultServer({"/s": redirect("http://[::1")}) as server:
        with pytest.raises(ws.WebProviderError) as info:
            ws.search("q", backend="baidu_html", settings=ws.Settings(endpoints={"baidu_html": server.url("/s")}))
    assert info.value.detail_code == "http_302"


@pytest.mark.parametrize(
    "page",
    [
        redirect("http://[::1"),
        redirect("https://[zz/x", status=301),
    ],
)
def test_fetch_redirected_to_a_malformed_url_is_bad_redirect(page):
    with FaultServer({"/p": page}) as server:
        with pytest.raises(ws.WebProviderError) as info:
            # 30 s, not the subject: a process's first fetch builds its wire and extractor (2-7 s under load)
            ws.fetch(server.url("/p"), allow_private=True, timeout_ms=30_000)
    assert info.value.detail_code == "bad_redirect"


@pytest.mark.parametrize(
    "body, error, detail",
    [
        (
            b'<html><body><script>location.replace("http://[zz")</script></body></html>',
            ws.WebProviderError,
            "bad_redirect",
        ),
        # the shared declarative refresh steps return when the URL does not parse: the page itself is read
        (
            b'<html><head><meta http-equiv="refresh" content="0; url=http://[::1/x"></head><body></body></html>',
            ws.WebParseError,
            "no_content",
        ),
    ],
)
def test_fetch_sent_to_a_malformed_url_by_the_page(body, error, detail):
    with FaultServer({"/p": respond(200, body)}) as server:
        with pytest.raises(error) as info:
            ws.fetch(server.url("/p"), allow_private=True, timeout_ms=30_000)  # not the subject, as above
    assert info.value.detail_code == detail
