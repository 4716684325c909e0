"""A request Cloudflare's edge refuses in front of an API (``error code: 1020``) is a block, not a
refused key: the service never saw the request, so its key must not be remembered as refused,
and the message says where the refusal came from (net/status.py ``edge_refusal``).

The answer below is Cloudflare's as recorded by a user in front of a JSON endpoint
(hadoanngoc/php-bypass-cloudflare-challenge#2: ``HTTP/2 403``, ``content-type: text/plain;
charset=UTF-8``, ``content-length: 16``, ``server: cloudflare``, ``cf-ray: 74385ccaab1ab3d3-MIA``,
body ``error code: 1020``); curl's maintainer confirms the body is all of it (curl/curl#5127).
Served here by ``responses`` in front of Tavily's and Brave's endpoints.

Cloudflare's HTML block page ("Attention Required! | Cloudflare", "Sorry, you have been blocked":
``div#cf-wrapper > div#cf-error-details > h1[data-translate=block_headline]``) is its managed
WAF's refusal, read by net/edge_page.py. The page is an API's recorded 403 answer
(coinwise-io/zrobank-doc-api, docs/caas/conversion/otc_conversions_id_quotations.md at 4452833,
2023: fixtures/tavily/zrobank-doc-api__cloudflare_block_403.html, its provenance in the .meta.json);
its headers are Cloudflare's as in the 1020 recording above.
"""

import pytest
import responses
from backend_kit import FIXTURES, dummy_config, network_backends, recorded_json, replay_search
from backend_kit import declared_endpoint as endpoint_of
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.engine import registry

TAVILY = "https://api.tavily.com/search"
BRAVE = "https://api.search.brave.com/res/v1/web/search"
PAGE = "https://93.184.215.14/report"

#: Cloudflare's recorded refusal: the headers it sent that matter here, and the 16-byte body.
EDGE_HEADERS = {"Server": "cloudflare", "cf-ray": "74385ccaab1ab3d3-MIA"}
EDGE_BODY = "error code: 1020"
#: Cloudflare's recorded block page (4,656 bytes).
BLOCK_PAGE = (FIXTURES / "tavily" / "zrobank-doc-api__cloudflare_block_403.html").read_bytes()
HTML = "text/html; charset=UTF-8"


def _edge(mock, method, url, headers=EDGE_HEADERS, body=EDGE_BODY):
    mock.add(method, url, body=body, status=403, headers=headers, content_type="text/plain; charset=UTF-8")


def _client_settings():
    return ws.Settings(providers={"tavily": {"api_key": "tvly-GOOD-KEY"}})


def _client(clock=None):
    settings = ws.Settings(providers={"tavily": {"api_key": "tvly-GOOD-KEY"}, "brave": {"api_key": "brave-key"}})
    return ws.SearchClient(["tavily", "brave"], settings=settings, clock=clock or FakeClock(), retries=0)


def test_an_edge_refusal_in_front_of_an_api_is_a_block_not_a_refused_key():
    with responses.RequestsMock() as mock:
        _edge(mock, responses.POST, TAVILY)
        with pytest.raises(ws.WebBlocked) as caught:
            ws.search("eino", backend="tavily", settings=_client_settings(), cache_ttl_s=0)
    error = caught.value
    assert error.detail_code == "http_403" and error.status == 403 and error.provider == "tavily"
    assert "Cloudflare error 1020" in error.message and "never saw it" in error.message
    assert "api_key" not in error.message  # no remedy pointing at the key


def test_the_key_is_not_remembered_as_refused_and_the_fallback_answers():
    """An AuthError would keep the key from being sent again (client/refusedkeys.py); a block cools
    the backend down for a while and is asked again after it."""
    clock = FakeClock()
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock, _client(clock) as client:
        _edge(mock, responses.POST, TAVILY)
        mock.add(responses.GET, BRAVE, json=recorded_json("brave", "brave-api__minimal_trimmed.json"))
        answer = client.search("eino", cache_ttl_s=0)
        assert answer["provider_meta"]["provider_name"] == "brave"
        met = answer["errors"][0]
        assert (met["type"], met["detail_code"], met["provider"]) == ("WebBlocked", "http_403", "tavily")
        clock.advance(24 * 3600.0)  # past any cool-down: a refused key would still be skipped
        client.search("eino", cache_ttl_s=0)
        asked = [call for call in mock.calls if call.request.url.startswith(TAVILY)]
        assert len(asked) == 2
        assert asked[1].request.headers["Authorization"] == "Bearer tvly-GOOD-KEY"


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        pytest.param({}, EDGE_BODY, id="no-cloudflare-header"),  # the service's own plain 403
        pytest.param(EDGE_HEADERS, '{"detail": {"error": "Unauthorized"}}', id="service-answer-through-cloudflare"),
        pytest.param(EDGE_HEADERS, "error code: forbidden", id="not-a-code"),
    ],
)
def test_a_403_that_is_not_cloudflares_own_is_still_a_refused_key(headers, body):
    with responses.RequestsMock() as mock:
        _edge(mock, responses.POST, TAVILY, headers=headers, body=body)
        with pytest.raises(ws.AuthError) as caught:
            ws.search("eino", backend="tavily", settings=_client_settings(), cache_ttl_s=0)
    assert caught.value.detail_code == "http_403"


