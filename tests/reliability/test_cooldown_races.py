"""Cool-downs shared by threads: the two races the concurrency test found, pinned down
with a deterministic order of events (the server holds an answer until a thread got
where the race needs it; the rate-limit wait runs on a fake clock).

1. A thread that passed the cool-down check and then slept for its rate-limit slot sent
   its request although another thread had met a block meanwhile.
2. A request already under way when another thread met a block lifted the new cool-down
   when it succeeded, so the next calls went to the blocked service again.
"""

import threading

import pytest
from clocks import FakeClock
from faults import gated, respond, sequence
from servers import FaultServer

import websearch_sync as ws

GOOD = b'{"type": "search", "web": {"results": [{"title": "A", "url": "https://a.example/", "description": "a"}]}}'
TOO_MANY = respond(429, b"slow down", content_type="text/plain")
OK = respond(200, GOOD, content_type="application/json")


def client_for(server, **kwargs):
    settings = ws.Settings(endpoints={"brave": server.url("/s")}, providers={"brave": {"api_key": "race-key-123"}})
    return ws.SearchClient("brave", settings=settings, retries=0, cache_ttl_s=0, cooldowns={"http_429": 5}, **kwargs)


def in_thread(function):
    outcome = {}

    def run():
        try:
            outcome["result"] = function()
        except ws.WebSearchError as error:
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def received(event, inner):
    """A handler that says the request arrived, then answers with ``inner``."""

    def handler(conn, request, server):
        event.set()
        inner(conn, request, server)

    return handler


def test_a_thread_waiting_for_its_rate_limit_slot_does_not_send_into_a_new_cool_down():
    # request 2's slot is 0.5 s after request 1's; request 1 is answered 429 while thread 2 waits for it
    arrived, waiting, threads = threading.Event(), threading.Event(), {}

    def meanwhile(seconds):
        waiting.set()  # thread 2 passed the cool-down check and waits for its slot ...
        threads["first"].join(5)  # ... while thread 1 meets the block

    with FaultServer({"/s": sequence(received(arrived, gated(waiting, TOO_MANY)), OK)}) as server:
        with client_for(server, min_interval_s=0.5, clock=FakeClock(on_sleep=meanwhile)) as client:
            first, first_outcome = in_thread(lambda: client.search("q", timeout_ms=3000))
            threads["first"] = first
            assert arrived.wait(5)
            second, second_outcome = in_thread(
                lambda: client.search("q2", timeout_ms=3000)
            )  # not "q": it would wait for that answer
            first.join(5)
            second.join(5)
        assert first_outcome["error"].detail_code == "http_429"
        assert isinstance(second_outcome.get("error"), ws.WebBlocked), second_outcome
        assert "cooling down" in second_outcome["error"].message
        assert len(server.requests) == 1, "a request went out during the cool-down"


def test_a_success_already_under_way_does_not_lift_a_newer_cool_down():
    # request 1 is under way; request 2 is answered 429 at once; then request 1 succeeds
    arrived, blocked = threading.Event(), threading.Event()
    with FaultServer({"/s": sequence(received(arrived, gated(blocked, OK)), TOO_MANY, OK)}) as server:
        with client_for(server, min_interval_s=0) as client:
            first, first_outcome = in_thread(lambda: client.search("q", timeout_ms=3000))
            assert arrived.wait(5)
            with pytest.raises(ws.WebBlocked):  # another question: an identical one would wait for the first's answer
                client.search("q2", timeout_ms=3000)
            blocked.set()
            first.join(5)
            assert first_outcome["result"]["items"]  # the stale success arrived after the block
            with pytest.raises(ws.WebBlocked) as info:
                client.search("q3", timeout_ms=3000)
        assert "cooling down" in info.value.message
        assert len(server.requests) == 2


def test_a_success_after_the_cool_down_ended_still_clears_it():
    with FaultServer({"/s": sequence(TOO_MANY, OK)}) as server:
        settings = ws.Settings(endpoints={"brave": server.url("/s")}, providers={"brave": {"api_key": "race-key-123"}})
        clock = FakeClock()
        with ws.SearchClient(
            "brave",
            settings=settings,
            retries=0,
            cache_ttl_s=0,
            min_interval_s=0,
            cooldowns={"http_429": 0.2},
            clock=clock,
        ) as client:
            with pytest.raises(ws.WebBlocked):
                client.search("q")
            clock.advance(0.25)
            assert client.search("q")["items"]


def test_a_block_met_right_after_this_threads_check_is_not_lifted_by_its_success():
    """3. Another thread may record a block between this thread's cool-down check and its
    send: this request was already under way, so its success must not lift that block."""
    with FaultServer({"/s": OK}) as server:
        with client_for(server) as client:
            cooldowns = client._cooldowns
            check = cooldowns.check
            raced = []

            def check_then_another_thread_blocks(name, *args):
                check(name, *args)
                if not raced:  # the other thread meets the wall just after this check passed
                    raced.append(name)
                    cooldowns.record(ws.WebBlocked("slow down", provider=name, detail_code="http_429", status=429))

            cooldowns.check = check_then_another_thread_blocks
            assert client.search("q")["items"]  # this request was under way: it succeeds
            cooldowns.check = check
            with pytest.raises(ws.WebBlocked):  # and the block still stands
                client.search("q2")
    assert len(server.requests) == 1
