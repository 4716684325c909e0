"""Wires that wrap wires (net/wire.py): MockWire, ReplayWire, RecordingWire and the browser wire's
request building in front of any of them, under the transport's one policy; and the choice of
wire while a mock of ``requests`` is active."""

import logging

import pytest
import requests
import responses

import websearch_sync as ws
from websearch_sync.contract.recording import Recorder, RecordingWire, Redactor, _request_headers
from websearch_sync.contract.replay import ReplayWire
from websearch_sync.net import mocks
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import DEFAULT_USER_AGENT, HttpTransport, RequestSpec
from websearch_sync.net.wire import BrowserRequests, WireRequest, browser_request
from websearch_sync.net.wire_mock import MockResponse, MockWire
from websearch_sync.once import Once

URL = "https://engine.example/html/"
FORM_HEADERS = {
    "Origin": "https://engine.example",
    "Referer": "https://engine.example/",
    "Sec-Fetch-Site": "same-origin",
    "User-Agent": "EngineBot/1",
    "sec-ch-ua-mobile": "?1",
}


def send(transport, spec, **kwargs):
    return transport.send(spec, deadline=Deadline(5000), provider="engine", max_bytes=1 << 20, **kwargs)


def form_post(**kwargs):
    return RequestSpec("POST", URL, data={"q": "rust"}, headers=dict(FORM_HEADERS), browser=True, **kwargs)


def page(request):
    return MockResponse(200, {"Content-Type": "text/html"}, "<p>hi</p>")


# -- the browser wire's request building --------------------------------------------------------


def test_browser_request_keeps_the_engines_headers_and_leaves_identity_headers_to_the_profile():
    request = WireRequest("POST", URL, list(FORM_HEADERS.items()), "q=rust", browser=True)
    built = browser_request(request)
    assert dict(built.headers) == {
        "Origin": "https://engine.example",
        "Referer": "https://engine.example/",
        "Sec-Fetch-Site": "same-origin",
        "Cache-Control": "max-age=0",  # Chrome's, on a form post
    }
    assert built.body == "q=rust" and built.method == "POST"
    assert browser_request(built) == built  # idempotent: a recorder may sit between it and the browser wire


def test_the_browser_request_of_a_best_effort_request_is_best_effort():
    """``best_effort`` is set outside ``__init__``, which ``dataclasses.replace`` resets: the
    header merge that copies the request keeps it (else a replay under the browser wire counts
    a SearXNG /config its recording lacks as a mismatch)."""
    request = WireRequest("GET", "https://searx.example/config", [("User-Agent", "x"), ("Accept", "*/*")])
    request.best_effort = True
    merged = browser_request(request)
    assert merged is not request and merged.best_effort


def test_a_request_with_other_headers_keeps_every_other_field():
    """``with_headers`` copies field by field (not by ``dataclasses.replace``): a field it left out,
    or one added to ``WireRequest`` and not copied, would come back at its default here."""
    import dataclasses

    request = WireRequest("POST", "https://a.example/s", [("A", "1")], b"q=1", "10.0.0.2", False, True, True)
    request.best_effort = True
    for item in dataclasses.fields(WireRequest):  # no field left at its default
        default = item.default_factory() if item.default_factory is not dataclasses.MISSING else item.default
        assert getattr(request, item.name) != default, item.name
    copy = request.with_headers([("B", "2")])
    expected = dataclasses.replace(request, headers=[("B", "2")])
    expected.best_effort = True
    assert [getattr(copy, item.name) for item in dataclasses.fields(WireRequest)] == [
        getattr(expected, item.name) for item in dataclasses.fields(WireRequest)
    ]
    assert copy.headers == [("B", "2")] and request.headers == [("A", "1")]


def test_a_browser_request_reaches_a_mock_as_the_browser_wire_would_send_it():
    wire = MockWire(page)
    response = send(HttpTransport(wire=wire, impersonate="chrome"), form_post())
    assert response.status == 200 and response.content == b"<p>hi</p>"
    request = wire.requests[0]  # the first page (one result of five asked: brave reads the next one too)
    sent = dict(request.headers)
    assert sent["Origin"] == "https://engine.example" and sent["Content-Type"] == "application/x-www-form-urlencoded"
    assert "User-Agent" not in sent and "sec-ch-ua-mobile" not in sent  # the profile's to send
    assert request.body == "q=rust" and request.browser


def test_without_impersonation_a_browser_request_goes_out_as_built_with_the_librarys_user_agent():
    wire = MockWire(page)
    send(HttpTransport(wire=wire, impersonate="off"), form_post())
    sent = dict(wire.requests[0].headers)
    assert sent["User-Agent"] == "EngineBot/1" and sent["Origin"] == "https://engine.example"
    send(HttpTransport(wire=wire, impersonate="chrome"), RequestSpec("GET", "https://api.example/s", params={"q": "x"}))
    assert dict(wire.requests[1].headers)["User-Agent"] == DEFAULT_USER_AGENT  # an API call: never the browser's
    assert wire.requests[1].url == "https://api.example/s?q=x"


