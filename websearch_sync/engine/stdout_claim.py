"""stdout claimed by one writer: the command line's output, the MCP server's protocol.

A program reads those from stdout, where any other text breaks them: a backend plugin's
``print`` as it is imported (the registry loads plugins at its first question), in its
constructor, ``build_request`` or parser, or in a vendor module it imports lazily, in whatever
thread the search runs it; or its direct write to the descriptor (``os.write(1, ...)``,
``sys.__stdout__``). While :func:`claim_stdout` is active, ``sys.stdout`` is a stand-in writing
to stderr for everyone and the process's descriptor 1 points at stderr too, so such text is
still seen, and the claiming writer alone writes to the real stdout, through a private copy of
descriptor 1: the stream :func:`owner_stdout` returns. ``sys.stdout`` is set once for the whole
block, never swapped around each call into a plugin: a swap is process-wide, so a plugin
running in one thread would redirect the writer's output in another. For the same reason one
thread at a time holds the claim (:class:`~websearch_sync.errors.StdoutClaimed`); a claim inside
the holder's own (the ``mcp`` command, whose server claims again) shares it.

A program using the library claims nothing: a plugin's ``print`` in its ``ws.search`` lands on
stdout, as any ``print`` does. Here, beside the registry that runs plugin code, for the layers
above that claim stdout: the command line and the MCP transport.
"""

import contextlib
import io
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Optional, TextIO, Union, cast

from ..errors import StdoutClaimed

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A text stream: a file's, or a wrapper of one (the command line's ``TerminalStream``).
Stream = Union[TextIO, io.TextIOBase]

#: The process's stdout descriptor.
STDOUT_FD = 1


@dataclass
class _Claim:
    """One claim's state: what it took over and gives back."""

    thread: int
    owner: Optional[Stream]  # what the claiming writer writes to (None: the process has no stdout)
    raw: Optional[TextIO]  # the stream under ``owner``
    private: bool  # ``raw`` is this claim's copy of stdout's descriptor, closed at the end
    saved_stdout: Optional[TextIO]
    saved: dict[int, int]  # each descriptor taken over: a copy of it as it was, restored at the end


_lock = threading.Lock()
_holder: Optional[_Claim] = None


@contextmanager
def claim_stdout(
    stand_in: Stream,
    wrap: Optional[Callable[[Optional[TextIO]], Stream]] = None,
    *,
    release: bool = True,
) -> Iterator[TextIO]:
    """Make ``stand_in`` (a stream to stderr, or what stands for it) ``sys.stdout`` and point
    stdout's descriptors (descriptor 1, and ``sys.stdout``'s) at stderr for the block; yield the stream the claiming writer writes to: the
    real stdout (a private copy of descriptor 1 when ``sys.stdout`` wrote there; ``None`` for a
    process started without stdout), passed through ``wrap`` when given.

    Inside this thread's own claim the first claim holds: its stream is yielded. Another
    thread's claim is :class:`~websearch_sync.errors.StdoutClaimed`. With ``release=False`` (the
    console command, whose process ends next) the writer's output is flushed and its copy closed,
    but ``sys.stdout`` stays the stand-in and the descriptors stay on stderr: what prints after the
    command (an ``atexit`` hook, a thread outliving it) cannot reach the output either.
    """
    global _holder
    with _lock:
        held = _holder
        if held is not None and held.thread != threading.get_ident():
            raise StdoutClaimed(
                "stdout is claimed by another thread's command: websearch_sync.cli.main and serve_stdio "
                "run one at a time in a process"
            )
        if held is None:
            _holder = claim = _take(stand_in, wrap)
    if held is not None:
        yield cast(TextIO, held.owner)  # None: no stdout, as sys.stdout
        return
    try:
        yield cast(TextIO, claim.owner)
    finally:
        with _lock:
            _holder = None
        _give_back(claim, release)


def owner_stdout() -> TextIO:
    """The stream the claiming writer writes its output to: the real stdout while it is claimed,
    else ``sys.stdout`` (``None`` for a process started without stdout)."""
    held = _holder
    return cast(TextIO, held.owner if held is not None else sys.stdout)  # None: no stdout, as sys.stdout


