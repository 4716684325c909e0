"""A tab or line break inside a configured URL (a value pasted across lines, an environment file
with an escape in it) is ``bad_endpoint`` naming the setting and the character, before any request:
``urlsplit`` dropped a tab or line break without a word (a base URL ``https://searx.exa<TAB>mple/``
searched ``searx.example``) or the request carried it encoded (``/se%0Aarch``). Set in code, it is
refused when the ``Settings`` are built; read from the environment, where it is used (a search of
that backend, a fetch through the service), so that a stray variable of a backend never used stops
no other command. Whitespace around a value is still stripped, as docs/configuration.md says."""

import copy
import dataclasses
import json
import pickle

import pytest

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.testing import MockResponse, MockWire, fake_results


def _refusal(**settings):
    """The ``bad_endpoint`` message of building ``Settings(**settings)``: refused there, before any client
    (checked at use, a fetch service's was taken for a failing service at every fetch)."""
    with pytest.raises(ws.InvalidInput) as caught:
        ws.Settings(**settings)
    assert caught.value.detail_code == "bad_endpoint"
    return caught.value.message


_RULE = " (a URL may hold none: refused, as in a fetch's URL)"


_CASES = [
    (
        "searxng",
        "web",
        {"providers": {"searxng": {"base_url": "https://searx.exa\tmple/"}}},
        {"SEARXNG_BASE_URL": "https://searx.exa\tmple/"},
        "searxng: Settings.providers['searxng']['base_url'] (SEARXNG_BASE_URL) holds the control character '\\t'",
    ),
    (
        "searxng",
        "web",
        {"endpoints": {"searxng": "https://searx.example/se\narch"}},
        {"WEB_SEARCH_ENDPOINT_SEARXNG": "https://searx.example/se\narch"},
        "searxng: Settings.endpoints['searxng'] or WEB_SEARCH_ENDPOINT_SEARXNG holds the control character '\\n'",
    ),
    (
        "service",
        "web",
        {"providers": {"service": {"url": "https://gw.example/v1\r/search", "api_key": "k"}}},
        {"WEB_SEARCH_SERVICE_URL": "https://gw.example/v1\r/search", "WEB_SEARCH_SERVICE_KEY": "k"},
        "service: Settings.providers['service']['url'] (WEB_SEARCH_SERVICE_URL) holds the control character '\\r'",
    ),
    (
        "bocha",
        "web",
        {"providers": {"bocha": {"base_url": "https://bo.exa\tmple", "api_key": "k"}}},
        {"BOCHA_BASE_URL": "https://bo.exa\tmple", "BOCHA_API_KEY": "k"},
        "bocha: Settings.providers['bocha']['base_url'] (BOCHA_BASE_URL) holds the control character '\\t'",
    ),
    (
        "bing_html",
        "news",
        {"endpoints": {"bing_html": "https://bing.exa\tmple/search"}},
        {"WEB_SEARCH_ENDPOINT_BING_HTML": "https://bing.exa\tmple/search"},
        "bing_html: Settings.endpoints['bing_html'] or WEB_SEARCH_ENDPOINT_BING_HTML holds the control character '\\t'",
    ),
]
_IDS = ["base-url-host", "override-path", "service-url", "json-api-base-url", "override-of-a-vertical"]


@pytest.mark.parametrize(("backend", "vertical", "settings", "env", "said"), _CASES, ids=_IDS)
def test_a_control_character_inside_a_url_set_in_code_is_refused_when_the_settings_are_built(
    backend, vertical, settings, env, said
):
    assert _refusal(**settings) == said + _RULE


