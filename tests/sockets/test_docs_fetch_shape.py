"""docs/fetch.md's page shape is the one ``fetch`` returns: the documented literal's keys, in
order, against a page read from a loopback server (redirected once, as the example shows)."""

import re
from pathlib import Path

from faults import redirect, respond
from servers import FaultServer

import websearch_sync as ws

ROOT = Path(__file__).resolve().parents[2]
_PARAGRAPH = b"<p>A paragraph of the article, long enough to be the main content of the page.</p>"
_ARTICLE = b"<html><head><title>T</title></head><body><article><h1>Hi</h1>%s</article></body></html>" % (_PARAGRAPH * 8)


def test_the_documented_page_shape_is_the_one_fetch_returns():
    text = (ROOT / "docs" / "fetch.md").read_text(encoding="utf-8")
    block = next(block for block in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M) if block.startswith("{"))
    documented = eval(block)  # noqa: S307 - the docs' own literal
    settings = ws.Settings(impersonate="off", allow_private=True)
    with FaultServer({"/article": redirect("/article/", 301), "/article/": respond(200, _ARTICLE)}) as server:
        page = ws.fetch(server.url("/article"), settings=settings, timeout_ms=30000)
    assert list(page) == list(documented)
    assert page["final_url"] == server.url("/article/") and page["status"] == 200
    assert page["content_type"] == documented["content_type"] and page["extractor"] == documented["extractor"]
