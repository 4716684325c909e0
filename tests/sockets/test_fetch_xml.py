"""XML as fetch reads it: a document's encoding found as XML finds it (XML 1.0 Appendix F, RFC 7303),
XHTML known by its namespace whatever its prefix, and binary data under an XML type still refused."""

import gzip
import random
from pathlib import Path

import pytest
from faults import respond
from servers import FaultServer
from test_fetch_pdf import fetch, fetch_error

DATA = Path(__file__).resolve().parent.parent / "data" / "fetch"
XML_TYPES = ["text/xml", "application/xml", "application/xhtml+xml"]
HEARING = b"The harbour board approved the dredging plan after a long public hearing on Tuesday. " * 4

PAGE = (
    '<?xml version="1.0" encoding="%s"?>\n'
    '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Harbour works</title>'
    "<script>var tracking_id = 1;</script></head><body><article><h1>Harbour works</h1><p>"
    + HEARING.decode()
    + "</p></article></body></html>"
)

#: Each form of Unicode without a byte-order mark XML 1.0 Appendix F reads by its first bytes
#: (``00 3C 00 3F`` is UTF-16BE ``<?``), and UTF-32 with its mark, which is no UTF-16 mark and a NUL.
FORMS = {
    "utf-16-be": ("UTF-16", "utf-16-be"),
    "utf-16-le": ("UTF-16", "utf-16-le"),
    "utf-32-be": ("UTF-32", "utf-32-be"),
    "utf-32-le": ("UTF-32", "utf-32-le"),
    "utf-32 with its byte-order mark": ("UTF-32", "utf-32"),
}


def read_page(result):
    """The page's title and text are the page's, not its markup."""
    assert result["extractor"] != "text" and result["title"] == "Harbour works"
    assert result["text"].startswith("The harbour board approved the dredging plan")
    assert "<" not in result["text"] and "tracking_id" not in result["text"]


@pytest.mark.parametrize("content_type", XML_TYPES)
@pytest.mark.parametrize("form", FORMS)
def test_xml_in_utf16_or_utf32_without_a_byte_order_mark_is_read_by_its_first_bytes(form, content_type):
    """Read as UTF-8, every other character of a BOM-less UTF-16 document was a NUL, and the page
    was refused as binary data (UTF-32, with its mark or not, too)."""
    label, codec = FORMS[form]
    body = (PAGE % label).encode(codec)
    with FaultServer({"/p": respond(200, body, content_type=content_type)}) as server:
        read_page(fetch(server.url("/p"), extract_mode="text"))


def test_the_first_bytes_outweigh_a_charset_they_cannot_be_in():
    """``00 3C 00 3F`` is ``<?`` in UTF-16BE and in no ASCII-compatible charset: a header naming UTF-8
    (or UTF-16 alone, which the web reads as little-endian) does not make it NULs or CJK."""
    body = (PAGE % "UTF-16").encode("utf-16-be")
    with FaultServer(
        {
            "/utf8": respond(200, body, content_type="application/xml; charset=utf-8"),
            "/utf16": respond(200, body, content_type="application/xml; charset=utf-16"),
        }
    ) as server:
        for path in ("/utf8", "/utf16"):
            read_page(fetch(server.url(path), extract_mode="text"))


FEED = (
    '<?xml version="1.0" encoding="UTF-16"?><rss version="2.0"><channel><title>Harbour news</title>'
    "<item><title>Dredging approved</title><description>The board approved the plan.</description></item>"
    "</channel></rss>"
)


def test_a_feed_in_utf16_without_a_byte_order_mark_is_its_text():
    with FaultServer({"/f": respond(200, FEED.encode("utf-16-le"), content_type="application/rss+xml")}) as server:
        result = fetch(server.url("/f"))
    assert (result["extractor"], result["text"]) == ("text", FEED)


def _noise(opening: bytes) -> bytes:
    return opening + random.Random(7).randbytes(50_000)


