"""An endpoint written in quotes (``SEARXNG_BASE_URL="http://..."`` in a file that docker's
``--env-file`` or systemd's ``EnvironmentFile=`` reads keeps them) is refused as before, and the
message says what is wrong with it: the quotes, not only "not an http(s) URL". Read from the environment,
such an endpoint is refused where it is used (a search of its backend); set in code, when the ``Settings`` are
built, with the same words."""

import pytest

import websearch_sync as ws


@pytest.mark.parametrize(
    "environ, origin",
    [
        (
            {"SEARXNG_BASE_URL": '"http://searx.example/"'},
            "Settings.providers['searxng']['base_url'] or SEARXNG_BASE_URL",
        ),
        (
            {"WEB_SEARCH_ENDPOINT_SEARXNG": "'http://searx.example/search'"},
            "Settings.endpoints['searxng'] or WEB_SEARCH_ENDPOINT_SEARXNG",
        ),
    ],
)
def test_a_quoted_endpoint_is_refused_naming_the_quotes(environ, origin):
    settings = ws.Settings.from_env(environ)  # the environment's: refused at use
    with pytest.raises(ws.InvalidInput) as caught:
        ws.search("q", backend="searxng", settings=settings)
    assert (caught.value.detail_code, caught.value.message) == (
        "bad_endpoint",
        "searxng: the endpoint is not an http(s) URL with a host (check %s); it is written in quotes: remove them"
        % origin,
    )


def test_an_unquoted_bad_endpoint_keeps_its_message():
    settings = ws.Settings.from_env({"WEB_SEARCH_ENDPOINT_SEARXNG": "ftp://searx.example/"})
    with pytest.raises(ws.InvalidInput) as caught:
        ws.search("q", backend="searxng", settings=settings)
    assert caught.value.message == (
        "searxng: the endpoint is not an http(s) URL with a host "
        "(check Settings.endpoints['searxng'] or WEB_SEARCH_ENDPOINT_SEARXNG)"
    )


def test_an_endpoint_that_is_not_a_string_is_a_bad_endpoint_not_an_internal_error():
    with pytest.raises(ws.InvalidInput) as caught:
        ws.search("q", backend="searxng", settings=ws.Settings(endpoints={"searxng": 5}))
    assert (caught.value.detail_code, "it is written in quotes" in caught.value.message) == ("bad_endpoint", False)


@pytest.mark.parametrize(
    "environ",
    [
        {"SEARXNG_BASE_URL": "localhost:8080"},  # SearXNG's docker port, as typed
        {"SEARXNG_BASE_URL": "searx.example.org"},
        {"WEB_SEARCH_ENDPOINT_SEARXNG": "searx.example.org/search"},
    ],
)
def test_an_endpoint_without_its_scheme_is_refused_saying_so(environ):
    """``SEARXNG_BASE_URL=localhost:8080`` was "not an http(s) URL with a host" alone: the scheme it lacks unsaid."""
    settings = ws.Settings.from_env(environ)
    with pytest.raises(ws.InvalidInput) as caught:
        ws.search("q", backend="searxng", settings=settings)
    assert caught.value.message.endswith("; it has no scheme: write http:// or https:// before it")
    assert "localhost:8080" not in caught.value.message and "searx.example.org" not in caught.value.message
