"""Reading the fields of news, image and video results as engines print them.

Engines show counts and sizes for people ("338.3K views", "700×444"); the raw
items of the vertical engines carry numbers (``view_count``, ``width``, ``height``)
and leave dates and durations to the shared normaliser. Every pattern here is
anchored and bounded: linear on any upstream text.
"""

import re
from typing import Any, Optional
from urllib.parse import parse_qsl, urlsplit

from ..net.jsontext import loads
from ..net.urls import picture_url
from .values import count_opening, reads_as_instant

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

# "700×444", "1920 x 1080", "700 × 444 · jpeg"
_SIZE = re.compile(r"\s{0,16}(\d{1,6})\s?[x\u00d7]\s?(\d{1,6})\b")


def view_count(text: Optional[str]) -> Optional[int]:
    """The number opening ``text``: ``"338.3K views"`` -> 338300 (the engine's own rounding),
    ``"9,421 views"`` -> 9421, ``"1 234 vues"`` -> 1234, ``None`` when ``text`` opens with no
    number (:func:`.values.count_opening`, the normaliser's reading too)."""
    found = count_opening(text)
    return found[0] if found else None


def pixel_size(text: Optional[str]) -> Optional[tuple[int, int]]:
    """``(width, height)`` of a size opening ``text`` (``"700×444"``), else ``None``."""
    match = _SIZE.match(text or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def query_value(url: Optional[str], name: str) -> Optional[str]:
    """The value of the query parameter ``name`` of ``url`` (decoded once), else ``None``."""
    try:
        query = urlsplit(url or "").query
    except ValueError:  # a malformed URL (bad IPv6 literal)
        return None
    return next((value for key, value in parse_qsl(query) if key == name and value), None)


def text(value: Any) -> Optional[str]:
    """``value`` when it is a string with something in it, else ``None`` (a JSON field of any type)."""
    return value if isinstance(value, str) and value.strip() else None


def first_picture(*values: Any) -> Optional[str]:
    """The first of ``values`` that is a picture's address as normalisation reads one
    (:func:`~websearch_sync.net.urls.picture_url`: http(s), or protocol-relative), as written: a
    field an engine fills with something else (a ``data:`` placeholder, a ``javascript:`` URL, a
    path on its own host) does not hide a usable address in the next one; ``None`` without one."""
    return next((value for value in values if picture_url(value) is not None), None)


def first_date(*values: Any) -> Optional[str]:
    """The first of ``values`` that reads as a date (:func:`.values.reads_as_instant`), as written:
    a date field holding text that is none does not hide a date found elsewhere."""
    return next((value for value in values if isinstance(value, str) and reads_as_instant(value)), None)


def whole_number(value: Any) -> Optional[int]:
    """``value`` when it is an int >= 0 (not a bool), else ``None`` (a JSON count or size)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def nested(value: Any, *path: str) -> Any:
    """``value[path[0]][path[1]]…``, ``None`` where a level is missing or not an object (a JSON
    answer's optional parts)."""
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def json_object(text: str) -> dict[str, Any]:
    """The JSON object ``text`` holds (``{}`` when it holds none: an attribute of a page's tile;
    also when nested too deeply to read, which raised ``RecursionError`` out of the parser)."""
    try:
        data = loads(text) if text else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def present(**fields: Any) -> dict[str, Any]:
    """The fields that have a value: a field the upstream does not give stays absent."""
    return {name: value for name, value in fields.items() if value is not None and value != ""}
