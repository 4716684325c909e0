"""XHTML whose elements carry a namespace prefix (``<h:html xmlns:h="http://www.w3.org/1999/xhtml">``),
renamed to the HTML names extraction reads.

An HTML parser, extraction's, knows no namespaces: it reads ``<h:p>`` as an unknown element named
``h:p``, so such a page lost its title, headings and paragraphs (the title ran into the text). An
XML parser knows an element by its namespace whatever its prefix, as a browser showing the page does.
"""

import re

from lxml import etree

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

XHTML_NAMESPACE = "http://www.w3.org/1999/xhtml"
_XHTML_TAG = "{%s}" % XHTML_NAMESPACE
#: A namespace declaration binding a prefix to XHTML's (``xmlns:h="http://www.w3.org/1999/xhtml"``).
_PREFIX_BOUND = re.compile(r"""xmlns:[^\s=<>]{1,100}\s*=\s*["']\s*http://www\.w3\.org/1999/xhtml\s*["']""")


def html_names(markup: str) -> str:
    """``markup``, an XHTML document served as XML, with its XHTML elements under their HTML names
    (``h:p`` -> ``p``) when it binds the XHTML namespace to a prefix: parsed as XML (recovering from
    errors, as a page cut by ``max_bytes`` has one; no entity expanded, no DTD or network read),
    renamed, and written back as HTML. A document binding no prefix to it is returned as it is: the
    HTML parser reads it as well, and tag soup served as XML is not put through an XML parser's
    recovery, which can drop what follows an error. So is one in which the XML parser finds no element."""
    if _PREFIX_BOUND.search(markup) is None:
        return markup
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True, load_dtd=False, encoding="utf-8")
    try:
        root = etree.fromstring(markup.encode("utf-8"), parser)
    except etree.XMLSyntaxError:  # what recovery leaves no element of (a NUL byte before the root)
        return markup
    if root is None:
        return markup
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag.startswith(_XHTML_TAG):
            element.tag = element.tag[len(_XHTML_TAG) :]
    etree.cleanup_namespaces(root)
    return str(etree.tostring(root, method="html", encoding="unicode"))
