"""The ``requests`` adapter of the requests wire: every phase within the call's deadline,
connections pinned to checked addresses, through documented extension points only.

- **Name resolution** runs before connecting, in a thread abandoned at the deadline
  (:func:`~.ssrf.system_resolver`; ``getaddrinfo`` cannot be interrupted), and the
  connection goes to the address found (or to fetch's checked address) through
  urllib3's documented pool arguments: ``HTTPSConnectionPool(host=address,
  server_hostname=name, assert_hostname=name)``, chosen in the adapter's documented
  hook ``get_connection_with_tls_context``. The ``Host`` header, SNI and the
  certificate check keep the URL's host name. Answers are kept a minute
  (:data:`ADDRESS_TTL_S`, about what a browser keeps them), so a warm client does not
  resolve per request. Through a proxy, the proxy resolves the upstream's name.
- **The status line, header lines and body** are bounded by a per-read timeout and,
  for their sum, by a :class:`Watch`: one daemon thread shuts the connection's socket
  down once the deadline has passed (header lines trickling in, each within the read
  timeout, would otherwise add up). The socket is the connection's public ``sock``,
  recorded by the pool's connection class (``connect`` and ``request`` overrides), for
  direct connections and those through an HTTP or SOCKS proxy alike.
- **A forked child** lets go of the parent's connections at the fork (:func:`_disown_connections`):
  the connection class notes each connection it opens, and the child's copies of their sockets
  point at ``/dev/null`` (:func:`~websearch_sync.forks.disown`), with nothing sent on them.
"""

import functools
import heapq
import http.client
import io
import itertools
import re
import socket
import threading
import time
import weakref
from collections.abc import Mapping
from typing import Any, Optional
from urllib.parse import urlsplit

from requests import PreparedRequest
from requests.adapters import DEFAULT_POOLBLOCK, HTTPAdapter
from requests.exceptions import InvalidURL
from requests.structures import CaseInsensitiveDict
from requests.utils import select_proxy
from urllib3.connectionpool import ConnectionPool, HTTPConnectionPool

from ..errors import DEADLINE_EXCEEDED, DNS_TIMEOUT, Timeout, unresolved_host
from ..forks import disown, in_children, module_global
from .deadline import Deadline
from .decoding import listed_codings
from .ssrf import host_header, literal_address, system_resolver
from .status import NO_BODY_STATUSES

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How long a resolved address is used before the name is resolved again.
ADDRESS_TTL_S = 60.0
_MAX_DNS_S = 10.0
_MAX_ADDRESSES_KEPT = 256
_call = threading.local()  # the exchange this thread is running: its Watch and pinned address


class Watch:
    """Ends one exchange's socket once its time is up (see the module docstring).

    ``arm(when)`` sets (or moves) the time; the connection registers itself while it
    connects and sends (:class:`_Watched`). Firing shuts down the connection's current
    socket (the plain one during a TLS handshake) and the one it sent on (which the
    answer keeps after a ``Connection: close``).
    """

    def __init__(self) -> None:
        self.connection: Any = None
        self.sock: Optional[socket.socket] = None
        self.when = 0.0
        self.stopped = False

    def arm(self, when: float) -> None:
        """Fire at monotonic time ``when`` (a later call moves the time)."""
        self.when = when
        _WATCHES.add(when, self)

    def fire(self) -> None:
        """Shut the socket down, unless stopped or moved to a later time."""
        if self.stopped or time.monotonic() < self.when:
            return
        for sock in (getattr(self.connection, "sock", None), self.sock):
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # already closed

    def stop(self) -> None:
        """The exchange is over: never fire."""
        self.stopped = True


