"""Generic boilerplate removal on lxml trees, used around readability-lxml.

- ``strip_junk(root)``: what a reader never sees (scripts, styles, form controls, hidden
  elements).
- ``preclean(root, rules)``: runs on the whole page before readability. ``strip_junk``, keeps
  embedded posts (``<blockquote>``) as content, and removes the page's navigation, asides,
  headers and footers (HTML5 landmarks), so readability scores a smaller, cleaner tree.
- ``clean_article(node, rules)``: runs on the article readability selected and removes what
  readability keeps inside it: title, bylines, dates, captions and galleries, related-article
  teasers, navigation, "Advertisement" / "Read more" lines and link lists.

Which rules run is a set of rule names (``rules.DEFAULT_RULES`` by default; the table
is ``rules.RULES``). Every rule is structural or lexical-generic (tags, ``class``/``id`` words, link density,
label phrases), never specific to a site; every removal is guarded so that a block holding
a large part of the text, or several long paragraphs, is kept.
"""

import functools
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Callable, Optional

from lxml import etree

from ..checkpoints import EVERY, checked, checkpoint
from .ending import drop_end_headings
from .paragraphs import split_br_runs
from .rules import COMPOUND_PREFIXES, DEFAULT_RULES, RULES, stage_tags, stage_words

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

# Elements whose content is never readable article text.
JUNK_TAGS = (
    "script",
    "style",
    "noscript",
    "noframes",
    "template",
    "svg",
    "canvas",
    "iframe",
    "object",
    "embed",
    "link",
    "meta",
    "button",
    "select",
    "textarea",
    "input",
    "map",
    "audio",
    "video",
    "source",
)

# Whole-block texts that are labels or calls to action, never article text.
_LABEL_LINE = re.compile(
    r"^(?:advert(?:isement)?s?|ad|sponsored(?: content)?|close|comments?|read more|more|"
    r"share(?: this)?(?: on \w+)?|sharing is caring!?|you may also like|don.t miss|"
    r"related(?: articles| stories| posts)?|recommended(?: for you)?|image copyright|image caption|"
    r"this slideshow requires javascript|tell us what you think|print|email)"
    r"\W*$",
    re.I,
)
# A button a content system left as its shortcode, the whole block: '[button link="/submit/" type="big"] Send us
# your review[/button]' (its attributes, then its label of under 100 characters).
_BUTTON_SHORTCODE = re.compile(r"^\[(button|btn)\b[^\]\[]{0,300}\][^\[]{0,100}\[/(?:button|btn)\]$", re.I)
# Publication-date lines ("Updated at 1:23 p.m.", "Published: 18 Nov 2019"): a keyword
# followed only by numbers, date/time words and time-zone abbreviations.
_DATE_LEAD = re.compile(r"^(?:last )?(?:updated|published|posted|modified)\b", re.I)
_DATE_WORDS = frozenset(
    """
    on at ago am pm a m p the of st nd rd th min mins minute minutes hour hours hr hrs day days week
    weeks month months year years jan feb mar apr may jun jul aug sep sept oct nov dec january
    february march april june july august september october november december mon tue tues wed thu
    thur thurs fri sat sun monday tuesday wednesday thursday friday saturday sunday today yesterday
""".split()
)
# Leads of link lines to other pages ("Related: ...", "SEE MORE: ...", "Filed under: ..."), and a wiki's
# cross-reference to the article a section summarises ("Main article: <a>...</a>", "Further information: ...").
_LINK_LEAD = re.compile(
    r"^(?:related|see more|see also|read more|read also|more|also|also read|watch|listen|most read|"
    r"trending|recommended|filed under|tagged|tags|categories|category|posted in|main articles?|"
    r"further information)\s*:",
    re.I,
)

