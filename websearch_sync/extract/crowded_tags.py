"""A bound on the attributes of one tag, applied before any page reaches libxml2.

libxml2's HTML parser compares each attribute of a start tag with every one before it (its
duplicate check), so one tag holding n attributes costs n squared: 100,000 took 30 s of CPU,
in one C call no deadline checkpoint interrupts (a 5 MB page holds 500,000). A tag's
attributes after its first :data:`MAX_ATTRIBUTES` are therefore dropped from the markup.

Tags are read as libxml2 2.14's HTML5 tokenizer reads them: after the name, attributes
separated by white space, by ``/``, or by nothing after a quoted value; a name runs to white
space, ``/``, ``>`` or ``=`` (quotes and ``<`` included); a value is quoted or runs to white
space or ``>``; the tag ends at the first ``>`` outside a quoted value.

Linear time, nearly free on ordinary pages: one scan in C (:data:`_SCAN`) passes over text
and every tag of at most :data:`MAX_ATTRIBUTES` attributes and returns to Python only at a
crowded tag, which it has read to its end. Every quantifier is possessive and every group
atomic, so the scan never backtracks, and each match starts where the one before ended: each
character is read at most three times (a crowded tag's first attributes: by the loop that
stops before the tag, and again to mark where it is cut).
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
_TAG_NAME = rf"<[a-zA-Z][^{_SPACE}/>]*+"
#: Text and tags of at most MAX_ATTRIBUTES attributes, then a crowded tag if one follows: group
#: 1 is that tag up to the last attribute it keeps, the match ends after the ones it drops.
#: The text before it runs in one loop in C; matches follow each other without a gap.
_SCAN = re.compile(
    rf"(?:[^<]++|<(?![a-zA-Z])|{_TAG_NAME}{_ATTRIBUTE}{{0,{MAX_ATTRIBUTES}}}+(?!{_ATTRIBUTE}))*+"
    rf"(?:({_TAG_NAME}{_ATTRIBUTE}{{{MAX_ATTRIBUTES}}}){_ATTRIBUTE}*+)?"
)


def thin_crowded_tags(html: str) -> str:
    """``html`` with each tag's attributes after its first :data:`MAX_ATTRIBUTES` removed
    (module docstring); the same string when no tag holds more."""
    parts = []
    start = 0
    for match in _SCAN.finditer(html):
        if match.start(1) >= 0:
            parts.append(html[start : match.end(1)])
            start = match.end()
    if not parts:
        return html
    parts.append(html[start:])
    return "".join(parts)
