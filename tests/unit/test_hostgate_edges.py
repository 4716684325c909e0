"""The client's gate per host at its edges (in-process, fake clock): host keys as the scheme's
default port and case leave them, every engine on a host obeyed, and a backend's own pass that
its other threads do not inherit (``client/hostgate.py``)."""

import contextvars
import threading

import pytest
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.client.clock import CancellableClock
from websearch_sync.client.cooldown import Cooldowns
from websearch_sync.client.hostgate import HostGate, backend_call, backend_hosts, host_key
from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.mcp.tools import CallCancelled
from websearch_sync.net.deadline import Deadline


@pytest.mark.parametrize(
    "url, key",
    [
        ("https://Example.COM:443/a", "host:example.com"),
        ("HTTPS://example.com:443/a", "host:example.com"),
        ("http://example.com:80/a", "host:example.com"),
        ("http://example.com:443/a", "host:example.com:443"),
        ("https://example.com:8443/a", "host:example.com:8443"),
        ("https://Example.com./a", "host:example.com"),
        ("http://[::1]:8080/a", "host:[::1]:8080"),
        ("http://[::1:8080]/a", "host:[::1:8080]"),
        ("http://[::1]/a", "host:[::1]"),
    ],
)
def test_a_host_key_names_the_port_only_when_it_is_not_the_scheme_s_default(url, key):
    """A host is keyed as DNS names it: its trailing dot dropped, an IPv6 address in brackets
    (``[::1]:8080`` and ``[::1:8080]`` are two hosts)."""
    assert host_key(url) == key


def test_a_backend_s_verticals_on_one_host_give_that_host_once():
    assert backend_hosts("bing_html", ws.Settings()) == ["host:www.bing.com"]


def _gate(clock, settings, cooldowns):
    return HostGate(RateLimiter(clock), cooldowns, clock, settings, lambda name: 0.0)


def _blocked(provider):
    return ws.WebBlocked("captcha", provider=provider, detail_code="captcha_required")


@pytest.mark.parametrize("upstream", ["ddg_html", "ddg_lite@html.duckduckgo.com"])
def test_a_page_of_a_host_is_refused_while_any_engine_on_it_cools_down(upstream):
    """Two engines on one host (ddg_lite pointed at html.duckduckgo.com): the cool-down of either
    refuses a fetch there too, naming the fetch's provider."""
    clock = FakeClock()
    settings = ws.Settings(endpoints={"ddg_lite": "https://html.duckduckgo.com/lite/"})
    cooldowns = Cooldowns(clock=clock)
    cooldowns.record(_blocked(upstream.partition("@")[0]), upstream)
    gate = _gate(clock, settings, cooldowns)
    with pytest.raises(ws.WebBlocked) as info:
        gate.before("https://html.duckduckgo.com/about", Deadline(5000), "fetch")
    assert info.value.provider == "fetch"
    gate.before("https://duckduckgo.com/about", Deadline(5000), "fetch")  # another host: passes


def test_a_backend_s_own_call_passes_but_a_thread_it_starts_does_not():
    """Inside ``backend_call`` the calling thread's requests to its endpoint's host pass a cooling
    host (the runner checked it); a thread it hands work to, with a copy of its context, waits
    at the gate like any request."""
    clock = FakeClock()
    cooldowns = Cooldowns(clock=clock)
    cooldowns.record(_blocked("baidu_html"), "host:www.baidu.com")
    gate = _gate(clock, ws.Settings(), cooldowns)
    url = "https://www.baidu.com/link?url=x"
    errors = []

    def in_thread():
        try:
            gate.before(url, Deadline(5000), "baidu_html")
        except ws.WebBlocked as error:
            errors.append(error)

    with backend_call("https://www.baidu.com/s"):
        gate.before(url, Deadline(5000), "baidu_html")
        worker = threading.Thread(target=contextvars.copy_context().run, args=(in_thread,))
        worker.start()
        worker.join()
    assert len(errors) == 1
    with pytest.raises(ws.WebBlocked):  # the call over: its pass is gone
        gate.before(url, Deadline(5000), "baidu_html")


def test_a_cancelled_call_sends_nothing_through_the_gate():
    """Even to a host with no pace and no cool-down: the gate is where a cancelled call stops."""
    clock = CancellableClock()
    gate = HostGate(RateLimiter(clock), Cooldowns(clock=clock), clock, ws.Settings(), lambda name: 0.0)
    cancelled = threading.Event()
    cancelled.set()
    with clock.cancellable(cancelled), pytest.raises(CallCancelled):
        gate.before("https://example.org/", Deadline(5000), "fetch")


def test_a_backend_whose_constructor_raises_leaves_a_fetch_without_its_traceback(caplog):
    """A fetch asks every backend's endpoint host (its cool-downs): a plugin whose constructor raises
    logged its traceback at ERROR on every fetch of a process that had it installed, a page read that
    has nothing to do with it. It is left out quietly there; a search naming it still says why, typed."""
    from websearch_sync.backends import JsonApiEngine, RequestSpec, register
    from websearch_sync.testing import MockResponse, MockWire

    @register
    class Unbuildable(JsonApiEngine):
        name = "unbuildable"
        default_endpoint = "https://unbuildable.example/api"
        results_at = "hits"
        result_fields = {"title": "name", "url": "link"}

        def __init__(self, settings=None):
            raise RuntimeError("the vendor's client needs a key")

        def build_request(self, params):
            return RequestSpec("GET", self.endpoint_url())

    page = "<html><head><title>T</title></head><body><p>%s</p></body></html>" % ("words " * 60)
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "text/html"}, page))
    with caplog.at_level("DEBUG", logger="websearch_sync"), ws.SearchClient("stub", wire=wire) as client:
        assert client.fetch("https://example.com/")["title"] == "T"
        assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []
        with pytest.raises(ws.WebProviderError) as caught:
            client.search("q", backend="unbuildable")
    assert caught.value.detail_code == "internal_error"
    assert "backend unbuildable failed unexpectedly" in [r.getMessage() for r in caplog.records]
