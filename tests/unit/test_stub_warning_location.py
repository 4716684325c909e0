"""The offline stub's warning names the caller's line that searched, not the library's: Python
prints that location with the warning, and pytest's summary lists it there, so a newcomer sees
which of their calls got made-up results (before, every warning read
``websearch_sync/backends/stub.py:81: ... _warn_once()``)."""

import inspect

import websearch_sync as ws
from websearch_sync.backends import stub
from websearch_sync.testing import fake_results


def _offline(seen):
    return [w for w in seen if issubclass(w.category, stub.OfflineResultsWarning)]


def test_the_warning_names_the_line_of_ws_search(unwarned):
    line = inspect.currentframe().f_lineno + 1
    ws.search("q", backend="stub", settings=ws.Settings())
    [warning] = _offline(unwarned)
    assert (warning.filename, warning.lineno) == (__file__, line)


def test_the_warning_names_the_line_of_a_clients_search(unwarned):
    with ws.SearchClient("stub", settings=ws.Settings()) as client:
        line = inspect.currentframe().f_lineno + 1
        client.search("q", vertical="news")
    [warning] = _offline(unwarned)
    assert (warning.filename, warning.lineno) == (__file__, line)


def test_a_search_in_a_worker_thread_still_warns_once(unwarned):
    # a merge asks each backend in a thread of its own, with no caller's frame above it
    with fake_results({"ddg_html": [{"title": "T", "url": "https://t.example/"}]}):
        ws.search("q", backend=["stub", "ddg_html"], strategy="merge", settings=ws.Settings())
    [warning] = _offline(unwarned)
    # the stub's own line, where the thread has no caller's (not concurrent/futures/thread.py's)
    lines, first = inspect.getsourcelines(stub.Stub.search)
    [warns] = [first + n for n, text in enumerate(lines) if "_warn_once()" in text]
    assert (warning.filename, warning.lineno) == (stub.__file__, warns)
