"""What fetch costs on hostile HTML pages as they double in size.

    python bench/hostile_pages.py [--cases NAME,...] [--scale N] [--deadline-ms MS]

Each case builds a page of ``n`` repeated units (deep nesting, many siblings, huge attributes,
unclosed raw-text elements, entity floods, conflicting charsets...), serves it from a loopback
server and ``ws.fetch``-es it (markdown, ``max_bytes`` raised so that the whole page is read) at
``n`` and ``2n``; printed: the page's size, the CPU seconds of this process for each fetch, their
ratio (about 2 when the cost is linear in the page, 4 when quadratic) and the outcome (the
extractor, or the error's code). Each fetch runs in a child process forked for it, with a deadline
of ``--deadline-ms``; the wall time of the fetch at ``2n`` is printed too, and marked ``LATE`` when
it passes the deadline by more than :data:`LATE_MARGIN` of it or 100 ms, whichever is larger (a
fetch that ends at its deadline is on time). CPU time is the measure: wall time on a loaded machine
says little.
"""

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from faults import respond  # noqa: E402
from servers import FaultServer  # noqa: E402

import websearch_sync as ws  # noqa: E402

Page = tuple[bytes, str]  # body, Content-Type
#: How far past its deadline (a fraction of it, at least 100 ms) a fetch ends before it is ``LATE``:
#: a fetch that gives up at its deadline still returns, and a loaded machine delays that.
LATE_MARGIN = 0.1


def _html(body: str, content_type: str = "text/html; charset=utf-8") -> Page:
    return ("<html><head><title>t</title></head><body>%s</body></html>" % body).encode("utf-8", "surrogatepass"), (
        content_type
    )


def _nested(tag: str, opening: str = "") -> Callable[[int], Page]:
    return lambda n: _html(("<%s%s>" % (tag, opening)) * n + "deep text" + ("</%s>" % tag) * n)


def _unclosed(tag: str) -> Callable[[int], Page]:
    return lambda n: ((("<html><head><%s>" % tag) + "word " * n).encode(), "text/html")


def _table(n: int) -> Page:
    side = int(n**0.5)
    return _html("<table>" + ("<tr>" + "<td>x</td>" * side + "</tr>") * side + "</table>")


def _conflicting_charsets(n: int) -> Page:
    body = '<meta charset="windows-1251"><meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'
    text = "<html><head>%s<title>t</title></head><body>%s</body></html>" % (body, "<p>слово текст</p>" * n)
    return b"\xff\xfe" + text.encode("utf-16-le"), "text/html; charset=iso-8859-1"


