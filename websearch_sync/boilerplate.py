"""Generic boilerplate removal on lxml trees, used around readability-lxml.

``preclean(root)`` runs on the whole page before readability: it removes what is never
article text (scripts, styles, hidden elements, navigation) so readability scores a smaller,
cleaner tree. ``clean_article(node)`` runs on the article readability selected and removes
the boilerplate readability keeps inside it (share bars, related links, bylines, captions).

Rules are structural (tags, ``class``/``id`` words, link density), never site-specific.
"""

import re
from typing import Iterable, Set

from lxml import etree

__all__ = ["strip_junk", "preclean", "clean_article", "class_words"]

# Elements whose content is never readable article text.
JUNK_TAGS = (
    "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed",
    "link", "meta", "button", "select", "textarea", "input", "map", "audio", "video", "source",
)

_DISPLAY_NONE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)", re.I)
_WORD = re.compile(r"[a-z]+")
_CAMEL = re.compile(r"([a-z])([A-Z])")

# class/id words of blocks inside an article that are not article text.
ARTICLE_BOILERPLATE_WORDS = frozenset("""
    caption captions credit credits gallery byline bylines author authors timestamp dateline
    share sharing social related promo newsletter subscribe subscription advert advertisement
    ad ads comment comments footer nav breadcrumb breadcrumbs tags cta print
    standfirst dek subtitle kicker eyebrow meta
    sidebar widget rail carousel slider swiper teaser trending popular recirc recirculation
    outbrain taboola
""".split())

# Tags inside an article that are not article text.
ARTICLE_BOILERPLATE_TAGS = ("figcaption", "nav", "aside", "footer", "header", "h1")


def class_words(element: etree._Element) -> Set[str]:
    """Lower-case alphabetic words of an element's ``class`` and ``id``
    (``article__media-caption`` -> {article, media, caption}; camelCase is split)."""
    value = "%s %s" % (element.get("class") or "", element.get("id") or "")
    if len(value) < 3:
        return set()
    return set(_WORD.findall(_CAMEL.sub(r"\1 \2", value).lower()))


def _drop(element: etree._Element) -> None:
    """Removes ``element`` but keeps its tail text in the document."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail and tail.strip():
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


def _drop_all(elements: Iterable[etree._Element]) -> None:
    for element in list(elements):
        _drop(element)


def _text_length(element: etree._Element) -> int:
    return len("".join(element.itertext()).strip())


PAGE_BOILERPLATE_TAGS = ("nav", "footer", "aside", "header")
PAGE_BOILERPLATE_WORDS = frozenset("""
    share sharing social related newsletter subscribe subscription comment comments breadcrumb
    breadcrumbs sidebar widget outbrain taboola promo advert advertisement ad ads
""".split())


def strip_junk(root: etree._Element) -> None:
    """Removes what a reader never sees (scripts, styles, comments, form controls, embeds,
    elements hidden by the ``hidden`` attribute or an inline ``display: none``), in place."""
    etree.strip_elements(root, etree.Comment, etree.ProcessingInstruction, *JUNK_TAGS, with_tail=False)
    _drop_all(root.xpath("//*[@hidden]"))
    _drop_all(el for el in root.xpath("//*[@style]") if _DISPLAY_NONE.search(el.get("style")))


def preclean(root: etree._Element, tags: tuple = PAGE_BOILERPLATE_TAGS,
             words: frozenset = PAGE_BOILERPLATE_WORDS) -> None:
    """Removes non-content elements from a parsed page before readability, in place:
    ``strip_junk``, then navigation, asides, page headers/footers and share/related/
    comment/ad blocks that hold less than 30% of the page's text."""
    strip_junk(root)
    # A quotation is content even when its class names a social network (embedded posts
    # keep their text in a <blockquote>); readability would discard it as "unlikely".
    # Wrappers that hold nothing but the quotation ("social-media-embed") are unwrapped too.
    for quote in list(root.iter("blockquote")):
        for name in ("class", "id"):
            if name in quote.attrib:
                del quote.attrib[name]
        size = len(_text(quote))
        parent = quote.getparent()
        while (parent is not None and parent.tag in _WRAPPERS and parent.getparent() is not None
               and len(_text(parent)) <= size + 20):
            parent.drop_tag()
            parent = quote.getparent()
    body = root.find("body")
    if body is None or not (tags or words):
        return
    total = len(_text(body))
    doomed = set()
    for element in body.iterdescendants():
        if not isinstance(element.tag, str):
            continue
        if element.tag in tags or (words and class_words(element) & words):
            if element.find(".//blockquote") is not None or element.find(".//article") is not None:
                continue
            if len(_text(element)) > 0.3 * total:
                continue
            doomed.add(element)
    for element in [e for e in doomed if not any(a in doomed for a in e.iterancestors())]:
        _drop(element)


