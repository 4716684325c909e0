"""What a plugin raises for a service's refusal decides whether a fallback chain goes on, as
docs/backends.md tells plugin authors: the service's own refusals (``AuthError``, ``WebBlocked``,
``BadGateway``, ``WebParseError``) and a query this backend cannot take (``InvalidInput``
``query_too_long`` / ``unsupported_query``) move on to the next backend; any other
``InvalidInput`` (the caller's input is wrong) and a ``WebProviderError`` that is no defect end it."""

import json

import pytest

import websearch_sync as ws
from websearch_sync.backends import JsonApiEngine, RequestSpec
from websearch_sync.engine.registry import register, unregister
from websearch_sync.testing import MockResponse, MockWire

ANSWER = {"hits": [{"link": "https://a.example/", "name": "A"}]}


class _Engine(JsonApiEngine):
    results_at = "hits"
    result_fields = {"title": "name", "url": "link"}

    def build_request(self, params):
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.full_query})


class Answerer(_Engine):
    name = "chain_answerer"
    default_endpoint = "https://api.answerer.example/s"


def _refuser(error):
    class Refuser(_Engine):
        name = "chain_refuser"
        default_endpoint = "https://api.refuser.example/s"

        def parse(self, response, params):
            raise error

    return Refuser


GOES_ON = [
    ws.AuthError("key refused by the vendor", detail_code="invalid_api_key"),
    ws.WebBlocked("quota used up", detail_code="http_429"),
    ws.BadGateway("vendor outage", detail_code="http_503"),
    ws.WebParseError("vendor envelope of a new shape", detail_code="unexpected_shape"),
    ws.InvalidInput("too long for this vendor", detail_code="query_too_long"),
    ws.InvalidInput("a form this vendor refuses", detail_code="unsupported_query"),
]
ENDS = [
    ws.InvalidInput("the caller's locale is wrong", detail_code="bad_locale"),
    ws.WebProviderError("the vendor's own error", detail_code="provider_error"),
]


@pytest.fixture
def chain(request):
    refuser = _refuser(request.param)
    register(refuser)
    register(Answerer)
    wire = MockWire(lambda sent: MockResponse(200, {"Content-Type": "application/json"}, json.dumps(ANSWER).encode()))
    try:
        with ws.SearchClient([refuser.name, Answerer.name], strategy="fallback", wire=wire, retries=0) as client:
            yield client, request.param
    finally:
        unregister(refuser.name)
        unregister(Answerer.name)


@pytest.mark.parametrize("chain", GOES_ON, indirect=True, ids=lambda error: error.detail_code)
def test_a_services_refusal_moves_the_chain_on(chain):
    client, error = chain
    answer = client.search("q")
    assert answer["provider_meta"]["provider_name"] == Answerer.name
    assert [(e["type"], e["detail_code"], e["provider"]) for e in answer["errors"]] == [
        (type(error).__name__, error.detail_code, "chain_refuser")
    ]


@pytest.mark.parametrize("chain", ENDS, indirect=True, ids=lambda error: error.detail_code)
def test_the_callers_own_mistake_ends_the_chain(chain):
    client, error = chain
    with pytest.raises(type(error)) as caught:
        client.search("q")
    assert caught.value.detail_code == error.detail_code
