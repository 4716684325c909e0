"""The MCP server's stdio transport: every line the client sends gets an answer.

The SDK's own stdio reader parses each line with pydantic's JSON parser, which refuses
a lone surrogate escape (``"\\ud800"``) and nesting past about 128 levels; such a line,
like one that is not JSON at all, is logged and dropped, and the client waits for an
answer that never comes. This reader parses with Python's ``json`` instead, hands every
valid message to the SDK's server, and answers the rest itself with a JSON-RPC error:

- ``-32700`` (parse error, ``id: null``) for a line that is not JSON or is nested past
  what the parser reads;
- ``-32600`` (invalid request, ``id: null``) for a line over :data:`MAX_LINE_CHARS`, skipped unread;
- ``-32600`` (invalid request) for JSON that is not a JSON-RPC message, and for one whose
  ``id`` is not a string or an integer (a float, bool, null, array or object: the SDK would
  take it for a notification and never answer), with ``id: null``;
- ``-32602`` (invalid params) for a request whose text holds a lone surrogate, which is
  not Unicode text (a notification gets no answer, as JSON-RPC says), but in a ``tools/call``'s
  ``arguments``: the model wrote those, and the tool refuses them with a result it reads;
- for a JSON-RPC batch (an array) under any version but 2025-03-26 (no SDK sends them), one
  array refusing each request in it with ``-32600`` under its id (JSON-RPC's answer to a batch),
  where one error without an id had left every request of it waiting. Under 2025-03-26, the one
  version that has them, a batch is served (:func:`_serve_batch`, :mod:`.batches`).

A ``tools/call`` whose ``arguments`` is not a JSON object (a model's arguments passed on as
written: a string, an array) is answered here with a tool result (``isError``, the line every
wrong argument gets), where the SDK would refuse the request with ``-32602``: the model reads
a tool result, never a protocol error (``resultType`` in it for a 2026-07-28 request). One without ``params.name`` as a string (no ``params``, no
``name``, a number) stays ``-32602``, as the MCP specification (2025-11-25) has a request that
fails ``CallToolRequest``'s schema answered: the client built it, not the model, which could not
correct it from a tool result. The SDK's words were "Invalid request parameters" with empty ``data``;
this reader's say what is missing. Both checks apply to JSON-RPC 2.0 requests only (``"jsonrpc": "2.0"``,
an id, no ``result`` or ``error``): any other message stays ``-32600``, or the SDK's to read, and so does
a request naming a protocol version the SDK does not speak (its ``-32022`` says which it does).

A line ends at LF only (a bare CR stays in its line), and answers end in LF on Windows too, as
the stdio transport delimits its messages: universal newlines split a line at a bare CR.

The end of input does not end the requests read before it: the SDK's connection sees it only
once each of them is answered (:mod:`.pending`), so a client that writes its requests and closes
stdin at once reads every answer. A client that goes away (its end of stdout closed) ends the
server at once: answers nobody reads go to the null device. Lines are read and
written in daemon threads (:class:`_Wire`), so Ctrl-C ends the server without waiting for a line
from the client, or for a client that has stopped reading.

While it serves, ``sys.stdout`` and fd 1 are stderr (stdout is claimed: :mod:`websearch_sync.engine.stdout_claim`,
by the ``mcp`` command from its start) and fd 0 reads from the null device, so stray output of the
library or of a backend plugin, in any thread, cannot corrupt the protocol; all are restored on exit.
"""

import contextlib
import io
import json
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from functools import partial
from typing import Any, BinaryIO, Optional, TypeVar, Union

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.dispatcher import coerce_request_id
from mcp.shared.message import ServerMessageMetadata, SessionMessage
from mcp_types import jsonrpc_message_adapter
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..engine.stdout_claim import claim_stdout
from ..net import workers
from ..tool import format_results
from ..validate import describe_sent, json_int, not_an_object
from .batches import Batches
from .params import params_problem
from .pending import Pending, wait_hangup

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

