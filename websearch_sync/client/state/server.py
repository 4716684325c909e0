"""The connection to the shared state: one Redis per process and URL, whether it answers,
and each client's view of it (namespace, clock, what an outage means).

redis-py (the ``redis`` extra) is imported only when a client is given a state URL,
never when websearch_sync is imported.
"""

import logging
import math
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any, Callable, Optional, TypeVar
from urllib.parse import parse_qsl, urlsplit

from ...config import STATE_KEY_KINDS
from ...errors import (
    BAD_STATE_URL,
    DEADLINE_EXCEEDED,
    MISSING_REDIS_EXTRA,
    STATE_IS_CLUSTER,
    STATE_UNAVAILABLE,
    InvalidInput,
    NetworkError,
    Timeout,
    counted,
    install_hint,
    redact,
)
from ...forks import module_lock, renewed_in_children
from ...net import workers
from ...net.urls import shown_url
from ...secrets import is_secret_name
from ..clock import Clock

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")
#: The attribute marking the log record of an outage's start (a one-shot command whose own
#: error says so leaves it out: what "calls do meanwhile" is no news to it).
OUTAGE_RECORD = "state_outage"

#: Every key starts with this (then the optional prefix), so applications can share a Redis.
NAMESPACE = "websearch_sync:"
#: The kinds of key, each the part after the namespace (``websearch_sync:[prefix:]<kind>:<name>``).
KINDS = STATE_KEY_KINDS
#: Longest one Redis command may take (connecting, or sending and reading the answer),
#: unless the URL says otherwise (``?socket_timeout=0.5``); shorter for short deadlines.
DEFAULT_TIMEOUT_S = 0.25
#: How long an operator's command may take in all without a deadline of its own (a call's default).
DEFAULT_OPERATOR_S = 15.0
#: After a failure, this process uses its local state for so long before trying Redis again.
RETRY_AFTER_S = 5.0
#: A pooled connection idle longer than this is replaced before its next command: a NAT or a load
#: balancer between may have forgotten it (AWS's after 350 s, Azure's after 240 s, some firewalls
#: sooner) and reset it at its next command, which made Redis count as down for every call.
MAX_IDLE_S = 30.0
#: The longest a key lives: a longer (or infinite) TTL is cut to this, which Redis takes (it refuses
#: an expiry past its range, and that one refusal made Redis count as down for the whole process).
MAX_EXPIRY_S = 365 * 86400.0

#: What a Redis Cluster node answers a ``SELECT`` of a database other than 0 (at each new connection).
_CLUSTER_SELECT = "SELECT is not allowed in cluster mode"
#: The URL options that set a command's timeout.
_TIMEOUT_OPTIONS = ("socket_timeout", "socket_connect_timeout")
T = TypeVar("T")


def _redis_module() -> Any:
    try:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
    except ImportError:
        raise InvalidInput(
            "a shared state URL needs redis-py, " + install_hint("redis"),
            detail_code=MISSING_REDIS_EXTRA,
        ) from None
    return redis, Retry(NoBackoff(), 0)


def python_parser() -> type:
    """redis-py's pure-Python RESP2 parser, which every connection uses even when hiredis is installed.

    hiredis (redis-py's default parser once installed) allocates an array from its length line before a
    byte of it arrives: ``*4294967295`` raised MemoryError out of a search, ``*1073741824`` held a call
    9.5 s; the byte bound of :class:`_BoundedSocket` cannot cut what no read asked for. The Python parser
    builds an array item by item from the socket, so the bound holds. Its class is private and moved:
    ``redis._parsers._RESP2Parser`` since 5.0, ``redis.connection.PythonParser`` in 4.x (setup.cfg allows
    ``redis>=4.2``); the connection's ``parser_class`` option that takes it is public in both."""
    try:
        from redis._parsers import _RESP2Parser

        return _RESP2Parser
    except ImportError:  # redis-py 4.x
        from redis.connection import PythonParser  # type: ignore[attr-defined]

        return PythonParser  # type: ignore[no-any-return]


#: The end (``time.monotonic``) of the Redis operation the current thread runs (see :class:`_BoundedSocket`),
#: and the longest reply one of its round trips may get (``reply_bytes``).
_OPERATION = threading.local()
#: The longest reply a command of this library gets back (a script's answer, a lease's time left), unless
#: its operation allows more (a cached answer: its bound). A misbehaving or hostile server's endless reply
#: is cut there: it was read for as long as the command's timeout let it, 200 MB in 0.25 s on loopback.
MAX_REPLY_BYTES = 64 * 1024
#: What a value's reply carries beside the value (its length line; the PTTL read with it).
REPLY_FRAME_BYTES = 64
#: What one round trip of an operator's command (a page of a scan, a batch of 500 records) may get.
OPERATOR_REPLY_BYTES = 16 * 1024 * 1024
#: Redis's longest value (``proto-max-bulk-len``'s default): the bound of a value read without one of its own.
MAX_VALUE_BYTES = 512 * 1024 * 1024


class ReplyTooLong(OSError):
    """A reply longer than any this library asks for: the connection is dropped (redis-py closes a
    connection whose read failed) and Redis counts as failing, with this said in the warning."""


