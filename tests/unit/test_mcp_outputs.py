"""The MCP tools' ``outputSchema`` (websearch_sync/mcp/outputs.py) against the structured results the
server really sends (``McpTools.call(...).structured``): a search replayed from a recorded case of
each backend and vertical, one with ``include_content`` reading a recorded article, a repeat's note,
a fetched article, PDF and image, each validated as the SDK's client validates it (JSON Schema
2020-12). No network: recorded cases, and a mocked wire for pages."""

import functools
import gzip
from collections import Counter
from pathlib import Path

import pytest
from images import png
from pdfs import text_pdf

import websearch_sync as ws
from websearch_sync.contract.cases import discover, load_golden
from websearch_sync.mcp import McpTools
from websearch_sync.mcp.outputs import output_schemas
from websearch_sync.testing import MockResponse, MockWire, replay_fixtures

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
ARTICLE = ROOT / "tests" / "data" / "fetch" / "57b4dafd18cfd0531b69f81e87158648227c673ef159f8d8c87d34e34bdb21f2.html.gz"


def _answered_cases():
    """The first recorded case of each backend and vertical whose golden has items (recorded walls and
    failures answer with an error result, which has no structured content), of a query no other case
    of its backend and vertical recorded (the replay answers a query with one of its cases)."""
    cases = [case for case in discover(FIXTURES) if not case.problem]
    queries = Counter(_asked(case) for case in cases)
    chosen = {}
    for case in cases:
        golden = load_golden(case)
        if golden and golden.get("items") and queries[_asked(case)] == 1:
            chosen.setdefault((case.backend, case.meta.get("vertical") or "web"), case)
    return sorted(chosen.values(), key=lambda case: case.case_id)


def _asked(case):
    return case.backend, case.meta.get("vertical") or "web", case.meta.get("query")


@functools.cache
def validator(kind):
    """The SDK client's validator of the ``kind`` schema, the schema checked against the metaschema
    first: once per process (0.2 s of CPU each, made again for each of the module's 46 tests before)."""
    from jsonschema import Draft202012Validator

    schema = output_schemas()[kind]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def problems(kind, structured):
    return ["%s: %s" % (list(error.path), error.message) for error in validator(kind).iter_errors(structured)]


def recorded_search(case, client):
    """``web_search`` as the model would ask for the case's recorded query."""
    tools = McpTools(client)
    arguments = {"query": case.meta["query"], "vertical": case.meta.get("vertical") or "web"}
    return tools.call("web_search", dict(arguments, max_results=min(int(case.meta.get("max_results") or 5), 10)))


@pytest.mark.parametrize("case", _answered_cases(), ids=lambda case: case.case_id)
def test_a_recorded_search_of_each_backend_and_vertical_fits_the_search_schema(case):
    with replay_fixtures(FIXTURES, backends=case.backend):
        settings = ws.Settings(backend=case.backend, **(case.meta.get("settings") or {}))
        with ws.SearchClient(settings=settings) as client:
            outcome = recorded_search(case, client)
    assert not outcome.is_error, outcome.text
    assert outcome.structured["items"], outcome.text
    assert problems("search", outcome.structured) == []


def pages_wire():
    article = gzip.decompress(ARTICLE.read_bytes())
    pages = {
        ".pdf": ("application/pdf", text_pdf([["Page one"], ["Page two"]])),
        ".png": ("image/png", png(4, 3)),
    }

    def answer(request):
        kind, body = next((page for end, page in pages.items() if request.url.endswith(end)), ("text/html", article))
        return MockResponse(200, {"Content-Type": kind}, body)

    return MockWire(answer)


