"""The image and video filters (docs/verticals.md "Image and video filters") offered to a model:
``web_search``'s schema lists each filter with its values, ``call_tool`` passes them to the
search, and a filter given with another vertical is the search's own ``bad_filter``, returned
as the tool's error. Through ``call_tool`` (DuckDuckGo's recorded token page on a mocked
wire: the ``f`` parameter a filter becomes is pinned in tests/unit/test_media_filters.py), a
``ToolSession`` and an MCP server forked from the zygote the MCP client modules of the worker
share (mcp_zygote.shared; test_mcp.py drives the server the same way); LangChain's tools in
test_integrations_langchain.py.
"""

import os
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import mcp_zygote
import pytest
import responses
from clocks import FakeClock, paced_budget_s

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.mcp.tools import TOOL_NAMES, nullable_optional
from websearch_sync.models import MEDIA_FILTERS

ROOT = Path(__file__).resolve().parents[2]
TOKEN_PAGE = (ROOT / "fixtures" / "ddg_html" / "phrona__news_rust_programming.1.html").read_text(encoding="utf-8")
SESSION_LIMIT_S = 30  # generous: a session normally takes about a second
STUB = ws.Settings()  # no backend configured: the offline stub, which answers images and videos


def ddg_client():
    return ws.SearchClient("ddg_html", settings=ws.Settings(impersonate="off"), clock=FakeClock(), retries=0)


def test_the_search_schema_offers_every_filter_with_its_values():
    properties = tool.tool_schema("web.search")["properties"]
    for name, (vertical, values) in MEDIA_FILTERS.items():
        assert properties[name]["enum"] == list(values), name
        assert properties[name]["description"] == "Only with vertical %s." % vertical
    assert tool.tool_schema("web.search")["required"] == ["query"]  # every filter optional
    # the strict form makes them nullable, as every other optional argument
    strict = tool.tool_schema("web.search", strict=True)["properties"]["image_license"]
    assert strict["anyOf"] == [{"type": "string", "enum": list(MEDIA_FILTERS["image_license"][1])}, {"type": "null"}]


def test_call_tool_sends_the_filters_the_model_gave():
    with responses.RequestsMock() as mock, ddg_client() as client:
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/i.js", json={"results": [], "next": None})
        arguments = {
            "query": "red panda",
            "vertical": "images",
            "image_size": "large",
            "image_license": "public_domain",
        }
        result = tool.call_tool("web_search", arguments, client=client)
        sent = dict(parse_qsl(urlsplit(mock.calls[1].request.url).query, keep_blank_values=True))
    assert "error" not in result, result
    assert sent["f"] == ",size:Large,,,,license:Public"
    assert "not_sent" not in result["provider_meta"]


def test_a_video_filter_reaches_a_video_search():
    with responses.RequestsMock() as mock, ddg_client() as client:
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/v.js", json={"results": [], "next": None})
        arguments = {"query": "rust talk", "vertical": "videos", "video_duration": "long", "image_size": None}
        result = tool.call_tool("web_search", arguments, client=client)
        sent = dict(parse_qsl(urlsplit(mock.calls[1].request.url).query, keep_blank_values=True))
    assert "error" not in result, result
    assert sent["f"] == ",,videoDuration:long,"  # a null filter (strict mode's "not given") is not sent


@pytest.mark.parametrize(
    "arguments, vertical",
    [
        ({"query": "red panda", "image_size": "large"}, "web"),  # no vertical: web
        ({"query": "red panda", "vertical": "news", "image_color": "red"}, "news"),
        ({"query": "rust talk", "vertical": "images", "video_duration": "long"}, "images"),
    ],
)
def test_a_filter_with_another_vertical_is_the_searchs_bad_filter_before_any_request(arguments, vertical):
    with responses.RequestsMock() as mock, ddg_client() as client:  # no route: a request would fail the test
        result = tool.call_tool("web_search", arguments, client=client)
        assert not mock.calls
    with ws.SearchClient() as client, pytest.raises(ws.InvalidInput) as raised:
        client.search(**arguments)
    assert result == {"error": raised.value.to_dict()}
    assert result["error"]["detail_code"] == "bad_filter"
    assert "this call searches %s" % vertical in result["error"]["message"]
    # the model is told that its arguments were wrong
    assert tool.format_results(result).endswith(". Correct the arguments and call again.")


