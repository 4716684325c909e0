"""``instants.http_date`` reads an IMF-fixdate (every server's ``Date``) in place instead of through
``email.utils``. It must give what ``email.utils`` gives on every text, fixdates and near misses alike."""

import datetime
import email.utils
import itertools
from typing import Optional

from websearch_sync.net.instants import _imf_fixdate, http_date


def _by_email(text: str) -> Optional[datetime.datetime]:
    """What ``http_date`` gave before its shortcut: ``email.utils`` alone."""
    try:
        parsed = email.utils.parsedate_to_datetime(text)
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=datetime.timezone.utc)
        return parsed.astimezone(datetime.timezone.utc)
    except (ValueError, TypeError, OverflowError, IndexError):
        return None


DAYS = ["Mon", "Sun", "mon", "Xyz"]
DATES = ["06 Nov 1994", "29 Feb 2024", "29 Feb 2026", "31 Apr 2026", "00 Jan 2026", "01 Dec 9999", "06 nov 1994"]
DATES += ["06 Nov 0094", "06 Nov 0100", "06 Nov 0999", "6  Nov 1994", "06 Nov 19x4", "06 Foo 1994"]
TIMES = ["08:49:37", "00:00:00", "23:59:59", "23:59:60", "24:00:00", "12:60:00", "1:49:370", "08:49:3\u0664"]
ZONES = [" GMT", " gmt", " UTC", " +0000", " GMT ", ""]


def test_every_combination_reads_as_email_utils_reads_it() -> None:
    texts = ["%s, %s %s%s" % parts for parts in itertools.product(DAYS, DATES, TIMES, ZONES)]
    texts += ["Sun 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", ""]
    fast = 0
    for text in texts:
        assert http_date(text) == _by_email(text), text
        fast += _imf_fixdate(text) is not None
    # two day names, five valid dates from year 100 on, three valid times: the rest left to email
    assert fast == 2 * 5 * 3


def test_a_fixdate_is_read_in_place_to_the_second_in_utc() -> None:
    read = _imf_fixdate("Thu, 03 Dec 2026 09:40:29 GMT")
    assert read == datetime.datetime(2026, 12, 3, 9, 40, 29, tzinfo=datetime.timezone.utc)
    assert read is not None and read.tzinfo is datetime.timezone.utc
    assert _imf_fixdate("Thu, 03 Dec 2026 09:40:29 GMT ") is None
