"""A batch job running its searches in a ``concurrent.futures`` process pool, with either start
method: a worker's results, the settings it was given and the errors it raised come back as they
were (tests/unit/test_error_objects.py pickles every error class in-process; this is the real trip,
once per start method). No network: the offline stub, and a mocked wire for the failing chain."""

import concurrent.futures
import multiprocessing
import signal
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import websearch_sync as ws
from websearch_sync.errors import RenewalFailed
from websearch_sync.testing import MockResponse, MockWire

#: A bound for a pool that broke or hung, never reached by one that works (a spawned worker starts
#: a Python and imports the library: about a second on an idle machine).
HANG_S = 300.0


@contextmanager
def _pool(method: str) -> Iterator[concurrent.futures.ProcessPoolExecutor]:
    """A pool of one worker started by ``method``, whose end waits for no worker: leaving a
    ``with ProcessPoolExecutor`` waited for a hung worker without bound (``shutdown(wait=True)``).
    Its worker is ended, killed if it must be, and waited for, bounded."""
    pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context(method))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # 3.12+: a fork of a process with threads
            yield pool
    finally:
        workers = list((pool._processes or {}).values())
        manager = pool._executor_manager_thread  # shutdown forgets it
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()  # the job's answers are in hand: nothing of the worker is needed
            worker.join(HANG_S)
            if worker.is_alive():  # pragma: no cover - a worker ignoring SIGTERM
                worker.kill()
                worker.join(HANG_S)
        # The pool's manager thread joins the workers too: when it reaps one first, this thread's join
        # returns before the manager has noted the exit code (``exitcode`` None, seen once in CI); once
        # the manager has ended, every worker's exit code is noted.
        if manager is not None:
            manager.join(HANG_S)


def _hang() -> None:
    """A job that hangs (a lock a forked child inherited held), for HANG_S only: a pool that waits
    for it fails the test then, instead of hanging the suite."""
    threading.Event().wait(HANG_S)


SETTINGS = ws.Settings(
    providers={"brave": {"api_key": "BSA-not-a-real-key"}}, proxy="http://user:pw@proxy.example:8080"
)


def _failing_chain() -> None:
    """A fallback chain whose backends both answer 503: ``BadGateway`` with the other one in ``errors``."""
    wire = MockWire(lambda request: MockResponse(503, {"Content-Type": "text/html", "Retry-After": "7"}, b"down"))
    with ws.SearchClient(["ddg_html", "bing_html"], wire=wire, retries=0) as client:
        client.search("python requests timeout")


def _images(settings: ws.Settings) -> tuple:
    return ws.search("python", backend="stub", vertical="images", max_results=2), settings, repr(settings)


def _renewal_failed() -> None:
    raise RenewalFailed([("Cache._lock", OSError(24, "Too many open files"))])


def _raised(work) -> BaseException:
    with pytest.raises(BaseException) as caught:
        work()
    return caught.value


def _seen(error: BaseException) -> tuple:
    """What a job reads of an error: its type, line, attributes and the attached errors' forms."""
    if not isinstance(error, ws.WebSearchError):
        return (type(error), str(error), error.args)
    return (type(error), str(error), error.to_dict(), error.status, error.retry_after, error.retryable, error.hint)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_pool_gives_a_job_its_results_settings_and_errors_as_the_worker_had_them(method):
    with _pool(method) as pool:
        images, settings, shown = pool.submit(_images, SETTINGS).result(timeout=HANG_S)
        chain = pool.submit(_failing_chain).exception(timeout=HANG_S)
        renewal = pool.submit(_renewal_failed).exception(timeout=HANG_S)
    here = _images(SETTINGS)[0]
    assert images["items"] == here["items"] and images["provider_meta"]["provider_name"] == "stub"
    assert (settings, repr(settings), shown) == (SETTINGS, repr(SETTINGS), repr(SETTINGS))
    assert "BSA-not-a-real-key" not in shown and ":pw@" not in shown
    assert _seen(chain) == _seen(_raised(_failing_chain))
    assert chain.status == 503 and chain.retry_after == 7.0 and len(chain.errors) == 1
    assert _seen(renewal) == _seen(_raised(_renewal_failed))
    assert [(what, type(error), error.args) for what, error in renewal.failures] == [
        ("Cache._lock", OSError, (24, "Too many open files"))
    ]


def test_leaving_the_pool_ends_a_worker_that_hangs():
    """A job that never returns: the test gives up at its result's timeout, and leaving the pool
    then ends the worker instead of waiting for it."""
    with pytest.raises(concurrent.futures.TimeoutError), _pool("fork") as pool:
        job = pool.submit(_hang)
        workers = list(pool._processes.values())
        job.result(timeout=0.1)  # never reached by the job, however loaded the machine
    assert [worker.exitcode for worker in workers] == [-signal.SIGTERM]  # ended, not waited for
