"""LangChain: ``langchain.tools()`` driven the way LangChain's agents run tools — an AIMessage's
tool calls from langchain-core's fake chat model, each invoked as a ToolCall, and LangGraph's
ToolNode in a graph, sync and async — against the loopback engine (no network, no model)."""

import asyncio

import pytest
from agent_engine import CAPTCHA_PAGE, FIRST_TITLE, FIRST_URL, ddg_engine, integration, searches


@pytest.fixture(scope="module")
def langchain():
    """Our LangChain module, imported by the first test that runs (collection imports no framework)."""
    return integration("langchain", "langchain_core")


def model_asking(*calls):
    """langchain-core's fake chat model, answering once with ``calls`` as its tool calls."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    message = AIMessage(
        content="",
        tool_calls=[
            {"name": name, "args": args, "id": "call_%d" % i, "type": "tool_call"}
            for i, (name, args) in enumerate(calls)
        ],
    )
    return GenericFakeChatModel(messages=iter([message]))


def run_tool_calls(tools, model, asynchronous=False):
    """The tool step of an agent: every tool call of the model's reply, invoked as a ToolCall."""
    by_name = {tool.name: tool for tool in tools}
    calls = model.invoke("find rust").tool_calls
    if asynchronous:

        async def one_after_another():
            return [await by_name[call["name"]].ainvoke(call) for call in calls]

        return asyncio.run(one_after_another())
    return [by_name[call["name"]].invoke(call) for call in calls]


def test_a_search_through_a_tool_call_gives_a_success_message(langchain):
    from langchain_core.messages import ToolMessage

    with ddg_engine() as (server, client):
        [message] = run_tool_calls(
            langchain.tools(client),
            model_asking(("web_search", {"query": "rust programming language", "max_results": 2, "locale": None})),
        )
    assert isinstance(message, ToolMessage) and message.status == "success" and message.tool_call_id == "call_0"
    assert message.content.startswith("1. %s\n   URL: %s" % (FIRST_TITLE, FIRST_URL))
    assert "\n\n3. " not in message.content


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_blocked_search_gives_an_error_message_with_our_line(langchain, asynchronous):
    with ddg_engine(CAPTCHA_PAGE) as (server, client):
        messages = run_tool_calls(
            langchain.tools(client),
            model_asking(("web_search", {"query": "rust"}), ("web_search", {"query": "go"})),
            asynchronous,
        )
        assert searches(server) == 1  # the tools share the client and its cool-down
    assert [m.status for m in messages] == ["error", "error"]
    contents = [m.content for m in messages]
    assert contents[0].startswith(
        "Error: WebBlocked (captcha_required): 127.0.0.1 answered with a bot wall (DuckDuckGo anomaly (bot check) page)"
    )
    assert contents[1].startswith("Error: WebBlocked (captcha_required): ddg_html is cooling down")


def test_fetch_and_bad_arguments(langchain):
    with ddg_engine() as (server, client):
        fetched, refused = run_tool_calls(
            langchain.tools(client),
            model_asking(("web_fetch", {"url": server.url("/article")}), ("web_fetch", {"url": "ftp://example.com/"})),
        )
    assert fetched.status == "success" and "<untrusted-web-content" in fetched.content
    assert refused.status == "error" and refused.content.startswith("Error: InvalidInput (bad_url): ")


def test_bind_tools_strict_keeps_optional_arguments_optional(langchain):
    """With ``strict=True`` LangChain's strict conversion keeps the strict schema: the options
    stay nullable instead of becoming required values the model must invent."""
    from langchain_core.utils.function_calling import convert_to_openai_tool

    search = langchain.tools(strict=True)[0]
    parameters = convert_to_openai_tool(search, strict=True)["function"]["parameters"]
    assert parameters["properties"]["locale"]["anyOf"][1] == {"type": "null"}
    plain = convert_to_openai_tool(langchain.tools()[0])["function"]["parameters"]
    assert plain["required"] == ["query"] and plain["additionalProperties"] is False


def test_langgraph_tool_node_runs_the_tools_and_reports_the_block(langchain):
    """LangGraph's ToolNode (what its agents run tool calls with), sync and async: a blocked search
    is an error ToolMessage with our line and the graph step completes."""
    tool_node = pytest.importorskip("langgraph.prebuilt").ToolNode
    from langgraph.graph import END, START, MessagesState, StateGraph

    with ddg_engine(CAPTCHA_PAGE) as (server, client):
        builder = StateGraph(MessagesState)
        builder.add_node("tools", tool_node(langchain.tools(client)))
        builder.add_edge(START, "tools")
        builder.add_edge("tools", END)
        graph = builder.compile()
        first = graph.invoke({"messages": [model_asking(("web_search", {"query": "rust"})).invoke("find rust")]})[
            "messages"
        ][1:]
        asked = model_asking(("web_search", {"query": "go"})).invoke("find go")
        second = asyncio.run(graph.ainvoke({"messages": [asked]}))["messages"][1:]
        assert searches(server) == 1
    assert [m.status for m in first + second] == ["error", "error"]
    assert first[0].content.startswith(
        "Error: WebBlocked (captcha_required): 127.0.0.1 answered with a bot wall (DuckDuckGo anomaly (bot check) page)"
    )
    assert second[0].content.startswith("Error: WebBlocked (captcha_required): ddg_html is cooling down")


def test_the_search_tool_offers_the_image_and_video_filters_and_reports_bad_filter(langchain):
    """The filters (docs/verticals.md) are in the schema LangChain sends, each with its values; one
    given with another vertical is the search's ``bad_filter``, an error ToolMessage with our line."""
    from langchain_core.utils.function_calling import convert_to_openai_tool

    import websearch_sync as ws
    from websearch_sync.models import MEDIA_FILTERS

    with ws.SearchClient() as client:  # the offline stub: it answers videos, sending no filter
        tools = langchain.tools(client)
        parameters = convert_to_openai_tool(tools[0])["function"]["parameters"]
        refused, found = run_tool_calls(
            tools,
            model_asking(
                ("web_search", {"query": "rust talk", "video_license": "youtube"}),
                ("web_search", {"query": "rust talk", "vertical": "videos", "video_license": "youtube"}),
            ),
        )
    assert {name: parameters["properties"][name]["enum"] for name in MEDIA_FILTERS} == {
        name: list(values) for name, (_, values) in MEDIA_FILTERS.items()
    }
    assert refused.status == "error"
    assert refused.content.startswith("Error: InvalidInput (bad_filter): video_license filters videos")
    assert found.status == "success" and "Not applied by stub: video_license" in found.content


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_arguments_named_as_langchains_own_parameters_are_refused_as_unknown(langchain, asynchronous):
    """LangChain passed a model's arguments on as keywords to its own ``_run(self, *args, config,
    run_manager, **kwargs)``: ``self`` raised TypeError out of the agent run, ``config`` and
    ``run_manager`` were replaced by LangChain's own without a word."""
    import websearch_sync as ws

    names = ("self", "config", "run_manager")
    with ws.SearchClient(backend="stub") as client:  # refused before any search
        messages = run_tool_calls(
            langchain.tools(client),
            model_asking(*(("web_search", {"query": "rust", name: 1}) for name in names)),
            asynchronous,
        )
    for name, message in zip(names, messages):
        assert message.status == "error"
        assert message.content.startswith("Error: InvalidInput (bad_arguments): unknown argument %r" % name)
