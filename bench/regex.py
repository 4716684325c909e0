"""Worst-case time of every regular expression of the package on adversarial input.

    python bench/regex.py [--size BYTES]

Uses the audit of ``tests/sockets/test_hardening_regex.py``: every compiled pattern of the
package, adversarial inputs built from its own parse tree (repeated witness prefixes,
unclosed openers), screened at 8 KB; the worst candidate of each pattern is then
timed at ``--size`` (default 1 MB, CPU time of this thread). Prints one line per
pattern, slowest first, and the load average.
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "tests", ROOT / "tests" / "sockets"):
    sys.path.insert(0, str(path))

import test_hardening_regex as audit  # noqa: E402


def main() -> None:
    """Print the worst-case scan time of each pattern."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--size", type=int, default=audit.TARGET_CHARS, help="size of the timed input (characters or bytes)"
    )
    args = parser.parse_args()
    rows = []
    for name, pattern in audit.PATTERNS.values():
        screened = max((audit._scan(pattern, text), text) for text in audit.candidates(pattern))
        big = audit._grow(screened[1], args.size)
        rows.append((audit._scan(pattern, big), name, big[:32]))
    print(
        "%d patterns, worst input of each at %d characters (python %s, load average %s)"
        % (len(rows), args.size, sys.version.split()[0], " ".join("%.2f" % v for v in os.getloadavg()))
    )
    for seconds, name, head in sorted(rows, reverse=True):
        print("  %8.1f ms  %-55s %r..." % (seconds * 1000, name, head))


if __name__ == "__main__":
    main()
