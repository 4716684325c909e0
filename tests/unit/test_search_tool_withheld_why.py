"""The warning of a search tool withheld (its backend not configured) says what to set.

Before: ``not offering the search tool: backend brave is not configured``, and an MCP server's
operator (``websearch-sync mcp --backend brave``) saw the model lose its search tool without a word
of the variable missing, which ``websearch-sync backends`` names (``no (set BRAVE_API_KEY)``)."""

import logging

import pytest

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.backends import JsonApiEngine, RequestSpec, register


def _withheld(caplog, settings):
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        names = [d["name"] for d in tool.tool_definitions(style="json_schema", settings=settings)]
    assert names == ["web.fetch"]
    return [r.getMessage() for r in caplog.records if "not offering the search tool" in r.getMessage()]


def test_the_warning_names_the_variable_to_set(caplog):
    said = _withheld(caplog, ws.Settings(backend="brave"))
    assert said == ["not offering the search tool: backend brave is not configured (brave: set BRAVE_API_KEY)"]


def test_each_backend_of_a_chain_says_what_it_lacks(caplog):
    said = _withheld(caplog, ws.Settings(backend=["brave", "kagi"]))
    assert said == [
        "not offering the search tool: backend brave,kagi is not configured"
        " (brave: set BRAVE_API_KEY) (kagi: set KAGI_API_KEY)"
    ]


def test_a_plugin_that_cannot_be_built_says_why(caplog):
    @register
    class Unbuilt(JsonApiEngine):
        name = "unbuilt_demo"
        default_endpoint = "https://unbuilt.example/api"
        results_at = "hits"
        result_fields = {"title": "name", "url": "link"}

        def __init__(self, *args, **kwargs):
            raise RuntimeError("the SDK is not set up")

        def build_request(self, params):
            return RequestSpec("GET", self.endpoint_url())

    said = _withheld(caplog, ws.Settings(backend="unbuilt_demo"))
    assert len(said) == 1
    assert said[0].startswith("not offering the search tool: backend unbuilt_demo is not configured (unbuilt_demo: ")
    assert "RuntimeError" in said[0] and "the SDK is not set up" in said[0]


@pytest.mark.parametrize("backend", ["stub", "auto"])
def test_a_configured_backend_is_offered_without_a_warning(caplog, backend):
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        names = [d["name"] for d in tool.tool_definitions(style="json_schema", settings=ws.Settings(backend=backend))]
    assert names == ["web.search", "web.fetch"]
    assert not [r for r in caplog.records if "not offering" in r.getMessage()]