class _Watches:
    """One daemon thread firing every :class:`Watch` at its time (a timer thread per request
    would cost a thread start on every call)."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, Watch]] = []
        self._wake = threading.Condition()
        self._order = itertools.count()
        self._thread: Optional[threading.Thread] = None

    def add(self, when: float, watch: Watch) -> None:
        with self._wake:
            heapq.heappush(self._due, (when, next(self._order), watch))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="websearch-watchdog", daemon=True)
                self._thread.start()
            if self._due[0][2] is watch:  # due before every other: the thread sleeps too long otherwise
                self._wake.notify()  # (a later one is met when the thread wakes for the earlier ones)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._due or self._due[0][0] > time.monotonic():
                    self._wake.wait(self._due[0][0] - time.monotonic() if self._due else None)
                watch = heapq.heappop(self._due)[2]
            watch.fire()


#: A forked child has none of the parent's threads, the watchdog neither: it starts its own (else
#: no deadline of its requests fires, and a condition the watchdog held at the fork stays held).
_WATCHES = module_global(__name__, "_WATCHES", _Watches)


class Exchange:
    """Context manager: what the adapter needs to know about the exchange this thread runs
    (its deadline, its :class:`Watch`, the checked address it is pinned to)."""

    def __init__(self, deadline: Deadline, pin: Optional[str], provider: Optional[str]) -> None:
        self.deadline, self.pin, self.provider = deadline, pin, provider
        self.watch = Watch()
        #: Whether the request went out on a connection opened for it (``False``: a kept one, or none yet).
        self.connected = False
        #: Whether any byte of an answer to the request came (the wire sends again only one that got none).
        self.answered = False

    def on_kept_connection(self) -> bool:
        """Whether the request went out on a kept connection of the wire's own pools (one it did not
        open: :class:`_Watched` notes both)."""
        return self.watch.connection is not None and not self.connected

    def __enter__(self) -> "Exchange":
        _call.exchange = self
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.watch.stop()
        _call.exchange = None


def current_exchange() -> Optional[Exchange]:
    """The exchange this thread is running, if any."""
    return getattr(_call, "exchange", None)


#: How many interim (1xx) answers may come before the final one; more is a header block too large.
MAX_INTERIM_ANSWERS = 100

#: How many bytes of status and header lines an answer may hold, its interim answers' included;
#: more is a header block too large, as on the browser wire (libcurl counts every header line as it
#: arrives, CRLF and blank line included, and refuses more than 300 KB), not megabytes read
#: (``http.client`` alone takes 100 lines of 64 KB per block, and any number of interim blocks).
MAX_HEAD_BYTES = 300 * 1024


#: How many header fields libcurl reads in an answer's header blocks (interim ones included) and a
#: chunked body's trailer together ("Too many response headers, 5000 is max"): each field line counts,
#: not a status line, a blank line or a folded line's continuation (measured: 5000 read, 5001 refused).
MAX_HEADER_FIELDS = 5000
#: The longest line of a chunked body's trailer libcurl reads (its line end aside: "Out of memory in
#: chunked-encoding" from 4094 bytes on).
MAX_TRAILER_LINE = 4093


class HeadTooLarge(http.client.HTTPException):
    """More interim answers, or more bytes or lines of header lines, than the wire reads (before the
    body, and with a chunked body's trailer), or a trailer line longer than libcurl reads."""


class HeadCutShort(http.client.RemoteDisconnected):
    """The connection closed inside the answer's status line or header block (before its blank
    line): no answer, as libcurl says it (``http.client`` took the lines it had for a whole head,
    and the missing body for an empty one)."""


class MalformedHead(http.client.HTTPException):
    """A head breaking HTTP's rules that libcurl refuses and ``http.client`` reads past: a NUL or a
    lone CR in a line, a header line without a colon (``http.client`` took it, and every header
    after it, for the body), a ``Content-Length`` that is no single number."""


#: The start of a status line as libcurl takes one from an HTTP/1.x server (in any case): the version
#: 1.0 or 1.1, one space or tab, three digits. ``http.client`` also took ``HTTP/1.1  200`` (two
#: spaces), ``HTTP/1.2`` and ``HTTP/0.9``, which libcurl calls no HTTP.
STATUS_SHAPE = re.compile(r"HTTP/1\.[01][ \t][0-9]{3}", re.IGNORECASE)

#: What a status line cut short may start with to be one (libcurl waits for more of a line that may
#: still become ``HTTP/``; any other is no HTTP at all).
_STATUS_START = b"HTTP/"


class _HeadLines:
    """The answer's reader while its heads are read (``begin`` reads them by ``readline`` only, and
    ``close`` on a bad status line): counts their bytes (:data:`MAX_HEAD_BYTES`), refuses a line
    libcurl refuses (:class:`MalformedHead`) and keeps the last line, to tell a block that ended
    with its blank line from one the connection's end cut."""

    def __init__(self, fp: Any) -> None:
        self.fp = fp
        self.count = 0
        self.fields = 0  # header fields read, of every head (bounded with a trailer's: MAX_HEADER_FIELDS)
        self.last = b""
        self.cut = False  # the last read met the end of the input inside a head
        self.at_status = True  # the next line is a status line (the first, or after a blank line)

    def readline(self, limit: int = -1) -> bytes:
        line: bytes = self.fp.readline(limit)
        self.count += len(line)
        if self.count > MAX_HEAD_BYTES:
            raise HeadTooLarge("got more than %d bytes of header lines" % MAX_HEAD_BYTES)
        # a lone CR ends a block for libcurl, which looks at a line's first byte only
        self.cut = not line and self.last != b"\r"
        self.last = line
        if line.endswith(b"\n"):  # a whole line (one the input's end cut is no answer at all)
            if line[:1] == b"\r" and not self.at_status:
                line = b"\r\n"  # a blank line for libcurl (its first byte), as ``X: y\r\r\n`` is no header
            text = line[:-1]  # one line end exactly: a CR before a CRLF is a lone CR inside the line
            self._check(text[:-1] if text.endswith(b"\r") else text)
        return line

    def _check(self, text: bytes) -> None:
        """Refuse a line as libcurl does: a NUL or a CR in it; a status line not of its shape
        (:data:`STATUS_SHAPE`); a header line (not a folded one's continuation) without a colon."""
        if b"\0" in text or b"\r" in text:
            raise MalformedHead("a NUL or CR inside a header line")
        if self.at_status and not STATUS_SHAPE.match(text.decode("latin-1")):
            raise http.client.BadStatusLine(text.decode("latin-1"))
        if self.at_status or not text:
            self.at_status = not text  # a blank line ends a block: an interim answer's, another follows
        elif _check_field(text, folds=True):
            self.fields += 1
            if self.fields > MAX_HEADER_FIELDS:
                raise HeadTooLarge("got more than %d header fields" % MAX_HEADER_FIELDS)

    def close(self) -> None:
        self.fp.close()

    def status_cut(self) -> bool:
        """Whether the status line just refused was cut short by the connection's end (it has no
        line end) while it could still have become one (``HTT``, ``HTTP/1.1 20``)."""
        return not self.last.endswith(b"\n") and _STATUS_START.startswith(self.last[:5])


def _check_field(text: bytes, folds: bool) -> bool:
    """Refuse a header or trailer line (no line end, no NUL or CR: checked before) as libcurl does:
    one without a colon, or a folded one's continuation where nothing folds (a trailer line).
    Whether the line is a field of its own (not a folded one's continuation, which libcurl does not count)."""
    folded = text[:1] in (b" ", b"\t")
    if folded and not folds:
        raise MalformedHead("a folded trailer line")
    if not folded and b":" not in text:
        raise MalformedHead("a header line without a colon")
    return not folded


class MalformedChunk(http.client.IncompleteRead):
    """A chunked body's framing that libcurl refuses and ``http.client`` read past or read
    otherwise (:class:`_ChunkedBody`): the body is broken, as one cut short is."""

    def __init__(self, why: str) -> None:
        super().__init__(b"")
        self.why = why


#: A chunk's size as libcurl reads it: hex digits at the start of its line, at most 17 of them
#: ("chunk hex-length longer than 17"); the rest of the line up to its LF is skipped.
_CHUNK_SIZE = re.compile(rb"[0-9a-fA-F]{1,18}")
_MAX_SIZE_DIGITS = 17
#: A size line in its canonical form (``hex\r\n``; at most 15 digits: below 2^60, so below 2^63), which
#: is handed on as it is: the fast path of every chunk (a regex check, not the parse and rebuild).
_CANONICAL_SIZE = re.compile(rb"[0-9a-fA-F]{1,15}\r\n")
#: How many bytes of a chunked body's framing beyond the canonical ``hex\r\n`` and ``\r\n`` (chunk
#: extensions, CRs before a line's LF) the requests wire skips over a whole body; more is a broken
#: body. libcurl has no such bound (it skips them at C speed until the deadline, 20 MB in 0.4 s): the
#: byte cap counts data only, so without one a server held the Python reader for its whole deadline.
MAX_SKIPPED_FRAMING = MAX_HEAD_BYTES
#: How much of a run of CRs after a chunk's data is read at a time (by ``readline``, not byte by byte).
_LINE_END_PIECE = 65536


def _line_end(line: bytes) -> int:
    """How many bytes of ``line`` are its line end (CRLF, a lone LF, or none: a line cut at the limit)."""
    return 2 if line.endswith(b"\r\n") else 1 if line.endswith(b"\n") else 0


class _ChunkedBody:
    """The answer's reader once the head of a chunked body is read: ``http.client`` is handed the
    chunks' framing as libcurl reads it, so both wires read one chunked body alike.

    ``http.client`` took any text ``int(x, 16)`` reads for a size (`` 5``, ``+5``, ``0x5``, ``0_5``),
    tossed the two bytes after a chunk's data unseen (``XX`` after ``hello``: the page went on), and took
    a trailer that the connection's end cut, or one holding a lone CR, a NUL, no colon or a folded
    line, for a whole body. libcurl reads a size from the hex digits that open its line (1 to 17, below 2^63,
    the rest of the line skipped), ends a chunk's data with any CRs then an LF, and reads trailer
    lines by its header rules; anything else is a broken body (:class:`MalformedChunk`) or, for a
    trailer line, malformed headers (:class:`MalformedHead`). This reader checks each of those as
    the bytes pass and hands ``http.client`` the canonical form (``5\\r\\n`` for a size line,
    ``\\r\\n`` after the data).

    Relies on how ``http.client`` reads a chunked body from ``fp`` (undocumented, pinned by
    ``tests/unit/test_stdlib_head_reading.py``): a size or trailer line by ``readline``, a chunk's
    data by ``read``, ``read1``, ``readinto`` or ``peek`` within its size, the two bytes after the
    data by ``read(2)``."""

    def __init__(self, fp: Any, head: _HeadLines) -> None:
        self.fp = fp
        self.bytes, self.fields = head.count, head.fields  # the head's, which the trailer's add to
        self.left = -1  # data bytes left in the chunk (0: its line end is next; -1: a size line is)
        self.skipped = 0  # framing bytes skipped beyond the canonical (:data:`MAX_SKIPPED_FRAMING`)
        self.trailer = False  # the last chunk was read: trailer lines, then a blank line

    def readline(self, limit: int = -1) -> bytes:
        line: bytes = self.fp.readline(limit)
        if self.left == -1 and not self.trailer and _CANONICAL_SIZE.fullmatch(line):  # (the common case)
            length = int(line, 16)
            self.left, self.trailer = (length, False) if length else (-1, True)
            return line
        if self.trailer and not line.endswith(b"\n"):
            if limit < 0 or len(line) < limit:
                raise MalformedChunk("the connection closed inside the trailer")
            return line  # over the limit: ``http.client`` says so (a header block too large)
        if self.trailer:
            return self._trailer_line(line)
        if self.left != -1:
            return line  # (never asked for: data is read by size)
        return self._size_line(line, limit)

    def _size_line(self, line: bytes, limit: int) -> bytes:
        size = _CHUNK_SIZE.match(line)
        if size is None or len(size.group()) > _MAX_SIZE_DIGITS or int(size.group(), 16) >= MAX_CONTENT_LENGTH:
            raise MalformedChunk("a chunk size that is no hex number below 2^63")
        self._skip(len(line) - len(size.group()) - _line_end(line))
        while not line.endswith(b"\n"):  # an extension longer than ``http.client`` reads: skipped, as libcurl does
            line = self.fp.readline(limit)
            if not line:
                raise MalformedChunk("the connection closed inside a chunk size line")
            self._skip(len(line) - _line_end(line))
        length = int(size.group(), 16)
        self.left, self.trailer = (length, False) if length else (-1, True)
        return b"%x\r\n" % length

    def _trailer_line(self, line: bytes) -> bytes:
        self.bytes += len(line)
        if self.bytes > MAX_HEAD_BYTES:
            raise HeadTooLarge("header and trailer lines over %d bytes" % MAX_HEAD_BYTES)
        text = line[:-1]
        text = text[:-1] if text.endswith(b"\r") else text
        if b"\r" in text:
            raise MalformedChunk("a CR inside a trailer line")
        if not text:
            return b"\r\n"  # the body's end (``\n`` alone too)
        if len(text) > MAX_TRAILER_LINE:
            raise HeadTooLarge("a trailer line over %d bytes" % MAX_TRAILER_LINE)
        if b"\0" in text:
            raise MalformedHead("a NUL inside a trailer line")
        _check_field(text, folds=False)
        self.fields += 1
        if self.fields > MAX_HEADER_FIELDS:
            raise HeadTooLarge("header and trailer fields over %d" % MAX_HEADER_FIELDS)
        return line

    def read(self, amt: int = -1) -> bytes:
        if self.left == 0:  # the data's line end: any CRs, then an LF (read by pieces of lines, not bytes)
            piece: bytes = self.fp.readline(_LINE_END_PIECE)
            if piece == b"\r\n":  # (the common case)
                self.left = -1
                return piece
            while True:
                end = piece.endswith(b"\n")
                if not piece or (piece[:-1] if end else piece).strip(b"\r"):
                    raise MalformedChunk("a chunk's data not followed by its line end")
                self._skip(len(piece) - 2 if end else len(piece))
                if end:
                    self.left = -1
                    return b"\r\n"
                piece = self.fp.readline(_LINE_END_PIECE)
        data: bytes = self.fp.read(self._within(amt))
        self._consumed(len(data))
        return data

    def read1(self, amt: int = -1) -> bytes:
        left = self.left
        if left > 0:  # inside a chunk's data (``_within`` and ``_consumed`` inlined: once per piece read)
            data: bytes = self.fp.read1(left if amt is None or amt < 0 or amt > left else amt)
            self.left = left - len(data)
            return data
        rest: bytes = self.fp.read1(self._within(amt))
        return rest

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer)
        count: int = self.fp.readinto(view[: self._within(len(view))])
        self._consumed(count)
        return count

    def peek(self, amt: int = 0) -> bytes:
        peeked: bytes = self.fp.peek(amt)
        return peeked

    def close(self) -> None:
        self.fp.close()

    def __getattr__(self, name: str) -> Any:  # flush, fileno, closed...: the socket file's own
        return getattr(self.fp, name)

    def _skip(self, count: int) -> None:
        """``count`` more bytes of framing were skipped: refused past :data:`MAX_SKIPPED_FRAMING`."""
        self.skipped += max(count, 0)
        if self.skipped > MAX_SKIPPED_FRAMING:
            raise MalformedChunk("over %d bytes of chunk extensions and CRs" % MAX_SKIPPED_FRAMING)

    def _within(self, amt: Optional[int]) -> int:
        """``amt`` bytes, or fewer: never past the chunk's data (``http.client`` asks for no more)."""
        if self.left <= 0:
            return amt if amt is not None else -1
        return self.left if amt is None or amt < 0 else min(amt, self.left)

    def _consumed(self, count: int) -> None:
        """``count`` bytes of the chunk's data were read."""
        if self.left > 0:
            self.left -= count


