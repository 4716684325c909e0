"""A URL setting given in code that is no http(s) URL with a host is refused when the ``Settings`` are
built (``bad_endpoint``), by the one check every endpoint passes at its use: ``fetch_service_url="notaurl"``
only logged a warning at each fetch, which then read the page directly; ``endpoints={"brave": "notaurl"}``
and a backend setting of kind ``url`` were refused only by a search of that backend. Read from the
environment, the same values are refused where they are used (a stray variable stops no other command)."""

import pytest

import websearch_sync as ws


@pytest.mark.parametrize(
    "given, message, provider",
    [
        (
            {"fetch_service_url": "notaurl"},
            "Settings.fetch_service_url (WEB_FETCH_SERVICE_URL) is not an http(s) URL with a host",
            None,
        ),
        (
            {"endpoints": {"brave": "notaurl"}},
            "brave: Settings.endpoints['brave'] or WEB_SEARCH_ENDPOINT_BRAVE is not an http(s) URL with a host",
            "brave",
        ),
        (
            {"providers": {"searxng": {"base_url": "localhost:8080"}}},
            "searxng: Settings.providers['searxng']['base_url'] (SEARXNG_BASE_URL) is not an http(s) URL with a"
            " host; it has no scheme: write http:// or https:// before it",
            "searxng",
        ),
        (
            {"providers": {"jina": {"reader_url": "ftp://reader.example/"}}},
            "jina: Settings.providers['jina']['reader_url'] is not an http(s) URL with a host",
            "jina",
        ),
        (
            {"endpoints": {"ddg_html": "https://a..b.example/html/"}},
            "ddg_html: Settings.endpoints['ddg_html'] or WEB_SEARCH_ENDPOINT_DDG_HTML: the host is not a valid"
            " host name (label 2 is empty)",
            "ddg_html",
        ),
    ],
)
def test_a_url_setting_in_code_that_is_no_http_url_is_refused_when_built(given, message, provider):
    with pytest.raises(ws.InvalidInput) as caught:
        ws.Settings(**given)
    assert (caught.value.detail_code, caught.value.message, caught.value.provider) == (
        "bad_endpoint",
        message,
        provider,
    )


def test_the_refusal_shows_no_password_of_the_url():
    with pytest.raises(ws.InvalidInput) as caught:
        ws.Settings(fetch_service_url="user:s3cret@reader.example/")
    assert "s3cret" not in str(caught.value) and "reader.example" not in str(caught.value)


def test_an_override_and_replace_are_checked_as_code():
    with pytest.raises(ws.InvalidInput, match="fetch_service_url"):
        ws.Settings.from_env({}, fetch_service_url="notaurl")
    with pytest.raises(ws.InvalidInput, match="endpoints"):
        ws.Settings().replace(endpoints={"brave": "notaurl"})


def test_a_usable_url_and_an_empty_one_are_taken():
    settings = ws.Settings(fetch_service_url="", endpoints={"brave": "https://mirror.example/api"})
    assert (settings.fetch_service_url, settings.endpoints) == ("", {"brave": "https://mirror.example/api"})


def test_from_the_environment_a_bad_fetch_service_url_fails_the_fetch_not_read_past():
    """Read from the environment, ``WEB_FETCH_SERVICE_URL=notaurl`` builds the settings (a search still
    works) and fails each fetch before any request, as a control character in it does: a configuration
    error, not a failing service to read the page past."""
    settings = ws.Settings.from_env({"WEB_FETCH_SERVICE_URL": "notaurl", "WEB_SEARCH_ENDPOINT_BRAVE": "notaurl"})
    assert ws.search("q", backend="stub", settings=settings)["items"]
    for kept in (settings, settings.replace(timeout_ms=5000)):
        with pytest.raises(ws.InvalidInput) as caught:
            ws.fetch("https://example.com/", settings=kept)
        assert (caught.value.detail_code, caught.value.provider) == ("bad_endpoint", "fetch_service")
        with pytest.raises(ws.InvalidInput) as caught:
            ws.search("q", backend="brave", settings=kept.replace(providers={"brave": {"api_key": "k"}}))
        assert (caught.value.detail_code, caught.value.provider) == ("bad_endpoint", "brave")
