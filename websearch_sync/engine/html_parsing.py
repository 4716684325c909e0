"""Shared helpers of the HTML backends (DuckDuckGo, Baidu, Bing, Yahoo, Mojeek).

Search pages are large (Baidu: up to ~900 KB) while the results are a small part of
them, and building a BeautifulSoup tree costs time per node. So a parser here:

1. cuts the results region out of the page text (:func:`region`),
2. drops markup that carries no result data: scripts, styles, comments, void tags
   such as ``<img>``, empty ``<i>`` icons, inline emphasis tags (``<b>``, ``<em>``:
   their text stays) and the newline indentation between tags (:func:`reduce_markup`),
3. parses what is left with lxml's HTML parser (:func:`parse_fragment`) into elements of
   :class:`Tag`, lxml's HTML element with the few names of BeautifulSoup's ``Tag`` the
   engines read (``name``, ``parent``, ``attrs``): building the tree in C costs a tenth of
   building BeautifulSoup's (1.4 ms -> 0.3 ms of a DuckDuckGo page's parse),
4. reads result blocks in one walk over the tree (:func:`walk_blocks`), or, where the walk's
   tests are declared (DuckDuckGo's), with a few lxml calls a block (:mod:`.class_blocks`).

Every step is linear in the page size, whatever the page nests inside what (a
result block inside a result block inside ...): no step searches below or above an
element once per candidate. The walks call :func:`~websearch_sync.checkpoints.checkpoint`,
so a parse abandoned at the deadline stops instead of running on (lxml builds the tree of
a region at the byte cap in tens of milliseconds, in one call).
"""

import html
import re
from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Callable, Literal, Optional, cast

import lxml.html
from lxml import etree

from ..checkpoints import checked, checkpoint
from ..extract.crowded_tags import thin_crowded_tags
from . import class_blocks
from .dates import dated_item as dated_item  # the date helpers: engines import them here too
from .dates import iso_datetime as iso_datetime
from .dates import leading_date as leading_date
from .dates import month_first as month_first

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How many elements a walk handles between two checkpoints.
_CHECK_EVERY = 512

# One pass over the markup: every alternative starts with "<", so the regex engine
# only tries at tag starts. <br> becomes a newline (kept as a word break), the rest
# is removed. A <script>/<style> ends at its first closing tag, as in an HTML parser.
# Linear time on any page: a tag's attributes are scanned up to the next "<" or ">"
# only, and a comment, script or style left unclosed runs to the end of the markup (as
# in an HTML parser), so a page of repeated "<!--" is one scan, not one per opener.
# Their bodies are read as runs of "[^<]" / "[^-]" ("unrolled"), three times faster
# than a lazy ".*?" that tests for the end at every character. The look at the character
# after "<" (or "</") passes only the first letters of the names below (and "!"): most
# tags of a results page (div, a, h2, td, closing ones) are passed over without trying
# each alternative (a DuckDuckGo region: 66 -> 47 us).
_NOISE_FIRST = "!bBeEfFiIlLmMsSuUwW"
# The inline emphasis tags come first: the most frequent (a DuckDuckGo region's <b> and </b>, nine in
# ten of its matches), tried before the others (no text matches two alternatives at one place: each
# names its tags whole, followed by \b, so their order changes nothing else; a region 0.60M -> 0.50M
# instructions). (script|style) stays group 1, (br) group 2.
_NOISE_PATTERN = (
    r"<(?=/?[" + _NOISE_FIRST + r"])"
    r"(?:/?(?:b|em|strong|font|mark|u)\b[^<>]*>"
    r"|(script|style)\b[^<>]*>[^<]*(?:<(?!/\1\s*>)[^<]*)*(?:</\1\s*>|\Z)"
    r"|!--[^-]*(?:-(?!->)[^-]*)*(?:-->|\Z)"
    r"|(?:%s)\b[^<>]*>"
    r"|i\b[^<>]*>\s*</i>"  # empty <i> (icon fonts)
    r"|(br)\b[^<>]*>"
    r")"
)
_NOISE = re.compile(_NOISE_PATTERN % "img|input|link|meta|source|wbr", re.S | re.I)
#: The same, keeping ``<img>``: for pages whose items carry a picture (news, videos).
_NOISE_BUT_IMAGES = re.compile(_NOISE_PATTERN % "input|link|meta|source|wbr", re.S | re.I)
#: The newline indentation between two tags (``>[ \t\r]*\n\s*<``, made ``><``), written so that sre
#: reads its usual runs (a newline straight after the ``>``, then spaces and newlines) by literal tests,
#: not by the repeated ``\s`` category and the ``[ \t\r]`` set: the same matches (one way to match
#: a run; a run that no ``<`` ends is backed off once, as before), a DuckDuckGo region 0.51M -> 0.45M
#: instructions (``tests/unit/test_reduce_patterns.py`` holds it to the plain pattern).
_INDENT = re.compile(r">(?:\n|[ \t\r]+\n)[ \n]*(?:<|[^\S \n]\s*<)")
#: Where the noise pass may meet a ``<br>``: without one, every match it removes is replaced by
#: nothing, so the pass runs without a call back to Python per match (a DuckDuckGo region: about
#: a hundred ``<b>``/``</b>`` and comments, 54 -> 38 us).
_MAYBE_BR = re.compile(r"<br", re.I)