@pytest.mark.parametrize(("backend", "vertical", "settings", "env", "said"), _CASES, ids=_IDS)
def test_a_control_character_inside_a_url_from_the_environment_is_refused_by_the_search_using_it(
    backend, vertical, settings, env, said
):
    """``Settings.from_env`` builds (another backend's search would work); the search of this
    backend is ``bad_endpoint`` naming the variable, before any request (the check at use)."""
    wire = MockWire(lambda request: MockResponse(status=500))
    client = ws.SearchClient(backend, settings=ws.Settings.from_env(env), wire=wire, retries=0)
    with pytest.raises(ws.InvalidInput) as caught:
        client.search("q", vertical=vertical)
    assert (caught.value.detail_code, caught.value.message, wire.requests) == ("bad_endpoint", said + _RULE, [])


_STRAY = {
    "SEARXNG_BASE_URL": "https://searx.example\nhttps://other.example\n",
    "WEB_SEARCH_ENDPOINT_BRAVE": "https://brave.exa\tmple/",
    "WEB_FETCH_SERVICE_URL": "https://reader.exa\tmple/",
}


@pytest.mark.parametrize("variable", sorted(_STRAY))
def test_a_stray_url_variable_of_something_unused_stops_no_other_command(variable, monkeypatch, capsys):
    """A user of other backends with a two-line ``SEARXNG_BASE_URL`` (or a tab in another backend's
    endpoint, in the fetch service's URL) got exit 2 ``bad_endpoint`` from every command, ``backends``
    and a search of another backend included: the environment's value was refused with the settings."""
    monkeypatch.setenv(variable, _STRAY[variable])
    assert main(["backends"]) == 0
    assert main(["search", "q", "-b", "stub", "--json"]) == 0
    assert "bad_endpoint" not in capsys.readouterr().err


def test_backends_lists_a_backend_whose_environment_url_is_unusable_as_not_configured(monkeypatch, capsys):
    """``websearch-sync backends`` said "yes" for SearXNG under a two-line ``SEARXNG_BASE_URL``, whose
    every search is refused (``bad_endpoint``) before a request: the listing says why instead."""
    monkeypatch.setenv("SEARXNG_BASE_URL", _STRAY["SEARXNG_BASE_URL"])
    assert main(["backends", "--json"]) == 0
    (row,) = [row for row in json.loads(capsys.readouterr().out) if row["name"] == "searxng"]
    assert row["configured"] is False and "control character" in row["error"]
    monkeypatch.setenv("SEARXNG_BASE_URL", "https://searx.example/\n")  # the documented strip: usable
    assert main(["backends", "--json"]) == 0
    (row,) = [row for row in json.loads(capsys.readouterr().out) if row["name"] == "searxng"]
    assert row["configured"] is True and "error" not in row


def test_a_url_set_in_code_over_the_environment_is_still_refused_when_built():
    """``from_env``'s overrides and :meth:`Settings.replace` are code: refused when built, while the
    environment's own flawed value, carried over by ``replace``, is left to its use."""
    for make in (
        lambda: ws.Settings.from_env({}, fetch_service_url="https://reader.exa\tmple/"),
        lambda: ws.Settings.from_env({}, endpoints={"searxng": "https://searx.exa\tmple/"}),
        lambda: ws.Settings.from_env(
            {"SEARXNG_BASE_URL": "https://ok.example"}, providers={"searxng": {"base_url": "https://a\tb/"}}
        ),
        lambda: ws.Settings.from_env(_STRAY).replace(endpoints={"brave": "https://brave.example/\x00"}),
    ):
        with pytest.raises(ws.InvalidInput) as caught:
            make()
        assert caught.value.detail_code == "bad_endpoint"
    kept = ws.Settings.from_env(_STRAY).replace(timeout_ms=5000)
    assert kept.fetch_service_url == _STRAY["WEB_FETCH_SERVICE_URL"]


def test_a_line_break_around_a_url_from_the_environment_is_stripped_as_before():
    """The documented strip: ``SEARXNG_BASE_URL`` read with its newline searches that instance."""
    wire = MockWire(lambda request: MockResponse(status=500))
    settings = ws.Settings.from_env({"SEARXNG_BASE_URL": "https://searx.example/\n"})
    with pytest.raises(ws.BadGateway):
        ws.SearchClient("searxng", settings=settings, wire=wire, retries=0).search("q")
    assert [request.url.split("?")[0] for request in wire.requests] == ["https://searx.example/search"]


