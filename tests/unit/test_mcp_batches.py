"""The record the MCP transport keeps of JSON-RPC batches (websearch_sync.mcp.batches): served only
once the handshake's answer says 2025-03-26, and a batch's answers written together once the last
request is answered or cancelled (a cancelled request gets no answer: its batch would wait for ever)."""

from websearch_sync.mcp.batches import Batches


def answer(request_id, result=None):
    return {"jsonrpc": "2.0", "id": request_id, "result": result or {}}


def negotiated(version):
    batches = Batches()
    batches.passed_on("initialize", 1)
    assert batches.watches(1)
    assert batches.held(answer(1, {"protocolVersion": version, "capabilities": {}})) == (False, None)
    return batches


def test_batches_are_served_only_under_the_version_that_has_them():
    assert not Batches().served()  # no handshake yet
    assert negotiated("2025-03-26").served()
    assert not negotiated("2025-06-18").served()


def test_a_batch_is_answered_once_its_last_request_is():
    batches = negotiated("2025-03-26")
    refused = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "x"}}
    assert batches.start([2, "b"], [refused]) is None
    assert batches.in_use(2) and batches.in_use("b")
    assert batches.watches(2) and not batches.watches(3) and not batches.watches(None)
    assert batches.held(answer("b")) == (True, None)
    assert batches.held({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}}) == (False, None)
    assert batches.held(answer(2)) == (True, [refused, answer("b"), answer(2)])
    assert not batches.in_use(2)
    assert batches.held(answer(2)) == (False, None)  # a request of its own line, reusing the id later


def test_a_cancelled_request_lets_its_batch_go_without_it():
    batches = negotiated("2025-03-26")
    assert batches.start([3, 4], []) is None
    assert batches.held(answer(4)) == (True, None)
    assert batches.cancelled(3) == [answer(4)]
    assert batches.cancelled(3) is None  # unknown now: ignored


def test_a_batch_with_nothing_to_wait_for_is_answered_at_once_or_not_at_all():
    batches = negotiated("2025-03-26")
    refused = {"jsonrpc": "2.0", "id": 5, "error": {"code": -32600, "message": "x"}}
    assert batches.start([], [refused]) == [refused]
    assert batches.start([], []) is None  # notifications only: JSON-RPC answers nothing
