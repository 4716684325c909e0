"""fetch's ``max_bytes``: a cap under which no page's opening fits is refused before any request
(``fetch(url, max_bytes=1)`` returned "<" as the page), and a page the cap cut is returned without
the tag the cut fell in (the parser showed a lone ``<`` as the page's last character)."""

import pytest
from faults import respond
from servers import FaultServer
from test_fetch_pdf import fetch, fetch_error

from websearch_sync.cli import main
from websearch_sync.config import MIN_FETCH_BYTES

PARAGRAPH = b"<p>" + b"The harbour board approved the dredging plan after a long public hearing. " * 4 + b"</p>"
PAGE = b"<html><head><title>Harbour works</title></head><body><article><h1>Harbour works</h1>" + PARAGRAPH * 20


@pytest.mark.parametrize("max_bytes", [1, 2, 100, MIN_FETCH_BYTES - 1])
def test_a_cap_too_small_to_read_a_page_is_refused_before_any_request(max_bytes):
    with FaultServer({"/a": respond(200, PAGE)}) as server:
        error = fetch_error(server.url("/a"), max_bytes=max_bytes)
        assert server.requests == []
    assert (type(error).__name__, error.detail_code) == ("InvalidInput", "bad_max_bytes")
    assert error.message == "max_bytes must be an integer >= 1024, got %d" % max_bytes


def test_the_command_line_says_so_with_its_flag(capsys):
    assert main(["fetch", "http://127.0.0.1:9/a", "--allow-private", "--max-bytes", "1"]) == 2
    err = capsys.readouterr().err
    assert "InvalidInput/bad_max_bytes: --max-bytes must be an integer >= 1024, got 1" in err
    assert "max_bytes" not in err.replace(
        "bad_max_bytes", ""
    )  # the command line's own name, not the Python parameter's


def test_the_smallest_cap_reads_the_start_of_a_page_as_truncated():
    with FaultServer({"/a": respond(200, PAGE)}) as server:
        result = fetch(server.url("/a"), max_bytes=MIN_FETCH_BYTES)
    assert result["truncated"] is True and result["title"] == "Harbour works"
    assert result["text"].startswith("The harbour board approved the dredging plan")


@pytest.mark.parametrize("cut_after", [b"</p><", b"</p></", b"</p><p cla"])
def test_a_cut_inside_a_tag_leaves_no_markup_in_the_text(cut_after):
    head = PAGE[: PAGE.index(PARAGRAPH) + len(PARAGRAPH) * 12]
    body = head + cut_after
    with FaultServer({"/a": respond(200, body + b'ss="x">' + PARAGRAPH)}) as server:
        result = fetch(server.url("/a"), max_bytes=len(body), extract_mode="text")
    assert result["truncated"] is True
    assert result["text"].endswith("long public hearing.")


JAPANESE = "日本語の文章です。港の工事について。" * 80
CHINESE = "港口工程的文章在这里。" * 150
UTF8_HTML = "<html><head><meta charset=utf-8></head><body><p>"
GBK_HTML = "<html><head><meta charset=gbk></head><body><p>"


@pytest.mark.parametrize(
    "opening, text, codec, content_type, into_character",
    [
        (UTF8_HTML, JAPANESE, "utf-8", "text/html", 1),
        (UTF8_HTML, JAPANESE, "utf-8", "text/html", 2),
        ("", JAPANESE, "utf-8", "text/plain; charset=utf-8", 2),
        ("", JAPANESE, "utf-8", "text/plain", 1),  # no charset named: a cut character sent it to detection
        (GBK_HTML, CHINESE, "gbk", "text/html", 1),
    ],
    ids=["utf-8 html, 1 byte in", "utf-8 html, 2 bytes in", "utf-8 text", "undeclared utf-8 text", "gbk html"],
)
def test_a_cut_inside_a_character_leaves_it_out_not_a_replacement_character(
    opening, text, codec, content_type, into_character
):
    """The cut falls ``into_character`` bytes into a character: its first bytes were read as one
    or two U+FFFD at the end of the text."""
    body = (opening + text).encode(codec)
    whole = next(n for n in range(len(text)) if len((opening + text[:n]).encode(codec)) > MIN_FETCH_BYTES)
    cap = len((opening + text[:whole]).encode(codec)) + into_character
    with FaultServer({"/a": respond(200, body, content_type=content_type)}) as server:
        result = fetch(server.url("/a"), max_bytes=cap, extract_mode="text")
    assert result["truncated"] is True
    assert "\ufffd" not in result["text"]
    assert result["text"].endswith(text[:whole][-5:])


INEQUALITY = (
    b"<html><head><title>T</title></head><body><article><h1>Inequalities</h1>"
    b"<p>When x < y the following holds for every real number we consider. "
    + b"Longer explanation sentence number one. " * 60
    + b"</p></article></body></html>"
)


@pytest.mark.parametrize("max_bytes", [MIN_FETCH_BYTES, 2 * MIN_FETCH_BYTES])
def test_a_cut_after_a_less_than_sign_in_text_keeps_the_text(max_bytes):
    """A ``<`` followed by a space opens no tag: the text after it is the page's, not a cut tag
    (it was dropped, leaving "When x" of a paragraph of over a thousand characters)."""
    with FaultServer({"/a": respond(200, INEQUALITY)}) as server:
        result = fetch(server.url("/a"), max_bytes=max_bytes, extract_mode="text")
    assert result["truncated"] is True
    assert result["text"].startswith("When x < y the following holds")
    assert "Longer explanation sentence number one. " * 10 in result["text"]
    assert len(result["text"]) > max_bytes - 200
