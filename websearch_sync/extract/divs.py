"""readability-lxml's ``transform_misused_divs_into_paragraphs``, without its quadratic first pass.

readability turns a ``<div>`` that holds no block (``divToPElementsRe`` finds no ``<p``,
``<div``, ``<table``... in its serialized children) into a ``<p>``, then wraps the loose text
and inline runs of the divisions left in paragraphs. Its first pass serializes each division's
whole content to search it: a division inside ten others is serialized eleven times (a tenth of
the extraction of a deeply nested page). ``blocks_below`` answers the same question for every
element in one pass from the leaves up: a start tag the pattern finds is ``<`` and the tag's
name (the text, tails and attribute values of the serialization are escaped), and a comment or
processing instruction is searched as it serializes. The second pass is readability's own
(readability-lxml 0.9), unchanged; ``tests/unit/test_extract_divs.py`` holds the whole step to
readability's on pages, so a readability release that changes it fails there.
"""

from collections.abc import Iterator
from re import Pattern
from typing import Callable, Optional

from lxml import etree
from lxml.html import fragment_fromstring

from ..checkpoints import checked

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: readability's inline tags (its second pass groups runs of them into paragraphs).
_INLINE_TAGS = frozenset(("a", "b", "cite", "code", "em", "font", "i", "small", "span", "strong", "sub", "sup", "u"))


def blocks_below(root: etree._Element, blocks: Pattern[str]) -> set[etree._Element]:
    """The elements of ``root``'s tree in whose children's serialization by readability,
    ``str(b"".join(tostring(child, encoding="utf-8") ...))``, ``blocks`` finds a match: those
    with a descendant whose own serialization opens with a match (a node's serialization
    holds its descendants' start tags and nothing else the pattern can find). Each node is
    judged once, in document order, and a match marks its ancestors up to the first already
    marked (whose own ancestors are), so the walk is linear."""
    named: dict[str, bool] = {}
    below: set[etree._Element] = set()
    for node in checked(root.iter()):
        tag = node.tag
        if isinstance(tag, str) and not tag.startswith("{"):
            marks = named.get(tag)
            if marks is None:  # the start tag as the bytes' repr shows it
                marks = named[tag] = blocks.search(str(("<" + tag).encode("utf-8"))) is not None
        else:
            marks = blocks.search(str(etree.tostring(node, encoding="utf-8"))) is not None
        if marks:
            for ancestor in node.iterancestors():
                if ancestor in below:
                    break
                below.add(ancestor)
    return below


def transform_misused_divs(
    root: etree._Element, tags: Callable[..., Iterator[etree._Element]], blocks: Pattern[str]
) -> None:
    """readability's ``transform_misused_divs_into_paragraphs`` on ``root`` (``tags``: the
    document's ``tags``, ``blocks``: its ``divToPElementsRe``), the same result, in place."""
    below = blocks_below(root, blocks)
    for elem in tags(root, "div"):
        if elem not in below:
            elem.tag = "p"

    for elem in tags(root, "div"):  # readability-lxml 0.9's second pass, as it is
        children = list(elem)
        paragraph: Optional[etree._Element] = None
        if elem.text and elem.text.strip():
            p = fragment_fromstring("<p/>")
            p.text = elem.text
            elem.text = None
            elem.insert(0, p)
            paragraph = p

        for child in children:
            if child.tag == "br":
                paragraph = None
                continue
            if child.tag not in _INLINE_TAGS or blocks.search(etree.tostring(child, method="html", encoding="unicode")):
                paragraph = None
                continue
            if paragraph is None:
                paragraph = fragment_fromstring("<p/>")
                child.addprevious(paragraph)
            paragraph.append(child)

        for pos, child in reversed(list(enumerate(elem))):
            if child.tail and child.tail.strip():
                p = fragment_fromstring("<p/>")
                p.text = child.tail
                child.tail = None
                elem.insert(pos + 1, p)
            if child.tag == "br":
                child.drop_tree()  # type: ignore[attr-defined]  # an lxml.html element, as in readability
