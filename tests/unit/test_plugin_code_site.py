"""A plugin's own slip names the line of its code that raised (a plugin author's first hour): a
``TypeError`` in ``parse`` was "a body of an unknown shape (TypeError: unsupported operand ...)",
an exception of ``build_request`` "internal error in backend x: RuntimeError", with no line of
theirs to look at (a search's traceback is logged only for the second, and an MCP client keeps
the server's log). A built-in backend's messages are unchanged."""

import json

import pytest

import websearch_sync as ws
from websearch_sync.backends import Backend, ParseResult, RequestSpec, register
from websearch_sync.engine import registry
from websearch_sync.engine.code_site import code_site, plugin_package
from websearch_sync.testing import MockResponse, MockWire

ANSWER = json.dumps({"hits": [{"title": "T", "link": "https://a.example/"}]})


class HalvesItsTitles(Backend):
    name = "code_site_parse"
    kind = "json"
    default_endpoint = "https://api.example/s"

    def build_request(self, params):
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.query})

    def parse(self, response, params):
        return ParseResult(items=[{"title": hit["title"] / 2, "url": hit["link"]} for hit in response.json()["hits"]])


class BuildsWithABug(HalvesItsTitles):
    name = "code_site_build"

    def build_request(self, params):
        raise RuntimeError("the SDK is not set up")


def _error(backend: type[Backend]) -> ws.WebSearchError:
    register(backend)  # undone after the test (the testing plugin)
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "application/json"}, ANSWER))
    with ws.SearchClient(backend.name, wire=wire) as client, pytest.raises(ws.WebSearchError) as caught:
        client.search("q")
    return caught.value


def test_a_type_error_in_parse_names_its_line():
    line = HalvesItsTitles.parse.__code__.co_firstlineno + 1
    error = _error(HalvesItsTitles)
    assert error.detail_code == "unexpected_shape"
    assert "(TypeError at test_plugin_code_site.py:%d: unsupported operand" % line in error.message


def test_an_exception_of_build_request_names_its_line():
    line = BuildsWithABug.build_request.__code__.co_firstlineno + 1
    error = _error(BuildsWithABug)
    assert error.detail_code == "internal_error"
    assert (
        error.message == "internal error in backend code_site_build: RuntimeError at test_plugin_code_site.py:%d" % line
    )


def test_the_plugin_behind_the_testing_kits_swap_is_the_plugins():
    swapped = type("HalvesItsTitles", (HalvesItsTitles,), {"__module__": "websearch_sync.testing.kit"})
    assert plugin_package(swapped) == plugin_package(HalvesItsTitles) == HalvesItsTitles.__module__.split(".")[0]
    assert plugin_package(registry.backend_class("brave")) is None  # a built-in: its messages are unchanged


def test_no_site_outside_the_package():
    try:
        json.loads("{")
    except ValueError as exc:
        assert code_site(exc, "acme_search") is None and code_site(exc, None) is None
        assert code_site(exc, "json") is not None  # the standard library's own frame, when asked for
