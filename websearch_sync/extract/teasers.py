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
from .prose import HEADINGS
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


def _chars(text: Optional[str]) -> int:
    return len("".join(text.split())) if text else 0


class _Sizes:
    """Non-space characters of every element's text (its tail left out), of them inside links,
    and after its end in the article: one walk over the article, so that judging a card or a
    run costs no walk of its own."""

    def __init__(self, article: etree._Element) -> None:
        self.start: dict[etree._Element, tuple[int, int]] = {}
        self.end: dict[etree._Element, tuple[int, int]] = {}
        done = linked = 0
        links = 0  # open <a> elements around the walk's position
        for event, node in checked(etree.iterwalk(article, events=("start", "end"))):
            is_link = node.tag == "a"
            if event == "start":
                self.start[node] = (done, linked)
                links += is_link
                if isinstance(node.tag, str):  # a comment's text is not the page's
                    size = _chars(node.text)
                    done += size
                    linked += size if links else 0
                continue
            links -= is_link
            self.end[node] = (done, linked)
            if node is not article:
                size = _chars(node.tail)
                done += size
                linked += size if links else 0
        self.total = done

    def size(self, element: etree._Element) -> int:
        return self.end[element][0] - self.start[element][0]

    def linked(self, element: etree._Element) -> int:
        return self.end[element][1] - self.start[element][1]

    def after(self, element: etree._Element) -> int:
        return self.total - self.end[element][0]


def _card(element: etree._Element, sizes: _Sizes) -> bool:
    """A teaser card: a short block whose text opens, after at most ``KICKER_CHARS`` of a
    kicker, with a link of two words or more (the headline), and that holds a summary
    (``region.DENSE_MIN_CHARS`` or more characters outside links)."""
    total, linked = sizes.size(element), sizes.linked(element)
    if not total or total > CARD_MAX_CHARS or not linked or total - linked < DENSE_MIN_CHARS:
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


def _run(element: etree._Element, sizes: _Sizes) -> bool:
    """``MIN_CARDS`` or more cards, and no other child with text but headings."""
    cards = 0
    for child in element:
        if not isinstance(child.tag, str) or not sizes.size(child):
            continue
        if _card(child, sizes):
            cards += 1
        elif child.tag not in HEADINGS:
            return False
    return cards >= MIN_CARDS


def _runs(article: etree._Element, sizes: _Sizes) -> list[etree._Element]:
    """The outermost runs of teaser cards in ``article``, in document order."""
    runs: list[etree._Element] = []
    inside: set[etree._Element] = set()  # membership only: the runs are listed in document order
    for element in checked(article.iter()):
        if not isinstance(element.tag, str) or len(element) < MIN_CARDS:
            continue
        if any(ancestor in inside for ancestor in element.iterancestors()):
            continue
        if _run(element, sizes):
            runs.append(element)
            inside.add(element)
    return runs


def _ending(article: etree._Element, sizes: _Sizes, runs: list[etree._Element]) -> list[etree._Element]:
    """Of the outermost ``runs``, those with less than ``region.DENSE_MIN_CHARS`` of the
    article's text after them (a run inside another is after none of its text either), unless
    the article would keep less than ``MIN_LEFT_CHARS`` without them."""
    ending = [run for run in runs if sizes.after(run) < DENSE_MIN_CHARS]
    if ending and sizes.total - sum(sizes.size(run) for run in ending) < MIN_LEFT_CHARS:
        return []
    return ending


def scan(article: etree._Element) -> list[etree._Element]:
    """The runs of teaser cards to leave out of ``article``: the outermost runs with less than
    ``region.DENSE_MIN_CHARS`` of its text after them, in document order, none when the article
    would keep less than ``MIN_LEFT_CHARS`` without them. One walk of the article."""
    sizes = _Sizes(article)
    return _ending(article, sizes, _runs(article, sizes))
