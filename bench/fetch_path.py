"""Extraction time on the whole fetch path: ``websearch_sync.fetch`` of each development page
served on 127.0.0.1, beside plain readability-lxml on the same HTML string and ``extract_html``
alone, measured interleaved in this one run (issue 35: "time is fetch's", goal <= 1.2x).

    python bench/fetch_path.py [--set NAME=DIR ...] [--repeat N] [--impersonate off|chrome]

Per set: median and total ms per page of each system (best of ``--repeat`` runs per page),
the ratios to readability-lxml, and what fetch adds to ``extract_html`` (median ms). The pages
are those of ``bench/extraction.py`` (its ``DEFAULT_SETS``); each is served as
``text/html; charset=utf-8`` by a keep-alive server without Nagle's delay, in a process of its
own, so the figure is the client's work: the request, the byte cap, the answer's look (bot walls, client-side redirect),
the extraction thread and the result.
"""

import argparse
import http.server
import multiprocessing
import os
import statistics
import sys
from collections.abc import Sequence
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from extraction import DEFAULT_SETS, baseline_text, load, ours_text, run  # noqa: E402

import websearch_sync as ws  # noqa: E402


def serve(pages: dict[str, bytes]) -> "tuple[http.server.ThreadingHTTPServer, multiprocessing.process.BaseProcess]":
    """A loopback server answering ``/<index>`` with that page, serving from a child process."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            body = pages[self.path]
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # in a process of its own: its work must not share this process's GIL with the client's
    process = multiprocessing.get_context("fork").Process(target=server.serve_forever, daemon=True)
    process.start()
    return server, process


def measure(name: str, data_dir: str, repeat: int, impersonate: str) -> None:
    pages = load(data_dir)
    served = {"/%d" % index: html.encode("utf-8") for index, (_, html, _) in enumerate(pages)}
    urls = {html: "/%d" % index for index, (_, html, _) in enumerate(pages)}
    server, process = serve(served)
    base = "http://127.0.0.1:%d" % server.server_address[1]
    settings = ws.Settings(allow_private=True, impersonate=impersonate)
    client = ws.SearchClient("stub", settings=settings, cache_ttl_s=0, min_interval_s=0, retries=0)

    def through_fetch(html: str) -> str:
        try:
            return client.fetch(base + urls[html], allow_private=True, extract_mode="text", max_chars=1_000_000)["text"]
        except ws.WebSearchError:  # a page with no readable text: its time still counts
            return ""

    try:
        out = run(pages, {"readability-lxml": baseline_text, "extract_html": ours_text, "fetch": through_fetch}, repeat)
    finally:
        client.close()
        process.terminate()
        process.join()
        server.server_close()
    times = {system: figures[1] for system, figures in out.items()}
    base_total, base_median = sum(times["readability-lxml"]), statistics.median(times["readability-lxml"])
    print("%s (%d pages, best of %d, impersonate=%s):" % (name, len(pages), repeat, impersonate))
    for system, per_page in times.items():
        print(
            "  %-16s median %6.1f ms, total %8.0f ms; ÷ readability-lxml: median %.2f, total %.2f"
            % (
                system,
                statistics.median(per_page),
                sum(per_page),
                statistics.median(per_page) / base_median,
                sum(per_page) / base_total,
            )
        )
    added = [f - e for f, e in zip(times["fetch"], times["extract_html"])]
    print(
        "  fetch adds to extract_html: median %.1f ms, mean %.1f ms a page"
        % (statistics.median(added), statistics.mean(added))
    )


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=DIR", help="a development set (default: all three)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per page; the best counts (default 3)")
    parser.add_argument("--impersonate", default="off", help="off (requests) or chrome (the browser extra)")
    args = parser.parse_args(argv)
    sets = [tuple(spec.split("=", 1)) for spec in args.set] or list(DEFAULT_SETS)
    for name, data_dir in sets:
        measure(name, data_dir, args.repeat, args.impersonate)
    return 0


if __name__ == "__main__":
    sys.exit(main())
