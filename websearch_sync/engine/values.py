"""The values of news, image and video items, as services write them, made canonical.

A backend's parser returns what the page says (``"3 hours ago"``, ``"1:02:03"``,
``"1.2M views"``, epoch seconds); normalisation turns it into one form (docs/verticals.md):

* a date (:func:`instant`): ISO 8601 in UTC, ``2026-08-01T12:30:00Z``, or ``2026-08-01``
  when the service gives a day only (a day is never given a made-up time); read from ISO
  8601 (an offset or ``Z``; none is read as UTC), epoch seconds but those within three years of 1970 (or milliseconds,
  past 10^11, the year 5138 in seconds, but in the year 9999's seconds; a number or its digits, a fraction too), a date written out (``Jul 9, 2026``, ``2014-12-20``, ``2014/12/20``, with its time as ISO 8601's:
  ``2014/12/20 12:30``), RFC 5322's (RSS: ``Fri, 07 May 2021 12:00:00 GMT``,
  with a numeric offset or a zone the RFC names), or a date relative to when the service
  answered (``3 hours ago``, ``2d``, ``yesterday``): units below a day give a time, a day
  or more a day (months and years the calendar's: March 31 less a month is February 28). A placeholder is no date,
  in whatever form: the epoch's day (1970-01-01 in UTC), the year 1 and the year 9999;
* a duration in whole seconds (:func:`seconds`): ``1:02:03``, ``2:03``, ``PT1M2S``, a number, or
  hours, minutes and seconds in words (``12 min``, ``1 hr 2 min``, ``1h2m3s``);
* a count (:func:`count`, read as :func:`count_opening` reads an engine's page text): an int,
  ``"1234"``, ``"1,234"``, ``"1.234"``, ``"1 234"``, ``"1.2M views"``, ``"12K"``, ``"3,4 M"`` (a comma
  before a multiplier is a decimal comma).

A count or duration above :data:`LARGEST` is no value (a width of 1e308 pixels): it is left out.

What cannot be read is ``None``: the field is left out, never guessed. Every pattern here
is anchored and linear (no nested repetition) on whatever a service sends.
"""

import calendar
import datetime
import email.utils
import math
import re
import sys
from typing import Any, Optional

from ..net.instants import unix_seconds
from .dates import leading_date

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_UTC = datetime.timezone.utc
#: The longest text read as a date, duration or count (a longer one is not one of them).
_LONGEST = 64

