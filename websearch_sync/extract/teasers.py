"""Runs of teaser cards at the end of a short article.

Beside a short article, a site lists its other stories as cards: a linked headline (after a
kicker such as "Community" at most) and a one- or two-sentence summary. readability scores
the summaries as paragraphs, and a run of them holds more text than the article, so it comes
back inside the article or appended to it; no class word names it reliably (``cards``,
``grid``, ``stream``, ``list``). When readability's pick is the article from its title on
(``article.boxes.follows_title``), a run of such cards with no article text after it is the
site's, not the article's: a card is judged by its shape (headline link first, short), a run
by its items (three or more cards, nothing else but headings).
"""

from typing import Optional

from lxml import etree

from ..checkpoints import checked
from .region import DENSE_MIN_CHARS

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A run holds at least this many cards.
MIN_CARDS = 3
#: Text a card may carry before its headline link (a kicker, a section name).
KICKER_CHARS = 30
#: A card has at most this many non-space characters (a headline and a summary).
CARD_MAX_CHARS = 400
#: The article must keep this many non-space characters outside its teaser runs.
MIN_LEFT_CHARS = 100

_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def _chars(text: Optional[str]) -> int:
    return len("".join(text.split())) if text else 0


def _size(element: etree._Element) -> int:
    return _chars("".join(element.itertext()))


def _card(element: etree._Element) -> bool:
    """A teaser card: a short block whose text opens, after at most ``KICKER_CHARS`` of a
    kicker, with a link of two words or more (the headline), and that holds a summary
    (``region.DENSE_MIN_CHARS`` or more characters outside links)."""
    total = _size(element)
    if not total or total > CARD_MAX_CHARS:
        return False
    linked = sum(_chars("".join(a.itertext())) for a in element.iter("a"))
    if total - linked < DENSE_MIN_CHARS:
        return False
    lead = 0
    for event, node in etree.iterwalk(element, events=("start", "end")):
        if not isinstance(node.tag, str):
            continue
        if event == "start":
            if node.tag == "a":
                return len("".join(node.itertext()).split()) >= 2
            lead += _chars(node.text)
        elif node is not element:
            lead += _chars(node.tail)
        if lead > KICKER_CHARS:
            return False
    return False


def _run(element: etree._Element) -> bool:
    """``MIN_CARDS`` or more cards, and no other child with text but headings."""
    cards = 0
    for child in element:
        if not isinstance(child.tag, str) or not _size(child):
            continue
        if _card(child):
            cards += 1
        elif child.tag not in _HEADINGS:
            return False
    return cards >= MIN_CARDS


def _text_after(article: etree._Element, element: etree._Element) -> int:
    """Non-space characters of ``article``'s text after ``element`` (its tail and what follows)."""
    after = _chars(element.tail)
    node: Optional[etree._Element] = element
    while node is not None and node is not article:
        for sibling in node.itersiblings():
            after += _size(sibling) + _chars(sibling.tail)
        node = node.getparent()
    return after


def teaser_runs(article: etree._Element) -> list[etree._Element]:
    """The outermost runs of teaser cards in ``article`` with less than ``region.DENSE_MIN_CHARS``
    of its text after them, in document order; none when the article would keep less than
    ``MIN_LEFT_CHARS`` without them."""
    runs: list[etree._Element] = []
    for element in checked(article.iter()):
        if not isinstance(element.tag, str) or any(run in runs for run in element.iterancestors()):
            continue
        if len(element) >= MIN_CARDS and _run(element) and _text_after(article, element) < DENSE_MIN_CHARS:
            runs.append(element)
    if runs and _size(article) - sum(_size(run) for run in runs) < MIN_LEFT_CHARS:
        return []
    return runs