class _BoundedSocket:
    """A Redis connection's socket whose reads and writes end at a deadline.

    redis-py's ``socket_timeout`` bounds each read, so a Redis (or a link) that sends its reply
    a byte at a time, each byte inside the timeout, held a call for seconds. Here the round
    trip is bounded: inside :meth:`SharedState.run` by the end of the whole operation (one
    command may take the server's timeout; a new connection may take that long first, within the
    call's time), elsewhere
    by the socket's timeout from the moment the command was sent.
    """

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._timeout: Optional[float] = sock.gettimeout()  # what redis-py set
        self._inner = self._timeout  # what the socket has now
        self._round_trip_ends: Optional[float] = None
        self._replied = 0  # bytes read since a command was last sent
        self.used_at = time.monotonic()  #: when it last sent or read (see :data:`MAX_IDLE_S`)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def settimeout(self, timeout: Optional[float]) -> None:
        """The timeout of each read and write (redis-py changes it for a moment to poll)."""
        self._timeout = self._inner = timeout
        self._sock.settimeout(timeout)

    def gettimeout(self) -> Optional[float]:
        """The timeout redis-py set."""
        return self._timeout

    def _bounded(self, method: Callable[..., T], *args: Any) -> T:
        timeout = self._timeout
        ends = getattr(_OPERATION, "ends", None) or self._round_trip_ends
        if ends is not None:
            left = ends - time.monotonic()
            if left <= 0:
                raise socket.timeout("the shared state took longer than its command timeout")
            if timeout is None or left < timeout:
                timeout = left
        inner = self._inner
        # setting a timeout is a system call: only when it changes by more than a tenth (a round
        # trip may then end that much late), or to or from blocking (None) or polling (0)
        if timeout != inner and (not timeout or not inner or abs(timeout - inner) > inner / 10):
            self._sock.settimeout(timeout)
            self._inner = timeout
        return method(*args)

    def sendall(self, data: Any, *flags: Any) -> None:
        """Send a command; outside an operation, its round trip ends one socket timeout from now."""
        self.used_at = time.monotonic()
        if self._timeout:
            self._round_trip_ends = self.used_at + self._timeout
        self._replied = 0
        self._bounded(self._sock.sendall, data, *flags)

    def recv(self, *args: Any) -> bytes:
        """Read, within the round trip's time and its reply's length."""
        data = self._bounded(self._sock.recv, *args)
        self._took(len(data))
        return data

    def recv_into(self, *args: Any) -> int:
        """Read, within the round trip's time and its reply's length."""
        read = self._bounded(self._sock.recv_into, *args)
        self._took(read)
        return read

    def _took(self, read: int) -> None:
        """Count ``read`` bytes of the reply; raise :class:`ReplyTooLong` past the operation's bound."""
        if not read:  # a poll that found nothing (redis-py's check of a pooled connection) is no use
            return
        self.used_at = time.monotonic()
        self._replied += read
        limit = getattr(_OPERATION, "reply_bytes", None) or MAX_REPLY_BYTES
        if self._replied > limit:
            raise ReplyTooLong(
                "the reply is longer than any this library asks for (over %d bytes): a misbehaving or"
                " hostile server" % limit
            )


class _Connecting:
    """One connection being made in a worker thread (``getaddrinfo`` cannot be interrupted, and a
    resolver that does not answer holds it 5-10 s): the caller waits until the operation's end;
    a socket that comes after the caller gave up is closed."""

    def __init__(self, connect: Callable[[], socket.socket]) -> None:
        self._connect = connect
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._abandoned = False
        self.sock: Optional[socket.socket] = None
        self.error: Optional[BaseException] = None

    def run(self) -> None:
        """Connect (in the worker thread)."""
        try:
            sock: Optional[socket.socket] = self._connect()
        except BaseException as error:  # carried to the caller, which raises it
            sock, self.error = None, error
        with self._lock:
            self.sock, abandoned = sock, self._abandoned
            self._done.set()
        if abandoned and sock is not None:
            sock.close()

    def result(self, timeout_s: float) -> socket.socket:
        """The socket, or ``socket.timeout`` when it is not there within ``timeout_s``."""
        self._done.wait(max(0.0, timeout_s))
        with self._lock:
            if not self._done.is_set():
                self._abandoned = True
                raise socket.timeout("connecting to the shared state took longer than its command timeout")
        if self.error is not None:
            raise self.error
        assert self.sock is not None
        return self.sock


_BOUNDED_CLASSES: dict[type, type] = {}
#: What redis-py's parser raises, besides its own errors, on a reply no Redis sends: a length that is no
#: number (``$abc``: ``int()``'s ValueError) or too large for an index (OverflowError), arrays nested
#: thousands deep (read by recursion), an array too large to hold (MemoryError: hiredis's, were it ever used
#: despite :func:`python_parser`). Each escaped every search of the process as it was.
_UNREADABLE = (ValueError, OverflowError, RecursionError, MemoryError)


def _error_line(error: BaseException) -> str:
    """``Type: message`` of a parser's error, cut to 100 characters (it may quote the whole line it read)."""
    return ("%s: %s" % (type(error).__name__, error))[:100]


