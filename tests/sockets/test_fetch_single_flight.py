"""Identical fetches at the same moment read the page once (docs/scaling.md, "questions in flight"),
through the single-flight table searches use: threads of one client, with a cache and without one,
and the module-level ``ws.fetch`` (process-wide, no cache without a state URL). Fetches that differ
in what shapes the answer (``max_chars`` here) are not collapsed. The pages ``include_content``
reads go through the same flight and cache. A failure that is the waiters' answer too (a 404, a key
refused) reaches them as a copy; one their own attempt may mend (a 502) does not.

The page is held back until every caller is either waiting for the first one's answer or has sent
a request of its own: without single flight, each sends one; with it, the upstream sees one."""

import threading
import time
from typing import Any

import pytest
from servers import FaultServer, json_results

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

    def __init__(self, ready: Any, status: str = "200 OK", body: bytes = PAGE) -> None:
        self.ready = ready
        self.status, self.body = status, body
        self.requests = 0
        self.lock = threading.Lock()

    def __call__(self, conn: Any, request: Any, server: FaultServer) -> None:
        with self.lock:
            self.requests += 1
        ends = time.monotonic() + HOLD_LIMIT_S
        while not self.ready(self.requests) and time.monotonic() < ends and not server.stopping.is_set():
            time.sleep(0.005)
        body = self.body
        head = (
            "HTTP/1.1 %s\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
        )
        conn.sendall((head % (self.status, len(body))).encode() + body)


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


def test_the_pages_of_include_content_are_read_once_by_two_searches_at_once(waiting, json_backends):
    """Two searches (two queries: two questions) whose results are the same page: the page is one
    question, read once; the other search's reader waits for it."""
    json_backends("aa")
    page = HeldPage(lambda requests: requests + waiting[0] >= 2)
    with FaultServer({"/page": page}) as server:
        server.routes["/aa"] = json_results(server.url("/page"))
        settings = ws.Settings(endpoints={"aa": server.url("/aa")}, allow_private=True)
        with ws.SearchClient("aa", settings=settings) as client:
            results = _fetch_together(
                lambda index: client.search("query %d" % index, include_content=True, timeout_ms=60_000), 2
            )
    assert all(isinstance(result, dict) for result in results), results
    assert ["plain prose" in result["items"][0]["content"] for result in results] == [True, True]
    assert (page.requests, waiting[0]) == (1, 1)


def test_include_content_and_fetch_share_a_page_read_with_the_same_arguments(json_backends):
    """A page include_content read (text, ``max_content_chars``) is fetch's cached answer to the same
    arguments, and the other way round; a fetch asking another cut (markdown) reads the page again."""
    json_backends("aa")
    page = HeldPage(lambda requests: True)
    with FaultServer({"/page": page}) as server:
        server.routes["/aa"] = json_results(server.url("/page"))
        settings = ws.Settings(endpoints={"aa": server.url("/aa")}, allow_private=True)
        with ws.SearchClient("aa", settings=settings) as client:
            fetched = client.fetch(server.url("/page") + "#top", extract_mode="text", max_chars=300)
            found = client.search("q", include_content=True, max_content_chars=300)
            assert page.requests == 1  # read by fetch, found in its cache by include_content
            client.search("another", include_content=True, max_content_chars=200)
            again = client.fetch(server.url("/page"), extract_mode="text", max_chars=200)
            assert page.requests == 2  # read by include_content, found in the cache by fetch
            client.fetch(server.url("/page"), max_chars=200)
    assert found["items"][0]["content"] == fetched["text"] and len(fetched["text"]) == 300
    assert fetched["url"].endswith("#top") and again["url"] == server.url("/page")
    assert page.requests == 3


