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
    try:
        parsed = email.utils.parsedate_to_datetime(text)
        if parsed.tzinfo is None:  # asctime (or ``-0000``): GMT, not this machine's zone
            parsed = parsed.replace(tzinfo=datetime.timezone.utc)
        return parsed.astimezone(datetime.timezone.utc)
    except (ValueError, TypeError, OverflowError, IndexError):
        return None


def unix_seconds(number: float) -> float:
    """A Unix time in seconds, from seconds or milliseconds (past :data:`MILLISECONDS_FROM`: a
    ``Date.now()``, many JSON APIs' and some rate-limit headers' form)."""
    return number / 1000 if number > MILLISECONDS_FROM else number
