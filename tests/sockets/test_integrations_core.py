"""The shared default client (issue 27 point 4) and what every integration shares
(``integrations.agent_tool``): one client per set of tools, async calls that leave the
event loop free, and a clear ImportError naming the extra when a framework is missing."""

import asyncio
import contextvars
import importlib
import os
import sys
import threading
import warnings

import pytest
from agent_engine import CAPTCHA_PAGE, FIRST_TITLE, RESULTS_PAGE, ddg_engine, searches
from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.client.default_client import close_default_client, default_client
from websearch_sync.integrations import agent_tool
from websearch_sync.integrations.agent_tool import agent_tools
from websearch_sync.net import workers
from websearch_sync.testing import fake_results


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

    def held(session, name, arguments, delivered=None):
        started.set()
        released.wait(30)
        finished.set()
        return {"error": {"type": "Timeout", "message": "held", "retryable": True}}

    monkeypatch.setattr(tool.ToolSession, "call_tool", held)  # what AgentTool.run calls

    async def scenario(search):
        task = asyncio.ensure_future(search.arun({"query": "rust"}))
        assert await asyncio.to_thread(started.wait, 30)
        task.cancel()  # the agent gives up on the call
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        with ws.SearchClient("stub") as client:
            asyncio.run(scenario(agent_tools(client)[0]))
        assert not finished.is_set(), "asyncio.run waited for the call it had given up on"
    finally:
        released.set()


class _Seen:
    """What the held calls and the slots they wait for saw, each by its call's query (a context
    variable the call's thread inherits); ``until`` waits, bounded, for a state of it."""

    def __init__(self):
        self.started, self.refused, self.gates, self.waiting_in = [], [], {}, set()
        self.changed = threading.Condition()

    def note(self, entries, query):
        with self.changed:
            entries.append(query)
            self.changed.notify_all()

    async def until(self, predicate):
        def wait():
            with self.changed:
                return self.changed.wait_for(predicate, 30)

        assert await asyncio.to_thread(wait)


_query = contextvars.ContextVar("query")


def _held_calls(monkeypatch, slots_at_once):
    """``AgentTool.arun`` over held calls (each waits for its gate) and ``slots_at_once`` recording slots."""
    seen = _Seen()

    class Slots(threading.BoundedSemaphore):
        def acquire(self, blocking=True, timeout=None):
            got = super().acquire(blocking, timeout)
            if not got:
                seen.waiting_in.add(threading.current_thread().name)
                seen.note(seen.refused, _query.get())
            return got

    def held(session, name, arguments, delivered=None):
        seen.note(seen.started, arguments["query"])
        seen.gates[arguments["query"]].wait(30)
        return {"error": {"type": "Timeout", "message": "held", "retryable": True}}

    monkeypatch.setattr(tool.ToolSession, "call_tool", held)  # what AgentTool.run calls
    monkeypatch.setattr(agent_tool, "_arun_slots", Slots(slots_at_once), raising=False)
    return seen


def _call(search, seen, query):
    """The task of ``search.arun`` for ``query``, its gate closed."""
    seen.gates[query] = threading.Event()
    _query.set(query)
    return asyncio.ensure_future(search.arun({"query": query}))


def test_async_calls_at_once_are_bounded_and_one_given_up_on_keeps_its_place(monkeypatch):
    """``arun`` ran every call at once (40 calls: 40 threads and 40 upstream requests), an agent
    retrying its timed-out calls adding to them; ``asyncio.to_thread`` had capped them at its
    executor's size. Two slots here: a third call waits while the first two hold theirs, the one
    given up on included, and a call given up on while it waits never runs. A call waits for its
    turn on the loop: waiting in a worker thread, 40 calls at once were 41 threads."""
    seen = _held_calls(monkeypatch, 2)

    async def agent(search):
        first, second = _call(search, seen, "first"), _call(search, seen, "second")
        await seen.until(lambda: len(seen.started) == 2)
        first.cancel()  # given up on: its request is still under way
        with pytest.raises(asyncio.CancelledError):
            await first
        third, fourth = _call(search, seen, "third"), _call(search, seen, "fourth")
        await seen.until(lambda: {"third", "fourth"} <= set(seen.refused) or len(seen.started) > 2)
        assert sorted(seen.started) == ["first", "second"]
        assert seen.waiting_in == {threading.current_thread().name}  # the loop's: a waiting call holds no thread
        fourth.cancel()  # given up on while it waits
        with pytest.raises(asyncio.CancelledError):
            await fourth
        seen.gates["first"].set()  # the abandoned call ends: its place goes to the third
        await seen.until(lambda: len(seen.started) > 2)
        seen.gates["second"].set()
        seen.gates["third"].set()
        await asyncio.gather(second, third)
        return await asyncio.to_thread(lambda: [agent_tool._arun_slots.acquire(timeout=30) for _ in range(2)])

    try:
        with ws.SearchClient("stub") as client:
            both_free = asyncio.run(agent(agent_tools(client)[0]))
        assert both_free == [True, True]
        assert sorted(seen.started) == ["first", "second", "third"]  # the fourth never ran
    finally:
        for gate in seen.gates.values():
            gate.set()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_forked_child_has_every_async_call_slot():
    """The calls holding slots at the fork are not in the child to free them: a child whose slots
    were the parent's could run fewer calls, or none."""
    slots = agent_tool._arun_slots
    assert all(slots.acquire(blocking=False) for _ in range(agent_tool.ARUN_AT_ONCE))  # calls under way
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # forking a threaded process
            pid = os.fork()
        if pid == 0:  # the child: exit 0 when a call ran
            try:
                with ws.SearchClient("stub") as client:
                    asyncio.run(asyncio.wait_for(agent_tools(client)[0].arun({"query": "rust"}), 20))
            except BaseException:
                os._exit(1)
            os._exit(0)
        _, status = os.waitpid(pid, 0)  # the child's own wait ends it within 20 s
    finally:
        for _ in range(agent_tool.ARUN_AT_ONCE):
            slots.release()
    assert os.waitstatus_to_exitcode(status) == 0