def test_a_fetched_page_refused_at_the_edge_says_so():
    with responses.RequestsMock() as mock:
        _edge(mock, responses.GET, PAGE)
        with pytest.raises(ws.WebBlocked) as caught:
            ws.fetch(PAGE)
    assert caught.value.detail_code == "http_403"
    assert "Cloudflare error 1020" in caught.value.message


def _block_page_search(name, headers=EDGE_HEADERS, body=BLOCK_PAGE, content_type=HTML):
    """One search of ``name`` answered by Cloudflare's block page (or ``body``) with HTTP 403."""
    cls = registry.backend_class(name)
    config = dummy_config(cls, "https://%s.edge.test/api" % name, "edge-test-secret")
    return replay_search(
        name,
        endpoint_of(cls, config),
        body,
        status=403,
        headers=headers,
        content_type=content_type,
        settings=ws.Settings(providers={name: config}),
    )


@pytest.mark.parametrize("name", network_backends())
def test_cloudflares_block_page_is_a_block_from_every_backend_not_a_refused_key(name):
    """Before: ``AuthError(http_403)`` "refused the API key or account" from every API backend."""
    error, calls = _block_page_search(name)
    assert type(error) is ws.WebBlocked, repr(error)
    assert (error.detail_code, error.status, error.provider) == ("http_403", 403, name)
    assert "at Cloudflare's edge" in error.message and "never saw it" in error.message
    assert 'block page "Sorry, you have been blocked"' in error.message
    assert "check the key" not in error.message and len(calls) == 1


@pytest.mark.parametrize("name", ["tavily", "brave", "searxng"])
def test_the_page_without_cloudflares_headers_is_the_services_own_403(name):
    """Without ``server: cloudflare`` or ``cf-ray`` nothing says the page is Cloudflare's answer:
    the backend's usual 403 (an API's refused key; SearXNG: something in front of the instance)."""
    error, _ = _block_page_search(name, headers={})
    assert type(error) is ws.AuthError and error.detail_code == "http_403", repr(error)


def test_a_page_without_the_block_headline_is_not_read_as_the_block():
    """The two containers alone are not the block page: a page holding them without the headline
    (here the recorded one with its ``h1`` taken out) stays the service's 403."""
    start = BLOCK_PAGE.index(b"<h1 ")
    body = BLOCK_PAGE[:start] + BLOCK_PAGE[BLOCK_PAGE.index(b"</h1>", start) + len(b"</h1>") :]
    error, _ = _block_page_search("tavily", body=body)
    assert type(error) is ws.AuthError, repr(error)


def test_a_fetched_page_behind_cloudflares_block_page_says_so():
    with responses.RequestsMock() as mock:
        mock.add(responses.GET, PAGE, body=BLOCK_PAGE, status=403, headers=EDGE_HEADERS, content_type=HTML)
        with pytest.raises(ws.WebBlocked) as caught:
            ws.fetch(PAGE)
    assert caught.value.detail_code == "http_403"
    assert 'Cloudflare\'s block page "Sorry, you have been blocked"' in caught.value.message


def test_searxng_says_the_edge_refused_a_1020_too():
    """SearXNG reworded every 403 from in front of the instance as "check its access rules (and
    SEARXNG_API_KEY)", Cloudflare's 1020 included; the edge's words are kept."""
    error, _ = _block_page_search("searxng", body=EDGE_BODY, content_type="text/plain; charset=UTF-8")
    assert type(error) is ws.WebBlocked and "Cloudflare error 1020" in error.message, repr(error)
