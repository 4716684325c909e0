"""What the requests wire's chunked reader costs beside plain ``http.client`` (``requests_adapter._ChunkedBody``).

    python bench/chunked.py

A 10 MB chunked body in chunks of 1 KB, 8 KB and 64 KB, read from memory (no socket: the reader's
own cost) by ``read1(65536)`` as urllib3 reads it, through plain ``http.client.HTTPResponse`` and
through the wire's answer class (``_FinalAnswer``, which checks the framing as libcurl reads it).
Prints the CPU time of each (the median and best of seven runs) side by side, and the cost per chunk
the wire's reader adds.
"""

import http.client
import io
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websearch_sync.net.requests_adapter import _FinalAnswer  # noqa: E402

TOTAL = 10_000_000
RUNS = 7
HEAD = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"


class _Socket:
    """What ``HTTPResponse`` reads an answer from: a socket whose file is ``data`` in memory."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(io.BytesIO(self.data), 65536)


def cpu_ms(answer_class: type, data: bytes) -> tuple[float, float, int]:
    """The median and best CPU time (ms) of reading ``data``'s body through ``answer_class``, and its size."""
    times = []
    size = 0
    for _ in range(RUNS):
        answer = answer_class(_Socket(data))
        answer.begin()
        started = time.process_time()
        size = 0
        while piece := answer.read1(65536):
            size += len(piece)
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times), min(times), size


def main() -> None:
    print("10 MB chunked body from memory, read1(65536); CPU ms, median (best) of %d" % RUNS)
    print("%8s %8s %18s %18s %12s" % ("chunk", "chunks", "http.client", "wire reader", "us/chunk"))
    for chunk in (1024, 8192, 65536):
        count = TOTAL // chunk
        data = HEAD + (b"%x\r\n%s\r\n" % (chunk, b"a" * chunk)) * count + b"0\r\n\r\n"
        plain, plain_best, plain_size = cpu_ms(http.client.HTTPResponse, data)
        wire, wire_best, wire_size = cpu_ms(_FinalAnswer, data)
        assert plain_size == wire_size == chunk * count, (plain_size, wire_size)
        print(
            "%8d %8d %10.1f (%5.1f) %10.1f (%5.1f) %12.2f"
            % (chunk, count, plain, plain_best, wire, wire_best, (wire - plain) * 1000 / count)
        )


if __name__ == "__main__":
    main()
