"""The deadline's reserve of a PDF read (reader/pdf.py ``_read_pages``): a page is not begun when
less time is left than ``PAGE_RESERVE`` times the slowest page so far, a page pypdf failed on
included (its time was spent all the same). On a fake clock: each page takes what the test says."""

import io
import types

import pypdf
from clocks import FakeClock
from pdfs import bomb_pdf

from websearch_sync.reader import pdf


class ClockDeadline:
    """A deadline on a fake clock (``Deadline`` reads the real one)."""

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        self.clock, self.end = clock, clock.monotonic() + seconds

    def remaining_s(self) -> float:
        return self.end - self.clock.monotonic()


def test_a_slow_page_pypdf_fails_on_keeps_the_next_page_from_starting_near_the_deadline(monkeypatch):
    # page 1 takes no time; page 2 takes 1 s and fails; 1.5 s are left then, under twice 1 s
    body = bomb_pdf([["The first page."], b"BT /F1 11 Tf [1 0 R] TJ ET", ["The third page."]])
    clock = FakeClock()
    monkeypatch.setattr(pdf, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    read_page = pdf._read_page
    begun = []

    def timed_page(*args):
        begun.append(len(begun) + 1)
        page = read_page(*args)
        clock.advance(1.0 if len(begun) == 2 else 0.0)
        return page

    monkeypatch.setattr(pdf, "_read_page", timed_page)
    reader = pypdf.PdfReader(io.BytesIO(body))
    read = pdf._read_pages(pypdf, reader, "text", None, ClockDeadline(clock, 2.5), pdf.MAX_CONTENT)
    assert begun == [1, 2]
    assert read.pages == ["--- Page 1 ---\n\nThe first page."]
    assert (read.truncated, read.timed_out, type(read.failure)) == (True, True, AssertionError)
