"""Pages nested deeper than libxml2 builds trees (256 open elements) are read whole: the
parser used to stop there and drop the rest of the page ("no readable text")."""

import gzip
import json
from pathlib import Path

import lxml.html

from websearch_sync.extract.article import extract_html
from websearch_sync.extract.nesting import MAX_DEPTH, cut_by_depth

STRUCTURES = Path(__file__).resolve().parents[2] / "bench" / "extraction-structures"
PAGE = "div-text-1"


def _page() -> tuple[str, list[str]]:
    html = gzip.decompress((STRUCTURES / "html" / ("%s.html.gz" % PAGE)).read_bytes()).decode("utf-8")
    truth = json.loads((STRUCTURES / "ground-truth.json").read_text("utf-8"))[PAGE]["articleBody"]
    return html, [line for line in truth.splitlines() if line.strip()]


def _wrapped(html: str, opening: str, closing: str = "") -> str:
    """``html`` with its body's content inside ``opening``...``closing``."""
    body = html.index(">", html.index("<body")) + 1
    end = html.index("</body>")
    return html[:body] + opening + html[body:end] + closing + html[end:]


def _depth(root) -> int:
    return max(sum(1 for _ in node.iterancestors()) for node in root.iter())


def test_a_page_opened_by_hundreds_of_unclosed_tags_keeps_its_article():
    html, paragraphs = _page()
    deep = _wrapped(html, "<font size=2>" * 300)
    text = extract_html(deep, url="https://example.org/", mode="text").text
    assert paragraphs[0] in text and paragraphs[-1] in text


def test_ten_thousand_nested_blocks_keep_the_text_inside_and_after_them():
    html, paragraphs = _page()
    deep = _wrapped(html, "<div>" * 10_000, "</div>" * 10_000)
    text = extract_html(deep, url="https://example.org/", mode="markdown").text
    assert paragraphs[0] in text and paragraphs[-1] in text


def test_only_a_tree_at_the_limit_is_parsed_again_and_the_rebuilt_one_is_capped():
    shallow = lxml.html.document_fromstring("<div>" * 100 + "x")
    assert not cut_by_depth(shallow)
    cut = lxml.html.document_fromstring("<div>" * 300 + "x")
    assert cut_by_depth(cut)
    from websearch_sync.extract.article import _parse

    rebuilt = _parse("<div>" * 300 + "<p>deep text</p>")
    assert rebuilt is not None and _depth(rebuilt) <= MAX_DEPTH
    assert "deep text" in rebuilt.text_content()


def test_a_name_no_element_may_carry_in_a_deep_page_loses_only_its_tag():
    """Broken markup such as ``<m<div>`` (what a mutation of a recorded page gave) or a comment
    holding ``--``: libxml2 reports them, lxml's tree builder refuses them (ValueError, then
    "missing end tags"): the tag's text goes to its parent, and the rest of the page is read."""
    html, paragraphs = _page()
    deep = _wrapped(html, "<m<div>words of the broken tag</m<div><!-- a -- b -->" + "<font size=2>" * 300)
    text = extract_html(deep, url="https://example.org/", mode="text").text
    assert paragraphs[0] in text and paragraphs[-1] in text


def test_a_comment_after_a_deep_pages_end_is_no_root_of_its_second_parse():
    """A server's comment after ``</html>`` (Baidu's ``<!--cxy_ex+...-->``, Yahoo's capture time) on
    a page deep enough to be parsed again: the tree builder took the comment, the last node outside
    any element, for the document's root, and the extraction's first walk raised ``ValueError``
    ("Input object is not an XML element: lxml.etree._Comment"), an ``internal_error`` of fetch (the
    hostile-input test found it cutting a recorded Baidu page). A comment outside the root element
    is no part of the page's text: it is left out of the second parse."""
    html, paragraphs = _page()
    deep = _wrapped(html, "<font size=2>" * 300) + "<!--cxy_ex+1597724469+1520439157-->"
    text = extract_html(deep, url="https://example.org/", mode="text").text
    assert paragraphs[0] in text and paragraphs[-1] in text
