"""Where one warm search's CPU goes, section by section, ours beside ddgs's engine.

    python bench/search_sections.py [--searches N] [--wire chrome|off|ddgs ...]

The same loopback upstream and recorded DuckDuckGo page as figure 2 of ``bench/transport.py``
(served from another process, answering at once, so only the client's CPU is counted). Each
section is timed in place: the process's CPU time (all threads) around each call of the
function named, summed over a batch of searches; the batch with the lowest total of
:data:`BATCHES` is printed. Nested sections include the timing of the ones inside them
(about 1 us a call); a section's callers are indented above it. ``ddgs`` is ddgs's DuckDuckGo
engine (``pip install ddgs``; skipped with a message when missing): its request (primp, with
``.text``), its lxml parse and its item extraction.

Figure 2 of ``bench/transport.py`` gives the totals the targets are about; this script says
which part of a total to work on.
"""

import argparse
import functools
import importlib
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import transport  # noqa: E402  (bench/transport.py: the upstream and the contenders)

BATCHES = 6

_OURS = "websearch_sync."
#: (module, attribute path, label) of the sections timed; the labels' indentation is the nesting.
SECTIONS = {
    "ours": [
        (_OURS + "client.search_client", "SearchClient._plan", "client: validation (_plan)"),
        (_OURS + "client.search_client", "SearchClient._search_key", "client: cache key"),
        (_OURS + "client.strategies", "normalize_items", "client: normalize_items (the result's items)"),
        (_OURS + "engine.base", "Backend.search", "engine.search"),
        (_OURS + "engine.html_engine", "HtmlEngine.build_request", "  build_request"),
        (_OURS + "net.transport", "HttpTransport.send", "  transport.send"),
        (_OURS + "net.exchange", "wire_request", "    wire_request (encoding, header checks)"),
        (_OURS + "engine.base", "Backend._parse", "  engine._parse"),
        (_OURS + "net.response", "decode_body", "    decode_body"),
        (_OURS + "engine.html_engine", "HtmlEngine.classify", "    classify (bot walls, with the decode)"),
        (_OURS + "engine.html_engine", "HtmlEngine.read_page", "    read_page"),
        (_OURS + "backends.ddg", "region", "      region"),
        (_OURS + "backends.ddg", "_parse_html_template", "      _parse_html_template"),
        (_OURS + "engine.html_parsing", "reduce_markup", "        reduce_markup (noise and indent passes)"),
        (_OURS + "engine.html_parsing", "parse_html", "        lxml parse"),
        (_OURS + "engine.html_parsing", "thin_crowded_tags", "          thin_crowded_tags (the bound on attributes)"),
        (_OURS + "backends.ddg", "walk_blocks", "        walk_blocks"),
        (_OURS + "backends.ddg", "_result", "        _result (each item's link and date)"),
    ],
    "chrome": [
        (_OURS + "net.wire_curl", "CurlWire.exchange", "    wire.exchange (browser wire)"),
        (_OURS + "net.wire_curl", "CurlWire._configure", "      handle options (only those that differ)"),
        (_OURS + "net.wire_curl", "run_interruptibly", "      perform, callbacks and the Ctrl-C hand-off"),
        ("curl_cffi.curl", "Curl.perform", "        Curl.perform (libcurl and the callbacks)"),
    ],
    "off": [(_OURS + "net.wire_requests", "RequestsWire.exchange", "    wire.exchange (requests wire)")],
    "ddgs": [
        ("ddgs.base", "BaseSearchEngine.request", "request (primp, .text)"),
        ("ddgs.base", "BaseSearchEngine.extract_results", "extract_results"),
        ("ddgs.base", "BaseSearchEngine.extract_tree", "  lxml parse of the page"),
        ("ddgs.engines.duckduckgo", "Duckduckgo.post_extract_results", "post_extract_results"),
    ],
}


def timed(sections: list, spent: dict) -> Callable[[], None]:
    """Wrap each section's function so that its CPU time adds up in ``spent``; returns the undo."""
    undo = []
    for module, path, label in sections:
        *owners, name = path.split(".")
        owner: Any = importlib.import_module(module)
        for part in owners:
            owner = getattr(owner, part)
        original = getattr(owner, name)

        @functools.wraps(original)  # the registry reads the signature of a kit's method (Backend.search)
        def wrapper(*args: Any, _original: Any = original, _label: str = label, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return _original(*args, **kwargs)
            finally:
                spent[_label] = spent.get(_label, 0.0) + time.process_time() - started

        setattr(owner, name, wrapper)
        undo.append((owner, name, original))

    def restore() -> None:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)

    return restore


def measure(wire: str, url: str, searches: int) -> None:
    """Print one contender's total and sections per search (its least disturbed batch)."""
    made = transport.ddgs_engine(url) if wire == "ddgs" else transport.ours(url, wire)
    if made is None:
        print("== ddgs: not installed (pip install ddgs to compare): skipped")
        return
    search, close = made
    spent: dict = {}
    sections_timed = SECTIONS["ddgs"] if wire == "ddgs" else SECTIONS["ours"] + SECTIONS[wire]
    restore = timed(sections_timed, spent)
    try:
        for index in range(30):
            search("warm up %d" % index)
        size = max(1, searches // BATCHES)
        best, sections = float("inf"), {}
        for batch in range(BATCHES):
            spent.clear()
            started = time.process_time()
            for index in range(size):
                search("query %d %d" % (batch, index))
            total = (time.process_time() - started) / size
            if total < best:
                best, sections = total, {label: value / size for label, value in spent.items()}
    finally:
        restore()
        close()
    print("== %s: %.0f us per search (best of %d batches of %d)" % (wire, best * 1e6, BATCHES, size))
    for _, _, label in sorted(sections_timed, key=_in_call_order):
        if label in sections:
            print("   %-58s %6.0f us" % (label, sections[label] * 1e6))


#: Where each wire's own sections go among the shared ones (they run inside ``transport.send``).
_ORDER = [label for _, _, label in SECTIONS["ours"][:7] + SECTIONS["chrome"] + SECTIONS["off"] + SECTIONS["ours"][7:]]


def _in_call_order(section: tuple) -> int:
    label = section[2]
    return _ORDER.index(label) if label in _ORDER else [s[2] for s in SECTIONS["ddgs"]].index(label)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=1800)
    parser.add_argument("--wire", nargs="+", default=["chrome", "ddgs", "off"], choices=["chrome", "off", "ddgs"])
    args = parser.parse_args()
    child, url = transport.serve_elsewhere(False)
    try:
        for wire in args.wire:
            measure(wire, url, args.searches)
    finally:
        child.kill()
        child.wait()


if __name__ == "__main__":
    main()
