"""A stand-in wire (``MockWire``, ``ReplayWire``) connects nowhere, so reading a page through
it looks up no host name: before, fetch's address check resolved the page's host with the
system's resolver first, so a mocked fetch touched the network (or, offline, failed with
``dns_error`` before the mock was asked), and ``websearch-sync verify`` replayed a case whose
result reads a page with a real DNS lookup: its outcome depended on the machine."""

import socket
from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.contract.cases import discover, replay
from websearch_sync.net.wire_mock import MockResponse, MockWire

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
PAGE = "<html><head><title>A mocked page</title></head><body><article><p>%s</p></article></body></html>" % (
    "Words of a page that a mock serves. " * 20
)


@pytest.fixture
def lookups(monkeypatch):
    """Every host name the system resolver is asked for (the lookups themselves fail)."""
    asked: list[str] = []

    def getaddrinfo(host, *args, **kwargs):
        asked.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "no lookups in this test")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return asked


def test_a_mocked_fetch_of_a_host_name_asks_the_mock_and_no_resolver(lookups):
    wire = MockWire(lambda request: MockResponse(headers={"Content-Type": "text/html"}, body=PAGE))
    with ws.SearchClient("stub", wire=wire) as client:
        page = client.fetch("https://docs.example.org/guide")
    assert page["title"] == "A mocked page" and lookups == []
    assert [(request.url, request.connect_to) for request in wire.requests] == [
        ("https://docs.example.org/guide", None)
    ]


def test_an_address_literal_is_still_checked_under_a_stand_in_wire(lookups):
    wire = MockWire(lambda request: MockResponse(headers={"Content-Type": "text/html"}, body=PAGE))
    with ws.SearchClient("stub", wire=wire) as client:
        with pytest.raises(ws.InvalidInput) as info:
            client.fetch("http://10.0.0.7/admin")
    assert info.value.detail_code == "private_address" and not wire.requests


def test_a_replayed_case_reads_no_unrecorded_page_from_the_network(lookups):
    """Tavily answered one page without text; the client reads it (include_content), and the
    recording holds no answer for it: the same typed error on every machine, no lookup."""
    (case,) = [case for case in discover(FIXTURES) if case.case_id == "tavily/news_with_raw_content"]
    outcome = replay(case)
    assert [(e["provider"], e["detail_code"], e["url"]) for e in outcome["errors"]] == [
        ("fetch", "network_blocked", "https://github.com/cloudwego/eino")
    ]
    assert lookups == []


def test_a_fetch_mocked_with_responses_works_where_the_name_does_not_resolve(lookups):
    """Before, the address check's failed lookup ended the fetch (``dns_error``) before the mock
    was asked: a mocked fetch needed a name the machine could resolve, so offline CI failed."""
    import responses

    with responses.RequestsMock() as mock:
        mock.add(responses.GET, "https://docs.example.org/guide", body=PAGE, content_type="text/html")
        assert ws.fetch("https://docs.example.org/guide")["title"] == "A mocked page"
    assert lookups == ["docs.example.org"]  # looked up (a name that resolves is still checked), then left to the mock


def test_under_a_mock_of_requests_a_name_that_resolves_to_a_private_address_is_still_refused(monkeypatch):
    import responses

    monkeypatch.setattr(
        socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", 443))]
    )
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add(responses.GET, "https://intranet.example.org/", body=PAGE, content_type="text/html")
        with pytest.raises(ws.InvalidInput) as info:
            ws.fetch("https://intranet.example.org/")
    assert info.value.detail_code == "private_address"