def _noise_replacement(match: "re.Match[str]") -> str:
    return "\n" if match.group(2) else ""


def region(text: str, starts: Sequence[str], ends: Sequence[str] = ()) -> Optional[str]:
    """The part of ``text`` from the tag holding the first found ``starts`` marker up to
    (not including) the tag holding the nearest ``ends`` marker after it.

    Markers are plain substrings (e.g. ``'id="links"'``); the cut is made at the ``<``
    of the tag that contains them. Without an end marker the region runs to the end.
    Returns ``None`` when no start marker occurs.
    """
    begin = -1
    for marker in starts:
        begin = text.find(marker)
        if begin >= 0:
            break
    if begin < 0:
        return None
    begin = max(0, text.rfind("<", 0, begin))
    stop = len(text)
    for marker in ends:
        found = text.find(marker, begin + 1)
        if 0 <= found < stop:
            stop = found
    if stop < len(text):
        stop = max(begin, text.rfind("<", begin, stop))
    return text[begin:stop]


def reduce_markup(markup: str, images: bool = False) -> str:
    """``markup`` without the parts no result field is read from (see the module doc);
    ``images``: keep the ``<img>`` tags (a news or video item's picture)."""
    noise = _NOISE_BUT_IMAGES if images else _NOISE
    replacement = _noise_replacement if _MAYBE_BR.search(markup) else ""
    return _INDENT.sub("><", noise.sub(replacement, markup))


#: How far past a plain-text notice its text node is read (to compare it with the query).
_NOTICE_NODE_CHARS = 2000


def notice_shown(text: str, markers: Sequence[str], query: str) -> bool:
    """Whether the page ``text`` shows one of the "no results" ``markers`` where the engine prints it.

    A marker that is markup (it holds ``<``, ``=`` or a quote: ``'class="no-results"'``) is
    matched anywhere: an echoed query is escaped, so it cannot forge one. A plain-text marker
    (``"We did not find results for"``) counts only where it opens a text node that is not an
    echo of the query: a query quoting a notice is echoed in the title, the search box and
    the page's own "results for ..." lines, and such a page (an unknown block page, say) is
    not "0 results". Linear: each occurrence is checked on its own bounded text node.
    """
    wanted = _collapsed(query)
    for marker in markers:
        if any(sign in marker for sign in "<=\"'"):
            if marker in text:
                return True
            continue
        start = text.find(marker)
        while start >= 0:
            if _opens_text_node(text, start) and not (wanted and wanted in _text_node(text, start)):
                return True
            start = text.find(marker, start + 1)
    return False


def _opens_text_node(text: str, position: int) -> bool:
    """True when only whitespace stands between the tag before ``position`` and it."""
    tag_end = text.rfind(">", 0, position)
    return tag_end >= 0 and not text[tag_end + 1 : position].strip()


def _text_node(text: str, start: int) -> str:
    """The text node starting at ``start`` (to the next tag, bounded), unescaped and collapsed."""
    end = text.find("<", start, start + _NOTICE_NODE_CHARS)
    return _collapsed(html.unescape(text[start : end if end >= 0 else start + _NOTICE_NODE_CHARS]))


def _collapsed(value: str) -> str:
    return " ".join(value.split()).casefold()


