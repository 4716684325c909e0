"""Moments as servers write them: an HTTP date (a ``Date`` header, a ``Retry-After`` date), a
time in Unix seconds or milliseconds. One reading for the wire's waits and the engine's dates."""

import datetime
import email.utils
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A Unix time past this is in milliseconds (as seconds it would be past the year 5000).
MILLISECONDS_FROM = 1e11


def http_date(text: str) -> Optional[datetime.datetime]:
    """An HTTP date (``Wed, 21 Oct 2015 07:28:00 GMT``, or its RFC 850 or asctime form: RFC 9110,
    5.6.7, all three in GMT, asctime naming no zone) in UTC; ``None`` when it is none (absent,
    malformed, or past year 9999 in UTC)."""
    fixed = _imf_fixdate(text)
    if fixed is not None:
        return fixed
    try:
        parsed = email.utils.parsedate_to_datetime(text)
        if parsed.tzinfo is None:  # asctime (or ``-0000``): GMT, not this machine's zone
            parsed = parsed.replace(tzinfo=datetime.timezone.utc)
        return parsed.astimezone(datetime.timezone.utc)
    except (ValueError, TypeError, OverflowError, IndexError):
        return None


#: The day and month names of the preferred form (RFC 9110's IMF-fixdate), as servers write them.
_DAY_NAMES = frozenset(("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"))
_MONTHS = {name: number for number, name in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(), 1)}
#: Where IMF-fixdate's separators stand: ``Sun, 06 Nov 1994 08:49:37 GMT``.
_FIXDATE_SEPARATORS = ((3, ", "), (7, " "), (11, " "), (16, " "), (19, ":"), (22, ":"), (25, " GMT"))


def _imf_fixdate(text: str) -> Optional[datetime.datetime]:
    """``text`` read as an IMF-fixdate (``Sun, 06 Nov 1994 08:49:37 GMT``: what every server sends,
    the ``Date`` of every answer) in place, or ``None`` for any other text (then read by ``email.utils``
    as before). The same instant ``email.utils.parsedate_to_datetime`` reads, in UTC, without its
    tokenizer (40 lines of Python a search); only where it reads the same: a day and month name
    as written here, ASCII digits, a year from 100 on (``email.utils`` takes ``0094`` for 1994). A
    number out of range (``Feb 30``, ``24:00:00``) is ``None`` here as there."""
    if len(text) != 29 or text[:3] not in _DAY_NAMES or text[8:11] not in _MONTHS:
        return None
    for at, separator in _FIXDATE_SEPARATORS:
        if not text.startswith(separator, at):
            return None
    digits = text[5:7] + text[12:16] + text[17:19] + text[20:22] + text[23:25]
    if not (digits.isascii() and digits.isdigit()) or int(text[12:16]) < 100:
        return None
    try:
        return datetime.datetime(
            int(text[12:16]),
            _MONTHS[text[8:11]],
            int(text[5:7]),
            int(text[17:19]),
            int(text[20:22]),
            int(text[23:25]),
            tzinfo=datetime.timezone.utc,
        )
    except ValueError:  # a day or time out of range
        return None


def unix_seconds(number: float) -> float:
    """A Unix time in seconds, from seconds or milliseconds (past :data:`MILLISECONDS_FROM`: a
    ``Date.now()``, many JSON APIs' and some rate-limit headers' form)."""
    return number / 1000 if number > MILLISECONDS_FROM else number
