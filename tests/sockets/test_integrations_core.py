"""The shared default client (issue 27 point 4) and what every integration shares
(``integrations.agent_tool``): one client per set of tools, async calls that leave the
event loop free, and a clear ImportError naming the extra when a framework is missing."""

import asyncio
import importlib
import sys
import threading

import pytest
from agent_engine import CAPTCHA_PAGE, FIRST_TITLE, RESULTS_PAGE, ddg_engine, searches
from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.client.default_client import close_default_client, default_client
from websearch_sync.integrations.agent_tool import agent_tools


def test_call_tool_without_a_client_remembers_a_block_across_calls(monkeypatch):
    """Three blocked searches through ``call_tool(client=None)`` reach the engine once:
    the shared client keeps the cool-down the captcha started."""
    with FaultServer({"/html/": respond(200, CAPTCHA_PAGE)}) as server:
        monkeypatch.setenv("WEB_SEARCH_BACKEND", "ddg_html")
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_DDG_HTML", server.url("/html/"))
        results = [tool.call_tool("web_search", {"query": "rust programming language"}) for _ in range(3)]
        assert searches(server) == 1
    assert [r["error"]["detail_code"] for r in results] == ["captcha_required"] * 3
    assert "cooling down" in results[2]["error"]["message"]


def test_the_default_client_is_one_per_process_until_closed():
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(default_client())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(seen) == 8 and all(client is seen[0] for client in seen)
    close_default_client()
    assert seen[0]._closed
    assert default_client() is not seen[0]
    close_default_client()
    close_default_client()  # closing twice is harmless


def test_tools_share_one_client_and_carry_its_cooldown():
    with ddg_engine(CAPTCHA_PAGE) as (server, client):
        search, fetch = agent_tools(client)
        assert search.client is client and fetch.client is client
        outcomes = [search.run({"query": "rust"}) for _ in range(2)]
        assert searches(server) == 1
    assert all(o.is_error and o.detail_code == "captcha_required" for o in outcomes)
    assert outcomes[0].text.startswith("Error: WebBlocked (captcha_required): ")


def test_tools_without_a_client_use_the_default_one_and_settings_give_a_new_shared_one():
    assert {t.client for t in agent_tools()} == {default_client()}
    built = agent_tools(settings=ws.Settings(backend="stub"))
    assert len({t.client for t in built}) == 1 and built[0].client is not default_client()
    with pytest.raises(ws.InvalidInput) as caught:
        agent_tools(style="html")
    assert caught.value.detail_code == "bad_style"


def test_the_async_call_leaves_the_event_loop_free():
    """The engine holds its answer until a coroutine on the same loop releases it: a
    blocking call would hold the loop, the release would never come, and the search
    would fail on its deadline instead of finding results."""
    arrived, released = threading.Event(), threading.Event()

    def held(conn, request, server):
        arrived.set()
        released.wait(10)
        respond(200, RESULTS_PAGE)(conn, request, server)

    async def scenario(search):
        task = asyncio.ensure_future(search.arun({"query": "rust programming language"}))
        assert await asyncio.to_thread(arrived.wait, 10)
        released.set()
        return await task

    with FaultServer({"/html/": held}) as server:
        settings = ws.Settings(backend="ddg_html", endpoints={"ddg_html": server.url("/html/")}, timeout_ms=5000)
        with ws.SearchClient(settings=settings, min_interval_s=0, retries=0) as client:
            outcome = asyncio.run(scenario(agent_tools(client)[0]))
    assert not outcome.is_error
    assert outcome.result["items"][0]["title"] == FIRST_TITLE


def test_an_agent_that_gives_up_on_a_call_does_not_wait_for_it_at_its_end(monkeypatch):
    """``arun`` ran the call in ``asyncio.to_thread``'s executor, whose threads ``asyncio.run``
    waits for before it returns: an agent that cancelled a call (its own timeout, a cancelled run)
    waited at its end for the call's request, up to its deadline (15.0 s measured against a page
    that never answered). The call here holds until the test releases it, after asyncio.run."""
    started, released, finished = threading.Event(), threading.Event(), threading.Event()

    def held(name, arguments, client=None, images=False):
        started.set()
        released.wait(30)
        finished.set()
        return {"error": {"type": "Timeout", "message": "held", "retryable": True}}

    monkeypatch.setattr("websearch_sync.integrations.agent_tool.call_tool", held)

    async def scenario(search):
        task = asyncio.ensure_future(search.arun({"query": "rust"}))
        while not started.is_set():
            await asyncio.sleep(0.01)
        task.cancel()  # the agent gives up on the call
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        with ws.SearchClient("stub") as client:
            asyncio.run(scenario(agent_tools(client)[0]))
        assert not finished.is_set(), "asyncio.run waited for the call it had given up on"
    finally:
        released.set()


@pytest.mark.parametrize(
    "integration, framework, extra",
    [
        ("langchain", "langchain_core", "langchain"),
        ("llama_index", "llama_index", "llama-index"),
        ("smolagents", "smolagents", "smolagents"),
        ("pydantic_ai", "pydantic_ai", "pydantic-ai"),
        ("openai_agents", "agents", "openai-agents"),
    ],
)
def test_an_integration_without_its_framework_names_the_extra(monkeypatch, integration, framework, extra):
    monkeypatch.setattr(sys, "version_info", (3, 11, 7, "final", 0))  # a Python every framework has releases for
    module = "websearch_sync.integrations." + integration
    message = _import_without_framework(monkeypatch, module, framework)
    assert "the `%s` extra: pip install '" % extra in message  # its packages, from the metadata
    assert "(from a checkout: pip install -e '.[%s]')" % extra in message
    assert module in message


@pytest.mark.parametrize(
    "integration, framework, package, extra",
    [
        ("langchain", "langchain_core", "langchain-core", "langchain"),
        ("pydantic_ai", "pydantic_ai", "pydantic-ai-slim", "pydantic-ai"),
    ],
)
def test_on_a_python_the_framework_has_no_release_for_the_message_names_the_python_needed(
    monkeypatch, integration, framework, package, extra
):
    """On 3.10 the message recommended ``pip install 'langchain-core>=1.8'``, which no release
    installs there (langchain-core 1.8 and pydantic-ai-slim 2.68 need 3.11)."""
    monkeypatch.setattr(sys, "version_info", (3, 10, 13, "final", 0))
    module = "websearch_sync.integrations." + integration
    assert _import_without_framework(monkeypatch, module, framework) == (
        "%s needs %s, which needs Python 3.11 or newer: this is Python 3.10, where the `%s` extra does not install"
        % (module, package, extra)
    )


def _import_without_framework(monkeypatch, module, framework):
    """The message of the ``ImportError`` that importing ``module`` raises while ``framework`` is absent."""
    monkeypatch.delitem(sys.modules, module, raising=False)
    for name in [n for n in sys.modules if n == framework or n.startswith(framework + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, framework, None)  # what an absent package looks like to import
    with pytest.raises(ImportError) as caught:
        importlib.import_module(module)
    return str(caught.value)


def test_an_unconfigured_search_backend_leaves_only_fetch_and_markdown_is_passed_on():
    assert [t.name for t in agent_tools(settings=ws.Settings(backend="brave"))] == ["web_fetch"]
    with ddg_engine() as (server, client):
        outcome = agent_tools(client, style="markdown")[0].run({"query": "rust programming language", "max_results": 1})
    assert outcome.text.startswith("1. [%s](" % FIRST_TITLE)
