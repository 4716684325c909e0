"""DuckDuckGo's usual result link (``//duckduckgo.com/l/?uddg=TARGET&rut=...``) is read at once
(``ddg._TARGET_FIRST``): the target it gives must be the one the general reading gives, which is
kept here as it was (every link, on every recorded page, and made-up links around the fast form)."""

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from property_examples import examples

from websearch_sync.backends import ddg
from websearch_sync.net.urls import host_in, percent_decoded, url_parts

ROOT = Path(__file__).resolve().parents[3]
_HREF = re.compile(r'href="([^"]*)"')


def _general(href):
    """decode_ddg_href before the usual link was read at once."""
    href = (href or "").strip()
    if href.startswith("//"):
        href = "https:" + href
    elif href.startswith("/"):
        href = "https://duckduckgo.com" + href
    if href.startswith(ddg._REDIRECT_LINK) and href.isprintable():
        query = href[len(ddg._REDIRECT_LINK) :].partition("#")[0]
    else:
        parsed = url_parts(href)
        if parsed is None:
            return href
        parts = parsed[0]
        if not (host_in(href, "duckduckgo.com") and parts.path.rstrip("/") == "/l"):
            return href
        query = parts.query
    for pair in query.split("&"):
        key, _, value = pair.partition("=")
        if key == "uddg" and value:
            return percent_decoded(value)
    return href


def test_every_recorded_link_reads_as_the_general_reading_reads_it():
    hrefs = set()
    for page in (ROOT / "fixtures").rglob("*.html"):
        if "ddg" in page.parent.name:
            hrefs.update(_HREF.findall(page.read_text(encoding="utf-8", errors="replace")))
    fast = [href for href in hrefs if href.startswith(ddg._TARGET_FIRST)]
    assert len(fast) >= 50  # the fast form is what the pages hold
    for href in sorted(hrefs):
        assert ddg.decode_ddg_href(href) == _general(href), href


PIECES = st.sampled_from(
    [
        ddg._TARGET_FIRST,
        "//duckduckgo.com/l/?",
        "uddg=",
        "https%3A%2F%2Fa.example%2F",
        "&",
        "#",
        "=",
        "%",
        "%2",
        "%E2%82",
    ]
    + [" ", "\t", "\n", "\r", "\x00", "\x0b", "\x1f", "\x7f", "\x85", "\xa0", "\u2028", "\u200b", "\u2014"]
    + ["rut=x", "kh=-1", "a", "/"]
)


@settings(max_examples=examples(500, deep=2000), deadline=None)
@given(st.lists(PIECES, max_size=8), st.booleans())
def test_made_up_links_read_as_the_general_reading_reads_them(pieces, first):
    href = (ddg._TARGET_FIRST if first else "") + "".join(pieces)
    assert ddg.decode_ddg_href(href) == _general(href)