T = TypeVar("T")

logger = logging.getLogger("websearch_sync")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602

#: Where a 2026-07-28 request names its protocol version (``params._meta``).
_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"

#: An answer of our own: one message, or a batch's array of them.
Answer = Union[dict[str, Any], list[dict[str, Any]]]
#: What the writer sends: a message from the SDK's server, or an answer of our own.
Outgoing = Union[SessionMessage, Answer]

NOT_A_MESSAGE = "Invalid Request: not a JSON-RPC 2.0 message"

#: The longest line read (characters, the newline aside): a request to this server needs a few
#: thousand (a query is at most 2,000); reading and parsing a line took about four times its size
#: in memory, so a longer one is skipped unread, a piece of :data:`_SKIP_CHARS` at a time.
MAX_LINE_CHARS = 4 * 1024 * 1024
_SKIP_CHARS = 64 * 1024
LINE_TOO_LONG = (
    "Invalid Request: the line is over %d characters, more than any request to this server needs" % MAX_LINE_CHARS
)
ID_TAKEN = "Invalid Request: the id is taken by another request"
BATCH_REFUSED = (
    "Invalid Request: JSON-RPC batches are served only under protocol version 2025-03-26, the one that has "
    "them; send each message on its own line"
)


def _validate(value: Any) -> Any:
    """``value`` as the SDK's JSON-RPC message model (``ValueError`` when it is not one)."""
    return jsonrpc_message_adapter.validate_python(value, by_name=False)


