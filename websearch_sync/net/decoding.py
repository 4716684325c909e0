"""A body's ``Content-Encoding`` decoded here, the same way for both wires, so that a
compressed stream that stops before its end is seen.

A server can send an incomplete gzip, deflate, brotli or zstd stream inside a correct
``Content-Length`` (or close a body that has no length mid-stream): the byte count matches,
and neither urllib3's decoders nor libcurl's say anything (measured on both wires: the page
came back cut, as if whole). Each wire therefore reads the body as it came (``requests``:
``decode_content=False``; libcurl: ``CURLOPT_HTTP_CONTENT_DECODING`` off, the profile's
``Accept-Encoding`` still sent) and hands it to :class:`DecodingSink`, which decodes it and,
when the body has ended, checks that every compressed stream in it reached its end: one that
did not is the error a body cut short is (:func:`cut_short`, ``incomplete_body``), whichever
wire read it. Decoded bytes go on in pieces of at most 64 KB, so the byte cap still stops a
decompression bomb before it is decoded whole.

gzip and deflate are the standard library's zlib; ``br`` needs ``brotli`` and ``zstd`` needs
``zstandard`` (both in the ``browser`` extra, whose profile asks for them); without them a
body in that coding is refused as undecodable (``bad_content_encoding``).
"""

import functools
import gzip
import importlib
import importlib.util
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Callable, Optional

from requests.structures import CaseInsensitiveDict

