"""The CLI's TerminalStream (control characters out, unencodable characters escaped) never fails
on the way out: collected after the stream it wraps was closed (a pipe its reader closed, a test's
captured output), it does not flush that stream (Python 3.13 reported "Exception ignored")."""

import gc
import io
import sys
import weakref

from websearch_sync.cli.output import TerminalStream


def test_control_characters_are_removed():
    target = io.StringIO()
    TerminalStream(target).write("a\x1b[31mb\x07c\n")
    assert target.getvalue() == "a[31mbc\n"


def test_a_wrapper_of_a_closed_stream_flushes_and_goes_quietly(monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    target = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # as a captured or piped stdout
    stream = TerminalStream(target)
    stream.write("x")
    target.close()
    stream.flush()  # before: ValueError: I/O operation on closed file
    collected = weakref.ref(stream)
    del stream  # the last reference: finalized here
    if collected() is not None:  # held in a cycle: only a collection finalizes it (a full one costs
        gc.collect()  # up to a second of CPU in a worker that has run a thousand tests)
    assert collected() is None and reported == []
