"""The shortcuts fetch takes on every page it reads (issue 35: "time is fetch's") answer exactly
what the full walks answer: the control-character and binary-data counts taken with
``bytes.translate`` on ASCII text, and the client-redirect reader skipping the tag walk on a page
without an ``http-equiv`` attribute whose value opens like ``refresh`` (an ``r`` or a character
reference), the script search on one without ``location``, and the search for comments and
``<noscript>`` blocks on a page that needs neither."""

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from property_examples import examples
from requests.structures import CaseInsensitiveDict

from websearch_sync.engine import redirects
from websearch_sync.engine.redirects import client_redirects
from websearch_sync.net.response import HttpResponse
from websearch_sync.reader.pagetext import binary, sendable

# The patterns as pagetext.py states them, applied the slow way.
_BINARY = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffd]")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATES = re.compile("[\ud800-\udfff]")


def walked_sendable(text: str) -> str:
    return _SURROGATES.sub("\ufffd", _CONTROLS.sub(" ", text))


def walked_binary(text: str) -> bool:
    sample = text[:4096]
    found = len(_BINARY.findall(sample))
    return found > 32 and found > 0.1 * len(sample)


@pytest.mark.parametrize("code", range(128))
def test_every_ascii_character_is_counted_as_the_patterns_count_it(code):
    character = chr(code)
    for text in ("ab%scd" % character, character * 40 + "x" * 300, character * 400):
        assert sendable(text) == walked_sendable(text)
        assert binary(text) == walked_binary(text)


_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(max_codepoint=0x7F),
        st.characters(min_codepoint=0x80, max_codepoint=0x9F),
        st.sampled_from(["\ufffd", "\ud800", "é", "\u2028"]),
    ),
    max_size=200,
)


@settings(max_examples=examples(100, deep=400), deadline=None)
@given(_TEXT)
def test_any_text_is_made_sendable_and_judged_binary_as_the_patterns_do(text):
    assert sendable(text) == walked_sendable(text)
    assert binary(text) == walked_binary(text)
    assert binary(text * 30) == walked_binary(text * 30)


@pytest.mark.parametrize(
    ("text", "is_binary"),
    [
        ("\x00" * 32, False),  # more than 32 of them ...
        ("\x00" * 33, True),
        ("\x00" * 40 + "x" * 360, False),  # ... and more than a tenth of the sample
        ("\x00" * 41 + "x" * 359, True),
        ("\x00" * 40 + "\u00e9" * 360, False),  # not ASCII: counted by the pattern
        ("\x00" * 41 + "\u00e9" * 359, True),
    ],
)
def test_binary_data_is_more_than_32_and_more_than_a_tenth_of_such_characters(text, is_binary):
    assert binary(text) is is_binary


def test_every_lone_surrogate_is_replaced_high_or_low():
    assert sendable("a\ud800b\udbff\udc00\udfff") == "a\ufffdb\ufffd\ufffd\ufffd"


def page(markup: str) -> HttpResponse:
    headers = CaseInsensitiveDict({"Content-Type": "text/html; charset=utf-8"})
    return HttpResponse(200, headers, markup.encode("utf-8"), "https://a.example/page")


@pytest.mark.parametrize(
    "head, expected",
    [
        ("<META HTTP-EQUIV='Refresh' CONTENT='0; URL=https://b.example/x'>", "https://b.example/x"),
        ("<meta Http-Equiv='&#114;efresh' content='0;url=https://b.example/x'>", "https://b.example/x"),
        ("<meta http-equiv='R&#X45;fresh' content='0;url=https://b.example/x'>", "https://b.example/x"),
        (
            "<meta http-equiv='&#82;&#69;&#70;&#82;&#69;&#83;&#72;' content='0;url=https://b.example/x'>",
            "https://b.example/x",
        ),
        ("<meta http-equiv='Content-Type' content='0;url=https://b.example/x'>", None),
        ("<meta http-equiv=refresh content='0;url=https://b.example/x'>", "https://b.example/x"),
        ("<meta name='refresh' content='0;url=https://b.example/x'>", None),  # no http-equiv: no refresh
        ("<script>top.location = 'https://b.example/s'</script>", "https://b.example/s"),
        ("<script>top.Location = 'https://b.example/s'</script>", None),  # the property is case-sensitive
    ],
)
def test_a_page_s_redirect_is_found_whatever_the_case_of_its_markup(head, expected):
    redirects = client_redirects(page("<html><head>%s</head><body></body></html>" % head))
    found = redirects.refresh.target if redirects.refresh is not None else redirects.script
    assert found == expected


