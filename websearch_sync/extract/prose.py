"""Running text blocks: how many of them a block holds, rather than headlines, links and labels.

A *running text block* is one of ``region``'s dense blocks: a block element owning 25 or more
characters outside links directly (not inside a nested block), at most half of its text link
text. A heading is never one: it owns a headline. ``boxes.follows_title`` counts them to tell a
title heading with a standfirst under it from a title heading with its article under it.
"""

from lxml import etree

from .region import DENSE_MAX_LINK_SHARE, DENSE_MIN_CHARS, own_text

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Every heading level: a heading owns a headline, never running text.
HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def prose_blocks(element: etree._Element) -> int:
    """How many running text blocks ``element`` holds (a heading is none: it owns a headline)."""
    own, _ = own_text(element, frozenset())
    return sum(1 for block, (chars, link) in own.items() if block.tag not in HEADINGS and _running(chars, link))


def _running(chars: int, link: int) -> bool:
    return chars - link >= DENSE_MIN_CHARS and link <= DENSE_MAX_LINK_SHARE * chars
