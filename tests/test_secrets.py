"""No API key ever shows: not in error messages (even when the service echoes the key
back), not in to_dict(), not in any log record (DEBUG included), not in the repr of
SearchClient, Settings or backend objects."""

import json
import logging

import pytest
import requests
import responses

import websearch_sync as ws
from websearch_sync.backends import backend_class

from servers import FaultServer, respond

KEYS = {
    "searxng": "sx-SECRET-9f8e7d6c5b4a",
    "brave": "br-SECRET-0a1b2c3d4e5f",
    "bocha": "bo-SECRET-1122334455aa",
}
SEARXNG = "https://searx.example.org/search"
BRAVE = "https://api.search.brave.com/res/v1/web/search"
BOCHA = "https://api.bochaai.com/v1/web-search"


def all_settings(**kwargs):
    return ws.Settings(
        providers={
            "searxng": {"base_url": "https://searx.example.org", "api_key": KEYS["searxng"]},
            "brave": {"api_key": KEYS["brave"]},
            "bocha": {"api_key": KEYS["bocha"]},
        },
        **kwargs,
    )


def assert_no_key(text):
    for key in KEYS.values():
        assert key not in text, "an API key leaked: %r" % text


def echo(backend):
    """An answer body that repeats the backend's key back (as careless services do)."""
    key = KEYS[backend]
    if backend == "brave":
        return json.dumps({"type": "ErrorResponse", "error": {"code": "SUBSCRIPTION_TOKEN_INVALID", "detail": "token %s is invalid" % key}})
    if backend == "bocha":
        return json.dumps({"code": "401", "message": "Invalid API KEY %s" % key, "log_id": "c66aac17eab1bb7e"})
    return json.dumps({"error": "bad token %s" % key})


CASES = [
    # (backend, method, url, status, body or exception)
    ("searxng", "GET", SEARXNG, 401, echo("searxng")),
    ("searxng", "GET", SEARXNG, 400, echo("searxng")),
    ("searxng", "GET", SEARXNG, 429, "slow down"),
    ("searxng", "GET", SEARXNG, 200, "<html>%s</html>" % KEYS["searxng"]),
    ("brave", "GET", BRAVE, 422, echo("brave")),
    ("brave", "GET", BRAVE, 403, echo("brave")),
    ("brave", "GET", BRAVE, 503, "down"),
    ("brave", "GET", BRAVE, None, requests.exceptions.ConnectTimeout("connect to %s timed out" % KEYS["brave"])),
    ("bocha", "POST", BOCHA, 401, echo("bocha")),
    ("bocha", "POST", BOCHA, 200, echo("bocha")),
    ("bocha", "POST", BOCHA, 429, echo("bocha")),
    ("bocha", "POST", BOCHA, None, requests.exceptions.ConnectionError("reset while sending %s" % KEYS["bocha"])),
]


@pytest.mark.parametrize("backend, method, url, status, body", CASES, ids=["%s-%s" % (c[0], c[3] or type(c[4]).__name__) for c in CASES])
def test_error_paths_never_show_a_key(backend, method, url, status, body, caplog):
    caplog.set_level(logging.DEBUG)
    with responses.RequestsMock() as mock:
        mock.add(method, url, body=body, status=status or 200, content_type="application/json")
        with ws.SearchClient(settings=all_settings()) as client:
            with pytest.raises(ws.WebSearchError) as info:
                client.search("q", backend=backend)
            assert_no_key(repr(client))
        sent = mock.calls[0].request.headers
    assert KEYS[backend] in (sent.get("Authorization", "") + sent.get("X-Subscription-Token", ""))  # the key was used
    error = info.value
    for item in [error] + error.errors:
        assert_no_key(str(item))
        assert_no_key(item.message)
        assert_no_key(repr(item))
        assert_no_key(json.dumps(item.to_dict()))
    assert_no_key(caplog.text)
    for record in caplog.records:
        assert_no_key(record.getMessage())


def test_soft_errors_of_a_successful_search_never_show_a_key():
    body = {
        "query": "q",
        "results": [{"title": "A", "url": "https://a.example/", "content": "a"}],
        "unresponsive_engines": [["google", "rejected token %s" % KEYS["searxng"]]],
    }
    with responses.RequestsMock() as mock:
        mock.add(responses.GET, SEARXNG, json=body)
        result = ws.search("q", backend="searxng", settings=all_settings())
    assert result["errors"] and result["items"]
    assert_no_key(json.dumps(result))


def test_real_socket_path_logs_at_debug_without_keys(caplog):
    """Through a real local server, urllib3's own DEBUG lines included."""
    caplog.set_level(logging.DEBUG)
    with FaultServer({"/search": respond(401, b"Unauthorized " + KEYS["searxng"].encode(), content_type="text/plain")}) as server:
        settings = ws.Settings(providers={"searxng": {"base_url": server.url(""), "api_key": KEYS["searxng"]}})
        with pytest.raises(ws.AuthError) as info:
            ws.search("q", backend="searxng", settings=settings)
        assert server.requests[0].headers["authorization"] == "Bearer " + KEYS["searxng"]
    assert_no_key(str(info.value))
    assert any(r.name.startswith("urllib3") for r in caplog.records), "urllib3 DEBUG logging was not captured"
    assert_no_key(caplog.text)


def test_reprs_of_settings_client_and_backends_never_show_a_key(monkeypatch):
    settings = all_settings(fetch_service_key="fetch-SECRET-key")
    assert_no_key(repr(settings))
    assert_no_key(str(settings))
    for name in KEYS:
        backend = backend_class(name)(settings)
        assert_no_key(repr(backend))
        assert KEYS[name] in backend.secrets()
    with ws.SearchClient("brave", settings=settings) as client:
        assert_no_key(repr(client))
    monkeypatch.setenv("SEARXNG_API_KEY", KEYS["searxng"])
    monkeypatch.setenv("BRAVE_API_KEY", KEYS["brave"])
    monkeypatch.setenv("BOCHA_API_KEY", KEYS["bocha"])
    monkeypatch.setenv("SEARXNG_BASE_URL", "https://searx.example.org")
    from_env = ws.Settings.from_env()
    assert from_env.provider("brave")["api_key"] == KEYS["brave"]
    assert_no_key(repr(from_env))
    with ws.SearchClient(settings=from_env) as client:
        assert_no_key(repr(client))
