"""Worst-case time of every regular expression of the package on adversarial input.

    python bench/regex.py [--size BYTES]

Uses the audit of ``tests/sockets/test_hardening_regex.py``: every compiled pattern of the
package, adversarial inputs built from its own parse tree (repeated witness prefixes,
unclosed openers, a long run of a character two of its repeats can both read), screened at
8 KB and the slowest four at 16 KB; the worst candidate of each pattern is then timed at
``--size`` (default 256 KB, CPU time of this thread), unless its projected time there is over
a minute (printed instead, marked ``projected``). Prints one line per pattern, slowest first,
and the load average.
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "tests", ROOT / "tests" / "sockets"):
    sys.path.insert(0, str(path))

import test_hardening_regex as audit  # noqa: E402

#: A projection over this many seconds is printed, not waited for.
MAX_WAIT_S = 60.0


def main() -> None:
    """Print the worst-case scan time of each pattern."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--size", type=int, default=audit.TARGET_CHARS, help="size of the timed input (characters or bytes)"
    )
    args = parser.parse_args()
    rows = []
    for name, pattern in audit.PATTERNS.values():
        worst, projection = audit.worst_candidate(pattern, target=args.size)
        big = audit.grown(pattern, worst, args.size)
        if projection > MAX_WAIT_S:
            rows.append((projection, name, big[:40], "projected"))
        else:
            rows.append((audit._scan(pattern, big), name, big[:40], ""))
    print(
        "%d patterns, worst input of each at %d characters (python %s, load average %s)"
        % (len(rows), args.size, sys.version.split()[0], " ".join("%.2f" % v for v in os.getloadavg()))
    )
    for seconds, name, head, mark in sorted(rows, reverse=True):
        print("  %10.1f ms  %-55s %r... %s" % (seconds * 1000, name, head, mark))


if __name__ == "__main__":
    main()
