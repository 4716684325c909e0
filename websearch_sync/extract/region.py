"""The page's main text region, and what it says about an extraction.

readability-lxml scores ``<p>``, ``<pre>`` and ``<td>`` only and then removes link-heavy
lists and divisions from what it selected; on a page whose article is written as list
items, or split by headers readability distrusts, it can return one caption or one
notice instead of the article. This module finds, independently of readability, the
element that holds most of the page's running text, and tells when an extraction is an
implausibly small part of it.

Text blocks: every block element owns the text directly inside it (not inside a nested
block). A block is *dense* when it has 25 or more characters outside links and at most
half of its text is link text; it weighs its non-link characters. A block that is mostly
link text weighs minus twice its link characters; any other block weighs nothing. The
main region is the element whose blocks weigh the most (a maximum-weight subtree: running
text counts for it, link lists around it count against it). Elements whose class/id has
one of the ``skip_words`` (comments, reviews: running text, but not the page's own) are
left out. One pass over the tree.
"""

from dataclasses import dataclass
from typing import Optional

from lxml import etree

from ..checkpoints import checked
from .boilerplate import class_words
from .render import BLOCK_TAGS, SKIP_TAGS

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A block needs this many non-space characters outside links to be running text.
DENSE_MIN_CHARS = 25
#: ... and at most this share of link text.
DENSE_MAX_LINK_SHARE = 0.5
#: Link text of a link-heavy block weighs this many times against the region.
LINK_PENALTY = 2.0
#: An extraction holding less than this share of its region's running text is a fragment ...
FRAGMENT_SHARE = 0.25
#: ... when it misses at least this many characters of running text (a short page stays short).
FRAGMENT_MIN_MISSING = 400


@dataclass
class Region:
    """The main text region of a page: ``element`` and the non-space characters of running
    text (dense blocks) inside it."""

    element: etree._Element
    dense_chars: int


def _chars(text: Optional[str]) -> int:
    """Non-space characters of ``text`` (ASCII whitespace; cheap, for sizes)."""
    if not text:
        return 0
    return len(text) - text.count(" ") - text.count("\n") - text.count("\t") - text.count("\r")


def own_text(
    body: etree._Element, skip_words: frozenset[str]
) -> tuple[dict[etree._Element, list[int]], list[etree._Element]]:
    """Per block element, [characters, link characters] of the text it owns, and the
    elements in document order (skipped subtrees left out)."""
    owner = {body: body}
    in_link = {body: False}
    own: dict[etree._Element, list[int]] = {body: [_chars(body.text), 0]}
    order = []
    for element in checked(body.iterdescendants()):
        tag = element.tag
        parent = element.getparent()
        parent_owner = owner.get(parent) if parent is not None else None
        if parent is None or parent_owner is None or not isinstance(tag, str) or tag in SKIP_TAGS:
            continue  # a comment, or inside a skipped subtree
        if skip_words and class_words(element) & skip_words:
            continue
        block = element if tag in BLOCK_TAGS else parent_owner
        owner[element] = block
        linked = in_link[element] = tag == "a" or in_link[parent]
        order.append(element)
        if element.text:
            counts = own.setdefault(block, [0, 0])
            size = _chars(element.text)
            counts[0] += size
            if linked:
                counts[1] += size
        if element.tail:
            counts = own.setdefault(parent_owner, [0, 0])
            size = _chars(element.tail)
            counts[0] += size
            if in_link[parent]:
                counts[1] += size
    return own, order


def main_region(body: etree._Element, skip_words: frozenset[str] = frozenset()) -> Region:
    """The element of ``body`` (``body`` itself included) whose text blocks weigh the most:
    running text for it, link text of link-heavy blocks against it (of equal weights, the
    outermost: it keeps the headings around the text); subtrees whose class/id has one of
    ``skip_words`` are left out."""
    own, order = own_text(body, skip_words)
    weight: dict[etree._Element, float] = {}
    dense: dict[etree._Element, int] = {}
    for block, (chars, link) in own.items():
        plain = chars - link
        if plain >= DENSE_MIN_CHARS and link <= DENSE_MAX_LINK_SHARE * chars:
            weight[block] = dense[block] = plain
        elif link > DENSE_MAX_LINK_SHARE * chars:
            weight[block] = -LINK_PENALTY * link
    for element in reversed(order):  # children before parents: subtree sums
        parent = element.getparent()
        assert parent is not None  # a descendant of body
        if element in weight:
            weight[parent] = weight.get(parent, 0) + weight[element]
        if element in dense:
            dense[parent] = dense.get(parent, 0) + dense[element]
    best, best_weight = body, weight.get(body, 0)
    for element in order:  # document order: of equal weights, the outermost element wins
        candidate = weight.get(element, 0)
        if candidate > best_weight:
            best, best_weight = element, candidate
    return Region(best, dense.get(best, 0))


def is_fragment(extracted_chars: int, region: Region, inside: bool) -> bool:
    """True when an extraction of ``extracted_chars`` non-space characters is an implausibly
    small part of the page's main ``region``: it lies ``inside`` the region, holds less than
    ``FRAGMENT_SHARE`` of its running text and misses ``FRAGMENT_MIN_MISSING`` characters
    or more of it. An extraction outside the region (the region is then something else than
    the article: comments, reviews, a link list) is never a fragment of it."""
    missing = region.dense_chars - extracted_chars
    return inside and extracted_chars < FRAGMENT_SHARE * region.dense_chars and missing >= FRAGMENT_MIN_MISSING
