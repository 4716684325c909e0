"""A sample of how a user tests code that searches, with websearch_sync.testing.

In your own project:

    # conftest.py (top level)
    # nothing: installed, websearch_sync.testing is a pytest plugin (fixtures websearch_replay,
    # websearch_fake); tests/sockets/test_pytest_plugin.py runs a user's suite that uses them

    # record real answers once, with network, and commit them:
    #   websearch-sync record ddg_html "rust async" --fixtures tests/search_fixtures
    # CI then replays them (websearch-sync verify --fixtures tests/search_fixtures pins the parsers).

Here the network backend is ``testhtml`` (tests/fixture_backends.py) and the fixtures are
recorded from a local server at the start of the module, exactly as `record` would do live.
"""

import socket

import pytest
from faults import refused_port, respond
from fixture_backends import (
    CAPTCHA_PAGE,
    PAGE_RESULTS,
    HtmlTestBackend,
    KeyedJsonBackend,
    json_api_body,
    query_of,
    result_page,
)
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.contract.cases import discover, load_golden
from websearch_sync.contract.recording import record_case
from websearch_sync.engine.registry import backend_class, register, unregister
from websearch_sync.net.browser import browser_available
from websearch_sync.testing import (
    NetworkAccessBlocked,
    assert_contract,
    contract_problems,
    fake_results,
    replay_fixtures,
)

# -- the application code under test ----------------------------------------------------------------


def reading_list(topic, backend="testhtml", **kwargs):
    """Markdown bullets of the top links about ``topic`` (what a user's code might do)."""
    result = ws.search(topic, backend=backend, max_results=3, **kwargs)
    return ["- [%s](%s)" % (item["title"], item["url"]) for item in result["items"]]


# -- fixtures of this sample ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def backends():
    register(HtmlTestBackend)
    register(KeyedJsonBackend)
    yield
    unregister(HtmlTestBackend.name)
    unregister(KeyedJsonBackend.name)


@pytest.fixture(scope="module")
def recorded(backends, tmp_path_factory):
    """A fixture folder recorded from a stand-in service (then the service is gone)."""
    folder = tmp_path_factory.mktemp("search_fixtures")

    def html(conn, request, server):
        query = query_of(request.path)["q"][0]
        page = (
            CAPTCHA_PAGE
            if query == "blocked query"
            else result_page(PAGE_RESULTS if query == "rust async" else PAGE_RESULTS[1:])
        )
        respond(200, page)(conn, request, server)

    def api(conn, request, server):
        respond(
            200, json_api_body(["https://api.example/1", "https://api.example/2"]), content_type="application/json"
        )(conn, request, server)

    with FaultServer({"/html": html, "/api": api}) as server:
        settings = ws.Settings(
            endpoints={"testhtml": server.url("/html"), "testkeyed": server.url("/api")},
            providers={"testkeyed": {"api_key": "sk-recording-only-key"}},
        )
        record_case("testhtml", "rust async", fixtures_dir=folder, max_results=3, settings=settings)
        record_case(
            "testhtml", "rust async", fixtures_dir=folder, name="rust-async-5", max_results=5, settings=settings
        )
        record_case(
            "testhtml",
            "rust async",
            fixtures_dir=folder,
            name="rust-async-de",
            max_results=3,
            settings=settings,
            options={"locale": "de-DE"},
        )
        record_case("testhtml", "blocked query", fixtures_dir=folder, settings=settings, allow_error=True)
        record_case("testkeyed", "api query", fixtures_dir=folder, settings=settings)
    return folder


def golden_items(folder, case_id):
    (case,) = [c for c in discover(folder) if c.case_id == case_id]
    return load_golden(case)["items"]


# -- given items ----------------------------------------------------------------------------------


def test_code_under_test_with_given_items(backends, websearch_fake):
    fake = websearch_fake(
        [
            {"title": "Async Book", "url": "https://rust-lang.github.io/async-book/", "snippet": "..."},
            {"title": "Tokio", "url": "https://tokio.rs/"},
            {"title": "not a web link", "url": "ftp://files.example/x"},
            {"title": "Too many", "url": "https://four.example/"},
            {"title": "Too many", "url": "https://five.example/"},
        ]
    )
    assert reading_list("anything at all") == [
        "- [Async Book](https://rust-lang.github.io/async-book/)",
        "- [Tokio](https://tokio.rs/)",
        "- [Too many](https://four.example/)",
    ]
    result = ws.search("anything", backend="testkeyed")  # every backend answers, no key needed
    assert_contract(result, provider="testkeyed")
    assert result["items"][0]["rank"] == 1 and result["provider_meta"]["provider_name"] == "testkeyed"
    assert [(c.backend, c.query, c.max_results) for c in fake.calls] == [
        ("testhtml", "anything at all", 3),
        ("testkeyed", "anything", 5),
    ]