# Footer-like and header-like lines of an article page: a copyright notice, a "Posted by ... |
# Permalink" line, a share line, a byline ("By Name Surname, role | date") and its reviewer's or editor's line
# ("Reviewed by Name, MD", "Medically reviewed by ...", "Fact checked by ...", "Edited by ...", "Additional reporting
# by ...": a name after it).
_META_LINE = re.compile(
    r"^(?:(?:copyright|\(c\))\s|\u00a9|(?:posted|written|filed) (?:by|in|under)\s|share (?:this|on)\b)", re.I
)
_RIGHTS_RESERVED = re.compile(r"\ball rights reserved\b", re.I)
# A reading-time line, the whole block: "5 min read", "Reading time: 4 minutes", "Tempo de leitura: 1 minuto",
# "Lesezeit: 3 Min." (English, Portuguese, Spanish, French, German, Italian, Dutch).
_READING_TIME = re.compile(
    r"^(?:(?:(?:estimated )?(?:reading|read) time|tempo de leitura|tiempo de lectura|temps de lecture|lesezeit|"
    r"tempo di lettura|leestijd)\s?:?\s?(?:about |approx\.? |ca\. )?\d{1,3}(?:\s?[-\u2013]\s?\d{1,3})?\s?"
    r"(?:min|mins|minutes?|minutos?|minuten|minuti)\.?|\d{1,3}\s?(?:min|mins|minutes?)\.? read)$",
    re.I,
)
_BYLINE = re.compile(
    r"^(?:By|(?:(?:Medically )?[Rr]eviewed|Fact[- ][Cc]hecked|Edited|Additional reporting) by) "
    r"[A-Z][\w.'\u2019-]*(?: [A-Z][\w.'\u2019-]*){0,3}\s*(?:[,|]|$)"
)
#: A meta line is shorter than this (characters).
_META_LINE_CHARS = 200
# A reporter's contact line and a site's subscription pitch: "Have a tip? Name may be reached
# at name@example.com" (an address or a handle in it: "the hotline can be reached at 0800 ..." is
# the article's), "If you enjoyed this article, ... join". An author's biography ("Name is a
# reporter ... Follow him on Twitter") is not one: Readability.js keeps it.
_REACHED_AT = re.compile(r"\b(?:may|can) be reached at\b", re.I)
_SUBSCRIPTION_PITCH = re.compile(r"^if you (?:enjoyed|liked) this (?:article|story|post)\b", re.I)
# A site's call to follow it: a sentence "Follow us on Twitter", "Follow Newsbeat on Instagram, ...", "Follow
# AP's full coverage of Brexit at https://..." (the site or its name, then up to eight words, "on" or "at", and a
# capitalised name, a network's or a service's, or an address: no list of sites; never "Follow him": an author's
# biography, above, nor "Follow Main Street ... on foot"). Case matters: a name is capitalised.
_FOLLOW_US = re.compile(
    r"(?:^|[.!?]\s+)(?:Follow|FOLLOW) (?:us|US|[A-Z][\w'\u2019.-]*(?: [A-Z][\w'\u2019.-]*){0,2})(?: [\w'\u2019-]+){0,8}? "
    r"(?:on|at) (?:[A-Z][\w'\u2019.-]*|https?://|www\.)"
)
#: A contact line is shorter than this (characters) ...
_CONTACT_LINE_CHARS = 300
#: ... and a subscription pitch than this: it goes on to list what members get (a paragraph, never an article's).
_PITCH_CHARS = 600
_DISPLAY_NONE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)", re.I)
_WORD = re.compile(r"[a-z]+")
_WORDS = re.compile(r"\w+")
_CAMEL = re.compile(r"([a-z])([A-Z])")
_CODE = frozenset(("pre", "code"))  # syntax highlighting uses class="comment", "tag", ...
_WRAPPERS = ("div", "figure", "section", "span", "aside")
_HEADINGS = frozenset(("h2", "h3", "h4", "h5", "h6"))
_BLOCKS = frozenset(("p", "div", "li", "ul", "ol", "section", "dl", "table")) | _HEADINGS
_LONG_PARAGRAPH = 125  # non-space characters (about 150 characters)


# --------------------------------------------------------------------------- helpers


def class_words(element: etree._Element) -> frozenset[str]:
    """Lower-case alphabetic words of an element's ``class`` and ``id``
    (``article__media-caption`` -> {article, media, caption}; camelCase is split; a word that
    starts with one of ``rules.COMPOUND_PREFIXES`` has that word too: ``jp-relatedposts`` ->
    {jp, relatedposts, related}). A class name that is a negation (``no_caption``, ``no-ads``,
    ``without-sidebar``) says what the element is not: its words are left out."""
    names = element.get("class"), element.get("id")
    if not (names[0] or names[1]):
        return _NO_WORDS
    return _words("%s %s" % (names[0] or "", names[1] or ""))


_NO_WORDS: frozenset[str] = frozenset()


_NEGATIONS = frozenset(("no", "non", "not", "without"))


@functools.lru_cache(maxsize=16384)
def _words(value: str) -> frozenset[str]:
    words: set[str] = set()
    for name in value.split():
        found = _name_words(name)
        if found and found[0] not in _NEGATIONS:
            words.update(found)
            words.update(prefix for word in found for prefix in COMPOUND_PREFIXES if word.startswith(prefix))
    return frozenset(words)


@functools.lru_cache(maxsize=16384)
def _name_words(name: str) -> tuple[str, ...]:
    """The words of one class or id name, in order (a page's ``class`` values combine the same
    few names: each is split once)."""
    return tuple(_WORD.findall(_CAMEL.sub(r"\1 \2", name).lower()))


def _text(element: etree._Element) -> str:
    """The element's text (its tail left out), each run of whitespace one space: its text read
    in one call (``tostring(method="text")``: the pieces ``itertext()`` hands out one by one, joined)."""
    return " ".join(etree.tostring(element, method="text", encoding="unicode", with_tail=False).split())


def text_within(element: etree._Element, limit: int) -> bool:
    """``len(_text(element)) <= limit``, reading the element's text only until it is longer (a
    wrapper's test against a whole article's text stops after ``limit`` characters)."""
    chars = words = 0
    in_word = False  # the text so far ends inside a word, which the next piece may continue
    for piece in element.itertext():
        if not piece:
            continue
        parts = piece.split()
        if parts:
            chars += sum(map(len, parts))
            words += len(parts) - (in_word and not piece[0].isspace())
            if chars + words - 1 > limit:
                return False
        in_word = not piece[-1].isspace()
    return chars + max(words - 1, 0) <= limit


def text_size(element: etree._Element) -> int:
    """Number of non-space characters of the element's text (cheap, for size guards)."""
    return len("".join(etree.tostring(element, method="text", encoding="unicode", with_tail=False).split()))


def _link_text_length(element: etree._Element) -> int:
    """Length of the text of links that lead away from the page (not ``#anchors``)."""
    return sum(len(_text(a)) for a in element.iter("a") if not (a.get("href") or "").startswith("#"))


