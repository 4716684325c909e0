"""The page title is the page's ``<title>``, not an inline icon's ``<svg><title>``."""

import gzip
import re
from pathlib import Path

from websearch_sync.extract.article import extract_html

STRUCTURES = Path(__file__).resolve().parents[2] / "bench" / "extraction-structures"
PAGE = "div-text-1"
ICON = '<svg viewBox="0 0 24 24"><title>Close menu</title><path d="M0 0h24v24H0z"/></svg>'


def _page() -> str:
    return gzip.decompress((STRUCTURES / "html" / ("%s.html.gz" % PAGE)).read_bytes()).decode("utf-8")


def _with_icon(html: str) -> str:
    body = html.index(">", html.index("<body")) + 1
    return html[:body] + ICON + html[body:]


def test_an_icon_title_before_the_article_is_not_the_page_title():
    html = _page()
    title = extract_html(html, mode="text").title
    assert title and extract_html(_with_icon(html), mode="text").title == title


def test_a_page_without_a_title_element_does_not_take_an_icon_title():
    untitled = re.sub(r"<title>.*?</title>", "", _with_icon(_page()), count=1, flags=re.S)
    assert "Close menu" not in extract_html(untitled, mode="text").title