def test_a_search_whose_pages_are_read_and_its_repeat_fit_the_search_schema():
    """``include_content``: the recorded article read for each result (``content``, ``content_by``,
    ``content_truncated_by``), and the third identical lookup answered with the repeat's ``note``."""
    case = next(case for case in _answered_cases() if case.case_id.startswith("brave/"))
    with replay_fixtures(FIXTURES, backends="brave"):
        settings = ws.Settings(backend="brave", **case.meta["settings"])
        with ws.SearchClient(settings=settings, wire=pages_wire()) as client:
            tools = McpTools(client)
            arguments = {"query": case.meta["query"], "include_content": True, "max_results": 2}
            outcomes = [tools.call("web_search", arguments) for _ in range(3)]
    read = outcomes[0].structured
    assert read["items"] and {item["content_by"] for item in read["items"]} == {"fetch"}, outcomes[0].text[:500]
    assert {tuple(item["content_truncated_by"]) for item in read["items"]} == {("max_chars",)}
    assert "note" in outcomes[2].structured
    assert [problems("search", outcome.structured) for outcome in outcomes] == [[], [], []]


@pytest.mark.parametrize("path", ["/article", "/paper.pdf", "/picture.png"])
def test_a_fetched_page_pdf_and_image_fit_the_fetch_schema(path):
    with ws.SearchClient("stub", wire=pages_wire()) as client:
        outcome = McpTools(client).call("web_fetch", {"url": "https://example.com" + path})
    assert not outcome.is_error, outcome.text
    assert problems("fetch", outcome.structured) == []


def test_the_schemas_refuse_a_result_of_another_shape():
    """The schemas say something: a fetch result is no search response, a search item needs its URL,
    a fetch's ``truncated`` is a boolean."""
    with ws.SearchClient("stub", wire=pages_wire()) as client:
        tools = McpTools(client)
        fetched = tools.call("web_fetch", {"url": "https://example.com/article"}).structured
        found = tools.call("web_search", {"query": "schema", "max_results": 2}).structured
    assert problems("search", found) == [] and problems("fetch", fetched) == []
    assert problems("search", fetched) == [
        "[]: 'items' is a required property",
        "[]: 'provider_meta' is a required property",
    ]
    del found["items"][0]["url"]
    assert problems("search", found) != []
    assert problems("fetch", dict(fetched, truncated="no")) == ["['truncated']: 'no' is not of type 'boolean'"]


@pytest.mark.parametrize("vertical", ["web", "news", "images", "videos"])
@pytest.mark.parametrize("include_content", [False, True])
def test_the_offline_stubs_search_of_each_vertical_fits_the_search_schema(vertical, include_content):
    """The first hour's server (no backend configured: the stub) answers every vertical in the
    declared shape, its pages read too."""
    with ws.SearchClient("stub", wire=pages_wire()) as client:
        arguments = {"query": "schema", "vertical": vertical, "include_content": include_content, "max_results": 3}
        outcome = McpTools(client).call("web_search", arguments)
    assert not outcome.is_error, outcome.text
    assert outcome.structured["items"] and problems("search", outcome.structured) == []


@pytest.mark.parametrize(
    "name, arguments, typed",
    [
        ("web_search", {"query": ""}, "Error: InvalidInput (bad_arguments): "),
        ("web_search", {"query": "\u200b"}, "Error: InvalidInput (empty_query): "),
        ("web_search", {"query": "q", "locale": "english"}, "Error: InvalidInput (bad_locale): "),
        ("web_fetch", {"url": "ftp://example.com/"}, "Error: InvalidInput (bad_url): "),
        ("web_fetch", {"url": "https://example.com/missing"}, "Error: WebProviderError (http_404): "),
        ("no_such_tool", {}, "Error: ToolNotFound (unknown_tool): "),
    ],
)
def test_an_error_result_is_typed_and_carries_no_structured_content(name, arguments, typed):
    """An error is ``isError`` with its type and detail code first on its one line, and no
    ``structuredContent`` (the SDK's client validates structured content of a result that is no error)."""

    def answer(request):
        return MockResponse(404, {"Content-Type": "text/html"}, b"<p>gone</p>")

    with ws.SearchClient("stub", wire=MockWire(answer)) as client:
        outcome = McpTools(client).call(name, arguments)
    assert outcome.is_error and outcome.structured is None
    assert outcome.text.startswith(typed), outcome.text
    assert set(outcome.result) == {"error"} and outcome.result["error"]["type"] == typed.split()[1]
