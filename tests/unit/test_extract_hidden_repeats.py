"""A hidden block kept because it continues the text beside it (rule ``page.hidden_prose``)
does not bring back paragraphs a visible sibling shows already: each comes once."""

import gzip
import json
import re
from pathlib import Path

from websearch_sync.extract.article import extract_html

STRUCTURES = Path(__file__).resolve().parents[2] / "bench" / "extraction-structures"
PAGE = "hidden-panels-1"  # an article in two pages, the second hidden (display: none)


def _page() -> tuple[str, list[str]]:
    html = gzip.decompress((STRUCTURES / "html" / ("%s.html.gz" % PAGE)).read_bytes()).decode("utf-8")
    truth = json.loads((STRUCTURES / "ground-truth.json").read_text("utf-8"))[PAGE]["articleBody"]
    return html, [line for line in truth.splitlines() if len(line) > 80]


def _visible_page(html: str) -> str:
    return re.search(r'<div class="page" id="page1">.*?</div>', html, re.S).group(0)


def _counts(html: str, paragraphs: list[str]) -> list[int]:
    text = extract_html(html, mode="text").text
    return [text.count(paragraph) for paragraph in paragraphs]


def test_the_hidden_page_is_kept_and_read_once():
    html, paragraphs = _page()
    assert _counts(html, paragraphs) == [1] * len(paragraphs)


def test_an_expander_that_repeats_the_visible_teaser_brings_it_once():
    html, paragraphs = _page()
    first = re.search(r"<p>.*?</p>", _visible_page(html), re.S).group(0)
    repeated = html.replace('style="display: none;">', 'style="display: none;">' + first, 1)
    assert repeated != html
    assert _counts(repeated, paragraphs) == [1] * len(paragraphs)


def test_a_hidden_copy_of_the_visible_text_adds_nothing():
    html, paragraphs = _page()
    visible = _visible_page(html)
    copied = html.replace(visible, visible + visible.replace('id="page1">', 'id="copy" hidden>', 1), 1)
    assert copied != html
    assert _counts(copied, paragraphs) == [1] * len(paragraphs)
