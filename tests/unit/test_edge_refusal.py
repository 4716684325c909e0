"""A request Cloudflare's edge refuses in front of an API (``error code: 1020``) is a block, not a
refused key: the service never saw the request, so its key must not be remembered as refused,
and the message says where the refusal came from (net/status.py ``edge_refusal``).

The answer below is Cloudflare's as recorded by a user in front of a JSON endpoint
(hadoanngoc/php-bypass-cloudflare-challenge#2: ``HTTP/2 403``, ``content-type: text/plain;
charset=UTF-8``, ``content-length: 16``, ``server: cloudflare``, ``cf-ray: 74385ccaab1ab3d3-MIA``,
body ``error code: 1020``); curl's maintainer confirms the body is all of it (curl/curl#5127).
Served here by ``responses`` in front of Tavily's and Brave's endpoints.
"""

import pytest
import responses
from backend_kit import recorded_json
from clocks import FakeClock

import websearch_sync as ws

TAVILY = "https://api.tavily.com/search"
BRAVE = "https://api.search.brave.com/res/v1/web/search"
PAGE = "https://93.184.215.14/report"

#: Cloudflare's recorded refusal: the headers it sent that matter here, and the 16-byte body.
EDGE_HEADERS = {"Server": "cloudflare", "cf-ray": "74385ccaab1ab3d3-MIA"}
EDGE_BODY = "error code: 1020"


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
