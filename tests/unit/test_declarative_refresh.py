"""A meta refresh read as a browser reads it (issue 32 item 3's one reader, reviewed): its
``content`` by the HTML standard's shared declarative refresh steps, its tag by the tokenizer.

``WPT`` is web-platform-tests' ``html/semantics/document-metadata/the-meta-element/
pragma-directives/attr-meta-http-equiv-refresh/parsing.html`` as it stands, input for input:
``[]`` there (the browser stays) is None here; ``[time, url]`` is that time and ``url``
resolved against the page (``refresh.sub.html`` is the page itself: a reload).
"""

import html
from urllib.parse import urljoin

import pytest
from requests.structures import CaseInsensitiveDict

from websearch_sync.engine.declarative import declarative_refresh
from websearch_sync.engine.redirects import Refresh, client_redirects
from websearch_sync.net.response import HttpResponse
from websearch_sync.reader.refresh import RefreshChain

PAGE = "https://web-platform.test/support/refresh.sub.html"

WPT = [
    ("", []),
    ("1", [1, "refresh.sub.html"]),
    ("1 ", [1, "refresh.sub.html"]),
    ("1\t", [1, "refresh.sub.html"]),
    ("1\r", [1, "refresh.sub.html"]),
    ("1\n", [1, "refresh.sub.html"]),
    ("1\f", [1, "refresh.sub.html"]),
    ("1;", [1, "refresh.sub.html"]),
    ("1,", [1, "refresh.sub.html"]),
    ("1; url=foo", [1, "foo"]),
    ("1, url=foo", [1, "foo"]),
    ("1 url=foo", [1, "foo"]),
    ("1;\turl=foo", [1, "foo"]),
    ("1,\turl=foo", [1, "foo"]),
    ("1\turl=foo", [1, "foo"]),
    ("1;\rurl=foo", [1, "foo"]),
    ("1,\rurl=foo", [1, "foo"]),
    ("1\rurl=foo", [1, "foo"]),
    ("1;\nurl=foo", [1, "foo"]),
    ("1,\nurl=foo", [1, "foo"]),
    ("1\nurl=foo", [1, "foo"]),
    ("1;\furl=foo", [1, "foo"]),
    ("1,\furl=foo", [1, "foo"]),
    ("1\furl=foo", [1, "foo"]),
    ("1url=foo", []),
    ("1x;url=foo", []),
    ("1 x;url=foo", [1, "x;url=foo"]),
    ("1;;url=foo", [1, ";url=foo"]),
    ("  1  ;  url  =  foo", [1, "foo"]),
    ("  1  ,  url  =  foo", [1, "foo"]),
    ("  1  ;  foo", [1, "foo"]),
    ("  1  ,  foo", [1, "foo"]),
    ("  1  url  =  foo", [1, "foo"]),
    ("1; url=foo ", [1, "foo"]),
    ("1; url=f\to\no", [1, "foo"]),
    ('1; url="foo"bar', [1, "foo"]),
    ("1; url='foo'bar", [1, "foo"]),
    ("1; url=\"foo'bar", [1, "foo'bar"]),
    ("1; url foo", [1, "url foo"]),
    ("1; urlfoo", [1, "urlfoo"]),
    ("1; urfoo", [1, "urfoo"]),
    ("1; ufoo", [1, "ufoo"]),
    ('1; "foo"bar', [1, "foo"]),
    ("; foo", []),
    (", foo", []),
    ("foo", []),
    ("+1; url=foo", []),
    ("-1; url=foo", []),
    ("+0; url=foo", []),
    ("-0; url=foo", []),
    ("0; url=foo", [0, "foo"]),
    ("+1; foo", []),
    ("-1; foo", []),
    ("+0; foo", []),
    ("-0; foo", []),
    ("0; foo", [0, "foo"]),
    ("+1", []),
    ("-1", []),
    ("+0", []),
    ("-0", []),
    ("0", [0, "refresh.sub.html"]),
    ("1.9; url=foo", [1, "foo"]),
    ("1.9..5.; url=foo", [1, "foo"]),
    (".9; url=foo", [0, "foo"]),
    ("0.9; url=foo", [0, "foo"]),
    ("1e0; url=foo", []),
    ("1e1; url=foo", []),
    ("10e-1; url=foo", []),
    ("-0.1; url=foo", []),
]


def page(markup: str, url: str = PAGE) -> HttpResponse:
    headers = CaseInsensitiveDict({"Content-Type": "text/html; charset=utf-8"})
    return HttpResponse(200, headers, markup.encode("utf-8"), url)


def refresh_of(head: str, url: str = PAGE):
    return client_redirects(page("<html><head>%s</head><body></body></html>" % head, url)).refresh


@pytest.mark.parametrize("content, expected", WPT, ids=[repr(content) for content, _ in WPT])
def test_the_web_platform_tests_parsing_table(content, expected):
    found = refresh_of('<meta http-equiv="refresh" content="%s">' % html.escape(content, quote=True))
    if not expected:
        assert found is None
    else:
        assert found == Refresh(urljoin(PAGE, expected[1]), expected[0])