def _take(stand_in: Stream, wrap: Optional[Callable[[Optional[TextIO]], Stream]]) -> _Claim:
    """Take stdout over: its descriptors (``sys.stdout``'s and the process's descriptor 1)
    copied and pointed at stderr, ``sys.stdout`` the stand-in."""
    real = sys.stdout
    if real is not None:
        real.flush()  # what was written before the claim goes where it was meant to
    real_fd, fds = _descriptors(real)
    if STDOUT_FD in fds:
        cast(TextIO, sys.__stdout__).flush()
    saved: dict[int, int] = {}
    try:
        for fd in dict.fromkeys(fds):
            saved[fd] = os.dup(fd)
        raw = _copy(cast(TextIO, real), os.dup(saved[real_fd])) if real_fd is not None else real
    except BaseException:
        for copy in saved.values():
            os.close(copy)
        raise
    target = _stderr_fd()
    try:
        for fd in saved:
            os.dup2(target, fd)
    finally:
        if target != _fileno(sys.stderr):
            os.close(target)
    sys.stdout = cast(TextIO, stand_in)
    owner = wrap(raw) if wrap is not None else raw
    return _Claim(threading.get_ident(), owner, raw, real_fd is not None, real, saved)


def _descriptors(real: Optional[TextIO]) -> tuple[Optional[int], list[int]]:
    """``(real's descriptor, the descriptors to take over)``. A file's own text stream (or a capture
    built on one, or none): its descriptor is where its text goes, and descriptor 1 is taken too.
    Another stream with a descriptor (a tee, a codecs writer, a notebook's stream, whose ``fileno``
    is the kernel's terminal) is written to as it is, and no descriptor is touched: its text may
    reach descriptor 1 through it."""
    if real is not None and not isinstance(real, io.TextIOWrapper):
        return None, []
    real_fd = _fileno(real)
    return real_fd, [fd for fd in (real_fd, STDOUT_FD if _has_stdout_fd() else None) if fd is not None]


def _give_back(claim: _Claim, release: bool) -> None:
    """Flush the writer's output; give ``sys.stdout`` and the descriptors back when ``release``."""
    try:
        if claim.owner is not None and not getattr(claim.raw, "closed", False):
            claim.owner.flush()
    finally:
        if claim.private:
            cast(TextIO, claim.raw).close()
        if release:
            with contextlib.suppress(
                OSError, ValueError
            ):  # a plugin's own stream, closed or failing: its text, not ours
                if sys.__stdout__ is not None:
                    sys.__stdout__.flush()  # what a plugin wrote there meanwhile goes to stderr, not the output
            sys.stdout = cast(TextIO, claim.saved_stdout)
            for fd, copy in claim.saved.items():
                os.dup2(copy, fd)
        for copy in claim.saved.values():
            os.close(copy)


def drop_output() -> None:
    """Drop what the claiming writer has not written yet (its output failed: a closed pipe, a
    full disk): its descriptor points at the null device, so that flushing it cannot fail again."""
    held = _holder
    fd = _fileno(held.raw if held is not None else None)
    if fd is None:  # no stdout, or not a real file (tests capture it): nothing to flush
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def _copy(real: TextIO, fd: int) -> TextIO:
    """A text stream on ``fd`` written as ``real`` writes (its encoding, errors and buffering:
    ``PYTHONIOENCODING`` holds for the copy too)."""
    return io.TextIOWrapper(
        open(fd, "wb"),  # noqa: SIM115 - closed with the wrapper, by _give_back
        encoding=real.encoding,
        errors=real.errors,
        line_buffering=bool(real.line_buffering),
    )


def _stderr_fd() -> int:
    """stderr's descriptor (``sys.stderr``'s, else the process's descriptor 2), or a new one on
    the null device for a process without stderr, where stray output has nowhere else to go."""
    own = _fileno(sys.stderr)
    if own is not None:
        return own
    if sys.stderr is not None and sys.__stderr__ is not None and _fd_open(2):
        return os.dup(2)
    return os.open(os.devnull, os.O_WRONLY)


def _has_stdout_fd() -> bool:
    """Whether the process was started with stdout and its descriptor 1 is still open (without
    one, descriptor 1 may be any file opened since: it is left alone)."""
    return sys.__stdout__ is not None and _fd_open(STDOUT_FD)


def _fd_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _fileno(stream: Optional[TextIO]) -> Optional[int]:
    """``stream``'s descriptor; ``None`` for none, or a stream without one (a capture, a wrapper)."""
    try:
        return stream.fileno() if stream is not None else None
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both an OSError and a ValueError
        return None
