"""A demanding script author's checks of the client: a result handed out is the caller's own
(nested parts too), ``close()`` lets go of the cache file whatever thread opened it and ends the
client (a later call is refused, typed), a fallback
chain that failed everywhere raises a traceback that tells the story as it happened, every
backend's failure says which backend it was, a time range asked again later ends at the later
search, a queries file saved "with BOM" runs its first query as written, `state clear` refuses
a misspelt backend whether or not there is a shared state, and the testing helpers answer a news,
images or videos search as they answer a web search (and the verticals page's example reads every
recorded news answer)."""

import datetime
import io
import json
import logging
import os
import sqlite3
import threading
import traceback
import warnings
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from clocks import FakeClock

import websearch_sync as ws
import websearch_sync.models
from websearch_sync.backends import Backend, RequestSpec
from websearch_sync.cli import main
from websearch_sync.client.cache import ResultCache, SqliteCache
from websearch_sync.engine import registry
from websearch_sync.testing import MockResponse, MockWire, fake_results, replay_fixtures

SEARXNG = ws.Settings(providers={"searxng": {"base_url": "https://searx.example.org"}})
#: A SearXNG answer with every kind of extra, as ``searx/webutils.py: get_json_response`` sends them
#: (the shapes ``backends/searxng_extras.py`` reads).
EXTRAS_ANSWER = {
    "query": "searxng",
    "results": [{"url": "https://docs.searxng.org/", "title": "SearXNG", "content": "docs", "engine": "bing"}],
    "answers": [{"answer": "Your IP is: 127.0.0.1", "url": None, "engine": "plugin: self_info"}],
    "infoboxes": [
        {
            "infobox": "SearXNG",
            "content": "metasearch engine",
            "urls": [{"title": "Official website", "url": "https://docs.searxng.org/"}],
            "attributes": [{"label": "License", "value": "AGPL-3.0"}],
            "engine": "wikidata",
        }
    ],
    "suggestions": ["searxng docker"],
    "corrections": ["searxng"],
}


def _searxng_client(**kwargs):
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "application/json"}, json.dumps(EXTRAS_ANSWER)))
    return ws.SearchClient("searxng", settings=SEARXNG, wire=wire, clock=FakeClock(), **kwargs), wire


# -- a result is the caller's own ------------------------------------------------------------------


def _mutate_extras(result):
    extras = result["provider_meta"]["extras"]
    extras["answers"][0]["text"] = "edited by the caller"
    extras["infoboxes"][0]["urls"].clear()
    extras["suggestions"].append("added by the caller")
    extras["new kind"] = []


def test_editing_a_fresh_results_extras_does_not_edit_the_cached_answer():
    client, wire = _searxng_client()
    with client:
        fresh = client.search("searxng", max_pages=1)  # the answer is one page
        assert fresh["provider_meta"]["extras"]["answers"]  # the answer has extras to edit
        pristine = json.loads(json.dumps(fresh["provider_meta"]["extras"]))
        _mutate_extras(fresh)
        hit = client.search("searxng", max_pages=1)
    assert hit["provider_meta"]["cached"] is True and len(wire.requests) == 1
    assert hit["provider_meta"]["extras"] == pristine


def test_editing_a_cache_hits_extras_does_not_edit_the_next_hit():
    client, _ = _searxng_client()
    with client:
        pristine = json.loads(json.dumps(client.search("searxng")["provider_meta"]["extras"]))
        _mutate_extras(client.search("searxng"))
        assert client.search("searxng")["provider_meta"]["extras"] == pristine


def test_strategy_is_read_in_any_case_like_the_other_named_values():
    """``time_range="Week"``, ``vertical="NEWS"``, ``extract_mode="TEXT"`` and backend names are read
    in any case; ``strategy="Merge"`` was the one refused."""
    with fake_results({"ddg_html": [{"title": "T", "url": "https://t.example/", "snippet": "s"}]}):
        with ws.SearchClient(["stub", "ddg_html"], strategy="Merge", clock=FakeClock()) as client:
            assert client.strategy == "merge"
            assert client.search("q", strategy="MERGE", time_range="Week")["provider_meta"]["providers"] == [
                "stub",
                "ddg_html",
            ]
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", strategy="race")
    assert info.value.detail_code == "bad_strategy"


