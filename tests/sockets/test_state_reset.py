"""Tests isolate and operators can lift cool-downs (issue 34.3): ``websearch_sync.testing.reset``
and the pytest plugin's reset before each test, ``SearchClient.clear_cooldowns`` and
``websearch-sync state clear`` (local state and a real redis-server)."""

import json
import re
import subprocess
import time
from pathlib import Path

import pytest
from faults import refused_port
from redis_server import RedisServer, held_keys, redis_db, redis_server, up  # noqa: F401  (fixtures)
from user_pytest import run_pytest, shared_forks

import websearch_sync as ws
from websearch_sync.cli import main as cli_main
from websearch_sync.client.clock import Clock
from websearch_sync.client.cooldown import Cooldowns, backend_of
from websearch_sync.client.state import SharedCooldowns, SharedState
from websearch_sync.client.state.cooldowns import LIFTED
from websearch_sync.client.state.server import state_server
from websearch_sync.testing import fake_results, reset

ROOT = Path(__file__).resolve().parents[2]
ITEMS = [{"title": "T", "url": "https://t.example/"}]


def _block(provider="ddg_html"):
    return ws.WebBlocked("wall", provider=provider, detail_code="captcha_required")


def _shared(url, prefix=""):
    return SharedCooldowns(SharedState(state_server(url), prefix, False, Clock()))


# -- the process-wide state of ws.search() --------------------------------------------------------


def test_reset_forgets_the_cooldown_a_module_level_search_met():
    with fake_results({"ddg_html": _block()}), pytest.raises(ws.WebBlocked):
        ws.search("q", backend="ddg_html")
    with fake_results({"ddg_html": ITEMS}):
        with pytest.raises(ws.WebBlocked, match="cooling down"):
            ws.search("q", backend="ddg_html")
        reset()
        assert ws.search("q", backend="ddg_html")["items"][0]["url"] == "https://t.example/"


def test_reset_forgets_a_redis_outage_so_the_next_tests_redis_answers(redis_db, redis_server):  # noqa: F811
    """A Redis that failed in one test (a command a loaded machine made slower than its 0.25 s, a
    port nothing listened on that a later test's Redis took) rested its URL for 5 s in the process,
    for the tests after it too: their searches wrote and read no shared cache (five failures of
    test_shared_state_untrusted.py in one loaded run)."""
    url = up(redis_server.url)
    state_server(url).failed(ConnectionError("a command outlasted its timeout"), Clock().monotonic())
    reset()  # as before each test
    with ws.SearchClient("stub", state_url=url) as client:
        client.search("after an outage")
    assert redis_db.keys("websearch_sync:cache:*")  # Redis was asked, not rested


