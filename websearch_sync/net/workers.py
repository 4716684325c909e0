"""Reusable daemon threads for the work a call hands off: a parse or an extraction that must end
at the deadline (:func:`.deadline.run_within`), work done several at a time (:func:`run_each`: a
merge's backends, the pages ``include_content`` reads), and whole calls an asyncio loop awaits
(:func:`run_awaited`: an MCP server's tool calls, an agent tool's ``arun``), which an
interpreter's end never waits for. (libcurl's transfer has a helper of its own, :mod:`.interrupt`.)

Starting a thread per call cost about a sixth of a warm search's CPU; a thread that finished
its job waits here for the next, up to :data:`IDLE_MAX` of them. While it runs a job it carries
the job's name (``websearch-parse``, ``websearch-extract``, ``websearch-mcp-call``,
``websearch-mcp-stdin``, ``websearch-mcp-stdout``, ``websearch-agent-tool``), and ``websearch-idle``
between jobs. Abandoned work keeps its thread until it stops (at a checkpoint, or at its own
deadline); new work then gets another thread. Threads do not survive ``fork``: a forked child
(an RQ worker's job, say) starts its own instead of handing work to threads it does not have.
A caller waits for its job with :func:`.waits.wait_for`, which Ctrl-C ends within a quarter second.
"""

import contextvars
import queue
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from functools import partial
from typing import TYPE_CHECKING, Callable, Optional, TypeVar

from ..forks import module_global, module_lock

if TYPE_CHECKING:  # loaded by run_awaited: a sync search or fetch never needs the loop's module (~10 ms)
    import asyncio

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

IDLE_NAME = "websearch-idle"

#: At most this many threads wait for work; one finishing its job beyond that ends. A call's own
#: peak (a merge's backends with their parse threads, ``include_content``'s 4 readers with their
#: extraction) stays under it, so calls one after another never start a thread; the peak of many
#: calls at once (a batch's ``--workers 8`` with ``include_content``: 66 threads) is not kept for
#: the life of the process.
IDLE_MAX = 16

#: How often an await waiting for one of :func:`run_awaited`'s ``slots`` looks again (a threading
#: semaphore cannot be awaited; the wait stays on the loop so that calls waiting their turn hold no thread).
SLOT_POLL_S = 0.05

T = TypeVar("T")
A = TypeVar("A")

#: The job queues of the threads waiting for work: none in a forked child (the parent's threads are not there).
_idle: list["queue.SimpleQueue[tuple[Callable[[], None], str]]"] = module_global(__name__, "_idle", list)
_lock = module_lock(__name__, "_lock")  # a thread that is not in a forked child may have held it


def submit(job: Callable[[], None], name: str) -> None:
    """Run ``job`` (which must not raise: it reports its own outcome) in an idle thread, or a new one."""
    with _lock:
        jobs = _idle.pop() if _idle else None
    if jobs is None:
        jobs = queue.SimpleQueue()
        threading.Thread(target=_serve, args=(jobs,), name=IDLE_NAME, daemon=True).start()
    jobs.put((job, name))


def run_each(work: Callable[[A], T], items: Sequence[A], threads: int, name: str) -> "list[Future[T]]":
    """``work(item)`` for every item, in at most ``threads`` of these daemon threads; the futures,
    in the order of ``items``. Cancelling a future that has not started keeps its item from
    running; an exception while the jobs are handed out (a Ctrl-C) cancels them all. Each thread
    runs in a copy of the caller's context (its context variables: a call's cancellation). Not a thread pool: an interpreter joins a pool's threads before it ends, so a Ctrl-C
    (or the end of a script) waited for work still running, up to its deadline."""
    futures: list[Future[T]] = [Future() for _ in items]
    indexes = iter(range(len(items)))
    lock = threading.Lock()

    def job() -> None:
        while True:
            with lock:
                index = next(indexes, None)
            if index is None:
                return
            if not futures[index].set_running_or_notify_cancel():  # cancelled before it started
                continue
            try:
                futures[index].set_result(work(items[index]))
            except BaseException as exc:  # the waiting thread raises it: a bug is not hidden
                futures[index].set_exception(exc)

    try:
        for _ in range(min(threads, len(items))):
            # each thread in a copy of the caller's context (one copy per thread: a context cannot be
            # entered by two at once): what the call's waits obey (a cancellation) its jobs obey too
            submit(partial(contextvars.copy_context().run, job), name)
    except BaseException:  # Ctrl-C while handing jobs out: the jobs already handed out run no item
        for future in futures:
            future.cancel()
        raise
    return futures


async def run_awaited(work: Callable[[], T], name: str, slots: Optional[threading.BoundedSemaphore] = None) -> T:
    """``work()`` in one of these daemon threads, awaited on the running asyncio loop; cancelling the
    await abandons the work, whose thread goes on until it stops (as :func:`run_each`'s). Not
    ``asyncio.to_thread``: ``asyncio.run`` waits for its executor's threads before it returns, and
    the interpreter before it ends, so an agent that gave up on a call (a timeout, a cancelled run)
    waited for its request up to the call's deadline; an MCP server whose client had gone too.

    ``slots``: the work starts once it holds one, taken on the loop (work waiting its turn holds no
    thread, and work abandoned meanwhile never starts), and keeps it until it really ends, so
    abandoned work keeps its place (calls given up on and retried never push the upstream requests
    at once past the bound)."""
    import asyncio  # loaded once awaited: already loaded, as the loop awaiting it runs

    if slots is not None:
        while not slots.acquire(blocking=False):
            await asyncio.sleep(SLOT_POLL_S)
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[T] = loop.create_future()

    def run(_: None) -> T:
        try:
            return work()
        finally:
            if slots is not None:
                slots.release()

    try:
        [future] = run_each(run, [None], 1, name)
    except BaseException:  # handed out to no thread (run_each cancelled it): its slot is free
        if slots is not None:
            slots.release()
        raise

    def report(done: "Future[T]") -> None:
        # not ``asyncio.wrap_future``: its report from this thread raised, and logged, when the loop
        # closed between the work's end and the report (an agent's run ending as its abandoned call did)
        try:
            loop.call_soon_threadsafe(_settle, answer, done)
        except RuntimeError:  # the loop has closed: no one is left to read the answer
            pass

    future.add_done_callback(report)
    try:
        return await answer
    except asyncio.CancelledError:
        if future.cancel() and slots is not None:  # not started yet: it never runs, nor frees its slot
            slots.release()
        raise


def _settle(answer: "asyncio.Future[T]", done: "Future[T]") -> None:
    """Give ``answer`` (an asyncio future, on its loop) the outcome of ``done``, unless it was cancelled."""
    if answer.cancelled():
        return
    if done.cancelled():
        answer.cancel()
        return
    error = done.exception()
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(done.result())


def _serve(jobs: "queue.SimpleQueue[tuple[Callable[[], None], str]]") -> None:
    me = threading.current_thread()
    while True:
        job, name = jobs.get()
        me.name = name
        try:
            job()
        finally:
            me.name = IDLE_NAME
        with _lock:
            if len(_idle) >= IDLE_MAX:
                return  # no one else holds ``jobs``: nothing more can be put in it
            _idle.append(jobs)