def test_the_browser_layer_needs_no_curl_cffi(monkeypatch):
    from websearch_sync.net import browser

    monkeypatch.setattr(browser, "browser_available", lambda: False)
    transport = HttpTransport(wire=MockWire(page), impersonate="chrome")
    assert isinstance(transport.browser, BrowserRequests) and transport.browser.profile == "chrome"
    with pytest.raises(ws.InvalidInput):
        HttpTransport(impersonate="chrome")  # a real browser wire does


# -- MockWire under the policy -------------------------------------------------------------------


def test_a_mock_wire_answer_passes_through_the_policy_redirects_and_byte_cap():
    def handler(request):
        if request.url.endswith("/old"):
            return MockResponse(301, {"Location": "/new"})
        return MockResponse(200, {"Content-Type": "text/plain", "Content-Encoding": "gzip"}, b"x" * 100)

    wire = MockWire(handler)
    response = send(HttpTransport(wire=wire), RequestSpec("GET", "https://site.example/old"), truncate=True)
    assert [r.url for r in wire.requests] == ["https://site.example/old", "https://site.example/new"]
    assert response.url == "https://site.example/new" and response.content == b"x" * 100  # already decoded
    with pytest.raises(ws.WebProviderError) as caught:
        HttpTransport(wire=MockWire(handler)).send(
            RequestSpec("GET", "https://site.example/new"), deadline=Deadline(5000), provider="p", max_bytes=10
        )
    assert caught.value.detail_code == "response_too_large"


def test_a_fetch_through_a_mock_wire_looks_no_name_up():
    """A stand-in wire answers without a socket: fetch's address guard looks no name up, so a
    fetch of a name no DNS knows (``.invalid``) is the handler's answer, not a ``dns_error``."""
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "text/plain"}, "Harbour works resume."))
    with ws.SearchClient("ddg_html", wire=wire) as client:
        page = client.fetch("https://docs.invalid/guide")
    assert [request.url for request in wire.requests] == ["https://docs.invalid/guide"]
    assert page["text"] == "Harbour works resume."


def test_a_fetch_through_a_mock_wire_follows_a_redirect_to_another_name():
    """A redirect's hop is checked as the first host is (no name looked up under a stand-in wire):
    it has no address to connect to, and goes to the wire by its name."""

    def handler(request):
        if request.url.endswith("/old"):
            return MockResponse(301, {"Location": "https://mirror.invalid/new"})
        return MockResponse(200, {"Content-Type": "text/plain"}, "Harbour works resume.")

    wire = MockWire(handler)
    with ws.SearchClient("ddg_html", wire=wire) as client:
        page = client.fetch("https://docs.invalid/old")
    assert [request.url for request in wire.requests] == ["https://docs.invalid/old", "https://mirror.invalid/new"]
    assert page["text"] == "Harbour works resume."


def test_a_handler_that_raises_is_a_failure_on_the_wire():
    def handler(request):
        raise ws.Timeout("silent", detail_code="read_timeout")

    with pytest.raises(ws.Timeout):
        send(HttpTransport(wire=MockWire(handler)), RequestSpec("GET", "https://site.example/"))


# -- ReplayWire ------------------------------------------------------------------------------------


def recorded(headers=None, exception=None):
    response = {"exception": exception} if exception else {"status": 200, "headers": {"Content-Type": "text/html"}}
    return [
        {
            "request": {"method": "POST", "url": URL, "form": {"q": "rust"}, "headers": headers or {}},
            "response": response,
        }
    ]


def test_a_replay_under_the_browser_wire_checks_the_headers_the_browser_wire_sends():
    exchanges = recorded({"Origin": "https://engine.example", "Referer": "https://engine.example/"})
    wire = ReplayWire(exchanges, lambda response: b"<p>recorded</p>")
    assert send(HttpTransport(wire=wire, impersonate="chrome"), form_post()).content == b"<p>recorded</p>"
    wire.check_complete()
    without_origin = form_post()
    del without_origin.headers["Origin"]
    wire = ReplayWire(exchanges, lambda response: b"")
    with pytest.raises(ws.NetworkError):
        send(HttpTransport(wire=wire, impersonate="chrome"), without_origin)
    assert "header Origin does not match: sent None" in wire.mismatches[0]


def test_a_recorded_transport_failure_is_the_requests_wires_error():
    wire = ReplayWire(recorded(exception="ReadTimeout"), lambda response: b"")
    with pytest.raises(ws.Timeout) as caught:
        send(HttpTransport(wire=wire), form_post())
    assert caught.value.detail_code == "read_timeout"


