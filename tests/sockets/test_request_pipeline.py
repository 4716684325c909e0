"""Issue 32 item 3: one runner for every request of a client. A fetch of a host that just
served a wall (to a search or to a fetch) is refused like a search would be; a fetch and the
pages of include_content keep the pace of the engine whose host they are on; fetch retries a
retryable failure. Loopback servers, the client's fake clock (no real waiting); a shared state's commands may take
``REDIS_UP_TIMEOUT_S`` (``up``): the production 0.25 s is not the subject here."""

import pytest
from clocks import FakeClock
from faults import respond, sequence
from redis_server import redis_db, redis_server, up  # noqa: F401  (fixtures)
from servers import FaultServer, json_results

import websearch_sync as ws
from websearch_sync.net.botwall import bot_wall_error

ARTICLE = (
    b"<html><head><title>Harbour works</title></head><body><article><h1>Harbour works</h1><p>"
    + b"The harbour board approved the dredging plan after a long public hearing on Tuesday. " * 5
    + b"</p></article></body></html>"
)
#: Cloudflare's challenge: a wall in front of any site, recognised by its header.
CHALLENGE = respond(200, b"<html><title>Just a moment...</title></html>", headers={"cf-mitigated": "challenge"})


def walled_json(self, response):
    return bot_wall_error(response, self.name)


def client(server, clock, **kwargs):
    settings = ws.Settings(endpoints={"aa": server.url("/aa")}, allow_private=True, timeout_ms=5000)
    return ws.SearchClient("aa", settings=settings, clock=clock, cache_ttl_s=0, **kwargs)


def test_with_a_shared_state_a_host_s_cool_down_holds_for_every_client(json_backends, redis_server, redis_db):  # noqa: F811
    json_backends("aa")
    with FaultServer({"/wall": CHALLENGE, "/page": respond(200, ARTICLE)}) as server:
        with client(server, FakeClock(), state_url=up(redis_server.url)) as first:
            with pytest.raises(ws.WebBlocked):
                first.fetch(server.url("/wall"))
        with client(server, FakeClock(), state_url=up(redis_server.url)) as second:  # another process, as it were
            with pytest.raises(ws.WebBlocked) as refused:
                second.fetch(server.url("/page"))
        assert routes(server) == ["/wall"]
    assert "cooling down" in refused.value.message


def routes(server):
    return [request.route for request in server.requests]


def test_a_search_of_the_engine_whose_host_walled_a_fetch_is_refused_until_the_cool_down_ends(json_backends):
    """A wall one fetch of the engine's host met cooled the host down for fetches only: the next
    search of that engine was sent to the host that had just served a captcha."""
    json_backends("aa")
    clock = FakeClock()
    with FaultServer({"/aa": json_results("https://a.example/"), "/wall": CHALLENGE}) as server:
        with client(server, clock, retries=0) as c:
            with pytest.raises(ws.WebBlocked):
                c.fetch(server.url("/wall"))
            with pytest.raises(ws.WebBlocked) as refused:
                c.search("q")
            assert routes(server) == ["/wall"]  # the engine was not asked
            clock.advance(600.0)  # a captcha's cool-down
            assert c.search("q")["items"]
        assert routes(server) == ["/wall", "/aa"]
    assert (refused.value.provider, refused.value.detail_code) == ("aa", "captcha_required")
    assert "cooling down" in refused.value.message and 599 <= refused.value.retry_after <= 600


def test_a_fetch_s_429_cools_its_host_for_fetches_and_leaves_the_engine_on_that_host_alone(json_backends):
    """Only a wall is the host's answer to this machine: a 429 may be that page's rate (and a keyed
    engine's 429 its key's, which is why a search's own 429 leaves the host's other engines alone).
    The search of the engine on the host was refused after a fetch met a 429."""
    json_backends("aa")
    with FaultServer({"/aa": json_results("https://a.example/"), "/busy": respond(429, b"slow down")}) as server:
        with client(server, FakeClock(), retries=0) as c:
            with pytest.raises(ws.WebBlocked):
                c.fetch(server.url("/busy"))
            assert c.search("q")["items"]
            with pytest.raises(ws.WebBlocked) as refused:
                c.fetch(server.url("/busy"))
        assert routes(server) == ["/busy", "/aa"]
    assert "cooling down after http_429" in refused.value.message


