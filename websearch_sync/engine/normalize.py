"""Normalization: the only code that writes ``rank``.

Turns the raw items a backend parsed into canonical items: http(s) URLs only,
clean single-line text, no exact duplicate URLs, at most ``max_results``, ranked 1..n.

Markup is stripped only from the text of providers whose text is HTML
(``Backend.text_format``, read through :func:`~.registry.text_is_markup`): a
plain-text title such as ``C++ template <typename T>`` is kept as it is.
"""

import datetime
import html
import logging
import math
import re
from collections.abc import Iterable
from typing import Any, Callable, Optional, cast

from ..models import SearchItem
from ..net.urls import INVISIBLE as _CONTROL
from ..net.urls import dedupe_key, picture_url, result_url, stray_selectors_dropped
from . import values
from .identity import IDENTITY_FIELD, identity
from .registry import text_is_markup

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

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

#: Optional item fields a backend may set, kept when they carry text.
OPTIONAL_FIELDS = ("source", "published_at", "content")

#: How a raw value of an item field becomes its canonical value: ``(raw, markup, answered_at)``
#: -> the value, or ``None`` (the field is left out).
Convert = Callable[[Any, bool, datetime.datetime], Any]


def _text_field(value: Any, markup: bool, answered_at: datetime.datetime) -> Optional[str]:
    return clean_text(value, markup) or None


def _url_field(value: Any, markup: bool, answered_at: datetime.datetime) -> Optional[str]:
    return picture_url(value)


def _date_field(value: Any, markup: bool, answered_at: datetime.datetime) -> Optional[str]:
    return values.instant(clean_text(value, markup) if isinstance(value, str) else value, answered_at)


def _seconds_field(value: Any, markup: bool, answered_at: datetime.datetime) -> Optional[int]:
    return values.seconds(value)


def _count_field(value: Any, markup: bool, answered_at: datetime.datetime) -> Optional[int]:
    return values.count(value)


def _pixels_field(value: Any, markup: bool, answered_at: datetime.datetime) -> Optional[int]:
    """A picture's width or height: a count, and 0 is none (a service's placeholder for an unknown
    size, SearXNG's ``"0 x 0"``: no picture is 0 pixels wide), as a placeholder date is no date."""
    return values.count(value) or None


#: The fields of each vertical's items besides title, url and provider (models.NewsItem, ...).
VERTICAL_FIELDS: dict[str, dict[str, Convert]] = {
    "news": {"snippet": _text_field, "source": _text_field, "published_at": _date_field, "image_url": _url_field},
    "images": {
        "image_url": _url_field,
        "thumbnail_url": _url_field,
        "width": _pixels_field,
        "height": _pixels_field,
        "source": _text_field,
    },
    "videos": {
        "snippet": _text_field,
        "published_at": _date_field,
        "duration": _seconds_field,
        "publisher": _text_field,
        "thumbnail_url": _url_field,
        "view_count": _count_field,
        "embed_url": _url_field,
        "uploader": _text_field,
    },
}
#: The item fields a search writes as one line of cleaned text (:func:`clean_text`): the title, a web
#: item's snippet and source, and each vertical's text fields (a video's publisher and channel). What a
#: stored answer's texts must be (client/answers.py) and what the search tool cuts for a model (tool.py).
LINE_TEXT_FIELDS = tuple(
    dict.fromkeys(
        ("title", "snippet", "source")
        + tuple(
            name for fields in VERTICAL_FIELDS.values() for name, convert in fields.items() if convert is _text_field
        )
    )
)
#: The address fields of each vertical's items besides ``url`` (an image's ``image_url``, a video's ``embed_url``).
URL_FIELDS = tuple(
    dict.fromkeys(
        name for fields in VERTICAL_FIELDS.values() for name, convert in fields.items() if convert is _url_field
    )
)
#: Fields without which an item of a vertical is no result: an image result without the image.
REQUIRED_FIELDS = {"images": ("image_url",)}


