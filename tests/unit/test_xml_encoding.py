"""The encoding of an XML body, as XML 1.0 Appendix F and RFC 7303 read it (charset.xml_encoding,
charset.xml_declared_charset, and decode_body for an XML type)."""

import pytest

from websearch_sync.net.charset import decode_body, xml_declared_charset, xml_encoding

DOCUMENT = '<?xml version="1.0" encoding="UTF-16"?><note><to>Tove</to><body>Ĥello, wörld</body></note>'


@pytest.mark.parametrize(
    "body, codec",
    [
        (DOCUMENT.encode("utf-16-be"), "utf-16-be"),
        (DOCUMENT.encode("utf-16-le"), "utf-16-le"),
        (DOCUMENT.encode("utf-32-be"), "utf-32-be"),
        (DOCUMENT.encode("utf-32-le"), "utf-32-le"),
        (DOCUMENT.encode("utf-16"), "utf-16"),
        (DOCUMENT.encode("utf-32"), "utf-32"),
        ("<note/>".encode("utf-16-be"), "utf-16-be"),
        (DOCUMENT.encode("utf-8-sig"), "utf-8-sig"),
        (DOCUMENT.encode("utf-8"), None),
        (b"\x4c\x6f\xa7\x94", None),  # EBCDIC's '<?xm', in no web encoding: left to the labels
    ],
    ids=["16be", "16le", "32be", "32le", "16 bom", "32 bom", "16be root", "utf-8 bom", "ascii", "ebcdic"],
)
def test_the_first_bytes_name_the_form_of_unicode(body, codec):
    assert xml_encoding(body) == codec


@pytest.mark.parametrize("form", ["utf-16-be", "utf-16-le", "utf-32-be", "utf-32-le"])
def test_a_bomless_document_cut_by_the_byte_cap_ends_at_its_last_whole_character(form):
    body = DOCUMENT.encode(form)
    width = len("<".encode(form))
    assert decode_body(body[: 40 * width + 1], "application/xml", cut=True) == DOCUMENT[:40]


def test_the_declaration_is_read_at_the_start_only():
    assert xml_declared_charset(b"<?xml version='1.0' encoding = 'KOI8-R' ?><a/>") == "koi8-r"
    assert xml_declared_charset(b'\xef\xbb\xbf<?xml version="1.0" encoding="windows-1251"?>') == "cp1251"
    assert xml_declared_charset(b'<a>text <?xml version="1.0" encoding="koi8-r"?></a>') is None
    assert xml_declared_charset(b'<?xml version="1.0" encoding="utf-16"?>') == "utf-8"  # in ASCII bytes
    assert xml_declared_charset(b'<?xml version="1.0" encoding="rot13"?>') is None  # no web encoding
