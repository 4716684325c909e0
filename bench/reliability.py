"""The reliability matrix: every registered network backend, and fetch, against every
fault of the fault lab (tests/reliability/faultlab.py), on a local server (no internet).

    python bench/reliability.py [--parallel] [--details]

Prints, per backend and fault, the error code the call ended with (``!`` marks an
outcome other than the one the lab's table expects), the longest call relative to its
deadline, the peak traced memory of the gzip bomb and the endless body, and the totals:
faults tried, classified correctly, exceeded the deadline (plus the lab's margin),
crashed (an exception other than WebSearchError), memory over the limit, and cells after
which the same client could not answer a good request. Cells run one at a time (each
with tracemalloc) unless ``--parallel``. Not a test: nothing is asserted.
"""

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "reliability"))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import faultlab  # noqa: E402

from websearch_sync.testing import no_network  # noqa: E402

SHORT = {
    "ok": "ok",
    "NetworkError": "NetErr",
    "Timeout": "Timeout",
    "WebParseError": "Parse",
    "WebBlocked": "Blocked",
    "WebProviderError": "Provider",
    "InvalidInput": "Invalid",
    "BadGateway": "BadGW",
    "AuthError": "Auth",
}


def short(cell: "faultlab.Cell") -> str:
    text = SHORT.get(cell.code, cell.code[:9])
    return text if cell.passed else text + "!"


def megabytes(count) -> str:
    value = (count or 0) / 1e6
    return "%.1f" % value if value < 10 else "%.0f" % value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parallel", action="store_true", help="run targets in threads (faster; timing less precise)")
    parser.add_argument("--details", action="store_true", help="print every cell: code/detail, wall time, peak memory")
    args = parser.parse_args()

    started = time.monotonic()
    targets = faultlab.all_targets()
    with no_network():
        cells = faultlab.run_matrix(targets, parallel=args.parallel)
    elapsed = time.monotonic() - started
    names = [t.name for t in targets]
    faults = [f.name for f in faultlab.FAULT_LIST]
    grid = {(c.target, c.fault): c for c in cells}

    print(
        "websearch_sync reliability matrix: %d backends + fetch x %d faults; deadline %d ms for the faults that must"
        " time out (idle machine; paced by its measured slowdown), %d ms for the others; retries 0, byte cap %d"
        % (len(names) - 1, len(faults), faultlab.DEADLINE_MS, faultlab.CLASSIFY_DEADLINE_MS, faultlab.MAX_BYTES)
    )
    width = max(14, max(len(n) for n in names) + 1)
    print("%-22s" % "fault" + "".join("%-*s" % (width, n) for n in names))
    for fault in faults:
        print("%-22s" % fault + "".join("%-*s" % (width, short(grid[(n, fault)])) for n in names))
    print(
        "%-22s" % "max wall/deadline"
        + "".join(
            "%-*s" % (width, "%.2f" % max(c.wall_s / c.deadline_s for c in cells if c.target == n)) for n in names
        )
    )
    heavy = [f.name for f in faultlab.FAULT_LIST if f.memory]
    print(
        "%-22s" % "peak MB *"
        + "".join("%-*s" % (width, "/".join(megabytes(grid[(n, f)].peak_bytes) for f in heavy)) for n in names)
    )
    print("* peak traced memory of %s" % ", ".join(heavy))

    problems = [c for c in cells if not c.passed]
    if args.details or problems:
        print()
        for cell in cells if args.details else problems:
            print(
                "%s %-12s %-22s %s/%s  %.0f ms  peak %s%s"
                % (
                    "ok  " if cell.passed else "FAIL",
                    cell.target,
                    cell.fault,
                    cell.code,
                    cell.detail,
                    cell.wall_s * 1000,
                    "%.1f MB" % (cell.peak_bytes / 1e6) if cell.peak_bytes is not None else "-",
                    "" if cell.passed else "  <- " + cell.describe(),
                )
            )

    print()
    print("faults tried: %d" % len(cells))
    print("classified correctly: %d" % sum(c.classified for c in cells))
    print(
        "exceeded deadline (+ margin from the measured machine pace, %d-%d ms): %d"
        % (
            min(c.margin_s for c in cells) * 1000,
            max(c.margin_s for c in cells) * 1000,
            sum(not c.in_time for c in cells),
        )
    )
    print("crashed: %d" % sum(c.crashed for c in cells))
    print(
        "memory over limit: %d (limits: search %.0f MB, fetch %.0f MB for a %.0f MB cap)"
        % (
            sum(not c.memory_ok for c in cells),
            faultlab.MEMORY_LIMITS["json"] / 1e6,
            faultlab.MEMORY_LIMITS["fetch"] / 1e6,
            faultlab.MAX_BYTES / 1e6,
        )
    )
    print("client broken afterwards: %d" % sum(not c.after_ok for c in cells))
    print("max wall/deadline: %.2f; run time %.1f s" % (max(c.wall_s / c.deadline_s for c in cells), elapsed))


if __name__ == "__main__":
    main()