def test_an_abandoned_call_ending_as_the_loop_closes_logs_nothing(monkeypatch, caplog):
    """``run_awaited`` reported through ``asyncio.wrap_future``, whose callback in the worker thread
    raised ``RuntimeError: Event loop is closed`` when the loop closed between the work's end and
    its report, logged as "exception calling callback". The report here waits for the loop to close."""
    name = "websearch-test-late-report"
    started, finish, reporting, closed, reported = (threading.Event() for _ in range(5))
    original = asyncio.BaseEventLoop.call_soon_threadsafe

    def late_report(self, *args, **kwargs):
        if threading.current_thread().name != name:
            return original(self, *args, **kwargs)
        reporting.set()
        closed.wait(30)
        try:
            return original(self, *args, **kwargs)
        finally:
            reported.set()

    monkeypatch.setattr(asyncio.BaseEventLoop, "call_soon_threadsafe", late_report)

    def work():
        started.set()
        finish.wait(30)
        return "answer"

    async def agent():
        task = asyncio.ensure_future(workers.run_awaited(work, name))
        assert await asyncio.to_thread(started.wait, 30)
        task.cancel()  # the agent gives up on the call
        with pytest.raises(asyncio.CancelledError):
            await task
        finish.set()
        assert await asyncio.to_thread(reporting.wait, 30)  # the report is under way: asyncio.run closes the loop

    try:
        asyncio.run(agent())
    finally:
        closed.set()
        finish.set()
    assert reported.wait(30)
    assert [r.getMessage() for r in caplog.records] == []


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


def test_the_tools_of_an_integration_share_the_mcp_servers_repeat_guard():
    """An agent calling the same search over and over reached the service each time through an
    integration (the MCP server answered a repeat from what the model already had, with a note):
    the tools now share the server's ``ToolSession``, with its defaults (2 lookups in 600 s); a
    repeat of the fetch counts apart from the search's; ``repeat_window_s=0`` turns it off."""
    with ddg_engine() as (server, client):
        search, fetch = agent_tools(client)
        outcomes = [search.run({"query": "rust  Programming"}) for _ in range(2)]
        repeat = search.run({"query": "Rust programming"})  # the same words, normalised
        assert [o.is_error or "note" in o.result for o in outcomes] == [False, False]
        assert repeat.result["note"] == tool.REPEAT_NOTE % ("query", "2 times", " in the last 600 s")
        assert repeat.text.startswith("Note: ") and repeat.result["items"] == outcomes[0].result["items"]
        page = fetch.run({"url": server.url("/article")})
        assert not page.is_error and "note" not in page.result
        (unguarded, _) = agent_tools(client, repeat_window_s=0)
        assert ["note" in unguarded.run({"query": "rust programming"}).result for _ in range(3)] == [False] * 3
        with pytest.raises(ws.InvalidInput) as refused:
            agent_tools(client, max_repeats=0)
    assert refused.value.detail_code == "bad_max_repeats"


def test_a_lookup_the_async_agent_gave_up_on_is_no_repeat_of_the_next(monkeypatch):
    """The model never got the answer of a call its agent cancelled: counted, it made the next
    identical call's answer a "you already have this" repeat (``max_repeats=2``: the second)."""
    started, gate = threading.Event(), threading.Event()

    def held(params):
        started.set()
        gate.wait(30)
        return [{"title": "Rust", "url": "https://rust.example/", "snippet": ""}]

    async def give_up(search):
        task = asyncio.ensure_future(search.arun({"query": "rust"}))
        assert await asyncio.to_thread(started.wait, 30)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    slots = agent_tool._arun_slots
    try:
        with fake_results({"bing_html": held}):
            with ws.SearchClient("bing_html", cache_ttl_s=0) as client:
                (search, _) = agent_tools(client)
                asyncio.run(give_up(search))
                gate.set()
                taken = [slots.acquire(timeout=30) for _ in range(agent_tool.ARUN_AT_ONCE)]  # the abandoned one ended
                for _ in taken:
                    slots.release()
                assert ["note" in search.run({"query": "rust"}).result for _ in range(3)] == [False, False, True]
    finally:
        gate.set()
