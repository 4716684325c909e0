"""What an untyped body (or one under a text type) is taken for, read through ``content_kind`` and
``page_text`` directly: a page or a text that shows PDF syntax stays a page or a text; a PDF after
other bytes is a PDF only with its trailer at the body's end, from where pdf.js finds its header,
and is read from its header on; ``[`` or ``{`` opens JSON only when it parses; a page sniffed under
an unknown type names its charset as under none; a Content-Type that is no media type is none."""

import pytest
from pdfs import text_pdf
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.net.charset import decode_body
from websearch_sync.net.media import content_kind
from websearch_sync.net.transport import HttpResponse
from websearch_sync.reader.content import _without_cut_tag, page_text

NOTICE = text_pdf([["A one-page notice of the harbour."]], title="Notice")
PHP_WARNING = (
    b"<br />\n<b>Warning</b>:  Cannot modify header information - headers already sent by (output started at"
    b" /srv/a.php:3) in <b>/srv/a.php</b> on line <b>9</b><br />\n"
)
#: A page and a text that show a PDF's opening (its header and first object), as a primer does.
PRIMER_PAGE = (
    b"<!doctype html><html><head><title>PDF syntax primer</title></head><body><h1>PDF syntax primer</h1>"
    b"<p>Every PDF file opens with a header line and then numbered objects:</p>"
    b"<pre>%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n&lt;&lt; /Type /Catalog /Pages 2 0 R &gt;&gt;\nendobj\n</pre>"
    b"<p>The first object is usually the catalog. This article explains each part in turn.</p></body></html>"
)
PRIMER_TEXT = (
    b"PDF primer\n==========\nA PDF opens like this:\n\n%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n\n"
    b"That is the header and the catalog object.\n"
)
UNTYPED = [None, "*/*", "application/octet-stream"]


def response(body, content_type=None, truncated=False):
    headers = CaseInsensitiveDict({"Content-Type": content_type} if content_type else {})
    return HttpResponse(200, headers, body, "https://docs.example/file", truncated=truncated)


def read(body, content_type=None):
    """(title, text, extractor) of the body read as fetch reads it."""
    result = page_text(response(body, content_type), mode="markdown")
    return result.title, result.text, result.extractor


@pytest.mark.parametrize("content_type", UNTYPED)
def test_a_page_that_shows_pdf_syntax_is_a_page(content_type):
    title, text, extractor = read(PRIMER_PAGE, content_type)
    assert (title, extractor) == ("PDF syntax primer", "readability") and "%PDF-1.4\n" in text


@pytest.mark.parametrize("content_type", UNTYPED + ["text/plain"])
def test_a_text_that_shows_pdf_syntax_is_text(content_type):
    assert read(PRIMER_TEXT, content_type) == ("", PRIMER_TEXT.decode().strip(), "text")


@pytest.mark.parametrize(
    "prefix, content_type",
    [
        (PHP_WARNING, None),
        (PHP_WARNING, "text/html; charset=UTF-8"),  # PHP's header() failed after the warning: its default type
        (b"\xef\xbb\xbf", "text/plain"),
        (b"x" * 600 + b"\n", None),  # read from the header on: the xref offsets count from there
    ],
    ids=["php-untyped", "php-text-html", "bom-text-plain", "600-bytes"],
)
def test_a_pdf_after_other_bytes_is_read_as_a_pdf(prefix, content_type):
    assert read(prefix + NOTICE, content_type) == ("Notice", "A one-page notice of the harbour.", "pdf")


@pytest.mark.parametrize("before, kind", [(1018, "pdf"), (1019, "text")])
def test_the_pdf_header_must_lie_whole_in_the_first_1024_bytes_as_pdf_js_finds_it(before, kind):
    """pdf.js looks for the 5-byte ``%PDF-`` in the first 1024 bytes: it starts at byte 1019 at most."""
    body = b"x" * before + b"\n" + NOTICE  # the header starts at byte before + 1
    assert content_kind(response(body)) == kind