@pytest.mark.parametrize("content_type", XML_TYPES)
@pytest.mark.parametrize(
    "body",
    [_noise(b""), _noise(b"\x00<\x00?"), _noise(b"<\x00?\x00"), _noise(b"\x00\x00\x00<"), _noise(b"\xff\xfe\x00\x00")],
    ids=["random bytes", "after utf-16-be <?", "after utf-16-le <?", "after utf-32-be <", "after a utf-32 mark"],
)
def test_binary_data_under_an_xml_type_is_still_refused(body, content_type):
    """Four bytes that open UTF-16 or UTF-32 XML do not make the bytes after them text: they do not
    decode in that form, and read otherwise they are what text does not hold."""
    with FaultServer({"/b": respond(200, body, content_type=content_type)}) as server:
        error = fetch_error(server.url("/b"))
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "unsupported_content")
    assert "served binary data as %s" % content_type in error.message


PREFIXED = (
    b'<?xml version="1.0" encoding="utf-8"?>\n'
    b'<h:html xmlns:h="http://www.w3.org/1999/xhtml">'
    b"<h:head><h:title>Harbour works</h:title></h:head><h:body><h:article><h:h1>Harbour works</h:h1>"
    b"<h:h2>The&#160;hearing</h:h2><h:p>"
    + HEARING
    + b'<h:a href="/plan">Read the plan</h:a>.</h:p></h:article></h:body></h:html>'
)


@pytest.mark.parametrize("content_type", [*XML_TYPES, None, "application/octet-stream"])
def test_xhtml_whose_elements_carry_a_prefix_is_read_as_a_page(content_type):
    """The XHTML namespace counts, not its prefix: as ``text/xml`` or ``application/xml`` the page
    came back as its markup, and as ``application/xhtml+xml`` its title ran into its text, its
    heading and link lost (an HTML parser reads ``<h:p>`` as an unknown element named ``h:p``).
    Untyped (no Content-Type, or ``application/octet-stream``), a prefixed XHTML root is sniffed as a
    page and read as XML: ``<h:html>`` opens as no HTML, so the page came back as its markup."""
    with FaultServer({"/p": respond(200, PREFIXED, content_type=content_type)}) as server:
        result = fetch(server.url("/p"))
    assert (result["extractor"], result["title"]) == ("readability", "Harbour works")
    assert result["text"].startswith("## The hearing\n\nThe harbour board approved the dredging plan")
    assert "[Read the plan](%s)" % server.url("/plan") in result["text"]
    assert "<" not in result["text"]


@pytest.mark.parametrize("content_type", [None, "application/octet-stream"])
def test_untyped_prefixed_xhtml_is_decoded_by_its_xml_declaration(content_type):
    """Read as XML because sniffed as prefixed XHTML, an untyped page takes its encoding from its XML
    declaration as under an XML type: decoded as HTML, by detection (no header, no ``<meta>``), this
    Polish page in ISO-8859-2 came back as ISO-8859-10 mojibake (``Zażółć`` as ``Zaŋóģæ``)."""
    codec, title, text = "iso-8859-2", "Zażółć gęślą jaźń", "Zażółć gęślą jaźń. Łódź, Świętokrzyskie, Śląsk."
    body = (
        '<?xml version="1.0" encoding="%s"?>\n<h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:head>'
        "<h:title>%s</h:title></h:head><h:body><h:article><h:h1>%s</h:h1><h:p>%s</h:p></h:article></h:body></h:html>"
    ) % (codec, title, title, (text + " ") * 4)
    with FaultServer({"/p": respond(200, body.encode(codec), content_type=content_type)}) as server:
        result = fetch(server.url("/p"), extract_mode="text")
    assert (result["extractor"], result["title"]) == ("readability", title)
    assert result["text"].startswith(text)


def test_an_html_root_in_another_namespace_is_no_page():
    """An ``html`` root that is not XHTML's (a vocabulary of its own) is XML, read as it is."""
    body = b'<?xml version="1.0"?><html xmlns="urn:example:inventory"><item>Dredger, 2 units</item></html>'
    with FaultServer({"/x": respond(200, body, content_type="application/xml")}) as server:
        result = fetch(server.url("/x"))
    assert (result["extractor"], result["text"]) == ("text", body.decode())


