"""Whether reading XHTML served as XML with an XML parser (``reader.xhtml.xhtml_as_html``) changes what
extraction makes of a page, and what it costs: the evidence that a well-formed page reads the same.

    python bench/xhtml_as_xml.py

For every real page ``bench/binary_text.py`` reads (the extraction benchmarks' pages and the recorded
fixtures), decoded as fetch decodes a ``text/html`` body: whether it is well-formed XML
(only those are read as XML), whether ``extract_html`` gives the same title and markdown for the page
as it is and for the page read as XML and written back as HTML, and the time of that reading
against the time of the extraction over those pages.
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from binary_text import real_pages  # noqa: E402

from websearch_sync.extract.article import extract_html  # noqa: E402
from websearch_sync.net.charset import decode_body  # noqa: E402
from websearch_sync.reader.xhtml import xhtml_as_html  # noqa: E402


def main() -> None:
    """Print how many pages are well-formed XML, how many of those extract the same, and the times."""
    texts = {name: decode_body(body, "text/html") for name, body in real_pages().items()}
    well_formed = same = 0
    reading = extracting = 0.0
    for name, text in texts.items():
        started = time.perf_counter()
        read = xhtml_as_html(text)
        elapsed = time.perf_counter() - started
        if read is text:  # not well-formed: left to the HTML parser
            continue
        well_formed, reading = well_formed + 1, reading + elapsed
        started = time.perf_counter()
        as_is = extract_html(text, url="https://example.org/", mode="markdown")
        extracting += time.perf_counter() - started
        as_xml = extract_html(read, url="https://example.org/", mode="markdown")
        if (as_is.title, as_is.text) == (as_xml.title, as_xml.text):
            same += 1
        else:
            print("differs: %s" % name)
    print("pages: %d, well-formed XML: %d, extracted the same read as XML: %d" % (len(texts), well_formed, same))
    print(
        "reading as XML: %.1f ms, extraction: %.1f ms (over the well-formed pages)" % (reading * 1e3, extracting * 1e3)
    )


if __name__ == "__main__":
    main()
