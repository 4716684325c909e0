"""A new user's walk: configuration mistakes are refused up front, naming what is wrong."""

import pytest
import responses

import websearch_sync as ws
from websearch_sync.cli import main


def refused(call, detail, *words):
    with pytest.raises(ws.InvalidInput) as info:
        call()
    assert info.value.detail_code == detail, info.value
    for word in words:
        assert word in info.value.message, (word, info.value.message)
    return info.value


# -- proxy ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "proxy",
    [
        "notaurl",
        "proxy.example:8080",
        "http://",
        "ftp://proxy.example:21",
        "http://proxy.example:notaport",
        "http://proxy.example:99999",
        "http://pro xy:80",
        "//proxy.example:8080",
        "http://user:pw@:8080",
    ],
)
def test_a_malformed_proxy_is_refused_at_construction(proxy):
    refused(lambda: ws.Settings(proxy=proxy), "bad_proxy", "proxy")
    refused(lambda: ws.Settings.from_env(environ={"WEB_SEARCH_PROXY": proxy}), "bad_proxy", "WEB_SEARCH_PROXY")


@pytest.mark.parametrize(
    "proxy",
    [
        "http://proxy.example:8080",
        "https://proxy.example",
        "socks5://u:p@127.0.0.1:1080",
        "socks5h://proxy.example:1080",
        "http://[::1]:3128",
        "HTTP://Proxy.Example:80",
    ],
)
def test_well_formed_proxies_are_accepted(proxy):
    assert ws.Settings(proxy=proxy).proxy == proxy


@pytest.mark.parametrize(
    "proxy, written",
    [
        ("127.0.0.1:8080", "127.0.0.1:8080"),
        ("proxy.example:3128", "proxy.example:3128"),
        ("localhost:3128", "localhost:3128"),  # read as the scheme "localhost"
        ("//proxy.example:3128", "proxy.example:3128"),
        ("[::1]:3128", "[::1]:3128"),
        ("alice:hunter2@proxy.example:3128", "***@proxy.example:3128"),
    ],
)
def test_a_proxy_written_without_its_scheme_is_told_what_to_write(proxy, written):
    """Before: "its scheme must be one of http, https, socks4, ..." (got '127.0.0.1:8080'), which left the
    user to guess that the value lacks ``http://`` (requests takes such a value as an HTTP proxy)."""
    wanted = "must be a proxy URL with its scheme: write http://%s for an HTTP proxy (socks5h://%s for a SOCKS5 one)"
    error = refused(lambda: ws.Settings(proxy=proxy), "bad_proxy", "Settings.proxy " + wanted % (written, written))
    assert "hunter2" not in error.message
    environ = {"WEB_SEARCH_PROXY": proxy}
    refused(
        lambda: ws.Settings.from_env(environ=environ), "bad_proxy", "WEB_SEARCH_PROXY " + wanted % (written, written)
    )


def test_a_value_that_is_no_host_and_port_keeps_the_scheme_refusal():
    refused(lambda: ws.Settings(proxy="notaurl"), "bad_proxy", "its scheme must be one of http, https")


def test_the_proxy_password_is_not_in_the_refusal():
    error = refused(lambda: ws.Settings(proxy="ftp://alice:hunter2-secret@proxy.example:21"), "bad_proxy")
    assert "hunter2-secret" not in error.message


def test_a_malformed_proxy_fails_at_once_in_the_cli_without_a_request(monkeypatch, capsys):
    monkeypatch.setenv("WEB_SEARCH_PROXY", "notaurl")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:  # no wall clock: counts requests
        assert main(["search", "q", "-b", "ddg_html"]) == 2
    assert len(mock.calls) == 0
    assert capsys.readouterr().err.startswith("error: InvalidInput/bad_proxy: ")


# -- provider settings ---------------------------------------------------------------------------


def test_a_misspelled_provider_setting_is_refused_with_a_suggestion():
    error = refused(
        lambda: ws.Settings(providers={"brave": {"apikey": "k-123456"}}), "bad_setting", "apikey", "brave", "api_key"
    )
    assert "k-123456" not in error.message


@pytest.mark.parametrize(
    "backend, key, said",
    [
        (
            "brave",
            "BRAVE_API_KEY",
            "BRAVE_API_KEY is the environment variable of its setting 'api_key': write 'api_key'",
        ),
        ("searxng", "searxng_base_url", "SEARXNG_BASE_URL is the environment variable of its setting 'base_url'"),
    ],
)
def test_a_settings_variable_given_as_its_key_names_the_key(backend, key, said):
    """``providers={"brave": {"BRAVE_API_KEY": ...}}``, the variable the docs and `backends` name, said
    only ``has no setting 'BRAVE_API_KEY'; it reads: api_key, timeout_ms``, no word of the two names."""
    error = refused(lambda: ws.Settings(providers={backend: {key: "k-123456"}}), "bad_setting", key)
    assert said in error.message and "k-123456" not in error.message


