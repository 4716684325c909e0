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

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_TITLE_HEADINGS = ("h1", "h2")
_HEADINGS = frozenset(("h2", "h3", "h4", "h5", "h6"))


def _normal(text: str) -> str:
    return " ".join(text.split())


def _holds_title(element: etree._Element, title: str) -> bool:
    """Whether ``element`` holds a heading whose text is the article's ``title``."""
    return any(_normal("".join(heading.itertext())) == title for heading in element.iter(*_TITLE_HEADINGS))


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
    if not title or best.getparent() is not article or not _holds_title(best, _normal(title)):
        return []
    classes = _classes(best)
    siblings = list(article)
    after = siblings[siblings.index(best) + 1 :]
    return [
        sibling
        for sibling in after
        if sibling.tag not in ("p", "article") and _opens_with_heading(sibling) and not classes & _classes(sibling)
    ]