def _doc_tests() -> tuple[str, dict[str, str]]:
    """The imports and each test function of docs/contract.md's testing example."""
    page = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
    block = page.split("### Testing your own code", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    head, *functions = re.split(r"\n(?=def )", block)
    return head, {re.match(r"def (\w+)", f).group(1): f for f in functions}


KEPT = """
import pytest


@pytest.mark.websearch_keep_state
def test_kept():
    with fake_results({"ddg_html": [{"title": "T", "url": "https://t.example/"}]}):
        with pytest.raises(ws.WebBlocked, match="cooling down"):
            ws.search("q", backend="ddg_html")
"""


@pytest.fixture(scope="module")
def users_run(
    tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> tuple[list[str], subprocess.CompletedProcess]:
    """One pytest run of a user's folder (no conftest of ours: only the installed plugin isolates)
    holding both tests' modules below: the docs' examples in both orders (``test_0_docs.py``,
    ``test_1_docs.py``) and ``test_kept.py`` (a pytest process each cost 0.7 s of CPU). The run is
    forked from the user runs' server (``user_pytest.shared_forks``: pytest and the library's
    third-party dependencies imported, the library imported in the child as in a user's run). Its
    runnable docs examples, and the run (``-rA``: a ``PASSED module::test`` line for each test
    that passed; each test below reads its own modules' lines)."""
    folder = tmp_path_factory.mktemp("users_tests")
    head, tests = _doc_tests()
    # test_with_recorded_pages needs the reader's own recordings; the others run as written
    runnable = [name for name, text in tests.items() if "replay_fixtures(" not in text]
    for number, order in enumerate([runnable, runnable[::-1]]):
        body = head + "\n\n" + "\n\n".join(tests[name] for name in order)
        (folder / ("test_%d_docs.py" % number)).write_text(body, encoding="utf-8")
    kept = head + "\n\n" + tests["test_fallback_when_blocked"] + KEPT
    (folder / "test_kept.py").write_text(kept, encoding="utf-8")
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return runnable, run_pytest(folder, "--strict-markers", "-rA", forks=shared_forks(pytestconfig))


def _passed(run: subprocess.CompletedProcess) -> list[str]:
    return sorted(line.split(" ", 1)[1] for line in run.stdout.splitlines() if line.startswith("PASSED "))


def test_the_docs_testing_examples_pass_in_one_process_in_either_order(users_run):
    runnable, done = users_run
    _, tests = _doc_tests()
    assert "test_fallback_when_blocked" in runnable and len(runnable) >= 2, runnable
    assert 'backend="ddg_html"' in tests["test_with_given_items"]  # the backend the fallback test blocks
    docs = ["test_%d_docs.py::%s" % (number, name) for number in (0, 1) for name in runnable]
    assert [test for test in _passed(done) if "_docs.py::" in test] == sorted(docs), done.stdout + done.stderr


def test_a_test_marked_websearch_keep_state_sees_the_cooldown_before_it(users_run):
    _, done = users_run
    kept = ["test_kept.py::test_fallback_when_blocked", "test_kept.py::test_kept"]
    assert [test for test in _passed(done) if test.startswith("test_kept.py::")] == kept, done.stdout + done.stderr


# -- a client's own cool-downs ------------------------------------------------------------------


def test_lift_takes_a_backend_and_its_parts_and_leaves_the_others():
    cooldowns = Cooldowns()
    for name in ("searxng", "searxng@searx.example", "searxng[engines=brave]", "searxng_extra", "brave"):
        cooldowns.record(_block(backend_of(name)), key=name)
    assert cooldowns.lift("searxng") == ["searxng", "searxng@searx.example", "searxng[engines=brave]"]
    cooldowns.check("searxng")
    for left in ("searxng_extra", "brave"):
        with pytest.raises(ws.WebBlocked):
            cooldowns.check(left)
    assert cooldowns.lift() == ["brave", "searxng_extra"]
    assert cooldowns.lift() == []


def test_clear_cooldowns_lets_a_client_ask_a_blocked_backend_again():
    with ws.SearchClient("ddg_html", cache_ttl_s=0) as client:
        with fake_results({"ddg_html": _block()}), pytest.raises(ws.WebBlocked):
            client.search("q")
        with fake_results({"ddg_html": ITEMS}):
            with pytest.raises(ws.WebBlocked, match="cooling down"):
                client.search("q")
            assert client.clear_cooldowns("ddg_html") == ["ddg_html", "host:html.duckduckgo.com"]  # its host's too
            assert client.search("q")["items"]


def test_clear_cooldowns_refuses_an_unknown_backend():
    with ws.SearchClient("stub") as client, pytest.raises(ws.InvalidInput) as info:
        client.clear_cooldowns("ddg")
    assert info.value.detail_code == "unknown_backend"


# -- the shared state: websearch-sync state clear ----------------------------------------------


def test_state_clear_without_a_shared_state_says_there_is_nothing_to_clear(capsys):
    assert cli_main(["state", "clear"]) == 0
    assert "no shared state configured" in capsys.readouterr().err


def _held(redis_db):
    """The keys that hold a cool-down (``state clear`` leaves :data:`LIFTED` in a lifted one's key,
    for what it had left, each expiring by itself)."""
    keys = sorted(redis_db.keys("*"))
    for key in keys:
        assert redis_db.pttl(key) > 0
    return [key.decode() for key in keys if redis_db.get(key) != LIFTED]


def test_state_clear_deletes_a_backends_cooldowns_in_redis(redis_db, redis_server, capsys):  # noqa: F811
    recorder = Cooldowns(shared=_shared(up(redis_server.url)))
    for name in ("searxng", "searxng@127.0.0.1:8888", "searxng[engines=brave]", "brave"):
        recorder.record(_block(backend_of(name)), key=name)
    other_app = Cooldowns(shared=_shared(up(redis_server.url), prefix="app"))
    other_app.record(_block("searxng"), key="searxng")

    assert cli_main(["state", "clear", "--backend", "searxng", "--state-url", up(redis_server.url)]) == 0
    assert capsys.readouterr().out == "cleared 3 cool-downs: searxng, searxng@127.0.0.1:8888, searxng[engines=brave]\n"
    assert _held(redis_db) == ["websearch_sync:app:cooldown:searxng", "websearch_sync:cooldown:brave"]

    obeyer = Cooldowns(shared=_shared(up(redis_server.url)))
    obeyer.check("searxng")  # every process may ask it again
    assert cli_main(["state", "clear", "--state-url", up(redis_server.url)]) == 0
    assert capsys.readouterr().out == "cleared 1 cool-down: brave\n"  # the lifted ones are not lifted again
    assert _held(redis_db) == ["websearch_sync:app:cooldown:searxng"]
    obeyer.check("brave")


def test_state_clear_reaches_the_workers_that_met_or_obeyed_the_block(redis_db, redis_server, capsys):  # noqa: F811
    """Two running clients on one Redis (two workers): the one that met the captcha and the one
    that obeyed it both kept refusing from their own memory for the whole 600 s after ``state clear``."""
    url = up(redis_server.url)
    with (
        ws.SearchClient("ddg_html", cache_ttl_s=0, state_url=url) as met,
        ws.SearchClient("ddg_html", cache_ttl_s=0, state_url=url) as obeyed,
    ):
        with fake_results({"ddg_html": _block()}), pytest.raises(ws.WebBlocked):
            met.search("q")
        with fake_results({"ddg_html": ITEMS}):
            for client in (met, obeyed):
                with pytest.raises(ws.WebBlocked, match="cooling down"):
                    client.search("q")
            assert cli_main(["state", "clear", "--state-url", url]) == 0
            assert capsys.readouterr().out == "cleared 2 cool-downs: ddg_html, host:html.duckduckgo.com\n"
            assert cli_main(["state", "show", "--json", "--state-url", url]) == 0
            assert json.loads(capsys.readouterr().out)["cooldowns"] == []  # a lifted one is held by no one
            assert met.search("q")["items"] and obeyed.search("q")["items"]


def test_a_cool_down_whose_record_vanished_is_kept_by_the_workers_that_met_or_obeyed_it(redis_db, redis_server):  # noqa: F811
    """Redis restarted empty, or evicted the record (``allkeys-lru``): the worker that met the
    captcha, and the one that obeyed it, took that for an operator's ``state clear`` and asked the
    walled backend again at once. Only ``state clear`` lifts a cool-down early (test above)."""
    url = up(redis_server.url)
    with (
        ws.SearchClient("ddg_html", cache_ttl_s=0, state_url=url) as met,
        ws.SearchClient("ddg_html", cache_ttl_s=0, state_url=url) as obeyed,
    ):
        with fake_results({"ddg_html": _block()}), pytest.raises(ws.WebBlocked):
            met.search("q")
        with fake_results({"ddg_html": ITEMS}):
            with pytest.raises(ws.WebBlocked, match="cooling down"):
                obeyed.search("q")
            redis_db.flushdb()
            for client in (met, obeyed):
                with pytest.raises(ws.WebBlocked, match="cooling down"):
                    client.search("q")


def test_state_clear_of_one_backend_lifts_its_endpoints_host_in_redis(redis_db, redis_server, capsys):  # noqa: F811
    """The block cooled the backend and its endpoint's host down for every process; clearing the
    backend left the host's key, which kept refusing the pages of that host. The client and the
    command reach Redis with the suite's 2 s timeouts (``up``): under load a command (a first
    connect) can outlast the production 0.25 s: Redis then counts as down, the cool-downs stay local."""
    url = up(redis_server.url)
    with ws.SearchClient("ddg_html", cache_ttl_s=0, state_url=url) as client:
        with fake_results({"ddg_html": _block()}), pytest.raises(ws.WebBlocked):
            client.search("q")
    assert cli_main(["state", "clear", "--backend", "ddg_html", "--state-url", url]) == 0
    said = capsys.readouterr()
    assert said.out == "cleared 2 cool-downs: ddg_html, host:html.duckduckgo.com\n"
    assert said.err == ""  # its host was found and lifted: nothing to note
    assert _held(redis_db) == []


def test_a_cool_down_held_in_redis_is_kept_while_redis_is_down(redis_server):  # noqa: F811  (skips without one)
    """Redis that cannot say whether a cool-down was lifted keeps it: an outage lifts nothing."""
    with RedisServer() as server, ws.SearchClient("ddg_html", cache_ttl_s=0, state_url=server.url) as client:
        with fake_results({"ddg_html": _block()}), pytest.raises(ws.WebBlocked):
            client.search("q")
        server.stop()
        with fake_results({"ddg_html": ITEMS}), pytest.raises(ws.WebBlocked, match="cooling down"):
            client.search("q")


def test_state_clear_fails_loudly_when_redis_cannot_be_reached(capsys):
    pytest.importorskip("redis")
    url = "redis://127.0.0.1:%d/0" % refused_port()  # nothing listens there
    assert cli_main(["state", "clear", "--state-url", url]) == 4
    assert "no cool-down was cleared there" in capsys.readouterr().err
    with ws.SearchClient("stub", state_url=url) as client, pytest.raises(ws.NetworkError) as info:
        client.clear_cooldowns()
    assert info.value.detail_code == "state_unavailable"


# -- websearch-sync state show -----------------------------------------------------------------------


def _within(left, full, elapsed, whole):
    """``left`` is what remains of ``full`` seconds after at most ``elapsed`` went by, as shown
    (whole seconds rounded down by Redis's TTL, or tenths)."""
    slack = 1.0 if whole else 0.1
    return full - elapsed - slack <= left <= full


def test_state_show_lists_what_every_worker_obeys(redis_db, redis_server, capsys):  # noqa: F811
    """An operator had no way to see the shared cool-downs, paces or cache but redis-cli and the
    key layout; ``state show`` lists them (a key's name shown on one line, whoever wrote it).
    The times left are checked against how long the test took to get there (a loaded machine)."""
    started = time.monotonic()
    Cooldowns(shared=_shared(up(redis_server.url))).record(
        ws.WebBlocked("429", provider="searxng", detail_code="http_429", retry_after=120), "searxng@127.0.0.1:8888"
    )
    redis_db.set("websearch_sync:cooldown:evil\nline\x1b[2J", "not a record", ex=60)
    redis_db.set("websearch_sync:other:cooldown:brave", "another application's", ex=60)
    with ws.SearchClient("stub", state_url=up(redis_server.url), min_interval_s={"stub": 30.0}) as client:
        client.search("shown")
    assert cli_main(["state", "show", "--state-url", up(redis_server.url)]) == 0
    elapsed = time.monotonic() - started
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "shared state %s" % redis_server.url  # shown without its query (the timeouts)
    assert lines[1] == "cool-downs: 2"
    unreadable = re.fullmatch(r"  evil line\[2J  \(unreadable record\)  (\d+) s left", lines[2])
    assert unreadable and _within(int(unreadable[1]), 60, elapsed, whole=True), lines[2]
    cooldown = re.fullmatch(r"  searxng@127\.0\.0\.1:8888  http_429  (\d+) s left", lines[3])
    assert cooldown and _within(int(cooldown[1]), 120, elapsed, whole=True), lines[3]
    assert lines[4] == "paces: 1"
    pace = re.fullmatch(r"  stub  1 process lately, next slot in (\d+\.\d) s", lines[5])
    assert pace and _within(float(pace[1]), 30.0, elapsed, whole=False), lines[5]
    assert lines[6:] == [  # the other application's keys are only named: a prefix a worker lacks shows here
        "questions in flight: 0",
        "cached answers: 1",
        "other namespaces here: websearch_sync:other:",
    ]
    assert cli_main(["state", "show", "--json", "--state-url", up(redis_server.url)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [cooldown["name"] for cooldown in report["cooldowns"]] == ["evil\nline\x1b[2J", "searxng@127.0.0.1:8888"]
    assert report["cooldowns"][1]["detail_code"] == "http_429" and 100 < report["cooldowns"][1]["left_s"] <= 120
    assert [(pace["upstream"], pace["processes"]) for pace in report["paces"]] == [("stub", 1)]
    assert (report["flights"], report["answers"], report["namespace"]) == (0, 1, "websearch_sync:")
    assert report["other_namespaces"] == ["websearch_sync:other:"]


def test_state_show_without_a_shared_state_says_there_is_nothing_to_show(capsys):
    assert cli_main(["state", "show"]) == 0
    assert "no shared state configured" in capsys.readouterr().err


def test_state_show_fails_loudly_when_redis_cannot_be_reached(capsys):
    pytest.importorskip("redis")
    assert cli_main(["state", "show", "--state-url", "redis://127.0.0.1:%d/0" % refused_port()]) == 4
    assert "state_unavailable" in capsys.readouterr().err


def test_state_clear_cache_deletes_every_cached_answer_and_nothing_else(redis_db, redis_server, capsys):  # noqa: F811
    """Answers read before a parser fix stayed shared for their TTL (up to a year) with no way to
    drop them but redis-cli and the key layout; ``state clear --cache`` deletes them (this
    application's only), and the next call asks the upstream again."""
    with ws.SearchClient("stub", state_url=up(redis_server.url)) as client:
        for query in ("kept 1", "kept 2", "kept 3"):
            client.search(query)
    Cooldowns(shared=_shared(up(redis_server.url))).record(_block(), key="ddg_html")
    redis_db.set("websearch_sync:app:cache:another-application", "{}", ex=60)
    assert cli_main(["state", "clear", "--cache", "--state-url", up(redis_server.url)]) == 0
    assert capsys.readouterr().out == "deleted 3 cached answers\n"
    keys = sorted(key.decode() for key in held_keys(redis_db))
    assert keys == ["websearch_sync:app:cache:another-application", "websearch_sync:cooldown:ddg_html"]
    with ws.SearchClient("stub", state_url=up(redis_server.url)) as client:
        assert client.search("kept 1")["provider_meta"]["cached"] is False


def test_state_clear_cache_refuses_a_backend(redis_server, capsys):  # noqa: F811
    assert cli_main(["state", "clear", "--cache", "--backend", "brave", "--state-url", up(redis_server.url)]) == 2
    assert "bad_arguments" in capsys.readouterr().err


def test_state_clear_of_a_backend_not_configured_here_says_its_hosts_cool_down_stays(
    redis_db,
    redis_server,
    capsys,
    monkeypatch,  # noqa: F811
):
    """A worker's SearXNG met a block: its instance (``searxng@<host:port>``) and that host, for
    fetches, cooled down for every process. Cleared from a shell without the workers'
    ``SEARXNG_BASE_URL``, the instance's key is found by its name, the host's cannot be (its endpoint
    is unknown here): the command said "cleared 1 cool-down" and fetches of that host stayed refused
    without a word. It says so, and how to lift it."""
    url = up(redis_server.url)
    monkeypatch.setenv("SEARXNG_BASE_URL", "http://127.0.0.1:8888")
    with ws.SearchClient("searxng", cache_ttl_s=0, state_url=url) as client:
        with fake_results({"searxng": _block("searxng")}), pytest.raises(ws.WebBlocked):
            client.search("q")
    monkeypatch.delenv("SEARXNG_BASE_URL")
    capsys.readouterr()
    assert cli_main(["state", "clear", "--backend", "searxng", "--state-url", url]) == 0
    said = capsys.readouterr()
    assert said.out == "cleared 1 cool-down: searxng@127.0.0.1:8888\n"
    assert _held(redis_db) == ["websearch_sync:cooldown:host:127.0.0.1:8888"]
    assert said.err == (
        "note: searxng's endpoint is not configured in this shell, so the cool-down its block put on the"
        " endpoint's host (for fetches; `websearch-sync state show` lists it as host:...) is not lifted:"
        " run this with the workers' settings for searxng, or `websearch-sync state clear` to lift every"
        " cool-down\n"
    )
