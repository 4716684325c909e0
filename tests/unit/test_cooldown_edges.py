"""Cool-downs at their edges (fake clock, in-process): a Retry-After of 0, a longer suspension not
shortened by a shorter block, a success that lifts only what it may, an operator's reset of hosts,
and the shared tier's words obeyed as documented in ``client/cooldown.py``."""

import math

import pytest
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.client.cooldown import MAX_COOLDOWN_S, Cooldowns
from websearch_sync.client.tiers import SharedBlock


def _blocked(retry_after=None, detail_code="http_429", provider="brave", message="slow down", retryable=None):
    return ws.WebBlocked(
        message, provider=provider, detail_code=detail_code, retry_after=retry_after, retryable=retryable
    )


def _cooling(cooldowns, name):
    with pytest.raises(ws.WebBlocked) as info:
        cooldowns.check(name)
    return info.value


def test_a_retry_after_of_zero_suspends_nothing():
    """``Retry-After: 0`` is the service's own word (ask again now): it wins over the 60 s a 429
    suspends for otherwise, as any Retry-After does."""
    cooldowns = Cooldowns(clock=FakeClock())
    assert cooldowns.record(_blocked(retry_after=0.0)) is None
    cooldowns.check("brave")


@pytest.mark.parametrize("duration_s", [1e18, math.inf])
def test_a_huge_duration_given_to_record_is_capped_at_a_day(duration_s):
    """The duration a caller passes (a retry's wait) is capped like the error's own."""
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    cooldowns.record(_blocked(), None, duration_s)
    assert _cooling(cooldowns, "brave").retry_after == pytest.approx(MAX_COOLDOWN_S)
    clock.advance(MAX_COOLDOWN_S + 1)
    cooldowns.check("brave")


def test_a_nan_duration_given_to_record_suspends_nothing():
    cooldowns = Cooldowns(clock=FakeClock())
    assert cooldowns.record(_blocked(), None, math.nan) is None
    cooldowns.check("brave")


def test_a_shorter_block_does_not_shorten_a_longer_suspension():
    """A captcha suspends for 10 minutes; a 429 met meanwhile (through another key's wait, with
    what was left of it) must not end the suspension after its 5 s."""
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    cooldowns.record(_blocked(detail_code="captcha_required", message="captcha"))
    cooldowns.record(_blocked(retry_after=5.0))
    clock.advance(10)
    error = _cooling(cooldowns, "brave")
    assert error.detail_code == "captcha_required" and error.retry_after == pytest.approx(590.0)


def test_a_suspension_ending_now_is_over_and_not_reported_as_lifted():
    """At its very end a suspension is over: a check passes, and an operator's reset does not
    name it among what it lifted."""
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    cooldowns.record(_blocked(retry_after=60.0))
    cooldowns.record(_blocked(retry_after=60.0, provider="mojeek"))
    clock.advance(60.0)
    assert cooldowns.lift() == []
    cooldowns.record(_blocked(retry_after=60.0))
    clock.advance(60.0)
    cooldowns.check("brave")


def test_a_success_lifts_a_block_recorded_when_it_started_but_not_one_after():
    """``clear(started=...)``: a block recorded at the very time the successful request started is
    not news to it (lifted); one recorded later is (kept). Without ``started`` it lifts."""
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    cooldowns.record(_blocked())
    cooldowns.clear("brave", started=clock.monotonic())
    cooldowns.check("brave")
    started = clock.monotonic()
    clock.advance(0.5)
    cooldowns.record(_blocked())
    cooldowns.clear("brave", started=started)
    _cooling(cooldowns, "brave")
    cooldowns.clear("brave")
    cooldowns.check("brave")