def _long_paragraphs(element: etree._Element) -> int:
    return sum(1 for p in element.iter("p") if text_size(p) >= _LONG_PARAGRAPH)


def _outside_code(node: etree._Element, doomed: set[etree._Element]) -> Iterator[etree._Element]:
    """The descendant elements of ``node`` in document order, except code (and what is inside
    it) and what is inside a doomed element; ``doomed`` may grow while iterating (a doomed
    element's descendants are skipped once the caller has added it). Whole subtrees are
    skipped rather than each element's ancestors tested."""
    if node.tag in _CODE or node in doomed or any(a in doomed or a.tag in _CODE for a in node.iterancestors()):
        return
    walker = etree.iterwalk(node, events=("start",))  # elements only: lxml moves, this loop decides
    next(walker)  # ``node`` itself
    handed = 0
    for _, element in walker:
        if element.tag in _CODE:
            walker.skip_subtree()
            continue
        handed += 1
        if not handed % EVERY:  # the rules' walks stop once the extraction was abandoned
            checkpoint()
        yield element
        if element in doomed:  # the caller doomed it just now: what is inside it is not handed out
            walker.skip_subtree()


def drop(element: etree._Element) -> None:
    """Removes ``element`` but keeps its tail text in the document, a space too: the space after
    a hidden marker between two words is what keeps them apart ("2018 Human", not "2018Human")."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


def unwrap(element: etree._Element) -> None:
    """Replaces ``element`` by its content (text, children, tail), as ``lxml.html``'s
    ``drop_tag`` does, for any element: one built outside the HTML parser has no ``drop_tag``."""
    parent = element.getparent()
    if parent is None:
        return
    previous = element.getprevious()
    for text in (element.text, element.tail):
        if not text:
            continue
        if text is element.tail and len(element):
            element[-1].tail = (element[-1].tail or "") + text
        elif previous is None:
            parent.text = (parent.text or "") + text
        else:
            previous.tail = (previous.tail or "") + text
    index = parent.index(element)
    parent[index : index + 1] = list(element)


def _drop_outermost(doomed: Iterable[etree._Element]) -> None:
    """Drop the outermost of ``doomed``, in document order (never in a set's order, which
    follows memory addresses and so differs from one process to the next)."""
    doomed = set(doomed)
    outermost = [e for e in doomed if not any(a in doomed for a in e.iterancestors())]
    for element in sorted(outermost, key=document_position):
        drop(element)


def document_position(element: etree._Element) -> list[int]:
    """``element``'s place in its tree: the child index at each level from the root (sorts
    elements in document order)."""
    position = []
    parent = element.getparent()
    while parent is not None:
        position.append(parent.index(element))
        element, parent = parent, parent.getparent()
    position.reverse()
    return position


# --------------------------------------------------------------------------- page level


def _tab_panel(element: etree._Element) -> bool:
    """A tab panel (``role="tabpanel"``, or a class/id word ``tab``/``tabpanel``): hidden
    until its tab is clicked, but page content all the same."""
    return element.get("role") == "tabpanel" or bool(class_words(element) & _TAB_WORDS)


_TAB_WORDS = frozenset(("tab", "tabpanel"))


# Compiled once: ``element.xpath(string)`` compiles its expression on every call.
#: The elements that may be hidden: by the ``hidden`` attribute, an inline style, or a class
#: word ``hidden`` (the hiding class of the common style sheets), in document order. Read from
#: the attributes (``//@style/..``): an element test (``//*[@style or contains(@class, ...)]``)
#: copies every element's class to test it, a third more of the walk's time.
_MAYBE_HIDDEN = etree.XPath("//@hidden/.. | //@style/.. | //@class[contains(., 'hidden')]/..")
_HEADING_LINKS = etree.XPath("//h1//a | //h2//a | //h3//a | //h4//a | //h5//a | //h6//a")


def _continues_prose(
    element: etree._Element, hidden: set[etree._Element], prose_beside: dict[etree._Element, bool]
) -> bool:
    """A hidden block that continues the text beside it (a "continue reading" expander, the
    next page of a paginated article): it holds a long paragraph, and so does a visible
    sibling (``prose_beside``: per parent, measured once)."""
    checkpoint()  # once per hidden element
    parent = element.getparent()
    if parent is None or not _long_paragraphs(element):
        return False
    if parent not in prose_beside:  # a hidden sibling is skipped before its paragraphs are counted
        prose_beside[parent] = any(
            sibling not in hidden and isinstance(sibling.tag, str) and _long_paragraphs(sibling) for sibling in parent
        )
    return prose_beside[parent]


#: A block of class ``hidden`` holding this many long paragraphs is text a script shows, kept.
_HIDDEN_CLASS_PARAGRAPHS = 2
#: Never hidden by class: a page that hides itself until its scripts ran (``<body class="hidden">``).
_PAGE_TAGS = frozenset(("html", "body"))


def _hidden(element: etree._Element) -> bool:
    """Whether ``element`` is hidden: by the ``hidden`` attribute, an inline ``display: none``
    (or ``visibility: hidden``), or a class word ``hidden`` (the hiding class of the common
    style sheets; ``hidden-xs`` is another class), except for an element of that class holding
    ``_HIDDEN_CLASS_PARAGRAPHS`` long paragraphs or more (an article a script reveals; a page's
    topic list or a "Continue reading" label of that class holds none) and ``<body>``/``<html>``."""
    if element.get("hidden") is not None:
        return True
    style = element.get("style")
    if style and _DISPLAY_NONE.search(style):
        return True
    return (
        "hidden" in (element.get("class") or "").split()
        and element.tag not in _PAGE_TAGS
        and _long_paragraphs(element) < _HIDDEN_CLASS_PARAGRAPHS
    )


def strip_junk(root: etree._Element, keep_tab_panels: bool = False, keep_hidden_prose: bool = False) -> None:
    """Removes what a reader never sees (scripts, styles, comments, form controls, embeds,
    elements hidden by the ``hidden`` attribute or an inline ``display: none``), in place;
    with ``keep_tab_panels``, hidden tab panels stay (a reader opens them with a click); with
    ``keep_hidden_prose``, so do hidden blocks that continue the text beside them."""
    etree.strip_elements(root, etree.Comment, etree.ProcessingInstruction, *JUNK_TAGS, with_tail=False)
    hidden = [el for el in _MAYBE_HIDDEN(root) if _hidden(el)]
    hidden_set = set(hidden) if keep_hidden_prose else set()
    prose_beside: dict[etree._Element, bool] = {}
    doomed, prose = [], []
    for el in hidden:
        if keep_tab_panels and _tab_panel(el):
            continue
        if keep_hidden_prose and _continues_prose(el, hidden_set, prose_beside):
            prose.append(el)
        else:
            doomed.append(el)
    _drop_outermost(doomed)
    _drop_repeats(root, prose, hidden_set)


def _drop_repeats(root: etree._Element, blocks: list[etree._Element], hidden: set[etree._Element]) -> None:
    """Leaves out of each kept hidden block the paragraphs a visible sibling shows already (an
    expander repeats its teaser, a hidden copy of the article all of it), and the block itself
    when no long paragraph of its own is left: its text would come twice."""
    for block in blocks:
        parent = block.getparent()
        if parent is None or block.getroottree().getroot() is not root:  # inside a dropped block
            continue
        shown = {
            _text(p)
            for sibling in parent
            if sibling not in hidden and isinstance(sibling.tag, str)
            for p in sibling.iter("p")
        }
        for paragraph in [p for p in block.iter("p") if _text(p) in shown]:
            drop(paragraph)
        if not _long_paragraphs(block):
            drop(block)


def _keep_quotations(root: etree._Element) -> None:
    """A quotation is content even when its class names a social network (an embedded post
    keeps its text in a ``<blockquote class="twitter-tweet">``, which readability discards
    as "unlikely"): drop the quotation's class/id and unwrap wrappers that hold nothing else."""
    for quote in list(root.iter("blockquote")):
        for name in ("class", "id"):
            if name in quote.attrib:
                del quote.attrib[name]
        for wrapper in list(sole_wrappers(quote)):
            unwrap(wrapper)


