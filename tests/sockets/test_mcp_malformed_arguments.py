"""A ``tools/call`` whose ``arguments`` is not a JSON object (a string, an array, a number: a
client passing a model's arguments on as the model wrote them) is answered as any wrong argument
is, with a tool result the model reads (``isError``, our one line), not with the SDK's protocol
error ``-32602`` "Invalid request parameters", which the model never sees."""

import json

import pytest
from test_mcp import INITIALIZE, RawServer, call_line


def parse_line(line):
    """``websearch_sync.mcp.transport.parse_line``, imported when a test runs: the transport
    imports the MCP SDK (a second of CPU), which collecting the suite must not pay in every worker."""
    from websearch_sync.mcp.transport import parse_line

    return parse_line(line)


MALFORMED = [
    ('"rust"', "a string ('rust')"),
    ('["rust", 3]', "an array"),
    ("5", "a number (5)"),
    ("true", "a boolean (true)"),
]


@pytest.mark.parametrize("arguments, said", MALFORMED)
def test_the_transport_answers_it_with_an_error_result(arguments, said):
    message, answer = parse_line(call_line(7, arguments))
    assert message is None
    assert answer == {
        "jsonrpc": "2.0",
        "id": 7,
        "result": {
            "content": [
                {
                    "type": "text",
                    "text": "Error: InvalidInput (bad_arguments): arguments must be a JSON object, got %s. "
                    "Correct the arguments and call again." % said,
                }
            ],
            "isError": True,
        },
    }


def test_objects_and_null_still_go_to_the_server():
    for arguments in ('{"query": "rust"}', "null"):
        message, answer = parse_line(call_line(7, arguments))
        assert message is not None and answer is None


def test_the_server_answers_it_and_goes_on_serving():
    server = RawServer()
    try:
        server.send(json.dumps(INITIALIZE))
        assert server.answer(1)["id"] == 1
        server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
        server.send(call_line(2, '"rust"'))
        server.send(call_line(3, '{"query": "still serving"}'))
        answers = {answer["id"]: answer for answer in (server.answer(2), server.answer(3))}
    finally:
        server.close()
    assert answers[2]["result"]["isError"] is True
    assert "arguments must be a JSON object, got a string ('rust')" in answers[2]["result"]["content"][0]["text"]
    assert answers[3]["result"]["isError"] is False
