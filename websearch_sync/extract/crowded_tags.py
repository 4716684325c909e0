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
tag (in a script, a ``<script`` inside ``<!--`` hides the next one), plaintext up to the end (``tests/unit/test_crowded_tags.py`` holds each to lxml).

Linear time, nearly free on ordinary pages: one scan in C (:data:`_SCAN`) passes over text
and every tag of at most :data:`MAX_ATTRIBUTES` attributes and returns to Python only at a
crowded tag, which it has read to its end. Every quantifier is possessive and every group
atomic, so the scan never backtracks, and each match starts where the one before ended: each
character is read a bounded number of times (a crowded tag's first attributes: by the
alternatives that stop before the tag, and again to mark where it is cut).
"""

import re

__all__: list[str] = []  # internal: the bound is documented in docs/fetch.md

#: The attributes a tag keeps (no real page uses more than a few dozen).
MAX_ATTRIBUTES = 1024

_SPACE = r"\t\n\f\r "
#: One attribute: separators, a name, then optionally ``=`` and a value.
_ATTRIBUTE = (
    rf"(?>[{_SPACE}/]*+[^{_SPACE}/>][^{_SPACE}/>=]*+"
    rf"(?>[{_SPACE}]*+=[{_SPACE}]*+(?>\"[^\"]*+\"?|'[^']*+'?|[^{_SPACE}>\"'][^{_SPACE}>]*+)?)?+)"
)
_KEEP = rf"{_ATTRIBUTE}{{0,{MAX_ATTRIBUTES}}}+(?!{_ATTRIBUTE})"  # at most MAX_ATTRIBUTES, the next is no attribute
_CUT = rf"({_ATTRIBUTE}{{{MAX_ATTRIBUTES}}})({_ATTRIBUTE}*+)"  # the attributes kept (group), the ones dropped (group)
_AFTER = rf"[{_SPACE}/]*+>"  # a tag's end
#: Elements whose content libxml2 reads as text up to their end tag (RAWTEXT and RCDATA).
_TEXT_ELEMENTS = ("script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title")


def _script_content() -> str:
    """A script's content as HTML5 (and libxml2) reads it: up to ``</script``, except that inside
    ``<!--`` ... ``-->`` a ``<script`` hides the next ``</script`` (double escaping). A run of
    dashes is read whole (``-->`` ends a comment however many dashes it has)."""
    end = rf"/(?i:script)[{_SPACE}/>]"
    opening = rf"(?i:script)[{_SPACE}/>]"
    dashes = r"-++(?!>)|-(?=>)"  # not ending the comment: a run before no ">", a lone "-" before one
    double = rf"<{opening}(?:[^<-]++|{dashes}|<(?!{end}))*+(?:<{end})?"
    escaped = rf"<!(?=--)(?:[^<-]++|{dashes}|<(?!{end}|{opening})|{double})*+(?:-++>)?"
    return rf"(?:[^<]++|<(?!{end}|!--)|{escaped})*+"


def _text_element(name: str, attributes: str) -> str:
    """A start tag of ``name`` with ``attributes``, then its content up to its end tag."""
    content = _script_content() if name == "script" else rf"(?:[^<]++|<(?!/(?i:{name})[{_SPACE}/>]))*+"
    return rf"<(?i:{name})(?=[{_SPACE}/>]){attributes}(?:{_AFTER}{content})?"


#: What libxml2 reads outside tags: text (a ``<`` before no letter too), comments, bogus comments
#: (``<!``, ``<?``, ``</`` before no letter: to ``>``); text elements' content is read below.
_OUTSIDE = r"[^<]++|<(?![a-zA-Z!?/])|<!--(?>-?>|(?:[^-]++|-(?!-!?>))*+(?:--!?>)?)|<(?:[!?]|/(?![a-zA-Z]))[^>]*+>?"
#: The first letters of those elements' names and plaintext's (both cases): other tags skip them.
_TEXT_INITIALS = "".join(sorted({c for name in (*_TEXT_ELEMENTS, "plaintext") for c in (name[0], name[0].upper())}))
_PLAIN = rf"<(?i:plaintext)(?=[{_SPACE}/>])"
_TAG = rf"</?[a-zA-Z][^{_SPACE}/>]*+"
#: Text and tags of at most MAX_ATTRIBUTES attributes, then a crowded tag if one follows: of the
#: alternative that reads it, the next to last group is what the tag keeps (its name and first
#: attributes), the last what it drops; the match ends after its content when libxml2 reads that
#: as text. The text before it runs in one loop in C; matches follow each other without a gap.
_SCAN = re.compile(
    rf"(?:{_OUTSIDE}|(?=<[{_TEXT_INITIALS}])(?:"
    + "|".join(_text_element(name, _KEEP) for name in _TEXT_ELEMENTS)
    + rf"|{_PLAIN}{_KEEP}[\s\S]*+)|{_TAG}{_KEEP})*+"
    + r"(?:"
    + "|".join(_text_element(name, _CUT) for name in _TEXT_ELEMENTS)
    + rf"|{_PLAIN}{_CUT}[\s\S]*+|{_TAG}{_CUT})?"
)


def thin_crowded_tags(html: str) -> str:
    """``html`` with each tag's attributes after its first :data:`MAX_ATTRIBUTES` removed
    (module docstring); the same string when no tag holds more."""
    parts = []
    start = 0
    for match in _SCAN.finditer(html):
        if match.lastindex:  # the crowded tag's dropped attributes: the last group closed
            parts.append(html[start : match.end(match.lastindex - 1)])
            start = match.end(match.lastindex)
    if not parts:
        return html
    parts.append(html[start:])
    return "".join(parts)
