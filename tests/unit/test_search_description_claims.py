"""What the search tool's description (and the MCP server's instructions) promise of every result is
what every recorded result has: a model reads the promise and trusts it. Before, the description
promised news a source, images their size and videos a publisher and channel, which results of
Brave, Tavily and SearXNG (recorded in fixtures/) lack; the instructions promised a snippet, which
no image result has."""

import json
import re
from pathlib import Path

import pytest

from websearch_sync import tool
from websearch_sync.contract.cases import discover

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
#: Where the texts say that what follows is there only when the service gives it.
GIVEN = "when the service gives them"
VERTICALS = ("web", "news", "images", "videos")
#: The words the texts use for a result's fields: the verticals whose results they are said of, and
#: the fields each word names.
WORDS = {
    "title": (VERTICALS, ("title",)),
    "URL": (VERTICALS, ("url",)),
    "image": (("images",), ("image_url",)),
    "snippet": (VERTICALS, ("snippet",)),
    "source": (("news", "images"), ("source",)),
    "date": (("news", "videos"), ("published_at",)),
    "size": (("images",), ("width", "height")),
    "duration": (("videos",), ("duration",)),
    "publisher": (("videos",), ("publisher",)),
    "channel": (("videos",), ("uploader",)),
}


def _recorded_items() -> dict[str, list[dict]]:
    """Every golden's items, by vertical."""
    items: dict[str, list[dict]] = {vertical: [] for vertical in VERTICALS}
    for case in discover(FIXTURES):
        if case.problem is None and case.expected_path.exists():
            golden = json.loads(case.expected_path.read_text(encoding="utf-8"))
            items[case.meta.get("vertical", "web")].extend(golden.get("items") or [])
    return items


def _promised(text: str) -> list[str]:
    """The words of :data:`WORDS` ``text`` says of every result: those before :data:`GIVEN`."""
    always = text.partition(GIVEN)[0]
    return [word for word in WORDS if re.search(r"\b%s\b" % word, always)]


def _search_description() -> str:
    (definition,) = tool.tool_definitions("json_schema", tools=("search",))
    return str(definition["description"])


def _mcp_instructions() -> str:
    pytest.importorskip("mcp", reason="the MCP server is the mcp extra's")
    from websearch_sync.mcp.server import INSTRUCTIONS

    return INSTRUCTIONS


@pytest.mark.parametrize("text", [_search_description, _mcp_instructions], ids=["description", "mcp instructions"])
def test_what_the_search_tool_promises_of_every_result_every_recorded_result_has(text):
    recorded = _recorded_items()
    assert all(recorded.values())  # every vertical has recorded results to hold the promise against
    promised = _promised(text())
    assert {"title", "URL"} <= set(promised)
    lacking = {
        word: [
            (vertical, item["url"]) for vertical in WORDS[word][0] for item in recorded[vertical] if _lacks(item, word)
        ]
        for word in promised
    }
    assert not {word: len(items) for word, items in lacking.items() if items}, "results lacking what is promised"


def _lacks(item: dict, word: str) -> bool:
    """Whether ``item`` lacks a field ``word`` names."""
    return any(item.get(field) in (None, "") for field in WORDS[word][1])


def test_the_description_names_each_verticals_own_fields():
    """The promise is kept by saying when the fields are there, not by leaving them unsaid."""
    described = _search_description()
    assert GIVEN in described
    assert all(re.search(r"\b%s\b" % word, described) for word in WORDS)