_RELATIVE = re.compile(r"(an?|\d{1,4}) ?([a-z]{1,7})\.?(?: ago)?")
_UNITS: dict[str, tuple[str, float]] = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), ("seconds", 1)),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), ("seconds", 60)),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), ("seconds", 3600)),
    **dict.fromkeys(("d", "day", "days"), ("days", 1)),
    **dict.fromkeys(("w", "wk", "wks", "week", "weeks"), ("days", 7)),
    **dict.fromkeys(("mo", "mos", "month", "months"), ("months", 1)),
    **dict.fromkeys(("y", "yr", "yrs", "year", "years"), ("months", 12)),
}
_DAYS_BACK = {"today": 0, "yesterday": 1}
_MOMENTS = ("just now", "now")
#: The zone names RFC 5322 gives (its obsolete ones): any other name in a mail date is not read.
_MAIL_ZONES = frozenset({"UT", "UTC", "GMT", "Z", "AST", "ADT", "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT"})
_MAIL_OFFSET = re.compile(r"[+-]\d{4}")
_ISO = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?")
#: A year-first slashed date and what may follow it (``2026/7/9 12:30``): read as the ISO date it writes.
_SLASHED = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2})((?:[T ][^/]*)?)")
_CLOCK = re.compile(r"(?:(\d{1,3}):)?(\d{1,3}):(\d{2})")
_ISO_DURATION = re.compile(r"P(?:(\d{1,4})D)?(?:T(?:(\d{1,4})H)?(?:(\d{1,6})M)?(?:(\d{1,7})(?:\.\d{1,9})?S)?)?")
# "12 min", "1 hr 2 min", "1 hour, 2 minutes, 3 seconds", "1h2m3s": hours, minutes, seconds in that
# order, each at most once; every part is a bounded number and a word from a fixed list (linear).
# Each number ends where its digits do ("(?!\d)"): one way to match, not one per shorter length.
# It opens with a number and a unit's first letter ("(?=...)"): never an empty match, so a search
# of it passes other text (a run of digits, words) at once.
_WORDED_DURATION = re.compile(
    r"(?=\d{1,7}(?!\d) ?[hms])(?:(\d{1,4})(?!\d) ?(?:h|hr|hrs|hour|hours)\.?(?:, ?| )?)?"
    r"(?:(\d{1,6})(?!\d) ?(?:m|min|mins|minute|minutes)\.?(?:, ?| )?)?"
    r"(?:(\d{1,7})(?!\d) ?(?:s|sec|secs|second|seconds)\.?)?"
)
# A count as pages print it: "338.3K views", "1.2M", "9,421", "9.421", "1 234 vues" (thousands
# grouped by a space, no-break or narrow no-break: three digits after it), "1,2 M" (a decimal comma
# before a multiplier). Bounded repeats (at most 16 blanks, 6 digit groups), and each run of digits
# ends where the digits do ("(?!\d)", one way to match): linear on any text, searched from anywhere.
_COUNT = re.compile(r"\s{0,16}(\d{1,15}(?!\d)(?:[.,]\d{1,15}(?!\d)|[ \u00a0\u202f]\d{3}(?!\d)){0,6})\s?([KMBkmb])?\b")
_GROUP_SPACES = str.maketrans("", "", " \u00a0\u202f")
_MULTIPLIERS = {"": 1, "k": 1_000, "m": 1_000_000, "b": 1_000_000_000}
#: What may follow a count given as a whole value (``"1.2M views"``).
_COUNT_WORDS = ("", "view", "views", "play", "plays")
#: The largest count or duration kept: the largest integer every JSON reader holds exactly
#: (JavaScript's numbers), far above any real size, view count or length in seconds.
LARGEST = 2**53 - 1


def _text(value: Any) -> Optional[str]:
    """``value`` as a lower-case single-spaced string, or ``None`` when it is no short string."""
    if not isinstance(value, str) or len(value) > _LONGEST:
        return None
    return " ".join(value.lower().split())


#: The largest number a float holds: a JSON integer past it is no number (``float()``: ``OverflowError``).
_LARGEST_FLOAT = sys.float_info.max


