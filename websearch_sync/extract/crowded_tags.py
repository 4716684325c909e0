"""A bound on the attributes of one tag, applied before any page reaches libxml2.

libxml2's HTML parser compares each attribute of a start tag with every one before it (its
duplicate check), so one tag holding n attributes costs n squared: 100,000 took 30 s of CPU,
in one C call no deadline checkpoint interrupts (a 5 MB page holds 500,000). A tag's
attributes after its first :data:`MAX_ATTRIBUTES` are therefore dropped from the markup.

Markup is read as libxml2 2.14's HTML5 tokenizer reads it, as a crowded tag hidden where the
scan saw a tag and libxml2 text (``<!--<x a='-->`` before it) would otherwise escape: after a
tag's name, attributes separated by white space, by ``/``, or by nothing after a quoted
value; a name runs to white space, ``/``, ``>`` or ``=`` (quotes and ``<`` included); a value
is quoted or runs to white space or ``>``; a tag (end tags too) ends at the first ``>``
outside a quoted value. Comments end at ``-->``, ``--!>`` or right after ``<!--`` at ``>`` or
``->``; other ``<!``, ``<?`` and ``</`` not before a letter open a bogus comment up to ``>``;
script, style, xmp, iframe, noembed, noframes, textarea and title hold text up to their end
tag (in a script, a ``<script`` inside ``<!--`` hides the next one), plaintext up to the end,
unless closed as they open (``<script/>``: no content) (``tests/unit/test_crowded_tags.py``
holds each to lxml). An older libxml2 (2.13 and before: lxml 5's wheels, lxml 6's for Windows,
2.11) reads much of that otherwise (a script's ``<!--<script>``, textarea and title content, an end
tag's or a bogus comment's quotes...), so a page relying on that can hand it a crowded tag: setup.cfg
asks for lxml 6, whose Linux and macOS wheels bundle 2.14, and an older running libxml2 is said by
``websearch-sync backends`` (:func:`older_libxml2_warning`), not logged: on Windows, where lxml 6's
wheels bundle 2.11, a warning at import reached every command's stderr with no remedy to install.
Extraction thins the very text
lxml is given, after its repair and its control characters' spaces (either can make a tag of
what was text).

Linear time, nearly free on ordinary pages: a scan in C (:data:`_SCAN`) passes over text
and every tag of at most :data:`MAX_ATTRIBUTES` attributes and returns to Python only at a
crowded tag's first attributes or after :data:`SCAN_TOKENS` text runs and tags (so that no call
holds the GIL for long); :data:`_DROPPED` reads the rest, :data:`_RESUME` a text
element's content. No possessive quantifier or atomic group (Python 3.10's ``re`` has neither):
each part of an attribute can match one way only (a lookahead after a run bars a shorter one),
and a scan's loops are followed only by what cannot fail, so nothing is read again but a crowded
tag's first attributes (by the alternatives that stop before the tag, once backing off them,
and again to mark where it is cut). No loop holds a group: before 3.11 each turn would copy them.
"""

import re
import sys
from typing import Optional

__all__: list[str] = []  # internal: the bound is documented in docs/fetch.md

#: The attributes a tag keeps (no real page uses more than a few dozen).
MAX_ATTRIBUTES = 1024
#: The libxml2 whose reading of markup the scan copies: its HTML5 tokenizer came in 2.14.
SCANNED_LIBXML2 = (2, 14)


