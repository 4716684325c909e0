"""A client's browser wire is built at its first browser request, not with the client: most
clients ask APIs only, and curl_cffi with a curl session cost ~0.1 s of a process's start (every
CLI run, worker and plugin host of the test suite paid it). A bad ``impersonate`` is still
refused when the client is made."""

import json
import sys
from pathlib import Path

import pytest
from transports import needs_browser

from websearch_sync import InvalidInput, SearchClient, Settings
from websearch_sync.net.transport import HttpTransport, RequestSpec
from websearch_sync.net.wire_requests import RequestsWire
from websearch_sync.testing import replay_fixtures

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

API = RequestSpec("GET", "https://api.example/s", params={"q": "x"})
PAGE = RequestSpec("GET", "https://site.example/", browser=True)


@needs_browser
def test_the_browser_wire_is_built_at_the_first_browser_request_and_closed_with_the_transport(monkeypatch):
    from websearch_sync.net import browser
    from websearch_sync.net.wire_curl import CurlWire  # the browser extra's

    monkeypatch.setattr(browser, "browser_available", lambda: True)  # the unit tests' conftest says no
    built, closed = [], []
    monkeypatch.setattr(CurlWire, "__init__", lambda self, *a, **k: built.append(self) or None)
    monkeypatch.setattr(CurlWire, "close", lambda self: closed.append(self))
    transport = HttpTransport(impersonate="chrome")
    assert isinstance(transport.wire_for(API), RequestsWire) and built == []
    wire = transport.wire_for(PAGE)
    assert built == [wire] and transport.wire_for(PAGE) is wire  # once, then kept
    transport.close()
    assert closed == [wire]


def test_off_means_the_api_wire_for_browser_requests_too():
    transport = HttpTransport(impersonate="off")
    assert transport.wire_for(PAGE) is transport.wire_for(API) is transport.api


@pytest.mark.parametrize("value, detail", [("firefox", "bad_impersonate"), ("netscape", "bad_impersonate")])
def test_a_bad_impersonate_is_still_refused_when_the_transport_is_made(value, detail):
    with pytest.raises(InvalidInput) as info:
        HttpTransport(impersonate=value)
    assert info.value.detail_code == detail


def _chrome(monkeypatch):
    from websearch_sync.net import browser

    monkeypatch.setattr(browser, "browser_available", lambda: True)  # the unit tests' conftest says no
    return HttpTransport(impersonate="chrome")


def test_a_browser_extra_that_fails_to_import_is_typed_when_the_wire_is_built(monkeypatch):
    """Built with the client, a curl_cffi installed but failing to import stopped the client's making;
    built at the first browser request, its raw ImportError came out of ``fetch()`` and a search
    blamed the backend (``internal_error``)."""
    monkeypatch.setitem(sys.modules, "websearch_sync.net.wire_curl", None)  # the import fails
    transport = _chrome(monkeypatch)
    with pytest.raises(InvalidInput) as info:
        transport.wire_for(PAGE)
    assert info.value.detail_code == "missing_browser_extra"
    assert "fails to import (ModuleNotFoundError: " in info.value.message
    client = SearchClient("ddg_html", settings=Settings(impersonate="chrome"))
    with pytest.raises(InvalidInput) as searched:
        client.search("q", backend="ddg_html")
    assert searched.value.detail_code == "missing_browser_extra"


@needs_browser
def test_a_closed_transport_refuses_to_build_its_browser_wire(monkeypatch):
    """After close(), a first read of ``browser`` built a curl wire nothing would close."""
    from websearch_sync.net.wire_curl import CurlWire

    built = []
    monkeypatch.setattr(CurlWire, "__init__", lambda self, *a, **k: built.append(self) or None)
    transport = _chrome(monkeypatch)
    transport.close()
    with pytest.raises(InvalidInput) as info:
        transport.wire_for(PAGE)
    assert info.value.detail_code == "client_closed" and built == []


@needs_browser
def test_a_json_backend_replayed_builds_no_browser_wire(monkeypatch):
    """The replay kit read ``transport.browser.profile`` on every replayed search, and the
    transport's repr read its browser wire: a JSON API's replay built a curl wire (every replay
    test paid it, its default client being made anew by each reset). The profile is a plain attribute."""
    from websearch_sync.net.wire_curl import CurlWire

    built = []
    monkeypatch.setattr(CurlWire, "__init__", lambda self, *a, **k: built.append(self) or None)
    case = FIXTURES / "brave" / "brave-api__minimal_trimmed"
    meta = json.loads(case.with_suffix(".meta.json").read_text(encoding="utf-8"))
    golden = json.loads(case.with_suffix(".expected.json").read_text(encoding="utf-8"))
    _chrome(monkeypatch)  # the extra is there: chrome is the client's profile
    settings = Settings(impersonate="chrome", **meta["settings"])
    with (
        replay_fixtures(FIXTURES, backends=[meta["backend"]]),
        SearchClient(meta["backend"], settings=settings) as client,
    ):
        result = client.search(meta["query"], max_results=meta["max_results"])
        assert "chrome" in repr(client._transport)
    assert result["items"] == golden["items"]
    assert built == []


def test_the_api_wire_is_built_at_the_first_request_and_a_stub_search_builds_none(monkeypatch):
    """The ``requests`` wire waits for a request too: a client whose backends send nothing (the
    offline stub: every script's offline run, the CLI's first command) never builds it, and one
    closed before its first request builds none after."""
    built, closed = [], []
    monkeypatch.setattr(RequestsWire, "__init__", lambda self, *a, **k: built.append(self) or None)
    monkeypatch.setattr(RequestsWire, "close", lambda self: closed.append(self))
    with SearchClient("stub", settings=Settings(impersonate="off")) as client:
        assert client.search("q")["items"] and built == []
    transport = HttpTransport(impersonate="off")
    assert built == [] and "not built yet" in repr(transport)
    wire = transport.wire_for(API)
    assert built == [wire] and transport.wire_for(API) is transport.wire_for(PAGE) is wire  # once, then kept
    transport.close()
    assert closed == [wire]
    unused = HttpTransport(impersonate="off")
    unused.close()
    with pytest.raises(InvalidInput) as info:
        unused.wire_for(API)
    assert info.value.detail_code == "client_closed" and len(built) == 1