CYRILLIC = (
    '<?xml version="1.0" encoding="%s"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>'
    '<meta http-equiv="Content-Type" content="text/html; charset=%s" /><title>Порт</title></head>'
    "<body><article><h1>Порт</h1><p>"
    + "Совет порта одобрил план дноуглубления после долгих публичных слушаний. " * 4
    + "</p></article></body></html>"
)


@pytest.mark.parametrize(
    "content_type, declared, meta, codec",
    [
        ("application/xhtml+xml", "utf-8", "windows-1251", "utf-8"),
        ("text/xml", "utf-8", "koi8-r", "utf-8"),
        ("application/xhtml+xml; charset=windows-1251", "koi8-r", "koi8-r", "cp1251"),
        ("application/xhtml+xml", "UTF-16", "UTF-16", "utf-8"),
    ],
    ids=["declaration over meta", "declaration over meta (text/xml)", "header over declaration", "utf-16 in ascii"],
)
def test_xml_encoding_follows_bom_header_then_declaration(content_type, declared, meta, codec):
    """An XML parser reads the header's charset, then the XML declaration's encoding (RFC 7303),
    and never ``<meta>``: a UTF-8 page whose ``<meta>`` named windows-1251 came back as mojibake.
    A declaration naming UTF-16 in ASCII bytes means UTF-8, as a ``<meta>`` naming it does."""
    body = (CYRILLIC % (declared, meta)).encode(codec)
    with FaultServer({"/p": respond(200, body, content_type=content_type)}) as server:
        result = fetch(server.url("/p"), extract_mode="text")
    assert (result["extractor"], result["title"]) == ("readability", "Порт")
    assert result["text"].startswith("Совет порта одобрил план дноуглубления")


ROOT = PAGE.split("\n", 1)[1]


@pytest.mark.parametrize(
    "prologue",
    [
        '<?xml version="1.0"?>\n<?oxygen RNGSchema="xhtml.rng" type="xml"?>\n',
        '<?xml version="1.0"?>\n<!DOCTYPE html [\n  <!ENTITY site "Harbour">\n  <!ENTITY % x "<!-- -->">\n]>\n',
        '<?xml version="1.0"?>\n<!--\n%s-->\n' % ("  Licensed under the terms of the licence below.\n" * 60),
    ],
    ids=["a processing instruction", "a doctype with an internal subset", "a licence comment of 3 KB"],
)
def test_the_root_is_found_past_any_prologue(prologue):
    """An XML prologue holds comments, processing instructions (any, not only ``<?xml...?>``) and a
    doctype whose internal subset holds ``>``; the root was looked for in the first KB only, and
    each of these hid it: the page came back as its markup."""
    body = (prologue + ROOT).encode()
    with FaultServer({"/p": respond(200, body, content_type="application/xml")}) as server:
        read_page(fetch(server.url("/p"), extract_mode="text"))


ATOM = (
    b'<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>Harbour news</title>'
    b'<entry><title>Dredging approved</title><link href="https://harbour.example/dredging"/>'
    b"<summary>The board approved the plan.</summary></entry></feed>"
)
RDF = (
    b'<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    b'xmlns="http://purl.org/rss/1.0/"><channel><title>Harbour news</title></channel><item>'
    b"<title>Dredging approved</title><link>https://harbour.example/dredging</link></item></rdf:RDF>"
)
RSS = (
    b'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Harbour news</title>'
    b"<item><title>Dredging approved</title><link>https://harbour.example/dredging</link>"
    b"<description>The board approved the plan.</description></item></channel></rss>"
)


@pytest.mark.parametrize("body", [RSS, ATOM, RDF], ids=["rss", "atom", "rss 1.0 (rdf)"])
def test_a_feed_labelled_html_is_its_xml(body):
    """A feed a server sent as ``text/html`` is the feed (as under an XML type, its XML as it is):
    read as HTML its items' titles and links were lost (``<link>`` is an empty element in HTML)."""
    with FaultServer({"/feed": respond(200, body, content_type="text/html; charset=utf-8")}) as server:
        result = fetch(server.url("/feed"))
    assert (result["extractor"], result["text"]) == ("text", body.decode())


