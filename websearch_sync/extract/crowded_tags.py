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

Most pages need no scan: :func:`_uncrowded` proves that no tag of a page can hold more than
:data:`MAX_ATTRIBUTES` attributes from where its ``>`` and quotes lie, a few ``str`` searches a
2 KB stretch (4 us for DuckDuckGo's 9.5 KB results, where the scan takes 42 us:
docs/performance.md). Where it cannot (a long script or style, many values holding markup), the
scan reads the page.

Linear time: a scan in C (:data:`_SCAN`) passes over text
and every tag of at most :data:`MAX_ATTRIBUTES` attributes and returns to Python only at a
crowded tag's first attributes, before a comment or text element of more than :data:`CONTENT_ITEMS`
content items, or after :data:`SCAN_TOKENS` text runs and tags (so that no call holds the GIL for
long); :data:`_DROPPED` reads the rest of a crowded tag, :func:`_content_end` a long content, a
bounded number of items a call with a checkpoint between them. No possessive quantifier or atomic group (Python 3.10's ``re`` has neither):
each part of an attribute can match one way only (a lookahead after a run bars a shorter one),
and a scan's loops are followed only by what cannot fail, so nothing is read again but a crowded
tag's first attributes (by the alternatives that stop before the tag, once backing off them,
and again to mark where it is cut) and a long content (:func:`_scanned_content`: backed off an
item at a time, each item a text run and the ``<`` after it, given back whole in a tight loop of
``re``). No loop holds a group: before 3.11 each turn would copy them (an atomic text run emulated
by a lookahead's group and a reference to it made the scan 2.4 times slower).
"""

import re
import string
import sys
from typing import Optional

from ..checkpoints import checkpoint

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


#: The items of a comment's or a text element's content one call reads at most: one 4 MB script of
#: ``a<`` read in one call held the GIL 0.55 s past a fetch's deadline. The scan reads the shorter
#: contents itself, an item a text run and the ``<`` after it (a comment's: the dash;
#: :func:`_scanned_content`); a longer content (or a script holding ``<!--``) is read by
#: :func:`_content_end`, this many items a call (text runs, ``<``, dashes) with a checkpoint between them.
CONTENT_ITEMS = 256
_NAMES = "|".join((*_TEXT_ELEMENTS, "plaintext"))


def _end_tag(name: str) -> str:
    """What ends ``name``'s content (HTML5 and libxml2: its end tag's name, then white space, ``/`` or ``>``)."""
    return rf"</(?i:{name})[{_SPACE}/>]"


def _scanned_content(mark: str, barred: str, end: str, ending: str) -> str:
    """A content as the scan reads it: at most CONTENT_ITEMS items, each a run of no ``mark`` then a
    ``mark``, up to the first ``mark`` before ``barred`` (no item follows it); when that one is before
    ``end`` (included in the items), then ``ending``, the rest of what ends the content (failing, the
    content ends before that ``mark``); or up to the page's end. More items, or ``barred`` but not
    ``end``, fail the content. Each run is read once on the way to ``end``; backing off, an item is
    given back whole (``re`` looks back for the ``mark`` in a tight loop) and a lookahead reads one
    run to see whether the content ends after it. Read as two items, a run (a lookahead after it
    barring a shorter one) and a ``<``, each run was backed off a character at a time: 6 ms for a
    226 KB script of 156 ``<``, twice a page, where this reads it whole in 0.4 ms."""
    run = rf"[^{mark}]*{mark}"
    last = rf"(?![^{mark}]*{mark}(?!{end}))[^{mark}]*"  # a last run, up to the end or the page's
    return rf"(?:{run}(?:(?!{barred}){run}){{0,{CONTENT_ITEMS - 1}}}(?:{ending}|(?!{barred}){last})|{last})"


#: A comment's content item as :func:`_content_end` reads it: a run of no dash (no shorter one), or a
#: dash that does not end the comment (``-->``, ``--!>``).
_COMMENT_ITEM = r"[^-]+(?![^-])|-(?!-!?>)"
#: A comment of at most CONTENT_ITEMS dashes, its end's first included, up to its end or the page's
#: (else the scan stops before it).
_COMMENT = rf"<!--(?:-?>|{_scanned_content('-', '-!?>', '-!?>', '-!?>')})"


def _text_element(name: str, attributes: str) -> str:
    """A start tag of ``name`` with ``attributes``, then its content of at most CONTENT_ITEMS ``<``
    (each with the text run before it), its end tag's included, and its end tag with ``attributes``
    (as :data:`_TAG` reads it), or its content up to the page's end (none when the tag closes as it
    opens, ``<script/>``: libxml2 2.14 reads markup after it; none when no ``>`` ends it). A longer
    content, or a script's holding ``<!--`` (where double escaping may hide an end tag), fails the
    element: the scan stops before it. An end tag of more than MAX_ATTRIBUTES attributes is left to
    the crowded tags' alternatives of :data:`_SCAN`: the content ends before it."""
    hidden = "|!--" if name == "script" else ""
    ending = rf"/(?i:{name})[{_SPACE}/>]"
    content = _scanned_content("<", ending + hidden, ending, rf"/(?i:{name})(?=[{_SPACE}/>]){attributes}")
    return rf"<(?i:{name})(?=[{_SPACE}/>]){attributes}(?:[{_SPACE}/]*/>|{_AFTER}{content}|(?!{_AFTER}))"