class _FinalAnswer(http.client.HTTPResponse):
    """The answer read past every interim one. ``http.client`` skips only ``100 Continue``: a
    ``103 Early Hints`` (or ``102 Processing``) was taken for the answer (``unexpected HTTP 103``)
    and the final one left unread, where RFC 9110 (15.2) has a client read any number of 1xx
    answers before it, as libcurl does. ``101`` is final: no request here asks to switch protocols.

    While the heads are read, the answer's reader is a :class:`_HeadLines`, so a head is held to
    libcurl's bounds (:data:`MAX_HEAD_BYTES`) and a head the connection's end cut short is no
    answer (:class:`HeadCutShort`), on both wires alike.

    This relies on undocumented ``http.client`` behaviour (CPython calls it an implementation
    detail): ``begin()`` reads a status line and header block from ``fp`` by ``readline``, and returns
    at once while ``headers`` is set, so clearing ``headers`` makes it read the next answer.
    ``tests/unit/test_stdlib_interim_reading.py`` and ``tests/unit/test_stdlib_head_reading.py`` pin it,
    to fail loudly on a Python that changes it."""

    def begin(self) -> None:
        fp = self.fp
        lines = self.fp = _HeadLines(fp)  # type: ignore[assignment]
        try:
            self._heads(lines)
        except http.client.RemoteDisconnected:
            raise
        except http.client.BadStatusLine:
            if lines.status_cut():
                raise HeadCutShort("the connection closed inside the status line") from None
            raise
        finally:
            if self.fp is not None:  # (a bad status line closed it: None)
                self.fp = fp
            exchange = current_exchange()
            if exchange is not None and lines.count:
                exchange.answered = True
        if lines.cut:
            raise HeadCutShort("the connection closed inside the header block")
        if not readable_length(self.status, self.msg.get_all("Content-Length") or []):
            raise MalformedHead("a Content-Length that is no single number below 2^63")
        if self.status in NO_BODY_STATUSES:  # (http.client read a 304's chunked framing that never came)
            self.chunked, self.length = False, 0
        elif not self.chunked and _chunked_last(self.msg.get_all("Transfer-Encoding") or []):
            self.chunked, self.chunk_left, self.length = True, None, None
        if self.chunked:
            self.fp = _ChunkedBody(self.fp, lines)  # type: ignore[assignment]

    def flush(self) -> None:
        """Nothing to write: the answer's file is a reader. ``http.client`` flushes that file too,
        which raises once it is closed, so ``close()`` raised: when an answer and its file are
        collected together, the file's finalizer may close it first (Python 3.13's ``IOBase``
        finalizer reports what ``close()`` raises; earlier ones dropped it unseen)."""
        io.BufferedIOBase.flush(self)  # (refuses a closed answer, as every file does)

    def _heads(self, lines: _HeadLines) -> None:
        """Read the interim answers and the final one's head."""
        super().begin()
        for _ in range(MAX_INTERIM_ANSWERS):
            if not 100 <= self.status < 200 or self.status == 101 or lines.cut:
                return
            self.headers = None  # type: ignore[assignment]  # begin() reads an answer only while it has none
            super().begin()
        raise HeadTooLarge("got more than %d interim answers" % MAX_INTERIM_ANSWERS)


