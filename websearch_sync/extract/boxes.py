"""Boxes readability appends beside an article that holds its own title.

readability-lxml adds to its best candidate every sibling that scores above a fifth of it.
Beside a short article, a site's "About us" or "Never miss a story" box (a heading and a
paragraph) scores that much, and comes back as part of the article. When the best candidate
holds the article's title heading, it is the article from its title on: a sibling after it
that opens with a heading of its own, and shares none of its classes, is another item of the
page. The article's own next section would sit inside that container, or share its class
(readability's own merge of article segments, which this leaves alone).

The boxes are taken out of the article only once it stands as the answer: the recovery
rules judge readability's selection as it was (an article it trims is not a fragment).
"""

from typing import Optional

from lxml import etree

from ..checkpoints import checked
from .prose import prose_blocks

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_TITLE_HEADINGS = ("h1", "h2")
_HEADINGS = frozenset(("h2", "h3", "h4", "h5", "h6"))


def _normal(text: str) -> str:
    return " ".join(text.split())


def holds_title(element: etree._Element, title: Optional[str]) -> bool:
    """Whether ``element`` holds a heading (``h1``, ``h2``) whose text is the article's ``title``."""
    if not title:
        return False
    title = _normal(title)
    return any(_normal("".join(heading.itertext())) == title for heading in element.iter(*_TITLE_HEADINGS))


#: Text between the title heading and readability's best candidate: a byline, a date line.
_SHORT_LINE_CHARS = 100
#: Running text blocks beside the title heading that make its block the article itself.
_ARTICLE_BLOCKS = 2


def follows_title(element: etree._Element, title: Optional[str]) -> bool:
    """Whether ``element`` holds the title heading (``holds_title``) or comes after it among its
    siblings with only short lines (``_SHORT_LINE_CHARS``: bylines, dates) in between, in the
    title's block too: the article from its title on, its body in a container of its own. A
    block after a sibling that holds the title and the article under it (two running text
    blocks or more: ``prose.prose_blocks``; a standfirst is one) is not."""
    if holds_title(element, title):
        return True
    for sibling in checked(element.itersiblings(preceding=True)):
        if holds_title(sibling, title):
            return prose_blocks(sibling) < _ARTICLE_BLOCKS
        if len("".join("".join(sibling.itertext()).split())) >= _SHORT_LINE_CHARS:
            return False
    return False


def _opens_with_heading(element: etree._Element) -> bool:
    """Whether the first text inside ``element`` is a heading's (``h2``–``h6``)."""
    for node in element.iter():
        if node.tag in _HEADINGS:
            return True
        if node is not element and (node.tail or "").strip():
            return False
        if (node.text or "").strip():
            return False
    return False


def _classes(element: etree._Element) -> frozenset[str]:
    return frozenset((element.get("class") or "").split())


def boxes_after_title(article: etree._Element, best: etree._Element, title: Optional[str]) -> list[etree._Element]:
    """The siblings readability appended to its ``article`` (its output ``<div>``) after
    ``best`` (its best candidate) that open with a heading and share no class with ``best``,
    when ``best`` holds the heading ``title``: boxes of the site, not the article."""
    if not title or best.getparent() is not article or not holds_title(best, title):
        return []
    classes = _classes(best)
    siblings = list(article)
    after = siblings[siblings.index(best) + 1 :]
    return [
        sibling
        for sibling in after
        if sibling.tag not in ("p", "article") and _opens_with_heading(sibling) and not classes & _classes(sibling)
    ]


def blocks_before_title(article: etree._Element, best: etree._Element, title: Optional[str]) -> list[etree._Element]:
    """The siblings readability appended to its ``article`` before ``best`` when ``best`` holds
    the heading ``title``: the article starts at its title, so a block before it that scored
    (a noticeboard cell of a layout table, a sidebar) is another item of the page."""
    if not title or best.getparent() is not article or not holds_title(best, title):
        return []
    siblings = list(article)
    return siblings[: siblings.index(best)]
