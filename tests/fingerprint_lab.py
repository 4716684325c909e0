"""A loopback fingerprint server: how a bot detector sees our transports (issue 21).

For each TLS connection it reads the raw ClientHello before ``ssl`` does and computes
its JA4 (FoxIO spec), completes the handshake (ALPN h2 or http/1.1), records the
HTTP/2 preface as the Akamai fingerprint (``SETTINGS|WINDOW_UPDATE|PRIORITY|pseudo-header
order``) or the HTTP/1.1 header order, and answers a page shaped like DuckDuckGo's HTML
results (so ``ddg_html`` parses it); over HTTP/2 a path starting with ``/hop`` answers a 302
to ``/page``, and every request of a connection is kept (``requests``). Records stay in memory
(:attr:`FingerprintServer.records`).

Provenance: the ClientHello, JA4, HTTP/2 and HTTP/1.1 code below is copied unchanged from the
project's fingerprint lab, ``../shared/fingerprint/fpserver.py`` (measured 2026-11-26, README
there); the server class is this file's own (in memory, a test-only certificate from
``tests/data/tls/localhost.crt``). Needs ``h2`` (test extra).
"""

import hashlib
import os
import socket
import ssl
import threading
import time
from typing import Any, Optional

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


H2_SETTING_NAMES = {
    1: "HEADER_TABLE_SIZE",
    2: "ENABLE_PUSH",
    3: "MAX_CONCURRENT_STREAMS",
    4: "INITIAL_WINDOW_SIZE",
    5: "MAX_FRAME_SIZE",
    6: "MAX_HEADER_LIST_SIZE",
    8: "ENABLE_CONNECT_PROTOCOL",
    9: "NO_RFC7540_PRIORITIES",
}
H2_FRAME_NAMES = {
    0: "DATA",
    1: "HEADERS",
    2: "PRIORITY",
    3: "RST_STREAM",
    4: "SETTINGS",
    5: "PUSH_PROMISE",
    6: "PING",
    7: "GOAWAY",
    8: "WINDOW_UPDATE",
    9: "CONTINUATION",
}
PSEUDO_LETTERS = {":method": "m", ":authority": "a", ":scheme": "s", ":path": "p", ":protocol": "P"}


PAGE = (
    b'<!doctype html><html><head><meta charset="utf-8"><title>fingerprint lab</title></head><body>\n'
    b'<div id="links" class="results">\n'
    b'<div class="result results_links web-result"><div class="links_main links_deep result__body">\n'
    b'<h2 class="result__title"><a class="result__a" href="https://example.com/fingerprint-lab">Fingerprint lab</a></h2>\n'
    b'<a class="result__snippet" href="https://example.com/fingerprint-lab">This answer came from the loopback fingerprint lab.</a>\n'
    b'</div></div>\n</div>\n<div class="nav-link"></div>\n'
    b"<article><h1>Fingerprint lab</h1><p>This page came from the loopback fingerprint lab. It records how a bot "
    b"detector sees the client: the TLS ClientHello (JA3, JA4), the HTTP/2 preface (Akamai fingerprint) and the "
    b"order of the request headers.</p></article>\n"
    b"</body></html>\n"
)


def is_grease(value):
    """RFC 8701 GREASE values: 0x0a0a, 0x1a1a, ..., 0xfafa."""
    return (value & 0x0F0F) == 0x0A0A and (value >> 8) == (value & 0xFF)


class NotTLS(Exception):
    pass


class _Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ValueError("truncated ClientHello")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return int.from_bytes(self.take(2), "big")

    def vec(self, width):
        return self.take(int.from_bytes(self.take(width), "big"))

    def left(self):
        return len(self.data) - self.pos


def u16_list(data):
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data) - 1, 2)]


