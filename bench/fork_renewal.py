"""What a fork costs a process holding many live clients: the child renews every lock of them
(``websearch_sync.forks``) before its first line runs.

    python bench/fork_renewal.py [--clients 100 1000]

For 0 clients and each count given, built with a stand-in wire (nothing is sent), the medians
over 30 forks of: the time from the parent's ``os.fork`` call to the child's first line (the
fork of a larger process, and every after-fork hook), and the library's after-fork hooks alone
(timed in the child between a hook registered before the package is imported and one after).
Not a test: nothing is asserted.
"""

import argparse
import os
import statistics
import struct
import sys
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
#: When the child's after-fork hooks reached the package's, and when they were past them.
_hooks = {"before": 0.0, "after": 0.0}
os.register_at_fork(after_in_child=lambda: _hooks.__setitem__("before", time.perf_counter()))

import websearch_sync as ws  # noqa: E402
from websearch_sync.net.wire_mock import MockResponse, MockWire  # noqa: E402

ws.search, ws.Settings.from_env()  # the client's modules and the engines, with their hooks, imported now
os.register_at_fork(after_in_child=lambda: _hooks.__setitem__("after", time.perf_counter()))

FORKS = 30


def to_child_s() -> tuple[float, float]:
    """The medians of the time from ``os.fork`` in the parent to the child's first line, and of
    the library's after-fork hooks in the child (seconds)."""
    times, hooks = [], []
    for _ in range(FORKS):
        read_end, write_end = os.pipe()
        started = time.perf_counter()  # CLOCK_MONOTONIC: the same clock in the child
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # a process with threads forks
            pid = os.fork()
        if pid == 0:
            os.write(write_end, struct.pack("dd", time.perf_counter(), _hooks["after"] - _hooks["before"]))
            os._exit(0)
        os.close(write_end)
        arrived, hooked = struct.unpack("dd", os.read(read_end, 16))
        os.close(read_end)
        os.waitpid(pid, 0)
        times.append(arrived - started)
        hooks.append(hooked)
    return statistics.median(times), statistics.median(hooks)


def main() -> None:
    """Print the fork's cost with 0 clients and with each count of live clients given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[100, 1000], help="live clients (default 100 1000)")
    args = parser.parse_args()
    clients: list[ws.SearchClient] = []
    print("%8s %22s %18s %14s" % ("clients", "fork to child's line", "library's hooks", "per client"))
    for count in [0] + sorted(args.clients):
        while len(clients) < count:
            wire = MockWire(lambda request: MockResponse())
            clients.append(ws.SearchClient("stub", settings=ws.Settings(), wire=wire))
        took_s, hooks_s = to_child_s()
        per = "%11.1f us" % (hooks_s / count * 1e6) if count else "-"
        print("%8d %19.2f ms %15.2f ms %14s" % (count, took_s * 1000, hooks_s * 1000, per))
    for client in clients:
        client.close()


if __name__ == "__main__":
    main()
