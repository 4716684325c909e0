"""XHTML served as XML, read as XML (as a browser reads it) and written back as the HTML extraction reads.

An HTML parser, extraction's, knows no namespaces and no CDATA sections: it reads ``<h:p>`` (the XHTML
namespace bound to a prefix) as an unknown element named ``h:p``, so such a page lost its title,
headings and paragraphs, and ``<![CDATA[depth < 12 m & width > 40 m]]>`` as a bogus comment ended at
its first ``>``, the text before it lost. An XML parser knows an element by its namespace whatever
its prefix, and a CDATA section's text as text.
"""

from typing import Optional

from lxml import etree

from ..net.xmlroot import HEAD_CHARS, XHTML_NAMESPACE, prefixed_xhtml_root

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_XHTML_TAG = "{%s}" % XHTML_NAMESPACE


def xhtml_as_html(markup: str) -> str:
    """``markup``, an XHTML document served as XML, parsed as XML (no entity expanded, no DTD or
    network read) and written back as HTML, its XHTML elements under their HTML names (``h:p`` ->
    ``p``), its CDATA sections text. A document that is not well-formed, which a browser shows as an
    error, is returned as it is, for the HTML parser, which salvages more of tag soup than an XML
    parser's recovery; unless its root element is XHTML's under a prefix (read in its head by
    ``xmlroot``; a binding elsewhere, in a comment or an SVG, says nothing of the page), which only
    an XML parser reads: then it is recovered from its errors (a page cut by ``max_bytes`` has one).
    So is one in which not even that finds an element. (Of the 651 real pages ``bench/xhtml_as_xml.py`` reads, the
    37 that are well-formed XML extract the same read either way; reading them costs a tenth of the
    extraction's time.)"""
    root = _parsed(markup, recover=False)
    if root is None and prefixed_xhtml_root(markup[:HEAD_CHARS].encode("utf-8")):
        root = _parsed(markup, recover=True)
    if root is None:
        return markup
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag.startswith(_XHTML_TAG):
            element.tag = element.tag[len(_XHTML_TAG) :]
    etree.cleanup_namespaces(root)
    return str(etree.tostring(root, method="html", encoding="unicode"))


def _parsed(markup: str, recover: bool) -> Optional[etree._Element]:
    """The root of ``markup`` parsed as XML, or ``None`` where the parser gives none: not well-formed
    (unless ``recover``), or nothing recovery makes an element of (a NUL byte before the root)."""
    parser = etree.XMLParser(recover=recover, resolve_entities=False, no_network=True, load_dtd=False, encoding="utf-8")
    try:
        return etree.fromstring(markup.encode("utf-8"), parser)
    except etree.XMLSyntaxError:
        return None