def hello_from_records(data):
    """(handshake message, bytes of records used, record version) once ``data`` holds the whole
    ClientHello (it may span several TLS records), else None. Raises NotTLS for anything else."""
    message, off, record_version = b"", 0, None
    while off + 5 <= len(data):
        if data[off] != 0x16:
            raise NotTLS("first byte %#x is not a TLS handshake record" % data[off])
        if record_version is None:
            record_version = int.from_bytes(data[off + 1 : off + 3], "big")
        length = int.from_bytes(data[off + 3 : off + 5], "big")
        if off + 5 + length > len(data):
            return None
        message += data[off + 5 : off + 5 + length]
        off += 5 + length
        if len(message) >= 4:
            if message[0] != 1:
                raise NotTLS("handshake type %d is not ClientHello" % message[0])
            total = 4 + int.from_bytes(message[1:4], "big")
            if len(message) >= total:
                return message[:total], off, record_version
    return None


def parse_client_hello(message):
    """The fields a fingerprint reads, from a ClientHello handshake message (type 1)."""
    r = _Reader(message[4:])
    hello = {"legacy_version": r.u16()}
    r.take(32)  # random
    hello["session_id_len"] = len(r.vec(1))
    hello["ciphers"] = u16_list(r.vec(2))
    hello["compression"] = list(r.vec(1))
    hello.update(
        extensions=[],
        groups=[],
        point_formats=[],
        sig_algs=[],
        alpn=[],
        versions=[],
        key_shares=[],
        sni=None,
        cert_compression=[],
        alps=[],
        psk_modes=[],
    )
    if r.left() >= 2:
        ext_block = _Reader(r.vec(2))
        while ext_block.left() >= 4:
            ext_type = ext_block.u16()
            data = ext_block.vec(2)
            hello["extensions"].append(ext_type)
            _parse_extension(hello, ext_type, data)
    return hello


def _parse_extension(hello, ext_type, data):
    try:
        if ext_type == 0 and len(data) >= 5:
            hello["sni"] = data[5 : 5 + int.from_bytes(data[3:5], "big")].decode("ascii", "replace")
        elif ext_type == 10:
            hello["groups"] = u16_list(data[2:])
        elif ext_type == 11:
            hello["point_formats"] = list(data[1 : 1 + data[0]])
        elif ext_type == 13:
            hello["sig_algs"] = u16_list(data[2:])
        elif ext_type == 16:
            hello["alpn"] = _name_list(data[2:])
        elif ext_type in (17513, 17613):
            hello["alps"] = _name_list(data[2:])
        elif ext_type == 43:
            hello["versions"] = u16_list(data[1 : 1 + data[0]])
        elif ext_type == 45:
            hello["psk_modes"] = list(data[1 : 1 + data[0]])
        elif ext_type == 27:
            hello["cert_compression"] = u16_list(data[1 : 1 + data[0]])
        elif ext_type == 51:
            shares, rest = [], _Reader(data[2:])
            while rest.left() >= 4:
                group = rest.u16()
                shares.append([group, len(rest.vec(2))])
            hello["key_shares"] = shares
    except (ValueError, IndexError):
        pass  # a malformed extension body: the type is still counted


def _name_list(data):
    names, pos = [], 0
    while pos < len(data):
        length = data[pos]
        names.append(data[pos + 1 : pos + 1 + length])
        pos += 1 + length
    return names


_VERSION_CODES = {
    0x0304: "13",
    0x0303: "12",
    0x0302: "11",
    0x0301: "10",
    0x0300: "s3",
    0x0002: "s2",
    0xFEFF: "d1",
    0xFEFD: "d2",
    0xFEFC: "d3",
}


def _alpn_code(alpn):
    if not alpn or not alpn[0]:
        return "00"
    first = alpn[0]
    alnum = lambda b: 0x30 <= b <= 0x39 or 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A  # noqa: E731
    if alnum(first[0]) and alnum(first[-1]):
        return chr(first[0]) + chr(first[-1])
    hexed = first.hex()
    return hexed[0] + hexed[-1]


