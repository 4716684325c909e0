"""The record the MCP transport keeps of JSON-RPC batches (websearch_sync.mcp.batches): served only
once the handshake's answer says 2025-03-26, and a batch's answers written together once the last
request is answered or settled unanswered (a cancelled request gets no answer: its batch would wait
for ever); and the transport's reader that fills it (websearch_sync.mcp.transport), driven in process.
Both import the MCP SDK: in the tests, not at collection."""

import io
import json

import anyio
import pytest


@pytest.fixture(scope="module")
def Batches():
    from websearch_sync.mcp.batches import Batches

    return Batches


def answer(request_id, result=None):
    return {"jsonrpc": "2.0", "id": request_id, "result": result or {}}


def negotiated(Batches, version):
    batches = Batches()
    batches.passed_on("initialize", 1)
    assert batches.watches(1)
    assert batches.held(answer(1, {"protocolVersion": version, "capabilities": {}})) == (False, None)
    return batches


def test_batches_are_served_only_under_the_version_that_has_them(Batches):
    assert not Batches().served()  # no handshake yet
    assert negotiated(Batches, "2025-03-26").served()
    assert not negotiated(Batches, "2025-06-18").served()


def test_a_batch_is_answered_once_its_last_request_is(Batches):
    batches = negotiated(Batches, "2025-03-26")
    refused = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "x"}}
    assert batches.start([2, "b"], [refused]) is None
    assert batches.in_use(2) and batches.in_use("b")
    assert batches.watches(2) and not batches.watches(3) and not batches.watches(None)
    assert batches.held(answer("b")) == (True, None)
    assert batches.held({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}}) == (False, None)
    assert batches.held(answer(2)) == (True, [refused, answer("b"), answer(2)])
    assert not batches.in_use(2)
    assert batches.held(answer(2)) == (False, None)  # a request of its own line, reusing the id later


def test_a_request_settled_unanswered_lets_its_batch_go_without_it(Batches):
    """The SDK says when it ends a request without an answer (the client cancelled it); the id is
    the SDK's: ``"3"`` is ``3`` (before, a cancel naming it so left the batch waiting for ever)."""
    batches = negotiated(Batches, "2025-03-26")
    assert batches.start([3, 4], []) is None
    assert batches.in_use("3") and batches.watches("4")
    assert batches.held(answer(4)) == (True, None)
    assert batches.unanswered("3") == [answer(4)]
    assert batches.unanswered(3) is None  # unknown now: ignored


def test_a_refused_initialize_frees_its_id_and_leaves_batches_as_they_were(Batches):
    """Before, a refused ``initialize`` kept its id watched: a later answer to another request
    with that id, holding a ``protocolVersion`` or not, set the negotiated version (batches off)."""
    batches = negotiated(Batches, "2025-03-26")
    batches.passed_on("initialize", "again")
    refused = {"jsonrpc": "2.0", "id": "again", "error": {"code": -32602, "message": "x"}}
    assert batches.held(refused) == (False, None)
    assert not batches.watches("again")
    batches.passed_on("initialize", 9)
    assert batches.held(answer(9, {"capabilities": {}})) == (False, None)  # no protocolVersion: not a version
    assert batches.served()


def test_a_batch_with_nothing_to_wait_for_is_answered_at_once_or_not_at_all(Batches):
    batches = negotiated(Batches, "2025-03-26")
    refused = {"jsonrpc": "2.0", "id": 5, "error": {"code": -32600, "message": "x"}}
    assert batches.start([], [refused]) == [refused]
    assert batches.start([], []) is None  # notifications only: JSON-RPC answers nothing


class LineWire:
    """The reader's side of the transport's stdin (:class:`~websearch_sync.mcp.transport._Wire`'s
    ``readline``), serving ``lines`` then the end of input."""

    def __init__(self, *lines):
        self.lines = [line + "\n" for line in lines]

    async def readline(self):
        return self.lines.pop(0) if self.lines else ""


