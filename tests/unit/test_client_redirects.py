"""The one client-side-redirect reader: fetch (reader.refresh) and Baidu's link resolution read
a page's meta refresh and script redirect the same way, and deciding about a refresh is bounded
by 64 KB of the page whatever its size (issue 33 item 3: a 4.5 MB page rendered whole)."""

import pytest
from requests.structures import CaseInsensitiveDict

import websearch_sync.reader.refresh as refresh_module
from websearch_sync.backends.baidu import link_target
from websearch_sync.engine.redirects import SCAN_CHARS, client_redirects
from websearch_sync.net.response import HttpResponse
from websearch_sync.reader.refresh import RefreshChain

PAGE = "https://www.baidu.com/link?url=abc"


def html_page(markup: str, url: str = PAGE) -> HttpResponse:
    headers = CaseInsensitiveDict({"Content-Type": "text/html; charset=utf-8"})
    return HttpResponse(200, headers, markup.encode("utf-8"), url)


def stub(head: str, body: str = "") -> HttpResponse:
    return html_page("<html><head>%s</head><body>%s</body></html>" % (head, body))


# Inputs on which the two readers of before disagreed (engine.redirects vs reader.refresh).
AGREED = [
    ("<meta http-equiv='refresh' content='.5; url=https://a.example/x'>", "https://a.example/x"),
    ("<meta http-equiv='refresh' content=\"0; url='https://a.example/x' trailing\">", "https://a.example/x"),
    ("<meta http-equiv='refresh' content='abc'>", None),  # no time: a browser ignores it
    ("<meta http-equiv='refresh' content='https://a.example/x'>", None),
    ("<!-- <meta http-equiv='refresh' content='0; url=https://a.example/x'> -->", None),
    ("<!--[if lt IE 9]><meta http-equiv='refresh' content='0;url=https://a.example/old'><![endif]-->", None),
    ("<meta http-equiv='refresh' content='0;URL=https://a.example/x'>", "https://a.example/x"),
    (
        "<meta http-equiv='refresh' content='0'><script>location.replace('https://a.example/s')</script>",
        "https://a.example/s",
    ),
    ("<meta http-equiv='refresh' content='0; url=/x'>", "https://www.baidu.com/x"),
    ("<script>window.location.href = 'https://a.example/s'</script>", "https://a.example/s"),
    ("<script>xlocation.replace('https://a.example/s')</script>", None),
    # read as a browser and the Location reader read them: a backslash is a slash (it was a path character)
    ("<meta http-equiv='refresh' content='0; url=\\x'>", "https://www.baidu.com/x"),
    ("<meta http-equiv='refresh' content='0; url=\\\\a.example\\x'>", "https://a.example/x"),
    ("<meta http-equiv='refresh' content='0; url=http:/a.example/x'>", "http://a.example/x"),
    ("<base href='\\\\a.example\\d\\'><meta http-equiv='refresh' content='0; url=x'>", "https://a.example/d/x"),
    ("<script>window.location.href = '\\\\x'</script>", "https://www.baidu.com/x"),
]


@pytest.mark.parametrize("head, expected", AGREED)
def test_fetch_and_baidu_read_a_stub_s_redirect_the_same_way(head, expected):
    response = stub(head)
    assert RefreshChain().client_redirect(response) == expected
    assert link_target(response, PAGE) == expected


def test_a_noscript_refresh_is_where_baidu_goes_and_what_fetch_names_without_following():
    response = stub("<noscript><meta http-equiv='refresh' content='0;url=https://a.example/n'></noscript>")
    chain = RefreshChain()
    assert chain.client_redirect(response) is None
    assert chain.unfollowed == "https://a.example/n"
    assert link_target(response, PAGE) == "https://a.example/n"


def test_a_reload_is_no_redirect_for_either():
    response = stub("<meta http-equiv='refresh' content='0; url=%s'>" % PAGE)
    assert client_redirects(response).targets(PAGE) == []
    assert RefreshChain().client_redirect(response) is None
    assert link_target(response, PAGE) is None


@pytest.mark.parametrize(
    "head",
    [
        "<base href='https://cdn.example/'><meta http-equiv='refresh' content='0'>",  # no URL: not the base's
        "<meta http-equiv='refresh' content='0; url=HTTPS://WWW.BAIDU.COM:443/./link?url=abc'>",
        "<meta http-equiv='refresh' content='0; url=#'>",
    ],
    ids=["no url beside a base elsewhere", "its own address spelt otherwise", "a bare #"],
)
def test_a_reload_written_any_way_is_no_redirect_for_either(head):
    response = stub(head)
    chain = RefreshChain()
    assert client_redirects(response).targets(PAGE) == []
    assert chain.client_redirect(response) is None and chain.reload is not None
    assert link_target(response, PAGE) is None


def _rendered_sizes(monkeypatch) -> list:
    sizes: list = []
    real = refresh_module.visible_text

    def counting(markup: str, *args):
        sizes.append(len(markup))
        return real(markup, *args)

    monkeypatch.setattr(refresh_module, "visible_text", counting)
    return sizes


@pytest.mark.parametrize("delay", ["0", "5"])
def test_a_huge_page_with_a_refresh_is_not_rendered_whole(monkeypatch, delay):
    sizes = _rendered_sizes(monkeypatch)
    filler = "<p>%s</p>" % ("word " * 200)
    markup = "<html><head><meta http-equiv='refresh' content='%s; url=/next'></head><body>%s</body></html>" % (
        delay,
        filler * (4_500_000 // len(filler)),
    )
    chain = RefreshChain()
    target = chain.client_redirect(html_page(markup, "https://site.example/a"))
    assert all(size <= SCAN_CHARS for size in sizes)
    # instant: a redirect, the big page carries it (its text is what a failing target leaves);
    # 5 s: a page this big is content, not a notice, and is read, not left
    assert target == ("https://site.example/next" if delay == "0" else None)
    assert (chain.carrier is not None) == (delay == "0")


def test_a_small_notice_is_still_rendered_to_count_its_text(monkeypatch):
    sizes = _rendered_sizes(monkeypatch)
    response = html_page(
        "<html><head><meta http-equiv='refresh' content='5; url=/next'></head>"
        "<body><p>You will be redirected in 5 seconds.</p></body></html>",
        "https://site.example/a",
    )
    assert RefreshChain().client_redirect(response) == "https://site.example/next"
    assert sizes and max(sizes) <= SCAN_CHARS