#: What libxml2 reads outside tags: text (a ``<`` before no letter too), comments, bogus comments
#: (``<!`` but a comment's ``<!--``, ``<?``, ``</`` before no letter: to ``>``); text elements' content is read below.
_OUTSIDE = rf"[^<]+|<(?![a-zA-Z!?/])|{_COMMENT}|<(?:!(?!--)|\?|/(?![a-zA-Z]))[^>]*>?"
#: The first letters of those elements' names and plaintext's (both cases): other tags skip them.
_TEXT_INITIALS = "".join(sorted({c for name in (*_TEXT_ELEMENTS, "plaintext") for c in (name[0], name[0].upper())}))
_PLAIN = rf"<(?i:plaintext)(?=[{_SPACE}/>])"
_TAG = rf"</?[a-zA-Z][^{_SPACE}/>]*(?![^{_SPACE}/>])"
#: The names of text elements and plaintext, each first letter as a class of both cases: ``re`` skips
#: an alternative whose first class does not hold the character (not one that starts ignoring case).
_NAMES_BY_INITIAL = "|".join(rf"[{n[0]}{n[0].upper()}](?i:{n[1:]})" for n in (*_TEXT_ELEMENTS, "plaintext"))
#: Another tag: an end tag, a start tag whose initial is no text element's (or plaintext's), or one
#: whose name is none of theirs (a text element whose content the scan does not read is no other tag).
_OTHER_INITIALS = "".join(c for c in string.ascii_letters if c not in _TEXT_INITIALS)
_OTHER_TAG = (
    rf"(?:</[a-zA-Z]|<[{_OTHER_INITIALS}]"
    rf"|<(?!(?:{_NAMES_BY_INITIAL})[{_SPACE}/>])[{_TEXT_INITIALS}])[^{_SPACE}/>]*(?![^{_SPACE}/>])"
)
#: The text runs and tags one call of :data:`_SCAN` reads at most: a call holds the GIL, and a
#: scan of a whole 5 MB page of tags (0.8 s of CPU) held it past the deadline of the thread that
#: waits for the extraction; this many take about 2 ms.
SCAN_TOKENS = 4096
#: Text and tags of at most MAX_ATTRIBUTES attributes (at most SCAN_TOKENS of them), then a crowded
#: tag's name and first MAX_ATTRIBUTES attributes if one follows, the empty group named after its
#: element (``tag`` for an other) last. The text before it runs in one loop in C. No group is open in
#: a loop: in Python before 3.11 (no possessive repeat) each turn of a loop copies the groups set so far.
#: A text element whose content the scan does not read (:func:`_text_element`) is no other tag.
_SCAN = re.compile(
    rf"(?:{_OUTSIDE}|(?=<[{_TEXT_INITIALS}])(?:"
    + "|".join(_text_element(name, _KEEP) for name in _TEXT_ELEMENTS)
    + rf"|{_PLAIN}{_KEEP}(?:[{_SPACE}/]*/>|[\s\S]*))|{_OTHER_TAG}{_KEEP}){{0,{SCAN_TOKENS}}}"
    + r"(?:"
    + "|".join(rf"<(?i:{name})(?=[{_SPACE}/>]){_CUT}(?P<{name}>)" for name in (*_TEXT_ELEMENTS, "plaintext"))
    + rf"|{_TAG}{_CUT}(?P<tag>))?"
)
#: A crowded tag's attributes after its first MAX_ATTRIBUTES: the ones dropped (up to the group,
#: which takes the separators after them so that no run of them is read again from each of its
#: characters).
_DROPPED = re.compile(rf"{_ATTRIBUTE}*([{_SPACE}/]*)")
#: The end of a crowded text element's start tag: closed as it opens, or its ``>`` (the group) before
#: its content (the separators before its end too: only the page's end follows them otherwise).
_RESUME = re.compile(rf"[{_SPACE}/]*/>|[{_SPACE}/]*(>)?")
#: A text element's name where the scan stopped before one (its attributes then read by :data:`_DROPPED`,
#: its content, long, by :func:`_content_end`).
_TEXT_OPENING = re.compile(rf"<((?i:{_NAMES}))(?=[{_SPACE}/>])")


