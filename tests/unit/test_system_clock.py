"""The system clock's sleep (rate-limit slots, retries, cool-downs) sleeps in slices of at most
``WAKE_S``, so that a Ctrl-C arriving just before a slice is raised at the next one, and in
total exactly as long as asked. Driven by a fake ``time`` module: no wall clock is read."""

import pytest

from websearch_sync.client import clock as clock_module
from websearch_sync.net import waits
from websearch_sync.net.waits import WAKE_S


class _FakeTime:
    def __init__(self):
        self.now, self.slept = 100.0, []

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def fake_time(monkeypatch):
    fake = _FakeTime()
    monkeypatch.setattr(waits, "time", fake)  # where the system clock sleeps
    return fake


def test_a_long_sleep_is_sliced_and_lasts_what_was_asked(fake_time):
    clock_module.Clock().sleep(2.5 * WAKE_S)
    assert fake_time.slept == pytest.approx([WAKE_S, WAKE_S, WAKE_S / 2])
    assert fake_time.now == pytest.approx(100.0 + 2.5 * WAKE_S)


@pytest.mark.parametrize("seconds", [0, -1.0])
def test_nothing_to_wait_sleeps_not_at_all(fake_time, seconds):
    clock_module.Clock().sleep(seconds)
    assert fake_time.slept == []
