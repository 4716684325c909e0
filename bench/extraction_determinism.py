"""Whether extraction gives the same output in every process: issue 35's determinism check.

    python bench/extraction_determinism.py [--seeds 1,2] [--set NAME=DIR ...]

Extracts every page of the development sets (``extraction.py``'s, or ``--set``) in one child
process per ``PYTHONHASHSEED`` value, text and markdown mode, from the HTML string, and
compares title, extractor and text page by page. A rule that iterates over a set or a dict of
strings (whose order follows the seed) instead of the document's order shows up as a page
whose output differs; the pages are printed, and the exit status is 1 when there is one.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, REPO)

from extraction import DEFAULT_SETS, load  # noqa: E402


def outputs(sets: list[tuple[str, str]]) -> dict[str, str]:
    """{set/page/mode: title, extractor and text} of every page of ``sets``."""
    from websearch_sync.extract.article import extract_html

    result = {}
    for name, directory in sets:
        for page_id, html, _ in load(directory):
            for mode in ("text", "markdown"):
                extracted = extract_html(html, mode=mode)
                result["%s/%s/%s" % (name, page_id, mode)] = "%s\n%s\n%s" % (
                    extracted.title,
                    extracted.extractor,
                    extracted.text,
                )
    return result


def main() -> int:
    """Runs the children, prints the pages whose output differs between seeds."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2", help="comma-separated PYTHONHASHSEED values (default: 1,2)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=DIR", help="a benchmark directory")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sets = [(name, directory) for name, directory in (item.split("=", 1) for item in args.set)] or list(DEFAULT_SETS)
    if args.child:
        json.dump(outputs(sets), sys.stdout)
        return 0
    runs = {}
    for seed in args.seeds.split(","):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        command = [sys.executable, os.path.abspath(__file__), "--child"] + ["--set=" + item for item in args.set]
        runs[seed] = json.loads(subprocess.run(command, env=env, check=True, capture_output=True).stdout)
    first, *others = runs.values()
    differing = [key for key in first if any(other.get(key) != first[key] for other in others)]
    for key in differing:
        print("differs between seeds:", key)
    print("%d outputs (pages x modes), seeds %s: %d differ" % (len(first), args.seeds, len(differing)))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
