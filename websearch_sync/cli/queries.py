"""The queries of a batch (``--queries-file FILE``, ``-``: stdin): one a non-blank line, UTF-8.

A regular file is read whole before the batch starts, so a line that is not UTF-8 is refused
before any query runs. A pipe or a terminal (``producer | websearch-sync search --queries-file -``,
``--queries-file <(producer)``) is read a line at a time as the batch asks for the next query:
reading it to its end first kept a producer that streams queries, or a user typing them, waiting
for the first answer until the input ended.
"""

import os
import select
import stat
import sys
from collections.abc import Callable, Iterator
from functools import partial
from typing import IO, Any, AnyStr, Optional, Union

from ..errors import BAD_ARGUMENTS, QUERY_TOO_LONG, InvalidInput
from ..validate import MAX_QUERY_CHARS

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What an editor may put before the first line of a UTF-8 file (Notepad's "UTF-8 with BOM"): no query's text.
BYTE_ORDER_MARK = "\ufeff"
#: The byte order marks of UTF-16 (little and big endian), which Windows PowerShell's ``>`` writes.
UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")
#: Those of UTF-32 (little and big endian): UTF-32 LE's starts with UTF-16 LE's, so it is asked first.
UTF32_MARKS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")

#: The most bytes of a streamed line read before the rest is dropped (:class:`OverlongQuery`): a
#: query's longest UTF-8 form (4 bytes a character), and room for white space around it.
MAX_LINE_BYTES = 4 * MAX_QUERY_CHARS + 1024

#: A batch's queries: a list when the input was read whole, else an iterator reading it as the batch goes.
Queries = Union[list[str], Iterator[str]]


def read_queries(path: str) -> Queries:
    """The queries of ``path`` (``-``: stdin), read as UTF-8 from a file and from stdin alike; one
    query a line, ended by "\\n", CRLF or a lone CR (as a file is read in text mode), not by
    splitlines' form feeds, U+0085 and U+2028. A list for a regular file (read now, refused now),
    an iterator for a pipe or a terminal (see the module docstring). ``InvalidInput(bad_arguments)``
    when the input cannot be opened or read, or a line is not UTF-8, now or as it is read."""
    try:
        if path == "-":
            handle: IO[Any] = _stdin()
            close = False
        else:
            handle, close = open(path, "rb"), True  # an iterator may keep it open: closed by _queries
    except OSError as exc:
        raise InvalidInput(
            "cannot read --queries-file %s: %s%s" % (path, exc, _resolved_against(path, exc)), detail_code=BAD_ARGUMENTS
        ) from None
    done = handle.close if close else None
    if _regular(handle):
        return list(_queries(handle.readline, path, done))
    # a pipe or a terminal: read unbuffered, not through the file object (_streamed_lines)
    return _queries(partial(next, _streamed_lines(_unbuffered_read(handle)), b""), path, done)


def _stdin() -> IO[Any]:
    """stdin's bytes (not the locale's reading of them); a caller's text stream without bytes (a
    ``StringIO``) as it is. Asked for on a terminal."""
    if sys.stdin is None:  # started with stdin closed (<&-)
        raise OSError("the command was started without stdin")
    if sys.stdin.isatty():  # else a silent wait reads as a hang
        sys.stderr.write("reading queries from the terminal, one a line; end them with %s\n" % end_of_input_keys())
    buffer: Optional[IO[bytes]] = getattr(sys.stdin, "buffer", None)
    return sys.stdin if buffer is None else buffer


def _regular(handle: IO[AnyStr]) -> bool:
    """Whether ``handle`` reads a regular file (or memory: a caller's ``StringIO``), which ends."""
    try:
        return stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (OSError, ValueError):  # io.UnsupportedOperation is both: a stream in memory
        return True


def end_of_input_keys(platform: Optional[str] = None) -> str:
    """The keys that end a terminal's input on ``platform`` (default ``sys.platform``): Windows'
    console reads Ctrl-Z at a line's start, then Enter; Ctrl-D there is a character of the line."""
    return "Ctrl-Z then Enter" if (platform or sys.platform) == "win32" else "Ctrl-D"


def _queries(read_line: Callable[[], AnyStr], path: str, done: Optional[Callable[[], None]]) -> Iterator[str]:
    """The non-blank lines ``read_line`` gives, stripped, a line at a time (``done``: called at the end);
    ``InvalidInput(bad_arguments)`` at the end when there was none: a batch of nothing that says
    ``0 ok, 0 failed`` and succeeds reads as if the queries had run (an empty file, the wrong one)."""
    given = False
    try:
        for line in _lines(read_line, path):
            if isinstance(line, OverlongQuery):  # refused by the batch, not stripped into a plain str
                given = True
                yield line
                continue
            query = line.removeprefix(BYTE_ORDER_MARK).strip()  # a mark before any line: files concatenated
            if query:
                given = True
                yield query
        if not given:
            raise InvalidInput(
                "--queries-file %s holds no query (every line is blank): nothing to search"
                % ("- (stdin)" if path == "-" else path),
                detail_code=BAD_ARGUMENTS,
            )
    finally:
        if done is not None:
            done()


def _unbuffered_read(handle: IO[Any]) -> Callable[[], bytes]:
    """What reads ``handle``'s next bytes without its buffered object: its raw object's ``read``
    (a ``FileIO``, or on a Windows console the ``_WindowsConsoleIO`` that gives the typed text as
    UTF-8; ``os.read`` of that console gives its code page's bytes), else ``os.read`` of its descriptor."""
    raw = getattr(handle, "raw", None)
    read = partial(raw.read, 65536) if raw is not None else partial(os.read, handle.fileno(), 65536)
    return partial(_read_waiting, read, handle.fileno())


def _read_waiting(read: Callable[[], Optional[bytes]], fd: int) -> bytes:
    """``read()``'s next bytes (``b""`` at the end), waited for when the descriptor was left
    non-blocking (a parent's ``O_NONBLOCK``, shared with the pipe): its read says "no data yet"
    (``None``, or ``BlockingIOError``), which is no end of input."""
    while True:
        try:
            chunk = read()
        except BlockingIOError:
            chunk = None
        if chunk is not None:
            return chunk
        select.select([fd], [], [])  # POSIX only: a Windows console or pipe does not read non-blocking


class OverlongQuery(str):
    """The start of a streamed line over :data:`MAX_LINE_BYTES`, its query refused unsearched:
    the rest of the line was dropped as it came (a producer that never sends a line end grew the
    batch's memory without bound). ``error``: the refusal, naming the line."""

    line: int
    length: int  #: the line's bytes, its end left out

    def error(self) -> InvalidInput:
        """``InvalidInput(query_too_long)`` naming the line, its length and the limit."""
        return InvalidInput(
            "line %d of --queries-file is %d bytes long, over the %d read of a line (a query's limit is %d "
            "characters): not searched" % (self.line, self.length, MAX_LINE_BYTES, MAX_QUERY_CHARS),
            detail_code=QUERY_TOO_LONG,
        )


def overlong(text: str, line: int, length: int) -> OverlongQuery:
    """An :class:`OverlongQuery` of ``text``, line number ``line``, ``length`` bytes long."""
    query = OverlongQuery(text)
    query.line, query.length = line, length
    return query


class _Overlong(bytes):
    """The first :data:`MAX_LINE_BYTES` of a streamed line (cut at a character's start), the rest
    dropped; ``length``: the line's bytes, its end left out; ``end``: that end (none at the input's end)."""

    length: int
    end = b""


def _line_end(buffer: bytearray, start: int) -> int:
    """Where the first LF or CR from ``start`` is, ``-1`` when neither is."""
    ends = [end for end in (buffer.find(b"\n", start), buffer.find(b"\r", start)) if end >= 0]
    return min(ends) if ends else -1


def _streamed_lines(read: Callable[[], bytes]) -> Iterator[bytes]:
    """The lines ``read`` gives, each (its end included) as soon as its end arrives: a LF, or a CR
    (a CRLF's LF then opens the next one, for :func:`_lines` to drop); a line over
    :data:`MAX_LINE_BYTES` as :class:`_Overlong`, its rest read and dropped. Not through
    the stream's buffered file object: a batch's worker thread waiting in its ``readline`` holds
    that object's lock, and the interpreter, closing stdin as it exits after a reader left
    (``| head -1``), aborted ("Fatal Python error: _enter_buffered_busy", status 134)."""
    buffer, searched = bytearray(), 0
    kept: Optional[_Overlong] = None  # the start of a line over the cap, its rest being dropped
    while True:
        end = _line_end(buffer, searched)
        if kept is None and (end > MAX_LINE_BYTES or (end < 0 and len(buffer) > MAX_LINE_BYTES)):
            kept = _cut(buffer)
        if end >= 0:
            if kept is not None:
                kept.length, kept.end = kept.length + end, bytes(buffer[end : end + 1])
            yield bytes(buffer[: end + 1]) if kept is None else kept
            del buffer[: end + 1]
            searched, kept = 0, None
            continue
        if kept is not None:
            kept.length += len(buffer)
            buffer.clear()
        searched = len(buffer)
        chunk = read()
        if not chunk:
            if buffer or kept is not None:
                yield bytes(buffer) if kept is None else kept
            return
        buffer += chunk


def _cut(line: bytearray) -> _Overlong:
    """The first :data:`MAX_LINE_BYTES` of ``line`` (fewer: cut before a character's start), of length 0 yet."""
    cut = MAX_LINE_BYTES
    while cut > MAX_LINE_BYTES - 3 and line[cut] & 0xC0 == 0x80:  # a UTF-8 continuation byte
        cut -= 1
    kept = _Overlong(line[:cut])
    kept.length = 0
    return kept


def _resolved_against(path: str, exc: OSError) -> str:
    """For a relative path not found: where it was looked for (a batch started by a scheduler or a
    service runs in another working directory than the shell its author tried it in)."""
    if not isinstance(exc, FileNotFoundError) or os.path.isabs(path):
        return ""
    return " (looked for %s: a relative path is read from the working directory)" % os.path.abspath(path)


def _lines(read_line: Callable[[], AnyStr], path: str) -> Iterator[str]:
    """The lines ``read_line`` gives decoded, each as soon as it is read (not the read-ahead of
    iteration or ``read()``), split at a lone CR too (a CRLF can only end a line it gives, or
    end one with its CR, its LF given next)."""
    number, offset, after_cr = 0, 0, False
    while True:
        try:
            chunk: Union[str, bytes] = read_line()
        except OSError as exc:
            raise InvalidInput("cannot read --queries-file %s: %s" % (path, exc), detail_code=BAD_ARGUMENTS) from None
        if not chunk:
            return
        if isinstance(chunk, str):  # a caller's text stream: decoded already
            yield from chunk.removesuffix("\n").removesuffix("\r").split("\r")
            continue
        if offset == 0:
            _refuse_other_unicode(chunk, path)
        if isinstance(chunk, _Overlong):
            number += 1
            yield overlong(_utf8(chunk, path, number, offset), number, chunk.length)
            offset, after_cr = offset + chunk.length + len(chunk.end), chunk.end == b"\r"
            continue
        if after_cr and chunk.startswith(b"\n"):  # the LF of a CRLF whose CR ended the line before
            chunk, offset = chunk[1:], offset + 1
            if not chunk:
                after_cr = False
                continue
        after_cr = chunk.endswith(b"\r")
        body = chunk.removesuffix(b"\n").removesuffix(b"\r")
        for piece in body.split(b"\r"):
            number += 1
            yield _utf8(piece, path, number, offset)
            offset += len(piece) + 1
        offset += len(chunk) - len(body) - 1  # the line's end: one byte counted above, CRLF two


def _refuse_other_unicode(start: bytes, path: str) -> None:
    """``InvalidInput(bad_arguments)`` when the input starts with a UTF-32 or UTF-16 byte order mark."""
    if start.startswith(UTF32_MARKS):
        raise InvalidInput(
            "cannot read --queries-file %s: it is UTF-32 (its byte order mark says so): save it as UTF-8" % path,
            detail_code=BAD_ARGUMENTS,
        )
    if start.startswith(UTF16_MARKS):
        raise InvalidInput(
            "cannot read --queries-file %s: it is UTF-16 (its byte order mark says so, as PowerShell's > writes "
            "text): save it as UTF-8" % path,
            detail_code=BAD_ARGUMENTS,
        )


def _utf8(line: bytes, path: str, number: int, offset: int) -> str:
    """Line ``number`` (starting at byte ``offset``) decoded as UTF-8; ``InvalidInput(bad_arguments)``
    naming the line that is not (the codec's "position 53894" left a reader of a long file counting bytes)."""
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            "cannot read --queries-file %s: line %d is not UTF-8 (byte 0x%02x at byte offset %d: %s)"
            % (path, number, line[exc.start], offset + exc.start, exc.reason),
            detail_code=BAD_ARGUMENTS,
        ) from None
