"""The markup scan before every HTML parse (``extract/crowded_tags.py``): an older version against this one.

    python bench/crowded_tags_scan.py [--commit 20e5d409] [--runs 4] [--repeat 3]

Loads the scan of ``--commit`` (``git show <commit>:websearch_sync/extract/crowded_tags.py``) into
a temporary module and times it against the package's, alternating, on the article pages of
/work/shared/extraction-benchmark (each page ``--repeat`` times a run, CPU time of this process,
the minimum of ``--runs``); then checks that both give the same output on every page of both shared
extraction sets, bench/extraction-structures and fixtures/, and prints the pages that differ (an
older version may cut a page the newer one reads otherwise: a fix, not a slowdown). Prints the
pages whose time grew most, and the load average.
"""

import argparse
import gzip
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websearch_sync.extract import crowded_tags  # noqa: E402

SHARED = Path("/work/shared")
TIMED = SHARED / "extraction-benchmark" / "html"
CHECKED = (
    SHARED / "extraction-benchmark" / "html",
    SHARED / "extraction-benchmark-readability" / "html",
    ROOT / "bench" / "extraction-structures" / "html",
    ROOT / "fixtures",
)
SOURCE = "websearch_sync/extract/crowded_tags.py"


def older_scan(commit: str) -> ModuleType:
    """The scan as it was at ``commit``, imported from a temporary file inside the package (its
    relative imports resolve)."""
    text = subprocess.run(["git", "show", "%s:%s" % (commit, SOURCE)], cwd=ROOT, check=True, capture_output=True).stdout
    with tempfile.NamedTemporaryFile("wb", suffix=".py", delete=False) as file:
        file.write(text)
    try:
        spec = importlib.util.spec_from_file_location("websearch_sync.extract._crowded_tags_older", file.name)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        os.unlink(file.name)
    return module


def pages(folder: Path) -> dict[str, str]:
    """Every HTML page under ``folder`` (gzipped or not), decoded as extraction decodes UTF-8."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.name.endswith(".html.gz"):
            data = gzip.decompress(path.read_bytes())
        elif path.name.endswith(".html"):
            data = path.read_bytes()
        else:
            continue
        found[str(path)] = data.decode("utf-8", "replace")
    return found


def cpu_s(scan: Callable[[str], str], texts: list[str], repeat: int) -> float:
    """CPU seconds of ``scan`` over ``texts``, ``repeat`` times."""
    started = time.process_time()
    for _ in range(repeat):
        for text in texts:
            scan(text)
    return time.process_time() - started


def main() -> None:
    """Print both versions' times side by side and check their outputs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default="20e5d409", help="the older version's commit")
    parser.add_argument("--runs", type=int, default=4, help="alternating runs of each (the minimum is kept)")
    parser.add_argument("--repeat", type=int, default=3, help="passes over the pages a run")
    args = parser.parse_args()
    older = older_scan(args.commit)
    timed = pages(TIMED)
    texts = list(timed.values())
    runs: dict[str, list[float]] = {"older": [], "now": []}
    for _ in range(args.runs):
        runs["older"].append(cpu_s(older.thin_crowded_tags, texts, args.repeat))
        runs["now"].append(cpu_s(crowded_tags.thin_crowded_tags, texts, args.repeat))
    best = {name: min(times) for name, times in runs.items()}
    print(
        "%d pages (%.1f MB) x %d, CPU, min of %d alternating runs (python %s, load average %s):"
        % (
            len(texts),
            sum(map(len, texts)) / 1e6,
            args.repeat,
            args.runs,
            sys.version.split()[0],
            " ".join("%.2f" % v for v in os.getloadavg()),
        )
    )
    print(
        "  %s %.3f s, now %.3f s (now/older %.2f)"
        % (args.commit, best["older"], best["now"], best["now"] / best["older"])
    )
    growth = []
    for name, text in timed.items():
        spent = {"older": 9.0, "now": 9.0}
        for _ in range(3):
            spent["older"] = min(spent["older"], cpu_s(older.thin_crowded_tags, [text], args.repeat))
            spent["now"] = min(spent["now"], cpu_s(crowded_tags.thin_crowded_tags, [text], args.repeat))
        growth.append((spent["now"] - spent["older"], spent["older"], spent["now"], Path(name).name[:16]))
    print("  the pages whose time grew most (x%d):" % args.repeat)
    for grew, before, after, name in sorted(growth, reverse=True)[:5]:
        print("    %+8.2f ms  %7.2f -> %7.2f ms  %s" % (grew * 1000, before * 1000, after * 1000, name))
    differing = checked = 0
    for folder in CHECKED:
        for name, text in pages(folder).items():
            checked += 1
            if older.thin_crowded_tags(text) != crowded_tags.thin_crowded_tags(text):
                differing += 1
                print("  output differs: %s" % name)
    print("  outputs compared on %d pages: %d differ" % (checked, differing))


if __name__ == "__main__":
    main()
