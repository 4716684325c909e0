"""No cool-down outlives a day: a huge duration (a setting, or a Retry-After from a service)
must not overflow the time arithmetic of every later call; and none outlives its end in memory."""

import math

import pytest
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.client.cooldown import MAX_COOLDOWN_S, Cooldowns


@pytest.mark.parametrize("retry_after", [1e18, math.inf, 10 * MAX_COOLDOWN_S])
def test_a_huge_retry_after_is_capped_at_a_day(retry_after):
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    cooldowns.record(ws.WebBlocked("slow down", provider="brave", detail_code="http_429", retry_after=retry_after))
    with pytest.raises(ws.WebBlocked) as info:
        cooldowns.check("brave")
    assert info.value.retry_after == pytest.approx(MAX_COOLDOWN_S)
    clock.advance(MAX_COOLDOWN_S + 1)
    cooldowns.check("brave")  # over: no error


def test_a_huge_configured_cool_down_is_capped_too():
    clock = FakeClock()
    cooldowns = Cooldowns({"captcha_required": 1e300}, clock=clock)
    cooldowns.record(ws.WebBlocked("captcha", provider="ddg_html", detail_code="captcha_required"))
    with pytest.raises(ws.WebBlocked) as info:
        cooldowns.check("ddg_html")
    assert info.value.retry_after <= MAX_COOLDOWN_S


def test_a_nan_retry_after_suspends_nothing():
    cooldowns = Cooldowns(clock=FakeClock())
    cooldowns.record(ws.WebBlocked("slow down", provider="brave", detail_code="http_429", retry_after=math.nan))
    cooldowns.check("brave")


def test_suspensions_that_are_over_do_not_pile_up_in_a_long_lived_process():
    """A crawler meets walls on hosts it never asks again: each host's suspension stayed in the
    process-wide table after it ended (forgotten only when its key was checked again)."""
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    for number in range(5000):
        cooldowns.record(ws.WebBlocked("wall", detail_code="http_429", retry_after=1), "host:h%d.example" % number)
        clock.advance(0.01)  # 100 hosts a second: about a hundred suspended at a time
    assert len(cooldowns._until) < 600  # the live ones (about 100), and at most twice that swept since
    cooldowns.record(ws.WebBlocked("wall", detail_code="http_429", retry_after=60), "host:still.example")
    clock.advance(2)
    assert cooldowns.lift() == ["host:still.example"]  # what is over is neither lifted nor reported
