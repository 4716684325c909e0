"""The deadline's reserve of a PDF read (reader/pdf.py ``_read_pages``): a page is not begun when
less time is left than ``PAGE_RESERVE`` times the slowest page so far, a page pypdf failed on
included (its time was spent all the same). On a fake clock: each page takes what the test says."""

import io
import types

import pypdf
from clocks import FakeClock
from pdfs import bomb_pdf, hand_written_pdf

from websearch_sync.reader import pdf, pdfpages


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


def test_counting_what_an_unparseable_kid_held_gives_up_at_its_share_of_the_time_left(monkeypatch):
    # 400 pages under the root, the second's object unparseable: what it held is the root's
    # /Count less its 399 siblings, each resolved to count it, 10 ms each on the fake clock
    # (4 s). The count gives up once it spent half the time the read had left (the pages after
    # it unnumbered), and the read goes on with the pages until its own reserve: within its
    # 2 s. Counting on to the end ran past the deadline (a fetch then abandons the read: no
    # text at all, a Timeout); counting on to the read's reserve left no time for pages.
    content = b"BT /F1 11 Tf 72 720 Td (The page.) Tj ET"
    pages = [b"<< /Type /Page /Parent 2 0 R /Contents 3 0 R >>"] * 400
    pages[1] = b"@@@@ ))) <<<"
    font = b"<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"
    body = hand_written_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count 400 /Resources %s >>"
            % (b" ".join(b"%d 0 R" % (4 + n) for n in range(400)), font),
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
            *pages,
        ]
    )
    clock = FakeClock()
    monkeypatch.setattr(pdf, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    monkeypatch.setattr(pdfpages, "checkpoint", lambda: clock.advance(0.01))  # a step of the page tree's walk
    read_page = pdf._read_page

    def timed_page(*args):
        clock.advance(0.1)
        return read_page(*args)

    monkeypatch.setattr(pdf, "_read_page", timed_page)
    reader = pypdf.PdfReader(io.BytesIO(body))
    deadline = ClockDeadline(clock, 2.0)
    read = pdf._read_pages(pypdf, reader, "text", None, deadline, pdf.MAX_CONTENT)
    assert deadline.remaining_s() > 0, "the read ran %.2f s past its deadline" % -deadline.remaining_s()
    assert read.pages[0] == "--- Page 1 ---\n\nThe page."
    # half the time left when the count began, for pages of 0.11 s until under twice 0.1 s is left
    assert read.pages[1:] == ["--- Page ? ---\n\nThe page."] * 6
    assert (read.truncated, read.timed_out) == (True, True)