def sole_wrappers(element: etree._Element) -> Iterator[etree._Element]:
    """The wrappers around ``element`` that hold nothing else (20 characters of slack: a
    caption, a "Copy" button's label), innermost first; never the root."""
    size = len(_text(element))
    parent = element.getparent()
    while (
        parent is not None
        and parent.tag in _WRAPPERS
        and parent.getparent() is not None
        and text_within(parent, size + 20)
    ):
        yield parent
        parent = parent.getparent()


#: A paragraph under a heading has this many non-space characters at least to open a section
#: (readability's own bound for a sibling paragraph long enough to be the article's, 80).
_SECTION_PARAGRAPH_CHARS = 80
#: A heading or a section's paragraph is link text when more than this share of it is (readability's
#: bound for a heading).
_SECTION_LINK_SHARE = 0.33


def linked_section_headings(node: etree._Element) -> Iterator[etree._Element]:
    """The headings of ``node`` (``<h2>``..``<h6>``) whose text is mostly a link, whose next
    sibling with text (an image between them has none) is a paragraph of
    ``_SECTION_PARAGRAPH_CHARS`` or more, and whose parent holds two long paragraphs or more: a
    section of the article named after what it links to (a product in a roundup), where
    readability's cleaning drops a heading of link density over 0.33. A teaser card's headline
    heads one summary in a box of its own. Each parent's paragraphs are counted once, for its
    first heading that asks (counted once per heading, a list of 5,000 such headings took 45 s)."""
    sections: dict[Optional[etree._Element], bool] = {}  # parent -> whether it holds two long paragraphs
    for heading in checked(node.iter(*_HEADINGS)):
        if _link_text_length(heading) <= _SECTION_LINK_SHARE * len(_text(heading)):
            continue
        following = _next_with_text(heading)
        if following is None or following.tag != "p" or text_size(following) < _SECTION_PARAGRAPH_CHARS:
            continue
        parent = heading.getparent()
        if parent not in sections:
            sections[parent] = _has_long_paragraphs(parent, 2)
        if sections[parent]:
            yield heading


def heading_boxes(node: etree._Element) -> Iterator[etree._Element]:
    """The ``<div>``/``<section>`` boxes of ``node`` that hold nothing but a heading (``<h2>``..
    ``<h6>``, mostly not link text) whose next sibling with text is running text: a block of
    ``_SECTION_PARAGRAPH_CHARS`` or more, at most a third of it link text. A page built of
    components writes each heading in a box of its own, which readability's cleaning drops when
    it holds under 25 characters; a box heading a list of links ("Related news") is not one."""
    for heading in node.iter(*_HEADINGS):
        text = _text(heading)
        if not text or _link_text_length(heading) > _SECTION_LINK_SHARE * len(text):
            continue
        boxes = []
        for box in heading.iterancestors():  # read until a box holds more than the heading
            if box is node or not text_within(box, len(text)):
                break
            boxes.append(box)
        following = _next_with_text(boxes[-1]) if boxes else None
        if (
            following is not None
            and text_size(following) >= _SECTION_PARAGRAPH_CHARS
            and _link_text_length(following) <= _SECTION_LINK_SHARE * len(_text(following))
        ):
            yield from (box for box in boxes if box.tag in ("div", "section"))


