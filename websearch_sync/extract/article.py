"""Main-content extraction from an HTML page.

The page is parsed once; what is never article text (scripts, hidden elements, navigation,
share/related blocks) is removed (``boilerplate.preclean``); readability-lxml selects the
article on that tree; the boilerplate readability leaves inside the article (bylines,
captions, "Read more" lines, link lists) is removed (``boilerplate.clean_article``); the
article is rendered as text (block boundaries as line breaks) or markdown (headings,
lists, links, code blocks and tables kept) by ``htmlrender``.

Pure functions, no I/O: ``extract_html(html, url=..., mode=...)``.
"""

import copy
import re
from dataclasses import dataclass
from typing import Optional, Union

import lxml.html
from lxml import etree

from .boilerplate import clean_article, preclean, strip_junk
from .render import BLOCK_TAGS, render_element

__all__ = ["Extraction", "extract_html", "render", "visible_text", "EXTRACT_MODES", "BLOCK_TAGS"]

EXTRACT_MODES = ("markdown", "text")

_PARSER = lxml.html.HTMLParser(encoding="utf-8")
# A match may only start where a run of whitespace starts: without the look-behind, each
# position of a long run would rescan the run (quadratic).
_TITLE_SEPARATORS = re.compile(r"(?<!\s)\s+(?:[|\u2013\u2014:\u00bb\u00b7/]|-|::)\s+")


@dataclass
class Extraction:
    """The result of extracting a page: title, text, and which extractor produced it."""

    title: str
    text: str
    extractor: str


def _check_mode(mode: str) -> None:
    if mode not in EXTRACT_MODES:
        raise ValueError("mode must be one of %s, not %r" % (EXTRACT_MODES, mode))


def render(node: etree._Element, mode: str = "text", *, base_url: Optional[str] = None) -> str:
    """Render an lxml element's content as text (block boundaries become line breaks) or
    markdown (headings, lists, links, emphasis, code, block quotes and tables kept);
    ``base_url`` makes relative links absolute in markdown."""
    _check_mode(mode)
    return render_element(node, mode, base_url=base_url)


def _parse(html: Union[str, bytes]) -> Optional[etree._Element]:
    """Parses a page like readability does (as UTF-8 bytes, so a string that still carries
    an XML encoding declaration parses too); None when there is nothing to parse."""
    if isinstance(html, bytes):
        html = html.decode("utf-8", "replace")
    if not isinstance(html, str) or not html.strip():
        return None
    try:
        return lxml.html.document_fromstring(html.encode("utf-8", "replace"), parser=_PARSER)
    except (etree.ParserError, ValueError):
        return None


def _body(root: etree._Element) -> etree._Element:
    body = root.find("body")
    return body if body is not None else root


def visible_text(html: str, mode: str = "text") -> str:
    """All visible text of a page (scripts, styles, hidden elements and the head removed),
    rendered like ``render``; empty when the page has none."""
    _check_mode(mode)
    root = _parse(html)
    if root is None:
        return ""
    strip_junk(root)
    return render_element(_body(root), mode)


def _page_title(root: etree._Element) -> str:
    """The article title: a heading that ``<title>`` contains, else ``og:title``, else the
    longest part of ``<title>`` split at site-name separators."""
    element = root.find(".//title")
    full = " ".join(element.text_content().split()) if element is not None else ""
    for level in ("h1", "h2"):
        for heading in root.iter(level):
            text = " ".join(heading.text_content().split())
            if len(text) >= 10 and text in full:
                return text
    for meta in root.iter("meta"):
        if meta.get("property") == "og:title" and (meta.get("content") or "").strip():
            return " ".join(meta.get("content").split())
    parts = _TITLE_SEPARATORS.split(full)
    return max(parts, key=len) if parts else full


def _article(root: etree._Element) -> Optional[etree._Element]:
    """Runs readability-lxml on an already parsed and pre-cleaned page; returns the article
    element it selected (None when it finds none)."""
    from readability import Document
    from readability.readability import Unparseable

    class _TreeDocument(Document):
        # readability re-parses its input for each attempt and cleans it with lxml's
        # Cleaner; start from a copy of our pre-cleaned tree instead (same result, much
        # less work). summary() serialises the article; keep the element itself.
        article = None

        def _parse(self, input):  # noqa: A002 - readability's signature
            return copy.deepcopy(input)

        def get_clean_html(self):
            self.article = self.html
            return etree.tostring(self.html, encoding="unicode", method="html")

    document = _TreeDocument(root)
    try:
        summary = document.summary(html_partial=True)
    except Unparseable:
        return None
    if document.article is None and summary:  # a readability without the hook above
        return lxml.html.fragment_fromstring(summary, create_parent="div")
    return document.article


def extract_html(html: str, *, url: Optional[str] = None, mode: str = "markdown") -> Extraction:
    """Extract a page's main content.

    Uses readability-lxml (``summary(html_partial=True)``) on the pre-cleaned page, removes
    the boilerplate left inside the article, and renders it in ``mode`` (``"markdown"`` or
    ``"text"``); ``url`` makes relative links absolute in markdown. When that yields nothing
    (e.g. a JavaScript-only page) falls back to the page's visible text
    (``extractor="visible_text"``); the text may then be empty. Never raises for any input
    except ``ValueError`` for an unknown ``mode``.
    """
    _check_mode(mode)
    root = _parse(html)
    if root is None:
        return Extraction(title="", text="", extractor="visible_text")
    title = _page_title(root)
    preclean(root)
    article = _article(root)
    text = ""
    if article is not None:
        clean_article(article, title=title)
        text = render_element(article, mode, base_url=url)
    if text.strip():
        return Extraction(title=title, text=text, extractor="readability")
    return Extraction(title=title, text=visible_text(html, mode), extractor="visible_text")