def test_code_under_test_when_a_backend_is_blocked(backends, websearch_fake):
    websearch_fake(
        {
            "testhtml": ws.WebBlocked("challenge page", detail_code="captcha_required"),
            "testkeyed": lambda params: [{"title": "From the API: %s" % params.query, "url": "https://api.example/"}],
        }
    )
    with pytest.raises(ws.WebBlocked) as info:
        reading_list("rust")
    assert info.value.detail_code == "captcha_required" and info.value.provider == "testhtml"
    result = ws.search("rust", backend=["testhtml", "testkeyed"])  # the fallback chain moves on
    assert [i["title"] for i in result["items"]] == ["From the API: rust"]
    assert result["errors"][0]["type"] == "WebBlocked"
    assert ws.search("rust")["provider_meta"]["provider_name"] == "stub"  # offline backends keep working


def test_fake_results_mapping_leaves_no_backend_on_the_network(backends):
    with fake_results({"testhtml": []}):
        assert ws.search("q", backend="testhtml")["items"] == []
        with pytest.raises(ws.WebProviderError) as info:
            ws.search("q", backend="testkeyed")
    assert info.value.detail_code == "no_recorded_case"
    with pytest.raises(TypeError):
        with fake_results({"testhtml": "not a list"}):
            pass
    with pytest.raises(ws.InvalidInput):
        with fake_results({"no-such-backend": []}):
            pass


# -- recorded answers ------------------------------------------------------------------------------


@pytest.fixture(params=["off", "chrome"], ids=["requests-wire", "browser-wire"])
def wire_kind(request, monkeypatch):
    """The replay below each wire kind: the client's own (``WEB_SEARCH_IMPERSONATE``) decides,
    so with the browser extra the recorded pages pass through the browser wire's request building."""
    if request.param != "off" and not browser_available():
        pytest.skip("needs the browser extra (curl_cffi, Python >= 3.10)")
    monkeypatch.setenv("WEB_SEARCH_IMPERSONATE", request.param)
    return request.param


@pytest.mark.usefixtures("wire_kind")
def test_code_under_test_with_recorded_pages(recorded, websearch_replay):
    replay = websearch_replay(recorded)
    expected = ["- [%s](%s)" % (i["title"], i["url"]) for i in golden_items(recorded, "testhtml/rust-async")]
    assert reading_list("rust async") == expected
    assert replay.calls[0].case == "testhtml/rust-async"


@pytest.mark.usefixtures("wire_kind")
def test_a_recorded_bot_wall_is_raised_as_in_production(recorded, websearch_replay):
    websearch_replay(recorded)
    with pytest.raises(ws.WebBlocked) as info:
        reading_list("blocked query")
    assert info.value.detail_code == "captcha_required"


def test_a_keyed_api_replays_without_its_key(recorded, websearch_replay):
    websearch_replay(recorded)
    result = ws.search("api query", backend="testkeyed")  # no TESTKEYED_API_KEY in this environment
    assert_contract(result, max_results=5, provider="testkeyed")
    assert result["items"] == golden_items(recorded, "testkeyed/api-query")
    assert result["provider_meta"]["request_id"] == "req-42"


def test_matching_rule(recorded):
    with replay_fixtures(recorded) as replay:
        ws.search("  rust \t async ", backend="testhtml", max_results=5)  # whitespace-collapsed query
        ws.search("rust async", backend="testhtml", max_results=3)
        ws.search("rust async", backend="testhtml", max_results=4)  # no exact match: first by name
        ws.search("rust async", backend="testhtml", max_results=5, locale="de-DE")  # same options beat same max_results
        with pytest.raises(ws.WebProviderError) as info:
            ws.search("Rust async", backend="testhtml")
    assert [c.case for c in replay.calls] == [
        "testhtml/rust-async-5",
        "testhtml/rust-async",
        "testhtml/rust-async",
        "testhtml/rust-async-de",
    ]
    assert info.value.detail_code == "no_recorded_case"
    assert "'rust async'" in info.value.message and "'blocked query'" in info.value.message