@pytest.mark.parametrize(
    "body",
    [
        PAGE.replace("%s", "utf-8").encode(),
        b'<?xml version="1.0"?>\n<div><article><h1>Harbour works</h1><p>' + HEARING + b"</p></article></div>",
    ],
    ids=["xhtml", "html opening with an xml declaration"],
)
def test_html_that_opens_with_an_xml_declaration_stays_html(body):
    with FaultServer({"/p": respond(200, body, content_type="text/html")}) as server:
        result = fetch(server.url("/p"), extract_mode="text")
    assert result["extractor"] != "text" and "<" not in result["text"]
    assert "The harbour board approved the dredging plan after a long public hearing" in result["text"]


CDATA = (
    b'<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>'
    b"<title>Harbour works</title><script>//<![CDATA[\nif (depth < 12 && width > 40) { warn(); }\n//]]></script>"
    b"</head><body><article><h1>Harbour works</h1><p>"
    + HEARING
    + b"</p><p><![CDATA[The channel: depth < 12 m & width > 40 m, as the plan says.]]></p>"
    b"<pre><code><![CDATA[if (depth < 12) {\n  dredge();\n}]]></code></pre></article></body></html>"
)


@pytest.mark.parametrize("content_type", XML_TYPES)
def test_a_cdata_section_of_xhtml_served_as_xml_is_its_text(content_type):
    """An HTML parser reads ``<![CDATA[...]]>`` as a bogus comment that ends at its first ``>``:
    the text before it was lost and ``40 m, as the plan says.]]>`` came back; the code block was lost."""
    with FaultServer({"/p": respond(200, CDATA, content_type=content_type)}) as server:
        result = fetch(server.url("/p"))
    assert result["title"] == "Harbour works" and "warn()" not in result["text"]
    assert "The channel: depth < 12 m & width > 40 m, as the plan says." in result["text"]
    assert "```\nif (depth < 12) {\n  dredge();\n}\n```" in result["text"]
    assert "]]>" not in result["text"]


#: XHTML that is not well-formed XML (an entity no DTD declares, an unclosed ``<br>``, a bare
#: ``&``): a browser shows an XML error; the HTML parser reads it whole.
TAG_SOUP = (
    b'<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Harbour works</title></head><body><article>'
    b"<h1>Harbour&nbsp;works</h1><p>Fish & chips<br>" + HEARING + b"</p></article></body></html>"
)


def test_xhtml_that_is_not_well_formed_is_read_by_the_html_parser():
    with FaultServer({"/p": respond(200, TAG_SOUP, content_type="application/xhtml+xml")}) as server:
        result = fetch(server.url("/p"), extract_mode="text")
    assert result["title"] == "Harbour works"
    assert result["text"].startswith("Fish & chips\nThe harbour board approved the dredging plan")


def test_prefixed_xhtml_cut_by_the_byte_cap_is_read_up_to_the_cut():
    """Cut by ``max_bytes``, a document is not well-formed: one with prefixed elements is recovered
    as XML (the HTML parser cannot read them), its text up to the cut kept."""
    body = PREFIXED.replace(HEARING, HEARING * 4)  # the cut falls inside the paragraph
    assert len(body) > 1024 and body.index(HEARING) < 1024
    with FaultServer({"/p": respond(200, body, content_type="application/xhtml+xml")}) as server:
        result = fetch(server.url("/p"), max_bytes=1024)
    assert result["truncated"] is True and result["title"] == "Harbour works"
    assert result["text"].startswith("## The hearing\n\nThe harbour board approved the dredging plan")
    assert "h:p" not in result["text"] and "<" not in result["text"]


ARTICLE = "57b4dafd18cfd0531b69f81e87158648227c673ef159f8d8c87d34e34bdb21f2"  # tests/data/fetch/SOURCES.md
ARTICLE_TITLE = "Die elektronische Patientenakte (ePA) – der lange Marsch ins Digitale Gesundheitswesen"


def article_page(root: bytes, prologue: bytes = b'<?xml version="1.0" encoding="UTF-8"?>\n') -> bytes:
    """The real article page with its ``<html lang="en">`` start tag replaced by ``root``, after ``prologue``."""
    html = gzip.decompress((DATA / (ARTICLE + ".html.gz")).read_bytes())
    assert html.startswith(b'<html lang="en">')
    return prologue + root + html[len(b'<html lang="en">') :]


