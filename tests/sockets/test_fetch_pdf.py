"""fetch reads a PDF served on loopback: its text layer as text or markdown, its title from
the metadata, page headings; typed errors for an encrypted, a text-less, a broken and a
cut PDF; the byte cap, max_chars and the deadline hold on a large one."""

import contextlib
import functools
import io
import logging
import re
import sys
import time

import pypdf
import pytest
from clocks import deadline_margin_s, pace_throughout, wait_for_work
from faults import respond
from pdfs import (
    blank_pages_pdf,
    bomb_pdf,
    broken_pdf,
    hand_written_pdf,
    idle_form_pdf,
    mapped_font_pdf,
    misplaced_xref,
    nested_tree_pdf,
    object_stream_pdf,
    text_pdf,
    text_run,
    textless_pdf,
)
from pypdf.generic import ArrayObject, ByteStringObject, NumberObject
from servers import FaultServer, json_results

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.client.search_client import SearchClient
from websearch_sync.reader import pdf

PDF = "application/pdf"
REPORT = text_pdf(
    [
        ["Annual report of the harbour authority", "Tonnage rose by four percent in the year."],
        ["Dredging of the inner basin was finished in May.", "The new quay opened in October."],
    ],
    title="Harbour Authority Annual Report 2024",
)
HUGE_PAGES = 1600


@functools.cache
def long_report(pages: int = 300) -> bytes:
    """``pages`` pages of 40 lines. 300 (800 KB): pypdf reads it in about 0.45 s on an idle machine.
    :data:`HUGE_PAGES` (4.3 MB, under the 5 MB default byte cap): about 2.4 s of reading on an idle
    machine, five times the 500 ms deadline the deadline test gives it. Built when a test needs it,
    not when the module is collected (in every worker, 0.4 s of CPU)."""
    return text_pdf(
        [
            ["Page %d, line %d of the long report on the harbour." % (page, line) for line in range(40)]
            for page in range(pages)
        ]
    )


def fetch(url, **kwargs):
    kwargs.setdefault("allow_private", True)
    kwargs.setdefault("settings", ws.Settings())
    return ws.fetch(url, **kwargs)


def fetch_error(url, **kwargs):
    with pytest.raises(ws.WebSearchError) as info:
        fetch(url, **kwargs)
    return info.value


def test_a_pdf_is_read_as_markdown_with_its_title_and_page_headings():
    with FaultServer({"/r.pdf": respond(200, REPORT, content_type=PDF)}) as server:
        result = fetch(server.url("/r.pdf"))
    assert result["extractor"] == "pdf" and result["content_type"] == PDF
    assert result["title"] == "Harbour Authority Annual Report 2024"
    assert result["text"] == (
        "## Page 1\n\nAnnual report of the harbour authority\nTonnage rose by four percent in the year.\n\n"
        "## Page 2\n\nDredging of the inner basin was finished in May.\nThe new quay opened in October."
    )
    assert not result["truncated"] and result["length"] == len(result["text"])


@pytest.mark.parametrize(
    "title, shown",
    [
        ("Harbour\x1b[2J report\x00 2024\x07", "Harbour [2J report 2024"),
        (ArrayObject([NumberObject(1), NumberObject(2)]), ""),
        (NumberObject(42), ""),
        # UTF-16 with a lone surrogate: pypdf gives up on it and reads the bytes as PDFDocEncoding
        # ("þÿ AØ  B"); read as UTF-16 with the broken unit replaced, as a browser shows it
        (ByteStringObject(b"\xfe\xff\x00A\xd8\x00\x00B"), "A\ufffdB"),
        (ByteStringObject("Harbour report".encode("utf-16-le")[:-1].join([b"\xff\xfe", b""])), "Harbour repor\ufffd"),
    ],
    ids=["control characters", "an array", "a number", "broken UTF-16", "UTF-16LE cut short"],
)
def test_a_pdf_title_is_a_line_of_text_or_empty(title, shown):
    body = text_pdf([["A one-page notice."]], title=title)
    with FaultServer({"/r.pdf": respond(200, body, content_type=PDF)}) as server:
        assert fetch(server.url("/r.pdf"))["title"] == shown


