"""A loopback DuckDuckGo for the agent-framework tests: recorded result and captcha pages.

``ddg_engine(page)`` serves one recorded DuckDuckGo HTML page on 127.0.0.1 and yields the
server and a :class:`SearchClient` pointed at it (``ddg_html`` only, no pacing, no
retries, loopback pages readable by ``web_fetch``). ``FIRST_TITLE``/``FIRST_URL`` come
from the recorded page's golden, not from the code under test.

``integration(name, framework)`` imports one of our integration modules when a test needs it,
so collecting the suite imports no agent framework (they cost seconds per worker).
"""

import importlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest
from faults import respond
from servers import FaultServer

import websearch_sync as ws

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ddg_html"
RESULTS_PAGE = (FIXTURES / "meka__1.html").read_bytes()
CAPTCHA_PAGE = (FIXTURES / "meka__ddg_anomaly.html").read_bytes()
_GOLDEN = json.loads((FIXTURES / "meka__1.expected.json").read_text(encoding="utf-8"))
FIRST_TITLE = _GOLDEN["items"][0]["title"]
FIRST_URL = _GOLDEN["items"][0]["url"]
ARTICLE = (
    b"<html><head><title>Loopback article</title></head><body><article><h1>Loopback article</h1>"
    + b"<p>"
    + b"A paragraph the reader keeps as the page's main text. " * 8
    + b"</p></article></body></html>"
)


def engine_settings(url: str) -> ws.Settings:
    """Settings for ``ddg_html`` at ``url`` that may read loopback pages."""
    return ws.Settings(backend="ddg_html", endpoints={"ddg_html": url}, allow_private=True)


@contextmanager
def ddg_engine(page: bytes = RESULTS_PAGE) -> Iterator[tuple[FaultServer, ws.SearchClient]]:
    """A loopback engine answering every search with ``page`` (and ``/article``), and a client for it."""
    routes = {
        "/html/": respond(200, page, content_type="text/html; charset=UTF-8"),
        "/article": respond(200, ARTICLE, content_type="text/html; charset=utf-8"),
    }
    with FaultServer(routes) as server:
        settings = engine_settings(server.url("/html/"))
        with ws.SearchClient(settings=settings, min_interval_s=0, retries=0) as client:
            yield server, client


def searches(server: FaultServer) -> int:
    """How many search requests reached the engine."""
    return sum(1 for request in server.requests if request.route == "/html/")


def integration(name: str, framework: str) -> ModuleType:
    """``websearch_sync.integrations.<name>``; skips the calling test when ``framework`` is not installed."""
    pytest.importorskip(framework)
    return importlib.import_module("websearch_sync.integrations." + name)


def scripted_pydantic_model(calls, *, also_seen=()):
    """A pydantic-ai ``FunctionModel`` asking for ``calls`` ((name, arguments) pairs) one per turn,
    then answering "done"; and ``seen``, which collects the tool-result parts each turn showed the
    model (``ToolReturnPart``, and the part classes of ``also_seen``: ``RetryPromptPart``)."""
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    kinds = (ToolReturnPart, *also_seen)
    seen = []

    def respond(messages, info: AgentInfo):
        seen.extend(part for part in messages[-1].parts if isinstance(part, kinds))
        turn = sum(1 for message in messages if isinstance(message, ModelResponse))
        if turn < len(calls):
            name, arguments = calls[turn]
            return ModelResponse(parts=[ToolCallPart(name, arguments, tool_call_id="call_%d" % turn)])
        return ModelResponse(parts=[TextPart("done")])

    return FunctionModel(respond), seen
