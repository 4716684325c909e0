"""What a cool-down says: the words of the block it follows, never its own words quoted back."""

import pytest
from clocks import FakeClock
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.client.cooldown import Cooldowns
from websearch_sync.client.flight import aged
from websearch_sync.client.state.failures import failure_record, read_failure
from websearch_sync.client.tiers import SharedBlock
from websearch_sync.engine.json_api import api_error
from websearch_sync.errors import copied_error
from websearch_sync.net.status import status_error
from websearch_sync.net.transport import HttpResponse


class _OneSharedBlock:
    """A shared tier (``SharedCooldownsTier``) holding one block another process met."""

    def __init__(self, name):
        self.name = name

    def record(self, *args, **kwargs):
        return True

    def lookup(self, name, left_s=None):
        if name != self.name:
            return None
        return SharedBlock("captcha_required", 200, 1_700_000_600.0, 600.0, token="theirs", retryable=False)

    def lifted(self, name, left_s=None):
        return False

    def clear(self, backend=None):
        return []


def test_a_cool_down_heard_from_the_shared_state_does_not_quote_itself():
    """A block another process met is obeyed here, and remembered: the second call said "ddg_html is
    cooling down ... not contacting it (it said: ddg_html is cooling down ... not contacting it)",
    its own words of the first call quoted as if the service had said them."""
    cooldowns = Cooldowns(clock=FakeClock(), shared=_OneSharedBlock("ddg_html"))
    messages = []
    for _ in range(2):
        with pytest.raises(ws.WebBlocked) as info:
            cooldowns.check("ddg_html")
        messages.append(info.value.message)
        assert info.value.detail_code == "captcha_required" and info.value.retryable is False
    assert [message.count("cooling down") for message in messages] == [1, 1]
    assert "it said" not in messages[1]


def _429(words):
    """A 429 asking for 30 s, as the status mapping says it, or as a JSON API's (``api_error``) with
    the vendor's ``words`` after it (Brave's, Tavily's "Rate limit exceeded")."""
    response = HttpResponse(429, CaseInsensitiveDict({"Retry-After": "30"}), b"{}", "https://aa.example/s")
    return status_error(response, "aa") if words is None else api_error(response, "aa", message=words)


@pytest.mark.parametrize("words", [None, "Rate limit exceeded"])
def test_a_cool_down_quoting_a_429_says_the_seconds_left_not_those_asked_when_it_was_met(words):
    """A 429 said "retry after 30 s"; 20 s later its cool-down quoted that (with "10 s left"
    beside it), and so did an answer cached meanwhile with it among its notes. The hint was cut
    only where it ended the message: a JSON API's, the vendor's words after it, kept it."""
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    block = _429(words)
    assert "retry after 30 s" in block.message
    cooldowns.record(block)
    clock.advance(20)
    with pytest.raises(ws.WebBlocked) as info:
        cooldowns.check("aa")
    assert "(10 s left)" in info.value.message and info.value.retry_after == 10.0
    assert "30 s" not in info.value.message
    assert "it said: aa.example is rate-limiting us (HTTP 429)" in info.value.message
    assert (words or "") in info.value.message


@pytest.mark.parametrize("reword", ["append", "replace"])
def test_a_cool_down_quotes_the_advice_a_backend_gave_its_429_after_it_was_built(reword):
    """A backend's own words given to a 429 after the shared mapping built it (SearXNG's limiter
    advice replaces the message; a JSON API's remedy follows it) are quoted by the cool-down: it
    quoted the words the 429 was built with and lost them. Only the stale seconds are left out."""
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    block = _429(None)
    advice = "add your address to `pass_ip` in limiter.toml"
    if reword == "append":
        block.message += "; " + advice
    else:
        block.message = "searxng: the instance's limiter refused the request (HTTP 429): " + advice
    cooldowns.record(block)
    clock.advance(20)
    with pytest.raises(ws.WebBlocked) as info:
        cooldowns.check("aa")
    assert advice in info.value.message
    assert "30 s" not in info.value.message and "(10 s left)" in info.value.message


def test_a_cool_down_refusal_copied_through_the_shared_state_says_the_seconds_left_as_its_wait():
    """A waiter in another process raises a copy of a cool-down's refusal, aged by the time since it
    was written: its ``retry_after`` said the seconds left, its message still "(25 s left)"."""
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    cooldowns.record(_429(None))
    clock.advance(5)
    with pytest.raises(ws.WebBlocked) as info:
        cooldowns.check("aa")
    refusal = info.value
    assert "(25 s left)" in refusal.message and refusal.retry_after == 25.0
    copy = read_failure(failure_record(refusal, []).encode())
    written_at = clock.monotonic()
    clock.advance(12)
    aged(copy, clock.monotonic() - written_at)
    assert copy.retry_after == 13.0
    assert "(13 s left)" in copy.message and "25 s" not in copy.message
    assert copy.message == refusal.message.replace("(25 s left)", "(13 s left)")
    clock.advance(3)
    aged(copy, 3.0)  # a copy ages again from what it says now
    assert copy.retry_after == 10.0 and "(10 s left)" in copy.message
    assert "(25 s left)" in refusal.message and refusal.retry_after == 25.0  # the asker's own is untouched


def test_a_cool_down_refusal_copied_in_the_same_process_says_the_seconds_left_as_its_wait():
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    cooldowns.record(_429(None))
    with pytest.raises(ws.WebBlocked) as info:
        cooldowns.check("aa")
    copy = aged(copied_error(info.value), 7.0)
    assert copy.retry_after == 23.0 and "(23 s left)" in copy.message and "30 s" not in copy.message
