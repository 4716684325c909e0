"""decode_body: header charset, then <meta>, then detection."""

from pathlib import Path

import pytest
from clocks import AbandonedAfter
from requests.structures import CaseInsensitiveDict

from websearch_sync.checkpoints import WorkAbandoned, abandonable, abandoned_here
from websearch_sync.errors import Timeout
from websearch_sync.net import charset
from websearch_sync.net.charset import declared_charset, decode_body, meta_charset
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.response import media_type
from websearch_sync.net.transport import HttpResponse
from websearch_sync.reader import page

CHINESE = "<html><head>%s<title>百度一下，你就知道</title></head><body><p>北京天气预报，今天晴转多云，气温十五度。</p></body></html>"


def test_gbk_from_header():
    body = (CHINESE % "").encode("gbk")
    assert "北京天气" in decode_body(body, "text/html; charset=GBK")


def test_gbk_from_meta_when_header_has_no_charset():
    body = (CHINESE % '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">').encode("gbk")
    assert "北京天气" in decode_body(body, "text/html")


def test_html5_meta_charset():
    body = (CHINESE % '<meta charset="gbk">').encode("gbk")
    assert "你就知道" in decode_body(body, None)


def test_header_lie_falls_back_to_meta():
    body = (CHINESE % '<meta charset="gbk">').encode("gbk")
    assert "北京天气" in decode_body(body, "text/html; charset=utf-8")


def test_detection_without_any_label():
    body = (CHINESE % "").encode("gb18030") * 3
    assert "北京天气" in decode_body(body, "text/html")


@pytest.mark.parametrize("codec, label", [("big5", "big5"), ("shift_jis", "Shift_JIS"), ("euc-kr", "euc-kr")])
def test_other_cjk_encodings(codec, label):
    text = {"big5": "臺灣的天氣很好", "shift_jis": "日本語のテキストです", "euc-kr": "한국어 텍스트"}[codec]
    assert text in decode_body(("<p>%s</p>" % text).encode(codec), "text/html; charset=%s" % label)


def test_latin1_label_on_utf8_bytes_is_read_as_utf8():
    assert decode_body("café".encode(), "text/html; charset=ISO-8859-1") == "café"


def test_real_latin1_still_decodes():
    assert decode_body("café".encode("latin-1"), "text/html; charset=ISO-8859-1") == "café"


def test_bom_and_garbage():
    assert decode_body("hello".encode("utf-8-sig"), None) == "hello"
    assert isinstance(decode_body(bytes(range(256)) * 4, "text/html; charset=utf-8"), str)
    assert decode_body(b"", "text/html") == ""


def test_labels():
    assert declared_charset('text/html; charset="GB2312"') == "gb18030"
    assert declared_charset("text/html; charset=bogus-charset") is None
    assert meta_charset(b"<meta charset='utf-8'>") == "utf-8"


RECORDED = Path(__file__).resolve().parents[2] / "fixtures" / "yahoo_html" / "phrona__news.html"


@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8", "text/html; charset=ISO-8859-1", None])
def test_one_stray_byte_in_a_utf8_page_is_one_replacement_not_another_charset(content_type):
    """A recorded UTF-8 page (Yahoo News) with one byte that is no UTF-8 put before a "’": the
    page stays UTF-8, that byte a U+FFFD, as a browser shows it (it was read as a legacy charset,
    every curly quote turning into mojibake such as "â€™")."""
    page = RECORDED.read_bytes()
    clean = decode_body(page, "text/html; charset=utf-8")
    at = page.index("’".encode())
    text = decode_body(page[:at] + b"\xff" + page[at:], content_type)
    assert text.count("\ufffd") == 1 and text.replace("\ufffd", "") == clean and "â€" not in text


def test_a_legacy_page_labelled_utf8_is_still_read_in_its_charset():
    """The same page in windows-1252 under a UTF-8 label: its non-ASCII bytes are no UTF-8, so
    detection reads it (not a page of replacement characters)."""
    clean = decode_body(RECORDED.read_bytes(), "text/html; charset=utf-8")
    legacy = clean.encode("cp1252", "replace")
    assert decode_body(legacy, "text/html; charset=utf-8") == legacy.decode("cp1252")


@pytest.mark.parametrize("page", ["bing_html/GoogleScraper__foood.html", "ddg_html/agent-webtool__1.html"])
@pytest.mark.parametrize("label", ["utf-16", "UTF-16LE", "utf-16be"])
@pytest.mark.parametrize("tail", [b"", b"\n"], ids=["as recorded", "one byte more"])
def test_a_header_naming_utf16_over_a_body_without_a_nul_is_not_utf16(page, label, tail):
    """A recorded UTF-8 results page served under ``charset=utf-16``: a body of an even length
    decoded as UTF-16 without an error (every two bytes one CJK-looking character) and Bing's answer
    was "a page that has neither results nor a no-results notice"; one of an odd length failed and
    was read as UTF-8. UTF-16 markup holds a NUL in every ASCII character: a body with none in its
    first kilobyte is not UTF-16, whatever its length, as a ``<meta>`` naming UTF-16 is not."""
    body = (Path(__file__).resolve().parents[2] / "fixtures" / page).read_bytes() + tail
    assert b"\x00" not in body[:1024]
    assert decode_body(body, "text/html; charset=%s" % label) == decode_body(body, "text/html; charset=utf-8")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_utf16_page_without_a_mark_is_read_by_its_header(codec):
    page = "<html><head><title>Grüße</title></head><body><p>北京天气 Käse</p></body></html>"
    assert decode_body(page.encode(codec), "text/html; charset=%s" % codec) == page