def _next_with_text(element: etree._Element) -> Optional[etree._Element]:
    """The next sibling of ``element`` that holds text (each read until its first word)."""
    return next(
        (sibling for sibling in element.itersiblings() if isinstance(sibling.tag, str) and _has_text(sibling)), None
    )


#: An id repeats its element's text when it is, letters and digits only, the start of that text
#: this long at least (an id cut short is still a slug; a short one may be a name).
_SLUG_MIN_CHARS = 8


def slug_of_text(element: etree._Element) -> bool:
    """Whether ``element``'s id is a slug of its text (``id="1.-ai-shines-a-light"`` on the heading
    "1. AI shines a light..."): an anchor for a table of contents, whose words are the heading's,
    not a name for a kind of block."""
    squashed = _alphanumeric(element.get("id") or "")
    return len(squashed) >= _SLUG_MIN_CHARS and _alphanumeric(_text(element)).startswith(squashed)


def _alphanumeric(text: str) -> str:
    return "".join(char for char in text.casefold() if char.isalnum())


def _unwrap_heading_anchors(root: etree._Element) -> None:
    """Headings often wrap their text in a link to themselves (``<h2><a class="header"
    href="#intro">Intro</a></h2>``); readability drops such links as "unlikely" or the
    heading as link-dense. Keep the text, drop the in-page link."""
    for anchor in _HEADING_LINKS(root):
        if (anchor.get("href") or "").startswith("#"):
            unwrap(anchor)


_BOX_TAGS = frozenset(("div", "section", "aside", "td"))


def _drop_form_boxes(root: etree._Element) -> None:
    """Removes the box around each form (a newsletter sign-up, a search or a contact box:
    readability drops the form and keeps the box's pitch as an article sibling), unless the
    box holds 30% or more of the page's text or several long paragraphs (then the form is part
    of the article or of a page-wide wrapper)."""
    body = root.find("body")
    if body is None:
        return
    limit: Optional[float] = None  # measured only once a page has a form box
    boxes: list[etree._Element] = []
    for form in body.iter("form"):
        box = next(form.iterancestors(*_BOX_TAGS), None)
        if box is None:
            continue
        if limit is None:
            limit = 0.3 * text_size(body)
        if text_size(box) < limit and _long_paragraphs(box) < 2 and box.find(".//article") is None:
            boxes.append(box)
    _drop_outermost(boxes)


#: Rewrites of the page before readability, by rule name (run in this order).
_PAGE_REWRITES: dict[str, Callable[[etree._Element], None]] = {
    "page.br_paragraphs": split_br_runs,
    "page.quotations": _keep_quotations,
    "page.heading_anchors": _unwrap_heading_anchors,
    "page.form_boxes": _drop_form_boxes,
}


def _has_long_paragraphs(parent: Optional[etree._Element], count: int) -> bool:
    """Whether ``parent`` has ``count`` or more long ``<p>`` children (measured until it has)."""
    if parent is None:
        return False
    long_paragraphs = (child for child in parent if child.tag == "p" and text_size(child) >= _LONG_PARAGRAPH)
    return next(itertools.islice(long_paragraphs, count - 1, None), None) is not None


def preclean(root: etree._Element, rules: frozenset[str] = DEFAULT_RULES) -> None:
    """Prepares a parsed page for readability, in place: ``strip_junk``, keeps quotations,
    then removes the tags and the blocks whose class/id has one of the words of the enabled
    ``page.*`` rules, unless the block holds 30% or more of the page's text, several long
    paragraphs, an ``<article>`` or a quotation."""
    strip_junk(root, keep_tab_panels="page.tab_panels" in rules, keep_hidden_prose="page.hidden_prose" in rules)
    for name, rewrite in _PAGE_REWRITES.items():
        if name in rules:
            rewrite(root)
    body = root.find("body")
    tags, words = stage_tags("page", rules), stage_words("page", rules)
    if body is None or not (tags or words):
        return
    limit: Optional[float] = None  # measured only once a block matches
    doomed: set[etree._Element] = set()
    for element in _outside_code(body, doomed):
        if not (element.tag in tags or (words and class_words(element) & words)):  # no page rule has words now
            continue
        if limit is None:
            limit = 0.3 * text_size(body)
        if not _holds_content(element, limit):
            doomed.add(element)
    _drop_outermost(doomed)


def _holds_content(element: etree._Element, limit: float) -> bool:
    """Whether a block a page rule names holds what is kept whatever it is named: ``limit``
    characters or more of text, an ``<article>``, a quotation or several long paragraphs."""
    return (
        text_size(element) >= limit
        or element.find(".//article") is not None
        or element.find(".//blockquote") is not None
        or _long_paragraphs(element) >= 2
    )


# --------------------------------------------------------------------------- article level


