"""How much of a decoded body is what text does not hold (``reader.pagetext.binary``'s measure):
real pages against binary data declared as text, the evidence for its one-tenth threshold.

    python bench/binary_text.py

For every page of the extraction benchmarks (../shared/extraction-benchmark*, bench/
extraction-structures) and every recorded fixture (fixtures/), decoded as fetch decodes a
``text/html`` body, and for random bytes, zlib data, a PNG of noise and a zip archive: the
share of the first 4096 characters that are control characters or U+FFFD. Prints the
largest share among real pages, the smallest among binary samples, and how many of each
``binary()`` calls binary; then how many real pages, made XML documents in each form of Unicode
XML reads without a byte-order mark (UTF-16 and UTF-32, either byte order: XML 1.0 Appendix F),
``binary()`` calls binary once decoded as fetch decodes an ``application/xml`` body.
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


#: The forms of Unicode an XML document may be in without a byte-order mark, besides UTF-8's kin.
WIDE_FORMS = ("utf-16-be", "utf-16-le", "utf-32-be", "utf-32-le")


def as_wide_xml(body: bytes, form: str) -> bytes:
    """A real page as an XML document in ``form`` with no byte-order mark: its text behind an XML
    declaration naming the encoding, which is all XML has to say which form it is."""
    text = decode_body(body, "text/html").lstrip("\ufeff \t\r\n")
    return ('<?xml version="1.0" encoding="%s"?>\n' % form[:6].upper() + text).encode(form, errors="replace")


def main() -> None:
    """Print the shares and the verdicts."""
    real, samples = real_pages(), binary_samples()
    shares = sorted((share(body), name) for name, body in real.items())
    called = [name for name, body in real.items() if binary(decode_body(body, "text/html"))]
    print("real pages: %d, largest share %.4f (%s), called binary: %d" % (len(real), *shares[-1], len(called)))
    for name, body in samples.items():
        verdict = binary(decode_body(body, "text/html"))
        print("%-13s share %.3f, called binary: %s" % (name, share(body), verdict))
    for form in WIDE_FORMS:
        documents = [as_wide_xml(body, form) for body in real.values()]
        called = [doc for doc in documents if binary(decode_body(doc, "application/xml"))]
        print("real pages as %s XML without a BOM: %d, called binary: %d" % (form, len(documents), len(called)))


if __name__ == "__main__":
    main()