def older_libxml2_warning(running: tuple[int, ...], platform: str = sys.platform) -> Optional[str]:
    """What to tell the user of libxml2 ``running`` (``lxml.etree.LIBXML_VERSION``) on ``platform``
    (``sys.platform``) when it is older than :data:`SCANNED_LIBXML2`, whose reading the scan copies;
    ``None`` for it or a newer one. A second reading, 2.13's tokenizer, would be a second scan: the
    older one is said, not read. On Windows lxml's own wheels are the older ones, so installing lxml
    is no advice there."""
    if tuple(running[:2]) >= SCANNED_LIBXML2:
        return None
    if platform == "win32":
        remedy = (
            "lxml's Windows wheels bundle libxml2 2.11, so no lxml release installs a newer one there: an lxml"
            " built on libxml2 2.14 or newer, or running under WSL, reads markup as the bound does"
        )
    else:
        remedy = (
            "install lxml 6 (its Linux and macOS wheels bundle libxml2 2.14) or an lxml built on libxml2 2.14 or newer"
        )
    return (
        "lxml runs on libxml2 %s, older than 2.14, whose reading of markup the bound on a tag's attributes copies:"
        " a hostile page can still hand libxml2 a tag of thousands of attributes (20,000: about 0.9 s of parse,"
        " growing with their square); %s" % (".".join(str(part) for part in running), remedy)
    )


_SPACE = r"\t\n\f\r "
#: One attribute: separators, a name, then optionally ``=`` and a value. Each part can match in
#: one way only (a lookahead bars a shorter run), so a repeat of attributes never re-splits one.
_ATTRIBUTE = (
    rf"(?:[{_SPACE}/]*[^{_SPACE}/>][^{_SPACE}/>=]*(?![^{_SPACE}/>=])"
    rf"(?:[{_SPACE}]*=[{_SPACE}]*(?:\"[^\"]*(?:\"|\Z)|'[^']*(?:'|\Z)|[^{_SPACE}>\"'][^{_SPACE}>]*(?![^{_SPACE}>])|(?![^>]))"
    rf"|(?![{_SPACE}]*=)))"
)
_KEEP = rf"{_ATTRIBUTE}{{0,{MAX_ATTRIBUTES}}}(?!{_ATTRIBUTE})"  # at most MAX_ATTRIBUTES, the next is no attribute
_CUT = rf"{_ATTRIBUTE}{{{MAX_ATTRIBUTES}}}"  # the attributes kept (the ones dropped: _DROPPED)
_AFTER = rf"[{_SPACE}/]*>"  # a tag's end
#: Elements whose content libxml2 reads as text up to their end tag (RAWTEXT and RCDATA).
_TEXT_ELEMENTS = ("script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title")


def _script_content() -> str:
    """A script's content as HTML5 (and libxml2) reads it: up to ``</script``, except that inside
    ``<!--`` ... ``-->`` a ``<script`` hides the next ``</script`` (double escaping). A run of
    dashes is read whole (``-->`` ends a comment however many dashes it has)."""
    end = rf"/(?i:script)[{_SPACE}/>]"
    opening = rf"(?i:script)[{_SPACE}/>]"
    dashes = r"-+(?![->])|-(?=>)"  # not ending the comment: a whole run before no ">", a lone "-" before one
    double = rf"<{opening}(?:[^<-]+|{dashes}|<(?!{end}))*(?:<{end})?"
    escaped = rf"<!(?=--)(?:[^<-]+|{dashes}|<(?!{end}|{opening})|{double})*(?:-+>)?"
    return rf"(?:[^<]+|<(?!{end}|!--)|{escaped})*"


def _content(name: str) -> str:
    """A text element's content, up to its end tag (plaintext's: to the page's end)."""
    if name == "plaintext":
        return r"[\s\S]*"
    return _script_content() if name == "script" else rf"(?:[^<]+|<(?!/(?i:{name})[{_SPACE}/>]))*"


def _text_element(name: str, attributes: str) -> str:
    """A start tag of ``name`` with ``attributes``, then its content up to its end tag (none when
    the tag closes as it opens, ``<script/>``: libxml2 2.14 reads markup after it)."""
    return rf"<(?i:{name})(?=[{_SPACE}/>]){attributes}(?:[{_SPACE}/]*/>|{_AFTER}{_content(name)})?"