def with_info(info_objects):
    """A one-page PDF reading "Hello world" whose trailer's ``/Info`` is object 6, then ``info_objects``."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    content = b"BT /F1 11 Tf 72 720 Td (Hello world) Tj ET"
    body = hand_written_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
            font,
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
            *info_objects,
        ]
    )
    return body.replace(b"/Root 1 0 R", b"/Root 1 0 R /Info 6 0 R")


@pytest.mark.parametrize(
    "info_objects",
    [[b"6 0 R"], [b"7 0 R", b"6 0 R"], [b"<< /Title 7 0 R >>", b"7 0 R"], [b"[1 2 3]"]],
    ids=["info refers to itself", "info in a cycle of two", "title refers to itself", "info an array"],
)
def test_a_pdf_whose_metadata_cannot_be_read_is_read_without_a_title(info_objects):
    with FaultServer({"/r.pdf": respond(200, with_info(info_objects), content_type=PDF)}) as server:
        result = fetch(server.url("/r.pdf"))
    assert (result["extractor"], result["title"], result["text"]) == ("pdf", "", "Hello world")


def test_a_pdf_is_read_as_text_with_page_rules():
    with FaultServer({"/r.pdf": respond(200, REPORT, content_type=PDF)}) as server:
        text = fetch(server.url("/r.pdf"), extract_mode="text")["text"]
    assert text.startswith("--- Page 1 ---\n\nAnnual report of the harbour authority\n")
    assert "\n\n--- Page 2 ---\n\nDredging of the inner basin" in text


@pytest.mark.parametrize("content_type", [None, "application/octet-stream"])
def test_a_pdf_without_a_content_type_is_sniffed(content_type):
    one_page = text_pdf([["A one-page notice."]], title="Notice")
    with FaultServer({"/d": respond(200, one_page, content_type=content_type)}) as server:
        result = fetch(server.url("/d"))
    assert (result["extractor"], result["title"], result["text"]) == ("pdf", "Notice", "A one-page notice.")


@pytest.mark.parametrize(
    "content_type",
    [
        # a server's way of making a browser save the file (PHP download scripts): no type of the body
        "application/force-download",
        "application/x-download",
        "application/download",
        "application/binary",
        # the PDF's older or alias names
        "application/acrobat",
        "application/vnd.pdf",
    ],
)
def test_a_pdf_served_under_a_download_type_or_an_alias_of_pdf_is_read(content_type):
    # it was refused as "application/force-download content, which fetch cannot read (only HTML,
    # JSON, text and PDF)", its body not even read: a PDF refused for not being a PDF
    one_page = text_pdf([["A one-page notice."]], title="Notice")
    with FaultServer({"/d": respond(200, one_page, content_type=content_type)}) as server:
        result = fetch(server.url("/d"))
    assert (result["extractor"], result["title"], result["text"]) == ("pdf", "Notice", "A one-page notice.")
    assert result["content_type"] == content_type


def test_an_archive_served_under_a_download_type_is_refused_as_binary_data():
    with FaultServer({"/d": respond(200, b"PK\x03\x04" + bytes(200), content_type="application/force-download")}) as s:
        error = fetch_error(s.url("/d"))
    assert error.detail_code == "unsupported_content" and "binary data by its first bytes" in error.message


@pytest.mark.parametrize("content_type", ["text/plain", "text/html; charset=utf-8"])
def test_a_pdf_served_as_text_is_read_as_a_pdf_not_as_its_syntax(content_type):
    with FaultServer({"/r.pdf": respond(200, REPORT, content_type=content_type)}) as server:
        result = fetch(server.url("/r.pdf"))
    assert (result["extractor"], result["title"]) == ("pdf", "Harbour Authority Annual Report 2024")
    assert result["text"].startswith("## Page 1\n\nAnnual report of the harbour authority")


#: A sign-in page whose charset only its <meta> says: read without it, its GBK is taken for EUC-KR.
SIGN_IN = (
    "<!doctype html><html><head><meta charset=gbk><title>请登录</title></head><body><p>请登录后下载全文</p></body></html>"
).encode("gbk")
#: What PHP prints before a file when a warning came out before the script's header(): it opens as
#: an HTML page (``<br``), but a PDF's header follows within the first KB.
PHP_WARNING = (
    b"<br />\n<b>Warning</b>:  Cannot modify header information - headers already sent by (output started at"
    b" /srv/a.php:3) in <b>/srv/a.php</b> on line <b>9</b><br />\n"
)


@pytest.mark.parametrize("content_type", [PDF, "application/x-pdf"])
def test_a_page_served_as_a_pdf_is_read_as_the_page(content_type):
    """A publisher's sign-in or error page sent with the type of the PDF it stood for was refused
    as pdf_broken ("no PDF: it opens with no %PDF- header (it opens as an HTML page)"). A body that
    opens as an HTML page with no %PDF- header where PDF readers look is the page, read in the
    charset its <meta> names, as under text/html (and as a PDF served as text/html is the PDF)."""
    served = {
        "/r.pdf": respond(200, SIGN_IN, content_type=content_type),
        "/page": respond(200, SIGN_IN, content_type="text/html"),
    }
    with FaultServer(served) as server:
        result = fetch(server.url("/r.pdf"))
        as_html = fetch(server.url("/page"))
    assert (result["extractor"], result["title"], result["text"]) == (
        as_html["extractor"],
        as_html["title"],
        as_html["text"],
    )
    assert (result["title"], result["text"]) == ("请登录", "请登录后下载全文")
    assert result["content_type"] == content_type  # what the server said, as for any sniffed body


def test_a_pdf_after_a_php_warning_served_as_a_pdf_is_still_the_pdf():
    """The warning opens as an HTML page, but the PDF's header follows where PDF readers find it."""
    with FaultServer({"/r.pdf": respond(200, PHP_WARNING + REPORT, content_type=PDF)}) as server:
        result = fetch(server.url("/r.pdf"))
    assert (result["extractor"], result["title"]) == ("pdf", "Harbour Authority Annual Report 2024")


@pytest.mark.parametrize(
    "body, code, detail, words",
    [
        (text_pdf([["Secret minutes."]], password="s3cret"), "WebProviderError", "pdf_encrypted", "encrypted"),
        (textless_pdf(), "WebParseError", "pdf_no_text", "without a text layer"),
        (broken_pdf(), "WebParseError", "pdf_broken", "cannot be read"),
        # no page to scan: a page tree of none, or whose kids are no array (pypdf finds none)
        (blank_pages_pdf(0), "WebParseError", "pdf_no_text", "of no page: its page tree lists none"),
        # a cross-reference offset past 2**63: pypdf's seek to it raised OverflowError (internal_error)
        (re.sub(rb"startxref\s+\d+", b"startxref\n99999999999999999999", REPORT), "WebParseError", "pdf_broken", ""),
        (blank_pages_pdf(1).replace(b"/Kids [3 0 R]", b"/Kids 3 0 R  "), "WebParseError", "pdf_no_text", "of no page"),
    ],
    ids=["encrypted", "scanned", "broken", "no page", "startxref past 2**63", "kids no array"],
)
def test_an_unreadable_pdf_says_why(body, code, detail, words):
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
        error = fetch_error(server.url("/x.pdf"))
    assert (type(error).__name__, error.detail_code) == (code, detail), repr(error)
    assert words in error.message


