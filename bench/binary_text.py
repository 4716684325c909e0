"""How much of a decoded body is what text does not hold (``reader.pagetext.binary``'s measure):
real pages against binary data declared as text, the evidence for its one-tenth threshold.

    python bench/binary_text.py

For every page of the extraction benchmarks (../shared/extraction-benchmark*, bench/
extraction-structures) and every recorded fixture (fixtures/), decoded as fetch decodes a
``text/html`` body, and for random bytes, zlib data, a PNG of noise and a zip archive: the
share of the first 4096 characters that are control characters or U+FFFD. Prints the
largest share among real pages, the smallest among binary samples, and how many of each
``binary()`` calls binary.
"""

import gzip
import io
import os
import sys
import zipfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websearch_sync.net.charset import decode_body  # noqa: E402
from websearch_sync.reader.pagetext import _BINARY, _BINARY_SAMPLE, binary  # noqa: E402


def _shared(name: str) -> Path:
    """../shared/<name> next to the checkout (or next to the worktree's parent)."""
    for up in (1, 2):
        candidate = ROOT.joinpath(*[".."] * up, "shared", name).resolve()
        if candidate.exists():
            return candidate
    return ROOT / ".." / "shared" / name


def real_pages() -> dict[str, bytes]:
    """Every benchmark page and recorded HTML, text or JSON fixture, by path."""
    pages = {}
    for folder in (_shared("extraction-benchmark"), _shared("extraction-benchmark-readability"), ROOT / "bench"):
        for path in sorted(folder.rglob("*.html.gz")):
            pages[str(path)] = gzip.decompress(path.read_bytes())
    for path in sorted((ROOT / "fixtures").rglob("*")):
        if path.suffix in (".html", ".json", ".txt", ".md") and path.is_file():
            pages[str(path)] = path.read_bytes()
    return pages


def binary_samples() -> dict[str, bytes]:
    """Binary data a server may label text: random bytes, compressed data, an image, an archive."""
    from PIL import Image  # the images extra (in the test extra)

    png = io.BytesIO()
    Image.frombytes("RGB", (100, 100), os.urandom(30_000)).save(png, format="PNG")
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("data.bin", os.urandom(50_000))
    return {
        "random bytes": os.urandom(50_000),
        "zlib data": zlib.compress(b"words of a page " * 5000 + os.urandom(5000)),
        "png of noise": png.getvalue(),
        "zip archive": archive.getvalue(),
    }


def share(body: bytes) -> float:
    """The share of the first characters of ``body``, decoded as a text/html body, text does not hold."""
    sample = decode_body(body, "text/html")[:_BINARY_SAMPLE]
    return len(_BINARY.findall(sample)) / max(1, len(sample))


def main() -> None:
    """Print the shares and the verdicts."""
    real, samples = real_pages(), binary_samples()
    shares = sorted((share(body), name) for name, body in real.items())
    called = [name for name, body in real.items() if binary(decode_body(body, "text/html"))]
    print("real pages: %d, largest share %.4f (%s), called binary: %d" % (len(real), *shares[-1], len(called)))
    for name, body in samples.items():
        verdict = binary(decode_body(body, "text/html"))
        print("%-13s share %.3f, called binary: %s" % (name, share(body), verdict))


if __name__ == "__main__":
    main()
