"""How long a service asks us to wait, at the edges of its headers (``net/status.py``), on the
recorded form of Brave's windows (``X-RateLimit-Reset: 1, 1419704`` beside
``X-RateLimit-Remaining: 0, 1998``: one value per window, shortest first)."""

import calendar
import time
from types import SimpleNamespace

import pytest
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.net import status
from websearch_sync.net.response import HttpResponse
from websearch_sync.net.status import retry_after_seconds


def test_when_both_windows_are_used_up_the_wait_is_the_longer_one():
    headers = {"X-RateLimit-Remaining": "0, 0", "X-RateLimit-Reset": "1, 3600"}
    assert retry_after_seconds(headers) == 3600.0


def test_windows_that_do_not_pair_up_give_the_first_window_s_wait():
    """Three remaining counts for two resets: which count is which window's is unknown."""
    headers = {"X-RateLimit-Remaining": "5, 0, 0", "X-RateLimit-Reset": "1, 3600"}
    assert retry_after_seconds(headers) == 1.0


@pytest.fixture
def away_from_gmt(monkeypatch):
    """This machine's zone five hours west of GMT (a POSIX zone: no zone database needed)."""
    monkeypatch.setenv("TZ", "EST+05")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    "date",
    [
        "Sun, 06 Nov 2094 08:49:37 GMT",  # IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  # RFC 850 (two-digit year)
        "Sun Nov  6 08:49:37 2094",  # asctime: no comma, no zone (GMT by definition)
    ],
)
def test_a_retry_after_date_is_read_in_each_http_date_format(monkeypatch, away_from_gmt, date):
    """RFC 9110, 5.6.7: a recipient must accept all three HTTP-date formats; each names GMT. The
    asctime one was ignored (only a value with a comma was read as a date), and it names no zone:
    not this machine's."""
    year = 1994 if "-94" in date else 2094
    now = calendar.timegm((year, 11, 6, 8, 49, 37)) - 100.0
    monkeypatch.setattr(status, "time", SimpleNamespace(time=lambda: now))
    assert retry_after_seconds({"Retry-After": date}) == 100.0


@pytest.mark.parametrize("value", ["nan", "-5"])
def test_a_retry_after_that_is_no_duration_is_ignored(value):
    """Not "ask again now": the block's own cool-down applies."""
    assert retry_after_seconds({"Retry-After": value}) is None


def test_a_retry_after_date_that_is_now_is_no_duration(monkeypatch):
    now = calendar.timegm((2094, 11, 6, 8, 49, 37))
    monkeypatch.setattr(status, "time", SimpleNamespace(time=lambda: now))
    assert retry_after_seconds({"Retry-After": "Sun, 06 Nov 2094 08:49:37 GMT"}) is None


@pytest.mark.parametrize(
    "wait",
    [
        {"Retry-After": "Sun, 06 Nov 2094 08:49:42 GMT"},
        {"X-RateLimit-Reset": "3939871782", "X-RateLimit-Remaining": "0"},
    ],
    ids=["Retry-After", "X-RateLimit-Reset"],
)
@pytest.mark.parametrize("behind_s", [3600, -3600])
def test_a_wait_given_as_a_time_is_measured_from_the_responses_date_not_this_clock(monkeypatch, wait, behind_s):
    """Both are the server's clock: a worker whose own ran an hour behind read "retry 5 s after this
    response" as an hour, and wrote that cool-down for every process of its fleet (an hour ahead, none)."""
    sent = calendar.timegm((2094, 11, 6, 8, 49, 37))
    monkeypatch.setattr(status, "time", SimpleNamespace(time=lambda: sent - behind_s))
    assert retry_after_seconds(dict(wait, Date="Sun, 06 Nov 2094 08:49:37 GMT")) == 5.0


@pytest.mark.parametrize("date", ["Thu, 01 Jan 1970 00:00:00 GMT", "Fri, 08 Nov 2094 08:49:37 GMT"])
def test_a_date_a_day_or_more_from_this_clock_is_no_measure_of_a_wait(monkeypatch, date):
    """A stale ``Date`` (1970) made "retry at now + 60 s" a day's cool-down for the fleet; one two days
    ahead made it none. No clock is that wrong: the wait is measured from this machine's."""
    now = calendar.timegm((2094, 11, 6, 8, 49, 37))
    monkeypatch.setattr(status, "time", SimpleNamespace(time=lambda: now))
    assert retry_after_seconds({"Retry-After": "Sun, 06 Nov 2094 08:50:37 GMT", "Date": date}) == 60.0


def test_a_cached_responses_wait_is_measured_from_its_date_plus_its_age(monkeypatch):
    """RFC 9111, 5.1: a response a cache has held ``Age`` seconds was sent that long before the server's now."""
    sent = calendar.timegm((2094, 11, 6, 8, 49, 37))
    monkeypatch.setattr(status, "time", SimpleNamespace(time=lambda: sent + 30))
    headers = {"Retry-After": "Sun, 06 Nov 2094 08:50:12 GMT", "Date": "Sun, 06 Nov 2094 08:49:37 GMT", "Age": "30"}
    assert retry_after_seconds(headers) == 5.0


def test_a_window_reset_in_milliseconds_is_a_time_not_a_days_wait(monkeypatch):
    now = calendar.timegm((2094, 11, 6, 8, 49, 37))
    monkeypatch.setattr(status, "time", SimpleNamespace(time=lambda: now))
    headers = {"X-RateLimit-Reset": "%d" % ((now + 5) * 1000), "X-RateLimit-Remaining": "0"}
    assert retry_after_seconds(headers) == 5.0


@pytest.mark.parametrize("code, error", [(599, ws.BadGateway), (999, ws.WebProviderError)])
def test_a_status_past_599_is_no_server_error(code, error):
    """Some sites answer scrapers with HTTP 999: unexpected, not a 5xx to retry."""
    response = HttpResponse(code, CaseInsensitiveDict(), b"", "https://docs.example/")
    found = status.status_error(response, "fetch")
    assert type(found) is error and found.retryable is (code == 599)
