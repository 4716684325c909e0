"""The whole fetch path as a benchmark system: ``SearchClient.fetch`` of a page served on
127.0.0.1, for ``bench/extraction.py`` and ``bench/fetch_path.py`` (issue 35: "time is
fetch's").

Each page is served as ``text/html; charset=utf-8`` by a keep-alive server without Nagle's
delay, in a process of its own (its work must not share the client's GIL), so what is timed is
the client's work: the request, the byte cap, the answer's look (bot walls, client-side
redirect), the extraction and the result.
"""

import contextlib
import http.server
import multiprocessing
from collections.abc import Iterator, Sequence
from typing import Callable, Optional

import websearch_sync as ws
from websearch_sync.extract.article import extract_html


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
    process = multiprocessing.get_context("fork").Process(target=server.serve_forever, daemon=True)
    process.start()
    return server, process


def _extracted(html: str, url: str) -> str:
    return extract_html(html, url=url, mode="text").text


@contextlib.contextmanager
def requests_floor_system(
    htmls: Sequence[str], read: Callable[[str, str], str] = _extracted
) -> Iterator[Callable[[str], str]]:
    """The floor of any fetch over ``requests``: a plain ``requests.Session`` GET of the page
    from the same kind of loopback server (no deadline, byte cap, address check, redirect or
    bot-wall look), its ``text``, then ``read(text, url)``: by default ``extract_html`` (text
    mode), what the fetch path would cost were all of its own work free; ``bench/fetch_path.py
    --fetched-baseline`` reads it with readability-lxml instead (what a readability-lxml user
    who gets the page with ``requests`` pays)."""
    import requests

    paths = {html: "/%d" % index for index, html in enumerate(htmls)}
    server, process = serve({path: html.encode("utf-8") for html, path in paths.items()})
    base = "http://127.0.0.1:%d" % server.server_address[1]
    session = requests.Session()

    def through_requests(html: str) -> str:
        response = session.get(base + paths[html], timeout=30)
        return read(response.text, response.url)

    try:
        yield through_requests
    finally:
        session.close()
        process.terminate()
        process.join()
        server.server_close()


@contextlib.contextmanager
def fetch_system(
    htmls: Sequence[str],
    impersonate: Optional[str] = None,
    mode: str = "text",
    timeout_ms: int = ws.Settings.timeout_ms,
) -> Iterator[Callable[[str], str]]:
    """A system ``html -> text`` for ``extraction.run`` that fetches the page holding ``html``
    (one of ``htmls``) from a loopback server started for the block; a page with no readable
    text gives ``""`` (its time still counts). ``impersonate``: the wire, by default the one a
    user gets (``None``: the browser wire when the ``browser`` extra is installed, else
    ``requests``; :func:`wire_name` says which). ``timeout_ms``: each fetch's deadline (under
    valgrind the first fetch, which imports the fetch path, takes longer than the default)."""
    paths = {html: "/%d" % index for index, html in enumerate(htmls)}
    server, process = serve({path: html.encode("utf-8") for html, path in paths.items()})
    base = "http://127.0.0.1:%d" % server.server_address[1]
    settings = ws.Settings(allow_private=True, impersonate=impersonate, timeout_ms=timeout_ms)
    client = ws.SearchClient("stub", settings=settings, cache_ttl_s=0, min_interval_s=0, retries=0)

    def through_fetch(html: str) -> str:
        try:
            return client.fetch(base + paths[html], allow_private=True, extract_mode=mode, max_chars=1_000_000)["text"]
        except ws.WebSearchError:
            return ""

    try:
        yield through_fetch
    finally:
        client.close()
        process.terminate()
        process.join()
        server.server_close()


def wire_name(impersonate: Optional[str]) -> str:
    """What ``impersonate`` (``None``: the library's default) resolves to on this machine, said as
    the wire it picks: ``chrome (browser wire)`` or ``off (requests)``."""
    from websearch_sync.net.browser import resolve_impersonate

    profile = resolve_impersonate(impersonate)
    return "%s%s" % (profile, " (requests)" if profile == "off" else " (browser wire)")


@contextlib.contextmanager
def mock_fetch_system(htmls: Sequence[str], timeout_ms: int = ws.Settings.timeout_ms) -> Iterator[Callable[[str], str]]:
    """:func:`fetch_system` with each page answered in the process (``testing.MockWire``, the
    browser wire's request building): no socket and no wait, so what is counted is fetch's own
    work and the extraction, a count the load does not move (``bench/extraction_instructions.py``)."""
    from websearch_sync import testing

    base = "http://127.0.0.1:8080"
    paths = {html: "/%d" % index for index, html in enumerate(htmls)}
    answers = {
        base + path: testing.MockResponse(200, {"Content-Type": "text/html; charset=utf-8"}, html.encode("utf-8"))
        for html, path in paths.items()
    }
    wire = testing.MockWire(lambda request: answers[request.url])
    settings = ws.Settings(allow_private=True, impersonate="chrome", timeout_ms=timeout_ms)
    client = ws.SearchClient("stub", settings=settings, cache_ttl_s=0, min_interval_s=0, retries=0, wire=wire)

    def through_fetch(html: str) -> str:
        wire.requests.clear()  # (it lists every request it answered)
        try:
            return client.fetch(base + paths[html], allow_private=True, extract_mode="text", max_chars=1_000_000)[
                "text"
            ]
        except ws.WebSearchError:
            return ""

    try:
        yield through_fetch
    finally:
        client.close()