def test_with_a_shared_state_a_wall_a_fetch_met_holds_back_another_process_s_search(
    json_backends, redis_server, redis_db
):  # noqa: F811
    json_backends("aa")
    with FaultServer({"/aa": json_results("https://a.example/"), "/wall": CHALLENGE}) as server:
        with client(server, FakeClock(), state_url=up(redis_server.url)) as first:
            with pytest.raises(ws.WebBlocked):
                first.fetch(server.url("/wall"))
        with client(server, FakeClock(), state_url=up(redis_server.url)) as second:  # another process, as it were
            with pytest.raises(ws.WebBlocked) as refused:
                second.search("q")
        assert routes(server) == ["/wall"]
    assert refused.value.provider == "aa" and "cooling down after captcha_required" in refused.value.message


def test_a_fetch_right_after_a_search_met_a_wall_on_that_host_is_refused(json_backends):
    json_backends("aa", classify=walled_json)
    with FaultServer({"/aa": CHALLENGE, "/page": respond(200, ARTICLE)}) as server:
        with client(server, FakeClock(), retries=0) as c:
            with pytest.raises(ws.WebBlocked):
                c.search("q")
            with pytest.raises(ws.WebBlocked) as refused:
                c.fetch(server.url("/page"))
        assert routes(server) == ["/aa"]  # the page was never asked for
    assert refused.value.provider == "fetch" and "cooling down" in refused.value.message


def test_a_fetch_that_met_a_wall_cools_its_host_down(json_backends):
    json_backends("aa")
    with FaultServer({"/wall": CHALLENGE, "/page": respond(200, ARTICLE)}) as server:
        with FaultServer({"/page": respond(200, ARTICLE)}) as other:
            with client(server, FakeClock()) as c:
                with pytest.raises(ws.WebBlocked) as wall:
                    c.fetch(server.url("/wall"))
                assert wall.value.detail_code == "captcha_required"
                with pytest.raises(ws.WebBlocked) as refused:
                    c.fetch(server.url("/page"))
                assert "cooling down" in refused.value.message
                assert "dredging plan" in c.fetch(other.url("/page"))["text"]  # another host is not
        assert routes(server) == ["/wall"]


def test_a_fetch_of_the_engine_s_host_keeps_the_engine_s_pace(json_backends):
    json_backends("aa")
    clock = FakeClock()
    with FaultServer({"/aa": json_results("https://a.example/"), "/page": respond(200, ARTICLE)}) as server:
        with client(server, clock, min_interval_s={"aa": 2.0}) as c:
            c.search("q")
            c.fetch(server.url("/page"))
            c.search("q2")
        assert routes(server) == ["/aa", "/page", "/aa"]
    assert clock.sleeps == [2.0, 2.0]  # the page waited for the engine's next slot, the next search too


def test_include_content_reads_the_engine_s_pages_at_its_pace(json_backends):
    json_backends("aa")
    clock = FakeClock()

    def results(conn, request, server):
        json_results(*(server.url("/p%d" % i) for i in range(3)))(conn, request, server)

    pages = {"/p%d" % i: respond(200, ARTICLE) for i in range(3)}
    with FaultServer({"/aa": results, **pages}) as server:
        with client(server, clock, min_interval_s={"aa": 1.0}) as c:
            response = c.search("q", include_content=True)
    assert [bool(item["content"]) for item in response["items"]] == [True, True, True]
    # the three pages were read in threads, each leaving at its own slot, 1 s after the one before
    departures = sorted(wakes for asleep, wakes in clock.wakeups if wakes > asleep)
    assert len(departures) == 3
    assert all(later - earlier >= 1.0 - 1e-9 for earlier, later in zip([1000.0] + departures, departures))