def _sha12(text):
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def ja4(hello, transport="t"):
    """JA4 (FoxIO): a_b_c plus the raw (sorted) and original-order forms."""
    versions = [v for v in hello["versions"] if not is_grease(v)]
    version = _VERSION_CODES.get(max(versions) if versions else hello["legacy_version"], "00")
    ciphers = [c for c in hello["ciphers"] if not is_grease(c)]
    exts = [e for e in hello["extensions"] if not is_grease(e)]
    sigs = [s for s in hello["sig_algs"] if not is_grease(s)]
    part_a = "%s%s%s%02d%02d%s" % (
        transport,
        version,
        "d" if 0 in exts else "i",
        min(len(ciphers), 99),
        min(len(exts), 99),
        _alpn_code(hello["alpn"]),
    )
    cipher_list = ",".join("%04x" % c for c in sorted(ciphers))
    ext_list = ",".join("%04x" % e for e in sorted(exts) if e not in (0x0000, 0x0010))
    sig_list = ",".join("%04x" % s for s in sigs)
    c_text = ext_list + ("_" + sig_list if sig_list else "")
    part_b = _sha12(cipher_list) if ciphers else "000000000000"
    part_c = _sha12(c_text) if ext_list else "000000000000"
    original = "%s_%s_%s" % (",".join("%04x" % c for c in ciphers), ",".join("%04x" % e for e in exts), sig_list)
    return {
        "ja4": "%s_%s_%s" % (part_a, part_b, part_c),
        "ja4_r": "%s_%s_%s" % (part_a, cipher_list, c_text),
        "ja4_ro": "%s_%s" % (part_a, original),
    }


def peek_client_hello(sock, timeout_s=5.0):
    """Wait until the kernel buffer holds the whole ClientHello and return it, without consuming it."""
    deadline = time.monotonic() + timeout_s
    while True:
        data = sock.recv(65536, socket.MSG_PEEK)
        if not data:
            raise EOFError("closed before a ClientHello")
        found = hello_from_records(data)
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise TimeoutError("incomplete ClientHello after %.1f s (%d bytes)" % (timeout_s, len(data)))
        time.sleep(0.002)


def parse_h2_frames(data):
    """Whole frames in ``data`` (after the preface): list of (type, flags, stream, payload), bytes used."""
    frames, off = [], 0
    while off + 9 <= len(data):
        length = int.from_bytes(data[off : off + 3], "big")
        if off + 9 + length > len(data):
            break
        ftype, flags = data[off + 3], data[off + 4]
        stream = int.from_bytes(data[off + 5 : off + 9], "big") & 0x7FFFFFFF
        frames.append((ftype, flags, stream, data[off + 9 : off + 9 + length]))
        off += 9 + length
    return frames, off


def _priority_fields(payload):
    dep = int.from_bytes(payload[0:4], "big")
    return bool(dep >> 31), dep & 0x7FFFFFFF, payload[4] + 1  # weight on the wire is weight - 1


def h2_fingerprint(frames, headers):
    """Akamai fingerprint from the frames up to the first HEADERS and that request's header list."""
    settings, window, priorities, frame_log, headers_priority = [], None, [], [], None
    for ftype, flags, stream, payload in frames:
        entry = {"type": H2_FRAME_NAMES.get(ftype, str(ftype)), "stream": stream, "flags": flags, "len": len(payload)}
        if ftype == 4 and not flags & 0x1 and not settings:
            settings = [
                (int.from_bytes(payload[i : i + 2], "big"), int.from_bytes(payload[i + 2 : i + 6], "big"))
                for i in range(0, len(payload) - 5, 6)
            ]
            entry["settings"] = ["%s=%d" % (H2_SETTING_NAMES.get(k, str(k)), v) for k, v in settings]
        elif ftype == 8 and stream == 0 and window is None:
            window = int.from_bytes(payload[0:4], "big") & 0x7FFFFFFF
            entry["increment"] = window
        elif ftype == 2:
            excl, dep, weight = _priority_fields(payload)
            priorities.append("%d:%d:%d:%d" % (stream, int(excl), dep, weight))
        elif ftype == 1 and flags & 0x20:  # HEADERS with PRIORITY flag
            excl, dep, weight = _priority_fields(payload[1 if flags & 0x8 else 0 :])  # skip the pad length
            headers_priority = {"exclusive": excl, "depends_on": dep, "weight": weight}
        frame_log.append(entry)
    pseudo = [name for name, _ in headers if name.startswith(":")]
    akamai = "%s|%s|%s|%s" % (
        ";".join("%d:%d" % kv for kv in settings),
        "00" if window is None else str(window),
        ",".join(priorities) if priorities else "0",
        ",".join(PSEUDO_LETTERS.get(n, n) for n in pseudo),
    )
    return {
        "akamai": akamai,
        "akamai_hash": hashlib.md5(akamai.encode()).hexdigest(),
        "settings": ["%s=%d" % (H2_SETTING_NAMES.get(k, str(k)), v) for k, v in settings],
        "window_update": window,
        "priority_frames": priorities,
        "headers_frame_priority": headers_priority,
        "frames_before_request": frame_log,
        "pseudo_header_order": pseudo,
    }


