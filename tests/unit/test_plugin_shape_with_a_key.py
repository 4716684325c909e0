"""A plugin backend with a secret setting (its API key) whose ``parse`` answers items of the wrong shape is
``WebProviderError(bad_parse_result)`` naming what is wrong, as one without a key is: the key's removal
from the items' text ran first and met the items as dicts (``internal error in backend demo:
AttributeError: 'str' object has no attribute 'items'``, a line of the library's, not the plugin's)."""

import pytest

import websearch_sync as ws
from websearch_sync.engine.base import Backend
from websearch_sync.engine.registry import register, unregister
from websearch_sync.net.transport import RequestSpec
from websearch_sync.testing import MockResponse, MockWire

KEY = "sk-demo-0123456789abcdef"
ANSWERS = {"strings": ["https://a.example/"], "none": [None], "a dict": {"url": "https://a.example/"}}


class KeyedShapes(Backend):
    name = "keyed_shapes"
    kind = "json"
    summary = "plugin answering items of the wrong shape"
    default_endpoint = "https://api.plugin.example/s"
    env_vars = {"api_key": "KEYED_SHAPES_API_KEY"}
    required = ("api_key",)

    def build_request(self, params):
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.full_query, "key": self.config["api_key"]})

    def parse(self, response, params):
        return ws.backends.ParseResult(items=ANSWERS[params.full_query])


@pytest.fixture
def settings():
    register(KeyedShapes)
    yield ws.Settings(providers={"keyed_shapes": {"api_key": KEY}})
    unregister(KeyedShapes.name)


@pytest.mark.parametrize("query", sorted(ANSWERS))
def test_items_of_the_wrong_shape_are_named_with_a_key_set(settings, query):
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "application/json"}, b"{}"))
    with ws.SearchClient("keyed_shapes", settings=settings, wire=wire, retries=0) as client:
        with pytest.raises(ws.WebProviderError) as caught:
            client.search(query)
    assert caught.value.detail_code == "bad_parse_result", caught.value
    assert caught.value.message.startswith("backend keyed_shapes returned a parse result of the wrong shape: ")