@pytest.mark.parametrize("impersonate", ["off", None], ids=["requests", "browser"])
def test_a_search_reaching_an_unreplayed_backend_says_the_network_is_blocked(recorded, impersonate, caplog):
    """A backend left out of ``replay_fixtures(backends=...)`` meets the block: the search's own
    typed error names the host and what to do (it was ``internal_error`` with a traceback logged)."""
    if impersonate is None and not browser_available():
        pytest.skip("needs the browser extra")
    with replay_fixtures(recorded, backends=["testhtml"]), pytest.raises(ws.NetworkError) as info:
        ws.search("q", backend="mojeek_html", settings=ws.Settings(impersonate=impersonate), retries=0)
    assert isinstance(info.value, NetworkAccessBlocked)
    assert info.value.detail_code == "network_blocked" and info.value.retryable is False
    assert "www.mojeek.com" in info.value.message and "replay" in str(info.value)
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


def test_replay_swaps_backends_only_inside_the_block(recorded):
    dead = ws.Settings(endpoints={"testhtml": "http://127.0.0.1:%d/html" % refused_port()})
    with ws.SearchClient("testhtml", settings=dead, retries=0, cache_ttl_s=0) as client:  # created before the block
        with replay_fixtures(recorded):
            assert len(client.search("rust async", max_results=3)["items"]) == 3
            with pytest.raises(NetworkAccessBlocked):
                socket.create_connection(("93.184.216.34", 80), timeout=1)
        assert backend_class("testhtml") is HtmlTestBackend
        with pytest.raises(ws.NetworkError):  # outside the block the real backend runs again
            client.search("rust async", max_results=3)
    with pytest.raises(FileNotFoundError):
        with replay_fixtures(recorded / "missing"):
            pass


def test_nested_blocks_restore_in_order(recorded):
    with replay_fixtures(recorded):
        with fake_results([{"title": "fake", "url": "https://fake.example/"}]):
            assert ws.search("rust async", backend="testhtml")["items"][0]["url"] == "https://fake.example/"
        assert ws.search("rust async", backend="testhtml", max_results=3)["items"] == golden_items(
            recorded, "testhtml/rust-async"
        )
    assert backend_class("testhtml") is HtmlTestBackend


# -- the contract assertion ------------------------------------------------------------------------


def test_assert_contract_accepts_real_results(backends):
    assert_contract(ws.search("python requests timeout"), max_results=5, provider="stub")


@pytest.mark.parametrize(
    "result, problem",
    [
        ([{"title": "t", "url": "https://a/", "snippet": "", "provider": "p", "rank": 1}], "not a dict with 'items'"),
        ({"results": []}, "has no 'items'"),
        (
            {"items": [{"title": "t", "url": "https://a/", "snippet": "", "provider": "p", "rank": 2}]},
            "item 1: rank is 2",
        ),
        ({"items": [{"title": "t", "url": "ftp://a/", "snippet": "", "provider": "p", "rank": 1}]}, "is not http(s)"),
        (
            {"items": [{"title": None, "url": "https://a/", "snippet": "", "provider": "p", "rank": 1}]},
            "title is not a string",
        ),
        (
            {"items": [{"title": "t", "url": "https://a/", "snippet": "", "provider": "p", "rank": 1, "raw": {}}]},
            "unexpected key 'raw'",
        ),
        ({"items": [], "html": "<html>"}, "unexpected top-level key 'html'"),
        (
            {"items": [{"title": "a  b", "url": "https://a/", "snippet": "", "provider": "p", "rank": 1}]},
            "not whitespace-collapsed",
        ),
    ],
)
def test_assert_contract_names_each_problem(result, problem):
    with pytest.raises(AssertionError) as info:
        assert_contract(result)
    assert problem in str(info.value)


def test_assert_contract_checks_max_results_and_provider():
    items = [{"title": "t", "url": "https://a%d/" % i, "snippet": "", "provider": "stub", "rank": i} for i in (1, 2, 3)]
    assert contract_problems({"items": items}, max_results=3, provider="stub") == []
    assert contract_problems({"items": items}, max_results=2) == ["3 items > max_results 2"]
    assert contract_problems({"items": items}, provider="brave")[0] == "item 1: provider 'stub', expected 'brave'"