@pytest.mark.parametrize(
    ("url", "held"),
    [("https://reader.exa\tmple/", "\t"), ("https://reader.example/\n", "\n")],
    ids=["tab-in-host", "line-break"],
)
def test_a_fetch_service_url_holding_a_control_character_set_in_code_is_refused_with_the_settings(url, held):
    """Its tab made requests refuse it as an InvalidURL naming neither the setting nor the character;
    a trailing line break set in code was sent as ``%0A``."""
    said = "Settings.fetch_service_url (WEB_FETCH_SERVICE_URL) holds the control character %r" % held
    assert _refusal(fetch_service_url=url) == said + _RULE


def test_a_fetch_service_url_from_the_environment_holding_one_fails_the_fetch_not_the_search(caplog):
    """A configuration error, not a failing service: checked at each fetch, it was taken for one (a
    warning per fetch, the page read directly, nothing in the result). Fetch is ``bad_endpoint``
    naming the variable, before any request; a search, which does not use it, works."""
    page = "<p>%s</p>" % ("word " * 60)
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "text/html"}, page))
    settings = ws.Settings.from_env({"WEB_FETCH_SERVICE_URL": "https://reader.exa\tmple/"})
    client = ws.SearchClient("stub", settings=settings, wire=wire, retries=0)
    with pytest.raises(ws.InvalidInput) as caught:
        client.fetch("https://example.com/")
    said = "fetch_service: Settings.fetch_service_url (WEB_FETCH_SERVICE_URL) holds the control character '\\t'"
    assert (caught.value.detail_code, caught.value.message, wire.requests) == ("bad_endpoint", said + _RULE, [])
    assert client.search("q")["items"]
    assert "fetch service" not in caplog.text


def test_the_fetch_command_says_the_fetch_service_url_from_the_environment_is_a_bad_endpoint(monkeypatch, capsys):
    monkeypatch.setenv("WEB_FETCH_SERVICE_URL", "https://reader.example/v1\n/x")
    assert main(["fetch", "https://example.com/"]) == 2
    assert "InvalidInput/bad_endpoint: fetch_service: Settings.fetch_service_url (WEB_FETCH_SERVICE_URL)" in (
        capsys.readouterr().err
    )


def test_backends_lists_the_offline_stub_as_configured(capsys):
    """The endpoint check of the listing asked the stub, which sends no request, for an endpoint: it was
    listed as "no (backend stub has no endpoint configured: set ... WEB_SEARCH_ENDPOINT_STUB ...)"."""
    assert main(["backends", "--json"]) == 0
    (row,) = [row for row in json.loads(capsys.readouterr().out) if row["name"] == "stub"]
    assert row["configured"] is True and "error" not in row


def test_which_urls_the_environment_left_to_their_use_is_no_argument_of_the_settings():
    """``env_urls_at_use`` was an argument of ``Settings(...)``: code naming a flawed URL in it skipped
    the check at build (``Settings(fetch_service_url=URL, env_urls_at_use={("fetch_service_url", URL)})``).
    Only ``from_env`` sets it; ``replace``, a pickle and a copy keep it, so the environment's flawed URL
    stays refused at its use, not when they are built."""
    url = _STRAY["WEB_FETCH_SERVICE_URL"]
    with pytest.raises(TypeError, match="env_urls_at_use"):
        ws.Settings(fetch_service_url=url, env_urls_at_use=frozenset({("fetch_service_url", url)}))
    with pytest.raises(TypeError, match="env_urls_at_use"):
        ws.Settings().replace(env_urls_at_use=frozenset())
    settings = ws.Settings.from_env({"WEB_FETCH_SERVICE_URL": url})
    assert ws.Settings().env_urls_at_use == frozenset()
    for kept in (
        settings.replace(timeout_ms=5000),
        pickle.loads(pickle.dumps(settings)),
        copy.copy(settings),
        copy.deepcopy(settings),
    ):
        assert kept.env_urls_at_use == frozenset({("fetch_service_url", url)})
        with pytest.raises(ws.InvalidInput) as caught:
            ws.SearchClient("stub", settings=kept, wire=MockWire(lambda request: MockResponse(500))).fetch(
                "https://example.com/"
            )
        assert caught.value.detail_code == "bad_endpoint"