@pytest.mark.parametrize("strategy", ["fallback", "merge"])
def test_an_answer_whose_only_failure_is_a_refusal_is_cached(strategy):
    """The README's tour, ``SearchClient(["brave", "ddg_html"], cache_ttl_s=300)``, without a Brave
    key: Brave refuses every call before sending (``AuthError(missing_api_key)``), so the other
    backend's answer is as good the next time; it was never cached, and each repeat asked again."""
    with ws.SearchClient(["brave", "stub"], strategy=strategy, settings=ws.Settings(), clock=FakeClock()) as client:
        first = client.search("q")
        again = client.search("q")
    assert [(e["type"], e["detail_code"], e["provider"]) for e in first["errors"]] == [
        ("AuthError", "missing_api_key", "brave")
    ]
    assert again["provider_meta"]["cached"] is True and again["provider_meta"]["attempts"] == 0
    assert again["items"] == first["items"] and again["errors"] == first["errors"]


def test_an_answer_after_a_failure_that_may_pass_is_not_cached():
    with fake_results({"ddg_html": ws.Timeout("read timed out", detail_code="read_timeout"), "bing_html": []}):
        with ws.SearchClient(["ddg_html", "bing_html"], retries=0, clock=FakeClock()) as client:
            client.search("q")
            assert client.search("q")["provider_meta"]["cached"] is False


# -- close() -------------------------------------------------------------------------------------------


