"""One pace and one cool-down per upstream (a backend at its endpoint's host), in the process and
through Redis: two SearXNG instances, or the generic gateway at two URLs, are two upstreams.

Module-level calls to two instances of one backend shared one pace in the process and through
Redis (the slots were keyed by backend name alone): a call to instance B waited for instance A's
slot, or failed ``budget_exhausted`` when it did not fit in its budget. Each test sets a pace far
longer than the calls' budget, so a call that waits for the wrong upstream's slot fails at once
(no timing margin to get wrong); the same upstream asked again fails so, which shows the pace
still holds.
"""

import pytest
from redis_server import redis_db, redis_server, up  # noqa: F401  (fixtures)

import websearch_sync as ws
from websearch_sync.engine import registry

PACE_S = 60.0
BUDGET_MS = 5000


def _instance(upstream, **settings) -> ws.Settings:
    return ws.Settings(
        providers={"searxng": {"base_url": upstream.server.url("")}}, min_interval_s={"searxng": PACE_S}, **settings
    )


def _ask(settings: ws.Settings, query: str) -> str:
    """``answered``, or the detail code of the error the module-level call raised."""
    try:
        ws.search(query, backend="searxng", settings=settings, retries=0, timeout_ms=BUDGET_MS)
    except ws.WebSearchError as error:
        return error.detail_code or error.code
    return "answered"


@pytest.fixture
def two_instances():
    from shared_state_worker import Upstream

    with Upstream("browse-API__1") as one, Upstream("browse-API__1") as two:
        yield one, two


def _module_level_calls_keep_one_pace_per_instance(one, two, **state) -> None:
    first, second = _instance(one, **state), _instance(two, **state)
    assert [_ask(first, "a1"), _ask(second, "b1"), _ask(first, "a2")] == ["answered", "answered", "budget_exhausted"]
    assert (len(one.log), len(two.log)) == (1, 1)


def test_module_level_calls_to_two_instances_keep_two_paces_in_the_process(two_instances):
    """Without a state URL: the process-wide limiter of the module-level calls."""
    _module_level_calls_keep_one_pace_per_instance(*two_instances)


def test_module_level_calls_to_two_instances_keep_two_paces_through_redis(two_instances, redis_db, redis_server):  # noqa: F811
    """With a state URL: the slots in Redis are per instance too (``slot:{searxng@127.0.0.1:<port>}``)."""
    _module_level_calls_keep_one_pace_per_instance(*two_instances, state_url=up(redis_server.url))
    slots = sorted(key.decode() for key in redis_db.scan_iter("websearch_sync:slot:*"))
    assert slots == sorted(
        "websearch_sync:slot:{searxng@127.0.0.1:%d}" % upstream.server.port for upstream in two_instances
    )


def test_clients_of_two_processes_keep_one_pace_per_instance_through_redis(two_instances, redis_db, redis_server):  # noqa: F811
    """Two clients with their own limiters (two processes' worth): only Redis keeps the pace."""
    one, two = two_instances
    state = up(redis_server.url)
    outcomes = []
    for upstream, query in ((one, "p1"), (two, "p2"), (two, "p3")):
        with ws.SearchClient("searxng", settings=_instance(upstream, state_url=state), retries=0) as client:
            try:
                client.search(query, timeout_ms=BUDGET_MS, cache_ttl_s=0)
                outcomes.append("answered")
            except ws.Timeout as error:
                outcomes.append(error.detail_code)
    assert outcomes == ["answered", "answered", "budget_exhausted"]


def test_a_cool_down_of_one_instance_leaves_the_other_alone_for_module_level_calls(two_instances):
    """A 429 (Retry-After 30 s) from instance A: A's next call is refused without a request,
    B answers."""
    one, two = two_instances
    one.answer_next_with("http_429_retry_after", retry_after="30")
    first, second = (_instance(upstream).replace(min_interval_s=None) for upstream in two_instances)
    assert [_ask(first, "c1"), _ask(second, "c2"), _ask(first, "c3")] == ["http_429", "answered", "http_429"]
    assert (len(one.log), len(two.log)) == (1, 1)


def test_the_gateway_at_two_urls_is_two_upstreams():
    """The generic ``service`` backend's URL is a setting, not an endpoint override: its upstream
    key came out ``service`` for every gateway, so one gateway's 429 cooled every other down."""
    service = registry.backend_class("service")
    keys = [
        registry.instance(service, ws.Settings(providers={"service": {"url": url, "api_key": "k"}})).upstream_key()
        for url in ("https://search-a.internal/v1/search", "https://search-b.internal:8443/v1/search")
    ]
    assert keys == ["service@search-a.internal", "service@search-b.internal:8443"]
    by_endpoint = ws.Settings(
        endpoints={"service": "https://search-c.internal/api"}, providers={"service": {"api_key": "k"}}
    )
    assert registry.instance(service, by_endpoint).upstream_key() == "service@search-c.internal"


def test_a_page_of_an_instances_host_keeps_that_instances_pace_only(two_instances):
    """The fetch gate knew engines by their default or overridden endpoint only: a SearXNG instance
    set by its base URL was no engine host, so its pages were fetched at any pace. A page of
    instance A's host now takes A's next slot (60 s away: refused at once), B's host is not held."""
    one, two = two_instances
    with ws.SearchClient("searxng", settings=_instance(one), retries=0) as client:
        client.search("paced", timeout_ms=BUDGET_MS)
        with pytest.raises(ws.Timeout) as info:
            client.fetch(one.server.url("/page"), allow_private=True, timeout_ms=BUDGET_MS)
        assert info.value.detail_code == "budget_exhausted"
        with pytest.raises(ws.WebSearchError) as other:
            client.fetch(two.server.url("/page"), allow_private=True, timeout_ms=BUDGET_MS)
        assert other.value.status == 404  # asked at once (the lab answers no page)
