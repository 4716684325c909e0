"""How well an undeclared page in a legacy charset is decoded (``net.charset.decode_body``), and at what cost.

    python bench/charset_detection.py [--root CHECKOUT] [--shared DIR]

Every real page at hand (fixtures/*/*.html, and ../shared's extraction benchmarks when present) is
re-encoded in each charset below as a server in it sends it: its charset declarations taken out, a
character the charset lacks written as a character reference. A page counts for a charset only when
its text is in the charset's script (Chinese for GBK and Big5, kana for the Japanese ones; any for the
single-byte ones), has a non-ASCII byte and is no UTF-8 (such a body never reaches detection). Prints,
per charset, the pages decoded exactly as they were encoded, the pages tried, and the mean time per
page. ``--root``: the checkout whose ``websearch_sync`` is measured (another worktree, to compare);
``--shared``: where ../shared is (default: beside this checkout).
"""

import argparse
import gzip
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: A charset declaration (``<meta charset>``, a ``Content-Type`` in a ``<meta http-equiv>``).
_DECLARED = re.compile(r"(?i)charset\s*=\s*[\"']?[\w.:-]+")
_CHINESE = re.compile("[\u4e00-\u9fff]{8}")
_KANA = re.compile("[\u3040-\u30ff]{4}")
#: Each charset measured, the script a page must be in for it (``None``: any), the codec reading it back.
CHARSETS = [
    ("cp1252", None, "cp1252"),
    ("cp1250", None, "cp1250"),
    ("gbk", _CHINESE, "gb18030"),
    ("gb18030", _CHINESE, "gb18030"),
    ("big5hkscs", _CHINESE, "big5hkscs"),
    ("cp932", _KANA, "cp932"),
    ("euc_jp", _KANA, "euc_jp"),
]


def pages(shared: Path) -> list[tuple[str, str]]:
    """``(name, text)`` of every page at hand, without its charset declarations."""
    paths = sorted((ROOT / "fixtures").glob("*/*.html"))
    for benchmark in ("extraction-benchmark", "extraction-benchmark-readability"):
        paths += sorted((shared / benchmark / "html").glob("*.html*"))
    found = []
    for path in paths:
        body = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:  # a recording kept in another charset: not a UTF-8 original
            continue
        found.append((path.name, _DECLARED.sub("data-charset", text)))
    return found


def measure(decode_body, found: list[tuple[str, str]]) -> None:
    """Print, per charset, the pages ``decode_body`` reads back exactly, those tried, the time."""
    for charset, script, codec in CHARSETS:
        right = tried = 0
        spent = 0.0
        for _, text in found:
            if script is not None and not script.search(text):
                continue
            body = text.encode(charset, errors="xmlcharrefreplace")
            try:
                body.decode("utf-8")  # ASCII or UTF-8: never detected
                continue
            except UnicodeDecodeError:
                pass
            tried += 1
            started = time.perf_counter()
            decoded = decode_body(body, "text/html")
            spent += time.perf_counter() - started
            right += decoded == body.decode(codec)
        print("%-10s %3d / %3d read right   %6.1f ms a page" % (charset, right, tried, 1000 * spent / max(tried, 1)))


def main() -> None:
    """Measure the checkout ``--root`` names (default: this one)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose websearch_sync is measured")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"), help="where ../shared is")
    arguments = parser.parse_args()
    sys.path.insert(0, arguments.root)
    from websearch_sync.net.charset import decode_body

    print("websearch_sync from %s" % Path(sys.modules["websearch_sync"].__file__).parent)
    found = pages(Path(arguments.shared))
    print("%d pages" % len(found))
    measure(decode_body, found)


if __name__ == "__main__":
    main()
