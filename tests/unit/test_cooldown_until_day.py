"""A cool-down's message names the day it ends when that is not today.

Before: a cool-down of a day (a configured ``cooldowns`` of a day or more, capped there, or a
``Retry-After`` of hours crossing midnight) said "until 21:10:40 (86400 s left)" at 21:10:40, a time
that reads as now or already past; an operator could not tell whether to wait. Now the end is
``HH:MM:SS on YYYY-MM-DD`` when it is on another local day, and stays ``HH:MM:SS`` on the same day."""

import time

import pytest
from clocks import FakeClock

import websearch_sync as ws


def _refusal(wall_start: float, retry_after: float) -> str:
    clock = FakeClock(wall_start=wall_start)
    with ws.SearchClient("stub", clock=clock) as client:
        client._cooldowns.record(
            ws.WebBlocked("slow down", provider="stub", detail_code="http_429", retry_after=retry_after)
        )
        with pytest.raises(ws.WebBlocked) as info:
            client.search("rust", cache_ttl_s=0)
    return str(info.value)


def test_a_cool_down_ending_tomorrow_names_its_day():
    late = time.mktime((2026, 12, 3, 23, 30, 0, 0, 0, -1))  # local 23:30
    message = _refusal(late, 3600)
    assert "until 00:30:00 on 2026-12-04 (" in message, message


def test_a_cool_down_of_a_day_does_not_read_as_now():
    noon = time.mktime((2026, 12, 3, 12, 0, 0, 0, 0, -1))
    message = _refusal(noon, 86400)
    assert "until 12:00:00 on 2026-12-04 (" in message, message


def test_a_cool_down_ending_today_says_the_time_alone():
    noon = time.mktime((2026, 12, 3, 12, 0, 0, 0, 0, -1))
    message = _refusal(noon, 60)
    assert "until 12:01:00 (" in message, message