class Tag(lxml.html.HtmlElement):
    """An element of a parsed results region: lxml's HTML element, with the names of
    BeautifulSoup's ``Tag`` the engines read (so a test reads ``tag.name == "a"``)."""

    def __bool__(self) -> bool:
        """Always true, as a BeautifulSoup ``Tag`` (lxml's element is false without children,
        so ``part or other`` would skip an existing part that has no child element)."""
        return True

    @property
    def name(self) -> str:
        """The tag name (``"a"``)."""
        return str(self.tag)

    @property
    def parent(self) -> Optional["Tag"]:
        """The parent element (``None`` at the root)."""
        parent = self.getparent()
        return parent if isinstance(parent, Tag) else None

    @property
    def parents(self) -> Iterator["Tag"]:
        """The ancestors, nearest first."""
        return (parent for parent in self.iterancestors() if isinstance(parent, Tag))

    @property
    def attrs(self) -> "etree._Attrib":
        """The attributes, as a mapping."""
        return self.attrib


_PARSER = lxml.html.HTMLParser()
_PARSER.set_element_class_lookup(etree.ElementDefaultClassLookup(element=Tag))
_EMPTY = "<html></html>"


def parse_html(markup: str) -> Tag:
    """``markup`` parsed as an HTML document (``<html>`` root) into :class:`Tag` elements
    (comments stay in the tree, as their own nodes: the text on either side of one is two
    strings, and neither :func:`text_of` nor :func:`walk_blocks` reads a comment's text); a tag's
    attributes after its first thousand are dropped first (``crowded_tags``: libxml2 reads them
    in quadratic time)."""
    markup = thin_crowded_tags(markup)
    blank = not markup or markup.isspace()  # what ``not markup.strip()`` says, without its copy of the markup
    try:
        root = etree.fromstring(_EMPTY if blank else markup, _PARSER)
    except ValueError:  # a str carrying an XML encoding declaration: lxml wants bytes for it
        root = etree.fromstring(markup.encode("utf-8"), _PARSER)
    except etree.ParserError:  # nothing lxml reads as a document (only blanks, say)
        root = etree.fromstring(_EMPTY, _PARSER)
    if root is None:
        root = etree.fromstring(_EMPTY, _PARSER)
    assert isinstance(root, Tag)
    return root


def parse_fragment(markup: str, images: bool = False) -> Tag:
    """Reduce ``markup`` (keeping ``<img>`` when ``images``) and parse it (:func:`parse_html`)."""
    return parse_html(reduce_markup(markup, images))


def elements(node: Tag) -> Iterator[Tag]:
    """Every element below ``node``, in document order (a plain walk: parsers here walk once
    and pick what they need)."""
    for child in node.iterdescendants():
        if isinstance(child, Tag):
            yield child


def classes(node: Tag) -> Sequence[str]:
    """``node``'s class list (empty when it has none)."""
    value = node.get("class")
    return value.split() if value else ()


def first_of(node: Tag, tests: Mapping[str, Callable[[Tag], bool]]) -> dict[str, Tag]:
    """``{name: the first element below node that passes tests[name]}`` (one walk; names
    without a match are absent). For blocks that cannot nest (children of one list);
    result blocks that may nest are read with :func:`walk_blocks`."""
    found: dict[str, Tag] = {}
    for tag in elements(node):
        for name, test in tests.items():
            if name not in found and test(tag):
                found[name] = tag
    return found


#: A test for a part of a block: ``test(element, parts_around_it)`` where the second
#: argument names the parts of the same block the element is inside.
PartTest = Callable[[Tag, AbstractSet[str]], bool]