@pytest.mark.parametrize(
    "body, cut",
    [
        (REPORT[: len(REPORT) // 2], True),  # an upload or a copy that stopped halfway, served whole
        (REPORT[:-40], True),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\nthis is not a PDF object\nstartxref\n999999\n%%EOF\n", False),
    ],
    ids=["half", "its trailer cut", "garbage with a trailer"],
)
def test_a_pdf_cut_short_is_broken_saying_it_ends_without_its_trailer(body, cut):
    # "cannot be read (PdfStreamError)" alone did not tell a file cut short from one malformed
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
        error = fetch_error(server.url("/x.pdf"))
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "pdf_broken"), repr(error)
    assert ("ends without a PDF's trailer" in error.message) is cut, error.message


@pytest.mark.parametrize(
    "body, code, detail",
    [
        # encrypted for certificates, not with a password: pypdf reads the standard handler only
        (
            text_pdf([["Secret minutes."]], password="").replace(b"/Filter /Standard", b"/Filter /Adobe.PubSec"),
            "WebProviderError",
            "pdf_encrypted",
        ),
        (bomb_pdf([b"BT (hello) Tj ET"]).replace(b"/FlateDecode", b"/FooDecode"), "WebParseError", "pdf_broken"),
        # an abbreviation pypdf 7 refuses with its DeprecationError, outside its PyPdfError
        (bomb_pdf([b"BT (hello) Tj ET"]).replace(b"/FlateDecode", b"/Fl"), "WebParseError", "pdf_broken"),
        # pypdf asserts a reference has a document to resolve in: in a content stream it has none
        (bomb_pdf([b"BT /F1 11 Tf [1 0 R] TJ ET"]), "WebParseError", "pdf_broken"),
    ],
    ids=["certificate encryption", "unknown filter", "abbreviated filter", "reference in content"],
)
def test_a_pdf_using_what_pypdf_does_not_implement_says_why_not_internal_error(body, code, detail):
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
        error = fetch_error(server.url("/x.pdf"))
    assert (type(error).__name__, error.detail_code) == (code, detail), repr(error)


#: Page contents pypdf fails on (the cases above, each on a page of its own).
BROKEN_PAGES = {
    "reference in content": b"BT /F1 11 Tf [1 0 R] TJ ET",  # pypdf's AssertionError
    "nested 100,000 deep": b"BT /F1 11 Tf 72 720 Td (x) Tj ET " + b"[" * 100_000 + b"]" * 100_000,  # RecursionError
}


@pytest.mark.parametrize("content", BROKEN_PAGES.values(), ids=BROKEN_PAGES.keys())
def test_a_page_pypdf_fails_on_is_left_out_and_the_other_pages_are_read(content):
    body = bomb_pdf([["The first page."], content, ["The third page."]])
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/x.pdf"))
    assert result["text"] == "## Page 1\n\nThe first page.\n\n## Page 3\n\nThe third page."
    # no max_chars brings the page back: not truncated, but said in a warning naming it
    assert result["truncated"] is False
    [warning] = result["errors"]
    assert (warning["type"], warning["detail_code"]) == ("WebParseError", "pdf_pages_left_out")
    assert "left out page 2 (" in warning["message"] and "the other pages were read" in warning["message"]


def three_pages(second, count=b"3", kids=b"3 0 R 4 0 R 5 0 R"):
    """A PDF of three pages reading "Page one", "Page two", "Page three" whose second page's
    object is ``second`` (its content stream is object 8), their root's ``/Kids`` ``kids``
    (objects 3, 4, 5 are the pages) and its ``/Count`` ``count``."""
    streams = [b"BT /F1 11 Tf 72 720 Td (Page %s) Tj ET" % word for word in (b"one", b"two", b"three")]
    return hand_written_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %s /Resources << /Font << /F1 6 0 R >> >> >>" % (kids, count),
            b"<< /Type /Page /Parent 2 0 R /Contents 7 0 R >>",
            second,
            b"<< /Type /Page /Parent 2 0 R /Contents 9 0 R >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            *[b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content) for content in streams],
        ]
    )


def test_a_page_whose_object_cannot_be_parsed_is_left_out_and_the_other_pages_are_read():
    with FaultServer({"/x.pdf": respond(200, three_pages(b"@@@@ ))) <<<"), content_type=PDF)}) as server:
        result = fetch(server.url("/x.pdf"), extract_mode="text")
    assert result["text"] == "--- Page 1 ---\n\nPage one\n\n--- Page 3 ---\n\nPage three"
    assert result["truncated"] is False
    assert "left out page 2 (PdfReadError)" in result["errors"][0]["message"]
    with FaultServer(
        {"/x.pdf": respond(200, three_pages(b"<< /Type /Page /Contents 8 0 R >>"), content_type=PDF)}
    ) as s:
        assert "Page two" in fetch(s.url("/x.pdf"))["text"]  # the same file, its page whole: all three


UNPARSEABLE = b"@@@@ ))) <<<"
UNKNOWN = "a part of the page tree after page 1 (how many pages unknown) (PdfReadError)"


@pytest.mark.parametrize(
    "count, kids, third, left_out",
    [
        (b"3", b"3 0 R 4 0 R 5 0 R", "Page 3", "page 2 (PdfReadError)"),
        # a kid among pages said to hold several, or none: the count is wrong, not the page a node
        (b"4", b"3 0 R 4 0 R 5 0 R", "Page ?", UNKNOWN),
        (b"30", b"3 0 R 4 0 R 5 0 R", "Page ?", UNKNOWN),
        (b"2", b"3 0 R 4 0 R 5 0 R", "Page ?", UNKNOWN),
        (b"1.5", b"3 0 R 4 0 R 5 0 R", "Page ?", UNKNOWN),
        # kids the walk skips (a null, an empty dictionary) hold no page in the count either
        (b"3", b"3 0 R null 4 0 R << >> 5 0 R", "Page 3", "page 2 (PdfReadError)"),
    ],
)
def test_the_pages_after_an_unparseable_page_are_numbered_only_when_the_counts_hold(count, kids, third, left_out):
    with FaultServer({"/x.pdf": respond(200, three_pages(UNPARSEABLE, count, kids), content_type=PDF)}) as server:
        result = fetch(server.url("/x.pdf"), extract_mode="text")
    assert result["text"] == "--- Page 1 ---\n\nPage one\n\n--- %s ---\n\nPage three" % third
    assert re.findall(r"left out (.*?): pypdf cannot read it;", result["errors"][0]["message"]) == [left_out]


