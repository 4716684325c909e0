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
from typing import Any, Optional, cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..models import SearchItem
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
#: Control and invisible formatting characters, and lone surrogates (a JSON ``"\\ud800"``
#: escape yields one: it is no text and cannot be encoded, e.g. printed as UTF-8).
_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]"
)
_TRACKING = re.compile(r"^(utm_[a-z0-9_]*|fbclid|gclid|dclid|msclkid|mc_eid|yclid)$", re.I)

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


def clean_url(value: Any) -> Optional[str]:
    """The URL stripped, with a lower-case scheme, or ``None`` unless http(s) with a host.

    Spaces after the host are percent-encoded (``%20``, as a browser does: engines return
    such URLs); a space in the host, or other whitespace, still disqualifies the URL.
    """
    if not isinstance(value, str):
        return None
    url = value.strip()
    scheme, sep, rest = url.partition("://")
    host_end = min((i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    rest = rest[:host_end] + rest[host_end:].replace(" ", "%20")
    url = scheme + sep + rest
    if not sep or scheme.lower() not in ("http", "https") or _CONTROL.search(url) or _SPACE.search(url):
        return None
    url = scheme.lower() + "://" + rest
    try:
        parts = urlsplit(url)
        if not parts.hostname or parts.port == 0:
            return None
    except ValueError:  # e.g. an invalid IPv6 literal or port
        return None
    return url


def url_key(url: str) -> str:
    """A key under which equivalent URLs collide (for merging result lists).

    Ignores the scheme, a leading ``www.``, a trailing slash, the fragment and
    tracking parameters (``utm_*``, ``fbclid``, ``gclid`` ...).
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host.startswith("www."):
        host = host[4:]
    if parts.port:
        host = "%s:%d" % (host, parts.port)
    path = parts.path.rstrip("/")
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _TRACKING.fullmatch(k)])
    return urlunsplit(("", host, path, query, ""))


def normalize_items(raw_items: Iterable[dict[str, Any]], provider: str, max_results: int) -> list[SearchItem]:
    """Canonical items from a backend's raw items.

    Drops items whose URL is not http(s), cleans title/snippet/extras (markup is
    stripped only when the item's provider declared HTML text), removes duplicate
    URLs by :func:`url_key` (trailing slash, fragment, ``utm_*``, host case: the first
    wins), keeps at most ``max_results`` and writes
    ``rank`` 1..n. ``provider`` is used when an item does not name one.
    """
    items: list[dict[str, Any]] = []
    seen = set()
    for raw in raw_items:
        if len(items) >= max_results:
            break
        url = clean_url(raw.get("url"))
        if url is None or url_key(url) in seen:
            continue
        seen.add(url_key(url))
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