def serve_h2(tls, record, answers=None):
    import h2.config
    import h2.connection
    import h2.events

    conn = h2.connection.H2Connection(
        config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8", validate_inbound_headers=False)
    )
    conn.initiate_connection()
    tls.sendall(conn.data_to_send())
    raw, first_headers, done, requests_seen = b"", None, False, []
    paths: dict[int, str] = {}  # a path starting with /hop answers 302 to /page (a redirect on one connection)
    fp_frames = None
    while not done:
        try:
            chunk = tls.recv(65536)
        except (socket.timeout, ssl.SSLError, OSError):
            break
        if not chunk:
            break
        if fp_frames is None:
            raw += chunk
            if len(raw) >= len(PREFACE):
                if not raw.startswith(PREFACE):
                    record["error"] = "no HTTP/2 preface"
                    return
                frames, _ = parse_h2_frames(raw[len(PREFACE) :])
                upto = next((i for i, f in enumerate(frames) if f[0] == 1), None)
                if upto is not None:
                    fp_frames = frames[: upto + 1]
        for event in conn.receive_data(chunk):
            if isinstance(event, h2.events.RequestReceived):
                hdrs = [(str(k), str(v)) for k, v in event.headers]
                requests_seen.append(event.stream_id)
                paths[event.stream_id] = dict(hdrs).get(":path", "")
                every = {}
                _record_request(every, hdrs, "h2")
                record.setdefault("requests", []).append(every)
                if first_headers is None:
                    first_headers = hdrs
            elif isinstance(event, h2.events.DataReceived):
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded) and paths.get(event.stream_id, "").startswith("/hop"):
                conn.send_headers(event.stream_id, [(":status", "302"), ("location", "/page"), ("content-length", "0")])
                conn.send_data(event.stream_id, b"", end_stream=True)
            elif isinstance(event, h2.events.StreamEnded) and paths.get(event.stream_id) in (answers or {}):
                # this file's own: an answer without content-length, whose end only the stream marks
                content_type, body = answers[paths[event.stream_id]]
                conn.send_headers(event.stream_id, [(":status", "200"), ("content-type", content_type)])
                conn.send_data(event.stream_id, body, end_stream=True)
            elif isinstance(event, h2.events.StreamEnded):
                conn.send_headers(
                    event.stream_id,
                    [
                        (":status", "200"),
                        ("content-type", "text/html; charset=utf-8"),
                        ("content-length", str(len(PAGE))),
                    ],
                )
                conn.send_data(event.stream_id, PAGE, end_stream=True)
                if event.stream_id == (requests_seen[0] if requests_seen else None):
                    tls.settimeout(1.0)  # after the first answer, wait briefly for more requests
            elif isinstance(event, h2.events.ConnectionTerminated):
                done = True
        out = conn.data_to_send()
        if out:
            tls.sendall(out)
    if first_headers is not None:
        record["http"] = "h2"
        record["h2"] = h2_fingerprint(fp_frames or [], first_headers)
        _record_request(record, first_headers, "h2")
        record["requests_on_connection"] = len(requests_seen)


