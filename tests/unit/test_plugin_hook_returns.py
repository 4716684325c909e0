"""A JSON engine's hooks returning the wrong thing are the plugin's defect, named as such
(``WebProviderError(bad_parse_result)``: "backend demo's item_of returned None, not a dict"), not an
answer of an unknown shape blaming the service: an ``item_of`` override without its ``return`` was
"demo answered with a body of an unknown shape (AttributeError: 'NoneType' object has no attribute
'get')", and a ``results`` override returning the answer's dict was "demo answered with 1 result(s),
none a JSON object (... the first result: a string)", its keys read as results."""

import json

import pytest

import websearch_sync as ws
from websearch_sync.backends import JsonApiEngine, RequestSpec
from websearch_sync.engine.registry import register, unregister
from websearch_sync.testing import MockResponse, MockWire

ANSWER = {"hits": [{"link": "https://a.example/", "name": "A"}]}


class _Engine(JsonApiEngine):
    default_endpoint = "https://api.hooks.example/s"
    results_at = "hits"
    result_fields = {"title": "name", "url": "link"}

    def build_request(self, params):
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.full_query})


class ItemOfWithoutReturn(_Engine):
    name = "item_of_without_return"

    def item_of(self, result, params):
        item = super().item_of(result, params)
        item["snippet"] = "x"  # the return forgotten


class ResultsOfTheAnswer(_Engine):
    name = "results_of_the_answer"

    def results(self, data, params):
        return {"hits": data["hits"]}  # the answer's dict, not its list


class ItemOfAList(_Engine):
    name = "item_of_a_list"

    def item_of(self, result, params):
        return [super().item_of(result, params)]


@pytest.fixture(params=[ItemOfWithoutReturn, ResultsOfTheAnswer, ItemOfAList])
def engine(request):
    register(request.param)
    yield request.param
    unregister(request.param.name)


SAID = {
    "item_of_without_return": "backend item_of_without_return's item_of returned None, not a dict (the item)",
    "results_of_the_answer": "backend results_of_the_answer's results returned a dict, not a list of the answer's results",
    "item_of_a_list": "backend item_of_a_list's item_of returned a list, not a dict (the item)",
}


def test_a_hook_returning_the_wrong_thing_is_the_backends_defect(engine):
    wire = MockWire(
        lambda request: MockResponse(200, {"Content-Type": "application/json"}, json.dumps(ANSWER).encode())
    )
    with ws.SearchClient(engine.name, wire=wire, retries=0) as client:
        with pytest.raises(ws.WebProviderError) as caught:
            client.search("q")
    assert caught.value.detail_code == "bad_parse_result"
    assert caught.value.message == SAID[engine.name]


def test_the_declared_reading_still_reads_the_answer():
    register(_Ok)
    try:
        wire = MockWire(
            lambda request: MockResponse(200, {"Content-Type": "application/json"}, json.dumps(ANSWER).encode())
        )
        with ws.SearchClient(_Ok.name, wire=wire, retries=0) as client:
            assert [item["url"] for item in client.search("q")["items"]] == ["https://a.example/"]
    finally:
        unregister(_Ok.name)


class _Ok(_Engine):
    name = "hooks_ok"
