"""Opening a PDF stops once its fetch gave it up, at the deadline or on Ctrl-C: pypdf parses
the file through reads that reach a checkpoint (reader/pdf.py's ``_CheckedFile``). The PDF
holds 60,000 chained cross-reference tables (4.6 MB, under the default byte cap), which pypdf
reads in one call when it opens the file: about 2 s of CPU on an idle machine, which used to
run on in the thread its fetch had abandoned (and to keep its memory) after the call returned."""

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from clocks import WorkUnits, deadline_margin_s, download_s, pace_throughout, paced_budget_s
from faults import respond
from pdfs import chained_xref_pdf, xref_stream_pdf
from servers import FaultServer
from sigint import children_get_sigint
from test_fetch_pdf import PDF, fetch_error

import websearch_sync as ws
from websearch_sync.reader import pdf

SECTIONS = 60_000


@pytest.fixture(scope="module")
def slow_to_open():
    return chained_xref_pdf(SECTIONS)


@pytest.fixture
def file_reads(monkeypatch):
    """Each read and seek of the PDF's file by an extraction thread, the unit of pypdf's open:
    counted before the read's own checkpoint, so a read that no longer stops is counted too."""
    reads = WorkUnits("websearch-extract")

    class CountedFile(pdf._CheckedFile):
        read = reads.counted(pdf._CheckedFile.read)
        seek = reads.counted(pdf._CheckedFile.seek)

    monkeypatch.setattr(pdf, "_CheckedFile", CountedFile)
    return reads


def test_an_open_abandoned_at_the_deadline_stops_at_its_next_read_of_the_file(slow_to_open, file_reads):
    with FaultServer({"/c.pdf": respond(200, slow_to_open, content_type=PDF)}) as server:
        # the deadline leaves the call its set-up and download: the open (2 s of CPU) is what it cuts
        deadline_s = paced_budget_s(0.5) + 2 * download_s(server.url("/c.pdf"))
        error = fetch_error(server.url("/c.pdf"), timeout_ms=int(deadline_s * 1000))
        returned = time.monotonic()
        # the open stops at its next read of the file; one that does not reads on through
        # hundreds of thousands (the rest of its 60,000 tables)
        read_on = file_reads.after(returned)
    assert (type(error).__name__, error.detail_code) == ("Timeout", "deadline_exceeded"), repr(error)
    assert len(file_reads), "the open never read its file"
    assert read_on <= 1, "the open read its file %d more times after its fetch returned" % read_on


CHILD = textwrap.dedent(
    """
    import signal, sys, threading, time
    sys.path.insert(0, %(tests)r)
    import pypdf  # imported here: its first import (a fraction of a second) is no part of the open
    from clocks import WorkUnits
    from faults import respond
    from pdfs import chained_xref_pdf
    from servers import FaultServer
    import websearch_sync as ws
    from websearch_sync.reader import pdf

    reads = WorkUnits("websearch-extract")  # as the fixture file_reads counts them

    class CountedFile(pdf._CheckedFile):
        read = reads.counted(pdf._CheckedFile.read)
        seek = reads.counted(pdf._CheckedFile.seek)

    pdf._CheckedFile = CountedFile

    sent = []
    def interrupt():  # Ctrl-C once the open has begun
        while not len(reads):
            time.sleep(0.005)
        time.sleep(0.2)
        sent.append(time.monotonic())
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    body = chained_xref_pdf(%(sections)d)
    with FaultServer({"/c.pdf": respond(200, body, content_type="application/pdf")}) as server:
        threading.Thread(target=interrupt, daemon=True).start()
        try:
            ws.fetch(server.url("/c.pdf"), allow_private=True, timeout_ms=60_000)
            print("not interrupted")
        except KeyboardInterrupt:
            returned = time.monotonic()
            print("interrupted %%.3f read_on %%d" %% (returned - sent[0], reads.after(returned)))
    """
)


def test_ctrl_c_during_the_open_ends_the_call_and_the_open():
    code = CHILD % {"tests": str(Path(__file__).resolve().parent.parent), "sections": SECTIONS}
    with children_get_sigint(), pace_throughout() as pace:
        child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    words = child.stdout.split()
    assert words[0] == "interrupted", child.stdout
    interrupted, read_on = float(words[1]), int(words[3])
    # Ctrl-C is raised within the main thread's wake-up interval (0.25 s); the open stops at its
    # next read of the file, where it used to read on for the rest of its 2 s of CPU
    assert interrupted < deadline_margin_s(pace.slowdown, 1.0) + pace.late_s, child.stdout
    assert read_on <= 1, "the open read its file %d more times after Ctrl-C ended its fetch" % read_on


def test_a_cross_reference_stream_of_more_entries_than_the_file_could_hold_is_broken_at_once():
    # 1,990,000 entries of zeros in 6 KB: pypdf reads each from the decoded stream, never from
    # the file (2.5 s of CPU on an idle machine, which no checkpoint interrupts)
    body = xref_stream_pdf(1_990_000)
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server, pace_throughout() as pace:
        started = time.monotonic()
        error = fetch_error(server.url("/x.pdf"))
        elapsed = time.monotonic() - started
    assert (type(error), error.detail_code) == (ws.WebParseError, "pdf_broken"), repr(error)
    # (a first fetch in a process also spends a few tenths setting up: the margin is 1 s)
    assert elapsed < deadline_margin_s(pace.slowdown, 1.0) + pace.late_s, "took %.2f s" % elapsed
