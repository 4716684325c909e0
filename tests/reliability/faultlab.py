"""The fault lab: a misbehaving HTTP server on 127.0.0.1 and the matrix that runs every
registered network backend, and fetch, against every fault.

Used by the reliability tests (``tests/reliability/test_fault_matrix.py``) and by
``bench/reliability.py``, which prints the matrix. Nothing here asserts: a cell
records what happened (error code, detail, wall time, peak memory, whether the same
client still answers a good request afterwards) and whether that is what
:data:`EXPECTED` says it must be.

The server (:class:`LabServer`) is the raw-socket ``FaultServer`` of ``tests/servers.py``
with a bound on concurrent connections and on every behaviour (an endless body stops
after ``faults.ENDLESS_CAP_BYTES`` or when the server stops; the server stops by itself
after ``max_lifetime_s``). A request for ``/<target>/<fault>`` is answered with that
fault, shaped for the target (an HTML scraper, a JSON API, or fetch).
"""

import contextlib
import gzip
import json
import random
import socket
import sys
import threading
import time
import traceback
import tracemalloc
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ContextManager, Optional

ROOT = Path(__file__).resolve().parents[2]
for _path in (ROOT / "tests", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import faults as catalogue  # noqa: E402
from backend_kit import dummy_config, network_backends, recorded_exchanges, recorded_success  # noqa: E402,F401
from clocks import FakeClock, Pace, PaceMonitor, deadline_margin_s, machine_pace, paced_budget_s  # noqa: E402
from servers import FaultServer  # noqa: E402

import websearch_sync as ws  # noqa: E402
from websearch_sync.contract.cases import contract_violations  # noqa: E402
from websearch_sync.engine import registry  # noqa: E402
from websearch_sync.net.charset import decode_body  # noqa: E402
from websearch_sync.net.ssrf import static_resolver  # noqa: E402
from websearch_sync.net.transport import HttpTransport  # noqa: E402
from websearch_sync.reader.page import fetch_page  # noqa: E402

FIXTURES = ROOT / "fixtures"
FETCH_DATA = ROOT / "tests" / "data" / "fetch"

#: Deadline of one call in the matrix (ms); what a call may take beyond it is
#: :attr:`Cell.margin_s`, from the machine's measured lateness. Faults that
#: must end in Timeout (stalls, trickles) get the short deadline, so the suite stays fast;
#: the others get a longer one, which they only use on a badly loaded machine (a redirect
#: loop is six connections): their classification must not depend on the machine's load.
DEADLINE_MS = 600
CLASSIFY_DEADLINE_MS = 10_000
#: How often the matrix samples the machine's pace while a timed call runs (``clocks.PaceMonitor``:
#: 10 ms of CPU spun a sample). A call that runs near its deadline (the timed ones) sees at least
#: three samples; one that ends far sooner needs none, and ``PaceMonitor.watch`` takes one more
#: when it saw fewer than two. At 0.1 s the sampler spun a tenth of a core for the whole matrix.
PACE_EVERY_S = 0.2
RECOVERY_DEADLINE_MS = 10_000  #: the good request after each fault
#: Byte caps of the matrix: search responses and fetch reads.
MAX_BYTES = 1_000_000
#: Peak traced memory allowed for the gzip bomb and the endless body. Search reads at most
#: the cap and refuses the rest: about the cap. Fetch extracts what it read (readability
#: and the renderer hold a few copies of the page): a small multiple of the cap.
MEMORY_LIMITS = {"html": 2 * MAX_BYTES, "json": 2 * MAX_BYTES, "fetch": 10 * MAX_BYTES}
#: What a gzip bomb expands to.
BOMB_EXPANDED_BYTES = 200_000_000
#: Retry-After of the "429 with Retry-After" fault (seconds).
RETRY_AFTER_S = 1
#: Dummy credential every keyed backend gets (tests check it never leaks).
DUMMY_KEY = "lab-KEY-5e1f0c2b9a77d3"
#: Fetch reads pages from this name, which the injected resolver maps to 127.0.0.1
#: (trusted), so that a redirect to a *private* address is still refused.
FETCH_HOST = "pages.faultlab.test"
PRIVATE_TARGET = "http://169.254.169.254/latest/meta-data/"

_GARBAGE = bytes(random.Random(9).getrandbits(8) for _ in range(4096)) + b"\x00\xff\xfe\x00"


# -- targets: what a fault is shaped for ------------------------------------------------------------


@dataclass
class Target:
    """One thing put under faults: a search backend (``kind`` html/json) or fetch."""

    name: str
    kind: str  #: "html", "json" or "fetch"
    good_body: bytes
    good_type: str
    captcha_body: Optional[bytes] = None
    query: str = "fault lab"
    max_results: int = 5
    options: dict[str, Any] = field(default_factory=dict)
    golden_items: Optional[list[dict[str, Any]]] = None  #: what the good answer must give
    follows_redirects: bool = True  #: False for an engine whose redirects are answers (``HtmlEngine.follow_redirects``)
    #: The fault whose answer is the good request after each cell (:meth:`Runner._after`).
    recovery: str = "good"


def _lab_success(name: str) -> Any:
    """The good answer of ``name`` in the lab: of its real recorded successes with the most items
    (``recorded_success``'s first criteria), the smallest page. Every cell parses it once more (the
    good request after each fault): Bing's 64 KB page of ten results serves as its 115 KB one did,
    through the same engine, at half the parsing."""
    best = recorded_success(name)
    synthetic = (best.case.meta.get("provenance") or {}).get("status") == "synthetic"
    same_rank = [
        recorded
        for recorded in recorded_exchanges(name)
        if recorded.response.get("status") == 200
        and recorded.body
        and len(recorded.golden.get("items") or ()) == len(best.golden["items"])
        and ((recorded.case.meta.get("provenance") or {}).get("status") == "synthetic") == synthetic
    ]
    return min(same_rank, key=lambda recorded: (len(recorded.body), recorded.case.name))


def search_target(name: str) -> Target:
    """The target for backend ``name``: its best recorded success (:func:`_lab_success`) and its own recorded
    bot wall (``WebBlocked/captcha_required`` with HTTP 200), from ``fixtures/<name>/``."""
    cls = registry.backend_class(name)
    good = _lab_success(name)
    captcha = next(
        (
            r.body
            for r in recorded_exchanges(name)
            if r.response.get("status") == 200 and r.body and r.error.get("detail_code") == "captcha_required"
        ),
        None,
    )
    return Target(
        name=name,
        kind="json" if cls.kind == "json" else "html",
        good_body=good.body,
        good_type=good.content_type,
        captcha_body=captcha,
        query=good.case.meta.get("query") or "fault lab",
        max_results=good.case.meta.get("max_results") or 5,
        options=dict(good.case.meta.get("options") or {}),
        golden_items=good.golden["items"],
        follows_redirects=getattr(cls, "follow_redirects", True),
    )


def fetch_target() -> Target:
    """Fetch reads a real recorded article; its bot walls are DuckDuckGo's and Baidu's recorded pages."""
    article = gzip.decompress(next(FETCH_DATA.glob("*.html.gz")).read_bytes())
    return Target(
        name="fetch",
        kind="fetch",
        good_body=article,
        good_type="text/html; charset=utf-8",
        captcha_body=(FIXTURES / "ddg_html" / "meka__ddg_anomaly.html").read_bytes(),
        recovery="short_page",
    )


def all_targets() -> list[Target]:
    """Every network backend, then fetch."""
    return [search_target(name) for name in network_backends()] + [fetch_target()]


# -- the server -----------------------------------------------------------------------------------


Handler = Callable[[socket.socket, Any, FaultServer], None]


class LabServer(FaultServer):
    """``FaultServer`` with a bound on concurrent connections, answering ``/<target>/<fault>``.

    ``handlers[(target, fault)]`` answers; :meth:`url` builds the endpoint of a cell.
    The server stops by itself after ``max_lifetime_s`` and every behaviour ends when
    it stops. ``log`` lists ``(monotonic time, target, fault answered, fault in the URL)``
    of every request (they differ when ``chooser`` picks the fault).
    """

    def __init__(
        self,
        targets: Sequence[Target],
        *,
        max_connections: int = 64,
        max_lifetime_s: float = 300.0,
        chooser: Optional[Callable[[str, str], str]] = None,
    ) -> None:
        super().__init__({"*": self._dispatch}, max_lifetime_s=max_lifetime_s)
        self.targets = {t.name: t for t in targets}
        self.handlers: dict[tuple[str, str], Handler] = {}
        self.slots = threading.BoundedSemaphore(max_connections)
        self.log: list[tuple[float, str, str, str]] = []
        self.chooser = chooser  #: ``chooser(target, fault) -> fault``: e.g. random faults per request

    def cell_url(self, target: str, fault: str, tail: str = "") -> str:
        """The URL whose requests are answered with ``fault`` shaped for ``target``."""
        return self.url("/%s/%s%s" % (target, fault, tail))

    def requests_for(self, target: str) -> int:
        """How many requests for ``target`` arrived so far."""
        with self._lock:
            return sum(1 for entry in self.log if entry[1] == target)

    def _serve(self, conn: socket.socket) -> None:
        if not self.slots.acquire(timeout=5):  # bounded: refuse work beyond max_connections
            conn.close()
            return
        try:
            super()._serve(conn)
        finally:
            self.slots.release()

    def _dispatch(self, conn: socket.socket, request: Any, server: FaultServer) -> None:
        parts = request.route.strip("/").split("/")
        target, asked = (parts + ["", ""])[:2]
        fault = self.chooser(target, asked) if self.chooser is not None else asked
        with self._lock:
            self.log.append((time.monotonic(), target, fault, asked))
        handler = self.handlers.get((target, fault))
        if handler is None:
            handler = self.handlers[(target, fault)] = build_handler(FAULTS[fault], self.targets[target], self)
        handler(conn, request, server)


class AliasServer(FaultServer):
    """A ``FaultServer`` listening on another loopback address (default 127.0.0.2), so a
    test can trust that one address while 127.0.0.1 stays a forbidden target."""

    def __init__(self, routes: dict[str, Handler], host: str = "127.0.0.2", **kwargs: Any) -> None:
        super().__init__(routes, **kwargs)
        self.host = host

    def url(self, path: str = "/") -> str:
        return "http://%s:%d%s" % (self.host, self.port, path)

    def __enter__(self) -> "AliasServer":
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind((self.host, 0))
        self._listener.listen(64)
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self._started = time.monotonic()
        thread = threading.Thread(target=self._accept_loop, name="alias-server", daemon=True)
        thread.start()
        self._threads.append(thread)
        return self


# -- the faults of the catalogue (tests/faults.py), shaped per target ------------------------------


def _wrong_format(target: Target) -> tuple[bytes, str]:
    """JSON where HTML is expected (scrapers), HTML where JSON is expected (APIs, and fetch told JSON)."""
    if target.kind == "html":
        return json.dumps({"results": [{"title": "t", "url": "https://example.com/"}]}).encode(), "application/json"
    page = b"<!DOCTYPE html><html><head><title>Welcome</title></head><body><h1>Welcome</h1><p>Nothing to see.</p></body></html>"
    return page, "application/json" if target.kind == "fetch" else "text/html; charset=utf-8"


def _endless_chunk(target: Target) -> bytes:
    return b"<p>" + b"a" * 65530 if target.kind != "json" else b'{"x": "' + b"a" * 65530


def _as(target: Target, charset: str) -> str:
    """The target's good Content-Type, declaring ``charset``."""
    return target.good_type.split(";")[0] + "; charset=" + charset


@dataclass
class Fault:
    """One misbehaviour: ``build(target, server)`` makes its handler (``None``: no server involved)."""

    name: str
    summary: str
    build: Callable[[Target, "LabServer"], Optional[Handler]]
    memory: bool = False  #: measure peak memory (the byte cap must hold)
    endpoint: Optional[Callable[["LabServer", Target], str]] = None  #: a URL other than the server's


FAULT_LIST = [
    Fault(
        "refused",
        "connection refused (nothing listens on the port)",
        lambda t, s: None,
        endpoint=lambda server, target: "http://127.0.0.1:%d/%s" % (catalogue.refused_port(), target.name),
    ),
    Fault("never_answer", "accepts, reads the request, never answers", lambda t, s: catalogue.never_answer()),
    Fault(
        "headers_then_stall",
        "sends the headers, then nothing",
        lambda t, s: catalogue.stall_after_headers(declared_length=100_000),
    ),
    # at most 3000 bytes: a trickle that ends before the server stops
    Fault(
        "trickle",
        "the good body, one byte every 10 ms",
        lambda t, s: catalogue.trickle(t.good_body, 0.01, t.good_type, max_bytes=3000),
    ),
    # at most 16 KB before the reset: a big page (Baidu's is 900 KB) would make the
    # outcome depend on how fast a loaded machine reads it within the short deadline
    Fault(
        "reset_mid_body",
        "half the body, then a TCP reset",
        lambda t, s: catalogue.reset_mid_body(
            t.good_body[: max(1, min(len(t.good_body) // 2, 16384))], len(t.good_body), t.good_type
        ),
    ),
    Fault(
        "truncated_chunked",
        "a chunked body cut inside a chunk",
        lambda t, s: catalogue.truncated_chunked(t.good_body[:200], t.good_body[200:300], t.good_type),
    ),
    Fault(
        "length_too_long",
        "Content-Length larger than the body, then close",
        lambda t, s: catalogue.wrong_length(len(t.good_body), t.good_body[:300], t.good_type),
    ),
    Fault(
        "length_too_short",
        "Content-Length: 12 on the whole good body",
        lambda t, s: catalogue.wrong_length(12, t.good_body, t.good_type),
    ),
    Fault(
        "no_length",
        "the good body without Content-Length, ended by close",
        lambda t, s: catalogue.respond(200, t.good_body, {"Content-Length": None}, t.good_type),
    ),
    Fault(
        "invalid_gzip",
        "Content-Encoding: gzip on bytes that are not gzip",
        lambda t, s: catalogue.invalid_gzip(t.good_type),
    ),
    Fault(
        "gzip_bomb",
        "~200 KB of gzip expanding to %d MB of NUL bytes" % (BOMB_EXPANDED_BYTES // 1_000_000),
        lambda t, s: catalogue.gzip_bomb(BOMB_EXPANDED_BYTES, t.good_type),
        memory=True,
    ),
    Fault(
        "endless",
        "a chunked body that never ends",
        lambda t, s: catalogue.endless(t.good_type, _endless_chunk(t)),
        memory=True,
    ),
    Fault(
        "redirect_loop",
        "302 to itself, forever",
        lambda t, s: catalogue.redirect("/%s/redirect_loop" % t.name),
    ),
    Fault(
        "redirect_private",
        "302 to the cloud metadata address",
        lambda t, s: catalogue.redirect(PRIVATE_TARGET),
    ),
    Fault(
        "redirect_endless",
        "302 to the good answer, with an endless body",
        lambda t, s: catalogue.endless(
            "text/html", b"r" * 65536, status=302, headers={"Location": "/%s/good" % t.name}
        ),
        memory=True,
    ),
    Fault(
        "redirect_malformed",
        "302 to 'http://[::1' (an invalid IPv6 literal)",
        lambda t, s: catalogue.redirect("http://[::1"),
    ),
    Fault("empty_200", "200 with an empty body", lambda t, s: catalogue.respond(200, b"", content_type=t.good_type)),
    Fault(
        "binary_garbage",
        "200 with random bytes and no Content-Type",
        lambda t, s: catalogue.respond(200, _GARBAGE, content_type=None),
    ),
    Fault(
        "wrong_charset",
        "the good (UTF-8) body declared as windows-1252",
        lambda t, s: catalogue.respond(200, t.good_body, content_type=_as(t, "windows-1252")),
    ),
    Fault(
        "unknown_charset",
        "the good body declared in a charset that does not exist",
        lambda t, s: catalogue.respond(200, t.good_body, content_type=_as(t, "x-no-such-charset")),
    ),
    Fault(
        "wrong_format",
        "HTML where JSON is expected, JSON where HTML is expected",
        lambda t, s: catalogue.respond(200, _wrong_format(t)[0], content_type=_wrong_format(t)[1]),
    ),
    Fault(
        "http_429_retry_after",
        "429 with Retry-After: %d" % RETRY_AFTER_S,
        lambda t, s: catalogue.respond(429, b"Too Many Requests", {"Retry-After": str(RETRY_AFTER_S)}, "text/plain"),
    ),
    Fault(
        "http_429",
        "429 without Retry-After",
        lambda t, s: catalogue.respond(429, b"Too Many Requests", content_type="text/plain"),
    ),
    Fault(
        "http_503",
        "503 Service Unavailable",
        lambda t, s: catalogue.respond(503, b"<html><body>down</body></html>", content_type="text/html"),
    ),
    Fault(
        "captcha_200",
        "a recorded captcha page served with 200",
        lambda t, s: catalogue.respond(
            200, t.captcha_body or (FIXTURES / "ddg_html" / "meka__ddg_anomaly.html").read_bytes()
        ),
    ),
]
FAULTS: dict[str, Fault] = {f.name: f for f in FAULT_LIST}
FAULTS["good"] = Fault(
    "good", "the recorded good answer", lambda t, s: catalogue.respond(200, t.good_body, content_type=t.good_type)
)
#: Fetch's good request after each cell: whether the transport still reads a page is about its
#: state, not the page; extracting the recorded article (~10 ms of CPU) after each of fetch's 50 cells is the
#: cells' own work (no_length, wrong_charset, unknown_charset, endless ... serve it).
SHORT_PAGE = (
    "<html><head><title>Recovered</title></head><body><article><h1>Recovered</h1>"
    + "<p>The transport read this page after the fault: its connections are usable again.</p>" * 3
    + "</article></body></html>"
).encode()
FAULTS["short_page"] = Fault(
    "short_page",
    "a short readable page",
    lambda t, s: catalogue.respond(200, SHORT_PAGE, content_type="text/html; charset=utf-8"),
)


def build_handler(fault: Fault, target: Target, server: LabServer) -> Handler:
    """The handler of ``fault`` for ``target``."""
    handler = fault.build(target, server)
    if handler is None:
        raise LookupError("fault %s has no server behaviour" % fault.name)
    return handler


# -- what each cell must give ---------------------------------------------------------------------

#: ``(code, detail_codes)``; code ``"ok"`` means a valid contract result (fetch: a page).
#: ``detail_codes`` ``None`` means any detail. Keys: fault -> {kind or backend name: outcome};
#: a backend name beats its kind.
OK = ("ok", None)
EXPECTED: dict[str, dict[str, tuple[str, Optional[tuple[str, ...]]]]] = {
    "refused": {"*": ("NetworkError", ("connection_refused",))},
    "never_answer": {"*": ("Timeout", ("read_timeout", "deadline_exceeded"))},
    "headers_then_stall": {"*": ("Timeout", ("read_timeout", "deadline_exceeded"))},
    # A byte every 10 ms keeps every read short: the whole-call deadline ends it. When a loaded
    # machine lets the server's thread send nothing until that moment, the socket's timeout
    # (the deadline's remaining time) fires at the same instant: read_timeout, also at the deadline.
    "trickle": {"*": ("Timeout", ("deadline_exceeded", "read_timeout"))},
    "reset_mid_body": {"*": ("NetworkError", ("connection_reset", "incomplete_body"))},
    "truncated_chunked": {"*": ("NetworkError", ("incomplete_body",))},
    "length_too_long": {"*": ("NetworkError", ("incomplete_body",))},
    # 12 bytes of a page: nothing a parser can recognise; fetch finds no readable text
    "length_too_short": {
        "html": ("WebParseError", None),
        "json": ("WebParseError", ("not_json",)),
        "fetch": ("WebParseError", ("no_content",)),
    },
    "no_length": {"*": OK},
    "invalid_gzip": {"*": ("NetworkError", ("bad_content_encoding",))},
    # search refuses a body beyond the cap; fetch reads up to the cap and stops (a page of NUL bytes has no text)
    "gzip_bomb": {
        "html": ("WebProviderError", ("response_too_large",)),
        "json": ("WebProviderError", ("response_too_large",)),
        "fetch": ("WebParseError", ("no_content",)),
    },
    "endless": {
        "html": ("WebProviderError", ("response_too_large",)),
        "json": ("WebProviderError", ("response_too_large",)),
        "fetch": OK,
    },
    # "unfollowed": an engine that never follows redirects (Baidu, Startpage: the bot wall is one):
    # any other redirect is an unexpected status
    "redirect_loop": {"*": ("WebProviderError", ("redirect_loop",)), "unfollowed": ("WebProviderError", ("http_302",))},
    # a redirect's body is not read beyond 64 KB (search) or the byte cap (fetch): the redirect is followed
    "redirect_endless": {"*": OK, "unfollowed": ("WebProviderError", ("response_too_large",))},
    # a Location that is not a URL one can follow
    "redirect_malformed": {
        "*": ("WebProviderError", ("bad_redirect",)),
        "unfollowed": ("WebProviderError", ("http_302",)),
    },
    # a redirect to a non-public address is refused before any connection, search and fetch alike
    "redirect_private": {
        "*": ("InvalidInput", ("private_address",)),
        "unfollowed": ("WebProviderError", ("http_302",)),
        # SearXNG names a redirect off the instance's host (its answer to an external `!!bang`)
        "searxng": ("WebProviderError", ("offsite_redirect",)),
    },
    "empty_200": {
        "html": ("WebParseError", None),
        "json": ("WebParseError", ("not_json",)),
        "fetch": ("WebParseError", ("no_content",)),
    },
    "binary_garbage": {
        "html": ("WebParseError", None),
        "json": ("WebParseError", ("not_json",)),
        "fetch": ("WebProviderError", ("unsupported_content",)),
    },
    "wrong_charset": {"*": OK},
    "unknown_charset": {"*": OK},
    "wrong_format": {
        "html": ("WebParseError", None),
        "json": ("WebParseError", ("not_json",)),
        "fetch": ("WebParseError", ("not_json",)),
    },
    "http_429_retry_after": {"*": ("WebBlocked", ("http_429",))},
    "http_429": {"*": ("WebBlocked", ("http_429",))},
    "http_503": {"*": ("BadGateway", ("http_503",))},
    # a bot wall served with 200 is a block, not a parse error and never "0 results": where JSON
    # was asked too (a JSON engine answered with any registered engine's recorded wall is blocked)
    "captcha_200": {"*": ("WebBlocked", ("captcha_required",))},
}


def expected(fault: str, target: Target) -> tuple[str, Optional[tuple[str, ...]]]:
    """The outcome ``fault`` must have for ``target``: its own row, else the row of the
    engines that do not follow redirects (``"unfollowed"``), of its kind, or ``"*"``."""
    table = EXPECTED[fault]
    unfollowed = None if target.follows_redirects else table.get("unfollowed")
    return table.get(target.name) or unfollowed or table.get(target.kind) or table["*"]


# -- running cells ----------------------------------------------------------------------------------


@dataclass
class Cell:
    """What one (target, fault) run did."""

    target: str
    fault: str
    expected: tuple[str, Optional[tuple[str, ...]]]
    code: str = ""  #: "ok", an error code, or "CRASH:<ExceptionType>"
    detail: Optional[str] = None
    message: str = ""
    retry_after: Optional[float] = None
    wall_s: float = 0.0
    deadline_s: float = DEADLINE_MS / 1000.0
    peak_bytes: Optional[int] = None
    memory_limit: int = 0
    contract_problems: list[str] = field(default_factory=list)
    after_ok: Optional[bool] = None  #: a good request on the same client succeeded afterwards
    slowdown: float = 1.0  #: how many times slower than idle the machine ran around the call (``Runner.pace``)
    late_s: float = 0.0  #: how late the pace sampler woke from a sleep around the call, at worst (``Pace.late_s``)
    after_problem: str = ""
    crash: str = ""  #: traceback of an exception that is not a WebSearchError

    @property
    def classified(self) -> bool:
        """The outcome is the expected one (code and detail) and, for a success, a valid result."""
        code, details = self.expected
        if self.code != code or self.contract_problems:
            return False
        return details is None or self.detail in details

    @property
    def margin_s(self) -> float:
        """What the call may take beyond its deadline: a little on an idle machine, more when
        the machine was measured to run slower around it (``clocks.deadline_margin_s``).
        Plus how late a thread sleeping beside the call woke at worst (:attr:`late_s`): a burst of
        load that held the process's threads off the CPU (or the GIL) for a moment between two
        samples makes the call wake that late from its deadline, however fast the samples ran
        (service x never_answer took 1072 ms of a 1075 ms limit at slowdown 1.6, load 12).
        A call that ignores its deadline overruns by seconds on a machine that is not late.
        The pace is measured around the cells that must end in ``Timeout`` only (a probe spins
        the CPU for 10 ms; :func:`run_matrix` has one thread sample it for all of them): the
        others have a deadline of
        :data:`CLASSIFY_DEADLINE_MS`, which a call that answers never comes near."""
        return deadline_margin_s(self.slowdown) + self.late_s

    @property
    def in_time(self) -> bool:
        """The call ended within its deadline plus :attr:`margin_s`."""
        return self.wall_s <= self.deadline_s + self.margin_s

    @property
    def crashed(self) -> bool:
        """An exception other than ``WebSearchError`` escaped."""
        return bool(self.crash)

    @property
    def memory_ok(self) -> bool:
        """Peak memory under the target's limit in :data:`MEMORY_LIMITS` (true when not measured)."""
        return self.peak_bytes is None or self.peak_bytes <= self.memory_limit

    @property
    def passed(self) -> bool:
        """Everything the matrix promises held for this cell."""
        return self.classified and self.in_time and not self.crashed and self.memory_ok and bool(self.after_ok)

    def describe(self) -> str:
        """One line for failure messages."""
        return "%s x %s: got %s/%s (%s) in %.0f ms, expected %s/%s; peak %s; after=%s %s%s%s" % (
            self.target,
            self.fault,
            self.code,
            self.detail,
            self.message[:160],
            self.wall_s * 1000,
            self.expected[0],
            "|".join(self.expected[1] or ("*",)),
            self.peak_bytes,
            self.after_ok,
            self.after_problem,
            "; ".join(self.contract_problems),
            "\n" + self.crash if self.crash else "",
        )


def lab_settings(server: LabServer, names: Sequence[str], **overrides: Any) -> ws.Settings:
    """Settings where every backend in ``names`` has dummy credentials and points at the lab."""
    providers: dict[str, dict[str, Any]] = {}
    endpoints: dict[str, str] = {}
    for name in names:
        providers[name] = dummy_config(
            registry.backend_class(name), server.cell_url(name, "good"), "%s-%s" % (DUMMY_KEY, name)
        )
        endpoints[name] = server.cell_url(name, "good")
    values: dict[str, Any] = {
        "providers": providers,
        "endpoints": endpoints,
        "max_response_bytes": MAX_BYTES,
        "timeout_ms": DEADLINE_MS,
    }
    values.update(overrides)
    return ws.Settings(**values)


def timed_deadline_ms() -> int:
    """The deadline of a cell that must end in ``Timeout``: :data:`DEADLINE_MS` on an idle machine, as
    many times more as the machine runs slower now (``clocks.paced_budget_s``), at most
    :data:`CLASSIFY_DEADLINE_MS` (a trickle of 3000 bytes, one each 10 ms, must still outlast it).
    The call's own set-up (cool-downs, its slot, the request built) is slowed alike: with a fixed
    600 ms, a set-up starved for 525 ms on a machine at load 16 left 75 ms, less than a request is
    sent with (``send_need_s``: a quarter of the budget), and the call was refused before sending
    (``Timeout/budget_exhausted``), where the cell is about what the request meets."""
    return int(min(CLASSIFY_DEADLINE_MS, paced_budget_s(DEADLINE_MS / 1000.0) * 1000))


class Runner:
    """Runs faults against one target with one long-lived client (or transport, for fetch)."""

    def __init__(
        self,
        server: LabServer,
        target: Target,
        impersonate: Optional[str] = None,
        pace: Callable[[], ContextManager[Pace]] = machine_pace,
    ) -> None:
        self.server = server
        self.target = target
        self.pace = pace  #: measures the machine's pace around a timed call (``clocks.PaceMonitor.watch``)
        self.settings = lab_settings(server, [target.name] if target.kind != "fetch" else [], impersonate=impersonate)
        self.clock = FakeClock()  #: the client's cool-downs run on it: a Retry-After passes without waiting
        if target.kind == "fetch":
            self.transport = HttpTransport(impersonate=impersonate)
            self.client = None
        else:
            self.client = ws.SearchClient(
                target.name,
                settings=self.settings,
                retries=0,
                cache_ttl_s=0,
                min_interval_s=0,
                cooldowns={"captcha_required": 0, "http_403": 0, "http_429": 0},
                clock=self.clock,
            )

    def close(self) -> None:
        """Release the client (or transport)."""
        if self.client is not None:
            self.client.close()
        else:
            self.transport.close()

    def url(self, fault: str) -> str:
        spec = FAULTS[fault]
        if spec.endpoint is not None:
            return spec.endpoint(self.server, self.target)
        if self.target.kind == "fetch":
            return "http://%s:%d/fetch/%s" % (FETCH_HOST, self.server.port, fault)
        return self.server.cell_url(self.target.name, fault)

    def call(self, fault: str, timeout_ms: int = DEADLINE_MS) -> Any:
        """One search (or fetch) with the endpoint pointing at ``fault``."""
        url = self.url(fault)
        if self.client is None:
            return fetch_page(
                url,
                transport=self.transport,
                settings=self.settings,
                timeout_ms=timeout_ms,
                max_bytes=MAX_BYTES,
                resolver=static_resolver({FETCH_HOST: "127.0.0.1"}),
                trusted_networks=["127.0.0.1/32"],
            )
        self.settings.endpoints[self.target.name] = url
        return self.client.search(
            self.target.query, max_results=self.target.max_results, timeout_ms=timeout_ms, **self.target.options
        )

    def check_result(self, result: Any) -> list[str]:
        """Contract problems of a success (fetch: a page with text)."""
        if self.client is None:
            problems = (
                []
                if isinstance(result, dict) and isinstance(result.get("text"), str) and result["text"]
                else ["fetch gave no text"]
            )
            return problems
        return contract_violations(result, max_results=self.target.max_results, provider=self.target.name)

    def run(self, fault: str, measure_memory: bool = False) -> Cell:
        """Run one cell: the fault, then a good request on the same client."""
        cell = Cell(self.target.name, fault, expected(fault, self.target), memory_limit=MEMORY_LIMITS[self.target.kind])
        timed = cell.expected[0] == "Timeout"  # real time is the subject: the short deadline, the measured pace
        deadline_ms = timed_deadline_ms() if timed else CLASSIFY_DEADLINE_MS
        cell.deadline_s = deadline_ms / 1000.0
        if measure_memory:
            tracemalloc.start()
        with self.pace() if timed else contextlib.nullcontext(Pace()) as pace:
            started = time.monotonic()
            try:
                result = self.call(fault, timeout_ms=deadline_ms)
            except ws.WebSearchError as error:
                cell.code, cell.detail, cell.message, cell.retry_after = (
                    error.code,
                    error.detail_code,
                    error.message,
                    error.retry_after,
                )
            except Exception as exc:  # the matrix counts crashes instead of stopping at the first
                cell.code = "CRASH:%s" % type(exc).__name__
                cell.crash = traceback.format_exc()
            else:
                cell.code = "ok"
                cell.contract_problems = self.check_result(result)
            finally:
                cell.wall_s = time.monotonic() - started
                if measure_memory:
                    cell.peak_bytes = tracemalloc.get_traced_memory()[1]
                    tracemalloc.stop()
        cell.slowdown, cell.late_s = pace.slowdown, pace.late_s
        self._after(cell)
        return cell

    def _after(self, cell: Cell) -> None:
        """The same client must still answer a good request (after a Retry-After has passed)."""
        if cell.code == "WebBlocked" and cell.retry_after:
            before = self.server.requests_for(self.target.name)
            try:  # a generous deadline: on a loaded machine a fetch (no cool-down) must not time out here
                self.call(self.target.recovery, timeout_ms=RECOVERY_DEADLINE_MS)
            except ws.WebBlocked:
                pass  # cooling down, as asked
            else:
                if self.client is not None:
                    cell.after_ok, cell.after_problem = False, "a request went out during the Retry-After cool-down"
                    return
            if self.client is not None and self.server.requests_for(self.target.name) != before:
                cell.after_ok, cell.after_problem = False, "the cool-down sent a request"
                return
            self.clock.advance(cell.retry_after + 0.05)
        try:  # recovery is about state, not speed: a generous deadline, so a loaded machine cannot fail it
            result = self.call(self.target.recovery, timeout_ms=RECOVERY_DEADLINE_MS)
        except Exception as exc:  # noqa: BLE001 - reported in the cell
            cell.after_ok, cell.after_problem = False, "good request failed: %s: %s" % (type(exc).__name__, exc)
            return
        problems = self.check_result(result)
        if not problems and self.client is not None and self.target.golden_items is not None:
            if [i["url"] for i in result["items"]] != [i["url"] for i in self.target.golden_items]:
                problems = ["the good answer gave other items than its golden"]
        cell.after_ok, cell.after_problem = not problems, "; ".join(problems)


def run_target(
    server: LabServer,
    target: Target,
    faults: Sequence[str],
    measure_memory: bool,
    impersonate: Optional[str] = None,
    pace: Callable[[], ContextManager[Pace]] = machine_pace,
) -> list[Cell]:
    """Run ``faults`` against one target, in order, with one client."""
    runner = Runner(server, target, impersonate, pace)
    try:
        return [runner.run(fault, measure_memory=measure_memory and FAULTS[fault].memory) for fault in faults]
    finally:
        runner.close()


def run_matrix(
    targets: Optional[Sequence[Target]] = None,
    faults: Optional[Sequence[str]] = None,
    parallel: bool = True,
    impersonate: Optional[str] = None,
) -> list[Cell]:
    """Every target against every fault. ``parallel`` runs targets in threads, except the
    memory-measured cells, which always run one at a time (tracemalloc is process-wide).
    ``impersonate`` picks the transport of keyless engines and fetch (``None``: the default,
    the browser one when the extra is installed; ``"off"``: ``requests``)."""
    targets = list(targets) if targets is not None else all_targets()
    faults = list(faults) if faults is not None else [f.name for f in FAULT_LIST]
    catalogue.gzip_bomb_payload(BOMB_EXPANDED_BYTES)  # built once, not in a cell's time
    decode_body(_GARBAGE, None)  # the first charset detection in a process loads its tables (~70 ms): not a cell's cost
    cells: list[Cell] = []
    # one sampler of the machine's pace for every timed call (the targets' run side by side)
    with LabServer(targets) as server, PaceMonitor(every_s=PACE_EVERY_S) as monitor:
        plain = [f for f in faults if not FAULTS[f].memory]
        heavy = [f for f in faults if FAULTS[f].memory]
        if parallel:
            with ThreadPoolExecutor(max_workers=len(targets)) as pool:
                runs = pool.map(lambda t: run_target(server, t, plain, False, impersonate, monitor.watch), targets)
                for found in runs:
                    cells.extend(found)
        else:
            for target in targets:
                cells.extend(run_target(server, target, plain, True, impersonate, monitor.watch))
        for target in targets:
            cells.extend(run_target(server, target, heavy, True, impersonate, monitor.watch))
    order = {f: i for i, f in enumerate(faults)}
    names = [t.name for t in targets]
    cells.sort(key=lambda c: (names.index(c.target), order[c.fault]))
    return cells