def test_fetch_retries_a_retryable_failure(json_backends):
    json_backends("aa")
    clock = FakeClock()
    with FaultServer({"/page": sequence(respond(503, b"busy"), respond(200, ARTICLE))}) as server:
        with client(server, clock, retries=1) as c:
            assert "dredging plan" in c.fetch(server.url("/page"))["text"]
        assert routes(server) == ["/page", "/page"]
    assert len(clock.sleeps) == 1  # the backoff


@pytest.mark.parametrize("retry_after", [None, "2"])
def test_a_fetch_s_429_is_retried_only_after_the_cool_down_it_recorded(json_backends, retry_after):
    """The 429 cools the host down as it comes (60 s without a Retry-After): the fetch waited out
    its backoff, then its own cool-down refused the retry ("host:... is cooling down"). Now it
    fails at once with the 429; a Retry-After it can wait out is waited out and retried."""
    json_backends("aa")
    clock = FakeClock()
    headers = {"Retry-After": retry_after} if retry_after else {}
    with FaultServer({"/page": sequence(respond(429, b"slow down", headers=headers), respond(200, ARTICLE))}) as server:
        with client(server, clock, retries=2) as c:
            try:
                outcome = c.fetch(server.url("/page"))["text"]
            except ws.WebBlocked as error:
                outcome = (error.detail_code, error.message)
        requests = routes(server)
    if retry_after is None:
        assert outcome[0] == "http_429" and "(HTTP 429)" in outcome[1] and "cooling down" not in outcome[1]
        assert (requests, clock.sleeps) == (["/page"], [])
    else:
        assert "dredging plan" in outcome
        assert (requests, clock.sleeps) == (["/page", "/page"], [2.0])


def test_a_fetch_of_a_host_cooling_down_after_a_429_fails_fast_as_a_search_does(json_backends):
    """The cool-down's refusal is retryable (a 429's), and it ended within the deadline: the fetch
    waited it out and was sent then, as every other fetch of the host was (a search fails fast)."""
    json_backends("aa")
    clock = FakeClock()
    busy = respond(429, b"slow down", headers={"Retry-After": "2"})
    with FaultServer({"/busy": busy, "/page": respond(200, ARTICLE)}) as server:
        with client(server, clock, retries=2) as c:
            with pytest.raises(ws.WebBlocked):
                c.fetch(server.url("/busy"))  # its own retries wait out its Retry-After: sent three times
            waited = list(clock.sleeps)
            with pytest.raises(ws.WebBlocked) as refused:
                c.fetch(server.url("/page"))
        assert routes(server) == ["/busy"] * 3
    assert (waited, clock.sleeps) == ([2.0, 2.0], [2.0, 2.0])
    assert "cooling down after http_429" in refused.value.message and refused.value.retry_after == 2.0


def test_a_fetch_s_429_cools_the_host_down_and_a_403_of_one_page_does_not(json_backends):
    json_backends("aa")
    with FaultServer(
        {"/forbidden": respond(403, b"no"), "/busy": respond(429, b"slow down"), "/page": respond(200, ARTICLE)}
    ) as server:
        with client(server, FakeClock(), retries=0) as c:
            with pytest.raises(ws.WebBlocked):
                c.fetch(server.url("/forbidden"))
            assert "dredging plan" in c.fetch(server.url("/page"))["text"]
            with pytest.raises(ws.WebBlocked):
                c.fetch(server.url("/busy"))
            with pytest.raises(ws.WebBlocked) as refused:
                c.fetch(server.url("/page"))
        assert routes(server) == ["/forbidden", "/page", "/busy"]
    assert "cooling down after http_429" in refused.value.message
