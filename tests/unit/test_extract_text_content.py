"""The elements of a page extraction parses answer ``text_content()`` without XPath
(``article._PageElement``), and ``boilerplate._text`` reads an element's text in one call: the
same strings as lxml.html's own ``text_content`` and as the pieces ``itertext()`` hands out, on
every element of a recorded page and of markup holding comments, processing instructions,
CDATA, character references, scripts and nesting."""

import gzip
import os

import lxml.etree
import lxml.html
from hypothesis import given, settings
from hypothesis import strategies as st
from property_examples import examples
from unicode_text import UTF8_CHARS

from websearch_sync.extract import boilerplate
from websearch_sync.extract.article import _PageElement, _parse

PAGE = os.path.join(
    os.path.dirname(os.path.dirname(__file__)),
    "data",
    "fetch",
    "57b4dafd18cfd0531b69f81e87158648227c673ef159f8d8c87d34e34bdb21f2.html.gz",
)

PIECES = st.one_of(
    st.sampled_from(["<p>", "</p>", "<div>", "</div>", "<b>", "</b>", "<br>", "<li>", "<table><tr><td>"]),
    st.sampled_from(["<!-- note -->", "<?php echo 1 ?>", "<![CDATA[raw]]>", "&amp;", "&#233;", "&nbsp;", "&bogus;"]),
    st.sampled_from(["<script>var a = '<b>';</script>", "<style>p { }</style>", "<textarea>t</textarea>"]),
    st.text(UTF8_CHARS, max_size=8),
)


def _same_as_lxml_html(root: lxml.etree._Element) -> int:
    """Compares every element's text with lxml.html's reading; returns how many were compared."""
    compared = 0
    for element in root.iter(lxml.etree.Element):
        assert isinstance(element, _PageElement)
        assert element.text_content() == lxml.html.HtmlElement.text_content(element)
        assert boilerplate._text(element) == " ".join("".join(element.itertext()).split())
        compared += 1
    return compared


def test_every_element_of_a_recorded_page_reads_as_lxml_html_reads_it():
    with gzip.open(PAGE, "rb") as handle:
        root = _parse(handle.read().decode("utf-8", "replace"))
    assert root is not None
    assert _same_as_lxml_html(root) > 200


@settings(max_examples=examples(100, deep=200), deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_any_markup_reads_as_lxml_html_reads_it(markup):
    root = _parse("<html><body>%s</body></html>" % markup)
    assert root is not None
    assert _same_as_lxml_html(root) >= 2  # html and body at least