def _chunked_last(values: list[str]) -> bool:
    """Whether ``Transfer-Encoding`` values end in ``chunked`` after codings that change nothing
    (``identity, chunked``, ``chunked, chunked``): a chunked body, as libcurl reads it, where
    ``http.client`` knows only ``chunked`` spelled alone and read the chunks' framing as the body.
    (Any other coding is refused by the wire before the body: ``decoding.unreadable_transfer``.)"""
    codings = listed_codings(values)
    return bool(codings) and codings[-1] == "chunked" and set(codings) <= {"chunked", "identity"}


#: The first length no body can have: libcurl reads a length into a signed 64-bit number, and one
#: past it is no length to it (it reads such a body to the connection's end).
MAX_CONTENT_LENGTH = 1 << 63


def readable_length(status: int, values: list[str]) -> bool:
    """Whether a final answer's ``Content-Length`` values (a repeated header's, each maybe a list)
    name one length, or none, both wires read alike: RFC 9110 (8.6) allows a list of one number
    repeated, nothing else, and a number from 2^63 on is no body's length (``http.client`` waited
    for those bytes, libcurl read to the connection's end). A 204's or 304's length is not read
    (libcurl reads none of theirs). The one test of both wires: a length it fails is
    :func:`~.wire_requests.malformed_headers`."""
    if status in NO_BODY_STATUSES:
        return True
    lengths = {length.strip() for value in values for length in value.split(",")}
    if not lengths:
        return True
    if len(lengths) > 1:
        return False
    digits = lengths.pop()
    significant = digits.lstrip("0")  # (``int`` refuses over 4300 digits: a header may hold more)
    return (
        digits.isascii() and digits.isdigit() and len(significant) < 20 and int(significant or "0") < MAX_CONTENT_LENGTH
    )