class HasClass:
    """The part test "the element has class ``name``" (a :data:`PartTest`), declared rather than
    written as a function so that :func:`walk_blocks` reads each element's class list once and
    looks its names up among all such tests, instead of asking each test in turn."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, tag: Tag, inside: AbstractSet[str]) -> bool:
        return self.name in classes(tag)

    def __repr__(self) -> str:
        return "HasClass(%r)" % self.name


class Block:
    """One result block found by :func:`walk_blocks`: its element, the first element of
    each part, and each part's text (the text of its own block only)."""

    __slots__ = ("tag", "parts", "_texts", "_declared", "_read")

    def __init__(self, tag: Tag, declared: frozenset[str], parts: Optional[dict[str, Tag]] = None) -> None:
        """A block whose parts the walk will find, or (``parts``) whose parts were found in a block
        that holds no other (:mod:`.class_blocks`): their texts are read from them when asked."""
        self.tag = tag
        self.parts: dict[str, Tag] = {} if parts is None else parts
        self._texts: dict[str, list[str]] = {}
        self._declared = declared  # the walk's part names
        self._read = parts is not None  # the texts read from the parts, not gathered by the walk

    def enter(self, tag: Tag, inside: frozenset[str], tests: "_PartTests") -> frozenset[str]:
        """Record ``tag`` as each part it is the first of, and add its own text (the string before
        its first child) to the parts it is inside; those parts (its descendants' too)."""
        matched: list[str] = []
        if tests.by_class:
            value = tag.get("class")
            if value:
                for name in value.split():
                    for part in tests.by_class.get(name, ()):
                        if part not in self.parts:
                            matched.append(part)
        for part, test in tests.others:
            if part not in self.parts and test(tag, inside):
                matched.append(part)
        for part in matched:
            self.parts[part] = tag
            self._texts[part] = []
        if matched:
            inside = inside.union(matched)
        if inside:  # (lxml makes a new string at every read of a text: read only where it counts)
            text = tag.text
            if text:
                self.add_text(inside, text)
        return inside

    def add_text(self, inside: AbstractSet[str], string: str) -> None:
        """Add a string below the parts named ``inside`` to their text."""
        for name in inside:
            self._texts[name].append(string)

    def text(self, name: str) -> str:
        """The part's text as :func:`text_of` reads it (``""`` when the part is absent),
        without the text of result blocks nested inside it. A name that is none of the walk's
        parts is ``LookupError``: a misspelt part would read ``""`` on every page, unnoticed (not
        ``KeyError``, which a parser's caller reads as an answer of an unknown shape)."""
        if name not in self._declared:
            raise LookupError("no part %r in this walk (its parts: %s)" % (name, ", ".join(sorted(self._declared))))
        if self._read:  # no nested block: all strings below the part are its own
            part = self.parts.get(name)
            return "" if part is None else _strings(part).strip()
        return " ".join(self._texts.get(name, ())).strip()


def _strings(tag: Tag) -> str:
    """The strings below ``tag`` as the walk gathers a part's: joined by a space, those of comments
    and processing instructions left out (an element without children: its own text)."""
    if not len(tag):
        return tag.text or ""
    return " ".join(filter(None, tag.itertext()))


class _PartTests:
    """A walk's part tests, sorted once: the :class:`HasClass` ones as a lookup by class name
    (an element's class list is read once and each of its names looked up, instead of every
    such test asked in turn), the others in their declared order."""

    __slots__ = ("by_class", "others", "names", "plan")

    def __init__(self, parts: Mapping[str, PartTest]) -> None:
        self.names = frozenset(parts)
        self.by_class: dict[str, list[str]] = {}
        self.others: list[tuple[str, PartTest]] = []
        for part, test in parts.items():
            if type(test) is HasClass:
                self.by_class.setdefault(test.name, []).append(part)
            else:
                self.others.append((part, test))
        self.plan = class_blocks.plan(self.by_class, self.others)


#: The part tests of the mappings walked lately, by the mapping's ``id``: the mapping (kept, so
#: that its ``id`` is no other's), its items when sorted (a mapping changed since is sorted
#: again) and the sorted tests. An engine walks the same module-level mapping on every page.
_SORTED: dict[int, tuple[Mapping[str, PartTest], tuple[tuple[str, PartTest], ...], _PartTests]] = {}
#: How many mappings :data:`_SORTED` keeps (all are let go when one more comes).
_SORTED_KEPT = 64


def _part_tests(parts: Mapping[str, PartTest]) -> _PartTests:
    """``parts`` sorted (:class:`_PartTests`), as sorted for the last walk of the same unchanged mapping."""
    items = tuple(parts.items())
    kept = _SORTED.get(id(parts))
    if kept is not None and kept[0] is parts and kept[1] == items:
        return kept[2]
    tests = _PartTests(parts)
    if len(_SORTED) >= _SORTED_KEPT:
        _SORTED.clear()
    _SORTED[id(parts)] = (parts, items, tests)
    return tests


#: The events of a walk: comments and processing instructions only for the text after them.
_WALK_EVENTS: tuple[Literal["start", "end", "comment", "pi"], ...] = ("start", "end", "comment", "pi")