def _items(*items: str) -> "re.Pattern[str]":
    """Up to CONTENT_ITEMS of ``items`` (each read whole: nothing after them can fail)."""
    return re.compile(rf"(?:{'|'.join(items)}){{0,{CONTENT_ITEMS}}}")


_SCRIPT_END = _end_tag("script")
_SCRIPT_OPENING = rf"<(?i:script)[{_SPACE}/>]"
_DASHES = r"-+(?![->])|-(?=>)"  # not ending an escape: a whole run before no ">", a lone "-" before one
#: A script's content as HTML5 (and libxml2) reads it, by state: up to ``</script``, except that in
#: ``<!--`` ... ``-->`` (escaped) a ``<script`` (double escaped) hides the next ``</script``. A run of
#: dashes is read whole (``-->`` ends an escape however many dashes it has).
_SCRIPT_STEPS = (
    _items(r"[^<]+", rf"<(?!/(?i:script)[{_SPACE}/>]|!--)"),  # 0: outside <!--
    _items(r"[^<-]+", _DASHES, rf"<(?!/(?i:script)[{_SPACE}/>]|(?i:script)[{_SPACE}/>])"),  # 1: escaped
    _items(r"[^<-]+", _DASHES, rf"<(?!/(?i:script)[{_SPACE}/>])"),  # 2: double escaped
)
#: What ends a state of a script's content (``(?<!-)``: no step stops inside a run of dashes, and a
#: search does not read a run again from each of its dashes).
_SCRIPT_MARKS = re.compile(
    rf"(?P<escape><!--)|(?P<double>{_SCRIPT_OPENING})|(?P<unescape>(?<!-)--+>)|(?P<end>{_SCRIPT_END})"
)
#: Each state's next state at a mark (``escape`` reads ``<!`` only, as the dashes are the escaped content's);
#: ``None``: the content ends before it. A mark absent here is no mark in that state.
_SCRIPT_NEXT = (
    {"escape": 1, "end": None},
    {"double": 2, "unescape": 0, "end": None},
    {"end": 1, "unescape": 0},
)
#: A comment's content up to CONTENT_ITEMS items, then its end (the group) when it follows.
_COMMENT_STEP = re.compile(rf"(?:{_COMMENT_ITEM}){{0,{CONTENT_ITEMS}}}(--!?>)?")
_COMMENT_CLOSED = re.compile(r"-?>")
#: Other text elements' content up to CONTENT_ITEMS items, and what ends it.
_TEXT_STEPS = {
    name: (_items(r"[^<]+", rf"<(?!/(?i:{name})[{_SPACE}/>])"), re.compile(_end_tag(name)))
    for name in _TEXT_ELEMENTS
    if name != "script"
}


def _script_end(html: str, position: int) -> int:
    """Where the script content at ``position`` ends (:data:`_SCRIPT_STEPS`): its end tag or the page's end."""
    state = 0
    while True:
        checkpoint()
        position = _read(_SCRIPT_STEPS[state], html, position).end()
        mark = _SCRIPT_MARKS.match(html, position)
        kind = mark.lastgroup if mark is not None else None
        if mark is None or kind is None or kind not in _SCRIPT_NEXT[state]:
            if position == len(html):
                return position
            continue  # CONTENT_ITEMS read
        following = _SCRIPT_NEXT[state][kind]
        if following is None:
            return position
        state, position = following, position + 2 if kind == "escape" else mark.end()