def test_close_releases_the_cache_file_of_every_thread_that_used_it(tmp_path):
    """SQLite deletes a WAL file when its last connection closes: one left behind after ``close()``
    is a connection of some thread still open (the file held, on Windows not even deletable)."""
    path = tmp_path / "cache.sqlite3"
    client = ws.SearchClient("stub", settings=ws.Settings(), cache_path=path, clock=FakeClock())
    threads = [threading.Thread(target=client.search, args=("query %d" % n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert os.path.exists(str(path) + "-wal")  # the threads wrote through connections of their own
    client.close()
    assert not os.path.exists(str(path) + "-wal")


def _open_descriptors(path):
    """How many of this process's file descriptors are open on ``path`` (Linux: ``/proc/self/fd``)."""
    found = 0
    for name in os.listdir("/proc/self/fd"):
        try:
            found += os.readlink("/proc/self/fd/" + name) == str(path)
        except OSError:  # closed meanwhile (the listing's own descriptor)
            continue
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors through /proc")
def test_the_connections_of_threads_that_ended_do_not_pile_up(tmp_path):
    """A service that runs each request in a new thread shares one client: each thread's cache
    connection must not stay open for the life of the client."""
    path = tmp_path / "cache.sqlite3"

    def requests_served(count):
        for n in range(count):
            thread = threading.Thread(target=client.search, args=("query %d" % n,))
            thread.start()
            thread.join()
        return _open_descriptors(path)

    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=path, clock=FakeClock()) as client:
        after_a_few = requests_served(3)
        assert requests_served(12) == after_a_few  # SQLite may keep a closed one's descriptor while others lock


def test_a_call_under_way_when_the_client_closes_opens_no_connection_again(tmp_path):
    """A search that was running when ``close()`` came reads or writes the file after it: that must
    not open a connection no one will close (``ResultCache`` skips the failure, as any of the file)."""
    path = tmp_path / "cache.sqlite3"
    cache = SqliteCache(path, ttl_s=60, clock=FakeClock())
    cache.set("key", {"items": []})
    cache.close()
    with pytest.raises(sqlite3.ProgrammingError):
        cache.get("key")
    assert not os.path.exists(str(path) + "-wal")


def test_a_search_still_running_when_its_batch_is_interrupted_warns_of_no_cache_failure(tmp_path, caplog):
    """Ctrl-C in a ``--workers`` batch closes the client while workers finish their searches: their
    cache reads and writes are skipped quietly, not reported as a failing file."""
    disk = SqliteCache(tmp_path / "cache.sqlite3", ttl_s=60, clock=FakeClock())
    cache = ResultCache(None, disk)
    cache.close()
    with caplog.at_level(logging.DEBUG, logger="websearch_sync"):
        cache.set("key", {"items": []}, ttl_s=60)
        assert cache.get("key") is None
    assert [record for record in caplog.records if record.levelno >= logging.WARNING] == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_client_built_before_a_fork_uses_a_connection_of_its_own_in_the_child(tmp_path):
    """A module-level client in a preforking server (gunicorn --preload, Celery prefork): SQLite says
    no connection may be carried across a fork; the child opens its own and shares the file."""
    path = tmp_path / "cache.sqlite3"
    client = ws.SearchClient("stub", settings=ws.Settings(), cache_path=path, clock=FakeClock())
    client.search("asked by the parent")
    parents = client._cache.disk._open[threading.current_thread()]  # noqa: SLF001 - what crosses the fork
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # forking a process that has threads
        pid = os.fork()
    if pid == 0:  # the child: exit 0 when it read the parent's answer through a connection of its own
        status = 1
        try:
            client._cache.memory.clear()  # noqa: SLF001 - the answer must come from the file
            hit = client.search("asked by the parent")["provider_meta"]["cached"]
            own = client._cache.disk._open[threading.current_thread()]  # noqa: SLF001
            client.search("asked by the child")
            status = 0 if hit and own is not parents else 2
        finally:
            os._exit(status)
    assert os.waitpid(pid, 0)[1] == 0
    client._cache.memory.clear()  # noqa: SLF001 - the next answer must come from the file
    assert client.search("asked by the child")["provider_meta"]["cached"] is True
    client.close()


def test_a_thread_that_searches_after_close_gets_a_working_cache_again(tmp_path):
    path = tmp_path / "cache.sqlite3"
    client = ws.SearchClient("stub", settings=ws.Settings(), cache_path=path, clock=FakeClock())
    worker = threading.Thread(target=client.search, args=("first",))
    worker.start()
    worker.join()
    client.search("second")
    client.close()
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=path, clock=FakeClock()) as again:
        assert again.search("first")["provider_meta"]["cached"] is True  # written by the worker thread
        assert again.search("second")["provider_meta"]["cached"] is True


@pytest.mark.parametrize(
    "call",
    [
        lambda client: client.search("q"),
        lambda client: client.fetch("https://example.com/"),
        lambda client: client.__enter__(),
    ],
    ids=["search", "fetch", "with"],
)
def test_a_closed_client_refuses_calls_with_invalid_input(call):
    """After ``close()`` a call would open connections no one closes (with the ``browser`` extra it
    failed as "internal error in backend ddg_html: CurlError", its traceback logged): refused, typed."""
    with ws.SearchClient("stub", settings=ws.Settings(), clock=FakeClock()) as client:
        client.search("q")
    with pytest.raises(ws.InvalidInput) as info:
        call(client)
    assert info.value.detail_code == "client_closed" and "closed" in info.value.message


def test_repr_of_a_client_does_not_raise_on_a_misspelt_environment_backend(monkeypatch):
    """A misspelt ``WEB_SEARCH_BACKEND`` is ``InvalidInput`` at the first search that falls back on it
    (docs/configuration.md); ``repr`` (a debugger, a log line) must not raise it."""
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "ddg")
    with ws.SearchClient(clock=FakeClock()) as client:
        assert repr(client) == "SearchClient(backend=<unknown WEB_SEARCH_BACKEND>, strategy='fallback')"
        with pytest.raises(ws.InvalidInput):
            client.search("q")
    with ws.SearchClient("stub,brave", strategy="merge", clock=FakeClock()) as client:
        assert repr(client) == "SearchClient(backend=['stub', 'brave'], strategy='merge')"


