"""docs/fetch.md's page shape is the one ``fetch`` returns: the documented literal's keys, in
order, against a page read from a loopback server (redirected once, as the example shows)."""

import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import websearch_sync as ws

ROOT = Path(__file__).resolve().parents[2]


def _fences(text: str, language: str) -> list[str]:
    return re.findall(r"^```%s\n(.*?)^```" % language, text, re.S | re.M)


class _Article(BaseHTTPRequestHandler):
    """``/article`` redirects to ``/article/``, an HTML article."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self.path == "/article":
            self.send_response(301)
            self.send_header("Location", "/article/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        paragraph = "<p>A paragraph of the article, long enough to be the main content of the page.</p>"
        body = (
            "<html><head><title>T</title></head><body><article><h1>Hi</h1>%s</article></body></html>" % (paragraph * 8)
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def article_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Article)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d" % server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_the_documented_page_shape_is_the_one_fetch_returns(article_server):
    block = next(
        block
        for block in _fences((ROOT / "docs" / "fetch.md").read_text(encoding="utf-8"), "python")
        if block.lstrip().startswith("{")
    )
    documented = eval(block)  # noqa: S307 - the docs' own literal
    settings = ws.Settings(impersonate="off", allow_private=True)
    page = ws.fetch(article_server + "/article", settings=settings, timeout_ms=30000)
    assert list(page) == list(documented)
    assert page["final_url"] == article_server + "/article/" and page["status"] == 200
    assert page["content_type"] == documented["content_type"] and page["extractor"] == documented["extractor"]