_WRAPPERS = ("div", "figure", "section", "span", "aside")
_BLOCKS = ("p", "div", "li", "ul", "ol", "section", "h2", "h3", "h4", "h5", "h6", "dl", "table")

# Whole-block texts that are labels or calls to action, never article text.
_BOILERPLATE_LINE = re.compile(
    r"^(?:advert(?:isement)?s?|ad|sponsored(?: content)?|close|comments?|read more|more|"
    r"share(?: this)?(?: on \w+)?|sharing is caring!?|you may also like|don.t miss|"
    r"related(?: articles| stories| posts)?|recommended(?: for you)?|image copyright|image caption|"
    r"this slideshow requires javascript|tell us what you think|print|email)"
    r"\W*$", re.I)

# Leads of link lines to other articles ("Related: ...", "SEE MORE: ...").
_LINK_LEAD = re.compile(r"^(?:related|see more|see also|read more|read also|more|also|also read|watch|listen|"
                        r"most read|trending|recommended|filed under|tagged|tags|categories|category|"
                        r"posted in)\s*:", re.I)

# Publication-date lines ("Updated at 1:23 p.m.", "Published: 18 Nov 2019").
_DATE_LINE = re.compile(r"^(?:last )?(?:updated|published|posted|modified)(?: on| at)?\b[^.!?]*\d", re.I)


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _link_text_length(element: etree._Element) -> int:
    return sum(len(_text(a)) for a in element.iter("a"))


def _looks_like_url(text: str) -> bool:
    return text.startswith(("http://", "https://", "www."))


def _class_rule(element, text, words):
    # an embedded post (<blockquote>) keeps its wrapper even when it is called "social-embed"
    return bool(words and class_words(element) & words) and element.find(".//blockquote") is None


def _line_rule(element, text):
    if len(text) < 60 and _BOILERPLATE_LINE.match(text):
        return True
    return len(text) < 80 and bool(_DATE_LINE.match(text))


def _link_lead_rule(element, text):
    return len(text) < 200 and bool(_LINK_LEAD.match(text)) and element.find(".//a") is not None


def _link_dense_rule(element, text, threshold=0.8):
    if not text or _looks_like_url(text):
        return False
    return _link_text_length(element) >= threshold * len(text)


RULES = ("class", "tag", "line", "link_lead", "link_dense")


def clean_article(node: etree._Element, words: frozenset = ARTICLE_BOILERPLATE_WORDS,
                  tags: tuple = ARTICLE_BOILERPLATE_TAGS, rules: tuple = RULES) -> None:
    """Removes boilerplate inside the article readability selected, in place."""
    total = max(1, _text_length(node))
    doomed = []
    for element in node.iterdescendants():
        if not isinstance(element.tag, str):
            continue
        if any(a in doomed for a in element.iterancestors()):
            continue
        tag = element.tag
        if "tag" in rules and tag in tags:
            doomed.append(element)
            continue
        is_block = tag in _BLOCKS or (tag == "span" and len(element.findall(".//a")) >= 3)
        if not ("class" in rules and class_words(element) & words) and not is_block:
            continue
        text = _text(element)
        if len(text) > 0.5 * total:
            continue
        if "class" in rules and _class_rule(element, text, words):
            doomed.append(element)
        elif is_block and (("line" in rules and _line_rule(element, text))
                           or ("link_lead" in rules and _link_lead_rule(element, text))
                           or ("link_dense" in rules and _link_dense_rule(element, text))):
            doomed.append(element)
    for element in doomed:
        _drop(element)
