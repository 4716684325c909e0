"""What a PDF whose content decompresses to megabytes, or that holds very many pages, costs
``websearch_sync.fetch``: the wall time of the call, the CPU the process still spends once
it returned (the read a deadline abandoned, until it stops) and the peak memory of the
process, one fresh process per case (peak RSS only grows), each PDF served on 127.0.0.1.

    python bench/pdf_bombs.py [--timeout-ms N]

The cases (tests/pdfs.py builds them): one page of one endless run of text (pypdf's
extraction of it is worse than linear and cannot be interrupted), drawn by the page or
through a form XObject; 40 pages of 20 MB of blanks each (pypdf keeps what it decoded until
the read ends); a page holding 100 forms of 20 MB and drawing one; pages whose fonts have
character maps of 70 MB; 40 page objects each in an object stream of 20 MB; 1,000 pages of
0.9 MB of content each that pypdf's extraction fails on; 40,000 blank
pages in 3.2 MB; 60,000 cross-reference tables chained by ``/Prev`` in 4.6 MB, which pypdf reads
when it opens the file; a cross-reference stream of 1,990,000 entries in 6 KB (pypdf's limit is
2,000,000); 30 pages of 83 MB each in 160 KB, past the 75 MB pypdf decodes of one stream; these three read with a 1 s deadline (the others with 60 s, or ``--timeout-ms``;
``--only TEXT`` runs the cases whose name holds it). Each
line prints the compressed size, the outcome (``ok``, or the error's code), the call's wall
time, the CPU seconds after it and the peak RSS.

One run on a shared 2-core machine, before the caps of issue 35's QA pass / after: text 2 MB
5.3 s, 95 MB / 0.2 s, 74 MB (10 MB of it: about 2 minutes, in a thread the deadline abandons
but cannot stop); 40 x 20 MB 908 / 167 MB; 20 forms 507 / 166 MB; 100 idle forms 80 / 119 MB
(the drawn form is decoded either way); 15 fonts' maps 18.5 s, 1384 MB / 0.5 s, 204 MB; 40
object streams over 60 s (a Timeout at 60 s, its thread running on), 616 MB / 0.3 s, 158 MB.
30 pages of 83 MB each (160 KB), which pypdf stops decoding at 75 MB, load average 8, after this
stop's QA pass (left out for their size, no longer named as pages pypdf cannot read): ok,
15.3 s (each decoded to pypdf's cap, 75 MB, before it refuses), 0.00 s after, 260 MB.
Those pages' streams decoded under a cap of the 1 MB a page may draw (pypdf's
``apply_configuration``), load average 7, before / after: 13.16 s, 259 MB / 1.22 s, 98 MB.
So are the other pages drawing over 1 MB, whose streams decoded whole before (peak RSS, load
average 10-15, before / after): 40 pages x 20 MB 153 / 76 MB, 20 forms x 20 MB 152 / 75 MB, 100
idle forms 119 / 81 MB; the other cases unchanged in outcome and memory, 0.00 s of CPU after the call.
1,000 pages of 0.9 MB of content that pypdf's extraction fails on, 1.6 MB of file, before what a
failed page decoded counted to the budget / after: 938 MB (the review's run) / 122-129 MB.

40,000 blank pages, three runs each (load average 7), before the read resolved the pages
from the page tree itself (pypdf listed them all in one call before the first deadline check)
/ after: 1.84-1.98 s of CPU after the call returned, 174 MB / 0.00 s, 96-102 MB. The wall
times, 1.70-1.78 s / 1.44-1.59 s, are those of a fresh process's first call, which runs
past its 1 s deadline with or without the change; a second call returns within it.

pypdf's own work reading the file reaching a checkpoint at every read (``_CheckedFile``), load
average 8-10, before / after: 60,000 chained tables 1.09 / 0.00 s of CPU after the call returned;
the cross-reference stream 1.76 / 1.50 s (pypdf reads its entries from the decoded stream, not
the file: unchanged), then, its entries capped at one per 8 bytes of the file, ``pdf_broken`` in
0.81 s of wall time (a fresh process's first call) and 0.00 s after. The other cases unchanged
in outcome, 0.00 s of CPU after the call each.
"""

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

MB = 1_000_000
#: The deadline a case is read with when not ``--timeout-ms`` (its subject is the time after it).
CASE_TIMEOUT_MS = {"40,000 blank pages": 1000, "60,000 chained xref tables": 1000, "xref stream of 1,990,000": 1000}
CASES = (
    "text 2 MB",
    "text 2 MB in a form",
    "40 pages x 20 MB blanks",
    "20 forms x 20 MB blanks",
    "100 idle forms",
    "15 fonts x 70 MB maps",
    "40 object streams x 20 MB",
    "1,000 failing pages x 0.9 MB",
    "40,000 blank pages",
    "60,000 chained xref tables",
    "xref stream of 1,990,000",
    "30 pages x 83 MB past pypdf's cap",
)