CASES: dict[str, tuple[int, Callable[[int], Page]]] = {
    "nested div": (50_000, _nested("div")),
    "nested table": (20_000, lambda n: _html("<table><tr><td>" * n + "x")),
    "nested li": (50_000, lambda n: _html("<ul><li>" * n + "x")),
    "nested a": (50_000, _nested("a", " href=/x")),
    "nested b": (50_000, _nested("b")),
    "nested font": (50_000, _nested("font", " size=2")),
    "nested blockquote": (50_000, _nested("blockquote")),
    "sibling elements": (250_000, lambda n: _html("<b>x</b>" * n)),
    "sibling paragraphs": (100_000, lambda n: _html("<p>word</p>" * n)),
    "huge attribute": (1_000_000, lambda n: _html('<div title="%s">x</div>' % ("a" * n))),
    "many attributes": (50_000, lambda n: _html("<div %s>x</div>" % " ".join("a%d=x" % i for i in range(n)))),
    "long word": (1_000_000, lambda n: _html("<p>%s</p>" % ("a" * n))),
    "giant comment": (1_000_000, lambda n: _html("<!--%s--><p>x</p>" % ("a" * n))),
    "unclosed comment": (500_000, lambda n: _html("<p>x</p><!--" + "a -- " * n)),
    "many comments": (100_000, lambda n: _html("<!--x-->" * n)),
    "cdata": (1_000_000, lambda n: _html("<![CDATA[%s]]><p>x</p>" % ("a" * n))),
    "giant script": (1_000_000, lambda n: _html("<script>%s</script><p>x</p>" % ("a<" * (n // 2)))),
    "giant style": (1_000_000, lambda n: _html("<style>%s</style><p>x</p>" % ("a{" * (n // 2)))),
    "unclosed title": (200_000, _unclosed("title")),
    "unclosed textarea": (200_000, _unclosed("textarea")),
    "unclosed plaintext": (200_000, _unclosed("plaintext")),
    "unclosed xmp": (200_000, _unclosed("xmp")),
    "unclosed script": (200_000, _unclosed("script")),
    "NUL bytes": (500_000, lambda n: _html("<p>%s</p>" % ("a\x00" * n))),
    "surrogate bytes": (300_000, lambda n: _html("<p>%s</p>" % ("a\ud800" * n))),
    "surrogate entities": (100_000, lambda n: _html("<p>%s</p>" % ("&#xD800;" * n))),
    "entity flood": (200_000, lambda n: _html("<p>%s</p>" % ("&amp;&lt;&#x41;&nbsp;" * n))),
    "bad entities": (200_000, lambda n: _html("<p>%s</p>" % ("&#99999999999;&notanentity;&" * n))),
    "conflicting charsets": (50_000, _conflicting_charsets),
    "meta charset spaces": (500_000, lambda n: (b"<meta charset=" + b" " * n + b"!", "text/html")),
    "many meta refresh": (20_000, lambda n: _html('<meta http-equiv="refresh" content="0;url=/x">' * n)),
    "meta refresh long content": (500_000, lambda n: _html('<meta http-equiv=refresh content="0;%s">' % (" " * n))),
    "meta refresh semicolons": (200_000, lambda n: _html('<meta http-equiv=refresh content="0%s">' % (";url=" * n))),
    "unclosed meta refresh": (20_000, lambda n: _html("<meta http-equiv=refresh " * n)),
    "many base href": (50_000, lambda n: _html('<base href="javascript:alert(1)//">' * n + "<a href=x>l</a>")),
    "odd base href": (500_000, lambda n: _html('<base href="%s"><p><a href="x">link</a></p>' % ("/\\" * n))),
    "javascript links": (50_000, lambda n: _html('<p><a href="javascript:alert(1)">link</a> w</p>' * n)),
    "data images": (1_000_000, lambda n: _html('<p>x<img src="data:image/png;base64,%s"></p>' % ("A" * n))),
    "br run": (200_000, lambda n: _html("<p>x" + "<br>" * n + "y</p>")),
    "huge table": (250_000, _table),
    "rtl title": (
        100_000,
        lambda n: (("<title>%s</title><p>x</p>" % ("\u202e\u200b\u200fא" * n)).encode(), "text/html"),
    ),
    "markdown specials": (200_000, lambda n: _html("<p>%s</p>" % ("*_[]()#`\\<>!|~-+" * (n // 16)))),
    "markdown specials lines": (100_000, lambda n: _html("<p>%s</p>" % ("# 1. - > * " * (n // 12)))),
}


def _fetch(page: Page, deadline_ms: int) -> tuple[float, float, str]:
    body, content_type = page
    with FaultServer({"/p": respond(200, body, content_type=content_type)}) as server:
        started_cpu, started = time.process_time(), time.monotonic()
        try:
            result = ws.fetch(server.url("/p"), allow_private=True, timeout_ms=deadline_ms, max_bytes=64_000_000)
            outcome = "%s %d chars" % (result["extractor"], result["length"])
        except ws.WebSearchError as error:
            outcome = "%s/%s" % (error.code, error.detail_code)
        return time.process_time() - started_cpu, time.monotonic() - started, outcome


def fetch_cost(page: Page, deadline_ms: int) -> tuple[float, float, str]:
    """CPU seconds, wall seconds and outcome of one fetch of ``page``, in a child process of its
    own: an extraction abandoned at the deadline goes on in its thread, and would be counted
    in the next case's time."""
    parent, child = multiprocessing.Pipe(duplex=False)

    def run() -> None:
        child.send(_fetch(page, deadline_ms))
        child.close()
        os._exit(0)  # the abandoned thread dies with the child

    process = multiprocessing.get_context("fork").Process(target=run)
    process.start()
    child.close()
    try:
        return parent.recv()
    finally:
        process.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every case's n (default 1)")
    parser.add_argument("--deadline-ms", type=int, default=60_000, help="each fetch's deadline (default 60000)")
    args = parser.parse_args()
    _fetch(_html("<p>warm-up</p>"), args.deadline_ms)  # imports and first-use caches are not a case's
    chosen = [name for name in args.cases.split(",") if name] or list(CASES)
    late_after = args.deadline_ms / 1000 + max(LATE_MARGIN * args.deadline_ms / 1000, 0.1)
    print(
        "%-26s %9s %9s %8s %8s %6s %9s  %s"
        % ("case", "n", "page KB", "n: s", "2n: s", "ratio", "2n wall", "outcome at 2n")
    )
    for name in chosen:
        base, build = CASES[name]
        n = int(base * args.scale)
        small = fetch_cost(build(n), args.deadline_ms)
        page = build(2 * n)
        large = fetch_cost(page, args.deadline_ms)
        late = "  LATE" if large[1] > late_after else ""
        ratio = large[0] / max(small[0], 1e-3)
        print(
            "%-26s %9d %9d %8.2f %8.2f %6.2f %9.2f  %s%s"
            % (name, 2 * n, len(page[0]) // 1000, small[0], large[0], ratio, large[1], large[2], late),
            flush=True,
        )


if __name__ == "__main__":
    main()