def test_a_pdf_header_line_holding_its_binary_comment_is_found_after_other_bytes():
    """``%PDF-1.4 %\xe2\xe3\xcf\xd3`` on one line, as some writers put it (pdf.js reads it): the
    header needed its line to end right after the version."""
    assert NOTICE.startswith(b"%PDF-")
    one_line = NOTICE.replace(b"\n", b" %\xe2\xe3\xcf\xd3\n", 1)
    assert content_kind(response(PHP_WARNING + one_line)) == "pdf"


XDEBUG_WARNING = (
    b"<br />\n<font size='1'><table class='xdebug-error xe-warning' dir='ltr' border='1' cellspacing='0'"
    b" cellpadding='1'>\n<tr><th align='left' bgcolor='#f57900' colspan=\"5\"><span style='background-color:"
    b" #cc0000;'>( ! )</span> Warning: Cannot modify header information</th></tr>\n</table></font>\n"
)


@pytest.mark.parametrize(
    "prefix",
    [
        XDEBUG_WARNING,  # PHP's warning as Xdebug prints it: a table of the call stack
        b"Warning: value x < 3 in /srv/a.php on line 9\n",  # a < that opens no tag
        b"\x00\x05hello\xd9<\x01\x02" + b"\x00" * 116,  # a binary header holding a < byte
    ],
    ids=["xdebug", "less-than", "binary-header"],
)
@pytest.mark.parametrize("content_type", [None, "text/html"])
def test_what_no_page_holds_before_a_pdf_leaves_it_a_pdf(prefix, content_type):
    """Only a page's own tags (``<pre>``, ``<title>``...) before the header make it a page quoting a
    PDF: a ``<`` opening no tag, and an error notice's table, do not (both were read as pages)."""
    assert content_kind(response(prefix + NOTICE, content_type)) == "pdf"


def test_a_pdf_after_other_bytes_without_its_trailer_is_no_pdf():
    """Ending before its trailer, a body that names a PDF's opening is as likely a text that quotes one."""
    ended = PHP_WARNING + NOTICE[: NOTICE.index(b"startxref")]
    assert content_kind(response(ended)) == "html"


#: PHP notices printed after the file, past the last 1024 bytes (1.9 KB).
NOTICES_AFTER = b"<br />\n<b>Notice</b>:  Undefined index: page in <b>/srv/a.php</b> on line <b>12</b><br />\n" * 20


@pytest.mark.parametrize("after", [NOTICES_AFTER, XDEBUG_WARNING * 8], ids=["php", "xdebug"])
def test_a_pdf_after_other_bytes_and_before_an_error_notice_is_a_pdf(after):
    """Untyped, what follows the trailer may be an error notice longer than 1 KB (the PDF's
    syntax came back as a page): only notice tags, opening as a notice does, as before the header."""
    assert len(after) > 1024
    body = PHP_WARNING + NOTICE + after
    assert page_text(response(body), mode="markdown").text == "A one-page notice of the harbour."


@pytest.mark.parametrize(
    "after",
    [
        b"<p>That was the file.</p>\n" + NOTICES_AFTER,
        b"That was the file. " * 60,
        # notice tags, but no notice: a line break then prose, a table of links (both were a PDF)
        b"<br>" + b"That was the file. " * 60,
        b"<table><tr><td><a href='/x'>The next file</a></td></tr></table>" * 20,
    ],
    ids=["paragraph", "prose", "line break and prose", "table"],
)
def test_a_pdf_after_other_bytes_followed_by_more_than_a_notice_is_no_pdf(after):
    assert content_kind(response(PHP_WARNING + NOTICE + after)) == "html"


def test_a_pdf_after_other_bytes_cut_by_max_bytes_is_a_pdf_too_large_to_read():
    """A body the byte cap cut shows no end: its header line and first object make the PDF, which
    is refused as too large (raise max_bytes), not returned as its syntax."""
    cut = response(PHP_WARNING + NOTICE[:300], truncated=True)
    assert content_kind(cut) == "pdf"
    with pytest.raises(ws.WebProviderError) as caught:
        page_text(cut, mode="markdown")
    assert (caught.value.detail_code, caught.value.hint) == ("response_too_large", "raise max_bytes")