def _bounded_connections(connection_class: type) -> type:
    """``connection_class`` (redis-py's TCP, TLS or unix connection) with a :class:`_BoundedSocket`,
    connected within the operation's time (in a worker thread: a new connection is rare), and
    connected again before a command after :data:`MAX_IDLE_S` of silence.

    ``_connect`` is redis-py's hook for this: an abstract method of its ``AbstractConnection`` that
    each of its connection classes (TLS's included, which wraps the TCP one's socket) implements,
    and a pool's public ``connection_class`` may be any subclass. Its ``ssl_*`` options and
    ``SSLConnection`` set up TLS, not the socket's deadline nor where a timeout happened: no
    public option does, so the TLS class is subclassed like the others, its options kept."""
    bounded = _BOUNDED_CLASSES.get(connection_class)
    if bounded is None:
        from redis.connection import SSLConnection

        tls = issubclass(connection_class, SSLConnection)

        def _connect(self: Any) -> _BoundedSocket:
            self.websearch_tcp_connected = threading.Event()  # set once TCP connects, before the TLS handshake
            try:
                return _connect_in_time(self)
            except socket.timeout:
                if not tls:
                    raise
                raise _tls_timeout(self.websearch_tcp_connected.is_set()) from None

        def _connect_in_time(self: Any) -> _BoundedSocket:
            connect = super(bounded, self)._connect  # type: ignore[arg-type]
            ends = getattr(_OPERATION, "ends", None)
            if ends is None:
                return _BoundedSocket(connect())
            connecting = _Connecting(connect)
            workers.submit(connecting.run, "websearch-state-connect")
            sock = _BoundedSocket(connecting.result(ends - time.monotonic()))
            # the handshake and the command then get a timeout of their own: on a loaded machine, a
            # fresh process's first connection and command in one timeout made Redis count as down
            # (never past the call's own time: the operation began with at least a timeout of it left)
            _OPERATION.ends = min(_OPERATION.limit, max(ends, time.monotonic() + (self.socket_timeout or 0.0)))
            return sock

        def send_packed_command(self: Any, command: Any, *args: Any, **kwargs: Any) -> None:
            sock = self._sock
            if isinstance(sock, _BoundedSocket) and time.monotonic() - sock.used_at > MAX_IDLE_S:
                self.disconnect()  # connected again at once, within the operation's time (``_connect``)
            super(bounded, self).send_packed_command(command, *args, **kwargs)  # type: ignore[arg-type]

        def read_response(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return super(bounded, self).read_response(*args, **kwargs)  # type: ignore[arg-type]
            except _UNREADABLE as error:  # the connection is closed (redis-py's read did: an error of any type)
                raise BadReply("a reply no Redis sends (%s)" % _error_line(error)) from None

        bounded = _BOUNDED_CLASSES[connection_class] = type(
            "Bounded" + connection_class.__name__,
            (connection_class, _tcp_noted()) if tls else (connection_class,),
            {"_connect": _connect, "send_packed_command": send_packed_command, "read_response": read_response},
        )
    return bounded


def _waiting_pool(redis: Any) -> type:
    """redis-py's blocking connection pool, for a URL that caps the connections (``max_connections``):
    a thread finding every connection in use waits for one within its call's time (:data:`_OPERATION`'s
    ``limit``; its operation's end when the call has no deadline; outside an operation, the ``timeout``
    it was built with), and its command's timeout starts once it has one. redis-py's default pool raised
    ``MaxConnectionsError`` at once, and each raise made Redis count as down for the whole process:
    8 threads on ``max_connections=2`` used local state (or failed with ``state_unavailable``) 5 s at a time.
    The wait is this process's own (its threads' commands ahead of it), not Redis's: counted in the
    command's timeout, a thread queued behind two others' healthy commands on a loaded machine timed out
    (or found no connection) and Redis counted as down."""

    class WaitingPool(redis.BlockingConnectionPool):  # type: ignore[misc]
        @property
        def timeout(self) -> float:
            ends = getattr(_OPERATION, "ends", None)
            if ends is None:
                return self.websearch_wait_s
            limit = getattr(_OPERATION, "limit", math.inf)
            return max(0.0, (ends if limit == math.inf else limit) - time.monotonic())

        @timeout.setter
        def timeout(self, value: float) -> None:  # set by the pool's own __init__
            self.websearch_wait_s = value

        def get_connection(self, *args: Any, **kwargs: Any) -> Any:
            connection = super().get_connection(*args, **kwargs)
            ends = getattr(_OPERATION, "ends", None)
            if ends is not None:  # the command's own time, from now (never past the call's)
                mine = time.monotonic() + (connection.socket_timeout or 0.0)
                _OPERATION.ends = min(_OPERATION.limit, max(ends, mine))
            return connection

    return WaitingPool


def _tcp_noted() -> type:
    """A TCP connection that notes when it connected (``websearch_tcp_connected``): what redis-py's
    TLS connection, before it in the order of classes, connects to make its handshake."""
    from redis.connection import Connection

    class TcpNoted(Connection):
        def _connect(self: Any) -> Any:
            connected = self.websearch_tcp_connected  # this attempt's (the next comes after the 5 s rest, with its own)
            sock = super()._connect()  # type: ignore[no-untyped-call]
            connected.set()
            return sock

    return TcpNoted


def _tls_timeout(tcp_connected: bool) -> Exception:
    """A ``rediss://`` connection that timed out, saying where: redis-py said "Timeout connecting to
    server" of a plain Redis, which never answers the TLS handshake, as of a host that is down (its
    own type: redis-py would say that again of any timeout). Only a TCP connection that was made
    tells the two apart: a host down (or behind a full accept queue, a firewall) makes none."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    if tcp_connected:
        return RedisConnectionError(
            "Timeout connecting to server over TLS (rediss://): a server that does not serve TLS on"
            " that port never answers the handshake"
        )
    return RedisConnectionError(
        "Timeout connecting to server over TLS (rediss://): the host did not answer, or a Redis without"
        " TLS on that port never answers the handshake"
    )


#: The characters a Redis ``SCAN MATCH`` pattern gives a meaning.
_GLOB_SPECIAL = re.compile(r"([*?\[\]\\])")


def glob(text: str) -> str:
    """``text`` matched literally by a Redis ``SCAN MATCH`` pattern."""
    return _GLOB_SPECIAL.sub(r"\\\1", text)


class BadReply(Exception):
    """Redis answered something no command of this library gets back (a broken or hostile server)."""


#: The commands whose reply redis-py reshapes in a callback of its own, which runs after the read and
#: outside :func:`_bounded_connections`' ``read_response`` (``SCAN``: ``int(cursor)``, ``TIME``:
#: ``int(x[0])``): a hostile reply raised ValueError, IndexError or TypeError out of ``state show`` and
#: ``state clear``. Their replies are taken as read (:func:`_as_read`) and checked here instead.
RAW_REPLIES = ("SCAN", "TIME")


def _as_read(response: Any, **options: Any) -> Any:
    """A reply as the parser read it (the response callback of each of :data:`RAW_REPLIES`)."""
    return response


def _shape(reply: Any) -> str:
    """What a reply is, for an error: its type, and a list's item types (never its bytes: up to 16 MB)."""
    if isinstance(reply, list):
        return "[%s]" % ", ".join(type(item).__name__ for item in reply[:4])
    return type(reply).__name__


def _number(reply: Any) -> bool:
    """Whether ``reply`` is a RESP bulk string of at most 20 digits (a 64-bit number: a cursor, a time)."""
    return isinstance(reply, bytes) and 0 < len(reply) <= 20 and reply.isdigit()


class ScanCut(Exception):
    """An operator's scan stopped at its whole command's bound (:class:`ScanBound`): a Redis that
    answers ``SCAN`` with cursor after cursor never ends it (each round trip was bounded, the
    command was not). ``done``: what the command did before it stopped, when it did something."""

    def __init__(self, rounds: int, keys: int, seconds: float) -> None:
        super().__init__(
            "SCAN went on for %s (%s) in %.0f s" % (counted(rounds, "round"), counted(keys, "key"), seconds)
        )
        self.rounds, self.keys, self.seconds = rounds, keys, seconds
        self.done = ""


class ScanBound:
    """The time an operator's command (``state show``, ``state clear``) may take in all: ``seconds``
    from its start on ``clock``, counted across its scans' rounds."""

    def __init__(self, clock: Clock, seconds: float) -> None:
        self.clock = clock
        self.seconds = seconds
        self.ends = clock.monotonic() + seconds
        self.rounds = self.keys = 0

    def round(self, keys: int, more: bool) -> None:
        """Count a round trip of ``SCAN`` that found ``keys`` keys; :class:`ScanCut` when the scan
        has ``more`` rounds to go and the bound is past."""
        self.rounds += 1
        self.keys += keys
        if more:
            self.check()

    def check(self) -> None:
        """:class:`ScanCut` when the bound is past: called before each of the command's other round
        trips too (its pipelines of GETRANGE and PTTL, of DEL: bounded one by one, ``state show``
        read 5,000 cool-downs in 16 s with a 3 s deadline)."""
        if self.clock.monotonic() >= self.ends:
            raise ScanCut(self.rounds, self.keys, self.seconds)


def scanned(redis: Any, match: str, bound: Optional[ScanBound] = None, count: int = 1000) -> Iterator[bytes]:
    """The keys a ``SCAN MATCH match`` finds, a page (one round trip) at a time, within ``bound``.

    Raises:
        BadReply: a page that is not ``[cursor digits, [key, ...]]``.
        ScanCut: the scan went on past ``bound`` (a cursor other than 0, round after round).
    """
    cursor = b"0"
    while True:
        page = redis.scan(cursor=cursor, match=match, count=count)
        if not (
            isinstance(page, list)
            and len(page) == 2
            and _number(page[0])
            and isinstance(page[1], list)
            and all(isinstance(key, bytes) for key in page[1])
        ):
            raise BadReply("SCAN answered %s" % _shape(page))
        cursor, keys = page
        yield from keys
        more = bool(cursor.strip(b"0"))
        if bound is not None:
            bound.round(len(keys), more)
        if not more:
            return


def redis_now_us(redis: Any) -> int:
    """The Redis clock's now, in microseconds (``TIME``).

    Raises:
        BadReply: a reply that is not ``[seconds digits, microseconds digits]``.
    """
    reply = redis.time()
    if not (isinstance(reply, list) and len(reply) == 2 and all(_number(part) for part in reply)):
        raise BadReply("TIME answered %s" % _shape(reply))
    return int(reply[0]) * 1_000_000 + int(reply[1])


def url_secrets(url: Optional[str]) -> list[str]:
    """The password of ``url`` and the values of its secret-named query options (``?password=``)."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
        found = [parts.password] if parts.password else []
    except ValueError:
        return []
    return found + [value for name, value in parse_qsl(parts.query) if value and is_secret_name(name)]


class StateServer:
    """One Redis for the whole process: its connection pool and whether it answered lately.

    Every client of the process naming the same URL shares one, so an outage is
    logged once (one warning, however many clients and calls use it) and Redis is
    tried again :data:`RETRY_AFTER_S` after the last failure, not on every call.
    """

    def __init__(self, url: str) -> None:
        redis, no_retry = _redis_module()
        timeout_s = DEFAULT_TIMEOUT_S
        try:
            # RESP2 (redis-py >= 5 would say HELLO 3): the replies this library reads are checked by it, not reshaped
            protocol = {"protocol": 2} if int(redis.__version__.split(".")[0]) >= 5 else {}
            capped = any(name == "max_connections" for name, _ in parse_qsl(urlsplit(url).query))
            # what redis.Redis.from_url does, with a pool of this library's when the URL caps the connections
            pool_class: Any = _waiting_pool(redis) if capped else redis.ConnectionPool
            options = {"timeout": timeout_s} if capped else {}  # the wait outside an operation (a command's)
            self.redis = redis.Redis(
                connection_pool=pool_class.from_url(
                    url,
                    socket_timeout=timeout_s,
                    socket_connect_timeout=timeout_s,
                    retry=no_retry,
                    parser_class=python_parser(),
                    **protocol,
                    **options,
                )
            )
            self.redis.auto_close_connection_pool = True
        except ValueError as exc:
            raise InvalidInput("bad state_url %s: %s" % (shown_url(url), exc), detail_code=BAD_STATE_URL) from None
        for command in RAW_REPLIES:
            self.redis.set_response_callback(command, _as_read)
        pool = self.redis.connection_pool
        pool.connection_class = _bounded_connections(pool.connection_class)
        self.errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError, BadReply)
        self.response_error: type[BaseException] = redis.ResponseError
        #: A node of a sharded cluster sends a key it does not hold elsewhere (MOVED, ASK); CROSSSLOT: a
        #: command's keys in two hash slots, which only a cluster refuses.
        self.cluster_errors: tuple[type[BaseException], ...] = tuple(
            getattr(redis.exceptions, name) for name in ("AskError", "ClusterCrossSlotError")
        )
        #: Why this URL is a cluster node the state cannot use (set at its first redirect; then every use raises).
        self.cluster = ""
        # what the sockets really use: a ``socket_timeout`` in the URL overrides ours, and a call
        # asks Redis only while it has that long left (``SharedState.run``)
        effective = self.redis.connection_pool.connection_kwargs
        self.timeout_s: float = max(
            float(effective.get("socket_timeout") or timeout_s),
            float(effective.get("socket_connect_timeout") or timeout_s),
        )
        #: The URL sets the command timeout itself (else each client's is shorter for a short deadline).
        self.url_timeout = any(name in _TIMEOUT_OPTIONS for name, _ in parse_qsl(urlsplit(url).query))
        self.shown = shown_url(url)
        self.secrets = url_secrets(url)
        self._lock = threading.Lock()
        self._retry_at: Optional[float] = None
        #: An outage was warned of, and Redis has not answered for :data:`RETRY_AFTER_S` since.
        self._down = False
        #: When Redis first answered after the outage's last failure (``None``: not since).
        self._answering_since: Optional[float] = None
        self.last_error = ""
        renewed_in_children(self)

    def forked(self) -> None:
        """In a forked child: a parent's thread may have held the lock at the fork (redis-py's pool
        opens connections of its own in a child by itself)."""
        self._lock = threading.Lock()

    def usable(self, now: float) -> bool:
        """False while waiting to try again after a failure."""
        retry_at = self._retry_at
        return retry_at is None or now >= retry_at

    def failed(self, error: BaseException, now: float, required: bool = False) -> None:
        """Note a failure: no Redis until ``now + RETRY_AFTER_S``; warn unless already down
        (saying what the calls do meanwhile: use local state, or fail when ``required``). Redis
        that has answered for :data:`RETRY_AFTER_S` since the last failure was back, even if no
        call came to say so (a quiet process's one call after the outage): this is a new outage,
        warned of after "answers again" for the last, not one silent for as long as the process lives."""
        with self._lock:
            since = self._answering_since
            back = since is not None and now - since >= RETRY_AFTER_S
            was_down, self._down = self._down and not back, True
            self._retry_at = now + RETRY_AFTER_S
            self._answering_since = None
            self.last_error = redact("%s: %s" % (type(error).__name__, error), self.secrets)
        if back:  # the log says the last outage ended before it tells of this one
            logger.info("shared state %s answers again", self.shown)
        if not was_down:
            logger.warning(
                "shared state %s unavailable (%s); %s; trying again in %.0f s (this is logged once until it answers)",
                self.shown,
                self.last_error,
                "calls with state_required fail with state_unavailable meanwhile"
                if required
                else "calls use this process's own cache, rate limits and cool-downs meanwhile",
                RETRY_AFTER_S,
                extra={OUTAGE_RECORD: True},
            )

    def command_timeout_s(self, deadline_s: float) -> float:
        """How long one command of a client with a ``deadline_s`` deadline may take: the URL's
        timeout when it sets one, else :data:`DEFAULT_TIMEOUT_S` or a tenth of the deadline when
        that is shorter (a dead Redis costs a call little of its time)."""
        return self.timeout_s if self.url_timeout else min(self.timeout_s, deadline_s / 10.0)

    def forget_outage(self) -> None:
        """Try Redis at the next command, silently, as if it had never failed (a test's outage must
        not rest the URL for the tests after it: :func:`forget_outages`)."""
        with self._lock:
            self._retry_at = None
            self._down = False
            self._answering_since = None

    def answered(self, now: float) -> None:
        """Note a success at ``now``. The outage ends (logged once, and the next failure warned of
        again) when Redis has answered for :data:`RETRY_AFTER_S` without failing: a Redis that
        answers reads and refuses writes (a replica, after a failover; a full one under noeviction)
        answered the next call's cache read, then failed its booking, and every 5 s the process
        logged "answers again" and warned anew."""
        if not self._down:
            return
        with self._lock:
            self._retry_at = None
            since = self._answering_since
            if since is None:
                self._answering_since = now
            ended = since is not None and now - since >= RETRY_AFTER_S
            if ended:
                self._down, self._answering_since = False, None
        if ended:
            logger.info("shared state %s answers again", self.shown)


_SERVERS: dict[str, StateServer] = {}
_SERVERS_LOCK = module_lock(__name__, "_SERVERS_LOCK")


def state_server(url: str) -> StateServer:
    """The process's :class:`StateServer` for ``url`` (created at the first use): one connection
    pool per URL, whatever the deadlines of its clients (one per deadline opened a pool, and a
    connection, per distinct ``timeout_ms`` a worker used)."""
    with _SERVERS_LOCK:
        server = _SERVERS.get(url)
        if server is None:
            server = _SERVERS[url] = StateServer(url)
        return server


def forget_outages() -> None:
    """Forget the outage of every Redis the process noted one for (``websearch_sync.testing.reset``):
    each is tried at its next command. A URL names a port, and a test's failing Redis (a port nothing
    listens on, a command a loaded machine made slow) rested that URL for ``RETRY_AFTER_S`` for the
    tests after it: a later test's Redis on the same port, or the same module's, answered nothing."""
    with _SERVERS_LOCK:
        servers = list(_SERVERS.values())
    for server in servers:
        server.forget_outage()


class SharedState:
    """One client's view of the shared state: its key namespace, its clock, and whether
    an unreachable Redis is an error (``required``) or a reason to use local state."""

    def __init__(
        self,
        server: StateServer,
        prefix: str,
        required: bool,
        clock: Clock,
        timeout_s: Optional[float] = None,
        deadline_s: float = DEFAULT_OPERATOR_S,
    ) -> None:
        self.server = server
        self.namespace = NAMESPACE + (prefix + ":" if prefix else "")
        self.required = required
        self.clock = clock
        #: How long one command may take (default: the server's; :meth:`StateServer.command_timeout_s`).
        self.timeout_s = server.timeout_s if timeout_s is None else timeout_s
        #: How long an operator's command (:meth:`for_operator`) may take in all: the client's deadline.
        self.deadline_s = deadline_s

    def key(self, kind: str, name: str) -> str:
        """``websearch_sync:[prefix:]<kind>:<name>`` (``kind`` one of :data:`KINDS`)."""
        return "%s%s:%s" % (self.namespace, kind, name)

    def script_keys(self, name: str, *kinds: str) -> list[str]:
        """The keys of ``kinds`` for ``name`` that one script reads and writes together, each
        ``…<kind>:{<name>}``: the hash tag puts them in one Redis Cluster hash slot (a cluster
        refuses a script whose keys are in two: CROSSSLOT), and the namespace and kinds hold no
        brace, so the tag is the name's whatever it holds."""
        return [self.key(kind, "{%s}" % name) for kind in kinds]

    def fits(self, left_s: Optional[float], write: bool = False) -> bool:
        """Whether the call's time left (``left_s``; ``None``: unbounded) holds one command: a
        caller tells "too little time to ask" apart from "Redis failed" (both make :meth:`run`
        return its default).

        Raises:
            Timeout: ``deadline_exceeded`` when it does not, state_required is set and it is a read.
        """
        if left_s is None or left_s >= self.timeout_s:
            return True
        if self.required and not write:
            raise Timeout(
                "%.0f ms left: too little for the shared state (state_required is set)" % (max(0.0, left_s) * 1000),
                detail_code=DEADLINE_EXCEEDED,
            )
        return False

    def run(
        self,
        operation: Callable[[Any], T],
        default: T,
        left_s: Optional[float] = None,
        write: bool = False,
        each_round_trip: bool = False,
        reply_bytes: int = MAX_REPLY_BYTES,
    ) -> T:
        """``operation(redis)``; ``default`` when Redis fails or is resting after a failure, when
        the key holds a value of the wrong type (unusable for that key only), or when the call
        has less time left (``left_s``) than one command may take.

        The operation as a whole may take one command's timeout (a reply that trickles in is
        cut there); ``each_round_trip``: each of its round trips may (an operator's scan of
        every key). A round trip's reply longer than ``reply_bytes`` is a failing Redis, read no further.

        Raises:
            NetworkError: ``state_unavailable``, instead of returning ``default``, when required and
                not a ``write``: a write (a cached answer, a cool-down, a question let go) comes after
                the call's request, whose outcome (an answer paid for, an AuthError) it must not
                replace; Redis still counts as failing, warned of, and the next call fails before sending.
            Timeout: ``deadline_exceeded`` when required and the call has no time left for a
                read (a ``write`` that does not fit is skipped: what it records expires anyway).
            InvalidInput: ``state_is_cluster`` (always) once the server answered as a node of a
                Redis Cluster that does not hold every key, or refused the URL's database number.
        """
        self._check_not_cluster()
        if not self.fits(left_s, write):
            return default
        now = self.clock.monotonic()
        if self.server.usable(now):
            started = time.monotonic()
            _OPERATION.ends = None if each_round_trip else started + self.timeout_s
            _OPERATION.limit = float("inf") if left_s is None else started + left_s
            _OPERATION.reply_bytes = reply_bytes
            try:
                result = operation(self.server.redis)
            except self.server.cluster_errors as error:
                code = getattr(error, "status_code", None) or type(error).__name__
                said = str(error).rpartition("caused error: ")[2]  # a pipeline's reply names the command first
                self.server.cluster = redact("%s %s" % (code, said), self.server.secrets)
                self._check_not_cluster()  # raises
            except self.server.response_error as error:
                if _CLUSTER_SELECT in str(error):  # a database number in the URL: a cluster has only 0
                    self.server.cluster = "%s: database 0 only" % _CLUSTER_SELECT
                    self._check_not_cluster()  # raises
                if "WRONGTYPE" not in str(error):
                    self.server.failed(error, now, self.required)
                    return default if write else self._unavailable(default)
                logger.debug("shared state: a key holds a value of the wrong type (%s); treated as absent", error)
                return default
            except self.server.errors as error:
                self.server.failed(error, now, self.required)
            else:
                self.server.answered(now)
                return result
            finally:
                _OPERATION.ends = _OPERATION.reply_bytes = None
        return default if write else self._unavailable(default)

    def for_operator(self, operation: Callable[[Any, ScanBound], T], undone: str) -> T:
        """``operation(redis, bound)`` for an operator's command (``state clear``, ``state show``):
        each of its round trips may take a command's timeout (a scan of every key), and its scans
        all of them :attr:`deadline_s` (``bound``).

        Raises:
            NetworkError: ``state_unavailable`` when Redis cannot be reached, saying what was
                ``undone`` (an operator asked: nothing here falls back to local state).
            Timeout: ``deadline_exceeded`` when the scans went on past :attr:`deadline_s` (not an
                outage: the calls of the process go on using Redis), saying what was done or ``undone``.
        """
        missing = object()
        bound = ScanBound(self.clock, self.deadline_s)
        try:
            done = self.run(
                lambda redis: operation(redis, bound), missing, each_round_trip=True, reply_bytes=OPERATOR_REPLY_BYTES
            )
        except ScanCut as cut:
            raise Timeout(
                "the shared state %s did not finish reading its keys within %.0f s (%s of SCAN, %s"
                " found): %s. A Redis holding millions of other keys takes long (keep the state in a database of"
                " its own, or give the command longer: WEB_SEARCH_TIMEOUT_MS); one that answers SCAN with cursor"
                " after cursor is not working as Redis does"
                % (
                    self.server.shown,
                    cut.seconds,
                    counted(cut.rounds, "round"),
                    counted(cut.keys, "key"),
                    cut.done or undone,
                ),
                detail_code=DEADLINE_EXCEEDED,
            ) from None
        if done is missing:
            raise NetworkError(
                "the shared state %s is unavailable (%s): %s" % (self.server.shown, self.server.last_error, undone),
                detail_code=STATE_UNAVAILABLE,
            )
        return done  # type: ignore[return-value]  # not the marker: the operation's result

    def delete_matching(
        self, kind: str, patterns: list[str], undone: str, delete: Optional[Callable[[Any, list[bytes]], Any]] = None
    ) -> list[str]:
        """Delete the keys of ``kind`` whose names match one of ``patterns`` (``SCAN MATCH``
        globs of the part after ``<kind>:``), a page of the scan at a time; the names deleted.
        ``delete(redis, keys)``: how a page is deleted, answering the keys it deleted (default: ``DEL``, all of them).

        Raises:
            NetworkError: ``state_unavailable`` when Redis cannot be reached (:meth:`for_operator`).
        """
        prefix = self.key(kind, "")

        def deleting(redis: Any, bound: ScanBound) -> list[str]:
            deleted: list[str] = []
            page: list[bytes] = []
            try:
                for pattern in patterns:
                    bound.check()  # each pattern's scan, after the last one's DEL
                    for key in scanned(redis, glob(prefix) + pattern, bound):
                        page.append(key)
                        if len(page) == 1000:
                            deleted += self._deleted(redis, page, prefix, delete)
                            page = []
                            bound.check()
                    deleted += self._deleted(redis, page, prefix, delete)
                    page = []
            except ScanCut as cut:  # what it found is deleted all the same (one round trip more)
                deleted += self._deleted(redis, page, prefix, delete)
                cut.done = "the %s it found were deleted" % counted(len(deleted), kind + " key")
                raise
            return deleted

        return self.for_operator(deleting, undone)

    @staticmethod
    def _deleted(
        redis: Any, keys: list[bytes], prefix: str, delete: Optional[Callable[[Any, list[bytes]], Any]]
    ) -> list[str]:
        """Delete ``keys`` (with ``delete``, else ``DEL``); the names deleted (the part after ``prefix``)."""
        if not keys:
            return []
        if delete is None:
            redis.delete(*keys)
        else:
            done, found = delete(redis, keys), set(keys)
            if not isinstance(done, list) or not all(isinstance(key, bytes) and key in found for key in done):
                raise BadReply("deleting %d keys answered %.200r" % (len(keys), done))
            keys = done
        return [key.decode("utf-8", "replace")[len(prefix) :] for key in keys]

    def _check_not_cluster(self) -> None:
        """Raise ``InvalidInput(state_is_cluster)`` once the server has answered like a node of a
        Redis Cluster that does not hold every key (MOVED, ASK, CROSSSLOT): a silent fallback to
        local state would split the fleet's pace, one per process."""
        if self.server.cluster:
            raise InvalidInput(
                "the shared state %s answered as a node of a Redis Cluster (%s): the state works on a cluster that"
                " serves every key at one address (one shard, or behind a cluster proxy), in database 0; else use"
                " one Redis (a primary, with replicas if you like)" % (self.server.shown, self.server.cluster),
                detail_code=STATE_IS_CLUSTER,
            )

    def _unavailable(self, default: T) -> T:
        if self.required:
            raise NetworkError(
                "the shared state %s is unavailable (%s) and state_required is set"
                % (self.server.shown, self.server.last_error),
                detail_code=STATE_UNAVAILABLE,
            )
        return default

    def get_with_ttl(
        self, key: str, left_s: Optional[float] = None, max_bytes: Optional[int] = None
    ) -> tuple[Optional[bytes], float]:
        """``(value, seconds it has left)`` of ``key`` in one round trip; ``(None, 0)`` when absent,
        unusable or Redis is down. A reply of the wrong shape is a failing Redis.

        With ``max_bytes``, at most ``max_bytes + 1`` bytes are read (``GETRANGE``): a longer
        value is ``(None, 0)`` too, and costs no more than that to find out.
        """

        def read(redis: Any) -> tuple[Optional[bytes], int]:
            pipe = redis.pipeline(transaction=False)
            if max_bytes is None:
                pipe.get(key)
            else:
                pipe.getrange(key, 0, max_bytes)  # inclusive: one byte more than allowed tells a value too long
            pipe.pttl(key)
            reply = pipe.execute()
            if not isinstance(reply, list) or len(reply) != 2:
                raise BadReply("GET/PTTL answered %s" % type(reply).__name__)
            value, ttl_ms = reply
            if (
                not (value is None or isinstance(value, bytes))
                or isinstance(ttl_ms, bool)
                or not isinstance(ttl_ms, int)
            ):
                raise BadReply("GET/PTTL answered %s/%s" % (type(value).__name__, type(ttl_ms).__name__))
            return value, ttl_ms

        absent: tuple[Optional[bytes], int] = (None, -2)
        longest = MAX_VALUE_BYTES if max_bytes is None else max_bytes + 1
        value, ttl_ms = self.run(read, absent, left_s, reply_bytes=longest + REPLY_FRAME_BYTES)
        if value is None or ttl_ms <= 0 or (max_bytes is not None and len(value) > max_bytes):
            return None, 0.0
        return value, ttl_ms / 1000.0

    def set_for(self, key: str, value: str, seconds: float, left_s: Optional[float] = None) -> bool:
        """Set ``key`` to ``value``, expiring in ``seconds``; false when it was not (Redis is down)."""
        expiry_ms = max(1, int(min(seconds, MAX_EXPIRY_S) * 1000))
        return bool(self.run(lambda redis: redis.set(key, value, px=expiry_ms), None, left_s, write=True))