def _number(value: Any) -> Optional[float]:
    """``value`` when it is a finite number (not a bool) that a float holds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int) and abs(value) > _LARGEST_FLOAT:  # a JSON integer of hundreds of digits
        return None
    return float(value) if math.isfinite(value) else None


def _stamp(moment: datetime.datetime) -> str:
    """``moment`` as ISO 8601 in UTC to the second (``isoformat``: a four-digit year even before 1000,
    which ``strftime("%Y")`` does not write on every platform)."""
    return moment.astimezone(_UTC).replace(microsecond=0, tzinfo=None).isoformat() + "Z"


def instant(value: Any, answered_at: datetime.datetime) -> Optional[str]:
    """A date or time in ISO 8601 UTC (see the module docstring), or ``None`` (a placeholder too)."""
    moment = _instant(value, answered_at)
    return None if moment is None or _placeholder(moment) else moment


def _placeholder(stamp: str) -> bool:
    """Whether ``stamp`` (ISO 8601 in UTC) is what services write for "no date", in whatever form: the
    epoch's day (an unset Unix time, ``1970-01-01T00:00:00Z``), the year 1 (Go's zero time, .NET's least
    date, ``0001-01-01T00:00:00``) or the year 9999 (the greatest date a type holds, a database's "never")."""
    return stamp.startswith(_PLACEHOLDER_YEARS) or stamp.startswith(_EPOCH_DAY)


_PLACEHOLDER_YEARS = ("0001-", "9999-")
_EPOCH_DAY = "1970-01-01"


def _instant(value: Any, answered_at: datetime.datetime) -> Optional[str]:
    """:func:`instant`, placeholders included."""
    number = _number(value)
    text = _text(value)
    if number is None and text is not None and _epoch_text(text):
        number = float(text)  # epoch seconds written as digits, a fraction too (``"1735660800.5"``)
    if number is not None:
        return _epoch(number)
    if text is None or not text:
        return None
    slashed = _SLASHED.fullmatch(text.upper())
    iso = _ISO.fullmatch(
        "%s-%02d-%02d%s" % (slashed[1], int(slashed[2]), int(slashed[3]), slashed[4]) if slashed else text.upper()
    )
    if iso is not None:
        return _iso(iso)
    if text in _MOMENTS:
        return _stamp(answered_at)
    if text in _DAYS_BACK:
        return (answered_at - datetime.timedelta(days=_DAYS_BACK[text])).date().isoformat()
    relative = _RELATIVE.fullmatch(text)
    if relative is not None:
        return _relative(relative, answered_at)
    mailed = _mail_date(value.strip())
    if mailed is not None:
        return mailed
    day, rest = leading_date(value.strip())
    return day if day is not None and not rest.strip(" ,.") else None


def _epoch_text(text: str) -> bool:
    """Whether ``text`` writes epoch seconds: nine digits or more, then a fraction's digits after a
    ``.`` at most (isdecimal: ``"²".isdigit()``, yet ``float`` refuses it)."""
    whole, dot, fraction = text.partition(".")
    return whole.isdecimal() and len(whole) >= 9 and (not dot or fraction.isdecimal())


def reads_as_instant(value: Any) -> bool:
    """Whether :func:`instant` reads ``value`` as a date (at any moment): for a parser that picks the
    date among free-text parts (``"13 hours ago | Barchart on MSN"``) and leaves its reading to
    normalisation, which resolves it against the answer's moment."""
    return instant(value, _ANY_MOMENT) is not None


#: A moment to tell whether a text reads as a date: which moment does not change that.
_ANY_MOMENT = datetime.datetime(2000, 1, 1, tzinfo=_UTC)


def _mail_date(text: str) -> Optional[str]:
    """``Fri, 07 May 2021 12:00:00 GMT`` (RFC 5322's date, RSS's ``pubDate``) in UTC, or ``None``.
    Only a numeric offset or a zone the RFC names is read: ``parsedate_tz`` takes any other
    name (``CEST``) for UTC, which would be a guess."""
    parts = text.split()
    if len(parts) < 4 or not (parts[-1].upper() in _MAIL_ZONES or _MAIL_OFFSET.fullmatch(parts[-1])):
        return None
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return _stamp(moment) if moment.tzinfo is not None else None


#: Epoch seconds nearer 1970 than this (1973-03-03, as a string of digits must have nine of them) are no
#: date: a service's ``0`` or ``-1`` for "no date", or a small count in a date's field, is no date in 1970.
#: Further back is a date (``-60000000000``: the year 68).
_EPOCH_FLOOR = 1e8


#: Epoch seconds in the year 9999 (up to its last second, 253402300799): seconds, not milliseconds, though
#: past :data:`~..net.instants.MILLISECONDS_FROM`: the greatest date's placeholder, which as milliseconds
#: would be nine hours of 1978-01-11, a date read where none was given.
_YEAR_9999 = (253370764800, 253402300800)


def _epoch(number: float) -> Optional[str]:
    if _YEAR_9999[0] <= number < _YEAR_9999[1]:
        return None  # a placeholder, read as seconds
    number = unix_seconds(number)
    if abs(number) < _EPOCH_FLOOR:
        return None
    try:
        return _stamp(datetime.datetime.fromtimestamp(number, _UTC))
    except (OverflowError, OSError, ValueError):  # out of the platform's range
        return None


def _iso(match: "re.Match[str]") -> Optional[str]:
    day, clock, _fraction, offset = match.groups()
    try:
        if clock is None:
            return datetime.date.fromisoformat(day).isoformat()
        if len(clock) == 5:
            clock += ":00"
        zone = "+00:00" if offset in (None, "Z") else offset if ":" in offset else offset[:3] + ":" + offset[3:]
        return _stamp(datetime.datetime.fromisoformat("%sT%s%s" % (day, clock, zone)))
    except (ValueError, OverflowError):  # a day or time that does not exist, or none in UTC (year 0, 10000)
        return None


def _relative(match: "re.Match[str]", answered_at: datetime.datetime) -> Optional[str]:
    amount, unit = match.groups()
    if unit not in _UNITS:
        return None
    kind, size = _UNITS[unit]
    back = (1 if amount in ("a", "an") else int(amount)) * size
    try:
        if kind == "seconds":
            return _stamp(answered_at - datetime.timedelta(seconds=back))
        if kind == "months":
            return _months_back(answered_at.date(), int(back))
        return (answered_at - datetime.timedelta(days=back)).date().isoformat()
    except OverflowError:
        return None


def _months_back(day: datetime.date, months: int) -> Optional[str]:
    """The calendar day ``months`` months before ``day`` (a year is twelve), its day of the month
    kept or, past the end of that month, its last (March 31 less a month is February 28 or 29),
    or ``None`` before the year 1."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    if year < datetime.MINYEAR:
        return None
    last = calendar.monthrange(year, month + 1)[1]
    return datetime.date(year, month + 1, min(day.day, last)).isoformat()


def seconds(value: Any) -> Optional[int]:
    """A duration in whole seconds (see the module docstring), or ``None``."""
    return _bounded(_seconds(value))


def count(value: Any) -> Optional[int]:
    """A count (views, pixels) as an int (see the module docstring), or ``None``."""
    return _bounded(_count(value))


def _bounded(number: Optional[int]) -> Optional[int]:
    return number if number is not None and number <= LARGEST else None


def _seconds(value: Any) -> Optional[int]:
    number = _number(value)
    if number is not None:
        return int(number) if number >= 0 else None
    text = _text(value)
    if not text:
        return None
    if text.isdecimal():
        return int(text)
    clock = _CLOCK.fullmatch(text)
    if clock is not None:
        return _clock_seconds(*clock.groups())
    iso = _ISO_DURATION.fullmatch(text.upper())
    if iso is not None and text.upper() not in ("P", "PT"):
        days, hours, minutes, secs = (int(part or 0) for part in iso.groups())
        return ((days * 24 + hours) * 60 + minutes) * 60 + secs
    worded = _WORDED_DURATION.fullmatch(text.rstrip(" ,"))
    if worded is not None:
        hours, minutes, secs = (int(part or 0) for part in worded.groups())
        return (hours * 60 + minutes) * 60 + secs
    return None


def _clock_seconds(hours: Optional[str], minutes: str, secs: str) -> Optional[int]:
    """``[H:]M:SS`` in seconds; seconds past 59, or minutes past 59 after hours, are no clock
    ("3:75" read as 255 s). Minutes alone may pass 59: some video pages write "75:00"."""
    if int(secs) > 59 or (hours is not None and int(minutes) > 59):
        return None
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(secs)


def _count(value: Any) -> Optional[int]:
    number = _number(value)
    if number is not None:
        return int(number) if number >= 0 and float(number).is_integer() else None
    text = _text(value)
    found = count_opening(text) if text else None
    if found is None or text is None:
        return None
    number, end = found
    return number if text[end:].strip() in _COUNT_WORDS else None  # "12 apples" is no count


def count_opening(text: Optional[str]) -> Optional[tuple[int, int]]:
    """The count opening ``text`` and where it ends (``None`` when ``text`` opens with none):
    the one reading of a printed count, for the engines' page text (``"338.3K views"`` ->
    338300, the engine's own rounding) and the normaliser's values alike. Without a
    multiplier ``,`` and ``.`` are thousands separators, one kind, three digits after each
    (``"9.421"`` -> 9421; ``"1.5"`` or ``"1,234.5"`` are no count); before one, a decimal
    point or comma (``"1,2 M"``)."""
    match = _COUNT.match(text or "")
    if match is None:
        return None
    digits, unit = match.group(1).translate(_GROUP_SPACES), (match.group(2) or "").lower()
    if unit:
        whole, _, fraction = digits.replace(",", ".").partition(".")
        if "." in fraction:  # "1.2.3K": not one number
            return None
        number = (int(whole) * 10 ** len(fraction) + int(fraction or 0)) * _MULTIPLIERS[unit] // 10 ** len(fraction)
    else:
        groups = digits.replace(",", ".").split(".")
        if ("," in digits and "." in digits) or any(len(group) != 3 for group in groups[1:]):
            return None
        number = int("".join(groups))
    return number, match.end()