def _date_line(text: str) -> bool:
    lead = _DATE_LEAD.match(text)
    if not lead or len(text) >= 80:
        return False
    words = _WORDS.findall(text[lead.end() :])
    return any(w.isdigit() for w in words) and all(
        w.isdigit() or w.lower() in _DATE_WORDS or (w.isupper() and len(w) <= 4) for w in words
    )


def _label_line(element: etree._Element, text: str) -> bool:
    """A short block that is only a label: "Advertisement", "Share this", "Read more"; or a
    button a content system failed to render (``_BUTTON_SHORTCODE``)."""
    return (len(text) < 60 and bool(_LABEL_LINE.match(text))) or (
        text.startswith("[") and bool(_BUTTON_SHORTCODE.match(text))
    )


def _date_block(element: etree._Element, text: str) -> bool:
    """A short block that is only a publication date: "Updated at 1:23 p.m. EST"."""
    return _date_line(text)


def _link_lead(element: etree._Element, text: str) -> bool:
    """A short block that announces links elsewhere: "Related: <a>...</a>", a wiki's cross-reference
    to the article a section summarises ("Main article: <a>...</a>"); or a short note box (ARIA
    ``role="note"``: content ancillary to the main content) holding a link: a wiki's "For other uses,
    see <a>...</a>" above the article."""
    if len(text) >= 200 or element.find(".//a") is None:
        return False
    return bool(_LINK_LEAD.match(text)) or element.get("role") == "note"


#: A block whose link text is this share of its text or more is link-dense (``article.link_dense``).
LINK_DENSE_SHARE = 0.8


def _link_dense(element: etree._Element, text: str) -> bool:
    """A block that is (nearly) all link text: teasers, link lists, promo links. A block
    whose text is a URL is kept (sources quoted as bare links), and so is a heading (a
    section named after what it links to; a teaser's heading goes with its block); so is an
    item of a list whose items are mostly not link text (``_keep_prose_list_items``)."""
    if not text or element.tag in _HEADINGS or text.startswith(("http://", "https://", "www.")):
        return False
    return _link_text_length(element) >= LINK_DENSE_SHARE * len(text)


def _meta_line(element: etree._Element, text: str) -> bool:
    """A short block that is a copyright notice, a "Posted by" or share line, or a byline."""
    if len(text) >= _META_LINE_CHARS:
        return False
    return bool(
        _META_LINE.match(text) or _RIGHTS_RESERVED.search(text) or _BYLINE.match(text) or _READING_TIME.match(text)
    )


def _contact_line(element: etree._Element, text: str) -> bool:
    """A short block that is an author's or a site's contact or subscription line."""
    if len(text) >= _CONTACT_LINE_CHARS:
        return len(text) < _PITCH_CHARS and bool(_SUBSCRIPTION_PITCH.match(text))
    return bool(
        _SUBSCRIPTION_PITCH.match(text) or ("@" in text and _REACHED_AT.search(text)) or _FOLLOW_US.search(text)
    )


#: Rules on whole blocks of the article, by rule name.
BlockRule = Callable[[etree._Element, str], bool]
BlockRules = list[tuple[str, BlockRule]]
BLOCK_RULES: dict[str, BlockRule] = {
    "article.labels": _label_line,
    "article.dates": _date_block,
    "article.link_leads": _link_lead,
    "article.link_dense": _link_dense,
    "article.meta_lines": _meta_line,
    "article.contact_lines": _contact_line,
}


#: A heading of this share of the title's words (or the title of this share of the heading's) says the
#: same as the title in other words ("High School Roundup: ..." under the ``<title>`` "HS Roundup: ...") ...
TITLE_WORD_SHARE = 0.75
#: ... when the title has this many distinct words or more; so does a heading of this many whose words are
#: all the title's ("Make your Firefox your own" under "Firefox - Customize and make it your own - ...").
TITLE_MIN_WORDS = 4


def _repeats_title(heading: etree._Element, title: Optional[str]) -> bool:
    """True when ``heading`` says the same as the page title: one contains the other, or the title
    words it otherwise (``TITLE_WORD_SHARE``, ``TITLE_MIN_WORDS``; sets of words: their order never
    matters here)."""
    if title is None:
        return True
    text = _text(heading).casefold()
    wanted = " ".join(title.split()).casefold()
    if not text or not wanted:
        return False
    if text in wanted or wanted in text:
        return True
    ours, theirs = set(_WORDS.findall(text)), set(_WORDS.findall(wanted))
    if len(theirs) < TITLE_MIN_WORDS:
        return False
    return (len(ours) >= TITLE_MIN_WORDS and ours <= theirs) or len(ours & theirs) >= TITLE_WORD_SHARE * max(
        len(ours), len(theirs)
    )


def _is_block(element: etree._Element, rules: frozenset[str]) -> bool:
    """A block the block rules judge: a paragraph-like element, or (``article.link_spans``) a
    span of three or more links inside a paragraph (a widget such as hover cards)."""
    if element.tag in _BLOCKS:
        return True
    return "article.link_spans" in rules and element.tag == "span" and len(element.findall(".//a")) >= 3


def _word_rule(matched: frozenset[str], rules: frozenset[str]) -> str:
    """The name of the enabled article rule one of whose words is in ``matched``."""
    return next(rule.name for rule in RULES if rule.stage == "article" and rule.name in rules and rule.words & matched)


#: Inline elements: a class word on one names a word or a phrase of the text, not a box.
_INLINE = frozenset(("span", "a", "b", "strong", "em", "i", "small", "time", "font"))
#: A paragraph goes on with this many characters outside an inline element: a sentence it is a part of.
SENTENCE_CHARS = 100


