"""Backends' own requests through a real local server: what goes on the wire (DuckDuckGo's
form post and Referer, the gateway's headers), Baidu's redirects and link resolution under
a real deadline, and keys that never reach urllib3's DEBUG log. What every backend does
is in tests/conformance/; what one does with replayed answers in tests/unit/backends/."""

import json
import logging
import time
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from clocks import deadline_margin_s, machine_pace, paced_budget_s
from faults import never_answer, respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.backends.baidu import BaiduHtml
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


# -- ddg ---------------------------------------------------------------------------------------------


def test_ddg_form_post_over_a_real_socket():
    body = (FIXTURES / "ddg_lite/nlos__1.html").read_bytes()
    with FaultServer({"/lite/": respond(200, body)}) as server:
        settings = ws.Settings(endpoints={"ddg_lite": server.url("/lite/")})
        result = ws.search("lua os", backend="ddg_lite", max_results=10, settings=settings, time_range="month")
        request = server.requests[0]
    assert request.method == "POST"
    assert dict(parse_qsl(request.body.decode())) == {"q": "lua os", "df": "m"}
    assert request.headers["referer"] == server.url("/")
    golden = json.loads((FIXTURES / "ddg_lite/nlos__1.expected.json").read_text(encoding="utf-8"))
    assert result["items"] == golden["items"]


# -- baidu -------------------------------------------------------------------------------------------


def test_baidu_resolve_link_requests_honour_the_deadline_on_a_real_socket():
    """A link that never answers is left as it is at the deadline; the other one, answering at once,
    is resolved. The deadline leaves that answer its time: a resolve before the timed one builds the
    transport's browser wire (its first use in a process imports curl_cffi: 0.6-1.0 s at a load of
    10-15, more than a fixed 500 ms deadline, so the test failed when it was the first of its process
    to resolve a link, e.g. run alone: 2 of 10), and the deadline is 0.5 s on an idle machine, as many
    times more as it runs slower now."""
    backend = BaiduHtml(ws.Settings())
    transport = HttpTransport()
    with FaultServer(
        {"/link": never_answer(), "/ok": respond(302, b"", {"Location": "https://target.example/a"})}
    ) as server:
        built = [{"url": server.url("/ok?url=first")}]
        backend.resolve_links(built, transport, Deadline(60_000))
        assert built[0]["url"] == "https://target.example/a"
        items = [{"url": server.url("/link?url=stuck")}, {"url": server.url("/ok?url=fine")}]
        deadline_s = paced_budget_s(0.5)
        with machine_pace() as pace:
            started = time.monotonic()
            backend.resolve_links(items, transport, Deadline(int(deadline_s * 1000)))
            elapsed = time.monotonic() - started
    transport.close()
    assert elapsed < deadline_s + deadline_margin_s(pace.slowdown, 0.75)
    assert [item["url"] for item in items] == [server.url("/link?url=stuck"), "https://target.example/a"]


def test_baidu_redirect_to_wappass_over_a_real_socket_is_not_followed():
    location = "https://wappass.baidu.com/static/captcha/tuxing.html?&ak=x&backurl=y"
    with FaultServer({"/s": respond(302, b"", {"Location": location})}) as server:
        settings = ws.Settings(endpoints={"baidu_html": server.url("/s")})
        with pytest.raises(ws.WebBlocked) as caught:
            ws.search("q", backend="baidu_html", settings=settings)
        assert len(server.requests) == 1
    assert (caught.value.detail_code, caught.value.status) == ("captcha_required", 302)


# -- service -----------------------------------------------------------------------------------------


def test_service_headers_on_the_wire_through_a_real_socket():
    key = "svc-SECRET-77aa88bb99cc"
    body = json.dumps(
        {
            "search_results": [
                {
                    "title": "eino",
                    "url": "https://github.com/cloudwego/eino",
                    "snippet": "s",
                    "content": "page text",
                    "site_name": "GitHub",
                }
            ]
        }
    ).encode()
    with FaultServer(
        {"/search": respond(200, body, {"X-Request-Id": "wire-1"}, content_type="application/json")}
    ) as server:
        config = ws.Settings(
            providers={"service": {"url": server.url("/search"), "api_key": key, "headers": {"X-Tenant": "acme"}}}
        )
        result = ws.search("eino", backend="service", settings=config, trace_id="wire-1", include_content=True)
        request = server.requests[0]
    assert request.method == "POST"
    assert request.headers["authorization"] == "Bearer " + key
    assert request.headers["x-tenant"] == "acme" and request.headers["x-request-id"] == "wire-1"
    assert request.headers["content-type"] == "application/json"
    assert json.loads(request.body) == {
        "text_query": "eino",
        "limit": 5,
        "enable_page_crawling": True,
        "timeout_seconds": 14,
    }
    assert result["provider_meta"]["request_id"] == "wire-1"


# -- keys in urllib3's own log lines -------------------------------------------------------------------


def test_real_socket_path_logs_at_debug_without_keys(caplog):
    """Through a real local server, urllib3's own DEBUG lines included."""
    key = "sx-SECRET-9f8e7d6c5b4a"
    caplog.set_level(logging.DEBUG)
    with FaultServer({"/search": respond(401, b"Unauthorized " + key.encode(), content_type="text/plain")}) as server:
        settings = ws.Settings(providers={"searxng": {"base_url": server.url(""), "api_key": key}})
        with pytest.raises(ws.AuthError) as info:
            ws.search("q", backend="searxng", settings=settings)
        assert server.requests[0].headers["authorization"] == "Bearer " + key
    assert key not in str(info.value)
    assert any(r.name.startswith("urllib3") for r in caplog.records), "urllib3 DEBUG logging was not captured"
    assert key not in caplog.text