@pytest.mark.parametrize(
    "content",
    [
        "1e3;url=/x",  # the review's case: a digit, then no separator
        "1E3; url=/x",
        "0x10; url=/x",
        "\u00a00; url=/x",  # a no-break space is no ASCII whitespace
        "0\u00a0url=/x",
        " ",
    ],
)
def test_a_declaration_the_steps_ignore_is_not_followed(content):
    assert declarative_refresh(content) is None
    head = '<meta http-equiv="refresh" content="%s">' % content
    assert RefreshChain().client_redirect(page("<html><head>%s</head></html>" % head)) is None


def test_an_ignored_declaration_leaves_the_next_one_to_act():
    # "will declaratively refresh" is set only by a declaration that is read to its end
    found = refresh_of(
        "<meta http-equiv=refresh content='1e3;url=/ignored'>"
        "<meta http-equiv=refresh content='0;url=javascript:alert(1)'>"
        "<meta http-equiv=refresh content='0;url=http://[::1/x'>"
        "<meta http-equiv=refresh content='0;url=/next'>"
    )
    assert found == Refresh("https://web-platform.test/next", 0)


def test_no_url_is_the_documents_own_an_empty_one_is_parsed_against_the_base():
    """The steps start from the document's URL and parse a URL only when one is written."""
    assert declarative_refresh("0") == (0, None) and declarative_refresh("0; url=") == (0, "")
    base = "<base href='https://cdn.example/dir/'>"
    assert refresh_of(base + "<meta http-equiv=refresh content='0'>") == Refresh(PAGE, 0)
    assert refresh_of(base + "<meta http-equiv=refresh content='0; url='>") == Refresh("https://cdn.example/dir/", 0)


def test_a_valid_reload_stops_a_later_refresh():
    assert refresh_of("<meta http-equiv=refresh content='5'><meta http-equiv=refresh content='0;url=/x'>") == Refresh(
        PAGE, 5
    )


def test_the_url_is_resolved_against_a_base_before_the_tag_not_after_it():
    before = refresh_of("<base href='https://cdn.example/dir/'><meta http-equiv=refresh content='0;url=next'>")
    after = refresh_of("<meta http-equiv=refresh content='0;url=next'><base href='https://cdn.example/dir/'>")
    assert before == Refresh("https://cdn.example/dir/next", 0)
    assert after == Refresh("https://web-platform.test/support/next", 0)
    commented = refresh_of("<!-- <base href='https://cdn.example/'> --><meta http-equiv=refresh content='0;url=n'>")
    assert commented == Refresh("https://web-platform.test/support/n", 0)


@pytest.mark.parametrize(
    "head, expected",
    [
        # the tokenizer's attributes: a ">" inside a quoted value does not end the tag
        ("<meta content='0;url=/a>b' http-equiv=refresh>", "https://web-platform.test/a%3Eb"),
        # a legacy reference followed by "=" stays text in an attribute; with ";" it is decoded
        ("<meta http-equiv=refresh content='0;url=/x?a=1&copy=2'>", "https://web-platform.test/x?a=1&copy=2"),
        ("<meta http-equiv=refresh content='0;url=/x?a=1&amp;b=2'>", "https://web-platform.test/x?a=1&b=2"),
        ("<meta http-equiv=refresh content='0;url=/x?a=1&ampb=2'>", "https://web-platform.test/x?a=1&ampb=2"),
        # the first of a repeated attribute counts; data-content is another attribute
        ("<meta http-equiv=refresh content='0;url=/a' content='0;url=/b'>", "https://web-platform.test/a"),
        ("<meta http-equiv=refresh data-content='0;url=/a' content='0;url=/b'>", "https://web-platform.test/b"),
        ("<META HTTP-EQUIV=Refresh CONTENT='0;URL=/c'>", "https://web-platform.test/c"),
        ("<meta/http-equiv='refresh'/content='0;url=/d'/>", "https://web-platform.test/d"),
    ],
)
def test_the_tag_is_read_as_the_tokenizer_reads_it(head, expected):
    found = refresh_of(head)
    assert found is not None and found.target == expected.replace("%3E", ">")


@pytest.mark.parametrize(
    "head",
    [
        "<meta http-equiv='refresh-later' content='0;url=/a'>",  # another keyword
        "<meta http-equiv=' refresh' content='0;url=/a'>",  # an enumerated value is not trimmed
        "<meta x-http-equiv=refresh content='0;url=/a'>",
        "<meta/http-equiv=refresh/content='0;url=/a'/>",  # an unquoted value runs on past "/"
        "<metadata http-equiv=refresh content='0;url=/a'>",  # another element
        "<meta name='x' content=\"<meta http-equiv=refresh content='0;url=/a'>\">",  # text inside a value
        "<meta http-equiv=refresh content=''>",  # an empty content attribute is ignored
        "<meta http-equiv=refresh>",
    ],
)
def test_what_is_no_refresh_pragma(head):
    assert refresh_of(head) is None
