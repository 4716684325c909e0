"""What charset detection's spelling check costs on real pages (``net.alphabets.spells_one_alphabet``).

    python bench/alphabets.py

Detection asks it of every decoding charset_normalizer rates alike, each up to 200 KB of text.
For every recorded HTML fixture (fixtures/), decoded as a search response is: the page's size and
the check's time (the best of five runs). Prints the largest pages and the total.
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websearch_sync.net.alphabets import spells_one_alphabet  # noqa: E402
from websearch_sync.net.charset import decode_body  # noqa: E402

DETECTED_CHARS = 200_000  #: what detection reads of a page (``charset._detect``)


def best_of(runs: int, text: str) -> float:
    """The shortest of ``runs`` timings of the check on ``text`` (seconds)."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        spells_one_alphabet(text)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    """Time the check on every recorded HTML page and print the figures."""
    rows = []
    for path in sorted((ROOT / "fixtures").glob("*/*.html")):
        text = decode_body(path.read_bytes(), "text/html")[:DETECTED_CHARS]
        rows.append((best_of(5, text), len(text), "%s/%s" % (path.parent.name, path.name)))
    rows.sort(reverse=True)
    for seconds, size, name in rows[:10]:
        print("%8.2f ms  %7d chars  %s" % (seconds * 1000, size, name))
    print(
        "%d pages, %.1f ms in all, %.2f ms a page"
        % (len(rows), sum(r[0] for r in rows) * 1000, sum(r[0] for r in rows) * 1000 / max(1, len(rows)))
    )


if __name__ == "__main__":
    main()
