"""How much of a candidate is prose: running sentences rather than headlines, links and labels.

The recovery steps replace readability's pick by something larger (its layout-table column,
the page's main text region, trafilatura's answer) when the pick looks like too small a part
of the page. Larger is not better when what it adds is a run of teaser cards (a headline
link, a one-line summary) or a list of links: on pages the project never saw, most of the
pages where plain readability beat the pipeline by far were such replacements. These
measures let a recovery compare candidates by the density of their prose, not their length.

Of an element, its *prose share* is the share of its text's characters that sit in running
text blocks (``region``'s dense blocks: 25 or more characters outside links, at most half of
the block link text), by the text each block element owns directly.
"""

from lxml import etree

from .region import DENSE_MAX_LINK_SHARE, DENSE_MIN_CHARS, own_text

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def element_prose(element: etree._Element) -> tuple[int, int]:
    """(non-space characters of ``element``'s text, of them in running text blocks)."""
    own, _ = own_text(element, frozenset())
    total = prose = 0
    for chars, link in own.values():
        total += chars
        if chars - link >= DENSE_MIN_CHARS and link <= DENSE_MAX_LINK_SHARE * chars:
            prose += chars - link
    return total, prose


def prose_share(element: etree._Element) -> float:
    """The share of ``element``'s text in running text blocks (0 for an element without text)."""
    total, prose = element_prose(element)
    return prose / total if total else 0.0


#: A wider candidate is as dense in prose as a narrower one when its prose share is at least
#: this share of the narrower one's.
DENSE_RATIO = 0.9


def as_dense(wider: etree._Element, narrower: etree._Element) -> bool:
    """True when ``wider``'s prose share is at least ``DENSE_RATIO`` of ``narrower``'s."""
    return prose_share(wider) >= DENSE_RATIO * prose_share(narrower)
