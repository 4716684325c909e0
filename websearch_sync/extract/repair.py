"""Markup repairs made before parsing, for mistakes that make libxml2 lose the whole page.

A browser and libxml2 both read an unclosed ``<title>`` as text up to ``</title>``; with no
``</title>`` (or one written after ``</head>``/``<body>``, e.g. ``</titel>``) libxml2 makes
the whole page the title and the body is empty. libxml2 also drops everything after an
early ``</html>``, where browsers keep reading into the body. Both are repaired on the
text: the title is closed at the first tag after it, and end tags of ``body``/``html``
followed by more elements are removed (the parser closes both at the end anyway). An
XHTML page's document type with an internal subset (``<!DOCTYPE html ... [<!ENTITY ...>]>``)
is not understood by libxml2's HTML parser, which ends the doctype at the subset's first
``>`` and keeps the rest (``]>`` at least) as the page's first text: the subset is dropped.
Linear time: plain ``find`` calls and one tag pattern that cannot backtrack.
"""

import re
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_END_TAG = re.compile(r"</(?:body|html)\s*>", re.I)
_ELEMENT = re.compile(r"<[a-zA-Z]")
# Literal patterns (no backtracking), case-insensitive: a lower-cased copy of a large page
# would cost more than the search.
_TITLE_OPEN = re.compile(r"<title", re.I)
_TITLE_CLOSE = re.compile(r"</title", re.I)
_TITLE_LIMIT = re.compile(r"<body|</head", re.I)
_DOCTYPE = re.compile(r"<!doctype", re.I)
_SUBSET_END = re.compile(r"\][ \t\r\n]*>")


def _find(pattern: "re.Pattern[str]", text: str, start: int) -> Optional[int]:
    match = pattern.search(text, start)
    return match.start() if match else None


def _close_title(html: str) -> str:
    """``html`` with an unclosed ``<title>`` closed at the first tag after it."""
    start = _find(_TITLE_OPEN, html, 0)
    if start is None:
        return html
    opened = html.find(">", start)
    if opened < 0:
        return html
    closed = _find(_TITLE_CLOSE, html, opened)
    limit = _find(_TITLE_LIMIT, html, opened)
    if closed is not None and (limit is None or closed < limit):
        return html
    first_tag = html.find("<", opened + 1)
    if first_tag < 0:
        return html
    return html[:first_tag] + "</title>" + html[first_tag:]


def _drop_early_ends(html: str) -> str:
    """``html`` without ``</body>``/``</html>`` end tags that have elements after them."""
    first = _END_TAG.search(html)
    if first is None or not _ELEMENT.search(html, first.end()):
        return html
    return _END_TAG.sub("", html)


def _drop_internal_subset(html: str) -> str:
    """``html`` with the internal subset (``[...]``) of a document type before the first element removed;
    a subset not closed before the next element is left to the parser (a browser ends the doctype at its ``>``)."""
    doctype = _DOCTYPE.search(html)
    if doctype is None:
        return html
    element = _ELEMENT.search(html)
    if element is not None and element.start() < doctype.start():
        return html
    bracket, closed = html.find("[", doctype.end()), html.find(">", doctype.end())
    if bracket < 0 or (0 <= closed < bracket):
        return html
    element = _ELEMENT.search(html, bracket)  # a subset holds declarations (<!...>, <?...>) only
    end = _SUBSET_END.search(html, bracket, element.start() if element else len(html))
    if end is None:
        return html
    return html[:bracket] + ">" + html[end.end() :]


def repair_markup(html: str) -> str:
    """``html`` with an internal document type subset dropped, an unclosed ``<title>`` closed and
    early ``</body>``/``</html>`` end tags removed (module docstring); unchanged when none occurs."""
    return _drop_early_ends(_close_title(_drop_internal_subset(html)))
