"""Within ``replay_fixtures`` and ``fake_results`` the clients' waits take no real time, as in
``verify``'s replay: a recorded 429's ``Retry-After``, waited before each retry, protects no
server. A plugin author's test replaying their recorded 429 (``Retry-After: 3``, two retries)
slept 6 s of real time."""

import threading
from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.client.cache import MemoryCache, SqliteCache
from websearch_sync.client.clock import SYSTEM_CLOCK
from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.net import waits, workers
from websearch_sync.testing import fake_results, replay_fixtures, reset

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


def test_waits_are_real_again_after_the_block_and_the_clock_never_goes_back(real_sleeps):
    """After the block, waits take real time again, but the clock's readings do not go back by
    the time skipped: a deadline or an elapsed time measured across the block's end stays right."""
    with fake_results({"ddg_html": []}):
        SYSTEM_CLOCK.sleep(30.0)
        inside = SYSTEM_CLOCK.monotonic()
    assert SYSTEM_CLOCK.monotonic() >= inside  # was 30 s back
    SYSTEM_CLOCK.sleep(0.25)
    assert real_sleeps == [0.25]


def test_other_threads_wait_for_real_while_a_block_is_open(real_sleeps):
    """Only the block's context skips waits, and the library's work threads it hands work to (a
    merge's backends): an application thread's waits were skipped while any block was open."""
    with fake_results({"ddg_html": []}):
        app = threading.Thread(target=SYSTEM_CLOCK.sleep, args=(2.0,))
        app.start()
        app.join()
        assert real_sleeps == [2.0]
        workers.run_each(SYSTEM_CLOCK.sleep, [3.0], 1, "websearch-test")[0].result(60)
    assert real_sleeps == [2.0]  # the library's worker skipped its wait


def test_an_elapsed_time_across_the_blocks_end_is_not_negative():
    """A thread started in the block, still measuring after it closed, read the clock going back."""
    readings: list[float] = []
    started, go_on = threading.Event(), threading.Event()

    def measure() -> None:
        readings.append(SYSTEM_CLOCK.monotonic())
        started.set()
        go_on.wait(60)
        readings.append(SYSTEM_CLOCK.monotonic())

    with fake_results({"ddg_html": []}):
        SYSTEM_CLOCK.sleep(5.0)
        thread = threading.Thread(target=measure)
        thread.start()
        started.wait(60)
    go_on.set()
    thread.join()
    assert readings[1] >= readings[0]  # was 5 s back


def test_a_pace_slot_booked_in_the_block_is_not_held_the_skipped_time_longer():
    limiter = RateLimiter(SYSTEM_CLOCK)
    with fake_results({"ddg_html": []}):
        limiter.reserve("x", 1.0, 1000)
        SYSTEM_CLOCK.sleep(60.0)  # a skipped Retry-After
        limiter.reserve("x", 1.0, 1000)
    wait = limiter.reserve("x", 1.0, 1000)
    assert wait is not None and wait <= 1.0  # one interval at most (was 61 s)


def test_wall_time_is_not_moved_by_skipped_waits(tmp_path):
    """Wall time is what files and other processes read: a cache row written in the block is not
    from the future (pruned by the next reader), and messages show the real time of day."""
    cache = SqliteCache(str(tmp_path / "cache.sqlite"), ttl_s=60)
    before = SYSTEM_CLOCK.time()
    with fake_results({"ddg_html": []}):
        SYSTEM_CLOCK.sleep(3600.0)
        assert SYSTEM_CLOCK.time() - before < 3600 / 2  # was an hour ahead
        cache.set("k", {"results": []})
    try:
        assert cache.lookup("k") is not None
        other = SqliteCache(str(tmp_path / "cache.sqlite"), ttl_s=60)  # another reader, on real time
        try:
            assert other.lookup("k") is not None
        finally:
            other.close()
    finally:
        cache.close()


def test_a_memory_cache_entry_written_in_the_block_lasts_its_ttl():
    cache = MemoryCache(ttl_s=60)
    with fake_results({"ddg_html": []}):
        SYSTEM_CLOCK.sleep(10.0)
        cache.set("k", {"results": []})
    assert cache._data["k"][0] - SYSTEM_CLOCK.monotonic() <= 60  # noqa: SLF001 (was 70)


def test_a_cool_down_met_in_the_block_lasts_its_own_time_after_it():
    """A fake's 429 asking 600 s, met after an hour of skipped waits, said "4200 s left" after the
    block (the hour came back on top of it): the block's clock went back to real time as it closed."""
    blocked = ws.WebBlocked("slow down", detail_code="http_429", retry_after=600)
    with fake_results({"ddg_html": blocked}):
        SYSTEM_CLOCK.sleep(3600.0)
        with pytest.raises(ws.WebBlocked):
            ws.search("q", backend="ddg_html", retries=0)
    with fake_results({"ddg_html": []}), pytest.raises(ws.WebBlocked, match="cooling down") as caught:
        ws.search("q", backend="ddg_html", retries=0)
    assert 0 < caught.value.retry_after <= 600


def test_reset_sets_the_clock_back_to_real_time_once_the_blocks_are_closed(real_sleeps):
    """``reset()`` (before each test) forgets the time skipped with what was paced and cooled on it;
    within an open block it keeps skipping."""
    before = SYSTEM_CLOCK.monotonic()
    with fake_results({"ddg_html": []}):
        SYSTEM_CLOCK.sleep(3600.0)
        reset()
        SYSTEM_CLOCK.sleep(5.0)
        assert real_sleeps == []
    reset()
    assert SYSTEM_CLOCK.monotonic() - before < 3600 / 2


def _in_another_thread(call):
    """``call()``'s result or error, run in a thread of the application (its own context: real time)."""
    outcome = []

    def run():
        try:
            outcome.append(call())
        except ws.WebSearchError as error:
            outcome.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return outcome[0]


def test_a_faked_block_met_on_skipped_time_reaches_no_thread_of_the_next_test():
    """A fake's 429 met after 60 s of skipped waits cools ``ddg_html`` down on the block's clock:
    another thread of the same test (real time) is refused too, seeing it last the skipped time
    longer (docs/contract.md). ``reset()``, which the plugin runs before each test, forgets it for
    every thread: the next test's threads ask the backend. It forgets the skipped time too: else the
    test's own thread, 60 s ahead, read a block another thread of the next test met (30 s on real
    time) as over, and asked the backend it cools down."""
    blocked = ws.WebBlocked("slow down", detail_code="http_429", retry_after=30)
    with fake_results({"ddg_html": blocked}):
        SYSTEM_CLOCK.sleep(60.0)
        with pytest.raises(ws.WebBlocked):
            ws.search("q", backend="ddg_html", retries=0)
        refused = _in_another_thread(lambda: ws.search("q", backend="ddg_html", retries=0))
    reset()
    found = [{"title": "T", "url": "https://t.example/", "snippet": "s"}]
    with fake_results({"ddg_html": found}):
        asked = _in_another_thread(lambda: ws.search("q", backend="ddg_html", retries=0))
    assert isinstance(refused, ws.WebBlocked) and "cooling down" in refused.message
    assert isinstance(asked, dict) and asked["items"], asked

    def met_there():
        with fake_results({"ddg_html": blocked}):
            return ws.search("q", backend="ddg_html", retries=0)

    assert isinstance(_in_another_thread(met_there), ws.WebBlocked)
    with fake_results({"ddg_html": found}), pytest.raises(ws.WebBlocked, match="cooling down"):
        ws.search("q", backend="ddg_html", retries=0)