def test_dataclasses_replace_checks_an_environment_url_as_docs_configuration_says():
    """docs/configuration.md: change a field with ``settings.replace``; ``dataclasses.replace`` builds
    through the constructor, which cannot be told a URL came from the environment, so it refuses one."""
    settings = ws.Settings.from_env({"WEB_FETCH_SERVICE_URL": _STRAY["WEB_FETCH_SERVICE_URL"]})
    assert settings.replace(timeout_ms=5000).timeout_ms == 5000
    with pytest.raises(ws.InvalidInput) as caught:
        dataclasses.replace(settings, timeout_ms=5000)
    assert caught.value.detail_code == "bad_endpoint"


def test_include_content_under_a_fetch_service_url_from_the_environment_holding_one_says_so_per_page():
    """Each page ``include_content`` reads goes through the fetch service: each is an ``errors`` entry
    ``bad_endpoint`` naming the variable, with its URL, before any request; the search keeps its results
    (a page that fails never fails the search), and no page is read directly instead."""
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "text/html"}, "<p>%s</p>" % ("word " * 60)))
    settings = ws.Settings.from_env({"WEB_FETCH_SERVICE_URL": "https://reader.exa\tmple/"})
    items = [{"title": "A", "url": "https://a.example/", "snippet": ""}, {"title": "B", "url": "https://b.example/"}]
    with fake_results({"bing_html": items}):
        with ws.SearchClient("bing_html", settings=settings, wire=wire, cache_ttl_s=0) as client:
            response = client.search("q", include_content=True)
    said = "fetch_service: Settings.fetch_service_url (WEB_FETCH_SERVICE_URL) holds the control character '\\t'"
    assert [(item["url"], item["content"]) for item in response["items"]] == [
        ("https://a.example/", ""),
        ("https://b.example/", ""),
    ]
    assert [(error["detail_code"], error["message"], error["url"]) for error in response["errors"]] == [
        ("bad_endpoint", said + _RULE, "https://a.example/"),
        ("bad_endpoint", said + _RULE, "https://b.example/"),
    ]
    assert wire.requests == []


def test_the_environment_settings_are_read_once_and_their_urls_judged_by_their_kind(monkeypatch):
    """``Settings.from_env`` reads each backend's settings from the environment once; which of them are
    URLs left to their use is judged by their declared kind (one question a backend), not by reading the
    settings again for each value (``_refused_url`` did, once a key: three reads of SearXNG's here)."""
    from websearch_sync import config

    catalogue = config._backends
    reads = []
    original = type(catalogue).read_settings

    def counted(self, name, given, environ=None):
        reads.append((name, environ is None))
        return original(self, name, given, environ)

    monkeypatch.setattr(type(catalogue), "read_settings", counted)
    env = {"SEARXNG_BASE_URL": "notaurl", "SEARXNG_API_KEY": "a\tb", "WEB_SEARCH_SERVICE_URL": "https://ok.example/"}
    settings = ws.Settings.from_env(env)
    from_env = {name for name, _ in reads}
    assert [read for read in reads if read[0] == "searxng"] == [("searxng", False), ("searxng", True)]  # env, build
    assert "service" in from_env
    assert settings.env_urls_at_use == frozenset(
        {("providers", "searxng", "base_url", "notaurl"), ("providers", "searxng", "api_key", "a\tb")}
    )
