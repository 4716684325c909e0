"""The article's end: the headings it ends with, nothing after them (``article.end_headings``).

A heading introduces what follows it. One the article ends with is what is left of a box the
cleaning removed or readability left out (the heading of a share box, "Like this:"; of a reader
comment thread, "4 responses"; of a list of earlier posts, "Earlier reports"; of a promotion,
"Something to Consider"), never text of the article. Only text counts as "after": a picture or
an empty box after the heading does not keep it. An article of nothing but headings keeps them.
"""

from collections.abc import Iterator
from typing import Optional

from lxml import etree

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Every heading level.
HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def _backwards(element: etree._Element) -> Iterator[tuple[etree._Element, Optional[str]]]:
    """(element holding it, text) of every text of ``element``, last first: a child's tail is its
    parent's text, after the child's own; a comment's text is none. A stack, not recursion: an
    article can be nested deeper than Python's recursion limit."""
    stack: list[tuple[etree._Element, Optional[str], bool]] = [(element, None, True)]
    while stack:
        current, text, expand = stack.pop()
        if not expand:
            yield current, text
            continue
        stack.append((current, current.text, False))  # popped last: the element's text is its first
        for child in current:
            if isinstance(child.tag, str):
                stack.append((child, None, True))
            stack.append((current, child.tail, False))


def _texts(element: etree._Element) -> Iterator[etree._Element]:
    """The elements holding the texts of ``element`` that are more than white space (a no-break
    space is white space too), last first."""
    return (holder for holder, text in _backwards(element) if text and not text.isspace())


def _heading_of(element: etree._Element, node: etree._Element) -> Optional[etree._Element]:
    """The heading ``element`` is or is in, inside ``node``; None when it is in none."""
    current: Optional[etree._Element] = element
    while current is not None and current is not node:
        if current.tag in HEADINGS:
            return current
        current = current.getparent()
    return None


def _end_heading(node: etree._Element) -> Optional[etree._Element]:
    """The heading whose text is the last of ``node``'s, when some text of ``node`` is before it."""
    texts = _texts(node)
    last = next(texts, None)
    heading = _heading_of(last, node) if last is not None else None
    if heading is None:
        return None
    inside = set(heading.iter())  # membership only: never iterated
    return heading if any(holder not in inside for holder in texts) else None


def drop_end_headings(node: etree._Element) -> int:
    """Removes the headings ``node`` ends with (their tails hold only white space: no text is
    after them), unless nothing but them holds text; returns how many it removed. It walks from
    the end of the article back to the text before the heading, no further."""
    dropped = 0
    heading = _end_heading(node)
    while heading is not None:
        parent = heading.getparent()
        if parent is None:
            break
        parent.remove(heading)  # its tail, white space only, goes with it
        dropped += 1
        heading = _end_heading(node)
    return dropped
