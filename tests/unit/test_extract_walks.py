"""readability's walks as extraction runs them (``tags``, ``reverse_tags`` of its document)
hand out what readability-lxml's own hand out, in the same order and as lazily: each tag name's
elements listed once the name before it is used up, so that an element a caller removes while
walking one name is not handed out under the next (readability's ``sanitize`` drops as it walks)."""

import lxml.html
from readability import Document

from websearch_sync.extract import article
from websearch_sync.extract.article import _tree_document_class

PAGE = (
    "<html><body><div id='a'><p>one</p><div id='b'><p>two</p><ul><li>x</li></ul></div></div>"
    "<table><tr><td><div id='c'><p>three</p></div></td></tr></table><ul><li>y</li></ul></body></html>"
)
NAMES = ("p", "div", "ul", "table", "h1")


def _walked(walk, drop_on=None):
    """What ``walk(root, *NAMES)`` hands out (as tag and id or text), dropping every element of
    the next name's tag whose text holds the first element's text when ``drop_on`` is met."""
    root = lxml.html.document_fromstring(PAGE)
    seen = []
    for element in walk(root, *NAMES):
        seen.append((element.tag, element.get("id") or element.text_content()))
        if element.tag == drop_on:
            for div in root.findall(".//div"):
                div.drop_tree()
            drop_on = None
    return seen


def test_tags_and_reverse_tags_hand_out_what_readability_s_do_as_lazily():
    theirs = Document("<html></html>")
    ours = _tree_document_class()(lxml.html.document_fromstring(PAGE))
    for name in ("tags", "reverse_tags"):
        for drop_on in (None, "p"):
            expected = _walked(getattr(theirs, name), drop_on)
            assert _walked(getattr(ours, name), drop_on) == expected
            assert ("div" in [tag for tag, _ in expected]) == (drop_on is None)


def test_descendants_are_taken_in_chunks_and_all_of_them(monkeypatch):
    """A chunk at a time, so that no one C call holds the GIL over a huge page's elements
    (``list()`` of a 1000x1000 table's cells held it 0.5 s): each chunk's end, and the ones
    either side of it, give every element, in order."""
    monkeypatch.setattr(article, "DESCENDANTS_CHUNK", 3)
    for count in range(8):
        root = lxml.html.fragment_fromstring("<div>%s</div>" % "".join("<p id=%d></p>" % i for i in range(count)))
        assert [p.get("id") for p in article.descendants(root, "p")] == [str(i) for i in range(count)]
