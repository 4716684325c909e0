"""What a hostile or broken server sends as text reaches a model only as text a model API and
MCP take: no control character (a NUL byte, an ANSI escape sequence), no lone surrogate (a JSON
``"\\ud800"`` escape, which no UTF-8 encoder takes, so the whole request carrying it fails),
and binary data labelled text (an archive, an image, random bytes served as ``text/html``) is
refused instead of handed over as 50,000 characters of mojibake."""

import json
import os
import re
import zipfile
from io import BytesIO

import pytest
from faults import respond
from servers import FaultServer
from test_fetch_pdf import fetch, fetch_error

import websearch_sync as ws
from websearch_sync import tool

#: What a tool result must not hold: control characters but tab, line feed and carriage return;
#: lone surrogates.
UNSENDABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
ARTICLE = "<p>%s</p>" % ("A paragraph of ordinary article text. " * 8)
#: DEL and C1 controls, which lxml keeps (it drops the C0 ones), in the title and the text.
HTML = "<html><head><title>A\x7f title\x9b</title></head><body><article>%s\x7f\x85</article></body></html>" % ARTICLE


def sendable(result):
    """Whether ``result`` encodes as UTF-8 JSON with no control character in its strings."""
    encoded = json.dumps(result, ensure_ascii=False)
    encoded.encode("utf-8")  # raises on a lone surrogate
    return not UNSENDABLE.search(encoded)


def call_fetch(path, body, content_type):
    with FaultServer({path: respond(200, body, content_type=content_type)}) as server:
        with ws.SearchClient(settings=ws.Settings(allow_private=True)) as client:
            return tool.call_tool("web_fetch", {"url": server.url(path)}, client=client)


@pytest.mark.parametrize(
    "body, content_type",
    [
        (b'{"name": "half an emoji \\ud83d", "nul": "a\\u0000b", "esc": "\\u001b[2J"}', "application/json"),
        (b"plain \x00 text \x1b[31mred\x1b[0m \x07 bell \x7f del \xc2\x85 next line", "text/plain; charset=utf-8"),
        (HTML.encode(), "text/html; charset=utf-8"),
    ],
    ids=["json escapes", "plain text", "html"],
)
def test_page_text_holds_no_control_character_or_lone_surrogate(body, content_type):
    result = call_fetch("/p", body, content_type)
    assert "error" not in result, result
    assert sendable(result), repr(result["text"])
    text, structured = tool.format_for_model(result)  # what MCP sends: the text and the structured content
    assert sendable(text) and sendable(structured)


def test_a_lone_surrogate_becomes_the_replacement_character():
    result = call_fetch("/j", b'{"name": "half an emoji \\ud83d!"}', "application/json")
    assert '"name": "half an emoji \ufffd!"' in result["text"]


def random_bytes():
    return os.urandom(50_000)


def zipped():
    out = BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.bin", os.urandom(50_000))
    return out.getvalue()


@pytest.mark.parametrize("content_type", ["text/html", "text/html; charset=utf-8", "text/plain"])
@pytest.mark.parametrize("body", [random_bytes, zipped], ids=["random bytes", "zip archive"])
def test_binary_data_labelled_text_is_refused_not_read_as_mojibake(body, content_type):
    with FaultServer({"/b": respond(200, body(), content_type=content_type)}) as server:
        error = fetch_error(server.url("/b"))
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "unsupported_content")
    assert "served binary data as" in error.message


@pytest.mark.parametrize(
    "body, content_type",
    [
        ("<html><head><title>UTF-16</title></head><body>%s</body></html>" % ARTICLE, "text/html; charset=utf-16"),
        ("Notes\x00 with a few \x1a stray \x0b bytes in a short text, and more words after them.", "text/plain"),
    ],
    ids=["utf-16 page (half its bytes NUL)", "a few stray bytes"],
)
def test_text_with_nul_bytes_in_its_encoding_or_a_few_stray_ones_is_read(body, content_type):
    encoded = body.encode("utf-16") if "utf-16" in content_type else body.encode()
    with FaultServer({"/t": respond(200, encoded, content_type=content_type)}) as server:
        result = fetch(server.url("/t"))
    assert "ordinary article text" in result["text"] or "stray" in result["text"]
    assert not UNSENDABLE.search(result["text"])


@pytest.mark.parametrize(
    "body, why",
    [
        (b"[" * 5000 + b"]" * 5000, "sent JSON nested over 256 levels deep, which fetch does not read"),
        (b'{"id": 1' + b"0" * 5000 + b"}", "sent JSON that cannot be read: it holds a number of over 4300 digits"),
    ],
    ids=["nested 5000 deep", "an integer of 5001 digits"],
)
def test_json_the_parser_cannot_hold_is_not_json_saying_why_not_something_else(body, why):
    # Python's parser refuses integers of over 4300 digits; fetch refuses nesting over 256 levels before parsing
    with FaultServer({"/j": respond(200, body, content_type="application/json")}) as server:
        error = fetch_error(server.url("/j"))
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "not_json")
    assert error.message == "127.0.0.1 " + why


def test_the_title_is_one_line_without_invisible_characters_as_a_search_results_title():
    """The title stands outside the untrusted-content block, on the page's header line: a bidi
    override (U+202E) there turned what follows it around for a reader of the tool text, and a
    zero-width space or a line break split or hid a word; a search result's title drops them
    (``engine.normalize.clean_text``), so does a fetched page's. The text keeps them: it is the page's."""
    title = "Pay\u202e moc.live\u202c \u200bnow\u2066 please\nor\x00not"
    body = "<html><head><title>%s</title></head><body><article>%s</article></body></html>" % (title, ARTICLE)
    result = call_fetch("/t", body.encode(), "text/html; charset=utf-8")
    assert result["title"] == "Pay moc.live now please or not"


@pytest.mark.parametrize(
    "content_type, shown",
    [
        ("text/ht\x01ml", "text/ht ml"),
        ("text/html\x1b[2J", "text/html [2j"),
        ("text/h\x85tml\x7f", "text/h tml"),
        ("text/html; charset=utf-8", "text/html"),
        ("nonsense", "nonsense"),
    ],
    ids=["C0", "escape sequence", "C1 and DEL", "a type", "no type"],
)
def test_the_content_type_is_what_was_sent_without_control_characters(content_type, shown):
    """``content_type`` says what was sent, a media type or not (a browser reads the page as
    untyped), and reaches the model in the structured result as the title does: its control
    characters (a byte a header may hold, an ANSI escape) are spaces there, as in the title."""
    with FaultServer({"/c": respond(200, HTML.encode(), content_type=content_type)}) as server:
        result = fetch(server.url("/c"))
    assert (result["extractor"], result["content_type"]) == ("readability", shown)
    assert call_fetch("/c", HTML.encode(), content_type)["content_type"] == shown