from ..errors import (
    BAD_CONTENT_ENCODING,
    CONNECTION_RESET,
    INCOMPLETE_BODY,
    RESPONSE_TOO_LARGE,
    NetworkError,
    WebProviderError,
)
from .wire import BodySink

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: At most this many codings are decoded one inside the other (urllib3's limit since
#: CVE-2025-66418): a longer chain is no server's real answer, and each coding is a decoder
#: (2000 stacked ``gzip`` raised ``RecursionError`` out of fetch).
MAX_CODINGS = 5
#: At most this many decoded bytes are handed to the sink at a time.
PIECE_BYTES = 65536
#: zstd input fed at a time: a zstd block expands at most 32768 times, so a slice decodes to at most 8 MB.
_ZSTD_SLICE = 256


@functools.cache
def _library(name: str) -> Any:
    """``brotli`` or ``zstandard``, imported when a body first needs it (zstandard alone takes
    about 30 ms to import, which a client that never meets a zstd body does not pay)."""
    return importlib.import_module(name)


def cut_short(host: str, provider: Optional[str], why: str, reset: bool = False) -> NetworkError:
    """The error of a body that stopped before its end (``why``): the connection broke or was
    reset (``reset``) mid-body, a chunked or ``Content-Length`` body came short, or a compressed
    stream in it did not reach its end; retryable, like any broken transfer."""
    return NetworkError(
        "the body from %s was cut short: %s" % (host, why),
        provider=provider,
        detail_code=CONNECTION_RESET if reset else INCOMPLETE_BODY,
    )


def broken_body(host: str, provider: Optional[str], reset: bool) -> NetworkError:
    """:func:`cut_short` for a connection that broke (or was ``reset``) mid-body, on either wire."""
    return cut_short(host, provider, "the connection %s while reading it" % ("was reset" if reset else "broke"), reset)


#: A coding as a message may name it (the server chose it: no free text in an error line).
CODING_TOKEN = re.compile(r"[a-z0-9._+-]{1,40}")

#: The transfer codings both wires read: libcurl refuses a body in any other (``gzip``, ``foo``).
TRANSFER_CODINGS = ("chunked", "identity")


def listed_codings(values: Iterable[str]) -> list[str]:
    """The codings a coding header lists, in order, lower case: its values (a repeated header's
    one after another), each a comma-separated list (``identity, chunked``), empty items left out."""
    return [token.strip().lower() for value in values for token in value.split(",") if token.strip()]


def unreadable_transfer(host: str, provider: Optional[str], coding: str) -> NetworkError:
    """``NetworkError(bad_content_encoding)``: ``host`` sent a body in a ``Transfer-Encoding`` other
    than chunked, which libcurl refuses and ``http.client`` read raw (``gzip, chunked``: the chunks'
    framing taken for the page), in the same words on both wires."""
    return NetworkError(
        "%s sent a body in a Transfer-Encoding (%s) that cannot be read here (readable: chunked)"
        % (host, coding if CODING_TOKEN.fullmatch(coding) else "unnamed"),
        provider=provider,
        detail_code=BAD_CONTENT_ENCODING,
    )


class _Zlib:
    """gzip (members one after another, as urllib3 reads them) or deflate (zlib-wrapped, or
    raw as some servers send it: the first bytes decide, as urllib3 and libcurl decide)."""

    failure: type[Exception] = zlib.error

    def __init__(self, gzip: bool) -> None:
        self.gzip = gzip
        self.wbits = 16 + zlib.MAX_WBITS if gzip else zlib.MAX_WBITS
        self.stream = zlib.decompressobj(self.wbits)
        self.started = False
        self.members = 0  # gzip members read to their end
        self.trailing = False  # bytes after a member that are no gzip: skipped, as urllib3 skips them

    @property
    def ended(self) -> bool:
        return self.stream.eof or self.trailing

    def decode(self, data: bytes) -> Iterator[bytes]:
        if not self.started and not self.gzip:
            try:
                zlib.decompressobj(self.wbits).decompress(data[:2])
            except zlib.error:  # no zlib header: raw deflate
                self.wbits = -zlib.MAX_WBITS
                self.stream = zlib.decompressobj(self.wbits)
        self.started = True
        while data and not self.trailing:
            if self.stream.eof:
                if not self.gzip:
                    return  # bytes after the stream's end: not part of the body
                self.stream, self.members = zlib.decompressobj(self.wbits), self.members + 1  # the next member
            try:
                piece = self.stream.decompress(data, PIECE_BYTES)
            except zlib.error:
                if not self.members:
                    raise
                self.trailing = True  # after a whole member (padding, garbage): the body is what came before
                return
            yield piece
            data = self.stream.unconsumed_tail or self.stream.unused_data
            while not data and len(piece) == PIECE_BYTES:  # output still held in the stream
                piece = self.stream.decompress(b"", PIECE_BYTES)
                yield piece


class _Brotli:
    def __init__(self) -> None:
        library = _library("brotli")
        self.stream, self.failure = library.Decompressor(), library.error

    @property
    def ended(self) -> bool:
        return bool(self.stream.is_finished())

    def decode(self, data: bytes) -> Iterator[bytes]:
        yield self.stream.process(data, output_buffer_limit=PIECE_BYTES)
        while not self.stream.can_accept_more_data():
            yield self.stream.process(b"", output_buffer_limit=PIECE_BYTES)


class _Zstd:
    """zstd, frames one after another (as urllib3 reads them)."""

    def __init__(self) -> None:
        library = _library("zstandard")
        self.library, self.failure = library, library.ZstdError
        self.stream = library.ZstdDecompressor().decompressobj()

    @property
    def ended(self) -> bool:
        return bool(self.stream.eof)

    def decode(self, data: bytes) -> Iterator[bytes]:
        for start in range(0, len(data), _ZSTD_SLICE):
            part = data[start : start + _ZSTD_SLICE]
            while part:
                if self.stream.eof:
                    self.stream = self.library.ZstdDecompressor().decompressobj()
                yield self.stream.decompress(part)
                part = self.stream.unused_data if self.stream.eof else b""


_CODINGS: dict[str, Callable[[], Any]] = {"gzip": lambda: _Zlib(True), "x-gzip": lambda: _Zlib(True)}
_CODINGS["deflate"] = lambda: _Zlib(False)
if importlib.util.find_spec("brotli") is not None:
    _CODINGS["br"] = _Brotli
if importlib.util.find_spec("zstandard") is not None:
    _CODINGS["zstd"] = _Zstd
#: The ``Content-Encoding`` values decoded here (a wire's ``decoders``).
DECODERS: tuple[str, ...] = tuple(_CODINGS)
#: The codings Chrome's profile asks for (the browser wire's ``Accept-Encoding``).
BROWSER_CODINGS: tuple[str, ...] = ("gzip", "deflate", "br", "zstd")


def decodes_all(codings: tuple[str, ...]) -> bool:
    """True when every one of ``codings`` is decoded here: the browser wire leaves decoding to
    libcurl otherwise (curl_cffi installed without the ``browser`` extra's ``brotli`` and
    ``zstandard``), so that a page in a coding it asked for is still read."""
    return all(name in _CODINGS for name in codings)


class DecodingSink:
    """A :class:`~.wire.BodySink` in front of another: the body as it came in, decoded (see the
    module docstring). The wire calls :meth:`end` once the body has ended by itself (not when
    the sink stopped it)."""

    def __init__(self, sink: BodySink, host: str, provider: Optional[str]) -> None:
        self.sink, self.host, self.provider = sink, host, provider
        self.decoders: list[Any] = []  # outermost coding first
        self.codings: list[str] = []
        self.redirect = False  # a redirect's body, which no browser reads: cut or not, no error
        self.failures: tuple[type[Exception], ...] = ()  # what the decoders raise on bytes not in their coding
        self.fed = False

    def head(self, status: int, headers: Mapping[str, str], url: str, framed: bool = False) -> bool:
        """The sink's answer; the decoders of the body's codings once it wants the body."""
        wanted = self.sink.head(status, headers, url, framed)
        self.redirect = 300 <= status < 400 and bool(_header(headers, "location"))
        codings = [token.strip().lower() for token in _header(headers, "content-encoding").split(",")]
        self.codings = [name for name in codings if name in _CODINGS]  # names of ours: safe to quote
        if len(self.codings) > MAX_CODINGS:
            raise NetworkError(
                "%s sent a body in %d codings one inside the other (Content-Encoding; at most %d are decoded)"
                % (self.host, len(self.codings), MAX_CODINGS),
                provider=self.provider,
                detail_code=BAD_CONTENT_ENCODING,
            )
        self.decoders = [_CODINGS[name]() for name in reversed(self.codings)]
        self.failures = tuple(dict.fromkeys(decoder.failure for decoder in self.decoders))
        return wanted

    def data(self, chunk: bytes) -> bool:
        """Decode ``chunk`` and hand it on in pieces; false once the sink wants no more."""
        if not chunk:
            return True
        self.fed = True
        try:
            for piece in self._decoded(chunk, 0):
                if piece and not self.sink.data(piece):
                    return False
        except self.failures:
            raise NetworkError(
                "%s sent a body that does not decompress (Content-Encoding: %s)" % (self.host, ", ".join(self.codings)),
                provider=self.provider,
                detail_code=BAD_CONTENT_ENCODING,
            ) from None
        return True

    def end(self) -> None:
        """The body has ended: ``incomplete_body`` when a compressed stream in it did not."""
        if self.fed and not self.redirect and not all(decoder.ended for decoder in self.decoders):
            raise cut_short(self.host, self.provider, "its compressed stream stops before its end")

    def _decoded(self, data: bytes, depth: int) -> Iterator[bytes]:
        if depth == len(self.decoders):
            yield data
            return
        for piece in self.decoders[depth].decode(data):
            yield from self._decoded(piece, depth + 1)


def _header(headers: Mapping[str, str], name: str) -> str:
    """A header's value whatever the case of its name (a wire's headers are a plain mapping; the
    requests wire's, a ``CaseInsensitiveDict``, holding one entry a name, are asked at once rather
    than walked: a walk calls two Python methods a header)."""
    if isinstance(headers, CaseInsensitiveDict):
        value: str = headers.get(name, "")
        return value
    return next((value for key, value in headers.items() if key.lower() == name), "")


# -- a whole body stored compressed ----------------------------------------------------------------
#
# A body can be compressed content itself (a ``.gz`` file served as ``application/gzip``): the wire
# leaves it so (no ``Content-Encoding``), and ``record`` stores it so. To look into it, it is
# decoded whole by the decoders above and, once changed, compressed again in the same coding.

#: The first bytes of a gzip member and of a zstd frame.
_GZIP_MAGIC = b"\x1f\x8b"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def sniffed_codings(data: bytes, brotli: bool = False) -> list[str]:
    """The codings (of :data:`DECODERS`) ``data`` may be compressed in, by its first bytes: gzip's
    magic, a zlib header (``deflate``: deflate's method, a window of at most 32 KB, its check
    bits), zstd's frame magic; ``br`` (which has no magic) when ``brotli`` is asked for, after those."""
    codings = []
    if data.startswith(_GZIP_MAGIC):
        codings.append("gzip")
    elif len(data) >= 2 and data[0] & 0x0F == 8 and data[0] >> 4 <= 7 and (data[0] << 8 | data[1]) % 31 == 0:
        codings.append("deflate")
    elif data.startswith(_ZSTD_MAGIC):
        codings.append("zstd")
    if brotli:
        codings.append("br")
    return [coding for coding in codings if coding in _CODINGS]


def decompressed(data: bytes, coding: str, limit: int, what: str) -> Optional[bytes]:
    """``data`` decoded whole from ``coding`` by the decoders the wires use; ``None`` when it is not
    in that coding (it does not decode, or its stream does not reach its end).

    Raises:
        WebProviderError: ``response_too_large``, when it decodes to more than ``limit`` bytes
            (``what`` names the body in the message).
    """
    decoder = _CODINGS[coding]()
    pieces, total = [], 0
    try:
        for piece in decoder.decode(data):
            total += len(piece)
            if total > limit:
                raise WebProviderError(
                    "%s decompresses (%s) to more than %d bytes" % (what, coding, limit),
                    detail_code=RESPONSE_TOO_LARGE,
                )
            pieces.append(piece)
    except decoder.failure:
        return None
    return b"".join(pieces) if decoder.ended else None


def compressed(data: bytes, coding: str) -> bytes:
    """``data`` compressed in ``coding`` (one of :func:`sniffed_codings`' answers), which
    :func:`decompressed` reads back."""
    if coding == "gzip":
        return gzip.compress(data, mtime=0)
    if coding == "deflate":
        return zlib.compress(data)
    if coding == "br":
        return bytes(_library("brotli").compress(data))
    return bytes(_library("zstandard").ZstdCompressor().compress(data))
