"""The XML parser ``reader.xhtml`` reads a served document with: what it must not load or lift.

Each option the guard rests on is checked by what it does where the installed libxml2 (2.14) lets a
test see it:

- ``resolve_entities=False``: an external entity naming a local file is not read
  (tests/sockets/test_fetch_xml.py, ``test_xhtml_never_reads_a_local_file_it_names``: the file's
  content would be the page's text);
- ``load_dtd=False``: a DTD named on disk is never read (here: one that is no DTD at all would make
  the parse fail);
- no ``huge_tree``: libxml2's default limits hold (here: a document nested deeper than 256 levels is
  not read past them; with ``huge_tree`` the limit is 2048).

``no_network=True`` alone is checked as it is passed: this libxml2 has no HTTP client
(``etree.LIBXML_FEATURES`` has no ``http``), so flipping it changes nothing a test can see
(``test_xhtml_never_fetches_the_dtd_it_names`` in tests/sockets/test_fetch_xml.py would catch it
with a libxml2 built with one, and ``load_dtd`` flipped with it).
"""

import pytest
from lxml import etree

from websearch_sync.reader import xhtml

#: A well-formed XHTML page (parsed strictly) and a prefixed one left unclosed (recovered as XML),
#: the two ways ``reader.xhtml`` parses; each with a CDATA section only an XML parser reads as text.
PAGES = {
    "strict": '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Harbour works</title></head>'
    "<body><p>Quay <![CDATA[depth < 12 m]]> dredged.</p>%s<p>Approved on Tuesday.</p></body></html>",
    "recovered": '<h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:head><h:title>Harbour works</h:title>'
    "</h:head><h:body><h:p>Quay <![CDATA[depth < 12 m]]> dredged.</h:p>%s<h:p>Approved on Tuesday.</h:p>",
}

#: libxml2's default limit of element depth (``XML_PARSE_HUGE``, lxml's ``huge_tree``, lifts it to 2048).
DEFAULT_DEPTH_LIMIT = 256


@pytest.mark.parametrize("recover", [False, True], ids=["strict", "recovered"])
def test_the_xml_parser_uses_no_network(recover, monkeypatch):
    """``no_network=True``, checked as passed (no behaviour shows it here: see the module's docstring).
    The premise is checked too: a libxml2 that can fetch over HTTP makes the behaviour test count."""
    options = []
    real = etree.XMLParser

    def parser(**kwargs):
        options.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(xhtml.etree, "XMLParser", parser)
    xhtml._parsed('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Harbour</p></body></html>', recover)
    [used] = options
    assert used["no_network"] is True
    # lxml 6 names libxml2's features (setup.cfg asks for lxml 6 on); a libxml2 with an HTTP client
    # would let a behaviour test show no_network instead of this check of the option
    assert "http" not in getattr(etree, "LIBXML_FEATURES", ())


@pytest.mark.parametrize("page", PAGES)
def test_a_dtd_named_on_disk_is_never_read(page, tmp_path):
    """A page naming a DTD file on disk reads as the same page without the doctype, even when that
    file is no DTD at all: libxml2 reading it (``load_dtd=True``, or DTD validation) fails the
    parse, and the page was given back as its markup (its CDATA text lost to the HTML parser)."""
    not_a_dtd = tmp_path / "page.dtd"
    not_a_dtd.write_text("this is no DTD <<<")
    markup = PAGES[page] % ""
    named = '<?xml version="1.0"?>\n<!DOCTYPE html SYSTEM "%s">' % not_a_dtd.as_uri() + markup
    read = xhtml.xhtml_as_html(named)
    assert read == xhtml.xhtml_as_html(markup)
    assert "depth &lt; 12 m" in read  # read as XML: the CDATA section is the paragraph's text


def test_a_document_deeper_than_libxml2s_limit_is_not_parsed_as_xml():
    """Past libxml2's default depth limit a well-formed page is not parsed as XML (given back as it
    is, for the HTML parser): the limit holds (no ``huge_tree``), which bounds what a hostile
    document makes the parser build. The page is well-formed within ``huge_tree``'s limit."""
    nesting = "<div>" * (DEFAULT_DEPTH_LIMIT + 44) + "deep" + "</div>" * (DEFAULT_DEPTH_LIMIT + 44)
    markup = PAGES["strict"] % nesting
    etree.fromstring(markup.encode(), etree.XMLParser(huge_tree=True))  # well-formed: no error
    with pytest.raises(etree.XMLSyntaxError, match="depth"):
        etree.fromstring(markup.encode())
    assert xhtml.xhtml_as_html(markup) == markup


def test_a_prefixed_document_is_recovered_no_deeper_than_libxml2s_limit():
    """A prefixed XHTML page (only an XML parser reads it) is recovered up to libxml2's default
    depth limit and not past it (no ``huge_tree``): the paragraph before the deep nesting is read,
    what lies below the limit and after it is not."""
    nesting = "<h:div>" * (DEFAULT_DEPTH_LIMIT + 44) + "deep" + "</h:div>" * (DEFAULT_DEPTH_LIMIT + 44)
    markup = PAGES["recovered"] % nesting + "</h:body></h:html>"
    etree.fromstring(markup.encode(), etree.XMLParser(huge_tree=True))  # well-formed: no error
    read = xhtml.xhtml_as_html(markup)
    assert "<p>Quay depth &lt; 12 m dredged.</p>" in read
    assert "deep" not in read and "Approved on Tuesday" not in read
