"""stdout claimed by one writer: the command line's output, the MCP server's protocol.

A program reads those from stdout, where any other text breaks them: a backend plugin's
``print`` as it is imported (the registry loads plugins at its first question), in its
constructor, ``build_request`` or parser, or in a vendor module it imports lazily, in whatever
thread the search runs it. While :func:`claim_stdout` is active, ``sys.stdout`` is a stand-in
writing to stderr for everyone, so such text is still seen, and the claiming writer alone
writes to the real stdout, the stream :func:`owner_stdout` returns. ``sys.stdout`` is set
once for the whole block, never swapped around each call into a plugin: a swap is
process-wide, so a plugin running in one thread would redirect the writer's output in another.

A program using the library claims nothing: a plugin's ``print`` in its ``ws.search`` lands on
stdout, as any ``print`` does. Here, beside the registry that runs plugin code, for the layers
above that claim stdout: the command line and the MCP transport.
"""

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Optional, TextIO, Union, cast

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A text stream: a file's, or a wrapper of one (the command line's ``TerminalStream``).
Stream = Union[TextIO, io.TextIOBase]

#: The real stdout while a writer claims it (``None`` inside: the process has none), else empty.
_claimed: list[Optional[TextIO]] = []


@contextmanager
def claim_stdout(stdout: Optional[Stream], stand_in: Stream) -> Iterator[TextIO]:
    """Make ``stand_in`` (a stream to stderr, or what stands for it) ``sys.stdout`` for the block, and yield ``stdout``, the stream the claiming writer writes to
    (``None`` for a process started without one). Inside a claim (the command line's ``mcp``
    command, whose server claims stdout again) the first claim holds: its stdout is yielded."""
    if _claimed:
        yield owner_stdout()
        return
    saved = sys.stdout
    _claimed.append(cast(TextIO, stdout))  # a TextIOBase is written alike
    sys.stdout = cast(TextIO, stand_in)
    try:
        yield owner_stdout()
    finally:
        sys.stdout = saved
        _claimed.clear()


def owner_stdout() -> TextIO:
    """The stream the claiming writer writes its output to: the real stdout while it is claimed,
    else ``sys.stdout`` (``None`` for a process started without stdout)."""
    return _claimed[0] if _claimed else sys.stdout  # type: ignore[return-value]  # None: no stdout, as sys.stdout
