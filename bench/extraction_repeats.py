"""What a page of many repeated blocks costs the extraction, with the rule that reads them on and off.

    python bench/extraction_repeats.py [--count N]

Each case is one <div> of N repeated blocks built for one rule's walk, extracted (text mode,
from the HTML string) with every rule on and with that rule off; printed: the CPU time of
this process for each, and their ratio. A rule whose walk is linear in the page costs about
as much as the rest of the extraction at any N; one that rescans the page per block grows
with N squared.

- ``readability.linked_headings``: N headings that are links, each before a paragraph of 81
  non-space characters (long enough to open a section, too short to be a long paragraph).
  Each heading measured its parent's children again: 44.6 s against 0.26 s off at 5,000.
"""

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from websearch_sync.extract.article import extract_html  # noqa: E402
from websearch_sync.extract.rules import DEFAULT_RULES  # noqa: E402

SUMMARY = "A summary of the item, long enough to follow its heading as a section does, but not a long one by far."


def linked_headings(count: int) -> str:
    items = "".join("<h3><a href='/item%d'>Item %d</a></h3><p>%s</p>" % (n, n, SUMMARY) for n in range(count))
    return "<html><body><div>%s</div></body></html>" % items


#: Rule -> the page of ``count`` repeated blocks its walk reads.
CASES: dict[str, Callable[[int], str]] = {"readability.linked_headings": linked_headings}


def cpu_s(html: str, rules: frozenset[str]) -> float:
    start = time.process_time()
    extract_html(html, mode="text", rules=rules)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=5000, help="repeated blocks per page (default: 5000)")
    args = parser.parse_args()
    print("%-32s %8s %9s %9s %7s" % ("rule", "page KB", "on s", "off s", "on/off"))
    for rule, build in CASES.items():
        html = build(args.count)
        on, off = cpu_s(html, DEFAULT_RULES), cpu_s(html, DEFAULT_RULES - {rule})
        print("%-32s %8d %9.2f %9.2f %7.2f" % (rule, len(html) // 1000, on, off, on / off))


if __name__ == "__main__":
    main()