# -- every backend failed --------------------------------------------------------------------------


FAILURES = {
    "ddg_html": ws.WebBlocked("a captcha page", detail_code="captcha_required"),
    "bing_html": ws.Timeout("read timed out", detail_code="read_timeout"),
    "mojeek_html": ws.BadGateway("HTTP 502", detail_code="http_502"),
}


def test_a_chain_that_failed_everywhere_does_not_chain_one_failure_to_another():
    """The most informative failure (the captcha, first) is raised; the traceback must not read
    "During handling of the above exception (mojeek's 502), another exception occurred": the 502
    happened after the captcha and did not lead to it. The others are in ``.errors`` and ``str``."""
    with fake_results(FAILURES), ws.SearchClient(list(FAILURES), retries=0, clock=FakeClock()) as client:
        with pytest.raises(ws.WebBlocked) as info:
            client.search("q")
    error = info.value
    assert error.__context__ is None and error.__cause__ is None
    assert "During handling" not in "".join(traceback.format_exception(error))
    assert [(e.code, e.provider) for e in error.errors] == [("Timeout", "bing_html"), ("BadGateway", "mojeek_html")]
    assert str(error) == "a captcha page [also failed: bing_html (read_timeout), mojeek_html (http_502)]"


def _refused(params):
    try:
        raise ConnectionRefusedError(111, "Connection refused")
    except ConnectionRefusedError as exc:
        raise ws.NetworkError("connection refused", detail_code="connection_refused") from exc


def test_the_raised_failure_keeps_its_own_cause():
    with fake_results({"ddg_html": _refused, "bing_html": ws.Timeout("read timed out", detail_code="read_timeout")}):
        with ws.SearchClient(["ddg_html", "bing_html"], retries=0, clock=FakeClock()) as client:
            with pytest.raises(ws.NetworkError) as info:
                client.search("q")
    assert isinstance(info.value.__cause__, ConnectionRefusedError)


class _NoProviderSearch(Backend):
    """A plugin whose parser raises an error without naming a provider (as a plugin writes it)."""

    name = "noprovider"
    kind = "json"
    summary = "a plugin raising errors without a provider"
    default_endpoint = "https://search.noprovider.example/api"
    min_interval_s = 0.0

    def build_request(self, params):
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.full_query})

    def parse(self, response, params):
        raise ws.WebParseError("no hits in the answer", detail_code="unexpected_shape")


@pytest.fixture
def no_provider_plugin():
    registry.register(_NoProviderSearch)
    try:
        yield MockWire(lambda request: MockResponse(200, {"Content-Type": "application/json"}, '{"x": 1}'))
    finally:
        registry.unregister(_NoProviderSearch.name)


def test_a_merges_errors_name_the_backend_whose_error_named_none(no_provider_plugin):
    with ws.SearchClient(
        ["noprovider", "stub"], strategy="merge", wire=no_provider_plugin, settings=ws.Settings(), clock=FakeClock()
    ) as client:
        result = client.search("q")
    assert result["provider_meta"]["provider_name"] == "stub"
    assert [(e["type"], e["provider"]) for e in result["errors"]] == [("WebParseError", "noprovider")]


def test_a_single_backends_error_names_it_too(no_provider_plugin):
    with ws.SearchClient("noprovider", wire=no_provider_plugin, settings=ws.Settings(), clock=FakeClock()) as client:
        with pytest.raises(ws.WebParseError) as info:
            client.search("q")
    assert info.value.provider == "noprovider" and info.value.to_dict()["provider"] == "noprovider"


def test_module_level_searches_share_a_cool_down_whatever_their_settings_deadline():
    """docs/client.md: ``ws.search()`` keeps the cool-downs for the process, so the next call skips
    the blocked engine too; a call whose settings give it a shorter deadline is such a next call."""
    with fake_results({"ddg_html": ws.WebBlocked("a captcha page", detail_code="captcha_required")}) as fake:
        for settings in (ws.Settings(), ws.Settings(timeout_ms=5000)):
            with pytest.raises(ws.WebBlocked):
                ws.search("q", backend="ddg_html", settings=settings)
    assert len(fake.calls) == 1