@pytest.mark.parametrize(
    "body",
    [
        article_page(b'<html xmlns="https://www.w3.org/1999/xhtml" lang="en">'),
        article_page(b'<html xmlns="http://www.w3.org/1999/xhtml/" lang="en">'),
        article_page(b'<html xmlns="http://www.w3.org/TR/REC-html40" lang="en">'),
        article_page(b'<html:html lang="en">'),
        article_page(b'<html lang="en">', b'<?xml version="1.0"?>\n<!--%s-->\n' % (b" licence text." * 1300)),
        article_page(b'<html lang="en">', b'<?xml version="1.0"?>\n<!DOCTYPE html [\n'),
        article_page(b'<html lang="en">', b'<?xml version="1.0"?>\n<?php echo $x; \n'),
    ],
    ids=["https typo", "trailing slash", "word's html40", "unbound prefix", "17 kb comment", "open doctype", "<?php"],
)
def test_a_page_served_as_html_is_a_page_whatever_its_xmlns_or_prologue(body):
    """Served as ``text/html`` a browser's HTML parser reads the root by its name, ``xmlns`` ignored:
    these real pages came back as their markup (their namespace was no XHTML, or a prologue item
    longer than the head looked through, ``<!--`` or ``<?php``, was taken for the root)."""
    with FaultServer({"/p": respond(200, body, content_type="text/html; charset=utf-8")}) as server:
        result = fetch(server.url("/p"), extract_mode="text")
    assert result["extractor"] != "text" and result["title"] == ARTICLE_TITLE
    assert "<" not in result["text"] and "Patientenakte" in result["text"]


@pytest.mark.parametrize(
    "body",
    [
        TAG_SOUP.replace(b"<html ", b'<html xmlns:html="http://www.w3.org/1999/xhtml" ', 1),
        TAG_SOUP.replace(b"<article>", b'<article><!-- <x:p xmlns:x="http://www.w3.org/1999/xhtml"/> -->', 1),
        TAG_SOUP.replace(
            b"<article>",
            b'<article><svg xmlns="http://www.w3.org/2000/svg"><foreignObject>'
            b'<x:div xmlns:x="http://www.w3.org/1999/xhtml"/></foreignObject></svg>',
            1,
        ),
    ],
    ids=["on the unprefixed root", "in a comment", "in an svg foreignObject"],
)
def test_xhtml_binding_a_prefix_below_its_root_is_still_read_by_the_html_parser(body):
    """A not-well-formed page binding a prefix to XHTML's namespace anywhere in its text was recovered
    as XML, which dropped all text after the unclosed ``<br>``: only a prefixed XHTML root, whose
    elements the HTML parser cannot read, needs XML recovery."""
    with FaultServer({"/p": respond(200, body, content_type="application/xhtml+xml")}) as server:
        result = fetch(server.url("/p"), extract_mode="text")
    assert result["title"] == "Harbour works"
    assert result["text"].startswith("Fish & chips\nThe harbour board approved the dredging plan")
    assert result["text"].count("The harbour board approved") == 4


#: An XHTML page's root and body around ``&secret;``: unprefixed (well-formed: parsed strictly) and
#: prefixed and left unclosed (recovered as XML), the two ways ``reader.xhtml`` parses.
SECRET_PAGES = {
    "strict": '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Harbour works</title></head>'
    "<body><p>Fish &amp; chips &secret; on Tuesday.</p><p>%s</p></body></html>" % HEARING.decode(),
    "recovered": '<h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:head><h:title>Harbour works</h:title>'
    "</h:head><h:body><h:p>Fish &amp; chips &secret; on Tuesday.</h:p><h:p>%s" % HEARING.decode(),
}