def serve_h1(stream, record, first=b""):
    data = first
    while b"\r\n\r\n" not in data and len(data) < 65536:
        chunk = stream.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not lines or not lines[0]:
        record["error"] = "no HTTP request"
        return
    headers = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.append((name, value.strip()))
    record["http"] = "http/1.1"
    record["request_line"] = lines[0]
    method, _, rest = lines[0].partition(" ")
    target = rest.rsplit(" ", 1)[0]
    _record_request(record, [(":method", method), (":path", target)] + headers, "http/1.1")
    length = next((int(v) for k, v in headers if k.lower() == "content-length" and v.isdigit()), 0)
    while len(body) < length:
        chunk = stream.recv(65536)
        if not chunk:
            break
        body += chunk
    stream.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n"
        b"Connection: close\r\n\r\n" % len(PAGE) + PAGE
    )


def _record_request(record, headers, version):
    """Header order and the values a detector reads first; pseudo-headers stay out of header_order."""
    pseudo = dict(h for h in headers if h[0].startswith(":"))
    regular = [(k, v) for k, v in headers if not k.startswith(":")]
    record["method"] = pseudo.get(":method")
    record["path"] = pseudo.get(":path")
    record["header_order"] = [k for k, _ in regular]
    record["header_order_hash"] = hashlib.sha256(",".join(k.lower() for k, _ in regular).encode()).hexdigest()[:12]
    lower = {k.lower(): v for k, v in regular}
    record["user_agent"] = lower.get("user-agent")
    record["headers"] = {k: (v if len(v) <= 300 else v[:300] + "...") for k, v in regular if k.lower() != "cookie"}


TLS_DIR = os.path.join(os.path.dirname(__file__), "data", "tls")
CERT = os.path.join(TLS_DIR, "localhost.crt")
KEY = os.path.join(TLS_DIR, "localhost.key")


class FingerprintServer:
    """TLS on 127.0.0.1 recording each connection's fingerprint; a context manager."""

    def __init__(self, answers: Optional[dict[str, tuple[str, bytes]]] = None) -> None:
        #: ``{path: (content type, body)}`` answered over HTTP/2 without a content-length
        self.answers = answers or {}
        self.ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ctx.load_cert_chain(CERT, KEY)
        self.ctx.set_alpn_protocols(["h2", "http/1.1"])
        self.records: list[dict[str, Any]] = []
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def url(self, path: str = "/") -> str:
        return "https://localhost:%d%s" % (self.port, path)

    def __enter__(self) -> "FingerprintServer":
        thread = threading.Thread(target=self._serve, daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._stop.set()
        try:  # wakes the accept loop now instead of at its next 0.2 s accept timeout
            self._listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        for thread in self._threads:
            thread.join(10)
        self._listener.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                sock, _ = self._listener.accept()
            except OSError:  # the 0.2 s poll, or the listener shut down by __exit__
                continue
            handler = threading.Thread(target=self._handle, args=(sock,), daemon=True)
            handler.start()
            self._threads.append(handler)

    def _handle(self, sock: socket.socket) -> None:
        record: dict[str, Any] = {}
        sock.settimeout(5.0)
        try:
            message, _, _ = peek_client_hello(sock)
            hello = parse_client_hello(message)
            record["ja4"] = ja4(hello)["ja4"]
            record["alpn_offered"] = [p.decode("ascii", "replace") for p in hello["alpn"]]
            tls = self.ctx.wrap_socket(sock, server_side=True)
            if tls.selected_alpn_protocol() == "h2":
                serve_h2(tls, record, self.answers)
            else:
                serve_h1(tls, record)
                record.setdefault("http", "http/1.1")
        except (OSError, ValueError, EOFError, NotTLS, TimeoutError) as exc:
            record["error"] = "%s: %s" % (type(exc).__name__, exc)
        finally:
            sock.close()
            self.records.append(record)