# -- a repeat asked later --------------------------------------------------------------------------------

BAIDU_PAGE = (Path(__file__).resolve().parents[2] / "fixtures" / "baidu_html" / "BaiduSpider__1.html").read_bytes()


def test_a_time_range_asked_again_later_ends_at_the_later_search(monkeypatch):
    """docs/backends.md: Baidu's ``gpc`` is "Unix seconds ending at the search's time". An exact
    repeat reuses the first call's validation; its window must not stay the first call's."""
    first = datetime.datetime(2026, 1, 1, 12, tzinfo=datetime.timezone.utc)
    later = first + datetime.timedelta(days=3)
    clock = {"now": first}
    monkeypatch.setattr(websearch_sync.models, "_utc_now", lambda: clock["now"])
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "text/html; charset=utf-8"}, BAIDU_PAGE))
    with ws.SearchClient("baidu_html", settings=ws.Settings(), wire=wire, cache_ttl_s=0, clock=FakeClock()) as client:
        client.search("python", time_range="day")
        clock["now"] = later
        client.search("python", time_range="day")
    windows = [parse_qs(urlsplit(request.url).query)["gpc"][0] for request in wire.requests]
    assert [int(window.split(",")[1].split("|")[0]) for window in windows] == [
        int(first.timestamp()),
        int(later.timestamp()),
    ]


# -- the command line's queries file ----------------------------------------------------------------