def _in_sentence(element: etree._Element, text: str) -> bool:
    """Whether ``element`` (whose text is ``text``) is an inline element of a paragraph that holds
    ``SENTENCE_CHARS`` characters or more outside it: a dateline opening the first sentence
    (``<p><span class="dateline">CAIRO —</span> Gunmen opened fire ...</p>``), a name inside one,
    which the article's text reads; a byline paragraph ("By <span class="author">Name</span>")
    holds no sentence beside it."""
    parent = element.getparent()
    if element.tag not in _INLINE or parent is None or parent.tag != "p":
        return False
    return len(_text(parent)) - len(text) >= SENTENCE_CHARS


def _boilerplate_block(
    element: etree._Element, words: frozenset[str], block_rules: BlockRules, rules: frozenset[str], total: int
) -> Optional[str]:
    """The name of the rule by which ``clean_article`` removes ``element`` (None: kept): a
    block whose class/id has one of ``words``, or a block one of ``block_rules`` condemns;
    never a block holding half of the article's ``total`` text, and (by class/id) not one
    holding a quotation or several long paragraphs unless its words are those of a
    ``long_blocks`` rule (captions)."""
    matched = class_words(element) & words
    is_block = bool(block_rules) and _is_block(element, rules)
    if not (matched or is_block):
        return None
    text = _text(element)
    if len(text) > 0.5 * total:
        return None
    if (
        matched
        and element.find(".//blockquote") is None
        and (matched & stage_words("article", rules, True) or _long_paragraphs(element) < 3)
        and not _in_sentence(element, text)
    ):
        return _word_rule(matched, rules)
    if is_block:
        return next((name for name, rule in block_rules if rule(element, text)), None)
    return None


#: Class/id words of reader comment threads; a word that starts with ``comment`` or ends
#: with ``comment(s)`` counts too (``commentlist``, ``usercomments``).
_COMMENT_WORDS = frozenset(("reply", "replies", "responses", "discussion", "disqus"))
#: A comment thread is removed only when the article keeps this many characters outside it.
_MIN_LEFT_WITHOUT_COMMENTS = 200


#: A class/id name of more words than this is a slug of a heading (``id="gmail-scriptable-responses"``),
#: not a name for a kind of block.
_MAX_NAME_WORDS = 3


def _comment_words(element: etree._Element) -> bool:
    """True when a class/id name of ``element`` names a comment thread (module docstring)."""
    names = element.get("class"), element.get("id")
    return bool(names[0] or names[1]) and _names_comments("%s %s" % (names[0] or "", names[1] or ""))


@functools.lru_cache(maxsize=16384)
def _names_comments(names: str) -> bool:
    """``_comment_words`` of an element whose class and id are ``names`` (measured once per page's
    distinct class and id values)."""
    return any(
        len(words) <= _MAX_NAME_WORDS
        and any(
            word in _COMMENT_WORDS or word.startswith("comment") or word.endswith(("comment", "comments"))
            for word in words
        )
        for words in (_words(name) for name in names.split())
    )


def _comment_threads(node: etree._Element) -> set[etree._Element]:
    """The reader comment threads inside ``node`` (outermost blocks whose class/id says so),
    or none when removing them would leave less than ``_MIN_LEFT_WITHOUT_COMMENTS``
    characters (then the page is its comments)."""
    threads = {element for element in _outside_code(node, set()) if _comment_words(element)}
    if not threads:
        return threads
    outermost = {e for e in threads if not any(a in threads for a in e.iterancestors())}
    removed = sum(text_size(e) for e in outermost)
    return outermost if text_size(node) - removed >= _MIN_LEFT_WITHOUT_COMMENTS else set()


#: A rule whose removals hold more than this share of the article is cancelled for the page.
REMOVAL_CAP = 0.5


def _cap_removals(removals: dict[str, set[etree._Element]], total: int) -> None:
    """Cancels, in place, every rule whose removals add up to more than ``REMOVAL_CAP`` of the
    article's ``total`` characters: many small blocks that each pass the per-block guard
    (bylines, link-dense lines) can together be most of an article written that way."""
    for name, elements in list(removals.items()):
        outermost = [e for e in elements if not any(a in elements for a in e.iterancestors())]
        if sum(text_size(e) for e in outermost) > REMOVAL_CAP * total:
            del removals[name]


def _removals(
    node: etree._Element, rules: frozenset[str], doomed: set[etree._Element]
) -> dict[str, set[etree._Element]]:
    """{rule name: the blocks of ``node`` it removes} for the tag, word and block rules
    (what is inside code or inside ``doomed`` is left alone)."""
    tags, words = stage_tags("article", rules), stage_words("article", rules)
    block_rules = [(name, rule) for name, rule in BLOCK_RULES.items() if name in rules]
    total = max(1, len(_text(node)))
    removals: dict[str, set[etree._Element]] = {}
    for element in _outside_code(node, doomed):
        name = (
            next(r.name for r in RULES if r.stage == "article" and r.name in rules and element.tag in r.tags)
            if element.tag in tags
            else _boilerplate_block(element, words, block_rules, rules, total)
        )
        if name is not None:
            removals.setdefault(name, set()).add(element)
    if "article.link_dense" in removals:
        _keep_prose_list_items(removals["article.link_dense"])
        _keep_text_around_widgets(removals["article.link_dense"])
    return removals


