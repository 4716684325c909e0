"""Normalization: the only code that writes ``rank``.

Turns the raw items a backend parsed into canonical items: http(s) URLs only,
clean single-line text, no exact duplicate URLs, at most ``max_results``, ranked 1..n.

Markup is stripped only from the text of providers whose text is HTML
(``Backend.text_format``, read through :func:`~.registry.text_is_markup`): a
plain-text title such as ``C++ template <typename T>`` is kept as it is.
"""

import html
import re
from collections.abc import Iterable
from typing import Any, cast

from ..models import SearchItem
from ..net.urls import INVISIBLE as _CONTROL
from ..net.urls import dedupe_key, result_url
from .registry import text_is_markup

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

# Linear time on any input: a tag's scan stops at the next "<" or ">", and a comment
# ends at "-->" or, unclosed, at the end of the text (as in HTML), so no position is
# rescanned from every earlier "<!--".
_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9:-]*)(?:\s[^<>]*)?/?>|<!--.*?(?:-->|\Z)", re.S)
#: Tags inside a run of text (search engines' highlights): removed without a space,
#: so "<strong>Bostik</strong>, commonly" reads "Bostik, commonly". Other tags
#: separate words and become a space.
_INLINE_TAGS = frozenset(
    "a abbr b bdi bdo cite code data dfn em font i kbd mark q s samp small span strong sub sup time u var wbr".split()
)
_SPACE = re.compile(r"\s+")

#: Optional item fields a backend may set, kept when they carry text.
OPTIONAL_FIELDS = ("source", "published_at", "content")


def clean_text(value: Any, markup: bool = True) -> str:
    """Strip tags and unescape entities (only when ``markup``: the value is HTML), drop
    control characters (and lone surrogates) and collapse whitespace."""
    if value is None:
        return ""
    text = str(value)
    if markup and "<" in text:
        text = _TAG.sub(_tag_replacement, text)
    if markup and "&" in text:
        text = html.unescape(text)
    text = _CONTROL.sub("", text)
    return _SPACE.sub(" ", text).strip()


def _tag_replacement(match: "re.Match[str]") -> str:
    name = match.group(1)
    return "" if name and name.lower() in _INLINE_TAGS else " "


def normalize_items(raw_items: Iterable[dict[str, Any]], provider: str, max_results: int) -> list[SearchItem]:
    """Canonical items from a backend's raw items.

    Drops items whose URL is not http(s), cleans title/snippet/extras (markup is
    stripped only when the item's provider declared HTML text), removes duplicate
    URLs by :func:`~websearch_sync.net.urls.dedupe_key` (trailing slash, fragment, ``utm_*``, host case: the first
    wins), keeps at most ``max_results`` and writes
    ``rank`` 1..n. ``provider`` is used when an item does not name one.
    """
    items: list[dict[str, Any]] = []
    seen = set()
    for raw in raw_items:
        if len(items) >= max_results:
            break
        url = result_url(raw.get("url"))
        if url is None or dedupe_key(url) in seen:
            continue
        seen.add(dedupe_key(url))
        source = raw.get("provider") or provider
        markup = text_is_markup(source)
        item: dict[str, Any] = {
            "title": clean_text(raw.get("title"), markup),
            "url": url,
            "snippet": clean_text(raw.get("snippet"), markup),
            "provider": source,
        }
        for name in OPTIONAL_FIELDS:
            value = raw.get(name)
            if value:
                text = _clean_content(value) if name == "content" else clean_text(value, markup)
                if text:
                    item[name] = text
        if raw.get("providers"):
            item["providers"] = list(raw["providers"])
        items.append(item)
    for rank, item in enumerate(items, 1):
        item["rank"] = rank
    return cast(list[SearchItem], items)  # every key of SearchItem is written above


def _clean_content(value: Any) -> str:
    """Page text keeps its line breaks; only control characters go."""
    return _CONTROL.sub("", str(value)).strip()
