"""Within ``replay_fixtures`` and ``fake_results`` the clients' waits take no real time, as in
``verify``'s replay: a recorded 429's ``Retry-After``, waited before each retry, protects no
server. A plugin author's test replaying their recorded 429 (``Retry-After: 3``, two retries)
slept 6 s of real time."""

from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.client.clock import PROCESS_SKIPS, SYSTEM_CLOCK
from websearch_sync.net import waits
from websearch_sync.testing import fake_results, replay_fixtures

FIXTURES_DIR = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture
def real_sleeps(monkeypatch):
    """Every wait that would have taken real time, recorded instead of slept."""
    slept: list[float] = []
    monkeypatch.setattr(waits, "sleep", slept.append)
    return slept


def test_a_replayed_retry_after_is_skipped(real_sleeps, tmp_path):
    (tmp_path / "service").mkdir()
    for recorded in (FIXTURES_DIR / "service").glob("http_429_retry_after.*"):  # its only case of that query
        (tmp_path / "service" / recorded.name).write_bytes(recorded.read_bytes())
    before = SYSTEM_CLOCK.monotonic()
    with replay_fixtures(tmp_path, backends="service") as replay:
        with pytest.raises(ws.WebBlocked) as caught:
            ws.search("eino", backend="service", retries=2, timeout_ms=60_000)
        moved = SYSTEM_CLOCK.monotonic() - before
    assert caught.value.detail_code == "http_429" and len(replay.calls) == 3  # the case's 429, retried twice
    assert real_sleeps == []
    assert moved >= 10  # the clock moved on by the two waits of Retry-After: 5


def test_a_given_retry_after_is_skipped(real_sleeps):
    blocked = ws.WebBlocked("slow down", detail_code="http_429", retry_after=4)
    with fake_results({"ddg_html": blocked}) as fake:
        with pytest.raises(ws.WebBlocked):
            ws.search("q", backend="ddg_html", retries=1, timeout_ms=60_000)
    assert len(fake.calls) == 2 and real_sleeps == []


def test_waits_and_time_are_real_again_after_the_block(real_sleeps):
    """Time read outside the blocks is the real clock's: a test comparing a server's ``time.monotonic()``
    log with the client's slots failed after an earlier test's block had skipped waits."""
    with fake_results({"ddg_html": []}):
        SYSTEM_CLOCK.sleep(30.0)
        assert PROCESS_SKIPS.offset_s >= 30  # the clock's readings run 30 s ahead of time.monotonic()
    assert PROCESS_SKIPS.offset_s == 0  # and are time.monotonic()'s again
    SYSTEM_CLOCK.sleep(0.25)
    assert real_sleeps == [0.25]
