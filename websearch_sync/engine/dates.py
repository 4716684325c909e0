"""Dates read from result text: an ISO date in an attribute, a date opening a snippet, and the
market's order of slashed dates. Plain text, no markup: normalising a JSON engine's answer reads
them without the HTML parser (:mod:`.html_parsing` re-exports them for the HTML engines)."""

import datetime
import re
from typing import Any, Optional

from .locales import split_locale

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_ISO_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?))?")
# A date opening a snippet, then " · ", " - ", " ... " or a space: 18.03.2013, 10/18/2019,
# 2014-12-20, Nov 5, 2012 (English month names: the en pages of Bing and Yahoo), 14 Oct 2023
# (Google's, as Startpage shows it: "14 Oct 2023 ... "). Anchored, bounded.
_LEADING_DATE = re.compile(  # anchored: used with match(); a search would retry at every blank
    r"^\s*(?:(\d{1,2})([./])(\d{1,2})\2(\d{4})|(\d{4})-(\d{2})-(\d{2})|([A-Za-z]{3})[a-z]{0,6}\.? (\d{1,2}), (\d{4})"
    r"|(\d{1,2}) ([A-Za-z]{3})[a-z]{0,6}\.? (\d{4})|(\d{4})/(\d{1,2})/(\d{1,2}))"
    r"(?:\s*(?:[\u00b7\-\u2013\u2014]|\.\.\.)\s*|\s+|$)"
)
_MONTHS = {name: number for number, name in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}


def iso_datetime(text: str) -> Optional[str]:
    """``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM[:SS]`` found in ``text`` (``None`` if absent)."""
    match = _ISO_DATE.search(text or "")
    if match is None:
        return None
    date, time = match.groups()
    return "%sT%s" % (date, time) if time else date


def leading_date(text: str, month_first: Optional[bool] = None) -> tuple[Optional[str], str]:
    """``(YYYY-MM-DD, the rest)`` when ``text`` opens with a date, else ``(None, text)``.

    Reads ``18.03.2013`` (day first), ``2014-12-20``, ``2014/12/20`` and ``2014/1/5`` (year first: month
    then day, the one order written so), ``Nov 5, 2012``, ``14 Oct 2023`` and slashed dates:
    ``22/06/2011`` and ``10/18/2019`` are unambiguous; ``6/10/2016`` is read month first
    when ``month_first`` is true (the en-US market), day first when false, and not at all
    when ``None`` (the market is unknown). A date that does not exist is not read.
    """
    match = _LEADING_DATE.match(text or "")
    if match is None:
        return None, text
    groups = match.groups()
    if groups[0] is not None:
        ymd = _numeric_date(int(groups[0]), groups[1], int(groups[2]), int(groups[3]), month_first)
    elif groups[4] is not None or groups[13] is not None:  # year first: 2014-12-20, 2014/12/20
        year, month, day = groups[4:7] if groups[4] is not None else groups[13:16]
        ymd = (int(year), int(month), int(day))
    else:
        name, day, year = groups[7:10] if groups[7] is not None else (groups[11], groups[10], groups[12])
        month = _MONTHS.get(name.lower())
        ymd = (int(year), month, int(day)) if month else None
    if ymd is None:
        return None, text
    try:
        return datetime.date(*ymd).isoformat(), text[match.end() :]
    except ValueError:  # 31.02.2014
        return None, text


def dated_item(title: str, url: str, snippet: str, order: Optional[bool] = None) -> dict[str, Any]:
    """A raw item; a date opening ``snippet`` becomes ``published_at`` and leaves the snippet
    (``order``: see :func:`leading_date`'s ``month_first``)."""
    published, rest = leading_date(snippet, order)
    item: dict[str, Any] = {"title": title, "url": url, "snippet": rest}
    if published:
        item["published_at"] = published
    return item


def month_first(locale: Optional[str]) -> Optional[bool]:
    """Whether pages for ``locale`` write slashed dates month first (the US market): ``None``
    without a locale (the engine then picks the market, and the order is unknown)."""
    if not locale:
        return None
    return split_locale(locale)[1] == "US"


def _numeric_date(
    first: int, separator: str, second: int, year: int, month_first: Optional[bool]
) -> Optional[tuple[int, int, int]]:
    """(year, month, day) of ``first<sep>second<sep>year``, or ``None`` when the order is unknown."""
    if separator == "." or first > 12:
        return year, second, first
    if second > 12:
        return year, first, second
    if month_first is None:
        return None
    return (year, first, second) if month_first else (year, second, first)