def _error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def _envelope_version(params: Any) -> Optional[Any]:
    """The protocol version a 2026-07-28-style request names in its ``_meta`` envelope (None: none)."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta.get(_VERSION_KEY) if isinstance(meta, dict) else None


def _is_tools_call(value: Any, request_id: Any, method: str = "tools/call") -> bool:
    """Whether ``value`` is a JSON-RPC 2.0 ``tools/call`` request (or one of ``method``: an id, no
    ``result`` or ``error``) that the server would serve: only such a request's params are checked
    here. A message that is no JSON-RPC 2.0 request (no ``jsonrpc``, ``"1.0"``, a response's fields)
    stays the SDK's ``-32600``, and a request naming a version the SDK does not speak its ``-32022``."""
    version = _envelope_version(value.get("params")) if isinstance(value, dict) else None
    return (
        request_id is not None
        and isinstance(value, dict)
        and value.get("jsonrpc") == "2.0"
        and value.get("method") == method
        and "result" not in value
        and "error" not in value
        and (version is None or version in MODERN_PROTOCOL_VERSIONS)
    )


def _arguments_refused(value: Any, request_id: Any) -> Optional[dict[str, Any]]:
    """The answer to a ``tools/call`` request whose ``arguments`` is neither an object nor null: a
    tool result with ``isError`` and the line of :func:`~websearch_sync.tool.format_results`
    (None for any other message)."""
    params = value.get("params") if _is_tools_call(value, request_id) else None
    arguments = params.get("arguments") if isinstance(params, dict) else None
    if arguments is None or isinstance(arguments, dict):
        return None
    text = format_results({"error": not_an_object(arguments).to_dict()})
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": True}
    if _envelope_version(params) is not None:  # 2026-07-28 requires it of every result
        result["resultType"] = "complete"
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def _unnamed_call(value: Any, request_id: Any) -> Optional[dict[str, Any]]:
    """The ``-32602`` answer to a ``tools/call`` request without ``params.name`` as a string, saying
    so (None for any other message, and for a notification: JSON-RPC answers none)."""
    if not _is_tools_call(value, request_id):
        return None
    params = value.get("params")
    if not isinstance(params, dict):
        got = "no params" if params is None else "params as %s" % describe_sent(params)
    elif not isinstance(params.get("name"), str):
        got = "no name" if params.get("name") is None else "name as %s" % describe_sent(params["name"])
    else:
        return None
    return _error(
        request_id,
        INVALID_PARAMS,
        "Invalid params: a tools/call needs params.name, the name of a tool tools/list gives, as a string; got %s"
        % got,
    )


def _params_refused(value: Any, request_id: Any) -> Optional[dict[str, Any]]:
    """The ``-32602`` answer to a ``tools/list`` or ``tools/call`` request with a params member of a
    type the SDK refuses with "Invalid request parameters" alone (``"_meta": 5``), naming the member,
    what it must be and what was sent (:func:`~.params.params_problem`); None for any other message."""
    for method in ("tools/list", "tools/call"):
        if _is_tools_call(value, request_id, method):
            problem = params_problem(method, value.get("params"))
            return None if problem is None else _error(request_id, INVALID_PARAMS, problem)
    return None


def _request_id(value: Any) -> Any:
    """The ``id`` of a request, or None when ``value`` has none JSON-RPC allows (a notification)."""
    request_id = value.get("id") if isinstance(value, dict) else None
    return request_id if isinstance(request_id, (str, int)) and not isinstance(request_id, bool) else None


def _holds_lone_surrogate(value: Any) -> bool:
    """Whether any string (or key) in ``value`` holds a lone surrogate; iterative, so any depth is fine."""
    pending: list[Any] = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")  # fails only on a surrogate code point
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _outside_arguments(value: Any, request_id: Any) -> Any:
    """``value`` to look for lone surrogates in: all of it, but a ``tools/call`` request's ``arguments``,
    which the tool refuses itself (``InvalidInput(bad_arguments)`` naming the argument, as
    :func:`~websearch_sync.tool.call_tool` does): a model wrote them (half an emoji), and reads a tool
    result, where a ``-32602`` reached its client alone."""
    params = value.get("params") if _is_tools_call(value, request_id) else None
    if not isinstance(params, dict) or "arguments" not in params:
        return value
    return dict(value, params={key: item for key, item in params.items() if key != "arguments"})


def _batch_refused(batch: list[Any]) -> Optional[list[dict[str, Any]]]:
    """The answer to a JSON-RPC batch (a non-empty array) under a version without batches, shaped
    as JSON-RPC shapes one: an array holding ``-32600`` for each request under its id and for each
    member that is no message with ``id: null``; None when nothing in it is answered
    (notifications, responses). MCP dropped batches after 2025-03-26 and no SDK sends them;
    refusing each request ends the client's wait for it, where one error without an id left all of
    them unanswered."""
    answers = []
    for member in batch:
        request_id = _request_id(member)
        if isinstance(member, dict) and ("result" in member or "error" in member):
            continue  # a response: JSON-RPC answers none
        if request_id is not None:
            answers.append(_error(request_id, INVALID_REQUEST, BATCH_REFUSED))
        elif not (isinstance(member, dict) and "id" not in member and isinstance(member.get("method"), str)):
            answers.append(_error(None, INVALID_REQUEST, NOT_A_MESSAGE))
    return answers or None


def parse_line(line: str, *, serve_batches: bool = False) -> tuple[Optional[Any], Optional[Answer]]:
    """One line from the client: ``(message, None)`` for the SDK, ``(None, answer)`` to send back
    (an array for a batch), or ``(None, None)`` for a blank line, an invalid notification or a batch
    of notifications (JSON-RPC answers none of them). A batch (a non-empty array) is refused, or
    with ``serve_batches`` is ``(members, None)``, the list of its members for :func:`_serve_batch`."""
    if not line.strip():
        return None, None
    try:
        value = json.loads(line, parse_int=json_int)
    except RecursionError:
        return None, _error(None, PARSE_ERROR, "Parse error: the message is nested too deeply")
    except ValueError:
        return None, _error(None, PARSE_ERROR, "Parse error: the line is not JSON")
    if isinstance(value, list) and value:
        return (value, None) if serve_batches else (None, _batch_refused(value))
    return parse_message(value)


def parse_message(value: Any) -> tuple[Optional[Any], Optional[dict[str, Any]]]:
    """One message (a line's JSON, or a member of a batch): ``(message, None)`` for the SDK,
    ``(None, answer)`` to send back, or ``(None, None)`` for an invalid notification."""
    request_id = _request_id(value)
    if isinstance(value, dict) and "id" in value and request_id is None:
        # a float, bool, null, array or object id: the SDK would take the message for a notification
        # and never answer; JSON-RPC says invalid request, with a null id (the id cannot be echoed)
        return None, _error(None, INVALID_REQUEST, "Invalid Request: the id must be a string or an integer")
    if _holds_lone_surrogate(_outside_arguments(value, request_id)):
        if request_id is None:
            return None, None
        return None, _error(
            request_id, INVALID_PARAMS, "Invalid params: text holds a lone surrogate escape, which is not Unicode"
        )
    refused = _unnamed_call(value, request_id) or _arguments_refused(value, request_id)
    refused = refused or _params_refused(value, request_id)
    if refused is not None:
        return None, refused
    try:
        return _validate(value), None
    except (ValueError, RecursionError):  # pydantic's ValidationError is a ValueError
        return None, _error(request_id, INVALID_REQUEST, NOT_A_MESSAGE)


class _Wire:
    """One of the protocol's files as UTF-8 text, each line read or written in a daemon thread
    (:func:`~websearch_sync.net.workers.run_awaited`), so that a cancelled server (Ctrl-C) waits
    neither for a line its client may never send nor for a client that has stopped reading: anyio's
    file wrapper uses worker threads a cancellation waits for, and Ctrl-C left the server waiting
    for its client's next line, or for ever for a client that read none of its answers.

    A read or write abandoned so keeps the file: :meth:`close` then leaves it alone (closing a
    file another thread uses waits for that thread), and the thread ends with the process (with
    :func:`~websearch_sync.mcp.serve_stdio` called from Python, a read at the next line of stdin,
    which it takes).

    Args:
        file: the file (a private copy of stdin or stdout).
        owned: :meth:`close` closes ``file`` (else it only lets go of it: ``sys.stdin.buffer``).
    """

    def __init__(self, file: BinaryIO, *, owned: bool) -> None:
        self.file = file
        self._owned = owned
        self._text = io.TextIOWrapper(file, encoding="utf-8", errors="replace", newline="\n")
        self._busy = False  # a thread is using the file (or will)

    async def readline(self) -> Optional[str]:
        """The next line ("" at the end of input), None for one over :data:`MAX_LINE_CHARS`."""
        return await self._in_thread(self._next_line, "websearch-mcp-stdin")

    async def write_line(self, text: str) -> None:
        """Write ``text`` and a newline, flushed (``BrokenPipeError`` when the reader has gone)."""
        await self._in_thread(partial(self._write_line, text), "websearch-mcp-stdout")

    async def _in_thread(self, work: Callable[[], T], name: str) -> T:
        self._busy = True

        def run() -> T:
            try:
                return work()
            finally:
                self._busy = False  # the work has ended, whether awaited or abandoned

        return await workers.run_awaited(run, name)

    def _next_line(self) -> Optional[str]:
        """:meth:`readline` in the thread: a line over the cap is skipped to its end, a piece at a time."""
        line = self._text.readline(MAX_LINE_CHARS + 1)
        if len(line) <= MAX_LINE_CHARS or line.endswith("\n"):
            return line
        while (rest := self._text.readline(_SKIP_CHARS)) and not rest.endswith("\n"):
            pass
        return None

    def _write_line(self, text: str) -> None:
        self._text.write(text + "\n")
        self._text.flush()

    def close(self) -> None:
        """Let go of the file (closed when ``owned``), unless an abandoned read or write still uses it.
        The text layer is detached rather than closed (a wrapper left to the garbage collector
        closed the file there, with a ``ResourceWarning`` on stderr)."""
        if self._busy:
            return
        with contextlib.suppress(OSError, ValueError):  # a failed flush of a client gone: nothing to save
            self._text.detach()
        if self._owned:
            self.file.close()


@contextmanager
def _claimed_stdio() -> Iterator[tuple[_Wire, _Wire]]:
    """The protocol's input and output (:class:`_Wire`: private copies of stdin and stdout), stdout
    claimed (:func:`~websearch_sync.engine.stdout_claim.claim_stdout`: ``sys.stdout`` and descriptor
    1 are stderr, the null device without one, for a plugin's ``print`` or direct write in any
    thread); fd 0 reads the null device until the block ends (streams without a file descriptor
    are used as they are)."""
    with contextlib.ExitStack() as stack:
        stand_in = sys.stderr if sys.stderr is not None else stack.enter_context(open(os.devnull, "w"))
        stdout = stack.enter_context(claim_stdout(stand_in))
        try:
            fds = (sys.stdin.fileno(), stdout.fileno())
        except (AttributeError, OSError, ValueError):
            wires = (_Wire(sys.stdin.buffer, owned=False), _Wire(stdout.buffer, owned=False))
        else:
            stdout.flush()
            saved_in = os.dup(fds[0])
            stack.callback(os.close, saved_in)
            stack.callback(os.dup2, saved_in, fds[0])
            null = os.open(os.devnull, os.O_RDONLY)
            stack.callback(os.close, null)
            os.dup2(null, fds[0])
            wires = (
                _Wire(os.fdopen(os.dup(saved_in), "rb"), owned=True),
                _Wire(os.fdopen(os.dup(fds[1]), "wb"), owned=True),
            )
        try:
            yield wires
        finally:
            for wire in reversed(wires):
                wire.close()


async def _read(
    wire_in: _Wire,
    messages: MemoryObjectSendStream[Any],
    answers: MemoryObjectSendStream[Outgoing],
    batches: Batches,
    settled: MemoryObjectSendStream[Outgoing],
    pending: Pending,
) -> None:
    """Read the client's lines until the end of input: each message to the SDK (``messages``), each
    answer of the transport's own to the writer (``answers``). ``settled`` is the SDK's write stream,
    where a batch's answer goes when its last request ends unanswered (:func:`_pass_on`): it stays open
    until the server has settled every request, after this reader has closed its own. A stream closed
    under the reader (the server stopping: Ctrl-C) ends it quietly."""
    async with messages, answers:  # end of input: the server stops, and the writer once it has said all
        try:
            while (line := await wire_in.readline()) != "":
                if line is None:
                    await answers.send(_error(None, INVALID_REQUEST, LINE_TOO_LONG))
                    continue
                message, answer = parse_line(line, serve_batches=batches.served())
                if isinstance(message, list):
                    await _serve_batch(message, batches, pending, messages, answers, settled)
                elif message is not None and _request_of(message) and batches.in_use(message.id):
                    await answers.send(_error(message.id, INVALID_REQUEST, ID_TAKEN))
                elif message is not None:
                    await _pass_on(message, batches, pending, messages, settled)
                elif answer is not None:
                    await answers.send(answer)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            return  # the server has stopped reading: nothing left to serve


def _request_of(message: Any) -> bool:
    """Whether ``message`` (the SDK's model of one) is a request: a method and an id."""
    return getattr(message, "method", None) is not None and getattr(message, "id", None) is not None


async def _pass_on(
    message: Any,
    batches: Batches,
    pending: Pending,
    messages: MemoryObjectSendStream[Any],
    settled: MemoryObjectSendStream[Outgoing],
) -> None:
    """Hand ``message`` to the SDK, noted in ``batches`` first (an ``initialize``: its answer says the
    version), a request in ``pending`` too: it is owed an answer. Each request carries the SDK's
    ``on_request_unanswered`` hook, which its dispatcher calls exactly when it writes no answer to it
    (the client cancelled it): it is settled then, and a request of a batch leaves its batch to go
    without it, on ``settled``. Matching the client's cancellations here instead lost the batch's
    answer to an id the SDK reads alike (``"30"`` for ``30``), and a cancellation that came after the
    answer sent that answer alone, outside its batch's array."""
    request_id = getattr(message, "id", None)
    batches.passed_on(getattr(message, "method", None), request_id)
    if not _request_of(message):
        await messages.send(SessionMessage(message))
        return
    in_batch = batches.in_use(request_id)
    pending.passed_on(request_id)

    async def unanswered() -> None:
        pending.settled(request_id)
        complete = batches.unanswered(request_id) if in_batch else None
        if complete is not None:
            await settled.send(complete)

    await messages.send(SessionMessage(message, metadata=ServerMessageMetadata(on_request_unanswered=unanswered)))


def _batch_request_id(member: Any) -> Any:
    """The id of a request of a batch (None for a notification, and for a response: no one answers it)."""
    is_response = isinstance(member, dict) and ("result" in member or "error" in member)
    return None if is_response else _request_id(member)


def _refused_in_batch(member: Any, request_id: Any, batches: Batches, taken: set[Any]) -> Optional[dict[str, Any]]:
    """The ``-32600`` answer to a request a batch may not hold (None for any other member): one whose
    id a request of a batch under way or of this one (``taken``, as the SDK compares ids) has, or an
    ``initialize``."""
    if request_id is None:
        return None
    if batches.in_use(request_id) or coerce_request_id(request_id) in taken:
        return _error(request_id, INVALID_REQUEST, ID_TAKEN)
    if isinstance(member, dict) and member.get("method") == "initialize":
        return _error(request_id, INVALID_REQUEST, "Invalid Request: initialize must not be in a batch")
    return None


async def _serve_batch(
    members: list[Any],
    batches: Batches,
    pending: Pending,
    messages: MemoryObjectSendStream[Any],
    answers: MemoryObjectSendStream[Outgoing],
    settled: MemoryObjectSendStream[Outgoing],
) -> None:
    """Serve a batch (2025-03-26): each member as a message of its own line would be, the answers
    gathered into one array (:class:`~.batches.Batches`). ``initialize`` is refused in a batch
    (2025-03-26: it must not be in one), and so is a request whose id another request of a batch
    under way has (its answer would be taken for that one's)."""
    passed: list[Any] = []
    waiting: list[Any] = []
    known: list[dict[str, Any]] = []
    taken: set[Any] = set()  # the ids of this batch's requests, as the SDK compares them (7 is "7")
    for member in members:
        request_id = _batch_request_id(member)
        refused = _refused_in_batch(member, request_id, batches, taken)
        if refused is not None:
            known.append(refused)
            continue
        message, answer = parse_message(member)
        if message is not None:
            passed.append(message)
            if request_id is not None and getattr(message, "method", None) is not None:
                waiting.append(request_id)
                taken.add(coerce_request_id(request_id))
        elif answer is not None:
            known.append(answer)
    complete = batches.start(waiting, known)
    if complete is not None:
        await answers.send(complete)
    for message in passed:
        await _pass_on(message, batches, pending, messages, settled)


async def _write(
    wire_out: _Wire, outgoing: MemoryObjectReceiveStream[Outgoing], batches: Batches, pending: Pending
) -> None:
    async with outgoing:
        async for item in outgoing:
            if isinstance(item, (dict, list)):
                text = json.dumps(item, separators=(",", ":"))
            else:
                request_id = _answered_id(item.message)
                if request_id is not None:
                    pending.settled(request_id)
                text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                if batches.watches(request_id):  # an initialize's answer, or a batch's
                    held, complete = batches.held(json.loads(text))
                    if held and complete is None:
                        continue  # an answer of a batch that still waits for others
                    if complete is not None:
                        text = json.dumps(complete, separators=(",", ":"))
            try:
                await wire_out.write_line(text)
            except BrokenPipeError:  # the client has gone (mid-call): no one reads the answers any more
                _discard(wire_out.file)
                pending.client_gone()


def _answered_id(message: Any) -> Any:
    """The id of the request ``message`` (the SDK's) answers: a response's or an error's (None for a
    notification or a request of the server's, and for an error without an id)."""
    return None if getattr(message, "method", None) is not None else getattr(message, "id", None)


def _discard(file: BinaryIO) -> None:
    """Point ``file``'s descriptor at the null device: what is buffered, and every later answer,
    goes nowhere, and the server ends as on a closed stdin instead of on a broken pipe."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, file.fileno())
    finally:
        os.close(null)


@asynccontextmanager
async def stdio_streams() -> AsyncIterator[tuple[MemoryObjectReceiveStream[Any], MemoryObjectSendStream[Any]]]:
    """``(read_stream, write_stream)`` for the SDK's ``Server.run`` over this process's stdin/stdout."""
    with _claimed_stdio() as (wire_in, wire_out), _hangup_watch(wire_out) as watch:
        incoming_send, incoming = anyio.create_memory_object_stream[Any](0)
        outgoing_send, outgoing = anyio.create_memory_object_stream[Outgoing](16)
        batches, pending = Batches(), Pending()
        async with anyio.create_task_group() as watching:
            if watch is not None:
                watching.start_soon(_watch_client, watch, pending)
            async with anyio.create_task_group() as group:
                group.start_soon(_serve_input, wire_in, incoming_send, outgoing_send, batches, pending)
                group.start_soon(_write, wire_out, outgoing, batches, pending)
                async with outgoing_send:
                    yield incoming, outgoing_send
                pending.scope.cancel()  # the SDK has ended: a line read now would reach no one
                # the writer ends after the last answer, once the reader has seen the end of input
            watching.cancel_scope.cancel()  # the watch's thread ends as the block does (_hangup_watch)


async def _serve_input(
    wire_in: _Wire,
    messages: MemoryObjectSendStream[Any],
    outgoing: MemoryObjectSendStream[Outgoing],
    batches: Batches,
    pending: Pending,
) -> None:
    """The reader (:func:`_read`), then, at the end of input, the wait for every request it passed on
    to be settled (:class:`~.pending.Pending`) before the SDK sees the end (which cancels the requests
    still under way): a clone of its read stream's sending end stays open until then. A client gone
    (stdout closed) cancels both: the server ends at once."""
    held = messages.clone()
    with held, pending.scope:
        await _read(wire_in, messages, outgoing.clone(), batches, outgoing, pending)
        if pending.owed():
            logger.info("MCP client closed stdin: answering the %d request(s) read before it", pending.owed())
        await pending.answered()


async def _watch_client(watch: tuple[int, int], pending: Pending) -> None:
    """Tell ``pending`` when stdout's reader has gone (:func:`~.pending.wait_hangup` in a daemon thread)."""
    if await workers.run_awaited(partial(wait_hangup, *watch), "websearch-mcp-watch"):
        pending.client_gone()


@contextmanager
def _hangup_watch(wire_out: _Wire) -> Iterator[Optional[tuple[int, int]]]:
    """``(stdout's descriptor, the read end of a pipe)`` for :func:`~.pending.wait_hangup`, whose wait
    ends when the block does (the pipe's write end closed); None where nothing can be watched (a stream
    without a descriptor)."""
    try:
        fd = wire_out.file.fileno()
    except (AttributeError, OSError, ValueError):
        yield None
        return
    stop_read, stop_write = os.pipe()
    try:
        yield fd, stop_read  # wait_hangup closes the read end
    finally:
        os.close(stop_write)