def test_a_queries_file_saved_with_a_byte_order_mark_runs_its_first_query_as_written(tmp_path, capsys):
    queries = tmp_path / "queries.txt"
    queries.write_text("python requests\r\nrust async\n", encoding="utf-8-sig")  # Notepad's "UTF-8 with BOM"
    assert main(["search", "--queries-file", str(queries), "-b", "stub", "-n", "1"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["query"] for line in lines] == ["python requests", "rust async"]
    assert lines[0]["items"][0]["title"] == "python requests - Overview"  # the stub's title is the query sent


def test_queries_on_stdin_with_a_byte_order_mark(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("\ufeffpython requests\n"))
    assert main(["search", "--queries-file", "-", "-b", "stub", "-n", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["query"] == "python requests"


def test_skip_done_reads_an_output_file_saved_with_a_byte_order_mark(tmp_path, capsys):
    queries = tmp_path / "queries.txt"
    queries.write_text("python requests\nrust async\n", encoding="utf-8")
    assert main(["search", "--queries-file", str(queries), "-b", "stub", "-n", "1"]) == 0
    done = tmp_path / "done.jsonl"
    done.write_text(capsys.readouterr().out.splitlines()[0] + "\n", encoding="utf-8-sig")  # re-saved by an editor
    assert main(["search", "--queries-file", str(queries), "-b", "stub", "-n", "1", "--skip-done", str(done)]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["query"] for line in captured.out.splitlines()] == ["rust async"]
    assert "skipping 1 query done in" in captured.err


# -- a user's tests of a vertical search ------------------------------------------------------------

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.parametrize("case", ["bing_html/phrona__news", "ddg_html/phrona__videos_rust_programming"])
def test_replay_fixtures_answers_a_vertical_search_from_its_recorded_case(case):
    """docs/contract.md: replay_fixtures swaps every registered backend; a news or videos search is
    answered by its recorded case through that vertical's parser (it went to the network)."""
    meta = json.loads((FIXTURES / (case + ".meta.json")).read_text(encoding="utf-8"))
    golden = json.loads((FIXTURES / (case + ".expected.json")).read_text(encoding="utf-8"))
    with replay_fixtures(FIXTURES, backends=[meta["backend"]]) as replay:
        with ws.SearchClient(meta["backend"], settings=ws.Settings(), clock=FakeClock()) as client:
            result = client.search(
                meta["query"], max_results=meta["max_results"], vertical=meta["vertical"], **(meta["options"] or {})
            )
    assert result["items"] == golden["items"] and result["provider_meta"]["vertical"] == meta["vertical"]
    assert [call.case for call in replay.calls] == [case]


def test_fake_results_answer_a_vertical_search():
    given = {"title": "Rust 2.0", "url": "https://news.example/rust", "snippet": "s", "source": "Example News"}
    with fake_results({"ddg_html": [given]}) as fake:
        result = ws.search("rust", backend="ddg_html", vertical="news")
    assert result["items"] == [dict(given, provider="ddg_html", rank=1)]
    assert [call.backend for call in fake.calls] == ["ddg_html"]


def test_the_verticals_page_reads_every_recorded_news_answer_as_it_shows():
    """docs/verticals.md loops over a news answer's items; each field beyond title, url, provider
    and rank is absent when the service does not give it (SearXNG's recorded news has no dates)."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "verticals.md").read_text(encoding="utf-8")
    example = page.split("```python\n", 1)[1].split("```", 1)[0]
    loop = example[example.index("for item in news") : example.index("\n\n", example.index("for item in news"))]
    goldens = [
        path
        for path in sorted(FIXTURES.glob("*/*.expected.json"))
        if json.loads(path.with_name(path.name.replace(".expected.", ".meta.")).read_text()).get("vertical") == "news"
    ]
    answers = [
        answer for answer in (json.loads(path.read_text(encoding="utf-8")) for path in goldens) if "items" in answer
    ]
    assert len(answers) >= 5  # the recorded news answers (an error's golden has no items)
    for answer in answers:
        exec(loop, {"news": answer, "print": lambda *fields: None})  # noqa: S102 - the docs' own example


# -- state clear and verify -------------------------------------------------------------------------------


def test_state_clear_refuses_a_misspelt_backend_without_a_shared_state_too(monkeypatch, capsys):
    """With a shared state, ``clear_cooldowns("ddg")`` is ``InvalidInput(unknown_backend)``; without
    one, the same typo must not read as "nothing to clear" (exit 0)."""
    monkeypatch.delenv("WEB_SEARCH_STATE_URL", raising=False)
    assert main(["state", "clear", "--backend", "ddg"]) == 2
    assert capsys.readouterr().err.startswith(
        "error: InvalidInput/unknown_backend: unknown backend 'ddg' (did you mean"
    )
    assert main(["state", "clear", "--backend", "ddg_html"]) == 0
    assert "nothing to clear" in capsys.readouterr().err


def test_verify_names_the_backend_a_misspelt_backend_meant(capsys):
    assert main(["verify", "--fixtures", str(FIXTURES), "--backend", "ddg"]) == 2
    assert capsys.readouterr().err.startswith(
        "error: InvalidInput/unknown_backend: --backend='ddg' names unknown backend 'ddg' (did you mean ddg_html?)"
    )


def test_auto_given_as_a_strategy_says_it_is_a_backend():
    """docs/client.md listed auto among the strategies: ``strategy="auto"`` is refused saying where it goes."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", strategy="auto")
    assert info.value.detail_code == "bad_strategy"
    assert "(auto is a backend: SearchClient('auto'), backend='auto', a fallback chain)" in info.value.message


@pytest.mark.parametrize("copied", ["copy", "deepcopy", "pickle"])
def test_a_client_is_never_copied_and_the_refusal_says_what_to_do(copied):
    """``copy.copy(client)`` shared the original's caches, locks and transport (closing the copy closed
    the original's connections while it still took calls); deepcopy and pickle failed on a lock."""
    import copy
    import pickle

    client = ws.SearchClient("stub", clock=FakeClock())
    copy_of = {"copy": copy.copy, "deepcopy": copy.deepcopy, "pickle": pickle.dumps}[copied]
    with pytest.raises(TypeError, match="a SearchClient cannot be copied or pickled: .* share the client itself"):
        copy_of(client)
    client.close()
