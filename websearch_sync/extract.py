"""Main-content extraction from an HTML page: readability-lxml for the article,
then a renderer that keeps block boundaries as line breaks (text mode) or
headings, lists, links, code blocks and tables as markdown (markdown mode).

Pure functions, no I/O: ``extract_html(html, url=..., mode=...)``.
"""

import re
from dataclasses import dataclass
from typing import List, Optional

import lxml.html
from lxml import etree

__all__ = ["Extraction", "extract_html", "render", "visible_text", "EXTRACT_MODES"]

EXTRACT_MODES = ("markdown", "text")

BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "body", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hgroup", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody",
    "td", "tfoot", "th", "thead", "tr", "ul", "caption",
}
_SKIP_TAGS = {"script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed", "head", "title", "button", "select", "input", "textarea"}
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")
_BLANK_LINES = re.compile(r"\n{3,}")


@dataclass
class Extraction:
    """The result of extracting a page: title, text, and which extractor produced it."""

    title: str
    text: str
    extractor: str


def _collapse(text: str) -> str:
    return _SPACES.sub(" ", text)


class _Renderer:
    def __init__(self, markdown: bool) -> None:
        self.markdown = markdown
        self.parts: List[str] = []

    def newline(self, count: int = 1) -> None:
        self.parts.append("\n" * count)

    def text(self, value: Optional[str]) -> None:
        if value:
            self.parts.append(_collapse(value))

    def walk(self, node: etree._Element, list_depth: int = 0) -> None:
        tag = node.tag if isinstance(node.tag, str) else ""
        tag = tag.lower()
        if tag in _SKIP_TAGS or not isinstance(node.tag, str):
            if not isinstance(node.tag, str):  # comments, processing instructions
                self.text(node.tail)
            return
        md = self.markdown
        if tag == "br":
            self.newline()
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.newline(2)
            if md:
                self.parts.append("#" * int(tag[1]) + " ")
            self._children(node, list_depth)
            self.newline(2)
        elif tag == "pre":
            self.newline(2)
            code = node.text_content()
            if md:
                self.parts.append("```\n" + code.strip("\n") + "\n```")
            else:
                self.parts.append(code.strip("\n"))
            self.newline(2)
        elif tag == "li":
            self.newline()
            if md:
                self.parts.append("  " * max(0, list_depth - 1) + "- ")
            self._children(node, list_depth)
            self.newline()
        elif tag in ("ul", "ol"):
            self.newline()
            self._children(node, list_depth + 1)
            self.newline()
        elif tag == "table" and md:
            self._table(node)
        elif tag == "a" and md and node.get("href", "").startswith(("http://", "https://")):
            label = _collapse(node.text_content()).strip()
            if label:
                self.parts.append("[%s](%s)" % (label, node.get("href")))
        elif tag == "code" and md and node.getparent() is not None and node.getparent().tag != "pre":
            inner = node.text_content()
            if inner.strip():
                self.parts.append("`%s`" % inner.strip())
        elif tag in ("strong", "b") and md:
            inner = _collapse(node.text_content()).strip()
            if inner:
                self.parts.append("**%s**" % inner)
        elif tag in ("td", "th"):
            self._children(node, list_depth)
            self.parts.append("\t")
        elif tag in BLOCK_TAGS:
            self.newline(2 if tag in ("p", "blockquote", "table", "figure", "section", "article") else 1)
            self._children(node, list_depth)
            self.newline(2 if tag in ("p", "blockquote", "table", "figure", "section", "article") else 1)
        else:
            self._children(node, list_depth)
        self.text(node.tail)

    def _children(self, node: etree._Element, list_depth: int) -> None:
        self.text(node.text)
        for child in node:
            self.walk(child, list_depth)

    def _table(self, table: etree._Element) -> None:
        rows = []
        for tr in table.iter("tr"):
            cells = [_collapse(c.text_content()).strip().replace("|", "\\|") for c in tr if isinstance(c.tag, str) and c.tag.lower() in ("td", "th")]
            if cells:
                rows.append(cells)
        self.newline(2)
        if rows:
            width = max(len(r) for r in rows)
            rows = [r + [""] * (width - len(r)) for r in rows]
            self.parts.append("| " + " | ".join(rows[0]) + " |\n")
            self.parts.append("|" + "---|" * width + "\n")
            for row in rows[1:]:
                self.parts.append("| " + " | ".join(row) + " |\n")
        self.newline(2)

    def result(self) -> str:
        text = "".join(self.parts)
        lines = [line.strip(" \t") if not line.startswith(("- ", "  ")) else line.rstrip() for line in text.split("\n")]
        return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def render(node: etree._Element, mode: str = "text") -> str:
    """Render an lxml element as text (block boundaries become line breaks) or markdown."""
    renderer = _Renderer(markdown=(mode == "markdown"))
    renderer._children(node, 0)
    return renderer.result()


def _parse(html: str) -> Optional[etree._Element]:
    try:
        return lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return None


def visible_text(html: str, mode: str = "text") -> str:
    """All visible text of a page (scripts, styles and the head removed)."""
    root = _parse(html)
    if root is None:
        return ""
    body = root.find("body")
    return render(body if body is not None else root, mode)


def _page_title(root: Optional[etree._Element]) -> str:
    if root is None:
        return ""
    title = root.find(".//title")
    return _collapse(title.text_content()).strip() if title is not None else ""


def extract_html(html: str, *, url: Optional[str] = None, mode: str = "markdown") -> Extraction:
    """Extract a page's main content.

    Uses readability-lxml (``summary(html_partial=True)``) and renders the article
    in ``mode`` (``"markdown"`` or ``"text"``). When that yields nothing (e.g. a
    JavaScript-only page) falls back to the page's visible text
    (``extractor="visible_text"``); the text may then be empty.
    """
    if mode not in EXTRACT_MODES:
        raise ValueError("mode must be one of %s" % (EXTRACT_MODES,))
    from readability import Document
    from readability.readability import Unparseable

    root = _parse(html)
    title = _page_title(root)
    text = ""
    try:
        document = Document(html, url=url)
        title = _collapse(document.short_title() or "").strip() or title
        article = lxml.html.fragment_fromstring(document.summary(html_partial=True), create_parent="div")
        text = render(article, mode)
    except (Unparseable, etree.ParserError, ValueError, TypeError, AssertionError):
        # AssertionError: lxml's fragment parser asserts on what readability makes of a
        # near-empty page (a doctype and a comment); the visible text decides then.
        text = ""
    if text.strip():
        return Extraction(title=title, text=text, extractor="readability")
    return Extraction(title=title, text=visible_text(html, mode), extractor="visible_text")
