"""A ``<meta http-equiv="refresh">`` read the way a browser reads it: the tag's attributes as
the HTML tokenizer reads them, and its ``content`` by the HTML standard's shared declarative
refresh steps (also WPT's ``attr-meta-http-equiv-refresh/parsing.html``).

Every reading here walks its input once, position by position (no pattern that could
backtrack): a page of 64 KB of unclosed tags costs what one pass over it costs.
"""

import html
import re
from collections.abc import Iterator
from html.entities import html5 as _ENTITIES
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The HTML standard's ASCII whitespace (not Python's ``str.isspace``: a no-break space is no separator).
WHITESPACE = "\t\n\x0c\r "
_DIGITS = "0123456789"
#: What ends an attribute name in the tokenizer (``>`` ends the tag).
_NAME_END = WHITESPACE + "/>="
#: A tag whose name is one of these, as the tokenizer opens it: ``<`` then the name, then
#: whitespace, ``/``, ``>`` or the end (``<metadata`` is another tag).
_OPENER = re.compile(r"<(meta|base)(?=[\t\n\x0c\r />]|\Z)", re.I)
#: A character reference in an attribute value: each alternative is one run of one class.
_REFERENCE = re.compile(r"&(?:#[xX][0-9a-fA-F]+;?|#[0-9]+;?|[A-Za-z0-9]+;?)")


def _skip(text: str, position: int, characters: str) -> int:
    """The first position from ``position`` on whose character is not in ``characters``."""
    while position < len(text) and text[position] in characters:
        position += 1
    return position


def _reference(match: "re.Match[str]") -> str:
    """One character reference of an attribute value, decoded as the tokenizer decodes it: a
    named one only when its whole name is one (``&amp;``), or a legacy name without ``;``
    (``&amp``) not followed by ``=`` (``?a=1&copy=2`` keeps its ``&copy``)."""
    reference = match.group(0)
    if reference[1] == "#":
        return html.unescape(reference)
    if reference[1:] in _ENTITIES and (reference.endswith(";") or match.string[match.end() : match.end() + 1] != "="):
        return _ENTITIES[reference[1:]]
    return reference  # "&notit;": a legacy name followed by an alphanumeric is text in an attribute


def _attribute_value(raw: str) -> str:
    return _REFERENCE.sub(_reference, raw) if "&" in raw else raw


def tag_attributes(markup: str, position: int) -> tuple[dict[str, str], int]:
    """The attributes of the start tag whose name ends at ``position`` (names in ASCII lower
    case, the first of a repeated name kept, values decoded) and the position after its ``>``
    (the end of ``markup`` for a tag never closed): the tokenizer's attribute states, so a
    ``>`` inside a quoted value does not end the tag."""
    attributes: dict[str, str] = {}
    end = len(markup)
    while position < end:
        position = _skip(markup, position, WHITESPACE + "/")
        if position >= end or markup[position] == ">":
            return attributes, position + 1
        start = position
        position = position + 1  # a name may begin with "="
        while position < end and markup[position] not in _NAME_END:
            position += 1
        name = markup[start:position].encode("ascii", "replace").lower().decode("ascii")
        position = _skip(markup, position, WHITESPACE)
        value = ""
        if position < end and markup[position] == "=":
            position = _skip(markup, position + 1, WHITESPACE)
            if position < end and markup[position] in "\"'":
                close = markup.find(markup[position], position + 1)
                close = end if close < 0 else close
                value, position = markup[position + 1 : close], close + 1
            else:
                start = position
                while position < end and markup[position] not in WHITESPACE + ">":
                    position += 1
                value = markup[start:position]
        attributes.setdefault(name, _attribute_value(value))
    return attributes, end


def start_tags(markup: str) -> Iterator[tuple[int, int, str, dict[str, str]]]:
    """(start, end, name, attributes) of each ``<meta>`` and ``<base>`` start tag of ``markup``,
    in order; what sits inside a tag (a quoted ``<meta`` in another's attribute) is no tag. Linear."""
    position = 0
    while True:
        opener = _OPENER.search(markup, position)
        if opener is None:
            return
        attributes, position = tag_attributes(markup, opener.end())
        yield opener.start(), position, opener.group(1).lower(), attributes


def declarative_refresh(value: str) -> Optional[tuple[float, Optional[str]]]:
    """(time in seconds, URL string: None when none is named, the document's own address,
    where an empty one, ``url=``, is parsed against the base URL as any other) of a refresh
    declaration (a meta refresh's ``content``), read by the shared declarative refresh steps up
    to the URL's parsing; None when a browser ignores the declaration. The time is the whole seconds
    (``1.9`` is 1 s, ``.5`` is 0 s); ``1e3``, ``+1`` or ``1x`` is no time at all."""
    position = _skip(value, 0, WHITESPACE)
    start = position
    position = _skip(value, position, _DIGITS)
    if position == start and value[position : position + 1] != ".":
        return None
    seconds = float(value[start:position]) if position > start else 0.0
    position = _skip(value, position, _DIGITS + ".")
    if position < len(value):
        if value[position] not in ";," + WHITESPACE:
            return None
        position = _skip(value, position, WHITESPACE)
        if value[position : position + 1] in (";", ","):
            position += 1
        position = _skip(value, position, WHITESPACE)
    if position >= len(value):
        return seconds, None
    url = value[position:]
    if value[position] in "Uu":
        if value[position + 1 : position + 2] not in ("R", "r") or value[position + 2 : position + 3] not in ("L", "l"):
            return seconds, url  # "ufoo", "urfoo": the URL as written
        position = _skip(value, position + 3, WHITESPACE)
        if value[position : position + 1] != "=":
            return seconds, url  # "url foo"
        position = _skip(value, position + 1, WHITESPACE)
    quote = value[position] if value[position : position + 1] in ("'", '"') else ""
    url = value[position + len(quote) :]
    return seconds, url.split(quote, 1)[0] if quote else url