def test_the_model_is_told_which_pages_were_left_out_not_that_the_text_was_cut():
    # raising max_chars cannot bring back a page pypdf fails on: the tool text names it instead
    body = bomb_pdf([["The first page."], BROKEN_PAGES["reference in content"], ["The third page."]])
    with SearchClient(settings=ws.Settings(allow_private=True)) as client:
        with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
            result = tool.ToolSession(client).call_tool("web_fetch", {"url": server.url("/x.pdf")})
    text = tool.format_results(result)
    assert "truncated to" not in text
    assert "\nNote: 127.0.0.1 served a PDF of which fetch left out page 2 (AssertionError): pypdf cannot" in text


def test_a_search_with_include_content_keeps_the_warning_on_a_pdfs_pages_left_out(json_backends):
    # the page's text stands, its pages left out said with its URL: as a warning, not a failed page
    json_backends("aa")
    body = bomb_pdf([["The first page."], BROKEN_PAGES["reference in content"], ["The third page."]])
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
        url = server.url("/x.pdf")
        server.routes["/aa"] = json_results(url)
        settings = ws.Settings(endpoints={"aa": server.url("/aa")}, allow_private=True)
        with ws.SearchClient("aa", settings=settings) as client:
            result = client.search("q", include_content=True)
            again = client.search("q", include_content=True)
    assert again["provider_meta"]["cached"] is True  # all pages were read: the answer is kept
    assert again["errors"] == result["errors"]  # with the warning of the pages left out
    [item] = result["items"]
    assert item["content"] == "--- Page 1 ---\n\nThe first page.\n\n--- Page 3 ---\n\nThe third page."
    [warning] = result["errors"]
    assert (warning["detail_code"], warning["url"], warning["provider"]) == ("pdf_pages_left_out", url, "fetch")
    assert "left out page 2 (AssertionError): pypdf cannot read it;" in warning["message"]
    text = tool.format_results(result)
    assert "\nNote: parts of %s were left out: 127.0.0.1 served a PDF of which fetch left out page 2" % url in text
    assert "could not be read" not in text and "failed" not in text


def test_pages_left_out_are_logged_once_at_info_and_each_at_debug_with_pypdfs_error(caplog):
    # a broken tree can have 40,000 kids that cannot be parsed: one INFO line, not one a page;
    # each page at DEBUG with its traceback, so a bug of ours in the read is not hidden
    body = bomb_pdf([["The first page."], *[BROKEN_PAGES["reference in content"]] * 5])
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server, caplog.at_level(logging.DEBUG):
        fetch(server.url("/x.pdf"))
    left_out = [r for r in caplog.records if r.name == "websearch_sync" and "left out" in r.getMessage()]
    assert [r.levelno for r in left_out].count(logging.INFO) == 1
    debug = [r for r in left_out if r.levelno == logging.DEBUG]
    assert len(debug) == 5 and all(r.exc_info and r.exc_info[0] is AssertionError for r in debug)


def test_the_debug_line_of_a_pdf_pypdf_fails_on_shows_no_credentials_of_the_url(caplog):
    # a service's DEBUG log may be shipped anywhere: the URL's user info and query (a signed
    # link's token) stay out of it, as in every other log line and message of fetch
    with (
        FaultServer({"/x.pdf": respond(200, broken_pdf(), content_type=PDF)}) as server,
        caplog.at_level(logging.DEBUG),
    ):
        url = server.url("/x.pdf").replace("http://", "http://alice:pw123@", 1) + "?token=SECRET42"
        assert fetch_error(url).detail_code == "pdf_broken"
    failed = [r.getMessage() for r in caplog.records if r.getMessage().startswith("pypdf failed on")]
    assert failed == ["pypdf failed on %s" % server.url("/x.pdf")]
    assert "pw123" not in caplog.text and "SECRET42" not in caplog.text


def test_the_warning_names_the_first_pages_left_out_and_counts_the_others():
    # a broken file can have 40,000: the message stays a line
    failing = pdf.LEFT_OUT_NAMED + 2
    body = bomb_pdf([["The first page."], *[BROKEN_PAGES["reference in content"]] * failing])
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
        [warning] = fetch(server.url("/x.pdf"))["errors"]
    named = ", ".join("page %d (AssertionError)" % n for n in range(2, 2 + pdf.LEFT_OUT_NAMED))
    assert "left out %s and 2 more: pypdf cannot read them;" % named in warning["message"]


def test_the_warning_counts_parts_of_the_page_tree_it_names_alike_once():
    # 15 kids of a root that cannot be parsed (a broken file can have 20,000): after the first,
    # the numbers of none are known, so all are named alike; said once, with how many times
    kids = b" ".join(b"%d 0 R" % (5 + n) for n in range(16))
    body = hand_written_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count 16 /Resources << /Font << /F1 4 0 R >> >> >>" % kids,
            b"<< /Length 40 >>\nstream\nBT /F1 11 Tf 72 720 Td (Hello page) Tj ET\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Type /Page /Parent 2 0 R /Contents 3 0 R >>",
            *[UNPARSEABLE] * 15,
        ]
    )
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
        [warning] = fetch(server.url("/x.pdf"))["errors"]
    [named] = re.findall(r"left out (.*): pypdf cannot read them;", warning["message"])
    first, rest = named.split("), a part", 1)
    assert first.startswith("a part of the page tree after page 1 (how many pages unknown) (")
    assert rest.startswith(" of the page tree (its pages' numbers unknown) (") and rest.endswith(") (14 times)")