def _content_end(name: str, html: str, position: int) -> int:
    """Where the content of the text element ``name`` (``comment``: a comment's after its ``<!--``)
    at ``position`` ends, read CONTENT_ITEMS items a call with a checkpoint between them."""
    if name == "plaintext":
        return len(html)
    if name == "script":
        return _script_end(html, position)
    if name == "comment":
        closed = _COMMENT_CLOSED.match(html, position)
        if closed is not None:
            return closed.end()
        while True:
            checkpoint()
            step = _read(_COMMENT_STEP, html, position)
            if step.group(1) is not None or step.end() == len(html):
                return step.end()
            position = step.end()
    items, end = _TEXT_STEPS[name]
    while True:
        checkpoint()
        position = _read(items, html, position).end()
        if position == len(html) or end.match(html, position):
            return position


def _after_long_content(html: str, position: int) -> Optional[int]:
    """Past the comment or text element at ``position`` whose content the scan did not read (too
    long, or a script's holding ``<!--``); ``None`` when none is there."""
    if html.startswith("<!--", position):
        return _content_end("comment", html, position + 4)
    element = _TEXT_OPENING.match(html, position)
    if element is None:
        return None
    return _past_content(element.group(1).lower(), html, _read(_DROPPED, html, element.end()).start(1))


def _past_content(name: str, html: str, position: int) -> int:
    """Past the end of the start tag of the text element ``name`` whose attributes end at
    ``position``, and past its content when it has one."""
    resumed = _read(_RESUME, html, position)
    return resumed.end() if resumed.group(1) is None else _content_end(name, html, resumed.end())


def _read(pattern: "re.Pattern[str]", html: str, position: int) -> "re.Match[str]":
    """``pattern``'s match at ``position``: each pattern here matches the empty string, so there is one."""
    match = pattern.match(html, position)
    assert match is not None
    return match


#: The fewest characters a crowded tag spans, less four: its ``<`` and its name's first letter, then
#: for each of its MAX_ATTRIBUTES + 1 attributes or more the first character of the attribute's name
#: and one of :data:`_SEPARATORS` before it: the white space or ``/`` right before the name, or (with
#: none there, after a quoted value) the ``=`` of the attribute before.
_FEWEST = 2 * MAX_ATTRIBUTES
#: The characters of which a crowded tag holds one for each attribute (above), the commonest first.
_SEPARATORS = " =/\n\t\r\f"
_BLANKS = "\t\n\f\r "
#: The blanks between a ``=`` and a quote looked at: a quote after more is taken as after a ``=``.
_BLANKS_LOOKED_AT = 16


def _opening(html: str, quote: int) -> bool:
    """Whether the quote at ``quote`` (``-1``: none) may open a quoted value: it comes right after
    a ``=`` and white space (after :data:`_BLANKS_LOOKED_AT` blanks: taken as so)."""
    if quote <= 0:
        return False
    before = html[quote - 1]
    if before == "=":
        return True
    if before not in _BLANKS:
        return False
    start = max(0, quote - _BLANKS_LOOKED_AT)
    rest = html[start:quote].rstrip(_BLANKS)
    return rest.endswith("=") or (not rest and start > 0)


class _HardEnds:
    """The hard ends of a page (:func:`_uncrowded`) from left to right, the last ``"`` and ``'``
    before :attr:`position` carried along (each stretch is searched for them once). At most
    :attr:`budget` other ``>`` are looked at: more (values holding markup) leave the page to the scan."""

    def __init__(self, html: str) -> None:
        self.html = html
        self.position = 0  #: past the last hard end found (0 at first)
        self.double = self.single = -1  #: the last ``"`` and ``'`` before position (-1: none)
        self.budget = 32 + len(html) // 512

    def _hard(self, end: int, since: int, quotes: tuple[int, int]) -> tuple[bool, tuple[int, int]]:
        """Whether the ``>`` at ``end`` is a hard end, and the last quotes before it, given ``quotes``,
        the last ones before ``since``; a ``>`` that is not is charged to the budget."""
        html = self.html
        double, single = html.rfind('"', since, end), html.rfind("'", since, end)
        found = (quotes[0] if double < 0 else double, quotes[1] if single < 0 else single)
        hard = not (_opening(html, found[0]) or _opening(html, found[1]))
        if not hard:
            self.budget -= 1
        return hard, found

    def _found(self, end: int, quotes: tuple[int, int]) -> int:
        """``end``, a hard end: the position moves past it."""
        self.position = end + 1
        self.double, self.single = quotes
        return end

    def last_before(self, limit: int) -> Optional[int]:
        """The last hard end between the position and ``limit`` (``None``: none, or the budget spent)."""
        end = limit
        while self.budget >= 0:
            end = self.html.rfind(">", self.position, end)
            if end < 0:
                return None
            hard, quotes = self._hard(end, self.position, (self.double, self.single))
            if hard:
                return self._found(end, quotes)
        return None

    def first_from(self, start: int) -> Optional[int]:
        """The first hard end from ``start`` on, none between the position and ``start`` (``None``:
        none, or the budget spent)."""
        since, quotes = self.position, (self.double, self.single)
        while self.budget >= 0:
            end = self.html.find(">", start)
            if end < 0:
                return None
            hard, quotes = self._hard(end, since, quotes)
            if hard:
                return self._found(end, quotes)
            since = start = end + 1
        return None