def test_the_pages_include_content_reads_push_no_search_answer_out_of_memory(json_backends):
    """Pages are cached in memory of their own: with room for two answers, a search that read three
    pages is still an answer in memory (in one cache, ~93 searches of 10 pages filled 1,024 entries)."""
    json_backends("aa")
    page = HeldPage(lambda requests: True)
    with FaultServer({"/page": page}) as server:
        server.routes["/aa"] = json_results(*(server.url("/page?n=%d" % n) for n in range(3)))
        settings = ws.Settings(endpoints={"aa": server.url("/aa")}, allow_private=True)
        with ws.SearchClient("aa", settings=settings, cache_ttl_s=300) as client:
            client._cache.memory.max_entries = 2  # noqa: SLF001 - the search answers' room, made small
            client.search("q", include_content=True)
            again = client.search("q", include_content=True)
            fetched = client.fetch(server.url("/page?n=1"), extract_mode="text", max_chars=4000)
    assert again["provider_meta"]["cached"] is True and [r.route for r in server.requests].count("/aa") == 1
    assert fetched["text"] == again["items"][1]["content"] and page.requests == 3  # the page, from memory


@pytest.mark.parametrize(
    ("status", "code", "requests"),
    [
        ("404 Not Found", "WebProviderError", 1),  # the page's answer: the waiters' too
        ("502 Bad Gateway", "BadGateway", CALLERS),  # a retry may mend it: each waiter asks itself
    ],
)
def test_a_failed_fetch_reaches_the_waiters_as_a_copy_unless_their_own_attempt_may_mend_it(
    waiting, status, code, requests
):
    page = HeldPage(lambda sent: sent + waiting[0] >= CALLERS, status=status, body=b"")
    with FaultServer({"/page": page}) as server, ws.SearchClient("stub", retries=0) as client:
        results = _fetch_together(lambda _: client.fetch(server.url("/page"), allow_private=True, timeout_ms=60_000))
    assert [type(result).__name__ for result in results] == [code] * CALLERS
    assert page.requests == requests


def test_a_fetch_waiters_copy_of_a_failure_is_redacted_with_its_secrets(waiting, monkeypatch):
    """A failure reaching ``fetch`` unredacted (a reader that quotes a key) reaches its caller and the
    waiter's copy redacted, as a search's and its waiters' are (``_read_page`` redacts both)."""
    from websearch_sync.reader import page as reader_page  # the client imports fetch_page from it at each read

    secret = "sk-flight-secret-0123456789"

    def refused(url: str, **kwargs: Any) -> Any:
        ends = time.monotonic() + HOLD_LIMIT_S
        while waiting[0] < 1 and time.monotonic() < ends:  # until the other caller waits for this one
            time.sleep(0.005)
        raise ws.WebProviderError("refused with key %s" % secret, detail_code="http_404", status=404)

    monkeypatch.setattr(reader_page, "fetch_page", refused)
    settings = ws.Settings(fetch_service_key=secret)
    with ws.SearchClient("stub", settings=settings, retries=0) as client:
        results = _fetch_together(lambda _: client.fetch("https://example.org/page", timeout_ms=60_000), 2)
    assert [type(result).__name__ for result in results] == ["WebProviderError"] * 2 and waiting[0] == 1
    assert [secret in str(result) for result in results] == [False, False]


def test_a_search_refused_for_its_key_reaches_the_waiters_as_a_copy(waiting, json_backends):
    """An AuthError (401) is the answer of every identical search: the waiters raise it, unsent."""
    json_backends("aa")
    refusal = HeldPage(lambda sent: sent + waiting[0] >= CALLERS, status="401 Unauthorized", body=b"")
    with FaultServer({"/aa": refusal}) as server:
        settings = ws.Settings(endpoints={"aa": server.url("/aa")})
        with ws.SearchClient("aa", settings=settings) as client:
            results = _fetch_together(lambda _: client.search("q", timeout_ms=60_000))
    assert [type(result).__name__ for result in results] == ["AuthError"] * CALLERS
    assert (refusal.requests, waiting[0]) == (1, CALLERS - 1)
