"""What an XML document's root element, past its prologue, says of the body: XHTML (``html`` in the
XHTML namespace), which a browser shows as a page, so fetch extracts it as one (returned as it is,
its scripts and markup came back as the page's text); or, under an HTML label, XML of another
vocabulary (a feed), which fetch returns as XML as it returns it under an XML type."""

import re
from dataclasses import dataclass
from typing import Optional

from .charset import xml_encoding

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How much of a document's text is looked through for its root: as much as ``<meta charset>`` is
#: looked for in (a licence comment of a few KB before the root hid it in the first KB).
HEAD_CHARS = 16384
XHTML_NAMESPACE = "http://www.w3.org/1999/xhtml"
#: The XHTML namespace as :func:`_head` gives the document: bytes, lower case.
_XHTML_BYTES = XHTML_NAMESPACE.encode("ascii")
_UTF8_MARK = b"\xef\xbb\xbf"
#: How many bytes :func:`foreign_root` looks at first, before the document's head.
_OPENING = 64
#: XML's white space, byte by byte.
_SPACE = (b" ", b"\t", b"\r", b"\n")
#: The items of a prologue but the doctype, by opener and closer: comments and processing
#: instructions (the XML declaration, ``<?xml-stylesheet ...?>``, any other).
_MISC = ((b"<!--", b"-->"), (b"<?", b"?>"))
#: The root element's start tag: its name, then each attribute (``name="value"`` or ``'value'``).
#: Not ``<!`` or ``<?``: a prologue item left open in the head (a comment longer than it, ``<?php``
#: with no ``?>``) is no root.
_TAG_NAME = re.compile(rb"<([^\s/>!?][^\s/>]{0,99})")
#: The name opens after white space or at the start (the lookbehind: a search does not try each
#: position inside a long name); the white space itself is skipped by :func:`_past_space` (``\s+``
#: opening the pattern backtracked through a run of it at each of its positions: quadratic).
_ATTRIBUTE = re.compile(rb"(?<![^\s])([^\s=/<>\"']{1,100})\s*=\s*(?:\"([^\"<]*)\"|'([^'<]*)')")


def xhtml_root(content: bytes) -> bool:
    """Whether the XML document ``content`` has an ``html`` root in the XHTML namespace (or in none).
    The namespace counts, not the prefix: ``<h:html xmlns:h="http://www.w3.org/1999/xhtml">`` is
    XHTML (it came back as its markup), an ``html`` root in another namespace is not."""
    root = _root(_head(content))
    if root is None or root.local != b"html":
        return False
    return root.namespace == _XHTML_BYTES or (root.namespace is None and not root.prefixed)


def prefixed_xhtml_root(content: bytes) -> bool:
    """Whether the document ``content`` has its root element in the XHTML namespace under a prefix
    (``<h:html xmlns:h="http://www.w3.org/1999/xhtml">``): its elements only an XML parser reads.
    A binding elsewhere (on an unprefixed root, in an SVG ``foreignObject``, a comment, a script)
    says nothing of the root."""
    root = _root(_head(content))
    return root is not None and root.prefixed and root.namespace == _XHTML_BYTES


def foreign_root(content: bytes) -> bool:
    """Whether a body declared as HTML is an XML document of another vocabulary: it opens with an XML
    declaration, and its root element's local name is no HTML element's (``<rss>``, ``<feed>``,
    ``<rdf:RDF>``, ``<urlset>``). A feed a server labelled ``text/html`` lost its items' titles and
    links read as HTML (an HTML parser reads ``<link>`` as an empty element). The name alone counts,
    as in a browser, whose HTML parser ignores ``xmlns``: real pages declare XHTML's namespace
    misspelt (``https://``), Word's ``http://www.w3.org/TR/REC-html40``, or an unbound ``html:``
    prefix. A head in which no root is found (a prologue item longer than it) is HTML. A body in
    UTF-16 without a byte-order mark is no XML here: decoded as HTML is, it is binary data."""
    opening = content[:_OPENING].lstrip(b" \t\r\n")
    # nearly every page is told by its first bytes; a UTF-16 body is read only with its byte-order
    # mark, as the body's HTML decoding reads it (without one, or in UTF-32, it is binary data there)
    if not opening.startswith((b"<?xml", _UTF8_MARK)) and xml_encoding(opening) != "utf-16":
        return False
    head = _head(content)
    if not head.startswith(b"<?xml", _past_space(head, 3 if head.startswith(_UTF8_MARK) else 0)):
        return False
    root = _root(head)
    return root is not None and not _html_name(root.local.decode("ascii", "replace"))


