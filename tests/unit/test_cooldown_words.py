"""What a cool-down says: the words of the block it follows, never its own words quoted back."""

import pytest
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.client.cooldown import Cooldowns
from websearch_sync.client.tiers import SharedBlock


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

    def absent(self, name, left_s=None):
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
