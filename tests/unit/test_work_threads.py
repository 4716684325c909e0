"""The work a call hands to threads (a merge's backends, ``include_content``'s pages) runs in
threads the interpreter does not wait for at its end, and none of it runs after the call ended
(a Ctrl-C, a budget spent). Where jobs are held, not run, no thread or clock decides the outcome."""

import asyncio
import queue
import threading
from types import SimpleNamespace

import pytest

import websearch_sync as ws
from websearch_sync.client import strategies
from websearch_sync.models import SearchParams
from websearch_sync.net import workers
from websearch_sync.net.deadline import Deadline
from websearch_sync.testing import MockResponse, MockWire, fake_results

PAGE = "<html><head><title>A</title></head><body><article><p>%s</p></article></body></html>" % ("Text. " * 80)


def test_merged_backends_run_in_daemon_threads():
    """Ctrl-C during a merge, or a process ending while a merged backend was still asking, waited
    for that backend's request (up to the call's deadline: 18.7 s after Ctrl-C against a server
    that never answered, 0.2 s for one backend): its thread was a thread pool's, which an
    interpreter joins before it ends. tests/sockets/test_interrupt.py times the real Ctrl-C."""
    seen = {}

    def answer(name):
        def items(params):
            seen[name] = threading.current_thread().daemon
            return [{"title": name, "url": "https://%s.example/" % name, "snippet": ""}]

        return items

    with fake_results({"bing_html": answer("bing"), "mojeek_html": answer("mojeek")}):
        with ws.SearchClient(["bing_html", "mojeek_html"], strategy="merge", cache_ttl_s=0) as client:
            response = client.search("q")
    assert response["provider_meta"]["providers"] == ["bing_html", "mojeek_html"]
    assert seen == {"bing": True, "mojeek": True}


def test_result_pages_are_read_in_daemon_threads():
    """``include_content`` read the result pages in a thread pool's threads: Ctrl-C while a page
    hung waited for it (10.4 s against a page answering after 12 s, now 0.2 s)."""
    readers = []

    def handler(request):
        readers.append(threading.current_thread().daemon)
        return MockResponse(200, {"Content-Type": "text/html; charset=utf-8"}, PAGE)

    items = [{"title": "A", "url": "https://a.example/", "snippet": ""}, {"title": "B", "url": "https://b.example/"}]
    with fake_results({"bing_html": items}):
        with ws.SearchClient("bing_html", wire=MockWire(handler), cache_ttl_s=0) as client:
            response = client.search("q", include_content=True)
    assert [item["content_by"] for item in response["items"]] == ["fetch", "fetch"]
    assert readers == [True, True]


@pytest.fixture
def held(monkeypatch):
    """The jobs handed to threads, kept here instead of run."""
    jobs = []
    monkeypatch.setattr(workers, "submit", lambda job, name: jobs.append(job))
    return jobs


def test_run_each_with_no_items_hands_out_no_job(held):
    """An empty list started one thread (``max(1, ...)``) only for it to find nothing to do."""
    assert workers.run_each(str, [], 4, "websearch-test") == []
    assert held == []


def test_an_awaited_job_given_up_on_before_it_started_never_runs_and_frees_its_slot(held):
    """The await takes the slot; a job handed out but not started when the await is cancelled is
    cancelled: it never runs, so its slot is given back here, or the bound would shrink by one."""
    slots, ran = threading.BoundedSemaphore(1), []

    async def give_up():
        call = asyncio.ensure_future(workers.run_awaited(lambda: ran.append(1), "websearch-test", slots))
        await asyncio.sleep(0)  # the call runs up to its await
        assert len(held) == 1  # handed out: the job waits for a thread (here, for ever)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call

    asyncio.run(give_up())
    held[0]()  # the thread would start it now
    assert ran == []
    assert slots.acquire(blocking=False)


def test_a_ctrl_c_while_handing_out_jobs_leaves_no_item_to_run(monkeypatch):
    """A KeyboardInterrupt at the second hand-over (as a SIGINT during ``Thread.start``): the job
    already handed ran every item after the caller had been interrupted; now they are cancelled."""
    jobs = []

    def submit(job, name):
        if jobs:
            raise KeyboardInterrupt
        jobs.append(job)

    monkeypatch.setattr(workers, "submit", submit)
    ran = []
    with pytest.raises(KeyboardInterrupt):
        workers.run_each(ran.append, list(range(10)), 4, "websearch-test")
    jobs[0]()  # the thread that got its job before the interrupt
    assert ran == []


def test_a_merge_runs_no_backend_its_budget_did_not_start(held):
    """A backend not started when the merge's budget has passed is a Timeout of that backend and
    is not run afterwards (it would send its request after the call returned)."""
    ran = []
    backends = [SimpleNamespace(name="first"), SimpleNamespace(name="second")]
    with pytest.raises(ws.Timeout) as info:
        strategies.merge(backends, SearchParams(query="q", max_results=5), Deadline(0), lambda b: ran.append(b.name))
    assert info.value.detail_code == "deadline_exceeded"
    for job in held:
        job()
    assert ran == []


def test_a_thread_beyond_the_idle_cap_ends_after_its_job(monkeypatch):
    """Idle threads grew to the peak concurrency and lived for the process (66 threads after 8
    include_content calls at once). A thread finishing its job when ``IDLE_MAX`` others wait ends;
    it used to take the next job put to it (here one raising), waiting for one forever."""
    monkeypatch.setattr(workers, "_idle", [object()] * workers.IDLE_MAX)
    jobs, ran = queue.SimpleQueue(), []

    def never():
        raise AssertionError("a second job was taken")

    jobs.put((lambda: ran.append(1), "websearch-test"))
    jobs.put((never, "websearch-test"))
    me = threading.current_thread()
    name = me.name
    try:
        workers._serve(jobs)  # in this thread: it returns after its job, or raises taking the second
    finally:
        me.name = name
    assert ran == [1] and len(workers._idle) == workers.IDLE_MAX


def test_a_cancelled_search_reads_none_of_its_result_pages():
    """A batch stopped (or an MCP call cancelled) while a query's backend answered: its
    ``include_content`` pages were still read, in threads that did not carry the call's cancel
    event, and through a gate that waited (and so checked it) only for a host with a pace."""
    from websearch_sync.client.clock import CallCancelled, CancellableClock

    clock, cancelled, sent = CancellableClock(), threading.Event(), []

    def answer(params):
        cancelled.set()  # stopped while the backend answered
        return [{"title": "A", "url": "https://a.example/", "snippet": ""}, {"title": "B", "url": "https://b.example/"}]

    def handler(request):
        sent.append(request.url)
        return MockResponse(200, {"Content-Type": "text/html; charset=utf-8"}, PAGE)

    with fake_results({"bing_html": answer}):
        with ws.SearchClient("bing_html", wire=MockWire(handler), cache_ttl_s=0, clock=clock) as client:
            with clock.cancellable(cancelled), pytest.raises(CallCancelled):
                client.search("q", include_content=True)
    assert sent == []


def test_a_cancelled_fetch_sends_nothing():
    """A fetch to a host with no pace waited for nothing, so its first request went out cancelled."""
    from websearch_sync.client.clock import CallCancelled, CancellableClock

    clock, cancelled, sent = CancellableClock(), threading.Event(), []
    cancelled.set()
    with ws.SearchClient("stub", wire=MockWire(lambda request: sent.append(request.url)), clock=clock) as client:
        with clock.cancellable(cancelled), pytest.raises(CallCancelled):
            client.fetch("https://a.example/")
    assert sent == []