def test_a_page_whose_http_equiv_cannot_be_a_refresh_is_not_walked_tag_by_tag(monkeypatch):
    def walked(markup):
        raise AssertionError("the tags were walked")

    monkeypatch.setattr(redirects, "start_tags", walked)
    head = "<meta http-equiv='Content-Type' content='text/html'><base href='/b/'><meta http-equiv=X-UA-Compatible>"
    body = "&amp; a page &#8217;s text, &#x201C;quoted&#x201d; &#1140; &#x720;"
    script = "<script>ads = {autoRefresh: true, refreshRate: 30000}; var equiv = 'http-equiv';</script>"
    markup = "<html><head>%s</head><body>%s%s refresh</body></html>" % (head, body, script)
    assert client_redirects(page(markup)).refresh is None


def test_comments_are_not_searched_on_a_page_that_can_have_no_redirect_in_them(monkeypatch):
    """Comments and ``<noscript>`` blocks hide refresh tags and scripts: on a page with neither a
    refresh attribute nor a stub's script to read, they are not looked for."""

    def searched(lowered, pairs):
        raise AssertionError("the page was searched for comments")

    monkeypatch.setattr(redirects, "_spans", searched)
    comments = "<!-- a note --><noscript><p>scripts are off</p></noscript>" * 50
    small = "<html><head><meta http-equiv=X-UA-Compatible></head><body>%s text</body></html>" % comments
    large = small.replace(" text", " location = '/x' " + "text " * 8000)  # a stub is at most 32 KB
    for markup in (small, large):
        assert client_redirects(page(markup)) == redirects.ClientRedirects()


_PIECES = st.sampled_from(
    [
        "<meta http-equiv='%s' content='%s'>" % (value, content)
        for value in (
            "refresh",
            "REFRESH",
            "&#114;efresh",
            "r&#x65;fresh",
            "&#0082;EFRESH",
            "&#X00052;efresh",
            "refres&#104",
            "&#1140;efresh",
            "Content-Type",
            "ref&amp;resh",
            # not refresh to the standard's ASCII case-insensitive match, though to casefold (U+017F
            # LONG S is s) or NFKC (fullwidth r): the walk and the shortcut must agree on them
            "refre\u017fh",
            "REFRE\u017fH",
            "\uff52efresh",
        )
        for content in ("0;url=/x", "1; URL='https://b.example/y'", "text/html")
    ]
    + ["<meta http-equiv = \"refresh\" content='0;url=/z'>", "<meta http-equiv\n=\nRefresh content=0;url=/z>"]
    + ["<meta http-equiv=' refresh' content='0;url=/z'>", "<meta content='0;url=/z' http-equiv=\"&#114;efresh\">"]
    + ["<meta http-equiv content='0;url=/z'>", "<meta data-http-equiv=refresh http-equiv=x-ua content='0;url=/z'>"]
    + ["<script>location.replace('/s')</script>", "<script>var a = 'http-equiv=refresh';</script>"]
    + ["<base href='https://c.example/'>", "<!--", "-->", "<noscript>", "</noscript>", "&#38;", " refresh ", "<p>"]
    # U+212A KELVIN SIGN lower-cases to an ASCII k, U+0130 to two characters, U+017F casefolds to s
    + ["\u212a", "\u0130", "\u017f"]
)


@settings(max_examples=examples(100, deep=300), deadline=None)
@given(st.lists(_PIECES, max_size=8).map("".join))
@example("<meta http-equiv='refre\u017fh' content='0;url=/x'>")
@example("<meta http-equiv='\uff52efresh' content='0;url=/x'>")
def test_the_tag_walk_s_shortcut_answers_what_the_walk_answers(markup):
    response = page("<html><head>%s</head><body>text</body></html>" % markup)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(redirects, "_may_refresh", lambda lowered: True)  # every page walked
        walked = client_redirects(response)
    assert client_redirects(response) == walked