class _Tier:
    """A shared cool-downs tier (``SharedCooldownsTier``) in memory: ``up`` false, it takes no record;
    ``lookups`` counts the reads."""

    def __init__(self, up=True):
        self.up = up
        self.blocks = {}
        self.cleared = []
        self.lifts = set()  # the names an operator lifted (``state clear``: a marker in each key)
        self.lookups = 0

    def record(self, name, detail_code, status, duration_s, until, token, left_s=None, retryable=None, hint=None):
        if self.up:
            self.blocks[name] = SharedBlock(detail_code, status, until, duration_s, token, retryable, hint)
            self.lifts.discard(name)
        return self.up

    def lookup(self, name, left_s=None):
        self.lookups += 1
        return self.blocks.get(name)

    def lifted(self, name, left_s=None):
        return self.up and name in self.lifts

    def clear(self, names=None):
        self.cleared.append(names)
        lifted = [name for name in self.blocks if names is None or name in names]
        for name in lifted:
            del self.blocks[name]
        self.lifts.update(lifted)
        return lifted


def test_a_request_ignores_its_own_record_here_and_in_the_shared_tier():
    """``check(own=token)``: the request that recorded a block and waits out its Retry-After is not
    refused by its own record (local or shared); any other request is."""
    cooldowns = Cooldowns(clock=FakeClock(), shared=_Tier())
    token = cooldowns.record(_blocked(retry_after=30.0))
    cooldowns.check("brave", own=token)
    assert _cooling(cooldowns, "brave").retry_after == pytest.approx(30.0)


def test_a_block_heard_from_the_shared_tier_is_remembered_capped_and_without_its_words():
    """Another process's block is obeyed for what it has left (at most a day), remembered here (the
    tier is not read again while it lasts), and quotes no words of its own."""
    tier = _Tier()
    tier.blocks["brave"] = SharedBlock("http_429", 429, 0.0, 10 * MAX_COOLDOWN_S, "theirs", True, "wait")
    cooldowns = Cooldowns(clock=FakeClock(), shared=tier)
    first = _cooling(cooldowns, "brave")
    assert first.retry_after == pytest.approx(MAX_COOLDOWN_S)
    assert (first.retryable, first.hint) == (True, "wait")
    lookups = tier.lookups
    second = _cooling(cooldowns, "brave")
    assert tier.lookups == lookups  # remembered: not read from the tier again
    assert "it said" not in second.message and second.retry_after <= MAX_COOLDOWN_S


def test_an_operator_lifts_only_what_the_shared_tier_holds():
    """A suspension the shared tier never took (it was down) is not taken for lifted by an operator
    because the tier, back, does not hold it; one the tier took and no longer holds is."""
    tier = _Tier(up=False)
    cooldowns = Cooldowns(clock=FakeClock(), shared=tier)
    cooldowns.record(_blocked())
    tier.up = True
    _cooling(cooldowns, "brave")
    cooldowns.record(_blocked(provider="mojeek"))
    tier.clear()  # ``state clear`` from another process
    cooldowns.check("mojeek")


def test_a_shared_record_that_vanished_lifts_nothing_here():
    """A Redis restarted, or evicting keys, loses the record: the process that met the block, and
    one that heard of it, took that for an operator's lift and asked the backend again at once."""
    tier = _Tier()
    met = Cooldowns(clock=FakeClock(), shared=tier)
    met.record(_blocked())
    heard = Cooldowns(clock=FakeClock(), shared=tier)
    _cooling(heard, "brave")
    tier.blocks.clear()  # vanished: no operator lifted it
    _cooling(met, "brave")
    _cooling(heard, "brave")
    tier.clear(["brave"])  # nothing there to lift: still not lifted
    _cooling(met, "brave")


def test_a_reset_of_a_backend_lifts_its_hosts_here_and_in_the_shared_tier():
    """``lift(backend, hosts)``: its endpoint hosts' cool-downs go too (its block cooled them
    down), in this process and in the shared tier; another backend's stay."""
    host = "host:api.search.brave.com"
    cooldowns = Cooldowns(clock=FakeClock())
    for key in ("brave@api.search.brave.com", host, "mojeek"):
        cooldowns.record(_blocked(), key)
    assert cooldowns.lift("brave", [host]) == ["brave@api.search.brave.com", host]
    cooldowns.check(host)
    _cooling(cooldowns, "mojeek")
    tier = _Tier()
    Cooldowns(clock=FakeClock(), shared=tier).lift("brave", [host])
    assert tier.cleared == [["brave", host]]  # one command: one deadline for its scans
