"""The LLM tool and MCP keep ``max_results`` at 1..10 unless configured (issue 31.4):
``Settings.tool_max_results`` / ``WEB_SEARCH_TOOL_MAX_RESULTS`` raise (or lower) the cap the
schema shows a model and the argument check holds it to."""

import pytest

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.mcp.tools import McpTools
from websearch_sync.testing import fake_results

ITEMS = [{"title": "Result %d" % i, "url": "https://r%d.example/" % i, "snippet": "s %d" % i} for i in range(40)]


def _max_results_schema(settings):
    return tool.tool_schema("web.search", settings=settings)["properties"]["max_results"]


def test_the_cap_is_ten_by_default():
    schema = _max_results_schema(ws.Settings())
    assert (schema["maximum"], schema["description"]) == (10, "How many results (1-10, default 5).")
    assert ws.Settings().tool_max_results == 10


def test_a_configured_cap_is_what_the_model_is_shown_and_held_to():
    settings = ws.Settings(backend="ddg_html", tool_max_results=30)
    schema = _max_results_schema(settings)
    assert (schema["maximum"], schema["description"]) == (30, "How many results (1-30, default 5).")
    with fake_results({"ddg_html": ITEMS}), ws.SearchClient("ddg_html", settings=settings) as client:
        answer = tool.call_tool("web_search", {"query": "q", "max_results": 30}, client=client)
        over = tool.call_tool("web_search", {"query": "q", "max_results": 31}, client=client)
        session = tool.ToolSession(client).call_tool("web_search", {"query": "q", "max_results": 30})
    assert [item["rank"] for item in answer["items"]] == list(range(1, 31))
    assert over["error"]["detail_code"] == "bad_arguments" and "1..30" in over["error"]["message"]
    assert len(session["items"]) == 30


def test_without_configuration_eleven_is_refused():
    with fake_results({"ddg_html": ITEMS}), ws.SearchClient("ddg_html", settings=ws.Settings()) as client:
        over = tool.call_tool("web_search", {"query": "q", "max_results": 11}, client=client)
        session = tool.ToolSession(client).call_tool("web_search", {"query": "q", "max_results": 11})
    assert over["error"]["detail_code"] == session["error"]["detail_code"] == "bad_arguments"


def test_a_lower_cap_also_lowers_the_default():
    settings = ws.Settings(backend="ddg_html", tool_max_results=3)
    assert _max_results_schema(settings)["description"] == "How many results (1-3, default 3)."
    with fake_results({"ddg_html": ITEMS}), ws.SearchClient("ddg_html", settings=settings) as client:
        answer = tool.call_tool("web_search", {"query": "q"}, client=client)
    assert len(answer["items"]) == 3


def test_the_mcp_server_shows_and_holds_the_configured_cap():
    settings = ws.Settings(backend="ddg_html", tool_max_results=20)
    with fake_results({"ddg_html": ITEMS}), ws.SearchClient("ddg_html", settings=settings) as client:
        tools = McpTools(client)
        (search,) = [d for d in tools.definitions() if d["name"] == "web_search"]
        assert search["parameters"]["properties"]["max_results"]["maximum"] == 20
        reply = tools.call("web_search", {"query": "q", "max_results": 20})
    assert len(reply.result["items"]) == 20


@pytest.mark.parametrize("value", [0, 51, True, "20"])
def test_a_bad_cap_is_refused_when_the_settings_are_built(value):
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(tool_max_results=value)
    assert info.value.detail_code == "bad_setting" and "tool_max_results" in info.value.message


def test_the_environment_sets_it():
    assert ws.Settings.from_env({"WEB_SEARCH_TOOL_MAX_RESULTS": "25"}).tool_max_results == 25
    assert ws.Settings.from_env({}).tool_max_results == 10


@pytest.mark.parametrize("configured, default", [(8, 8), (2, 2), (40, 10)])
def test_the_default_the_model_is_shown_is_the_one_a_call_without_max_results_gets(configured, default):
    """``WEB_SEARCH_MAX_RESULTS`` sets the default a call gets; the description said 5 whatever it was."""
    settings = ws.Settings(backend="ddg_html", max_results=configured)
    schema = _max_results_schema(settings)
    assert schema["description"] == "How many results (1-10, default %d)." % default
    with fake_results({"ddg_html": ITEMS}), ws.SearchClient("ddg_html", settings=settings) as client:
        (search,) = [d for d in McpTools(client).definitions() if d["name"] == "web_search"]
        answer = tool.call_tool("web_search", {"query": "q"}, client=client)
    assert search["parameters"]["properties"]["max_results"]["description"] == schema["description"]
    assert len(answer["items"]) == default