@pytest.mark.parametrize(
    "max_chars, read", [(10**6, "were read"), (16, "were read up to where the read stopped (truncated)")]
)
def test_the_warning_says_whether_the_read_went_on_to_the_last_page(max_chars, read):
    # 16 characters: the first page's 15, then the third's, and the read stops before the fourth
    lines = [["The first page."], BROKEN_PAGES["reference in content"], ["The third page."], ["The fourth page."]]
    with FaultServer({"/x.pdf": respond(200, bomb_pdf(lines), content_type=PDF)}) as server:
        result = fetch(server.url("/x.pdf"), max_chars=max_chars)
    assert ("The fourth page." in result["text"]) is (max_chars > 16)
    assert result["errors"][0]["message"].endswith("pypdf cannot read it; the other pages %s" % read)


def pages_under_a_node(node, count=b"3", third=b"<< /Type /Page /Parent 2 0 R /Contents 8 0 R >>", kids=b"3 0 R 4 0 R"):
    """A PDF whose root holds the node ``node`` (meant to hold pages one and two, objects 6 and
    7) and ``third`` (page three, its content object 8), as its ``kids`` say, saying it holds
    ``count`` pages; an 11th object, page three under ``third`` when that is a node; a 12th
    that cannot be parsed."""
    streams = [b"BT /F1 11 Tf 72 720 Td (Page %s) Tj ET" % word for word in (b"three", b"one", b"two")]
    return hand_written_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %s /Resources << /Font << /F1 5 0 R >> >> >>" % (kids, count),
            node,
            third,
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Type /Page /Parent 3 0 R /Contents 9 0 R >>",
            b"<< /Type /Page /Parent 3 0 R /Contents 10 0 R >>",
            *[b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content) for content in streams],
            b"<< /Type /Page /Parent 4 0 R /Contents 8 0 R >>",
            UNPARSEABLE,
        ]
    )


#: Page three under a node of its own (object 4), beside the node of pages one and two.
THIRD_IN_A_NODE = b"<< /Type /Pages /Parent 2 0 R /Kids [11 0 R] /Count 1 >>"


def test_the_pages_after_an_unparseable_part_are_not_numbered_when_a_sibling_node_has_no_count():
    # the node holding page three says no /Count: how many pages the broken part held is unknown
    body = pages_under_a_node(UNPARSEABLE, third=b"<< /Type /Pages /Parent 2 0 R /Kids [11 0 R] >>")
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/x.pdf"), extract_mode="text")
    assert result["text"] == "--- Page ? ---\n\nPage three"


#: (pypdf raises its LimitReachedError on the second: the errors' names are not compared)
SOMEWHERE = "a part of the page tree (its pages' numbers unknown)"
AT_ITS_START = "a part of the page tree at its start (how many pages unknown)"


@pytest.mark.parametrize(
    "node, count, third, kids, shown, left_out",
    [
        (
            b"<< /Type /Pages /Parent 2 0 R /Kids [6 0 R 7 0 R] /Count 2 >>",
            b"3",
            THIRD_IN_A_NODE,
            b"3 0 R 4 0 R",
            "Page 3",
            [],
        ),
        # the root's count less its readable node's: two pages left out
        (UNPARSEABLE, b"3", THIRD_IN_A_NODE, b"3 0 R 4 0 R", "Page 3", ["pages 1-2"]),
        # no count to say how many: no number rather than a wrong one
        (UNPARSEABLE, b"/Three", THIRD_IN_A_NODE, b"3 0 R 4 0 R", "Page ?", [AT_ITS_START]),
        # counts that cannot hold: no page left for the part; several for a kid among pages
        (UNPARSEABLE, b"1", THIRD_IN_A_NODE, b"3 0 R 4 0 R", "Page ?", [AT_ITS_START]),
        (
            UNPARSEABLE,
            b"3",
            b"<< /Type /Page /Parent 2 0 R /Contents 8 0 R >>",
            b"3 0 R 4 0 R",
            "Page ?",
            [AT_ITS_START],
        ),
        # two unparseable kids: what each held is unknown
        (UNPARSEABLE, b"3", THIRD_IN_A_NODE, b"3 0 R 12 0 R 4 0 R", "Page ?", [AT_ITS_START, SOMEWHERE]),
    ],
)
def test_the_pages_after_a_part_of_the_page_tree_that_cannot_be_parsed_keep_their_numbers(
    node, count, third, kids, shown, left_out
):
    body = pages_under_a_node(node, count, third, kids)
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/x.pdf"), extract_mode="text")
    assert result["text"] == "--- %s ---\n\nPage three" % shown if left_out else result["text"].endswith("Page three")
    named = [m for e in result.get("errors", []) for m in re.findall(r"left out (.*?): pypdf", e["message"])]
    assert [re.sub(r" \(\w+Error\)", "", m) for m in named] == [", ".join(left_out)] * bool(left_out)


def test_a_pdf_whose_every_page_pypdf_fails_on_is_broken():
    body = bomb_pdf(list(BROKEN_PAGES.values()))
    with FaultServer({"/x.pdf": respond(200, body, content_type=PDF)}) as server:
        error = fetch_error(server.url("/x.pdf"))
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "pdf_broken"), repr(error)
    assert "(AssertionError)" in error.message  # the first page's failure


def test_a_pdf_encrypted_only_against_editing_is_read():
    body = text_pdf([["Open to read, closed to edit."]], password="")
    with FaultServer({"/o.pdf": respond(200, body, content_type=PDF)}) as server:
        assert fetch(server.url("/o.pdf"))["text"] == "Open to read, closed to edit."


def test_without_the_pdf_extra_a_pdf_is_unsupported_content_naming_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pypdf", None)  # import pypdf raises ImportError
    with FaultServer({"/r.pdf": respond(200, REPORT, content_type=PDF)}) as server:
        error = fetch_error(server.url("/r.pdf"))
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "unsupported_content")
    assert (
        "the `pdf` extra: pip install 'pypdf[crypto]>=" in error.message and "pip install -e '.[pdf]'" in error.message
    )


def test_a_pdf_cut_by_the_byte_cap_is_refused_as_too_large():
    with FaultServer({"/l.pdf": respond(200, long_report(), content_type=PDF)}) as server:
        error = fetch_error(server.url("/l.pdf"), max_bytes=100_000)
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "response_too_large")
    assert error.hint == "raise max_bytes"