#: A page and a text that quote a whole small PDF, trailer and all, as a "PDF by hand" article does.
QUOTED_PAGE = (
    b'<meta charset="utf-8">\n<title>Hello World in PDF, by hand</title>\n<p>The whole file:</p>\n<pre>\n'
    + NOTICE
    + b"</pre>\n<p>Save it as hello.pdf and open it.</p>\n"
)
QUOTED_TEXT = b"hello.pdf, annotated\n\n" + NOTICE + b"\nThat is all a PDF needs: a header, objects and a trailer.\n"


@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8", *UNTYPED])
def test_a_page_quoting_a_whole_pdf_is_no_pdf(content_type):
    """A tag before the header other than an error notice's (``<meta>``, ``<title>``, ``<pre>``):
    a page quoting a PDF, whose article was replaced by the quoted file's text."""
    assert content_kind(response(QUOTED_PAGE, content_type)) != "pdf"


@pytest.mark.parametrize("content_type", ["text/plain", "text/markdown"])
def test_a_declared_text_quoting_a_pdf_with_words_after_it_is_text(content_type):
    """Under a declared text type the trailer must be the body's last bytes."""
    assert content_kind(response(QUOTED_TEXT, content_type)) == "text"


@pytest.mark.parametrize("content_type", ["text/plain", None])
def test_a_text_that_names_the_trailer_in_words_is_text(content_type):
    """``startxref`` in prose near the end is no trailer: that needs its offset and ``%%EOF``."""
    body = PRIMER_TEXT + b"Its last lines give startxref and the offset of the cross-reference table.\n"
    assert content_kind(response(body, content_type)) == "text"


def test_a_pdf_after_a_warning_under_a_declared_type_is_no_pdf_when_cut():
    """Cut by the byte cap, a declared page shows no trailer: it stays the page it says it is."""
    assert content_kind(response(PHP_WARNING + NOTICE[:300], "text/html", truncated=True)) == "html"


@pytest.mark.parametrize("content_type", [None, "*/*", "application/unknown"])
@pytest.mark.parametrize(
    "body",
    [
        b"[Home](/) | [About](/about)\n\n# Tides\nHigh water at 06:12.\n",
        b"[1] Introduction\nThis paper is about tides.\n",
    ],
    ids=["markdown-links", "numbered-heading"],
)
def test_an_untyped_text_opening_with_a_bracket_is_text(body, content_type):
    assert read(body, content_type) == ("", body.decode().strip(), "text")


def test_untyped_json_after_a_byte_order_mark_is_json():
    assert read(b'\xef\xbb\xbf{"a": 1}', "*/*") == ("", '{\n  "a": 1\n}', "json")


#: A page whose bytes alone mislead (charset_normalizer takes the editor's mode line for its
#: declaration, then reads the euro sign as ISO-8859-1's currency sign): only its meta charset says.
LATIN9_PAGE = (
    '<!doctype html><html><head><!-- -*- coding: ascii -*- --><meta charset="iso-8859-15"><title>Prix</title>'
    "</head><body><p>Prix: 5 € le kilo, très bon</p>"
)


@pytest.mark.parametrize("content_type", [None, "*/*", "application/unknown", "application/octet-stream"])
def test_a_page_under_an_unknown_type_is_decoded_by_its_meta_charset(content_type):
    assert decode_body(LATIN9_PAGE.encode("iso-8859-15"), content_type) == LATIN9_PAGE


@pytest.mark.parametrize("content_type", ["text/", "/html", "text /html"])
def test_a_content_type_that_is_no_media_type_is_sniffed_as_none(content_type):
    page = b"<!doctype html><title>Tides</title><p>High water at the harbour is at 06:12 today.</p>"
    assert content_kind(response(page, content_type)) == "html"


def _html(body: bytes, truncated: bool = False) -> HttpResponse:
    headers = CaseInsensitiveDict({"Content-Type": "text/html"})
    return HttpResponse(200, headers, body, "https://a.example/p", truncated)


@pytest.mark.parametrize(
    ("body", "truncated", "extractor"),
    [
        (b'\r\n\t{"a": 1}', False, "json"),  # whitespace of any kind before the brace
        (b'{"a": 1', False, "readability"),  # failing at its end, but whole: no JSON cut short
        (b"[1, -Infinit", True, "json"),  # cut in a token 8 characters long: the cut's failure
        (b"[1, -Infinitx", True, "readability"),  # failing 9 characters before the end: not the cut's
    ],
)
def test_a_body_declared_html_is_json_when_it_parses_or_fails_only_at_the_cut(body, truncated, extractor):
    assert page_text(_html(body, truncated), mode="text").extractor == extractor


