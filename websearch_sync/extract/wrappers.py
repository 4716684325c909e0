"""The wrappers around readability's best candidate, which hold nothing else.

readability-lxml appends to its best candidate the siblings that belong to the article (a
paragraph, a block that scored), but only the candidate's own siblings. An article whose body
is split by an expander ("Read more" around the rest of the text) or an ad slot has its first
paragraphs beside a wrapper of the candidate, not beside the candidate: readability returns
the rest of the article without its start. A wrapper that holds no running text of its own
beyond the candidate (a "Read more" link, an empty ad box) is the candidate itself: its
siblings are the candidate's. Readability.js climbs the same way (a top candidate that is the
only child of its parent is replaced by the parent).
"""

from collections.abc import Iterator
from typing import Optional

from lxml import etree
from lxml.html import HtmlElement

from ..checkpoints import checked
from .boilerplate import text_size
from .textlength import link_density

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A wrapper holds no running text of its own: fewer non-space characters outside links than this.
_OWN_TEXT_CHARS = 25
#: The page's top elements, never a wrapper.
_TOP = frozenset(("body", "html"))


def _chars(text: Optional[str]) -> int:
    return len("".join(text.split())) if text else 0


def _plain_chars(element: etree._Element, limit: int) -> int:
    """Non-space characters of ``element``'s text outside links (its tail left out), counted
    until ``limit`` is reached: a wrapper's siblings can be a whole comment thread."""
    if not isinstance(element.tag, str) or element.tag == "a":
        return 0  # a comment's or a link's text
    count = _chars(element.text)
    for child in element:
        if count >= limit:
            break
        count += _plain_chars(child, limit - count) + _chars(child.tail)
    return count


def _own_text(parent: etree._Element, inside: etree._Element, limit: int) -> int:
    """``_plain_chars`` of ``parent`` without its child ``inside``, counted until ``limit``."""
    count = _chars(parent.text)
    for child in parent:
        if count >= limit:
            break
        count += (0 if child is inside else _plain_chars(child, limit - count)) + _chars(child.tail)
    return count


def outermost_wrapper(candidate: etree._Element) -> etree._Element:
    """The outermost ancestor of ``candidate`` that holds no running text besides it (itself
    when its parent holds some, or is the page's body)."""
    current = candidate
    while True:
        parent = current.getparent()
        if parent is None or parent.tag in _TOP or not isinstance(parent.tag, str):
            return current
        if _own_text(parent, current, _OWN_TEXT_CHARS) >= _OWN_TEXT_CHARS:
            return current
        current = parent


#: A paragraph beside the wrapper is the article's when it has this many non-space characters ...
PARAGRAPH_CHARS = 80
#: ... and at most this link density (readability's test of a paragraph sibling).
PARAGRAPH_LINK_DENSITY = 0.25


def _paragraph(element: etree._Element) -> bool:
    return (
        element.tag == "p"
        and isinstance(element, HtmlElement)
        and text_size(element) >= PARAGRAPH_CHARS
        and link_density(element) < PARAGRAPH_LINK_DENSITY
    )


def _paragraph_box(element: etree._Element) -> bool:
    """A box that holds nothing but running text paragraphs (a standfirst's box)."""
    if element.tag not in ("div", "section"):
        return False
    paragraphs = [p for p in element.iter("p") if _paragraph(p)]
    return bool(paragraphs) and sum(text_size(p) for p in paragraphs) == text_size(element)


def _run(siblings: Iterator[etree._Element]) -> list[etree._Element]:
    """The paragraphs of ``siblings`` (and boxes of nothing but paragraphs: a standfirst's) up to
    the first element with text that is neither (empty boxes between them skipped)."""
    run = []
    for sibling in checked(siblings):
        if not isinstance(sibling.tag, str):
            continue
        if _paragraph(sibling) or _paragraph_box(sibling):
            run.append(sibling)
        elif text_size(sibling):
            break
    return run


def wrapper_paragraphs(candidate: etree._Element) -> list[etree._Element]:
    """The paragraphs before ``candidate``'s outermost wrapper (``outermost_wrapper``), in
    document order: the run of running text paragraphs (or boxes of nothing but such
    paragraphs) next to it, empty boxes between them skipped; none when ``candidate`` has no
    wrapper. Those after it are left: what follows an article's body is as often a disclosure
    or a sign-off line as more of the article."""
    wrapper = outermost_wrapper(candidate)
    if wrapper is candidate:
        return []
    return _run(wrapper.itersiblings(preceding=True))[::-1]
