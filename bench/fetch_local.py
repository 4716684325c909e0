"""Figures for fetch against a local server (no internet): latency of one fetch of a
real 40 KB article versus extraction alone, include_content's parallelism, and a 4.5 MB
page with an instant meta refresh (issue 33 item 3: deciding to follow it is bounded).

    python bench/fetch_local.py [--rounds 50]

Prints medians in milliseconds. Not a test: nothing is asserted.
"""

import argparse
import gzip
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from faults import respond  # noqa: E402
from servers import FaultServer  # noqa: E402

import websearch_sync as ws  # noqa: E402
from websearch_sync.extract.article import extract_html  # noqa: E402
from websearch_sync.net.deadline import Deadline  # noqa: E402
from websearch_sync.net.transport import HttpTransport  # noqa: E402
from websearch_sync.reader.page import add_page_content, fetch_page  # noqa: E402

ARTICLE = os.path.join(
    ROOT, "tests", "data", "fetch", "57b4dafd18cfd0531b69f81e87158648227c673ef159f8d8c87d34e34bdb21f2.html.gz"
)


def median_ms(samples):
    return statistics.median(samples) * 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    html = gzip.decompress(open(ARTICLE, "rb").read())
    settings = ws.Settings(allow_private=True)

    extract = []
    for _ in range(args.rounds):
        started = time.perf_counter()
        extract_html(html.decode("utf-8"), url="http://127.0.0.1/article", mode="markdown")
        extract.append(time.perf_counter() - started)

    def slow_page(conn, request, server):
        server.wait(0.2)
        respond(200, html)(conn, request, server)

    filler = b"<p>" + b"word " * 200 + b"</p>"
    huge = (
        b"<html><head><meta http-equiv='refresh' content='0; url=/article'></head><body>"
        + filler * (4_500_000 // len(filler))
        + b"</body></html>"
    )
    fresh, shared = [], []
    transport = HttpTransport()
    try:
        with FaultServer(
            {"/article": respond(200, html), "/huge-refresh": respond(200, huge), "*": slow_page}
        ) as server:
            for _ in range(args.rounds):
                started = time.perf_counter()
                ws.fetch(server.url("/article"), settings=settings)
                fresh.append(time.perf_counter() - started)
                started = time.perf_counter()
                fetch_page(server.url("/article"), transport=transport, settings=settings)
                shared.append(time.perf_counter() - started)
            refresh = []
            for _ in range(max(1, args.rounds // 10)):
                started = time.perf_counter()
                fetch_page(server.url("/huge-refresh"), transport=transport, settings=settings, timeout_ms=1000)
                refresh.append(time.perf_counter() - started)
            items = [{"title": "", "url": server.url("/slow%d" % i), "snippet": ""} for i in range(8)]
            started = time.perf_counter()
            errors = add_page_content(items, transport=transport, settings=settings, deadline=Deadline(10_000))
            content_s = time.perf_counter() - started
    finally:
        transport.close()

    print("article: %d bytes of HTML, %d rounds" % (len(html), args.rounds))
    print("extract_html alone (markdown, url=):   median %6.1f ms" % median_ms(extract))
    print("ws.fetch, new transport per call:        median %6.1f ms" % median_ms(fresh))
    print("fetch_page, shared transport:            median %6.1f ms" % median_ms(shared))
    print(
        "fetch_page of a %.1f MB page with an instant refresh to the article, 1000 ms deadline: median %6.1f ms"
        % (len(huge) / 1e6, median_ms(refresh))
    )
    print(
        "add_page_content, 8 pages x 200 ms server delay, 4 workers: %.0f ms total, %d errors (sequential would be >= 1600 ms)"
        % (content_s * 1000, len(errors))
    )


if __name__ == "__main__":
    main()