@pytest.mark.parametrize(
    "backend, key",
    [
        ("searxng", "baseurl"),
        ("service", "header"),
        ("bocha", "top_k"),
        ("ddg_html", "api_key"),
        ("stub", "note"),
        ("kagi", "timeout"),
    ],
)
def test_any_setting_a_backend_does_not_read_is_refused(backend, key):
    refused(lambda: ws.Settings(providers={backend: {key: "x"}}), "bad_setting", key)


def test_provider_overrides_of_from_env_are_checked_too():
    refused(lambda: ws.Settings.from_env(environ={}, providers={"tavily": {"api-key": "x"}}), "bad_setting", "api-key")


@pytest.mark.parametrize(
    "backend, key",
    [
        ("brave", "api_key"),
        ("brave", "timeout_ms"),
        ("searxng", "base_url"),
        ("service", "request_id_header"),
        ("jina", "reader_url"),
        ("bocha", "top_k_default"),
    ],
)
def test_documented_provider_settings_are_accepted(backend, key):
    value = 5 if key.endswith(("_ms", "_default")) else "https://x.example/"
    assert ws.Settings(providers={backend: {key: value}}).provider(backend) == {key: value}


@pytest.mark.parametrize("value", [1.5, 0, -100, True, "8000", 10**9])
def test_a_provider_timeout_must_be_whole_milliseconds(value):
    refused(lambda: ws.Settings(providers={"searxng": {"timeout_ms": value}}), "bad_setting", "timeout_ms")


@pytest.mark.parametrize(
    "field, value", [("timeout_ms", 1500.5), ("timeout_ms", 0), ("max_results", 2.0), ("max_response_bytes", -1)]
)
def test_settings_numbers_are_whole_and_positive(field, value):
    refused(lambda: ws.Settings(**{field: value}), "bad_setting", field)


@pytest.mark.parametrize(
    "given, meant",
    [
        ({"providers": {"brvae": {"api_key": "k"}}}, "brave"),
        ({"endpoints": {"dgg_html": "http://x.example/"}}, "ddg_html"),
    ],
)
def test_settings_for_a_backend_nobody_registered_are_refused_with_the_closest_name(given, meant):
    with pytest.raises(ws.InvalidInput, match="did you mean %s" % meant) as info:
        ws.Settings(**given)
    assert info.value.detail_code == "unknown_backend"


# -- client arguments ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cooldowns, word",
    [
        ({"nope": 5}, "nope"),
        ({"http_429": -1}, "http_429"),
        ({"captcha_required": "600"}, "captcha_required"),
        ({"http_403": float("nan")}, "http_403"),
        ([("http_429", 5)], "cooldowns"),
    ],
)
def test_cooldowns_are_checked(cooldowns, word):
    refused(lambda: ws.SearchClient("stub", settings=ws.Settings(), cooldowns=cooldowns), "bad_cooldowns", word)


def test_cooldowns_accept_the_known_kinds_and_zero():
    with ws.SearchClient(
        "stub", settings=ws.Settings(), cooldowns={"captcha_required": 0, "http_429": 1.5, "http_403": 60}
    ):
        pass


def test_per_backend_intervals_name_known_backends():
    refused(
        lambda: ws.SearchClient("stub", settings=ws.Settings(), min_interval_s={"brvae": 1.0}),
        "bad_min_interval_s",
        "brvae",
    )


# -- WEB_SEARCH_BACKEND --------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nope", "brave,nope", "ddg-html"])
def test_an_unknown_backend_in_the_environment_fails_the_call_that_uses_it(value):
    settings = ws.Settings.from_env(environ={"WEB_SEARCH_BACKEND": value})
    refused(lambda: ws.search("q", settings=settings), "unknown_backend", "WEB_SEARCH_BACKEND", "known")
    refused(lambda: ws.SearchClient(settings=settings).search("q"), "unknown_backend", "WEB_SEARCH_BACKEND")


def test_an_explicit_backend_wins_over_a_misspelt_environment_backend(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "ddg_htm")
    assert ws.SearchClient("stub").search("q")["provider_meta"]["provider_name"] == "stub"
    assert ws.search("q", backend="stub")["provider_meta"]["provider_name"] == "stub"
    with ws.SearchClient() as client:
        assert client.search("q", backend="stub")["provider_meta"]["provider_name"] == "stub"
    refused(lambda: ws.search("q"), "unknown_backend", "did you mean ddg_html?")


def test_fetch_does_not_read_the_search_backend_variable(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "ddg_htm")
    # Refused for its address, not for a search setting it does not use.
    refused(lambda: ws.fetch("http://127.0.0.1:9/"), "private_address")


@pytest.mark.parametrize(
    "backend, guess", [("ddg_htm", "ddg_html"), (["stub", "bravee"], "brave"), ("stub,duckduckgo", None)]
)
def test_a_misspelt_settings_backend_is_refused_when_built(backend, guess):
    error = refused(lambda: ws.Settings(backend=backend), "unknown_backend", "Settings.backend", "known backends")
    if guess:
        assert "did you mean %s?" % guess in error.message
    refused(lambda: ws.Settings().replace(backend=backend), "unknown_backend")