def test_a_value_outside_the_list_is_a_bad_argument_naming_the_list():
    with ws.SearchClient() as client:
        result = tool.call_tool("web_search", {"query": "q", "vertical": "images", "image_size": "huge"}, client=client)
    assert result["error"]["detail_code"] == "bad_arguments"
    assert result["error"]["message"] == "argument 'image_size' must be one of %s, got 'huge'" % ", ".join(
        MEDIA_FILTERS["image_size"][1]
    )


def test_the_same_words_with_other_filters_are_another_lookup_for_the_repeat_guard():
    with ws.SearchClient() as client:
        session = tool.ToolSession(client, max_repeats=1)
        asked = {"query": "red panda", "vertical": "images"}
        answers = [
            session.call_tool("web_search", dict(asked, **filters))
            for filters in ({}, {"image_size": "large"}, {"image_size": "small"}, {"image_size": "large"})
        ]
    assert ["note" in answer for answer in answers] == [False, False, False, True]
    assert [answer["provider_meta"].get("not_sent") for answer in answers[:3]] == [None, ["image_size"], ["image_size"]]


# -- through the MCP server -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mcp_answers(request):
    """One MCP server of the offline stub (forked from the worker's shared zygote, as in
    test_mcp_clients.py), asked for its tools, an image search with a filter and the same filter
    with vertical web; it must have ended once its client had gone."""
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def scenario(command):
        params = StdioServerParameters(command=command[0], args=command[1:], cwd=str(ROOT))
        with open(os.devnull, "w") as log:
            async with stdio_client(params, errlog=log) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    listed = (await session.list_tools()).tools
                    found = await session.call_tool(
                        "web_search", {"query": "red panda", "vertical": "images", "image_license": "public_domain"}
                    )
                    refused = await session.call_tool("web_search", {"query": "red panda", "image_license": "share"})
                    return listed, found, refused

    async def bounded(command):
        with anyio.fail_after(SESSION_LIMIT_S):
            return await scenario(command)

    with mcp_zygote.servers_of(request.config, str(ROOT), paced_budget_s(SESSION_LIMIT_S)) as zygote:
        return anyio.run(bounded, zygote.command())  # the server must end once the client closed its stdin


def test_the_mcp_search_tool_lists_the_filters(mcp_answers):
    listed, _, _ = mcp_answers
    [search] = [listed_tool for listed_tool in listed if listed_tool.name == "web_search"]
    [definition] = tool.tool_definitions("json_schema", names=TOOL_NAMES, settings=STUB, tools=["search"])
    assert search.input_schema == nullable_optional(definition["parameters"])
    for name, (_, values) in MEDIA_FILTERS.items():
        assert search.input_schema["properties"][name]["enum"] == list(values)
        assert search.input_schema["properties"][name]["nullable"] is True


def test_the_mcp_search_tool_takes_a_filter_and_refuses_it_with_another_vertical(mcp_answers):
    _, found, refused = mcp_answers
    assert found.is_error is False
    assert found.structured_content["provider_meta"]["vertical"] == "images"
    assert found.structured_content["provider_meta"]["not_sent"] == ["image_license"]  # the stub sends no filter
    with ws.SearchClient() as client:
        expected = tool.call_tool("web_search", {"query": "red panda", "image_license": "share"}, client=client)
    assert refused.is_error is True and refused.structured_content is None
    assert [block.text for block in refused.content] == [tool.format_results(expected)]
    assert refused.content[0].text.startswith("Error: InvalidInput (bad_filter): image_license filters images")