#: A link-dense list item stays when fewer than this share of its list's items are link-dense.
PROSE_LIST_SHARE = 0.5


def _keep_prose_list_items(dense: set[etree._Element]) -> None:
    """Takes out of ``dense`` (the blocks ``article.link_dense`` removes) the items of a list
    fewer than ``PROSE_LIST_SHARE`` of whose items with text are link-dense: a list of
    sentences, one of which is mostly its link ("X has <a>a patch to move the store off the old
    API</a>"), is the article's list; a list of links (related stories, a tag list) is not."""
    linked: dict[etree._Element, int] = {}
    for element in dense:  # counts per list: the order of the set does not matter
        parent = element.getparent()
        if element.tag == "li" and parent is not None:
            linked[parent] = linked.get(parent, 0) + 1
    for parent, count in linked.items():
        items = [child for child in parent if child.tag == "li" and _has_text(child)]
        if count < PROSE_LIST_SHARE * len(items):
            dense.difference_update(items)


#: A block around inline widgets stays when this many characters of it are outside them (running text).
WIDGET_SENTENCE_CHARS = 25


def _keep_text_around_widgets(dense: set[etree._Element]) -> None:
    """Narrows, in place, what ``article.link_dense`` removes around an inline widget: a
    ``<span>`` of links inside a paragraph (a hover card: a person's name, the card with a
    picture, the name again and links to other stories). Of nested link-dense spans only the
    innermost goes, not the span that also holds the name the text reads; and a block that is
    link-dense only by its widgets' links (a sentence around a card: ``WIDGET_SENTENCE_CHARS`` or
    more outside them, not a label such as "Tags:") stays."""
    inside: dict[etree._Element, list[etree._Element]] = {}  # {block: the widgets in it}; sums need no order
    for widget in _innermost_spans(dense):
        for block in widget.iterancestors():
            if block in dense:
                inside.setdefault(block, []).append(widget)
    for block, widgets in inside.items():
        text = len(_text(block)) - sum(len(_text(widget)) for widget in widgets)
        links = _link_text_length(block) - sum(_link_text_length(widget) for widget in widgets)
        if text >= WIDGET_SENTENCE_CHARS and links < LINK_DENSE_SHARE * text:
            dense.discard(block)


def _innermost_spans(dense: set[etree._Element]) -> list[etree._Element]:
    """The spans of ``dense`` inside no other span of it; those other spans are taken out of ``dense``."""
    spans = [element for element in dense if element.tag == "span"]
    outer = {ancestor for span in spans for ancestor in span.iterancestors("span") if ancestor in dense}
    dense.difference_update(outer)
    return [span for span in spans if span not in outer]


def _has_text(element: etree._Element) -> bool:
    return any(piece.strip() for piece in element.itertext())


def _title_line(node: etree._Element, title: Optional[str]) -> Optional[etree._Element]:
    """The element holding the article's first text when that text is the page ``title``
    (outermost such element; ``<b><font>Title</font></b>`` heading a layout table's cell),
    else None. An ``<h1>`` is ``article.title``'s."""
    wanted = " ".join(title.split()) if title else ""
    first = _first_text(node) if len(wanted) >= 10 else None
    if first is None or _text(first) != wanted:
        return None
    parent = first.getparent()
    while parent is not None and parent is not node and _text(parent) == wanted:
        first, parent = parent, parent.getparent()
    return None if _in_h1(first) else first


def _first_text(node: etree._Element) -> Optional[etree._Element]:
    """The element of ``node`` whose text comes first, None when ``node`` opens with text of its own."""
    if (node.text or "").strip():
        return None
    return next((e for e in _outside_code(node, set()) if (e.text or "").strip()), None)


def _in_h1(element: etree._Element) -> bool:
    """Whether ``element`` is, holds or is inside an ``<h1>``."""
    return (
        element.tag == "h1" or element.find(".//h1") is not None or next(element.iterancestors("h1"), None) is not None
    )


def clean_article(node: etree._Element, rules: frozenset[str] = DEFAULT_RULES, title: Optional[str] = None) -> None:
    """Removes boilerplate inside the article readability selected, in place, by the enabled
    ``article.*`` rules: its title (a single ``<h1>`` that repeats ``title``, the page title
    returned separately; with ``title=None`` a single ``<h1>`` is taken for it); the rules'
    tags; blocks whose class/id has one of their words (unless they hold half of the
    article's text, several long paragraphs or a quotation); label lines, date lines, link
    leads and link-dense blocks (``BLOCK_RULES``); reader comment threads; then the headings
    the article ends with, no text after them (``ending``). With ``article.removal_cap``, a rule
    whose removals hold most of the article is cancelled."""
    doomed: set[etree._Element] = set()
    titles: Sequence[etree._Element] = node.findall(".//h1") if "article.title" in rules else ()
    if len(titles) == 1 and _repeats_title(titles[0], title):  # several h1 are section headings
        doomed.add(titles[0])
    line = _title_line(node, title) if "article.title_line" in rules else None
    if line is not None:
        doomed.add(line)
    if "article.comments" in rules:
        doomed.update(_comment_threads(node))
    removals = _removals(node, rules, doomed)
    if removals and "article.removal_cap" in rules:
        _cap_removals(removals, text_size(node))
    for elements in removals.values():
        doomed.update(elements)
    _drop_outermost(doomed)
    if "article.end_headings" in rules:
        drop_end_headings(node)
