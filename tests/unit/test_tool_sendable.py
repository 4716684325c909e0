"""A tool result is text a model API and the MCP server can send: a service's own words outside the
page readers (a SearXNG engine's name and reason, which the instance writes) holding a lone surrogate
escape or control characters reach the result and the error line cleaned, on one line."""

import json

import pytest
from hostile_searxng import answered

import websearch_sync as ws
from websearch_sync import tool


def encodable(value):
    """Whether ``value`` is JSON a strict UTF-8 encoder takes (a model API's, the MCP server's)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.parametrize("results", [True, False], ids=["results_stand", "every_engine_failed"])
def test_an_engines_name_holding_a_lone_surrogate_and_controls_reaches_the_model_cleaned(results):
    result = answered(lambda client: tool.call_tool("web_search", {"query": "q"}, client=client), results)
    assert ("error" in result) is not results
    text, structured = tool.format_for_model(result)
    assert encodable(result) and encodable(text) and encodable(structured)
    shown = json.dumps(result, ensure_ascii=False) + text
    assert not any(char in shown for char in "\x00\x1b\ud83d")
    if not results:  # the error line names the engine, on its one line
        assert "brave" in text and "\n" not in text


@pytest.mark.parametrize("argument", ["locale", "time_range"])
def test_a_refused_argument_of_a_megabyte_is_quoted_by_its_start(argument):
    """The tool's ``locale`` has no length in its schema: a model's megabyte of it came back whole in
    the error line (and ``search()``'s own refusal of a long choice likewise)."""
    sent = "x" * 1_000_000
    line = tool.format_results(tool.call_tool("web_search", {"query": "q", argument: sent}, client=ws.SearchClient()))
    assert line.startswith("Error: InvalidInput") and "x" * 20 + "..." in line and len(line) < 400
    with pytest.raises(ws.InvalidInput) as refused:
        ws.search("q", time_range=sent, backend="stub")
    assert len(str(refused.value)) < 400