#: What libxml2 reads outside tags: text (a ``<`` before no letter too), comments, bogus comments
#: (``<!``, ``<?``, ``</`` before no letter: to ``>``); text elements' content is read below.
_OUTSIDE = r"[^<]+|<(?![a-zA-Z!?/])|<!--(?:-?>|(?:[^-]+|-(?!-!?>))*(?:--!?>)?)|<(?:[!?]|/(?![a-zA-Z]))[^>]*>?"
#: The first letters of those elements' names and plaintext's (both cases): other tags skip them.
_TEXT_INITIALS = "".join(sorted({c for name in (*_TEXT_ELEMENTS, "plaintext") for c in (name[0], name[0].upper())}))
_PLAIN = rf"<(?i:plaintext)(?=[{_SPACE}/>])"
_TAG = rf"</?[a-zA-Z][^{_SPACE}/>]*(?![^{_SPACE}/>])"
#: The text runs and tags one call of :data:`_SCAN` reads at most: a call holds the GIL, and a
#: scan of a whole 5 MB page of tags (0.8 s of CPU) held it past the deadline of the thread that
#: waits for the extraction; this many take about 2 ms.
SCAN_TOKENS = 4096
#: Text and tags of at most MAX_ATTRIBUTES attributes (at most SCAN_TOKENS of them), then a crowded
#: tag's name and first MAX_ATTRIBUTES attributes if one follows, the empty group named after its
#: element (``tag`` for an other) last. The text before it runs in one loop in C. No group is open in
#: a loop: in Python before 3.11 (no possessive repeat) each turn of a loop copies the groups set so far.
_SCAN = re.compile(
    rf"(?:{_OUTSIDE}|(?=<[{_TEXT_INITIALS}])(?:"
    + "|".join(_text_element(name, _KEEP) for name in _TEXT_ELEMENTS)
    + rf"|{_PLAIN}{_KEEP}(?:[{_SPACE}/]*/>|[\s\S]*))|{_TAG}{_KEEP}){{0,{SCAN_TOKENS}}}"
    + r"(?:"
    + "|".join(rf"<(?i:{name})(?=[{_SPACE}/>]){_CUT}(?P<{name}>)" for name in (*_TEXT_ELEMENTS, "plaintext"))
    + rf"|{_TAG}{_CUT}(?P<tag>))?"
)
#: A crowded tag's attributes after its first MAX_ATTRIBUTES: the ones dropped (up to the group,
#: which takes the separators after them so that no run of them is read again from each of its
#: characters).
_DROPPED = re.compile(rf"{_ATTRIBUTE}*([{_SPACE}/]*)")
#: Where reading goes on after a crowded tag's attributes, by its element: past a text element's
#: content (the separators before its end too: only the page's end follows them otherwise).
_RESUME = {
    name: re.compile(rf"[{_SPACE}/]*/>|[{_SPACE}/]*(?:>{_content(name)})?") for name in (*_TEXT_ELEMENTS, "plaintext")
}


def _read(pattern: "re.Pattern[str]", html: str, position: int) -> "re.Match[str]":
    """``pattern``'s match at ``position``: each pattern here matches the empty string, so there is one."""
    match = pattern.match(html, position)
    assert match is not None
    return match


def thin_crowded_tags(html: str) -> str:
    """``html`` with each tag's attributes after its first :data:`MAX_ATTRIBUTES` removed
    (module docstring); the same string when no tag holds more."""
    parts = []
    start = position = 0
    while True:
        match = _read(_SCAN, html, position)
        if not match.lastgroup:  # no crowded tag: SCAN_TOKENS read, or all there is
            if match.end() in (position, len(html)):
                break
            position = match.end()
            continue
        parts.append(html[start : match.end()])  # a crowded tag: its element's group closed
        start = position = _read(_DROPPED, html, match.end()).start(1)
        if match.lastgroup in _RESUME:
            position = _read(_RESUME[match.lastgroup], html, position).end()
    if not parts:
        return html
    parts.append(html[start:])
    return "".join(parts)
