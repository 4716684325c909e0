"""The shared HTTP layer against a real local server: timeouts, the deadline,
broken connections, byte caps, status mapping, decoding."""

import json
import time

import pytest
from clocks import deadline_margin_s, deadlines_on, machine_pace
from faults import (
    gzip_bomb,
    gzipped,
    invalid_gzip,
    listener_that_never_accepts,
    never_answer,
    past_the_deadline,
    refused_port,
    reset_mid_body,
    respond,
    sequence,
    stall_after_headers,
    trickle,
    truncated_chunked,
    wrong_length,
)
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.errors import WebSearchError

# retries back off on a fake clock: these tests are about what one request meets
pytestmark = pytest.mark.usefixtures("fake_clock")

RESULTS = json.dumps({"results": [{"title": "A", "url": "https://a.example/", "snippet": "first"}]}).encode()
MARGIN_S = 0.75  # allowed overrun of the deadline on an idle machine (socket close); more when the machine runs late


def settings_for(url, **kwargs):
    return ws.Settings(endpoints={"testjson": url}, **kwargs)


def run(url, timeout_ms=10_000, **kwargs):
    """A search through the layer. A call meant to succeed has ten seconds: on a loaded machine a
    2 s budget was once spent before the request left ("only 0 ms of the call's budget were
    left"); the failures' tests pass their own deadline (:func:`expect_error`)."""
    return ws.search("q", backend="testjson", timeout_ms=timeout_ms, settings=settings_for(url, **kwargs))


#: A silent or trickling server is stopped by the read timeout or the call's deadline, whichever the
#: scheduler lets fire first (both are the call's remaining time): the class is the promise, not the timer.
SAME_WAIT = ("read_timeout", "deadline_exceeded")


def expect_error(url, code, detail=None, timeout_ms=2000, **kwargs):
    with machine_pace() as pace:
        started = time.monotonic()
        with pytest.raises(WebSearchError) as info:
            run(url, timeout_ms=timeout_ms, **kwargs)
        elapsed = time.monotonic() - started
    assert info.value.code == code, repr(info.value)
    assert type(info.value).__name__ == code
    if detail is not None:  # a tuple: timers that end the same wait, any of which may fire first under load
        assert info.value.detail_code in ((detail,) if isinstance(detail, str) else detail), repr(info.value)
    margin = deadline_margin_s(pace.slowdown, MARGIN_S)
    assert elapsed < timeout_ms / 1000 + margin, "took %.2fs for a %d ms deadline (margin %.2fs)" % (
        elapsed,
        timeout_ms,
        margin,
    )
    return info.value


def test_success_through_the_http_layer(testjson):
    with FaultServer({"/s": respond(200, RESULTS, content_type="application/json")}) as server:
        result = run(server.url("/s"))
        assert server.requests[0].path == "/s?q=q"
        assert "Mozilla/5.0" in server.requests[0].headers["user-agent"]
    assert result["items"] == [
        {"title": "A", "url": "https://a.example/", "snippet": "first", "provider": "testjson", "rank": 1}
    ]
    assert result["provider_meta"]["provider_name"] == "testjson"


def test_user_agent_setting_is_sent(testjson):
    with FaultServer({"/s": respond(200, RESULTS, content_type="application/json")}) as server:
        run(server.url("/s"), user_agent="my-agent/1.0")
        assert server.requests[0].headers["user-agent"] == "my-agent/1.0"


def test_connection_refused_is_network_error(testjson):
    error = expect_error("http://127.0.0.1:%d/s" % refused_port(), "NetworkError", "connection_refused")
    assert error.retryable is True


def test_connect_timeout(testjson):
    with listener_that_never_accepts() as listener:
        expect_error(listener.url("/s"), "Timeout", timeout_ms=400)


def test_server_that_never_answers_times_out(testjson):
    with FaultServer({"/s": never_answer()}) as server:
        error = expect_error(server.url("/s"), "Timeout", SAME_WAIT, timeout_ms=400)
    assert error.retryable is True


def test_headers_then_stall_times_out_at_the_deadline(testjson):
    with FaultServer({"/s": stall_after_headers()}) as server:
        expect_error(server.url("/s"), "Timeout", timeout_ms=400)


def test_trickling_body_ends_at_the_deadline_not_after_it(testjson):
    body = b'{"results": []}' + b" " * 200
    with FaultServer({"/s": trickle(body, 0.1, content_type="application/json")}) as server:
        expect_error(server.url("/s"), "Timeout", SAME_WAIT, timeout_ms=500)


def test_reset_mid_body_is_network_error(testjson):
    with FaultServer({"/s": reset_mid_body()}) as server:
        expect_error(server.url("/s"), "NetworkError")


def test_truncated_chunked_body_is_network_error(testjson):
    with FaultServer({"/s": truncated_chunked()}) as server:
        expect_error(server.url("/s"), "NetworkError")


def test_short_body_for_declared_length_is_network_error(testjson):
    with FaultServer({"/s": wrong_length(5000, RESULTS)}) as server:
        expect_error(server.url("/s"), "NetworkError", "incomplete_body")


def test_oversize_body_is_refused_without_reading_it_all(testjson):
    body = b'{"results": [], "pad": "' + b"x" * 300_000 + b'"}'
    with FaultServer({"/s": respond(200, body, content_type="application/json")}) as server:
        expect_error(server.url("/s"), "WebProviderError", "response_too_large", max_response_bytes=100_000)