# -- RecordingWire ---------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", [None, "chrome"])
def test_recording_keeps_what_the_wire_sent_and_writes_the_same_case_on_both_wire_kinds(profile):
    """The exchange keeps the request as the wire sent it (``"chrome"``: after the browser wire's
    request building, with Chrome's form-post ``Cache-Control``; ``None``: the requests wire, no
    browser extra, with the engine's ``Accept``); the case is written without the headers a
    browser profile decides, so both wire kinds write the same file and it replays on both."""
    recorder = Recorder()
    inner = MockWire(page)
    inner.profile = profile  # "chrome" stands for the browser wire: the recorder records below its request building
    wrapped = recorder.wrap(inner)
    transport = HttpTransport(impersonate="off")
    transport.api = transport.browser = wrapped
    spec = form_post()
    spec.headers["Accept"] = "text/html"
    send(transport, spec)
    (exchange,) = recorder.exchanges
    sent = dict(exchange.request.headers)
    assert sent["Origin"] == "https://engine.example"
    if profile:
        assert sent["Cache-Control"] == "max-age=0" and "Accept" not in sent
    else:
        assert "Cache-Control" not in sent and sent["Accept"] == "text/html"
    written = _request_headers(exchange.request, DEFAULT_USER_AGENT, Redactor([]), "request")
    assert written == {  # no User-Agent, sec-ch-ua*, Accept or Chrome's Cache-Control: the profile's
        "Origin": "https://engine.example",
        "Referer": "https://engine.example/",
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    assert (exchange.status, bytes(exchange.body), exchange.complete) == (200, b"<p>hi</p>", True)


def test_a_recording_wire_notes_a_body_not_read_to_its_end():
    exchanges = []
    wire = RecordingWire(MockWire(lambda request: MockResponse(200, {}, b"y" * 200)), exchanges)
    send(HttpTransport(wire=wire), RequestSpec("GET", "https://site.example/"), read_body=lambda s, h: False)
    assert exchanges[0].complete is False


def test_a_body_tested_by_its_first_bytes_is_read_on_only_when_they_pass():
    """``read_body`` may answer with a test of the body's first KB (a type fetch refuses unless the
    body is a page, an image's): read on when it passes, else what arrived is all there is; a body
    shorter than a KB is read whole, untested."""
    tested = []

    def opens_with_a_tag(head):
        tested.append(head)
        return head.startswith(b"<")

    def fetched(body):
        wire = MockWire(lambda request: MockResponse(200, {}, body))  # 64 KB chunks
        spec = RequestSpec("GET", "https://site.example/")
        return send(HttpTransport(wire=wire), spec, read_body=lambda status, headers: opens_with_a_tag).content

    page, image, short = b"<" + b"y" * 199_999, b"y" * 200_000, b"y" * 1000
    assert fetched(page) == page
    assert fetched(image) == image[:65536]  # the first chunk, then no more
    assert fetched(short) == short
    assert tested == [page[:1024], image[:1024]]


# -- a mock of requests is never bypassed ----------------------------------------------------------


class SocketWire(MockWire):
    """Stands for libcurl: opens its own sockets, which a mock of ``requests`` does not see."""

    bypasses_requests = True
    profile = "chrome"


def test_while_responses_is_active_browser_requests_go_through_requests(caplog, monkeypatch):
    monkeypatch.setattr(mocks, "_SAID", Once())
    transport = HttpTransport(impersonate="off")
    transport.browser = SocketWire(page)
    with responses.RequestsMock() as mock:
        mock.add("POST", URL, body="<p>mocked</p>", content_type="text/html")
        with caplog.at_level(logging.INFO, logger="websearch_sync"):
            first = send(transport, form_post())
            send(transport, form_post())
        assert first.content == b"<p>mocked</p>" and len(mock.calls) == 2 and not transport.browser.requests
    said = [r.getMessage() for r in caplog.records if "patched by responses" in r.getMessage()]
    assert len(said) == 1, "said once"
    assert send(transport, form_post()).content == b"<p>hi</p>"  # the mock is gone: the browser wire again


def test_requests_patched_names_the_patching_module(monkeypatch):
    assert mocks.requests_patched() is None
    with responses.RequestsMock():
        assert mocks.requests_patched() == "responses"
    monkeypatch.setattr(requests.Session, "send", lambda *a, **k: None)
    assert mocks.requests_patched() == "test_wires"


def test_a_mock_wires_request_reads_one_header_without_regard_to_case():
    """A plugin author's test wrote ``wire.requests[0].headers["X-Acme-Key"]``: ``headers`` is the list of
    pairs sent (a ``TypeError``), and the docs did not say so; ``header(name)`` reads one."""
    answer = '{"type": "search", "web": {"results": [{"title": "Tokio", "url": "https://tokio.rs/"}]}}'
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "application/json"}, answer))
    with ws.SearchClient("brave", settings=ws.Settings(providers={"brave": {"api_key": "k"}}), wire=wire) as client:
        client.search("rust async", max_results=1)  # one asked, one read: no next page (nor its pace's wait)
    (request,) = wire.requests
    assert request.header("x-subscription-token") == request.header("X-Subscription-Token") == "k"
    assert ("X-Subscription-Token", "k") in request.headers and request.header("X-Acme-Key") is None


def test_the_last_of_a_repeated_header_is_read():
    request = WireRequest("GET", URL, headers=[("Accept", "a"), ("accept", "b")])
    assert request.header("ACCEPT") == "b"
