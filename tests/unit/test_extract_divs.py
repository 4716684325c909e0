"""``extract.divs.transform_misused_divs`` rewrites a tree exactly as readability-lxml's own
``Document.transform_misused_divs_into_paragraphs`` does (which divisions become paragraphs,
which text and inline runs get wrapped), on a recorded page and on generated markup: nested
divisions, inline elements holding blocks, comments and processing instructions whose text
looks like a tag, names the pattern matches only by prefix. A readability release that changes
the step fails here."""

import copy
import gzip
import itertools
import os

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from property_examples import examples
from readability import Document
from readability.readability import REGEXES

from websearch_sync.extract.divs import transform_misused_divs

PAGE = os.path.join(
    os.path.dirname(os.path.dirname(__file__)),
    "data",
    "fetch",
    "57b4dafd18cfd0531b69f81e87158648227c673ef159f8d8c87d34e34bdb21f2.html.gz",
)
PARSER = lxml.html.HTMLParser(encoding="utf-8")


def _both(root: etree._Element) -> tuple[bytes, bytes]:
    """(readability's rewrite of a copy of ``root``, ours of another copy), serialized."""
    theirs, ours = copy.deepcopy(root), copy.deepcopy(root)
    document = Document("<html></html>")
    document.html = theirs
    Document.transform_misused_divs_into_paragraphs(document)
    transform_misused_divs(ours, document.tags, REGEXES["divToPElementsRe"])
    return etree.tostring(theirs, encoding="utf-8"), etree.tostring(ours, encoding="utf-8")


def test_a_recorded_page_is_rewritten_as_readability_rewrites_it():
    with gzip.open(PAGE, "rb") as handle:
        root = lxml.html.document_fromstring(handle.read(), parser=PARSER)
    theirs, ours = _both(root)
    assert theirs == ours
    assert b"<div" in etree.tostring(root) and theirs != etree.tostring(root)  # the step did something


LEAVES = st.sampled_from(
    [
        "text",
        " ",
        "<br>",
        "<br><br>",
        "<img src='x.png'>",
        "<!-- <p> in a comment -->",
        "<!-- nothing -->",
        "<?php echo '<div>'; ?>",
        "&lt;p&gt; escaped",
        "<abbr>abbr</abbr>",
        "<param>",
        "<picture></picture>",
        "<olive>o</olive>",
        "<ımg>dotless</ımg>",
        "<o:p>office</o:p>",
    ]
)
TAGS = st.sampled_from(["div", "div", "span", "p", "a", "b", "font", "section", "table", "ul", "li", "pre", "em"])


def _markup(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(TAGS, st.lists(children, max_size=5)).map(lambda t: "<%s>%s</%s>" % (t[0], "".join(t[1]), t[0]))


@settings(max_examples=examples(100, deep=400), deadline=None)
@given(st.lists(st.recursive(LEAVES, _markup, max_leaves=30), max_size=6).map("".join))
def test_generated_markup_is_rewritten_as_readability_rewrites_it(body):
    root = lxml.html.document_fromstring(("<html><body><div>%s</div></body></html>" % body).encode(), parser=PARSER)
    theirs, ours = _both(root)
    assert theirs == ours


#: What a division's second pass tells apart: loose text, an inline element, a ``<br>``, a block,
#: a division of its own (random markup meets some sequences of these rarely).
PIECES = ("text", "<b>inline</b>", "<br>", "<p>block</p>", "<div>inner</div>", "<span>a<br>b</span>")
#: Where the pieces stand: alone in a division, and beside a block before and after them (a division
#: holding a block is the one whose loose runs the second pass wraps), and in a division in one.
OUTER = ("<div>%s</div>", "<div><p>block</p>%s</div>", "<div>%s<p>block</p></div>", "<div><div>%s</div>tail</div>")


@pytest.mark.parametrize("length", [1, 2, 3])
def test_every_short_sequence_of_text_inline_br_and_blocks_is_rewritten_as_readability_does(length):
    for pieces in itertools.product(PIECES, repeat=length):
        for outer in OUTER:
            markup = "<html><body>%s</body></html>" % (outer % "".join(pieces))
            root = lxml.html.document_fromstring(markup.encode(), parser=PARSER)
            theirs, ours = _both(root)
            assert theirs == ours, markup