class _Watched:
    """Connection mixin: tells the running exchange's :class:`Watch` which connection and socket to end,
    and reads each answer past its interim ones (:class:`_FinalAnswer`). That relies on
    ``HTTPConnection.getresponse`` building its answer from the ``response_class`` attribute, which
    urllib3's ``getresponse`` calls: undocumented, pinned by ``tests/unit/test_stdlib_interim_reading.py``."""

    sock: Optional[socket.socket]
    response_class = _FinalAnswer

    def connect(self) -> None:
        exchange = current_exchange()
        if exchange is not None:
            exchange.watch.connection, exchange.connected = self, True
        _CONNECTIONS.add(self)
        super().connect()  # type: ignore[misc]
        if exchange is not None:
            exchange.watch.sock = self.sock

    def request(self, *args: Any, **kwargs: Any) -> None:
        exchange = current_exchange()
        if exchange is not None:
            exchange.watch.connection, exchange.watch.sock = self, self.sock
        super().request(*args, **kwargs)  # type: ignore[misc]


#: Every connection the wires' pools opened, while it lives: a forked child lets go of their sockets.
_CONNECTIONS: "weakref.WeakSet[_Watched]" = weakref.WeakSet()


def _disown_connections() -> None:
    """In a forked child: the connections opened before the fork (pooled, or in use by a parent's
    thread that is not here) are the parent's. Their sockets are let go of without a byte sent
    (:func:`~websearch_sync.forks.disown`); a connection still used reads an end of file and
    connects afresh (the transports have built wires of their own anyway). The connections are not
    closed here: closing one a parent's thread was reading an answer from takes the lock of the
    answer's buffered reader, which that thread held and which no thread here will release (the
    child hung at the fork)."""
    socks = [connection.sock for connection in list(_CONNECTIONS) if connection.sock is not None]
    disown(descriptor for descriptor in (sock.fileno() for sock in socks) if descriptor >= 0)