#: HTML5's element names lxml's list (HTML 4's and a few more) lacks.
_HTML5_TAGS = frozenset(("main", "template", "picture", "dialog", "slot", "search", "data"))


def _html_name(local: str) -> bool:
    """Whether ``local`` names an HTML element: one lxml knows, an HTML5 one, or a custom element
    (its name holds a hyphen: ``<my-app>``)."""
    from lxml.html.defs import tags  # HTML's element names; lxml.html is loaded to extract the page anyway

    return local in tags or local in _HTML5_TAGS or "-" in local


@dataclass(frozen=True)
class _Root:
    """A root element's local name, namespace (``None``: in none) and whether it has a prefix."""

    local: bytes
    namespace: Optional[bytes]
    prefixed: bool


def _root(head: bytes) -> Optional[_Root]:
    """The root element of the document ``head`` opens (its first characters, lower case), its
    namespace the one its prefix, or the default, is bound to in its own start tag (a root has no
    ancestor to inherit one from); ``None`` when ``head`` shows no start tag past the prologue."""
    name = _TAG_NAME.match(head, past_prologue(head))
    if name is None:
        return None
    prefix, colon, local = name.group(1).rpartition(b":")
    namespaces: dict[bytes, bytes] = {}
    position = name.end()
    while (start := _past_space(head, position)) > position and (attribute := _ATTRIBUTE.match(head, start)):
        value = attribute.group(2) if attribute.group(2) is not None else attribute.group(3)
        namespaces[attribute.group(1)] = value.strip()
        position = attribute.end()
    return _Root(local, namespaces.get(b"xmlns:" + prefix if colon else b"xmlns") or None, bool(colon))


def _head(content: bytes) -> bytes:
    """The first :data:`HEAD_CHARS` characters of the document's text, lower case, as bytes that
    compare with ASCII markup: a UTF-16 or UTF-32 document (known by its first bytes, as the body's
    decoding knows it: ``charset.xml_encoding``) decoded first, so its root is seen as a UTF-8 one's is."""
    codec = xml_encoding(content)
    if codec is not None and codec.startswith(("utf-16", "utf-32")):
        text = content[: 4 * HEAD_CHARS].decode(codec, errors="replace")[:HEAD_CHARS]
        return text.encode("utf-8", errors="replace").lower()
    return content[:HEAD_CHARS].lower()


def past_prologue(head: bytes, doctype: bool = True) -> int:
    """Where the root element of the document ``head`` (lower case) opens may begin: past a UTF-8
    byte-order mark, white space, comments, processing instructions and (when ``doctype``) a
    doctype, each skipped once found whole (at most one pass over ``head``). ``media`` sniffing an
    untyped page keeps its doctype, which says HTML."""
    position = _past_space(head, 3 if head.startswith(_UTF8_MARK) else 0)
    while (end := _item_end(head, position, doctype)) > 0:
        position = _past_space(head, end)
    return position


def _past_space(head: bytes, position: int) -> int:
    """Where the white space at ``position`` in ``head`` ends."""
    while head[position : position + 1] in _SPACE:
        position += 1
    return position


def _item_end(head: bytes, position: int, doctype: bool) -> int:
    """Where the prologue item ``head`` holds at ``position`` ends, or -1 when none is there whole
    (or it is a doctype and not ``doctype``)."""
    if doctype and head.startswith(b"<!doctype", position):
        return _doctype_end(head, position)
    for opener, closer in _MISC:
        if head.startswith(opener, position):
            end = head.find(closer, position + len(opener))
            return end + len(closer) if end >= 0 else -1
    return -1


def _doctype_end(head: bytes, position: int) -> int:
    """Where the doctype at ``position`` ends: at its first ``>``, or, when an internal subset
    (``[ <!ENTITY site "Harbour"> ]``, whose declarations hold ``>``) opens before it, at the ``>``
    after the subset's ``]``; -1 when ``head`` does not hold its end."""
    close = head.find(b">", position)
    subset = head.find(b"[", position, close if close >= 0 else len(head))
    if subset < 0:
        return close + 1 if close >= 0 else -1
    end = head.find(b"]", subset)
    if end < 0:
        return -1
    close = _past_space(head, end + 1)
    return close + 1 if head.startswith(b">", close) else -1