def read_all(batches, *lines):
    """What the transport's reader makes of ``lines``: the SDK's messages, its own answers, and the
    stream (still open, as the SDK's is) where a batch settled by the SDK goes."""
    from websearch_sync.mcp.pending import Pending
    from websearch_sync.mcp.transport import _read

    async def run():
        messages_send, messages = anyio.create_memory_object_stream(100)
        answers_send, answers = anyio.create_memory_object_stream(100)
        settled_send, settled = anyio.create_memory_object_stream(100)
        await _read(LineWire(*lines), messages_send, answers_send, batches, settled_send, Pending())
        return [m async for m in messages], [a async for a in answers], settled

    return anyio.run(run)


def line(request_id=None, method="ping", **fields):
    message = dict({"jsonrpc": "2.0", "method": method}, **fields)
    if request_id is not None:
        message["id"] = request_id
    return json.dumps(message)


def test_a_cancel_of_a_batch_request_is_left_to_the_sdk_which_says_when_it_ends_unanswered(Batches):
    """The transport guesses nothing from a cancellation: the SDK calls the hook a batch request
    carries exactly when it writes no answer. Before, the reader matched the cancel's id itself:
    ``"30"`` for ``30`` lost the batch, and a cancel after the answer sent that answer alone."""
    batches = negotiated(Batches, "2025-03-26")
    cancel = line(method="notifications/cancelled", params={"requestId": "30"})
    messages, answers, settled = read_all(batches, json.dumps([json.loads(line(30)), json.loads(line(10))]), cancel)
    assert answers == [] and settled.statistics().current_buffer_used == 0  # the cancel alone ends nothing
    by_method = {getattr(m.message, "id", m.message.method): m for m in messages}
    assert by_method["notifications/cancelled"].metadata is None
    assert batches.held(answer(10)) == (True, None)
    assert by_method[10].metadata.on_request_unanswered is not None  # each batch request carries the hook

    async def settle():  # what the SDK's dispatcher does for the request it cancelled
        await by_method[30].metadata.on_request_unanswered()

    anyio.run(settle)  # after the reader's end too: on the SDK's stream, open until every request has settled
    assert settled.receive_nowait() == [answer(10)]
    assert batches.unanswered(30) is None  # settled once


def test_a_request_reusing_the_id_of_a_batch_request_under_way_is_refused(Batches):
    """Its answer would be folded into the batch as that request's; ``7`` and ``"7"`` are one id, as
    for the SDK. Before, a single line reusing it went to the server and its answer into the batch."""
    from websearch_sync.mcp.transport import ID_TAKEN

    batches = negotiated(Batches, "2025-03-26")
    messages, answers, _ = read_all(
        batches, json.dumps([json.loads(line(7)), json.loads(line("7"))]), line("7"), line(8)
    )
    taken = {"jsonrpc": "2.0", "id": "7", "error": {"code": -32600, "message": ID_TAKEN}}
    assert answers == [taken]  # the single line's, at once
    assert [m.message.id for m in messages] == [7, 8]
    assert batches.held(answer(7)) == (True, [taken, answer(7)])  # the batch's, refusing its own "7"


def test_a_response_or_an_initialize_notification_in_a_batch_gets_no_answer(Batches):
    """JSON-RPC answers neither. Before, a response with the id of a request of the same batch got
    "the id is taken", and ``initialize`` without an id got ``-32600`` with ``id: null``."""
    batches = negotiated(Batches, "2025-03-26")
    batch = [json.loads(line(6)), {"jsonrpc": "2.0", "id": 6, "result": {}}, json.loads(line(method="initialize"))]
    messages, answers, _ = read_all(batches, json.dumps(batch))
    assert answers == []
    assert len(messages) == 3


def test_a_bare_carriage_return_does_not_end_a_line():
    """Lines end at LF only, as MCP's stdio transport delimits messages: a bare CR (which JSON
    allows as whitespace between tokens) stays in its line, CR LF ends one with the CR kept (JSON
    whitespace). Before, universal newlines split the line at a bare CR into two broken messages."""
    from websearch_sync.mcp.transport import _Wire

    wire = _Wire(io.BytesIO(b'{"jsonrpc": "2.0",\r"method": "x"}\n{"c": 3}\r\n'), owned=True)
    lines = [wire._next_line(), wire._next_line(), wire._next_line()]
    assert lines == ['{"jsonrpc": "2.0",\r"method": "x"}\n', '{"c": 3}\r\n', ""]
    assert json.loads(lines[0]) == {"jsonrpc": "2.0", "method": "x"}
