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
    ws.search("q", settings=ws.Settings())  # the offline default
    [warning] = _offline(unwarned)
    assert (warning.filename, warning.lineno) == (__file__, line)


def test_the_warning_names_the_line_of_a_clients_search(unwarned):
    with ws.SearchClient(settings=ws.Settings()) as client:
        line = inspect.currentframe().f_lineno + 1
        client.search("q", vertical="news")
    [warning] = _offline(unwarned)
    assert (warning.filename, warning.lineno) == (__file__, line)


def test_a_search_in_a_worker_thread_still_warns_once(unwarned, monkeypatch):
    # a merge asks each backend in a thread of its own, with no caller's frame above it; a merge
    # names its backends, so it is taken for the default here (the stub warns for the default alone)
    named = stub.backends_named
    monkeypatch.setattr(stub, "backends_named", lambda _: named(False))
    with fake_results({"ddg_html": [{"title": "T", "url": "https://t.example/"}]}):
        ws.search("q", backend=["stub", "ddg_html"], strategy="merge", settings=ws.Settings())
    [warning] = _offline(unwarned)
    # the stub's own line, where the thread has no caller's (not concurrent/futures/thread.py's)
    lines, first = inspect.getsourcelines(stub.Stub.search)
    [warns] = [first + n for n, text in enumerate(lines) if "_warn_once()" in text]
    assert (warning.filename, warning.lineno) == (stub.__file__, warns)


def test_a_stub_the_caller_named_is_not_warned_of(unwarned):
    """``SearchClient("stub")``, the positional form docs/api.md shows, warned "set WEB_SEARCH_BACKEND
    (or pass backend=) to search the web", as if the backend had not been passed: naming the stub
    (positionally, ``backend=``, in a call, in the settings) chooses it; the default alone is warned of."""
    with ws.SearchClient("stub", settings=ws.Settings()) as client:
        client.search("q")
    with ws.SearchClient(settings=ws.Settings()) as client:
        client.search("q", backend="stub")
    ws.search("q", backend="stub", settings=ws.Settings())
    ws.search("q", settings=ws.Settings(backend="stub"))
    assert _offline(unwarned) == []
    ws.search("q", settings=ws.Settings())  # the default: said once
    assert len(_offline(unwarned)) == 1