@pytest.mark.parametrize("label", ["utf-16", "UTF-16LE", "utf-16be"])
def test_a_meta_naming_utf16_means_utf8(label):
    """The HTML standard's prescan: a ``<meta>`` found in ASCII bytes cannot mean UTF-16 (the
    page was read as UTF-16: every two bytes one CJK-looking character)."""
    page = '<html><head><meta charset="%s"><title>Grüße</title></head><body><p>Käse</p></body></html>' % label
    text = decode_body(page.encode(), "text/html")
    assert text == page
    assert decode_body(page.encode(), None) == page


def test_a_few_stray_bytes_are_counted_and_replaced_in_one_scan(monkeypatch):
    """A UTF-8 page with a stray byte is read with U+FFFD in its place; the stray bytes are counted
    by the substitution that replaces them (counting first scanned the page twice)."""
    from websearch_sync.net import charset

    scans = []
    pattern = charset._ESCAPED_BYTE

    class CountingPattern:
        def __getattr__(self, name):
            method = getattr(pattern, name)

            def counted(*args, **kwargs):
                scans.append(name)
                return method(*args, **kwargs)

            return counted

    monkeypatch.setattr(charset, "_ESCAPED_BYTE", CountingPattern())
    text = "<p>café crème " * 200
    assert decode_body(text.encode() + b"\xff<p>fin</p>", "text/html; charset=utf-8") == text + "\ufffd<p>fin</p>"
    assert len(scans) == 1


@pytest.mark.parametrize(
    "content_type, media, codec",
    [
        ('text/html; charset="x, application/json"', "text/html", None),
        ("text/plain; charset=latin1, text/html; charset=utf-8", "text/html", "utf-8"),
        ("text/html; charset=utf-8, text/html; charset=windows-1251", "text/html", "cp1251"),
        ("text/plain; charset=windows-1251, text/html", "text/html", None),
        ("text/html; charset=gbk, text/html", "text/html", "gb18030"),
        ('text/html; charset="utf-8"; q="a;b", text/html', "text/html", "utf-8"),
    ],
    ids=[
        "comma inside quotes",
        "charset of the last type",
        "the last charset",
        "another type's",
        "same type's",
        "quoted",
    ],
)
def test_the_charset_goes_with_the_type_that_counts(content_type, media, codec):
    """As the Fetch standard's "extract a MIME type": a quoted parameter's comma splits nothing (the
    type read as ``application/json"``), and the charset is the winning type's, not the first named."""
    assert (media_type(content_type), declared_charset(content_type)) == (media, codec)


#: UTF-8 text three chunks of the UTF-8 check long, one stray byte in each chunk's worth: read as
#: UTF-8 (few stray bytes), so the check runs through every chunk.
_MOSTLY_UTF8 = (("é" * (charset._UTF8_CHUNK // 2)).encode() + b"\xff") * 3


def test_the_utf8_check_is_cut_between_chunks():
    """The check of a body with stray bytes (0.1 us a byte: 5 MB held the GIL past a fetch's
    deadline) stops at a checkpoint between two chunks once its work was abandoned."""
    abandoned = AbandonedAfter(2)
    with abandonable(abandoned), pytest.raises(WorkAbandoned):
        decode_body(_MOSTLY_UTF8, "text/html; charset=utf-8")
    assert abandoned.seen == 2


def test_the_utf8_check_in_chunks_reads_as_in_one_piece():
    """Chunked (a character cut between two chunks, stray bytes in each), the text is the one
    decoding the whole body gives, and too many stray bytes still send it to detection."""
    content = b"\xe2\x82" + _MOSTLY_UTF8[:-1] + "€".encode()  # a character across each chunk's end
    whole = content.decode("utf-8", "surrogateescape")
    expected = "".join("\ufffd" if "\udc80" <= c <= "\udcff" else c for c in whole)
    counted = AbandonedAfter(10**9)
    with abandonable(counted):
        assert charset._mostly_utf8(content) == expected
    assert counted.seen == 4  # one checkpoint a chunk
    assert charset._mostly_utf8(b"\xff" * (3 * charset._UTF8_CHUNK)) is None


def test_a_fetch_decodes_the_body_within_its_deadline(monkeypatch):
    """The bot-wall scan decodes the body in the calling thread, before extraction: it runs as
    abandonable work of the fetch's deadline, and its checkpoint's end is the fetch's Timeout."""
    seen = []

    def wall_error(response, provider):
        seen.append(abandoned_here())
        raise WorkAbandoned("at the UTF-8 check's checkpoint")

    monkeypatch.setattr(page.registry, "wall_error", wall_error)
    response = HttpResponse(status=200, headers=CaseInsensitiveDict(), content=b"x", url="https://a.example/")
    with pytest.raises(Timeout) as raised:
        page._wall_error(response, Deadline(0))
    assert raised.value.detail_code == "deadline_exceeded" and seen[0] is not None