def clean_text(value: Any, markup: bool = True) -> str:
    """Strip tags and unescape entities (only when ``markup``: the value is HTML), drop
    control characters (and lone surrogates) and collapse whitespace.

    Text is a string, or a finite number written as its digits; anything else a JSON answer may
    hold in its place (``null``, a boolean, a list, an object, ``NaN`` or ``Infinity``, which
    Python's JSON reader takes) is no text: ``""``, never its Python spelling (``"{'text': 'x'}"``,
    ``"True"``, ``"nan"``)."""
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        return ""
    if isinstance(value, float) and not math.isfinite(value):
        return ""
    text = str(value)
    if markup and "<" in text:
        text = _TAG.sub(_tag_replacement, text)
    if markup and "&" in text:
        text = html.unescape(text)
    if not text.isprintable():  # printable text holds no control or invisible character
        text = _CONTROL.sub("", text)
    return " ".join(stray_selectors_dropped(text).split())  # str.split's whitespace is exactly \s


def _tag_replacement(match: "re.Match[str]") -> str:
    name = match.group(1)
    return "" if name and name.lower() in _INLINE_TAGS else " "


def _log_dropped(provider: str, vertical: str, unusable: int, hidden: int) -> None:
    """One INFO record per reason results were left out: no usable address, or an invisible character in it."""
    if unusable:
        _log_left_out(provider, vertical, unusable)
    if hidden:
        logger.info(
            "%s: %d %s result(s) left out, their address holding an invisible character (a tag or control character,"
            " in its host or unencoded: the link shown would not be the one followed)",
            provider,
            hidden,
            vertical,
        )


def normalize_items(
    raw_items: Iterable[dict[str, Any]],
    provider: str,
    max_results: int,
    vertical: str = "web",
    answered_at: Optional[datetime.datetime] = None,
    canonical: bool = False,
) -> list[SearchItem]:
    """Canonical items from a backend's raw items.

    Drops items whose URL is not http(s) (and images without their image's), saying how many in one
    INFO record (``websearch_sync`` logger) per answer, cleans title/snippet/extras (markup is
    stripped only when the item's provider declared HTML text), removes duplicate
    URLs by :func:`~websearch_sync.net.urls.dedupe_key` (trailing slash, fragment, ``utm_*``, host case, default port: the first
    wins), keeps at most ``max_results`` and writes
    ``rank`` 1..n. ``provider`` is used when an item does not name one.

    Items of another ``vertical`` than the web keep their own fields (:data:`VERTICAL_FIELDS`),
    each converted to its canonical form or left out (dates resolved against ``answered_at``,
    when the service answered: default now); an image is identified by its image URL. A web
    item's ``published_at`` is made canonical the same way.

    ``canonical``: the items are canonical already (a merge's fused lists), so their text is
    not read as HTML a second time (``&lt;br&gt;`` decoded once is ``<br>``, a text to keep).
    """
    items: list[dict[str, Any]] = []
    seen = set()
    moment = answered_at or datetime.datetime.now(datetime.timezone.utc)
    markup_of: dict[str, bool] = {}  # per provider named: the registry is asked once
    unusable = 0  # results left out for want of an address (not duplicates)
    hidden = 0  # results left out for an invisible character in their address (a tag character in its host)
    for raw in raw_items:
        if len(items) >= max_results:
            break
        url = result_url(raw.get("url"))
        key = None if url is None else dedupe_key(url) if vertical not in IDENTITY_FIELD else identity(raw, vertical)
        if key in seen:
            continue
        item = None if url is None or key is None else _item(raw, url, provider, vertical, markup_of, canonical, moment)
        if item is None:
            if url is None and _CONTROL.search(str(raw.get("url") or "")):
                hidden += 1
            else:
                unusable += 1
            continue
        seen.add(key)
        items.append(item)
    _log_dropped(provider, vertical, unusable, hidden)
    for rank, ranked in enumerate(items, 1):
        ranked["rank"] = rank
    return cast(list[SearchItem], items)  # every key of SearchItem is written above


