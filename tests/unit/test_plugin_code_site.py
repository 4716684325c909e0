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
    assert error.message == (
        "internal error in backend code_site_build: RuntimeError at test_plugin_code_site.py:%d:"
        " the SDK is not set up" % line
    )


KEY = "sk-code-site-0123456789abcdef"


class QuotesItsKey(HalvesItsTitles):
    """An SDK refusing the key it was given, quoting it, from its own (library-side) code."""

    name = "code_site_key"
    env_vars = {"api_key": "CODE_SITE_KEY_API_KEY"}

    def build_request(self, params):
        return dict.__getitem__({}, "no client for " + self.config["api_key"])  # raised in C, not in this frame


class BuiltWithABug(HalvesItsTitles):
    name = "code_site_ctor"
    env_vars = {"api_key": "CODE_SITE_CTOR_API_KEY"}

    def __init__(self, settings):
        super().__init__(settings)
        raise ValueError("bad key %s" % self.config["api_key"])


def test_an_internal_error_says_the_exceptions_message_with_the_key_hidden():
    """The message was the exception's type alone ("internal error in backend x: KeyError"): a
    plugin author had nothing to go on without the log. It is said, the backend's key hidden."""
    register(QuotesItsKey)
    settings = ws.Settings(providers={"code_site_key": {"api_key": KEY}})
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "application/json"}, ANSWER))
    with ws.SearchClient(backend="code_site_key", settings=settings, wire=wire) as client:
        with pytest.raises(ws.WebProviderError) as caught:
            client.search("q")
    assert caught.value.detail_code == "internal_error"
    assert "KeyError" in caught.value.message and "'no client for ***'" in caught.value.message
    assert KEY not in caught.value.message


def test_a_constructor_that_raises_says_why_without_the_key():
    register(BuiltWithABug)
    settings = ws.Settings(providers={"code_site_ctor": {"api_key": KEY}})
    line = BuiltWithABug.__init__.__code__.co_firstlineno + 2
    with pytest.raises(ws.WebProviderError) as caught:
        registry.instance(BuiltWithABug, settings)
    assert caught.value.message == (
        "internal error in backend code_site_ctor: ValueError at test_plugin_code_site.py:%d: bad key ***" % line
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