def test_max_chars_stops_the_page_by_page_read():
    with FaultServer({"/l.pdf": respond(200, long_report(), content_type=PDF)}) as server, pace_throughout() as pace:
        started = time.monotonic()
        result = fetch(server.url("/l.pdf"), max_chars=3000, timeout_ms=20_000)
        elapsed = time.monotonic() - started
    assert result["truncated"] and result["length"] == 3000
    assert result["text"].startswith("## Page 1\n\nPage 0, line 0 of the long report")
    # two pages of about 2 KB each are read, not 300 (about 3 s on an idle machine)
    assert elapsed < deadline_margin_s(pace.slowdown, 0.75) + pace.late_s, "took %.2f s" % elapsed


@pytest.fixture
def pages_resolved(monkeypatch):
    """When the read resolved each page it reached (``time.monotonic()``). How many pages an
    abandoned read resolved after its fetch returned says whether it stopped, whatever the
    machine's load: it stops at its next page (at most one), where a read that does not stop
    runs on through hundreds. A wait timed against the machine's pace cannot say it as
    surely: sampled in this process during the wait, the pace is slowed by the abandoned read
    itself (it holds the GIL), which stretches the margin by as much as a read running on."""
    resolved: list[float] = []
    pages = pdf.page_objects

    def timed_pages(*args):
        for page in pages(*args):
            resolved.append(time.monotonic())
            yield page

    monkeypatch.setattr(pdf, "page_objects", timed_pages)
    return resolved


def pages_read_on(resolved: list[float], returned: float) -> int:
    """The pages resolved after ``returned``, once the read thread ended (it is waited for: a
    read that does not stop runs to its end, a few seconds)."""
    assert wait_for_work("websearch-extract", 60), "the read was still running a minute after its fetch returned"
    return sum(1 for when in resolved if when > returned)


def test_the_deadline_holds_on_a_long_pdf_and_its_read_stops(pages_resolved):
    huge = long_report(HUGE_PAGES)
    with FaultServer({"/h.pdf": respond(200, huge, content_type=PDF)}) as server:
        with pace_throughout() as pace:
            started = time.monotonic()
            try:
                result = fetch(server.url("/h.pdf"), timeout_ms=500, max_chars=10**8)
            except ws.Timeout as error:  # a machine too slow for one page within the deadline: typed, in time
                assert error.detail_code == "deadline_exceeded"
            else:
                assert result["truncated"] and "## Page 1\n\n" in result["text"]
                assert "## Page %d" % HUGE_PAGES not in result["text"]
            returned = time.monotonic()
        # the read stops at its next page, it does not run on for the other pages
        read_on = pages_read_on(pages_resolved, returned)
    margin = deadline_margin_s(pace.slowdown, 0.4) + pace.late_s
    elapsed = returned - started
    assert elapsed < 0.5 + margin, "a 500 ms fetch took %.0f ms (margin %.0f ms)" % (elapsed * 1000, margin * 1000)
    assert read_on <= 1, "the read resolved %d more pages after its fetch returned" % read_on
    assert len(pages_resolved) < HUGE_PAGES


def test_the_pages_of_a_pdf_are_resolved_as_the_read_reaches_them_so_it_stops_at_the_deadline(pages_resolved):
    # 40,000 blank pages in 3.2 MB: pypdf lists them in one call (about 2 s of CPU on an idle
    # machine) that no deadline stops; the read, which stops at its deadline, goes page by page
    # (the read spends its whole deadline: half a second proves it stops as well as a second did)
    body = blank_pages_pdf(40_000)
    with FaultServer({"/p.pdf": respond(200, body, content_type=PDF)}) as server:
        error = fetch_error(server.url("/p.pdf"), timeout_ms=500)
        returned = time.monotonic()
        # a page is a few hundredths of a ms of work: one that does not stop reads on through thousands
        read_on = pages_read_on(pages_resolved, returned)
    assert (type(error).__name__, error.detail_code) == ("Timeout", "deadline_exceeded"), repr(error)
    assert read_on <= 1, "the read resolved %d more pages after its fetch returned" % read_on


def test_pages_are_read_in_the_order_of_their_tree_with_what_they_inherit_from_it():
    # the first two pages take their font from the node above them, the third has its own;
    # the font reads X as T
    body = nested_tree_pdf(["Xhe first page.", "Xhe second page.", "Xhe third page."])
    with FaultServer({"/t.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/t.pdf"))
    assert result["text"] == (
        "## Page 1\n\nThe first page.\n\n## Page 2\n\nThe second page.\n\n## Page 3\n\nThe third page."
    )


def test_a_page_tree_holding_a_cycle_is_a_broken_pdf_not_an_endless_read():
    body = nested_tree_pdf(["The first page.", "The second page.", "The third page."], cycle=True)
    with FaultServer({"/t.pdf": respond(200, body, content_type=PDF)}) as server:
        error = fetch_error(server.url("/t.pdf"), timeout_ms=10_000)
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "pdf_broken"), repr(error)


@pytest.mark.parametrize("in_form", [False, True], ids=["page", "form"])
def test_a_page_drawing_megabytes_of_text_is_left_out_and_the_read_goes_on_in_time(in_form):
    # 2 MB of one run of text, 7 KB compressed: pypdf alone takes about 4 s on it (idle), in a
    # thread no deadline can stop; drawn by the page itself or through a form XObject
    body = bomb_pdf([text_run(2 * pdf.MAX_PAGE_CONTENT), ["The quay opened in October."]], in_form=in_form)
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server, pace_throughout() as pace:
        started = time.monotonic()
        result = fetch(server.url("/b.pdf"), timeout_ms=20_000)
        elapsed = time.monotonic() - started
    assert result["text"] == "## Page 2\n\nThe quay opened in October." and result["truncated"]
    assert elapsed < deadline_margin_s(pace.slowdown, 1.0) + pace.late_s, "took %.2f s" % elapsed