def _uncrowded(html: str) -> bool:
    """Whether no tag of ``html`` can hold more than MAX_ATTRIBUTES attributes as the scan reads
    tags (``False``: one may, or the proof gave up: the scan reads the page).

    A ``>`` within a tag lies inside a quoted value (a name, an unquoted value or a separator holds
    none), which opens right after ``=`` and white space and holds no quote of its own kind: so the
    last quote of that kind before the ``>`` comes right after ``=`` and white space. A ``>`` whose
    last ``"`` and last ``'`` before it (:func:`_opening`) both do not is a *hard end*: no tag's
    attributes hold it, so a crowded tag lies between two hard ends (or the page's ends). It spans at
    least :data:`_FEWEST` characters, one of :data:`_SEPARATORS` for each attribute. So each stretch
    between hard ends (found a window of _FEWEST characters at a time, the last one in it) that is
    shorter than _FEWEST, or holds at most MAX_ATTRIBUTES of _SEPARATORS, holds no crowded tag. None
    of it asks what comes before a tag (a comment, a script): it holds of every ``<`` the scan may
    read as a tag's."""
    ends = _HardEnds(html)
    while True:
        checkpoint()
        start = ends.position
        if len(html) - start < _FEWEST:
            return True
        if ends.last_before(start + _FEWEST) is not None:
            continue
        if ends.budget < 0:
            return False
        end = ends.first_from(start + _FEWEST)
        if ends.budget < 0:
            return False
        if _separated(html, start, len(html) if end is None else end):
            return False
        if end is None:
            return True


#: The most characters :func:`_separated` counts in one go (a checkpoint between two).
_COUNTED = 1 << 18


def _separated(html: str, start: int, stop: int) -> bool:
    """Whether ``html[start:stop]`` holds more than MAX_ATTRIBUTES of :data:`_SEPARATORS`, counted
    _FEWEST characters first, then twice as many each time up to :data:`_COUNTED` (a long script
    has its separators in its first few KB: a count of the whole, 7 passes, took longer than the scan)."""
    total, begin, size = 0, start, _FEWEST
    while begin < stop:
        checkpoint()
        end = min(stop, begin + size)
        for separator in _SEPARATORS:
            if html.find(separator, begin, end) >= 0:  # a search for an absent one costs less than its count
                total += html.count(separator, begin, end)
        if total > MAX_ATTRIBUTES:
            return True
        begin, size = end, min(2 * size, _COUNTED)
    return False


def thin_crowded_tags(html: str) -> str:
    """``html`` with each tag's attributes after its first :data:`MAX_ATTRIBUTES` removed
    (module docstring); the same string when no tag holds more."""
    return html if _uncrowded(html) else _thinned(html)


def _thinned(html: str) -> str:
    """:func:`thin_crowded_tags` by the scan alone (the pages :func:`_uncrowded` does not clear)."""
    parts = []
    start = position = 0
    while True:
        checkpoint()
        match = _read(_SCAN, html, position)
        if not match.lastgroup:  # no crowded tag: SCAN_TOKENS read, a long content next, or all there is
            if match.end() == len(html):
                break
            # Before a comment or text element of long content the scan stopped (none is crowded, or
            # the scan would have read it): read past it here, not failed again by the next call.
            after = _after_long_content(html, match.end())
            if after is None and match.end() == position:
                break
            position = match.end() if after is None else after
            continue
        # A tag of MAX_ATTRIBUTES or more attributes, its element's group closed: cut when any follow
        # (a call stopping after SCAN_TOKENS tokens also ends at a tag of exactly MAX_ATTRIBUTES).
        position = _read(_DROPPED, html, match.end()).start(1)
        if position > match.end():
            parts.append(html[start : match.end()])
            start = position
        if match.lastgroup != "tag":  # a text element's: past its content
            position = _past_content(match.lastgroup, html, position)
    if not parts:
        return html
    parts.append(html[start:])
    return "".join(parts)