def test_an_unknown_environment_backend_fails_the_search(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "nope")
    refused(lambda: ws.search("q"), "unknown_backend", "nope")


def test_an_explicit_backend_overrides_a_bad_environment_backend(monkeypatch, capsys):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "nope")
    assert ws.Settings.from_env(backend="stub").backend == "stub"
    assert main(["search", "q", "-b", "stub", "-n", "1"]) == 0
    assert main(["search", "q", "-n", "1"]) == 2
    assert "error: InvalidInput/unknown_backend: " in capsys.readouterr().err


def test_known_and_auto_environment_backends_are_kept():
    assert ws.Settings.from_env(environ={"WEB_SEARCH_BACKEND": "auto"}).backend == "auto"
    assert ws.Settings.from_env(environ={"WEB_SEARCH_BACKEND": "Brave, ddg_html"}).backend == ("brave", "ddg_html")


def test_a_backend_list_is_kept_as_a_tuple_the_caller_cannot_change():
    """docs/configuration.md: names in order, "a list, a tuple or a generator, kept as a tuple". A list
    was kept as it was: appending to it afterwards put an unchecked name in the settings, and a client
    built from them said "<unknown WEB_SEARCH_BACKEND>" of a backend no environment named."""
    names = ["stub"]
    settings = ws.Settings(backend=names)
    names.append("nope")
    assert settings.backend == ("stub",) and settings == ws.Settings(backend=("stub",))
    assert repr(ws.SearchClient(settings=settings)) == "SearchClient(backend=['stub'], strategy='fallback')"


def test_an_overridden_proxy_is_not_checked_from_the_environment():
    settings = ws.Settings.from_env(environ={"WEB_SEARCH_PROXY": "notaurl"}, proxy="http://proxy.example:3128")
    assert settings.proxy == "http://proxy.example:3128"


def test_a_missing_key_whose_variable_is_set_says_that_settings_built_in_code_read_none(monkeypatch):
    """``BRAVE_API_KEY`` exported, then ``settings=ws.Settings(timeout_ms=5000)``: the search said "set
    BRAVE_API_KEY" to a user who had set it. ``Settings(...)`` reads no variable (docs/api.md): it says so,
    and the way out. Without the variable, or with settings read from the environment, as before."""
    said = (
        "brave needs an API key: BRAVE_API_KEY is set in the environment, but Settings built in code read no"
        " variable: build them with Settings.from_env(...) (its keywords override the environment), or give"
        " Settings.providers['brave']['api_key']"
    )
    with pytest.raises(ws.AuthError) as caught:
        ws.search("q", backend="brave", settings=ws.Settings(timeout_ms=5000))
    assert (
        caught.value.message == "brave needs an API key: set BRAVE_API_KEY (or Settings.providers['brave']['api_key'])"
    )
    monkeypatch.setenv("BRAVE_API_KEY", "k" * 20)
    with pytest.raises(ws.AuthError) as caught:
        ws.search("q", backend="brave", settings=ws.Settings(timeout_ms=5000))
    assert caught.value.message == said and caught.value.detail_code == "missing_api_key"
    with pytest.raises(ws.InvalidInput) as caught:
        ws.search("q", backend="searxng", settings=ws.Settings(timeout_ms=5000))
    assert caught.value.detail_code == "not_configured" and "set SEARXNG_BASE_URL" in caught.value.message
    monkeypatch.setenv("SEARXNG_BASE_URL", "http://127.0.0.1:9/")
    with pytest.raises(ws.InvalidInput) as caught:
        ws.search("q", backend="searxng", settings=ws.Settings(timeout_ms=5000))
    assert caught.value.message.startswith("searxng is not configured: SEARXNG_BASE_URL is set in the environment")


@pytest.mark.parametrize(
    "backend, variable, value, said",
    [
        (
            "brave",
            "BRAVE_API_KEY",
            " ",
            "brave needs an API key: BRAVE_API_KEY holds white space alone: give it the key",
        ),
        ("brave", "BRAVE_API_KEY", "", "brave needs an API key: BRAVE_API_KEY is set but empty: give it the key"),
        (
            "searxng",
            "SEARXNG_BASE_URL",
            "\t",
            "searxng is not configured: SEARXNG_BASE_URL holds white space alone: give it the value",
        ),
    ],
)
def test_a_variable_set_blank_is_said_so(monkeypatch, capsys, backend, variable, value, said):
    """Before: ``BRAVE_API_KEY=" "`` (an ``.env`` line with a stray space) or ``BRAVE_API_KEY=`` (a CI secret the
    job cannot read) was told ``set BRAVE_API_KEY``, to a user who had set it."""
    monkeypatch.setenv(variable, value)
    with pytest.raises(ws.WebSearchError) as refused:
        ws.search("q", backend=backend)
    assert refused.value.message == said
    assert main(["search", "q", "-b", backend]) in (2, 3)
    assert "error: %s/%s: %s" % (refused.value.code, refused.value.detail_code, said) in capsys.readouterr().err