def test_a_form_a_page_holds_but_never_draws_does_not_count():
    # neither decoded (pypdf's extraction does not decode it either) nor held against the page
    body = idle_form_pdf(["The quay opened in October."], b" " * (2 * pdf.MAX_PAGE_CONTENT))
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/b.pdf"))
    assert (result["text"], result["truncated"]) == ("The quay opened in October.", False)


@pytest.fixture
def caps_a_hundredth(monkeypatch):
    """The content caps at a hundredth (a page 10 KB, a read 500 KB): a budget test's document
    then decodes to 500 KB, not 50 MB. pypdf parses a page's content a byte at a time (its blanks
    too): at a tenth (5 MB) each of the three blank-page tests took 0.4-0.45 s of CPU. What these
    tests check is how the caps are counted, which no size changes (the pages to the budget stay
    fifty, the ratio of the two caps); the caps' own sizes are the ones the module documents."""
    monkeypatch.setattr(pdf, "MAX_PAGE_CONTENT", pdf.MAX_PAGE_CONTENT // 100)
    monkeypatch.setattr(pdf, "MAX_CONTENT", pdf.MAX_CONTENT // 100)


def test_the_read_stops_once_its_pages_decode_to_the_content_budget(caps_a_hundredth):
    # pages of blanks just under the page cap (1 KB each compressed at full size): pypdf keeps
    # each decoded page until the read ends, so 60 of them would hold 60 MB for an 80 KB file
    blank = b" " * (pdf.MAX_PAGE_CONTENT - 1000)
    count = pdf.MAX_CONTENT // len(blank) + 2
    body = bomb_pdf([["Annual report of the harbour authority"], *[blank] * count, ["The end."]])
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/b.pdf"), max_chars=10**8)
    assert result["text"] == "## Page 1\n\nAnnual report of the harbour authority" and result["truncated"]


def test_a_page_that_would_pass_the_content_budget_is_not_extracted(caps_a_hundredth, monkeypatch):
    # blank pages leave under a page cap of the budget; the next page draws a run of text within
    # the page cap but over what is left: measured against what is left, it is not extracted
    # (pypdf's extraction of a run of text is its slowest work), and the read stops there
    blank = b" " * (pdf.MAX_PAGE_CONTENT - 1000)
    count = pdf.MAX_CONTENT // len(blank)
    over = text_run(pdf.MAX_PAGE_CONTENT * 9 // 10)
    assert pdf.MAX_CONTENT - count * len(blank) < len(over) <= pdf.MAX_PAGE_CONTENT
    body = bomb_pdf([["Annual report of the harbour authority"], *[blank] * count, over])
    extracted = []
    extract = pypdf.PageObject.extract_text

    def recorded(page, *args, **kwargs):
        text = extract(page, *args, **kwargs)
        extracted.append(text)
        return text

    monkeypatch.setattr(pypdf.PageObject, "extract_text", recorded)
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/b.pdf"), max_chars=10**8, timeout_ms=20_000)
    assert result["text"] == "## Page 1\n\nAnnual report of the harbour authority" and result["truncated"]
    assert len(extracted) == 1 + count and not any("harbour tonnage" in text for text in extracted)


def test_what_the_pages_pypdf_fails_on_decoded_counts_to_the_content_budget(caps_a_hundredth, monkeypatch):
    # pages that decode to just under the page cap and then fail in pypdf's extraction (a
    # reference in their content): pypdf keeps what it decoded of each, so a thousand of them
    # held 900 MB of a 1.6 MB file when a failed page's bytes were not counted
    blank = b"BT /F1 11 Tf [1 0 R] TJ ET " + b" " * (pdf.MAX_PAGE_CONTENT - 1000)
    count = pdf.MAX_CONTENT // len(blank) + 2
    body = bomb_pdf([["Annual report of the harbour authority"], *[blank] * count, ["The end."]])
    decoded = []
    measure = pdf.drawn_bytes

    def measured(page, held, *args):
        try:
            return measure(page, held, *args)
        finally:
            decoded.append(sum(held.sizes.values()))

    monkeypatch.setattr(pdf, "drawn_bytes", measured)
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/b.pdf"), max_chars=10**8)
    assert result["text"] == "## Page 1\n\nAnnual report of the harbour authority" and result["truncated"]
    assert max(decoded) <= pdf.MAX_CONTENT + pdf.MAX_PAGE_CONTENT, "decoded %d bytes" % max(decoded)


def test_a_larger_file_has_a_larger_content_budget(caps_a_hundredth):
    # the same pages in a file an eighth of MAX_CONTENT larger (6 MB at full size; random bytes
    # no page uses): a document decodes to a few times its size, so its budget is
    # CONTENT_PER_BYTE times that, and all is read
    blank = b" " * (pdf.MAX_PAGE_CONTENT - 1000)
    count = pdf.MAX_CONTENT // len(blank) + 2
    body = bomb_pdf([*[blank] * count, ["The end."]], ballast=pdf.MAX_CONTENT // 8)
    assert pdf.CONTENT_PER_BYTE * len(body) > len(blank) * count
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/b.pdf"), max_chars=10**8, max_bytes=10_000_000)
    assert (result["text"], result["truncated"]) == ("## Page %d\n\nThe end." % (count + 1), False)


def test_fonts_character_maps_count_to_the_content_budget_not_to_the_page_cap(caps_a_hundredth):
    # every page's font has its own map of twice the page cap (2 MB at full size; pypdf decodes
    # each and keeps it): a map is no drawing (a CJK font's map can be a MB), so the pages are
    # read until the budget is spent
    count = pdf.MAX_CONTENT // (2 * pdf.MAX_PAGE_CONTENT) + 2
    body = mapped_font_pdf([["Page %d of the report." % (n + 1)] for n in range(count)], 2 * pdf.MAX_PAGE_CONTENT)
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/b.pdf"), max_chars=10**8)
    assert result["text"].startswith("## Page 1\n\nPage 1 of the report.") and result["truncated"]
    assert "Page %d of the report." % count not in result["text"]


def test_object_streams_count_to_the_content_budget_before_pypdf_lists_the_pages(caps_a_hundredth):
    # two page objects, each in an object stream of over half the budget in blanks (26 MB in
    # 50 KB of file at full size): pypdf scans their blanks a byte at a time when it lists the
    # pages (about 3.5 s at full size), and keeps them; read so, the blank pages would be a
    # pdf_no_text error
    body = object_stream_pdf(2, pdf.MAX_CONTENT // 2 + pdf.MAX_PAGE_CONTENT)
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server, pace_throughout() as pace:
        started = time.monotonic()
        error = fetch_error(server.url("/b.pdf"), timeout_ms=20_000)
        elapsed = time.monotonic() - started
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "response_too_large"), repr(error)
    assert elapsed < deadline_margin_s(pace.slowdown, 1.0) + pace.late_s, "took %.2f s" % elapsed


def test_a_pdf_of_nothing_but_oversized_pages_says_so():
    body = bomb_pdf([text_run(2 * pdf.MAX_PAGE_CONTENT)])
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server:
        error = fetch_error(server.url("/b.pdf"))
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "response_too_large"), repr(error)
    assert "decodes to more than fetch reads" in error.message


def test_a_pdf_s_lines_read_as_markdown_keep_their_text():
    # a paper's "1. Introduction" or "* note" line is text of the page, not a list it did not have
    from markdown_it import MarkdownIt

    lines = ["1. Introduction", "* a starred note", "# of samples: 12", "x *times* y_1 and [a](b)"]
    with FaultServer({"/p.pdf": respond(200, text_pdf([lines]), content_type=PDF)}) as server:
        markdown = fetch(server.url("/p.pdf"), extract_mode="markdown")["text"]
        text = fetch(server.url("/p.pdf"), extract_mode="text")["text"]
    rendered = MarkdownIt("commonmark").render(markdown)
    assert text.split("\n") == lines
    assert rendered == "<p>%s</p>\n" % "\n".join(lines)


def one_page_drawing(content: bytes) -> bytes:
    """A one-page PDF under Helvetica whose content stream is ``content``."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    return hand_written_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
            font,
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        ]
    )


@pytest.mark.parametrize("mode", ["markdown", "text"])
def test_a_carriage_return_in_a_pdf_s_text_is_a_line_break_whose_line_is_escaped_too(mode):
    # a string's \r escape is a CR in the text pypdf gives: markdown (CommonMark) ends a line at a
    # bare CR, so a line after it went unescaped, a heading or a page heading made up by the
    # file ("## Page 7"), and a terminal shows a CR by writing the next line over this one
    from markdown_it import MarkdownIt

    body = one_page_drawing(b"BT /F1 11 Tf 72 720 Td (Intro\\r## Page 7\\r\\n1. listed) Tj ET")
    with FaultServer({"/p.pdf": respond(200, body, content_type=PDF)}) as server:
        text = fetch(server.url("/p.pdf"), extract_mode=mode)["text"]
    assert "\r" not in text
    assert text.replace("\\", "").split("\n") == ["Intro", "## Page 7", "1. listed"]
    if mode == "markdown":
        assert MarkdownIt("commonmark").render(text) == "<p>Intro\n## Page 7\n1. listed</p>\n"


@contextlib.contextmanager
def logging_not_configured():
    """The root logger without handlers (the test run's own set aside meanwhile), as in a
    program that never configured logging: Python's last-resort handler prints warnings."""
    root = logging.getLogger()
    saved = root.handlers[:]
    root.handlers[:] = []
    try:
        yield
    finally:
        root.handlers[:] = saved


#: REPORT with a cross-reference pointer a few bytes off: pypdf repairs it and logs a warning.
MISPLACED_XREF = misplaced_xref(REPORT)
PYPDF_NOTE = "incorrect startxref pointer"


def test_pypdf_notes_on_a_malformed_pdf_are_not_printed_on_stderr(capsys):
    with FaultServer({"/m.pdf": respond(200, MISPLACED_XREF, content_type=PDF)}) as server, logging_not_configured():
        result = fetch(server.url("/m.pdf"))
    assert result["text"].startswith("## Page 1\n\nAnnual report of the harbour authority")
    assert capsys.readouterr().err == ""


def test_pypdf_notes_go_to_the_package_logger_naming_the_host(caplog):
    package = logging.getLogger("websearch_sync")
    package.addHandler(caplog.handler)  # logging turned on for the package only, at INFO
    caplog.set_level(logging.INFO, logger="websearch_sync")
    try:
        with FaultServer({"/m.pdf": respond(200, MISPLACED_XREF, content_type=PDF)}) as server:
            with logging_not_configured():
                fetch(server.url("/m.pdf"))
    finally:
        package.removeHandler(caplog.handler)
    notes = [record for record in caplog.records if PYPDF_NOTE in record.getMessage()]
    assert [(record.name, record.levelname) for record in notes] == [("websearch_sync", "INFO")], notes
    assert "reading a PDF from 127.0.0.1" in notes[0].getMessage()


def test_with_logging_configured_pypdf_notes_are_shown_once_as_pypdf_wrote_them(caplog):
    with FaultServer({"/m.pdf": respond(200, MISPLACED_XREF, content_type=PDF)}) as server:
        fetch(server.url("/m.pdf"))
    notes = [record for record in caplog.records if PYPDF_NOTE in record.getMessage()]
    assert [(record.name.split(".")[0], record.levelname) for record in notes] == [("pypdf", "WARNING")], notes


def test_the_applications_own_pypdf_warnings_still_reach_stderr(capsys):
    with FaultServer({"/m.pdf": respond(200, MISPLACED_XREF, content_type=PDF)}) as server, logging_not_configured():
        fetch(server.url("/m.pdf"))  # the notes' handler is on pypdf's logger from here on
        pypdf.PdfReader(io.BytesIO(MISPLACED_XREF))
    assert PYPDF_NOTE in capsys.readouterr().err