in_children(_disown_connections)


@functools.cache
def _watched_pool(pool: type[HTTPConnectionPool]) -> type[HTTPConnectionPool]:
    """``pool`` (any urllib3 pool class: plain, TLS, SOCKS) whose connections are :class:`_Watched`
    (``pool`` itself when they are: threads first using a proxy together may each watch its manager)."""
    connection = pool.ConnectionCls
    if issubclass(connection, _Watched):
        return pool
    watched = type("Watched" + connection.__name__, (_Watched, connection), {})
    return type("Watched" + pool.__name__, (pool,), {"ConnectionCls": watched})


def _watch_pools(manager: Any) -> Any:
    """``manager`` (a urllib3 pool manager: direct, through an HTTP proxy or a SOCKS one), its
    pools' connections watched, so every way out is held to the deadline."""
    manager.pool_classes_by_scheme = {
        scheme: _watched_pool(pool) for scheme, pool in manager.pool_classes_by_scheme.items()
    }
    return manager


class _Addresses:
    """Resolved addresses kept :data:`ADDRESS_TTL_S` (a small, thread-safe table)."""

    def __init__(self) -> None:
        self._table: dict[tuple[str, int], tuple[float, str]] = {}
        self._lock = threading.Lock()

    def resolve(self, host: str, port: int, exchange: Exchange) -> str:
        """The address to connect to for ``host``; ``Timeout``/``NetworkError`` when it does not resolve in time."""
        now = time.monotonic()
        with self._lock:
            kept = self._table.get((host, port))
        if kept is not None and kept[0] > now:
            return kept[1]
        deadline = exchange.deadline
        remaining = deadline.remaining_s()
        try:
            address = system_resolver(host, port, max(0.001, min(remaining, _MAX_DNS_S)))[0]
        except TimeoutError:
            if remaining > _MAX_DNS_S:
                raise Timeout(
                    "resolving %s took longer than %.0f s" % (host, _MAX_DNS_S),
                    provider=exchange.provider,
                    detail_code=DNS_TIMEOUT,
                ) from None
            raise Timeout(
                "resolving %s did not finish within the %.0f ms deadline" % (host, deadline.timeout_ms),
                provider=exchange.provider,
                detail_code=DEADLINE_EXCEEDED,
            ) from None
        except (OSError, UnicodeError, IndexError):
            raise unresolved_host(host, exchange.provider) from None
        with self._lock:
            if len(self._table) >= _MAX_ADDRESSES_KEPT:
                self._table.clear()
            self._table[(host, port)] = (now + ADDRESS_TTL_S, address)
        return address


