"""An undeclared page in a double-byte charset (GBK, Big5, Shift_JIS, EUC-JP) is read in its charset:
detection reads the page's text, not its markup (ASCII, which reads as English in any single-byte
charset: a Baidu page in GBK was read as cp1250). A page in a single-byte charset reads as before.

The pages are real recordings (fixtures/) as a server in that charset sends them: re-encoded, every
charset declaration taken out (the ``<meta>`` naming UTF-8; the header names none)."""

import re
from pathlib import Path

import pytest

from websearch_sync.net.charset import decode_body

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
_DECLARATION = re.compile(r"<meta http-equiv=\"content-type\" content=\"text/html; ?charset=utf-8\" ?/?>", re.I)


def undeclared(name: str, codec: str) -> bytes:
    """The recorded page ``name`` in ``codec``, without its charset declaration (a character
    ``codec`` lacks written as a character reference, as such a server writes it)."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    assert len(_DECLARATION.findall(text)) == 1
    return _DECLARATION.sub("", text).encode(codec, errors="xmlcharrefreplace")


@pytest.mark.parametrize(
    "name",
    ["baidu_html/BaiduSpider__1.html", "baidu_html/yaklang__1.html"],
)
@pytest.mark.parametrize("codec", ["gbk", "big5"])
def test_an_undeclared_chinese_page_is_read_in_its_charset(name, codec):
    body = undeclared(name, codec)
    assert decode_body(body, "text/html") == body.decode("gb18030" if codec == "gbk" else "big5hkscs")


@pytest.mark.parametrize("codec", ["shift_jis", "euc_jp"])
def test_an_undeclared_japanese_page_is_read_in_its_charset(codec):
    body = undeclared("ddg_html/lofi__1.html", codec)
    assert decode_body(body, "text/html") == body.decode("cp932" if codec == "shift_jis" else codec)


@pytest.mark.parametrize(
    "name",
    ["bing_html/FabioTranjan__422003a_1.html", "yahoo_html/phrona__news.html"],
)
def test_an_undeclared_cp1252_page_reads_as_before(name):
    """Portuguese text, curly quotes (``You\\x92re``): no run of double-byte characters, so detection
    reads the page as before (Shift_JIS alone decodes such bytes without an error)."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    body = re.sub(r"(?i)charset\s*=\s*[\"']?utf-8", "", text).encode("cp1252", errors="xmlcharrefreplace")
    assert decode_body(body, "text/html") == body.decode("cp1252")


#: Sentences of scripts whose single-byte charsets put letters in runs of non-ASCII bytes: Shift_JIS
#: decodes such runs without an error (its one-byte katakana take the odd bytes) into half-width
#: katakana, which no double-byte page is mostly written in.
RUNS_OF_LETTERS = {
    "koi8_r": "Правительство в среду объявило о новом пакете мер поддержки предприятий. Малые фирмы получат субсидии.",
    "cp874": "รัฐบาลประกาศมาตรการใหม่ในวันพุธเพื่อช่วยเหลือธุรกิจที่ได้รับผลกระทบจากวิกฤตพลังงาน ธุรกิจขนาดเล็กจะได้รับเงินอุดหนุน",
}


@pytest.mark.parametrize("codec", sorted(RUNS_OF_LETTERS))
def test_a_single_byte_page_whose_letters_run_is_not_taken_for_shift_jis(codec):
    page = "<html><head><title>x</title></head><body><p>%s</p></body></html>" % RUNS_OF_LETTERS[codec]
    assert decode_body(page.encode(codec), "text/html") == page