def test_gzip_bomb_stops_at_the_byte_cap(testjson):
    with FaultServer({"/s": gzip_bomb(50_000_000, content_type="application/json")}) as server:
        expect_error(
            server.url("/s"), "WebProviderError", "response_too_large", timeout_ms=5000, max_response_bytes=1_000_000
        )


def test_gzip_body_is_decoded(testjson):
    with FaultServer({"/s": gzipped(RESULTS, content_type="application/json")}) as server:
        assert run(server.url("/s"))["items"][0]["url"] == "https://a.example/"


def test_invalid_gzip_is_network_error(testjson):
    with FaultServer({"/s": invalid_gzip()}) as server:
        expect_error(server.url("/s"), "NetworkError", "bad_content_encoding")


@pytest.mark.parametrize(
    "status, code, detail, retryable",
    [
        (401, "AuthError", "http_401", False),
        (403, "WebBlocked", "http_403", False),
        (429, "WebBlocked", "http_429", True),
        (500, "BadGateway", "http_500", True),
        (502, "BadGateway", "http_502", True),
        (503, "BadGateway", "http_503", True),
        (404, "WebProviderError", "http_404", False),
        (418, "WebProviderError", "http_418", False),
    ],
)
def test_status_mapping(testjson, status, code, detail, retryable):
    with FaultServer({"/s": respond(status, b"nope")}) as server:
        error = expect_error(server.url("/s"), code, detail)
    assert error.status == status
    assert error.retryable is retryable
    assert error.provider == "testjson"


def test_a_retry_the_deadline_cuts_short_ends_with_the_failure_it_retried(testjson, fake_clock, monkeypatch):
    """A 502, then a retry whose answer the call's deadline cuts short: the call ends with the 502
    (why it failed), not with a Timeout that says only that time ran out. The deadline is on the
    fake clock and passes in the retry's answer (:func:`faults.past_the_deadline`): a real 1 s
    deadline on a silent retry was also the first request's, which a loaded machine's 502 can
    outlast (a ``Timeout`` then, nothing retried)."""
    deadlines_on(fake_clock, monkeypatch)
    deadline_s = 10.0
    with FaultServer(
        {"/s": sequence(respond(502, b"bad gateway"), past_the_deadline(fake_clock, deadline_s))}
    ) as server:
        expect_error(server.url("/s"), "BadGateway", "http_502", timeout_ms=int(deadline_s * 1000))
        assert len(server.requests) == 2  # the retry was sent (its answer begun: read before the call ended)


def test_429_carries_retry_after(testjson):
    with FaultServer({"/s": respond(429, b"slow down", {"Retry-After": "7"})}) as server:
        error = expect_error(server.url("/s"), "WebBlocked", "http_429")
    assert error.retry_after == 7.0
    assert "7 s" in error.message


def test_non_json_body_is_parse_error(testjson):
    with FaultServer({"/s": respond(200, b"<html>maintenance</html>")}) as server:
        expect_error(server.url("/s"), "WebParseError", "not_json")


def test_undecodable_bytes_do_not_crash(testjson):
    body = b'{"results": [{"title": "caf\xe9 \xff\xfe", "url": "https://b.example/", "snippet": ""}]}'
    with FaultServer({"/s": respond(200, body, content_type="application/json; charset=utf-8")}) as server:
        result = run(server.url("/s"))
    assert result["items"][0]["url"] == "https://b.example/"
    assert result["items"][0]["title"].startswith("caf")


def test_gbk_json_declared_in_header_decodes(testjson):
    body = json.dumps(
        {"results": [{"title": "北京天气", "url": "https://c.example/", "snippet": "晴"}]}, ensure_ascii=False
    ).encode("gbk")
    with FaultServer({"/s": respond(200, body, content_type="application/json; charset=GBK")}) as server:
        result = run(server.url("/s"))
    assert result["items"][0]["title"] == "北京天气"


def test_bad_endpoint_url_is_invalid_input(testjson):
    expect_error("ftp://127.0.0.1/x", "InvalidInput", "bad_endpoint")


def test_keys_never_appear_in_errors(testjson):
    key = "sk-test-SECRET-123456"
    settings = ws.Settings(
        endpoints={"testjson": "http://127.0.0.1:%d/s?key=%s" % (refused_port(), key)},
        providers={"testjson": {"api_key": key}},
    )
    with pytest.raises(WebSearchError) as info:
        ws.search("q", backend="testjson", settings=settings, timeout_ms=1000)
    assert key not in info.value.message
    assert key not in repr(info.value)
    assert key not in json.dumps(info.value.to_dict())
    assert key not in repr(settings)


def test_client_session_is_reused_and_a_callers_session_is_not_closed(testjson):
    import requests

    session = requests.Session()
    with FaultServer({"/s": respond(200, RESULTS, content_type="application/json")}) as server:
        with ws.SearchClient("testjson", settings=settings_for(server.url("/s")), session=session) as client:
            client.search("one")
            client.search("two")
        assert len(server.requests) == 2
    assert session.adapters  # still usable: not closed by the client
    session.close()


def test_nothing_but_websearch_errors_escape(testjson):
    """Every fault above raises a WebSearchError subclass; here a broken backend does too."""

    class Broken(testjson):
        name = "broken"

        def parse(self, response, params):
            raise RuntimeError("bug in a backend")

    from websearch_sync.engine.registry import register, unregister

    register(Broken)
    try:
        with FaultServer({"/s": respond(200, RESULTS, content_type="application/json")}) as server:
            with pytest.raises(ws.WebProviderError) as info:
                ws.search("q", backend="broken", settings=ws.Settings(endpoints={"broken": server.url("/s")}))
        assert info.value.detail_code == "internal_error"
    finally:
        unregister("broken")
