"""The rate limiter's slots at their edges (fake clock, in-process, no shared tier unless stood in
for): a free slot for a request that may wait for none, queued bookings an interval apart, a late
departure pushing the next slot, and a slot handed on only by the request that booked it."""

import threading

import pytest
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.client.ratelimit import HANDOVER_S, RateLimiter

NAME = "brave"


def test_a_request_that_may_wait_for_no_slot_takes_a_free_one():
    """``max_wait_s=0`` (a request at once): a slot free now is booked (wait 0), the next one is not."""
    limiter = RateLimiter(FakeClock())
    assert limiter.reserve(NAME, 1.0, 0.0) == 0.0
    assert limiter.reserve(NAME, 1.0, 0.0) is None


def test_a_slot_exactly_as_far_as_the_wait_allowed_is_booked():
    limiter = RateLimiter(FakeClock())
    limiter.reserve(NAME, 2.0, 10.0)
    assert limiter.reserve(NAME, 2.0, 2.0) == 2.0


def test_queued_bookings_are_an_interval_apart_and_say_when_the_next_is_free():
    clock = FakeClock()
    limiter = RateLimiter(clock)
    assert [limiter.reserve(NAME, 1.5, 10.0) for _ in range(3)] == [0.0, 1.5, 3.0]
    assert limiter.next_free_in(NAME) == 4.5
    clock.advance(5.0)
    assert limiter.next_free_in(NAME) == 0.0


def test_a_late_departure_pushes_the_next_slot_an_interval_after_it():
    """A request booked at 0 s that really left at 0.8 s (a loaded machine woke it late): the next
    booking comes an interval after it left, not after its booked slot."""
    clock = FakeClock()
    limiter = RateLimiter(clock)
    limiter.reserve(NAME, 1.0, 10.0)
    clock.advance(0.8)
    assert limiter.sending(NAME, 1.0) == 0.0
    assert limiter.reserve(NAME, 1.0, 10.0) == pytest.approx(1.0)
    assert limiter.sending(NAME, 1.0) == pytest.approx(1.0)  # not before an interval since it left


def test_a_slot_given_up_is_handed_on_but_only_by_the_thread_and_name_that_booked_it():
    clock = FakeClock()
    limiter = RateLimiter(clock)
    assert limiter.reserve(NAME, 1.0, 10.0) == 0.0
    limiter.release("mojeek")  # not its booking: nothing handed on
    assert limiter.next_free_in(NAME) == 1.0
    limiter.release(NAME)
    assert limiter.next_free_in(NAME) == 0.0
    limiter.reserve(NAME, 1.0, 10.0)
    limiter.reserve(NAME, 1.0, 10.0)  # this thread's last booking: 1 s away
    limiter.release(NAME)  # handed on: the slot after it is free again, 1 s away
    assert limiter.next_free_in(NAME) == 1.0
    assert limiter.reserve(NAME, 1.0, 10.0) == 1.0


def test_a_slot_used_is_not_handed_on():
    """After its request left (``sending``), a release (its error on the way up) hands nothing on."""
    limiter = RateLimiter(FakeClock())
    limiter.reserve(NAME, 1.0, 10.0)
    assert limiter.sending(NAME, 1.0) == 0.0
    limiter.release(NAME)
    assert limiter.next_free_in(NAME) == 1.0


def test_a_release_after_a_later_booking_leaves_that_booking_its_turn():
    """Thread A books, thread B books the slot after; A gives up: B's slot stays taken (its turn),
    the next free one is after B's."""
    clock = FakeClock()
    limiter = RateLimiter(clock)
    limiter.reserve(NAME, 1.0, 10.0)
    other = threading.Thread(target=limiter.reserve, args=(NAME, 1.0, 10.0))
    other.start()
    other.join()
    limiter.release(NAME)
    assert limiter.next_free_in(NAME) == 2.0


class _Tier:
    """A shared slots tier that books every slot at once and notes every departure; ``failing``: it
    cannot take a release (the state required and down: ``NetworkError``)."""

    timeout_s = 0.1

    def __init__(self, failing=False):
        self.failing = failing
        self.released = []

    def fits(self, left_s):
        return True

    def reserve(self, name, interval, max_wait_s, not_before_s=0.0, left_s=None):
        return True, 0.0, (1, 1)

    def sending(self, name, interval, left_s=None):
        return 0.0

    def release(self, name, booking, left_s=None):
        if self.failing:
            raise ws.NetworkError("the shared state is unavailable", detail_code="state_unavailable")
        self.released.append(booking)

    def fleet(self, name):
        return 1


def test_a_release_the_shared_tier_cannot_take_never_raises():
    """``release`` runs while the request's own error is on its way up: it must not replace it."""
    limiter = RateLimiter(FakeClock(), shared=_Tier(failing=True))
    assert limiter.reserve(NAME, 1.0, 10.0) == 0.0
    limiter.release(NAME)  # no error


def test_a_shared_slot_used_is_not_handed_on():
    """Noted as leaving in the shared tier, the request's slot is used: a release asks the tier nothing."""
    tier = _Tier()
    limiter = RateLimiter(FakeClock(), shared=tier)
    limiter.reserve(NAME, 1.0, 10.0)
    assert limiter.sending(NAME, 1.0) == 0.0
    limiter.release(NAME)
    assert tier.released == []
    limiter.reserve(NAME, 1.0, 10.0)
    limiter.release(NAME)  # not used: handed on
    assert tier.released == [(1, 1)]


class _OutageTier(_Tier):
    """A shared slots tier that can be down (``up``), counting ``processes`` in the fleet."""

    def __init__(self):
        super().__init__()
        self.up, self.processes = True, 1

    def reserve(self, name, interval, max_wait_s, not_before_s=0.0, left_s=None):
        return super().reserve(name, interval, max_wait_s, not_before_s, left_s) if self.up else None

    def fleet(self, name):
        return self.processes


def test_after_an_outage_a_process_keeps_its_share_for_the_handover_only():
    """Four processes shared the pace; Redis goes, then comes back empty (it counts only this
    process yet): the process keeps its quarter for ``HANDOVER_S``, then paces by the fleet the
    tier counts."""
    clock = FakeClock()
    tier = _OutageTier()
    limiter = RateLimiter(clock, shared=tier)
    tier.processes = 4
    limiter.reserve(NAME, 1.0, 10.0)
    tier.up = False  # its fleet: the one counted when it last answered
    clock.advance(10.0)
    assert limiter.reserve(NAME, 1.0, 10.0) == 0.0  # booked here, at its share
    assert limiter.next_free_in(NAME) == 4.0
    tier.up, tier.processes = True, 1
    clock.advance(10.0)
    limiter.reserve(NAME, 1.0, 10.0)
    assert limiter.next_free_in(NAME) == 4.0  # the handover: still its share
    clock.advance(HANDOVER_S + 10.0)
    limiter.reserve(NAME, 1.0, 10.0)
    assert limiter.next_free_in(NAME) == 1.0
