"""PDF reads their fetch gave up on (reader/pdfreads.py, reader/pdf.py ``_operation``): pypdf's
extraction of a page reaches a checkpoint before each operation, so a read given up stops
within one (it ran to the page's end: 2-4 s for 1 MB of content); and while two given-up reads
still run, a new read waits for one to end, at most half the time its deadline leaves, then is
refused, ``WebProviderError(pdf_reads_busy)``, retryable (an agent looping on a hostile PDF with a
short deadline left a thread running per call). No time measured: what gives a read up is an
event the test sets, and a wait is seen at its checkpoint."""

import threading
import weakref
from contextlib import ExitStack

import pypdf
import pytest
from pdfs import text_pdf
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync import forks
from websearch_sync.checkpoints import WorkAbandoned, abandonable
from websearch_sync.net.transport import HttpResponse
from websearch_sync.reader import pdf, pdfreads

BODY = text_pdf([["The quay opened in October."]])


def response(body: bytes = BODY) -> HttpResponse:
    return HttpResponse(200, CaseInsensitiveDict({"Content-Type": "application/pdf"}), body, "http://example.org/b.pdf")


@pytest.fixture(autouse=True)
def running(monkeypatch) -> pdfreads._Running:
    """The reads' count of this test alone (a read another test left running is not counted)."""
    reads = pdfreads._Running()
    monkeypatch.setattr(pdf, "RUNNING", reads)
    monkeypatch.setattr(pdfreads, "RUNNING", reads)
    return reads


def running_reads(stack: ExitStack, flags: list[threading.Event]) -> None:
    """Reads running, each given up by its flag, until ``stack`` closes."""
    for flag in flags:
        with abandonable(flag):
            stack.enter_context(pdfreads.RUNNING.reading("example.org", "fetch", 200))


def test_a_read_is_refused_while_two_given_up_reads_still_run():
    with ExitStack() as stack:
        flags = [threading.Event(), threading.Event()]
        running_reads(stack, flags)
        assert pdf.pdf_text(response(), mode="text", provider="fetch").text == "The quay opened in October."
        for flag in flags:
            flag.set()  # their fetches gave up: the reads run on
        with pytest.raises(ws.WebProviderError) as info:
            pdf.pdf_text(response(), mode="text", provider="fetch")
    assert (info.value.detail_code, info.value.retryable, info.value.to_dict()["retryable"]) == (
        "pdf_reads_busy",
        True,
        True,
    )
    assert "2 PDF reads given up earlier" in info.value.message
    # once they ended, reads go on
    assert pdfreads.RUNNING.abandoned() == 0
    assert pdf.pdf_text(response(), mode="text", provider="fetch").text == "The quay opened in October."


class Left:
    """A deadline leaving ``seconds`` (what a read may wait is a share of it)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def remaining_s(self) -> float:
        return self.seconds


def test_a_new_read_waits_for_a_given_up_read_to_end_within_its_deadline(monkeypatch):
    outcome: list = []
    waited = threading.Event()  # set at the checkpoint after each slice of the read's wait
    checkpoint = pdfreads.checkpoint

    def after_a_wait() -> None:
        waited.set()
        checkpoint()

    monkeypatch.setattr(pdfreads, "checkpoint", after_a_wait)
    with ExitStack() as first, ExitStack() as second:
        flags = [threading.Event(), threading.Event()]
        running_reads(first, flags[:1])
        running_reads(second, flags[1:])
        for flag in flags:
            flag.set()

        def read() -> None:
            try:
                outcome.append(pdf.pdf_text(response(), mode="text", provider="fetch", deadline=Left(600)).text)
            except ws.WebSearchError as error:
                outcome.append(error)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        assert waited.wait(60)  # a state awaited, not a time measured
        assert (pdfreads.RUNNING.waiting(), outcome) == (1, [])
        first.close()  # one given-up read ends: the waiting one goes on
        reader.join(60)
    assert outcome == ["The quay opened in October."]


def test_a_read_waits_at_most_its_share_of_the_time_left_then_is_refused():
    with ExitStack() as stack:
        flags = [threading.Event(), threading.Event()]
        running_reads(stack, flags)
        for flag in flags:
            flag.set()
        with pytest.raises(ws.WebProviderError) as info:
            pdf.pdf_text(response(), mode="text", provider="fetch", deadline=Left(0.02))
    assert (info.value.detail_code, pdfreads.RUNNING.waiting()) == ("pdf_reads_busy", 0)


def test_reads_their_fetches_still_wait_for_are_not_counted():
    # a batch of PDFs read at once: none was given up, none is refused
    with ExitStack() as stack:
        running_reads(stack, [threading.Event() for _ in range(5)])
        flag = threading.Event()
        flag.set()
        running_reads(stack, [flag])  # one given up: under the limit
        assert pdf.pdf_text(response(), mode="text", provider="fetch").text == "The quay opened in October."


def test_a_read_given_up_stops_within_an_operation_of_the_page_s_extraction(monkeypatch):
    # the page's 3,000 lines are 6,000 operations of pypdf's extraction; the read is given up
    # as the extraction begins: it stops before its second operation, not at the page's end
    body = text_pdf([["Line %d of the harbour report." % n for n in range(3000)]])
    given_up = threading.Event()
    operations = []
    extract = pypdf.PageObject.extract_text

    def counted(page, *args, visitor_operand_before=None, **kwargs):
        given_up.set()

        def operation(*operands):
            operations.append(operands[0])
            if visitor_operand_before is not None:
                visitor_operand_before(*operands)

        return extract(page, *args, visitor_operand_before=operation, **kwargs)

    monkeypatch.setattr(pypdf.PageObject, "extract_text", counted)
    with abandonable(given_up), pytest.raises(WorkAbandoned):
        pdf.pdf_text(response(body), mode="text", provider="fetch")
    assert len(operations) == 1
    assert pdfreads.RUNNING.abandoned() == 0  # the read stopped: it no longer counts


def test_a_forked_child_starts_with_no_read_running(monkeypatch):
    # the count was the parent's in a forked child, where none of those threads runs: it refused
    # every PDF until the parent's reads ended, if it lived that long
    monkeypatch.setattr(forks, "_LOCKED", weakref.WeakKeyDictionary())
    monkeypatch.setattr(forks, "_PARTS", weakref.WeakSet())
    monkeypatch.setattr(forks, "_FUNCTIONS", [])
    monkeypatch.setattr(forks, "_PARTS_LOCK", forks._PARTS_LOCK)  # put back after the renewal
    reads = pdfreads._Running()  # registered as the module's own is
    monkeypatch.setattr(pdf, "RUNNING", reads)
    with ExitStack() as stack:
        flags = [threading.Event(), threading.Event()]
        for flag in flags:
            with abandonable(flag):
                stack.enter_context(reads.reading("example.org", "fetch", 200))
            flag.set()
        assert reads.abandoned() == 2
        forks._forked()  # what the child runs first
        assert (reads.abandoned(), reads.waiting()) == (0, 0)
        assert pdf.pdf_text(response(), mode="text", provider="fetch").text == "The quay opened in October."