def _item(
    raw: dict[str, Any],
    url: str,
    provider: str,
    vertical: str,
    markup_of: dict[str, bool],
    canonical: bool,
    answered_at: datetime.datetime,
) -> Optional[dict[str, Any]]:
    """The canonical item of ``raw`` (at ``url``), ``None`` when it lacks a field its vertical needs;
    ``markup_of`` remembers whether each provider's text is HTML (the registry is asked once)."""
    source = raw.get("provider") or provider
    markup = markup_of.get(source)
    if markup is None:
        markup = markup_of[source] = not canonical and text_is_markup(source, vertical)
    if vertical == "web":
        return _web_item(raw, url, source, markup, answered_at)
    return _vertical_item(raw, url, source, vertical, markup, answered_at)


def _log_left_out(provider: str, vertical: str, count: int) -> None:
    """Say that ``count`` results of one answer were left out for want of what a result needs: an item
    is never made up, nor dropped without a word (the addresses are not quoted: they are the service's
    words, of any length). At INFO: an engine's own relative cards (a video carousel's ``/sf/vsearch``)
    are in ordinary answers, and a WARNING reaches a script's stderr through Python's last-resort handler."""
    needs = "an http(s) address" + (" or an image address" if vertical == "images" else "")
    logger.info(
        "%s: %d %s result(s) left out, without %s (a relative, javascript: or data: link, one over 8 KB, or none)",
        provider,
        count,
        vertical,
        needs,
    )


def _web_item(
    raw: dict[str, Any], url: str, provider: str, markup: bool, answered_at: datetime.datetime
) -> dict[str, Any]:
    """The canonical web item from a raw one: ``published_at`` is read as the verticals' dates are
    (a date that cannot be read is left out)."""
    item: dict[str, Any] = {
        "title": clean_text(raw.get("title"), markup),
        "url": url,
        "snippet": clean_text(raw.get("snippet"), markup),
        "provider": provider,
    }
    for name in () if raw.keys().isdisjoint(OPTIONAL_FIELDS) else OPTIONAL_FIELDS:  # (most items have none)
        value = raw.get(name)
        if value:
            if name == "published_at":
                text = _date_field(value, markup, answered_at)
            elif name == "content":
                text = _clean_content(value)
            else:
                text = clean_text(value, markup)
            if text:
                item[name] = text
    if raw.get("providers"):
        item["providers"] = list(raw["providers"])
    return item


def _vertical_item(
    raw: dict[str, Any], url: str, provider: str, vertical: str, markup: bool, answered_at: datetime.datetime
) -> Optional[dict[str, Any]]:
    """The canonical item of ``vertical`` from a raw one, ``None`` when a field it needs is missing."""
    item: dict[str, Any] = {"title": clean_text(raw.get("title"), markup), "url": url, "provider": provider}
    for name, convert in VERTICAL_FIELDS[vertical].items():
        value = raw.get(name)
        converted = convert(value, markup, answered_at) if value is not None and value != "" else None
        if converted is not None:
            item[name] = converted
    if any(name not in item for name in REQUIRED_FIELDS.get(vertical, ())):
        return None
    content = _clean_content(raw.get("content"))
    if content:
        item["content"] = content
    if raw.get("providers"):
        item["providers"] = list(raw["providers"])
    return item


def _clean_content(value: Any) -> str:
    """Page text keeps its line breaks; only control characters go. Only a string is page text: an
    object, a list, a number or ``true`` where a service's page text belongs is none (``""``: the item
    has no ``content``, as with ``null``), never its Python spelling (``"{'text': ...}"``, ``"True"``)."""
    return stray_selectors_dropped(_CONTROL.sub("", value)).strip() if isinstance(value, str) else ""
