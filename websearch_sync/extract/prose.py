"""How much of a candidate is prose: running sentences rather than headlines, links and labels.

The recovery steps replace readability's pick by something larger (its layout-table column,
the page's main text region, trafilatura's answer) when the pick looks like too small a part
of the page. Larger is not better when what it adds is a run of teaser cards (a headline
link, a one-line summary) or a list of links: on pages the project never saw, most of the
pages where plain readability beat the pipeline by far were such replacements. These
measures let a recovery compare candidates by the density of their prose, not their length.

- Of an element: its *prose share* is the share of its text's characters that sit in running
  text blocks (``region``'s dense blocks: 25 or more characters outside links, at most half of
  the block link text), by the text each block element owns directly.
- Of a rendered text: a *prose line* holds 25 or more non-space characters outside markdown
  link targets and ends a sentence (``.``, ``!``, ``?``, ``…``, or their full-width forms,
  before closing quotes or brackets); a headline, a label or a link line does not.
"""

import re
from collections import Counter

from lxml import etree

from .region import DENSE_MAX_LINK_SHARE, DENSE_MIN_CHARS, own_text

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A markdown link's target (``](http://...)``): address characters only, no nesting, so the
#: scan is linear.
_LINK_TARGET = re.compile(r"\]\([^()\s]*\)")
#: Characters that may close a sentence after its punctuation.
_CLOSERS = "\"'\u2019\u201d\u00bb)]*_"
_SENTENCE_END = frozenset(".!?\u2026\u3002\uff01\uff1f")
_WORD = re.compile(r"\w+")
#: Every heading level: a heading owns a headline, never running text.
HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def element_prose(element: etree._Element) -> tuple[int, int]:
    """(non-space characters of ``element``'s text, of them in running text blocks)."""
    own, _ = own_text(element, frozenset())
    total = prose = 0
    for chars, link in own.values():
        total += chars
        if _running(chars, link):
            prose += chars - link
    return total, prose


def prose_totals(body: etree._Element) -> dict[etree._Element, int]:
    """Per element of ``body``, the characters of running text it holds (``element_prose``'s
    second figure for each, by one walk of ``body``: summed bottom-up in reverse document order,
    where asking each of a deep element's ancestors in turn walks the page once per level)."""
    own, order = own_text(body, frozenset())
    totals = {block: chars - link if _running(chars, link) else 0 for block, (chars, link) in own.items()}
    for element in reversed(order):  # an element comes after its ancestors in document order
        parent = element.getparent()
        if parent is not None and element in totals:
            totals[parent] = totals.get(parent, 0) + totals[element]
    return totals


def prose_blocks(element: etree._Element) -> int:
    """How many running text blocks ``element`` holds (a heading is none: it owns a headline)."""
    own, _ = own_text(element, frozenset())
    return sum(1 for block, (chars, link) in own.items() if block.tag not in HEADINGS and _running(chars, link))


def _running(chars: int, link: int) -> bool:
    return chars - link >= DENSE_MIN_CHARS and link <= DENSE_MAX_LINK_SHARE * chars


def prose_share(element: etree._Element) -> float:
    """The share of ``element``'s text in running text blocks (0 for an element without text)."""
    total, prose = element_prose(element)
    return prose / total if total else 0.0


def _chars(text: str) -> int:
    return len("".join(text.split()))


def _prose_line(line: str) -> bool:
    stripped = line.rstrip().rstrip(_CLOSERS)
    return bool(stripped) and stripped[-1] in _SENTENCE_END and _chars(line) >= DENSE_MIN_CHARS


def text_prose(text: str) -> tuple[int, int]:
    """(non-space characters of ``text`` outside markdown link targets, of them in prose lines)."""
    total = prose = 0
    for line in _LINK_TARGET.sub("]", text).splitlines():
        size = _chars(line)
        total += size
        if _prose_line(line):
            prose += size
    return total, prose


def prose_lines(text: str) -> int:
    """The number of prose lines of ``text``."""
    return sum(1 for line in _LINK_TARGET.sub("]", text).splitlines() if _prose_line(line))


def _shingles(text: str) -> Counter[tuple[str, ...]]:
    """4-word windows of ``text``, link targets left out (the two candidates may write a link's
    address differently, or not at all)."""
    words = _WORD.findall(_LINK_TARGET.sub("]", text).casefold())
    if not words:
        return Counter()
    return Counter(tuple(words[i : i + 4]) for i in range(max(1, len(words) - 3)))


def contained_share(inner: str, outer: str) -> float:
    """The share of ``inner``'s 4-word windows that ``outer`` holds too (1 for an ``inner``
    without words; case and markdown link targets ignored)."""
    windows = _shingles(inner)
    if not windows:
        return 1.0
    held = _shingles(outer)
    return sum(min(count, held[window]) for window, count in windows.items()) / sum(windows.values())


#: A wider candidate is as dense in prose as a narrower one when its prose share is at least
#: this share of the narrower one's.
DENSE_RATIO = 0.9


def as_dense(wider: etree._Element, narrower: etree._Element) -> bool:
    """True when ``wider``'s prose share is at least ``DENSE_RATIO`` of ``narrower``'s."""
    return prose_share(wider) >= DENSE_RATIO * prose_share(narrower)


#: An extraction is prose of its own when this share of its text is prose lines ...
PROSE_SHARE = 0.8
#: ... and they hold this many characters or more (a caption or a notice is one short line) ...
PROSE_MIN_CHARS = 100
#: ... and another candidate holds it when it holds this share of its 4-word windows.
HELD_SHARE = 0.8


def held_prose(text: str, other: str) -> bool:
    """True when ``text`` is prose of its own (``PROSE_SHARE`` of it in prose lines, at least
    ``PROSE_MIN_CHARS`` of them) and ``other`` holds it (``HELD_SHARE`` of its 4-word windows):
    both candidates agree on the same prose, and ``other`` only adds text around it."""
    total, prose = text_prose(text)
    if prose < PROSE_MIN_CHARS or prose < PROSE_SHARE * total:
        return False
    return contained_share(text, other) >= HELD_SHARE
