"""Names checked by a pattern are checked whole: ``$`` matches before a final newline, so a
trailing ``\\n`` used to slip through (a tool name an SDK refuses, a wiki edition in a URL)."""

import pytest

import websearch_sync as ws
from websearch_sync.tool import tool_definitions


@pytest.mark.parametrize("style", ["openai", "anthropic"])
def test_a_vendor_tool_name_with_a_trailing_newline_is_refused(style):
    with pytest.raises(ws.InvalidInput) as info:
        tool_definitions(style=style, names={"search": "web_search\n"})
    assert info.value.detail_code == "bad_tool_name"


@pytest.mark.parametrize("wiki", ["de\n", "en\n\n"])
def test_a_wiki_edition_with_a_trailing_newline_is_refused(wiki):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="wikipedia", wiki=wiki)
    assert info.value.detail_code == "bad_wiki"