def _children(node: Tag) -> Iterator[Tag]:
    """Every child node of ``node``, comments included (typed as lxml yields them)."""
    return cast(Iterator[Tag], iter(node))


class Blocks(list[Block]):
    """The result blocks :func:`walk_blocks` found. Iterating them stops at a checkpoint every
    :data:`~websearch_sync.checkpoints.EVERY` blocks: the engines build an item per block after
    the walk, and a parse abandoned at its deadline must stop in that loop too, not only in the
    walk."""

    def __iter__(self) -> Iterator[Block]:
        return checked(super().__iter__())


def walk_blocks(
    root: Tag,
    is_block: Callable[[Tag], bool],
    parts: Mapping[str, PartTest],
    skip: Optional[Callable[[Tag], bool]] = None,
) -> Blocks:
    """The result blocks below ``root`` with their parts, in one walk over the tree.

    An element passing ``is_block`` opens a block; each element below it (and not
    inside a block nested in it) is tested against ``parts``, the first element
    passing ``parts[name]`` is that part, and the text below it is gathered on the
    way. A subtree passing ``skip`` (e.g. an ads container) is not entered. Each
    element and string is visited once, so the walk is linear whatever nests in what;
    lxml's own walk (``iterwalk``) moves through the tree, this loop only decides. Where the
    tests are declared (:mod:`.class_blocks`), lxml's ``iter`` finds the same blocks in C and each
    block's parts are read from its own elements, without the per-element walk.
    """
    tests = _part_tests(parts)
    declared = class_blocks.found(root, is_block, tests.plan, skip)
    if declared is not None:
        return Blocks([Block(tag, tests.names, found) for tag, found in declared])
    blocks = Blocks()
    nothing: frozenset[str] = frozenset()
    # The open elements' places: the block and parts of each one's own strings (the text after an
    # element, its tail, belongs to its parent's), on a bottom place for the root's parent; the
    # innermost one's also kept in locals, and each string added in place (the loop runs twice
    # per element: 64 in a DuckDuckGo region).
    frames: list[tuple[Optional[Block], frozenset[str]]] = [(None, nothing)]
    block: Optional[Block] = None
    inside = nothing  # parts are only ever inside a block
    walker = etree.iterwalk(root, events=_WALK_EVENTS)
    next(walker)  # the root: its own strings belong to no block
    frames.append((None, nothing))
    visited = 0
    for event, node in walker:
        if event != "start":  # an element's end, a comment or a processing instruction: the text after it
            if event == "end":
                frames.pop()
                block, inside = frames[-1]
            if inside:
                text = node.tail
                if text:
                    cast(Block, block).add_text(inside, text)
            continue
        if skip is not None and skip(node):  # what follows a skipped subtree is still read
            walker.skip_subtree()
            block, inside = None, nothing
        else:
            visited += 1
            if not visited % _CHECK_EVERY:
                checkpoint()
            if is_block(node):
                block, inside = Block(node, tests.names), nothing
                blocks.append(block)
            elif block is not None:
                inside = block.enter(node, inside, tests)
        frames.append((block, inside))
    return blocks


def text_of(node: Optional[Tag], without: AbstractSet[Tag] = frozenset()) -> str:
    """The text of ``node`` with child elements separated by a space (``""`` for ``None``),
    leaving out the subtrees in ``without`` (the text after each is kept).

    Whitespace is not collapsed here; :func:`websearch_sync.engine.normalize.clean_text` does that.
    """
    if node is None:
        return ""
    if not without:
        return " ".join(node.itertext()).strip()
    strings: list[str] = []
    stack: list[tuple[Tag, Iterator[Tag]]] = [(node, _children(node))]
    strings.append(node.text or "")
    while stack:
        child = next(stack[-1][1], None)
        if child is None:
            done = stack.pop()[0]
            if stack:
                strings.append(done.tail or "")
        elif isinstance(child, Tag) and child not in without:
            strings.append(child.text or "")
            stack.append((child, _children(child)))
        else:  # a left-out subtree or a comment: only the text after it
            strings.append(child.tail or "")
    return " ".join(string for string in strings if string).strip()


def attribute(node: Tag, name: str) -> str:
    """``node``'s attribute ``name`` as a string (``""`` when absent)."""
    value = node.get(name)
    return "" if value is None else str(value)


def has_class(node: Tag, name: str) -> bool:
    """True when ``node``'s class list contains ``name``."""
    return name in classes(node)