def name_host(request: PreparedRequest) -> None:
    """Give ``request`` the ``Host`` header of its URL (a connection to an address would name the
    address), first, where http.client puts the one it writes itself."""
    if "Host" not in request.headers:
        request.headers = CaseInsensitiveDict({"Host": host_header(request.url or ""), **request.headers})


class DeadlineAdapter(HTTPAdapter):
    """An ``HTTPAdapter`` whose connections obey the running :class:`Exchange` (see the module docstring).

    Outside an exchange (no deadline known) it behaves exactly as ``HTTPAdapter``.
    """

    def __init__(self, **kwargs: Any) -> None:
        self.addresses = _Addresses()
        self._pool_keys: dict[tuple[Any, ...], Any] = {}  # requests' (host parameters, TLS settings)
        super().__init__(**kwargs)

    def build_connection_pool_key_attributes(
        self, request: PreparedRequest, verify: Any, cert: Any = None
    ) -> Any:  # requests' typed dictionaries, which a version of it may not name
        """requests' pool key of ``request`` (its scheme, host and port; the TLS settings), kept per
        origin, ``verify`` and ``cert``: requests tells a CA bundle file from a directory by a ``stat``
        of ``verify``'s path on every request (10-20 us where the disk is slow, more than the rest of
        the pool's look-up). Copies, as requests hands out new ones."""
        if not isinstance(cert, (str, tuple, type(None))):  # (a key must be hashable)
            return super().build_connection_pool_key_attributes(request, verify, cert)
        parts = urlsplit(request.url or "")
        key = (parts.scheme, parts.netloc.rpartition("@")[2], verify, cert)  # no userinfo kept
        kept = self._pool_keys.get(key)
        if kept is None:
            kept = super().build_connection_pool_key_attributes(request, verify, cert)
            if len(self._pool_keys) >= _MAX_ADDRESSES_KEPT:
                self._pool_keys.clear()
            self._pool_keys[key] = kept
        return dict(kept[0]), dict(kept[1])

    def init_poolmanager(
        self, connections: int, maxsize: int, block: bool = DEFAULT_POOLBLOCK, **pool_kwargs: Any
    ) -> None:
        """The pool manager, with pools whose connections report to the exchange's :class:`Watch`."""
        super().init_poolmanager(connections, maxsize, block, **pool_kwargs)
        _watch_pools(self.poolmanager)

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        """The proxy's pool manager (made once per proxy), its connections watched too: a proxy
        trickling its answer, or its answer to ``CONNECT``, is held to the deadline (it was not).

        Watched on every call, not only when made: another thread may have made it and not yet
        watched it (watching twice changes nothing)."""
        return _watch_pools(super().proxy_manager_for(proxy, **proxy_kwargs))

    def get_connection_with_tls_context(
        self,
        request: PreparedRequest,
        verify: Any,
        proxies: Optional[Mapping[str, str]] = None,
        cert: Any = None,
    ) -> ConnectionPool:
        """The pool for the address this request connects to (see the module docstring)."""
        exchange = current_exchange()
        if exchange is None or (proxies and select_proxy(request.url or "", dict(proxies))):
            return super().get_connection_with_tls_context(request, verify, proxies=proxies, cert=cert)
        try:
            host_params, key_attributes = self.build_connection_pool_key_attributes(request, verify, cert)
        except ValueError as exc:  # as requests says it
            raise InvalidURL(exc, request=request) from None
        pool_kwargs: dict[str, Any] = dict(key_attributes)
        host = host_params["host"]
        address = exchange.pin
        if address is None:
            if literal_address(host) is not None:  # nothing to resolve: the pool requests would take (no proxy)
                same: ConnectionPool = self.poolmanager.connection_from_host(**host_params, pool_kwargs=key_attributes)
                return same
            address = self.addresses.resolve(host, host_params["port"], exchange)
        if host_params["scheme"] == "https":
            # a name written with its root's dot (``localhost.``) is checked against the certificate
            # without it, as urllib3 sends it in SNI and as libcurl checks it
            pool_kwargs.update(server_hostname=host, assert_hostname=host.rstrip("."))
        name_host(request)
        pool: ConnectionPool = self.poolmanager.connection_from_host(
            host=address, port=host_params["port"], scheme=host_params["scheme"], pool_kwargs=pool_kwargs
        )
        return pool
