"""Identical fetches at the same moment read the page once (docs/scaling.md, "questions in flight"),
through the single-flight table searches use: threads of one client, with a cache and without one,
and the module-level ``ws.fetch`` (process-wide, no cache without a state URL). Fetches that differ
in what shapes the answer (``max_chars`` here) are not collapsed.

The page is held back until every caller is either waiting for the first one's answer or has sent
a request of its own: without single flight, each sends one; with it, the upstream sees one."""

import threading
import time
from typing import Any

import pytest
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.client import flight

CALLERS = 4
#: How long the page is held at most (a test that fails stops waiting here instead of hanging).
HOLD_LIMIT_S = 30.0
PAGE = (
    b"<html><head><title>One page</title></head><body><article><h1>One page</h1>"
    + b"<p>%s</p>" % (b"Every caller reads this paragraph of plain prose about one page. " * 8)
    + b"</article></body></html>"
)


class HeldPage:
    """A page that answers once ``ready()`` says every caller is waiting or has asked; counts requests."""

    def __init__(self, ready: Any) -> None:
        self.ready = ready
        self.requests = 0
        self.lock = threading.Lock()

    def __call__(self, conn: Any, request: Any, server: FaultServer) -> None:
        with self.lock:
            self.requests += 1
        ends = time.monotonic() + HOLD_LIMIT_S
        while not self.ready(self.requests) and time.monotonic() < ends and not server.stopping.is_set():
            time.sleep(0.005)
        body = PAGE
        head = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
        conn.sendall((head % len(body)).encode() + body)


@pytest.fixture
def waiting(monkeypatch):
    """Counts the callers that wait for another thread's answer (``flight.wait_for``)."""
    count = [0]
    lock = threading.Lock()
    wait_for = flight.wait_for

    def counted(*args: Any) -> Any:
        with lock:
            count[0] += 1
        return wait_for(*args)

    monkeypatch.setattr(flight, "wait_for", counted)
    return count


def _fetch_together(call: Any, callers: int = CALLERS) -> list[Any]:
    results: list[Any] = [None] * callers

    def one(index: int) -> None:
        try:
            results[index] = call(index)
        except ws.WebSearchError as error:  # reported below, never lost in the thread
            results[index] = error

    threads = [threading.Thread(target=one, args=(index,)) for index in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HOLD_LIMIT_S + 30)
    return results


@pytest.mark.parametrize("cache_ttl_s", [300, 0])
def test_threads_fetching_one_page_at_once_send_one_request(waiting, cache_ttl_s):
    page = HeldPage(lambda requests: requests + waiting[0] >= CALLERS)
    with FaultServer({"/page": page}) as server, ws.SearchClient("stub", cache_ttl_s=cache_ttl_s) as client:
        results = _fetch_together(lambda _: client.fetch(server.url("/page"), allow_private=True, timeout_ms=60_000))
    assert all(isinstance(result, dict) for result in results), results
    assert {result["text"] for result in results} == {results[0]["text"]} and "plain prose" in results[0]["text"]
    assert (page.requests, waiting[0]) == (1, CALLERS - 1)


def test_module_level_fetches_from_threads_send_one_request(waiting):
    """``ws.fetch`` builds a client per call and keeps no cache without a state URL: the answer is
    handed over through the process-wide single-flight table."""
    page = HeldPage(lambda requests: requests + waiting[0] >= CALLERS)
    with FaultServer({"/page": page}) as server:
        results = _fetch_together(
            lambda _: ws.fetch(server.url("/page"), allow_private=True, timeout_ms=60_000, settings=ws.Settings())
        )
    assert all(isinstance(result, dict) for result in results), results
    assert (page.requests, waiting[0]) == (1, CALLERS - 1)


def test_fetches_asking_for_different_answers_are_not_collapsed(waiting):
    """``max_chars`` shapes the answer: two callers asking two cuts of one page each read it."""
    page = HeldPage(lambda requests: requests + waiting[0] >= 2)
    with FaultServer({"/page": page}) as server, ws.SearchClient("stub") as client:
        results = _fetch_together(
            lambda index: client.fetch(
                server.url("/page"), allow_private=True, timeout_ms=60_000, max_chars=100 + 100 * index
            ),
            callers=2,
        )
    assert [len(result["text"]) for result in results] == [100, 200]
    assert (page.requests, waiting[0]) == (2, 0)


def test_a_text_cut_by_the_first_callers_deadline_is_neither_handed_over_nor_cached(waiting, monkeypatch):
    """A long PDF read with a short deadline ends ``truncated_by: ["deadline"]``: a waiter with a
    longer one (and a later call) reads the page itself, as a search's partial answer is not shared.
    The first caller's read is marked cut by its deadline (a PDF's page-by-page cut, without its timing)."""
    from websearch_sync.reader import page as reader_page  # the client imports fetch_page from it at each read

    fetch_page = reader_page.fetch_page
    reads = [0]

    def cut_first(*args: Any, **kwargs: Any) -> Any:
        reads[0] += 1
        result = fetch_page(*args, **kwargs)
        if reads[0] == 1:
            result["truncated"], result["truncated_by"] = True, ["deadline"]
        return result

    monkeypatch.setattr(reader_page, "fetch_page", cut_first)
    page = HeldPage(lambda requests: requests + waiting[0] >= 2)
    with FaultServer({"/page": page}) as server, ws.SearchClient("stub", cache_ttl_s=300) as client:
        results = _fetch_together(lambda _: client.fetch(server.url("/page"), allow_private=True, timeout_ms=60_000), 2)
        later = client.fetch(server.url("/page"), allow_private=True, timeout_ms=60_000)
    assert sorted(tuple(result.get("truncated_by", ())) for result in results) == [(), ("deadline",)], results
    assert (page.requests, waiting[0]) == (2, 1)
    assert "truncated_by" not in later and page.requests == 2  # the waiter's whole text was cached, the cut one not


def test_a_shared_answer_says_the_url_its_caller_asked_for(waiting):
    """One page under two fragments and two spellings of the scheme is one question: each caller's
    ``url`` is still its own (the waiter's and a cache hit's said the first caller's)."""
    page = HeldPage(lambda requests: requests + waiting[0] >= 2)
    with FaultServer({"/page": page}) as server, ws.SearchClient("stub", cache_ttl_s=300) as client:
        asked = [server.url("/page") + "#intro", server.url("/page").replace("http://", "HTTP://") + "#refs"]
        results = _fetch_together(lambda index: client.fetch(asked[index], allow_private=True, timeout_ms=60_000), 2)
        later = client.fetch(server.url("/page") + "#end", allow_private=True, timeout_ms=60_000)
    assert [result["url"] for result in results] == asked and later["url"] == server.url("/page") + "#end"
    assert (page.requests, waiting[0]) == (1, 1)