@pytest.mark.parametrize(
    ("markup", "kept"),
    [
        ("text <?", "text "),  # a "<?" opens a tag (a bogus comment): the cut's, dropped
        ("a <\u00e9", "a <\u00e9"),  # a letter, but not ASCII: HTML opens no tag there, the page's text
    ],
)
def test_a_page_cut_in_a_tag_loses_that_tag_only(markup, kept):
    assert _without_cut_tag(markup) == kept


@pytest.mark.parametrize(
    "body, media",
    [
        (b"\x00\x00\x01\x00\x01\x00\x10\x10\x00\x00\x01\x00\x20\x00" + bytes(40), "image/x-icon"),
        (b"BM\x46\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00" + bytes(40), "image/bmp"),
        (b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf" + bytes(40), "image/avif"),
    ],
    ids=["ico", "bmp", "avif"],
)
@pytest.mark.parametrize("content_type", UNTYPED[:2])
def test_an_untyped_image_fetch_does_not_return_is_named_not_called_binary_data(body, media, content_type):
    # it said "binary data by its first bytes (no HTML, PDF, image or text)"
    with pytest.raises(ws.WebProviderError) as raised:
        page_text(response(body, content_type), mode="markdown", images=True)
    assert raised.value.detail_code == "unsupported_content"
    assert "%s by its first bytes, which fetch cannot read (images: PNG, JPEG, GIF and WebP only)" % media in str(
        raised.value
    )


def test_an_untyped_text_opening_as_a_bitmap_s_signature_is_text():
    assert read(b"BMW 3 series: the owner's manual\n") == ("", "BMW 3 series: the owner's manual", "text")


def test_a_responses_kind_is_found_once_and_again_when_what_it_was_read_from_changes(monkeypatch):
    """``content_kind`` sniffs a response once (a fetch asks three times); a Content-Type, a body
    or a cut set anew on the same response is read anew, and a copy made by
    ``dataclasses.replace`` starts without the first one's answer."""
    import dataclasses

    from websearch_sync.net import media

    found = []
    sniff = media._content_kind
    monkeypatch.setattr(media, "_content_kind", lambda answer: found.append(1) or sniff(answer))
    page = response(PRIMER_PAGE, "text/html")
    assert [content_kind(page) for _ in range(3)] == ["html"] * 3
    assert len(found) == 1
    page.headers["Content-Type"] = "image/png"  # a page under an image's type: still the page, read again
    assert content_kind(page) == "html" and len(found) == 2
    page.content = NOTICE  # a PDF under an image's type is no page: the type's
    assert content_kind(page) == "image" and len(found) == 3
    del page.headers["Content-Type"]
    page.content = PHP_WARNING + NOTICE[:300]  # untyped, no PDF trailer at its end: the page it opens as
    assert content_kind(page) == "html" and len(found) == 4
    page.truncated = True  # the same bytes cut by max_bytes: the PDF too large to read
    assert content_kind(page) == "pdf" and len(found) == 5
    copy = dataclasses.replace(page, truncated=False)
    assert copy.kind_memo is None
    assert content_kind(copy) == "html" and len(found) == 6


def test_a_responses_media_type_is_read_once_while_its_header_is_the_same(monkeypatch):
    """``HttpResponse.content_type`` reads the header once (a fetch asks about ten times), and again
    once the header is set anew or removed."""
    from websearch_sync.net import response as response_module

    read = []
    media_type = response_module.media_type
    monkeypatch.setattr(response_module, "media_type", lambda value: read.append(value) or media_type(value))
    page = response(PRIMER_PAGE, "Text/HTML; charset=utf-8")
    assert [page.content_type for _ in range(3)] == ["text/html"] * 3
    assert read == ["Text/HTML; charset=utf-8"]
    page.headers["Content-Type"] = "application/pdf"
    assert page.content_type == "application/pdf" and len(read) == 2
    del page.headers["Content-Type"]
    assert page.content_type == "" and read[-1] is None
