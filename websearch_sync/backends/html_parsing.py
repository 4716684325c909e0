"""Shared helpers of the HTML backends (DuckDuckGo, Baidu).

Search pages are large (Baidu: up to ~900 KB) while the results are a small part of
them, and building a BeautifulSoup tree costs time per node. So a parser here:

1. cuts the results region out of the page text (:func:`region`),
2. drops markup that carries no result data: scripts, styles, comments, void tags
   such as ``<img>``, empty ``<i>`` icons, inline emphasis tags (``<b>``, ``<em>``:
   their text stays) and the newline indentation between tags (:func:`reduce_markup`),
3. parses what is left with BeautifulSoup and the lxml builder (:func:`parse_fragment`).
"""

import re
from typing import Iterator, Optional, Sequence

from bs4 import BeautifulSoup, Tag

__all__ = ["region", "reduce_markup", "parse_fragment", "elements", "classes", "text_of", "has_class", "iso_datetime"]

# One pass over the markup: every alternative starts with "<", so the regex engine
# only tries at tag starts. <br> becomes a newline (kept as a word break), the rest
# is removed. A <script>/<style> ends at its first closing tag, as in an HTML parser.
# Linear time on any page: a tag's attributes are scanned up to the next "<" or ">"
# only, and a comment, script or style left unclosed runs to the end of the markup (as
# in an HTML parser), so a page of repeated "<!--" is one scan, not one per opener.
# Their bodies are read as runs of "[^<]" / "[^-]" ("unrolled"), three times faster
# than a lazy ".*?" that tests for the end at every character.
_NOISE = re.compile(
    r"<(?:(script|style)\b[^<>]*>[^<]*(?:<(?!/\1\s*>)[^<]*)*(?:</\1\s*>|\Z)"
    r"|!--[^-]*(?:-(?!->)[^-]*)*(?:-->|\Z)"
    r"|(?:img|input|link|meta|source|wbr)\b[^<>]*>"
    r"|/?(?:b|em|strong|font|mark|u)\b[^<>]*>"
    r"|i\b[^<>]*>\s*</i>"  # empty <i> (icon fonts)
    r"|(br)\b[^<>]*>"
    r")",
    re.S | re.I,
)
_INDENT = re.compile(r">[ \t\r]*\n\s*<")
_ISO_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?))?")


def _noise_replacement(match: "re.Match[str]") -> str:
    return "\n" if match.group(2) else ""


def region(text: str, starts: Sequence[str], ends: Sequence[str] = ()) -> Optional[str]:
    """The part of ``text`` from the tag holding the first found ``starts`` marker up to
    (not including) the tag holding the nearest ``ends`` marker after it.

    Markers are plain substrings (e.g. ``'id="links"'``); the cut is made at the ``<``
    of the tag that contains them. Without an end marker the region runs to the end.
    Returns ``None`` when no start marker occurs.
    """
    begin = -1
    for marker in starts:
        begin = text.find(marker)
        if begin >= 0:
            break
    if begin < 0:
        return None
    begin = max(0, text.rfind("<", 0, begin))
    stop = len(text)
    for marker in ends:
        found = text.find(marker, begin + 1)
        if 0 <= found < stop:
            stop = found
    if stop < len(text):
        stop = max(begin, text.rfind("<", begin, stop))
    return text[begin:stop]


def reduce_markup(markup: str) -> str:
    """``markup`` without the parts no result field is read from (see the module doc)."""
    return _INDENT.sub("><", _NOISE.sub(_noise_replacement, markup))


def parse_fragment(markup: str) -> BeautifulSoup:
    """Reduce ``markup`` and parse it with BeautifulSoup and the lxml builder."""
    return BeautifulSoup(reduce_markup(markup), "lxml")


def elements(node: Tag) -> Iterator[Tag]:
    """Every element below ``node``, in document order.

    A plain walk: BeautifulSoup's ``find``/``find_all`` build a filter object per
    call, which costs more than the walk itself on small subtrees; parsers here
    walk once and pick what they need.
    """
    for child in node.descendants:
        if isinstance(child, Tag):
            yield child


def classes(node: Tag) -> Sequence[str]:
    """``node``'s class list (empty when it has none)."""
    return node.attrs.get("class") or ()


def text_of(node: Optional[Tag]) -> str:
    """The text of ``node`` with child elements separated by a space (``""`` for ``None``).

    Whitespace is not collapsed here; :func:`websearch_sync.normalize.clean_text` does that.
    """
    if node is None:
        return ""
    return node.get_text(" ").strip()


def has_class(node: Tag, name: str) -> bool:
    """True when ``node``'s class list contains ``name``."""
    return name in classes(node)


def iso_datetime(text: str) -> Optional[str]:
    """``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM[:SS]`` found in ``text`` (``None`` if absent)."""
    match = _ISO_DATE.search(text or "")
    if match is None:
        return None
    date, time = match.groups()
    return "%sT%s" % (date, time) if time else date