@pytest.mark.parametrize("parse", SECRET_PAGES)
@pytest.mark.parametrize("declared", ["entity", "external dtd"])
def test_xhtml_never_reads_a_local_file_it_names(parse, declared, tmp_path):
    """An external entity (``<!ENTITY secret SYSTEM "file:...">``), or one an external DTD on disk
    declares, is not read: the file's content would be the page's text (the XML parser's
    ``resolve_entities=False`` and ``load_dtd=False``)."""
    secret = tmp_path / "secret.txt"
    secret.write_text("LEAKED-FILE-CONTENT")
    (tmp_path / "x.dtd").write_text('<!ENTITY secret SYSTEM "%s">' % secret.as_uri())
    doctype = {
        "entity": '<!DOCTYPE html [<!ENTITY secret SYSTEM "%s">]>' % secret.as_uri(),
        "external dtd": '<!DOCTYPE html SYSTEM "%s">' % (tmp_path / "x.dtd").as_uri(),
    }[declared]
    body = ('<?xml version="1.0"?>\n' + doctype + SECRET_PAGES[parse]).encode()
    with FaultServer({"/p": respond(200, body, content_type="application/xhtml+xml")}) as server:
        result = fetch(server.url("/p"), extract_mode="text")
    assert "The harbour board approved the dredging plan" in result["text"]
    assert "LEAKED" not in result["text"] and "LEAKED" not in result["title"]


@pytest.mark.parametrize("parse", SECRET_PAGES)
def test_xhtml_never_fetches_the_dtd_it_names(parse):
    """``<!DOCTYPE html SYSTEM "http://...">`` is not fetched (``no_network=True``, ``load_dtd=False``):
    a page would make fetch send a request to any host, past ``allow_private``'s checks."""
    dtd = respond(200, b'<!ENTITY secret "LEAKED-DTD">', content_type="application/xml-dtd")
    with FaultServer({"/x.dtd": dtd}) as dtd_server:
        doctype = '<!DOCTYPE html SYSTEM "%s">' % dtd_server.url("/x.dtd")
        body = ('<?xml version="1.0"?>\n' + doctype + SECRET_PAGES[parse]).encode()
        with FaultServer({"/p": respond(200, body, content_type="application/xhtml+xml")}) as server:
            result = fetch(server.url("/p"), extract_mode="text")
    assert "The harbour board approved the dredging plan" in result["text"]
    assert dtd_server.requests == [] and "LEAKED" not in result["text"]


#: Nine levels of ten references each: ``&lol9;`` is a thousand million ``lol``.
LAUGHS = "".join(
    '<!ENTITY lol%d "%s">' % (level, ("&lol%s;" % (level - 1 if level > 1 else "")) * 10) for level in range(1, 10)
)


@pytest.mark.parametrize("parse", SECRET_PAGES)
def test_xhtml_does_not_expand_nested_entities(parse):
    """The billion laughs: entities are not expanded (``resolve_entities=False``, and no ``huge_tree``
    lifting libxml2's limits), so the page reads as the few KB it is, not as 3 GB of ``lol``."""
    doctype = '<!DOCTYPE html [<!ENTITY lol "lol">%s]>' % LAUGHS
    body = ('<?xml version="1.0"?>\n' + doctype + SECRET_PAGES[parse].replace("&secret;", "&lol9;")).encode()
    with FaultServer({"/p": respond(200, body, content_type="application/xhtml+xml")}) as server:
        result = fetch(server.url("/p"), extract_mode="text")
    assert result["text"].startswith("Fish & chips")  # libxml2 stops recovery at the bomb: what follows is lost
    assert "lollol" not in result["text"] and len(result["text"]) < len(body)


def test_a_feed_in_utf16_labelled_html_is_its_text_with_a_byte_order_mark_else_binary():
    """A body declared HTML is decoded as HTML is (a byte-order mark, the header, ``<meta>``), which
    reads no BOM-less UTF-16: such a feed is binary data under ``text/html``, as docs/fetch.md says
    (served as XML it is its text: the test above); with its mark it is the feed."""
    with FaultServer(
        {
            "/marked": respond(200, FEED.encode("utf-16"), content_type="text/html"),
            "/bare": respond(200, FEED.encode("utf-16-le"), content_type="text/html"),
        }
    ) as server:
        result = fetch(server.url("/marked"))
        error = fetch_error(server.url("/bare"))
    assert (result["extractor"], result["text"]) == ("text", FEED)
    assert error.detail_code == "unsupported_content" and "binary data as text/html" in error.message