def build(case: str) -> bytes:
    """The PDF of ``case``."""
    from pdfs import (
        blank_pages_pdf,
        bomb_pdf,
        chained_xref_pdf,
        deflated_repeats,
        mapped_font_pdf,
        object_stream_pdf,
        text_run,
        xref_stream_pdf,
    )

    if case.startswith("60,000"):
        return chained_xref_pdf(60_000)
    if case.startswith("xref stream"):
        return xref_stream_pdf(1_990_000)
    if case.startswith("40,000"):
        return blank_pages_pdf(40_000)
    if case.startswith("text"):
        return bomb_pdf([text_run(2 * MB)], in_form="form" in case)
    if case.startswith("40 pages"):
        return bomb_pdf([b" " * (20 * MB)] * 40)
    if case.startswith("20 forms"):
        return bomb_pdf([b" " * (20 * MB)] * 20, in_form=True)
    if case.startswith("40 object streams"):
        return object_stream_pdf(40, 20 * MB)
    if case.startswith("1,000 failing"):  # pypdf's extraction fails on each (a reference in its content)
        failing = b"BT /F1 11 Tf [1 0 R] TJ ET " + b"0 0 m\n" * 150_000
        return bomb_pdf([["The first page."], *[failing] * 1000])
    if case.startswith("30 pages"):  # pypdf stops decoding each at 75 MB (LimitReachedError)
        return bomb_pdf([["The first page."], *[deflated_repeats(b"BT (x) Tj ET " * 80_000, 80)] * 30])
    if case.startswith("15 fonts"):
        return mapped_font_pdf([["Page %d of the report." % n] for n in range(15)], 70 * MB)
    return _idle_forms(100, 20 * MB)


def _idle_forms(count: int, size: int) -> bytes:
    """One page holding ``count`` forms of ``size`` blanks in its resources and drawing the first."""
    import io
    import zlib

    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, StreamObject

    writer = PdfWriter()
    page = writer.add_blank_page(width=612, height=792)
    data = zlib.compress(b" " * size, 9)
    forms = DictionaryObject()
    for index in range(count):
        form = StreamObject()
        form._data = data  # noqa: SLF001  (stored compressed, as a producer writes it)
        form[NameObject("/Filter")] = NameObject("/FlateDecode")
        form[NameObject("/Subtype")] = NameObject("/Form")
        form[NameObject("/BBox")] = ArrayObject([FloatObject(0)] * 4)
        forms[NameObject("/X%d" % index)] = writer._add_object(form)  # noqa: SLF001
    content = StreamObject()
    content._data = b"/X0 Do"  # noqa: SLF001
    page[NameObject("/Contents")] = writer._add_object(content)  # noqa: SLF001
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): forms})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def measure(case: str, timeout_ms: int) -> dict[str, object]:
    """In this process: serve ``case``, fetch it, return its figures."""
    from clocks import wait_for_work
    from faults import respond
    from servers import FaultServer

    import websearch_sync as ws

    body = build(case)
    with FaultServer({"/b.pdf": respond(200, body, content_type="application/pdf")}) as server:
        started = time.monotonic()
        try:
            ws.fetch(server.url("/b.pdf"), allow_private=True, max_chars=10**8, timeout_ms=timeout_ms)
            outcome = "ok"
        except ws.WebSearchError as error:
            outcome = error.detail_code or error.code
        wall = time.monotonic() - started
        returned_cpu = time.process_time()
        wait_for_work("websearch-extract", 120)  # the read a deadline abandoned, until it stops
        after_cpu = time.process_time() - returned_cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KB on Linux
    return {
        "case": case,
        "bytes": len(body),
        "outcome": outcome,
        "wall_s": wall,
        "after_cpu_s": after_cpu,
        "peak_mb": peak / MB,
    }


def main() -> None:
    """Run every case in a process of its own and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout-ms", type=int, help="the deadline of every case (default: 60 s, or the case's own)")
    parser.add_argument("--only", help="run the cases whose name holds this text")
    parser.add_argument("--case", help=argparse.SUPPRESS)  # the child's one case
    args = parser.parse_args()
    if args.case:
        print(json.dumps(measure(args.case, args.timeout_ms)))
        return
    print("%-26s %9s %-20s %8s %11s %9s" % ("case", "PDF bytes", "outcome", "wall s", "after CPU s", "peak MB"))
    for case in [case for case in CASES if args.only is None or args.only in case]:
        timeout_ms = args.timeout_ms or CASE_TIMEOUT_MS.get(case, 60_000)
        child = [sys.executable, __file__, "--case", case, "--timeout-ms", str(timeout_ms)]
        line = subprocess.run(child, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
        row = json.loads(line)
        print(
            "%-26s %9d %-20s %8.2f %11.2f %9.0f"
            % (case, row["bytes"], row["outcome"], row["wall_s"], row["after_cpu_s"], row["peak_mb"])
        )


if __name__ == "__main__":
    main()
