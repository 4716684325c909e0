"""The MCP transport's text wrappers around its private copies of stdin and stdout are let go of
cleanly when the server ends: an abandoned ``TextIOWrapper`` closed its file from the garbage
collector, a ``ResourceWarning`` on stderr at every exit under ``python -X dev``."""

import gc
import os
import sys
import warnings


def test_serving_to_the_end_of_input_leaves_no_file_to_the_garbage_collector(monkeypatch, tmp_path):
    import anyio

    from websearch_sync.mcp.transport import stdio_streams  # imports the MCP SDK: not at collection

    (tmp_path / "in").write_bytes(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    with open(tmp_path / "in", "rb") as stdin, open(tmp_path / "out", "w+b") as stdout:
        monkeypatch.setattr(sys, "stdin", os.fdopen(os.dup(stdin.fileno()), "r"))
        monkeypatch.setattr(sys, "stdout", os.fdopen(os.dup(stdout.fileno()), "w"))

        async def serve():
            async with stdio_streams() as (read_stream, write_stream):
                async with read_stream, write_stream:
                    received = [message async for message in read_stream]
            return received

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            received = anyio.run(serve)
            gc.collect()
        sys.stdin.close()
        sys.stdout.close()
    assert [message.message.method for message in received] == ["notifications/initialized"]
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []
