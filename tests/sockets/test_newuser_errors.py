"""A new user's walk: what an error's ``retryable`` says is what the client does."""

import socket

import pytest
from clocks import FakeClock
from servers import FaultServer, json_results

import websearch_sync as ws
from websearch_sync.client.attempts import is_retryable
from websearch_sync.errors import ERROR_CLASSES

DETAILS = [
    None,
    "budget_exhausted",
    "deadline_exceeded",
    "read_timeout",
    "dns_error",
    "connection_refused",
    "http_429",
    "http_403",
    "captcha_required",
    "http_502",
    "proxy_error",
]


@pytest.mark.parametrize("code", sorted(ERROR_CLASSES))
@pytest.mark.parametrize("detail", DETAILS)
def test_the_client_retries_exactly_what_says_retryable(code, detail):
    error = ERROR_CLASSES[code]("x", detail_code=detail)
    assert is_retryable(error) is error.retryable


def test_budget_exhausted_is_not_retryable():
    error = ws.Timeout("slot too late", detail_code="budget_exhausted")
    assert error.retryable is False and error.to_dict()["retryable"] is False


def test_budget_exhausted_from_a_client_says_not_retryable(json_backends):
    json_backends("aa")
    with FaultServer({"/aa": json_results("https://a.example/")}) as server:
        settings = ws.Settings(endpoints={"aa": server.url("/aa")})
        with ws.SearchClient("aa", settings=settings, min_interval_s=5.0, cache_ttl_s=0) as client:
            client.search("one")
            with pytest.raises(ws.Timeout) as info:
                client.search("two", budget_ms=1000)
    assert info.value.detail_code == "budget_exhausted" and info.value.retryable is False


def test_a_name_that_does_not_resolve_is_tried_once(testjson, monkeypatch):
    lookups = []

    def unknown_name(host, *args, **kwargs):
        lookups.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", unknown_name)
    clock = FakeClock()
    settings = ws.Settings(endpoints={"testjson": "http://no-such-host.invalid/s"})
    with ws.SearchClient("testjson", settings=settings, retries=2, clock=clock, cache_ttl_s=0) as client:
        with pytest.raises(ws.NetworkError) as info:
            client.search("q")
    assert info.value.detail_code == "dns_error"
    assert info.value.retryable is False
    assert lookups == ["no-such-host.invalid"] and clock.sleeps == []


def test_a_failed_chain_keeps_every_backends_failure_for_tools_and_json():
    from websearch_sync import tool

    first = ws.WebBlocked("blocked by a", provider="aa", detail_code="http_403")
    first.errors = [
        ws.AuthError("key refused by b", provider="bb", detail_code="http_401"),
        ws.Timeout("c was slow", provider="cc", detail_code="read_timeout"),
    ]
    data = first.to_dict()
    assert [(e["provider"], e["type"], e["detail_code"]) for e in data["errors"]] == [
        ("bb", "AuthError", "http_401"),
        ("cc", "Timeout", "read_timeout"),
    ]
    line = tool.format_results({"error": data})
    for word in ("blocked by a", "bb", "AuthError", "cc", "Timeout"):
        assert word in line
    assert "errors" not in ws.Timeout("alone").to_dict()
