"""A truncated fetch result says what cut it (``truncated_by``), and so does the tool text a model
reads, each cause in its own words: a PDF read stopped at the deadline, at its content budget, or
that left out a page drawing over the page cap was no ``max_chars`` cut ("truncated to N
characters" sent a model to raise a cap that brings nothing back). MCP hands the same result on."""

import pytest
from faults import respond
from pdfs import bomb_pdf, text_pdf, text_run
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.client.search_client import SearchClient
from websearch_sync.reader import pdf
from websearch_sync.tool import MAX_FETCH_CHARS

PDF = "application/pdf"
PARAGRAPH = b"<p>The harbour authority reported that tonnage rose by four percent in the year.</p>"
PAGE = b"<html><head><title>Harbour</title></head><body><article>%s</article></body></html>" % (PARAGRAPH * 80)
TWO_PAGES = text_pdf([["The first page of the notice."], ["The second page of the notice."]])


@pytest.fixture(scope="module")
def server():
    with FaultServer({}) as running:
        yield running


@pytest.fixture(scope="module")
def session():
    with SearchClient(settings=ws.Settings(allow_private=True, impersonate="off")) as client:
        yield tool.ToolSession(client)


def served(server, path, handler):
    """The URL of ``path``, answered by ``handler`` on the module's server."""
    server.routes[path] = handler
    return server.url(path)


def read(session, url, **arguments):
    """``(fetch result, tool text, MCP structured content)`` of the tool's fetch of ``url``."""
    result = session.call_tool("web_fetch", {"url": url, **arguments})
    text, structured = tool.format_for_model(result)
    return result, text, structured


def header(text):
    """The tool text's lines before the page text."""
    return text.split("\n\n", 1)[0].splitlines()


@pytest.fixture
def caps_a_tenth(monkeypatch):
    """The content caps at a tenth (a page 100 KB, a read 5 MB): a tenth of the CPU, counted alike."""
    monkeypatch.setattr(pdf, "MAX_PAGE_CONTENT", pdf.MAX_PAGE_CONTENT // 10)
    monkeypatch.setattr(pdf, "MAX_CONTENT", pdf.MAX_CONTENT // 10)


@pytest.fixture
def caps_a_hundredth(monkeypatch):
    """The content caps at a hundredth (a page 10 KB, a read 500 KB): pypdf parses a page's blanks a
    byte at a time, and the budget's fifty blank pages at a tenth took 0.44 s of CPU."""
    monkeypatch.setattr(pdf, "MAX_PAGE_CONTENT", pdf.MAX_PAGE_CONTENT // 100)
    monkeypatch.setattr(pdf, "MAX_CONTENT", pdf.MAX_CONTENT // 100)


def test_a_page_cut_at_max_chars_says_so(server, session):
    url = served(server, "/chars", respond(200, PAGE))
    result, text, structured = read(session, url, max_chars=50)
    assert (result["truncated"], result["truncated_by"], structured["truncated_by"]) == (
        True,
        ["max_chars"],
        ["max_chars"],
    )
    # one line, telling a model it can ask more (it said only how much it got)
    assert header(text)[-1] == "(truncated to 50 characters: ask a larger max_chars (at most %d) for more)" % (
        MAX_FETCH_CHARS
    )


def test_a_page_cut_at_the_byte_cap_says_so_not_that_max_chars_cut_it(server):
    url = served(server, "/bytes", respond(200, PAGE))
    result = ws.fetch(url, allow_private=True, settings=ws.Settings(impersonate="off"), max_bytes=2048)
    assert (result["truncated"], result["truncated_by"]) == (True, ["max_bytes"])
    shown = tool.format_results(result)
    assert "(cut at the byte cap: only the start of the page was read)" in header(shown)
    assert "truncated to" not in shown


def test_a_part_of_a_page_says_the_server_sent_a_part(server, session):
    partial = respond(206, PAGE, headers={"Content-Range": "bytes 0-%d/%d" % (len(PAGE) - 1, 2 * len(PAGE))})
    result, text, structured = read(session, served(server, "/part", partial))
    assert (result["truncated_by"], structured["truncated_by"]) == (["partial_content"], ["partial_content"])
    assert header(text)[-1] == "(the server sent only a part of the page)"


def test_a_pdf_read_stopped_at_the_deadline_says_so(server, session, monkeypatch):
    # the deadline's reserve, raised past any deadline: the read stops before page 2 for it, whatever the machine's pace
    monkeypatch.setattr(pdf, "PAGE_RESERVE", 1e12)
    result, text, structured = read(session, served(server, "/deadline.pdf", respond(200, TWO_PAGES, content_type=PDF)))
    assert result["text"] == "## Page 1\n\nThe first page of the notice."
    assert (result["truncated_by"], structured["truncated_by"]) == (["deadline"], ["deadline"])
    assert header(text)[-1] == "(the PDF's read stopped at the deadline: the pages after it were not read)"


def test_a_pdf_read_stopped_at_its_content_budget_says_so(server, session, caps_a_hundredth):
    blank = b" " * (pdf.MAX_PAGE_CONTENT - 1000)
    body = bomb_pdf([["The first page of the notice."], *[blank] * (pdf.MAX_CONTENT // len(blank) + 2), ["The end."]])
    result, text, _ = read(session, served(server, "/budget.pdf", respond(200, body, content_type=PDF)))
    assert (result["text"].endswith("The first page of the notice."), result["truncated_by"]) == (
        True,
        ["content_budget"],
    )
    assert header(text)[-1] == (
        "(the PDF's read stopped where its pages decode to more than fetch reads: the pages after it were not read)"
    )


def test_a_pdf_page_left_out_for_what_it_draws_says_so(server, session, caps_a_tenth):
    body = bomb_pdf([text_run(2 * pdf.MAX_PAGE_CONTENT), ["The quay opened in October."]])
    result, text, _ = read(session, served(server, "/large.pdf", respond(200, body, content_type=PDF)), max_chars=10)
    assert result["truncated_by"] == ["max_chars", "large_pages"]
    assert (
        header(text)[-1]
        == "(truncated to 10 characters: ask a larger max_chars (at most %d) for more; pages of the PDF drawing over "
        "0.1 MB of content each were left out)" % MAX_FETCH_CHARS
    )


def test_a_whole_page_has_no_cause(server, session):
    result, text, structured = read(session, served(server, "/whole", respond(200, PAGE)))
    assert (result["truncated"], "truncated_by" in result, "truncated_by" in structured) == (False, False, False)
    assert not header(text)[-1].startswith("(")
