"""``extract.unlikely.remove_unlikely_candidates`` removes exactly what readability-lxml's own
``Document.remove_unlikely_candidates`` removes, on a recorded page, on every development page of
the structures set and on generated markup: class and id names that match one pattern or both,
empty ones, ``<html>``/``<body>`` named like a sidebar, code and articles inside or around a
matching element, matching elements inside removed ones. A readability release that changes the
step fails here."""

import copy
import gzip
import json
import logging
import os

import lxml.html
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from property_examples import examples
from readability import Document
from readability.readability import REGEXES, describe

from websearch_sync.extract.unlikely import remove_unlikely_candidates

HERE = os.path.dirname(os.path.dirname(__file__))
PAGE = os.path.join(HERE, "data", "fetch", "57b4dafd18cfd0531b69f81e87158648227c673ef159f8d8c87d34e34bdb21f2.html.gz")
STRUCTURES = os.path.join(os.path.dirname(HERE), "bench", "extraction-structures")
PARSER = lxml.html.HTMLParser(encoding="utf-8")
LOG = logging.getLogger("readability.readability")


def _both(root: etree._Element) -> tuple[bytes, bytes]:
    """(readability's removal on a copy of ``root``, ours on another copy), serialized."""
    theirs, ours = copy.deepcopy(root), copy.deepcopy(root)
    document = Document("<html></html>")
    document.html = theirs
    Document.remove_unlikely_candidates(document)
    remove_unlikely_candidates(ours, REGEXES, LOG, describe)
    return etree.tostring(theirs, encoding="utf-8"), etree.tostring(ours, encoding="utf-8")


def _pages() -> list[tuple[str, bytes]]:
    """(name, markup) of the recorded page and of every structures page."""
    with open(os.path.join(STRUCTURES, "ground-truth.json"), encoding="utf-8") as handle:
        paths = [os.path.join(STRUCTURES, "html", name + ".html.gz") for name in sorted(json.load(handle))]
    pages = []
    for path in [PAGE, *paths]:
        with gzip.open(path, "rb") as handle:
            pages.append((os.path.basename(path), handle.read()))
    return pages


def test_the_recorded_page_and_every_structures_page_lose_what_readability_removes():
    changed = []
    for name, markup in _pages():
        root = lxml.html.document_fromstring(markup, parser=PARSER)
        theirs, ours = _both(root)
        assert theirs == ours, name
        if theirs != etree.tostring(root, encoding="utf-8"):
            changed.append(name)
    assert os.path.basename(PAGE) in changed and len(changed) >= 10  # the step removed something


NAMES = st.sampled_from(["", " ", "sidebar", "comment-list", "main-content", "sidebar column", "footer", "text", "x"])
TAGS = st.sampled_from(["div", "div", "section", "p", "span", "pre", "code", "article", "main", "math", "ul", "li"])
LEAVES = st.sampled_from(["text", "<br>", "<!-- comment -->", "<p>a paragraph</p>", ""])


def _element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(TAGS, NAMES, NAMES, st.lists(children, max_size=4)).map(
        lambda t: (
            "<%s class='%s' id='%s'>%s</%s>" % (t[0], t[1], t[2], "".join(t[3]), t[0])
            if t[1] or t[2]
            else "<%s>%s</%s>" % (t[0], "".join(t[3]), t[0])
        )
    )


@settings(max_examples=examples(100, deep=150), deadline=None)
@given(NAMES, st.lists(st.recursive(LEAVES, _element, max_leaves=25), max_size=5).map("".join))
def test_generated_markup_loses_what_readability_removes(body_class, body):
    markup = "<html class='%s'><body class='%s'>%s</body></html>" % (body_class, body_class, body)
    root = lxml.html.document_fromstring(markup.encode(), parser=PARSER)
    theirs, ours = _both(root)
    assert theirs == ours
