"""What PDF reads their fetch gave up on still cost once the calls returned: an agent fetching
one hostile PDF again and again with a short deadline (one call after another), and a batch
fetching several at once. The PDF is served on 127.0.0.1: one page of 1 MB of short lines of
text, which pypdf takes about 4 s to extract on a loaded 2-core machine (a page fetch reads:
at most 1 MB of content).

    python bench/pdf_abandoned.py [--calls N] [--timeout-ms N]

Each scenario runs in a fresh process and prints the outcomes of the calls (error codes,
counted), the most threads reading a PDF at once seen as each call returned (``peak
threads``), the threads still reading when the last call returned, and the CPU seconds the
process spent after it until every read ended.

One run, load average 7-8 on a shared 2-core machine, 8 calls with a 500 ms deadline, before
(each read abandoned ran to the page's end) / after (a checkpoint before each of pypdf's
operations; while two given-up reads still run, a new read waits for one to end, at most half the
time its deadline leaves, then is refused, ``pdf_reads_busy``):
one after another: 8 deadline_exceeded, peak 5 threads, 5 still reading, 6.57 s of CPU after /
6 deadline_exceeded and 2 pdf_reads_busy, peak 2, 1 still reading, 0.17 s after (refused at once,
without the wait: 4 and 4, 0.23 s after);
8 at once: 8 deadline_exceeded, peak 8, 7 still reading, 13.36 s after / 7 deadline_exceeded and
1 pdf_reads_busy, peak 6 (admitted before any was given up), 6 still reading, 1.34 s after.
"""

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

SCENARIOS = ("one after another", "at once")
#: One page of 1 MB of short lines (``(line) Tj T*``).
LINES = b"BT /F1 11 Tf 72 720 Td 12 TL " + b"(harbour tonnage rose) Tj T* " * 34_000 + b"ET"


def measure(scenario: str, calls: int, timeout_ms: int) -> dict[str, object]:
    """In this process: serve the PDF, fetch it ``calls`` times as ``scenario`` says, return the figures."""
    from clocks import running, wait_for_work
    from faults import respond
    from pdfs import bomb_pdf
    from servers import FaultServer

    import websearch_sync as ws

    body = bomb_pdf([LINES])
    outcomes: dict[str, int] = {}
    peak = [0]

    def fetch(url: str) -> None:
        try:
            ws.fetch(url, allow_private=True, timeout_ms=timeout_ms)
            outcome = "ok"
        except ws.WebSearchError as error:
            outcome = error.detail_code or error.code
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        peak[0] = max(peak[0], running("websearch-extract"))

    with FaultServer({"/b.pdf": respond(200, body, content_type="application/pdf")}) as server:
        url = server.url("/b.pdf")
        if scenario == "at once":
            threads = [threading.Thread(target=fetch, args=(url,)) for _ in range(calls)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        else:
            for _ in range(calls):
                fetch(url)
        still = running("websearch-extract")
        returned_cpu = time.process_time()
        wait_for_work("websearch-extract", 300)
        after_cpu = time.process_time() - returned_cpu
    return {"scenario": scenario, "outcomes": outcomes, "peak": peak[0], "still": still, "after_cpu_s": after_cpu}


def main() -> None:
    """Run each scenario in a process of its own and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=8, help="fetches of the PDF (default 8)")
    parser.add_argument("--timeout-ms", type=int, default=500, help="each fetch's deadline (default 500)")
    parser.add_argument("--scenario", help=argparse.SUPPRESS)  # the child's one scenario
    args = parser.parse_args()
    if args.scenario:
        print(json.dumps(measure(args.scenario, args.calls, args.timeout_ms)))
        return
    print("%-18s %-44s %12s %14s %11s" % ("scenario", "outcomes", "peak threads", "still reading", "after CPU s"))
    for scenario in SCENARIOS:
        child = [sys.executable, __file__, "--scenario", scenario, "--calls", str(args.calls)]
        child += ["--timeout-ms", str(args.timeout_ms)]
        row = json.loads(subprocess.run(child, capture_output=True, text=True, check=True).stdout.splitlines()[-1])
        outcomes = ", ".join("%s %d" % item for item in sorted(row["outcomes"].items()))
        print("%-18s %-44s %12d %14d %11.2f" % (scenario, outcomes, row["peak"], row["still"], row["after_cpu_s"]))


if __name__ == "__main__":
    main()
