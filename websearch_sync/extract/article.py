"""Main-content extraction from an HTML page.

The page is parsed once; what is never article text (scripts, hidden elements, the page's
navigation, header, footer and asides) is removed (``boilerplate.preclean``); readability-lxml selects the
article on that tree; the boilerplate readability leaves inside the article (bylines,
captions, "Read more" lines, link lists) is removed (``boilerplate.clean_article``); the
article is rendered as text (block boundaries as line breaks) or markdown (headings,
lists, links, code blocks and tables kept) by ``render``. When what readability selected is
an implausibly small part of the page's main text region (``region.is_fragment``: one
caption, one notice), the region is taken instead, cleaned the same way.

Every cleaning rule is switchable by name (``rules.RULES``); text and markdown mode render
the same element, so they carry the same words.

Pure functions, no I/O: ``extract_html(html, url=..., mode=...)``.
"""

import copy
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import Any, Optional, Union

import lxml.html
from lxml import etree

from ..checkpoints import checked, checkpoint
from ..models import EXTRACT_MODES
from ..weburl.resolve import browser_join, url_attribute
from .boilerplate import (
    clean_article,
    drop,
    heading_boxes,
    linked_section_headings,
    preclean,
    slug_of_text,
    sole_wrappers,
    strip_junk,
    text_size,
)
from .boxes import blocks_before_title, boxes_after_title, follows_title
from .crowded_tags import thin_crowded_tags
from .datatables import data_table, introduction
from .divs import transform_misused_divs
from .frames import unframe
from .gaps import fill_gaps
from .nesting import cut_by_depth, parse_capped
from .prose import HEADINGS
from .quiet import quiet_namespace, quiet_steps
from .region import FRAGMENT_MIN_MISSING, FRAGMENT_SHARE, is_fragment, main_region
from .render import render_element
from .repair import repair_markup
from .rules import COMMENT_RULE, DEFAULT_RULES, check_rules, stage_words
from .second import EXTRACTOR as SECOND_EXTRACTOR
from .second import NEAR_EMPTY_CHARS, near_empty, second_opinion
from .segments import fill_segment_gaps, same_segments
from .tables import widen_to_column
from .teasers import scan as scan_teasers
from .textlength import link_density
from .unlikely import remove_unlikely_candidates
from .wrappers import wrapper_paragraphs

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


class _PageElement(lxml.html.HtmlElement):
    """An element of a parsed page: lxml.html's, its ``text_content()`` read without XPath.

    lxml.html answers ``text_content()`` by evaluating the XPath ``string()``, which libxml2
    answers with the element's content (``xmlNodeGetContent``: its text and CDATA descendants
    joined); ``tostring(method="text")`` without the tail reads the same content
    (``xmlNodeBufGetContent``) without setting up an XPath evaluation: a quarter of the time, for
    the same string. readability measures every paragraph, candidate and link with it (some forty
    calls a small page; tests/unit/test_extract_text_content.py holds it to lxml.html's)."""

    def text_content(self) -> str:
        """The element's text, its descendants' included (lxml.html's ``text_content``)."""
        return str(etree.tostring(self, method="text", encoding="unicode", with_tail=False))


_PARSER = lxml.html.HTMLParser(encoding="utf-8")
# lxml.html's own class lookup is a Python method run for every element proxy the walks create
# (tens of thousands a page); it only adds the form classes (FormElement, InputElement...),
# which extraction never uses. The default lookup picks the same HTML classes in C.
_PARSER.set_element_class_lookup(
    etree.ElementDefaultClassLookup(
        element=_PageElement,
        comment=lxml.html.HtmlComment,
        pi=lxml.html.HtmlProcessingInstruction,
        entity=lxml.html.HtmlEntity,
    )
)
# A match may only start where a run of whitespace starts: without the look-behind, each
# position of a long run would rescan the run (quadratic).
#: Control characters XML cannot hold: libxml2's HTML parser keeps them in text, and lxml then
#: refuses that text when it is set on another element (``ValueError``), as the ``<br>``
#: paragraph split does. Read as spaces, as a browser shows them.
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
#: The same characters as UTF-8 bytes (each is its own byte: no other character's encoding holds one).
_CONTROL_BYTES = bytes((*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20)))
_TITLE_SEPARATORS = re.compile(r"(?<!\s)\s+(?:[|\u2013\u2014:\u00bb\u00b7/]|-|::)\s+")


@dataclass
class Extraction:
    """The result of extracting a page: title, text, and which extractor produced it."""

    title: str
    text: str
    extractor: str


def _check_mode(mode: str) -> None:
    if mode not in EXTRACT_MODES:
        raise ValueError("mode must be one of %s, not %r" % (EXTRACT_MODES, mode))


def render(node: etree._Element, mode: str = "text", *, base_url: Optional[str] = None) -> str:
    """Render an lxml element's content as text (block boundaries become line breaks) or
    markdown (headings, lists, links, emphasis, code, block quotes and tables kept);
    ``base_url`` makes relative links absolute in markdown."""
    _check_mode(mode)
    return render_element(node, mode, base_url=base_url)


#: The elements :func:`descendants` takes in one C call (about 4 ms of them).
DESCENDANTS_CHUNK = 4096


def descendants(node: etree._Element, name: str) -> list[etree._Element]:
    """``list(node.iterdescendants(name))``, taken :data:`DESCENDANTS_CHUNK` at a time: one
    ``list()`` is one C call, which holds the GIL, and that of a 1000x1000 table's cells held it
    0.5 s, past the deadline of the thread waiting for the extraction."""
    iterator = node.iterdescendants(name)
    found: list[etree._Element] = []
    while True:
        before = len(found)
        found.extend(islice(iterator, DESCENDANTS_CHUNK))
        if len(found) - before < DESCENDANTS_CHUNK:
            return found


def _parse(html: Union[str, bytes], repair: bool = True, frames: bool = True) -> Optional[etree._Element]:
    """Parses a page like readability does (as UTF-8 bytes, so a string that still carries
    an XML encoding declaration parses too), with ``repair``: after ``repair_markup``, its control
    characters spaces and its crowded tags thinned last (``thin_crowded_tags``); with
    ``frames``, a frameset page's ``<noframes>`` markup as its body (``frames.unframe``); None
    when there is nothing to parse."""
    if isinstance(html, bytes):
        html = html.decode("utf-8", "replace")
    if not isinstance(html, str) or not html.strip():
        return None
    if repair:
        html = repair_markup(html)
    data = html.encode("utf-8", "replace")
    controls = len(data.translate(None, _CONTROL_BYTES)) != len(data)  # byte-wise: 4x faster than the pattern
    if controls:
        html = _CONTROLS.sub(" ", html)
    thinned = thin_crowded_tags(html)  # last, on what lxml reads: a repair or a space can make a tag of text
    if controls or thinned is not html:
        data = thinned.encode("utf-8", "replace")
    try:
        parsed = lxml.html.document_fromstring(data, parser=_PARSER)
        rebuilt = parse_capped(data, _PARSER) if cut_by_depth(parsed) else None
    except (etree.ParserError, ValueError):
        return None
    root: etree._Element = rebuilt if rebuilt is not None else parsed
    if frames:
        unframe(root, lambda markup: _parse(markup, repair, frames=False))
    return root


def _body(root: etree._Element) -> etree._Element:
    body = root.find("body")
    return body if body is not None else root


def visible_text(html: str, mode: str = "text") -> str:
    """All visible text of a page (scripts, styles, hidden elements and the head removed),
    rendered like ``render``; empty when the page has none."""
    _check_mode(mode)
    return _visible_text(html, mode, repair=True)


def _visible_text(html: str, mode: str, repair: bool) -> str:
    root = _parse(html, repair)
    if root is None:
        return ""
    strip_junk(root)
    return render_element(_body(root), mode)


def _page_title(root: etree._Element) -> str:
    """The article title: a heading that ``<title>`` contains, else ``og:title``, else the
    longest part of ``<title>`` split at site-name separators (an icon's ``<svg><title>`` is
    not the page's)."""
    element = next((t for t in root.iter("title") if not any(a.tag == "svg" for a in t.iterancestors())), None)
    full = " ".join("".join(element.itertext()).split()) if element is not None else ""
    for level in ("h1", "h2"):
        for heading in root.iter(level):
            text = " ".join("".join(heading.itertext()).split())
            if len(text) >= 10 and text in full:
                return text
    for meta in root.iter("meta"):
        content = meta.get("content") or ""
        if meta.get("property") == "og:title" and content.strip():
            return " ".join(content.split())
    parts = _TITLE_SEPARATORS.split(full)
    return max(parts, key=len) if parts else full


def _link_base(root: etree._Element, url: Optional[str]) -> Optional[str]:
    """What the page's relative links are relative to, as in a browser: its first ``<base href>``
    (itself resolved against ``url``) when that is an http(s) address, else ``url``."""
    for base in root.iter("base"):
        href = url_attribute(base.get("href") or "")
        if href:
            try:
                joined = browser_join(url, href) if url else href
            except ValueError:
                return url
            return joined if joined.lower().startswith(("http://", "https://")) else url
    return url


class _WithoutId:
    """An element as readability's ``class_weight`` reads it (its tag, ``get``), without its id."""

    def __init__(self, element: etree._Element) -> None:
        self.element = element
        self.tag = element.tag

    def get(self, name: str, default: Optional[str] = None) -> Optional[str]:
        return default if name == "id" else self.element.get(name, default)


@functools.cache
def _tree_document_class() -> Any:
    """readability's ``Document`` working on our parsed tree (built once, on first use, so that
    importing this module does not import readability), its steps describing elements for its
    debug log only when that log is on (:mod:`.quiet`)."""
    from readability import Document

    namespace = quiet_namespace()  # one copy of readability's globals for every step (quiet.py)
    quiet_document = type("_QuietDocument", (Document,), quiet_steps(Document, namespace))

    class _TreeDocument(quiet_document):  # type: ignore[misc,valid-type]  # readability has no type information
        # readability re-parses its input for each attempt and cleans it with lxml's
        # Cleaner; start from a copy of our pre-cleaned tree instead (same result, much
        # less work). summary() serialises the article; keep the element itself.
        article = None
        boxes: list[etree._Element] = []
        keep_lists = False  # set per page by _article, from the rules
        keep_code = False
        heading_slugs = False
        keep_linked_headings = False
        section_headings: set[etree._Element] = set()
        keep_heading_boxes = False
        heading_boxes: list[etree._Element] = []
        title_boxes = False
        title_start = False
        title: Optional[str] = None
        titled = False  # the best candidate holds the title heading (see _article)
        find_teasers = False
        sibling_gaps = False
        climb_wrappers = False
        segment_gaps = False
        data_tables = False
        teasers: list[etree._Element] = []

        def _parse(self, input: etree._Element) -> etree._Element:  # noqa: A002 - readability's signature
            self.boxes = []  # each attempt starts again
            self.titled = False
            self.teasers = []
            return copy.deepcopy(input)

        def get_clean_html(self) -> str:
            self.article = self.html
            if self.retry_length <= 0:  # the serialisation is only measured, to decide a retry
                return ""
            return str(etree.tostring(self.html, encoding="unicode", method="html"))

        def get_preserved_elements(self, node: etree._Element) -> dict[etree._Element, bool]:
            # readability >= 0.9: elements its conditional cleaning leaves alone
            preserved: dict[etree._Element, bool] = super().get_preserved_elements(node)
            if self.keep_lists:
                preserved.update((element, True) for element in node.iter("ul", "ol", "dl", "table"))
            if self.keep_code:
                preserved.update((box, True) for code in node.iter("pre") for box in sole_wrappers(code))
            preserved.update((box, True) for box in self.heading_boxes)
            return preserved

        # readability's walks go through these: each stops once the extraction was abandoned. Its
        # own are generators of ``findall(".//<tag>")`` per tag name, each list taken once the one
        # before it is used up; chained in C, the same lists are handed on without a Python step
        # per element (tests/unit/test_extract_walks.py). Each list is taken as ``findall`` takes
        # it (lxml's path ``.//<tag>`` walks ``iterdescendants(<tag>)``) without compiling and
        # running the path: a third less, and readability walks some thirty names a page.
        def tags(self, node: etree._Element, *tag_names: str) -> Iterator[etree._Element]:
            return checked(chain.from_iterable(descendants(node, name) for name in tag_names))

        def reverse_tags(self, node: etree._Element, *tag_names: str) -> Iterator[etree._Element]:
            return checked(chain.from_iterable(reversed(descendants(node, name)) for name in tag_names))

        def class_weight(self, element: etree._Element) -> int:
            checkpoint()  # once per scored or sanitised element
            judged: Union[etree._Element, _WithoutId] = element
            if self.heading_slugs and element.tag in HEADINGS and slug_of_text(element):
                judged = _WithoutId(element)  # its id repeats its text: it says nothing of what the heading is
            weight: int = super().class_weight(judged)
            return weight

        def get_link_density(self, elem: lxml.html.HtmlElement) -> float:
            if elem in self.section_headings:
                return 0.0
            return link_density(elem)  # readability's figure, without its quadratic whitespace scans

        def sanitize(self, node: etree._Element, candidates: Any, keep_all_images: bool = False) -> Any:
            # measured before readability's cleaning, which drops headings and empties lists
            self.section_headings = set(linked_section_headings(node)) if self.keep_linked_headings else set()
            self.heading_boxes = list(heading_boxes(node)) if self.keep_heading_boxes else []
            try:
                return super().sanitize(node, candidates, keep_all_images)
            finally:
                self.section_headings, self.heading_boxes = set(), []

        def transform_misused_divs_into_paragraphs(self) -> None:
            # readability's step, without serializing every division's content once per ancestor
            transform_misused_divs(self.html, self.tags, namespace["REGEXES"]["divToPElementsRe"])

        def remove_unlikely_candidates(self) -> None:
            checkpoint()
            # readability's step, judging only the elements with a class or an id (the others cannot match)
            remove_unlikely_candidates(self.html, namespace["REGEXES"], namespace["log"], namespace["describe"])

        def merge_article_segments(self, candidates: Any, best_candidate: Any, score_threshold: float) -> None:
            positive = namespace["REGEXES"]["positiveRe"]  # readability's content names: "content", "body"...
            segments = same_segments(best_candidate["elem"], positive) if self.segment_gaps else []
            super().merge_article_segments(candidates, best_candidate, score_threshold)
            if segments:
                fill_segment_gaps(segments, best_candidate["elem"])

        def get_article(self, candidates: Any, best_candidate: Any, html_partial: bool = False) -> etree._Element:
            table = data_table(best_candidate["elem"]) if html_partial and self.data_tables else None
            if table is not None:  # the table, not its body, is the candidate; its introduction opens it
                best_candidate = dict(best_candidate, elem=table)
            opening = wrapper_paragraphs(best_candidate["elem"]) if html_partial and self.climb_wrappers else []
            if table is not None:
                opening = introduction(table)
            parent = best_candidate["elem"].getparent()
            siblings = list(parent) if html_partial and self.sibling_gaps and parent is not None else []
            if html_partial:  # before readability moves the candidate into its output
                self.titled = follows_title(best_candidate["elem"], self.title)
            article: etree._Element = super().get_article(candidates, best_candidate, html_partial=html_partial)
            if siblings:
                fill_gaps(siblings, parent, article)
            best = best_candidate["elem"]
            if best.getparent() is article:
                for paragraph in opening:
                    best.addprevious(paragraph)
            if html_partial:
                article = self._in_page_document(article)
            if self.title_boxes and html_partial:
                self.boxes = boxes_after_title(article, best_candidate["elem"], self.title)
            if self.title_start and html_partial:
                self.boxes = blocks_before_title(article, best_candidate["elem"], self.title) + self.boxes
            if html_partial and self.find_teasers and self.titled:
                self.teasers = scan_teasers(article)  # before readability's cleaning drops their headlines
            return article

        def _in_page_document(self, output: etree._Element) -> etree._Element:
            """readability's output ``<div>`` (its content moved) as an element of the page's own
            document: readability builds it with lxml.html's parser, whose element classes are
            looked up by a Python call for every element proxy the later walks create (a twentieth
            of a small page's extraction); the page's parser looks them up in C."""
            home: etree._Element = self.html.makeelement(output.tag, dict(output.attrib))
            home.text = output.text
            home.extend(list(output))
            return home

    return _TreeDocument


@dataclass
class _Selection:
    """What readability selected: the ``article`` element (None when it found none), the
    ``boxes`` in it that are not the article (``readability.title_boxes``), whether its best
    candidate holds the page's title heading or follows it (``titled``: the article from its
    title on, ``boxes.follows_title``), and the runs of teaser cards in such an article
    (``teasers``, ``article.teaser_runs``: found before readability's cleaning, which keeps
    their summaries and drops their headline links)."""

    article: Optional[etree._Element]
    boxes: list[etree._Element]
    titled: bool = False
    teasers: list[etree._Element] = field(default_factory=list)


def _article(root: etree._Element, rules: frozenset[str] = DEFAULT_RULES, title: Optional[str] = None) -> _Selection:
    """Runs readability-lxml on an already parsed and pre-cleaned page; returns what it
    selected (``_Selection``).

    With ``readability.keep_lists``, readability's own cleaning of the article keeps lists
    and tables (its "more list items than paragraphs" and 20% link-density tests drop
    article text written as lists, and publication lists); the ``article.*`` rules judge
    them afterwards. With ``readability.code_blocks``, it keeps the boxes around a ``<pre>``
    that hold nothing else (it drops a short one's, the code with it). With ``readability.no_retry``, an article shorter than 250 characters
    is kept: readability would select again without its filter of unlikely blocks, which on
    a short page selects the comments (fragments are recovered from the page's main text
    region instead). With ``readability.title_boxes``, the boxes it appends after an
    article that holds the ``title`` heading are returned, to be left out (``boxes``)."""
    from readability.readability import Unparseable

    try:  # the class is built here too, on first use: with readability's errors handled alike
        document = _tree_document_class()(root, **({"retry_length": 0} if "readability.no_retry" in rules else {}))
        document.keep_lists = "readability.keep_lists" in rules
        document.keep_code = "readability.code_blocks" in rules
        document.heading_slugs = "readability.heading_slugs" in rules
        document.keep_linked_headings = "readability.linked_headings" in rules
        document.keep_heading_boxes = "readability.heading_boxes" in rules
        document.title_boxes = "readability.title_boxes" in rules
        document.title = title
        document.find_teasers = "article.teaser_runs" in rules
        document.sibling_gaps = "readability.sibling_gaps" in rules
        document.title_start = "readability.title_start" in rules
        document.climb_wrappers = "readability.wrappers" in rules
        document.segment_gaps = "readability.segment_gaps" in rules
        document.data_tables = "readability.data_tables" in rules
        summary = document.summary(html_partial=True)
    except Unparseable:
        return _Selection(None, [])
    if document.article is None and summary:  # a readability without the hook above
        return _Selection(lxml.html.fragment_fromstring(summary, create_parent="div"), [])
    return _Selection(document.article, document.boxes, document.titled, document.teasers)


def _inside(article: etree._Element, region: etree._Element) -> bool:
    """True when the article's longest text lies in ``region`` (readability works on a copy
    of the page, so the elements themselves cannot be compared)."""
    sample = max((" ".join(text.split()) for text in article.itertext()), key=len, default="")
    if not sample:
        return True
    return sample in " ".join(" ".join(region.itertext()).split())


def _recover_fragment(
    root: etree._Element, article: etree._Element, rules: frozenset[str], title: str, page: int
) -> etree._Element:
    """``article``, or the page's main text region (cleaned like an article) when the article
    is an implausibly small part of it.
    ``root`` is the pre-cleaned page (``page``: its text size); it is used up."""
    body = _body(root)
    extracted = text_size(article)
    if page - extracted < FRAGMENT_MIN_MISSING or extracted >= FRAGMENT_SHARE * page:
        return article  # too large a part of the whole page to be a fragment of any region
    region = main_region(body, stage_words("recovery", rules))
    if not is_fragment(extracted, region, _inside(article, region.element)):
        return article
    clean_article(region.element, rules, title=title)
    return region.element


def _chars(text: str) -> int:
    """Non-space characters of ``text``."""
    return len("".join(text.split()))


#: An article with fewer non-space characters than this is tiny (``recovery.tiny``).
TINY_ARTICLE_CHARS = 100


def _recover_tiny(
    root: etree._Element, article: Optional[etree._Element], rules: frozenset[str], title: str
) -> Optional[etree._Element]:
    """The page's main text region (cleaned like an article) instead of a tiny or missing
    ``article`` when it holds more text: a notice or a caption left after cleaning is not
    the page, and the whole page is a worse answer than its main region."""
    extracted = 0 if article is None else text_size(article)
    region = main_region(_body(root), stage_words("recovery", rules))
    if region.dense_chars <= max(extracted, TINY_ARTICLE_CHARS):
        return article
    clean_article(region.element, rules, title=title)
    return region.element if text_size(region.element) > extracted else article


def _widen_to_column(
    root: etree._Element, article: etree._Element, rules: frozenset[str], title: str
) -> etree._Element:
    """``article``, or the text cells of its layout-table column (cleaned like an article) when
    its cell is a fraction of them (``tables.widen_to_column``)."""
    widened = widen_to_column(_body(root), article)
    if widened is None:
        return article
    clean_article(widened, rules, title=title)
    return widened


def _titled(selection: _Selection, article: Optional[etree._Element], rules: frozenset[str]) -> bool:
    """True when ``article`` is readability's selection, opening with the page's title heading,
    and not tiny (``recovery.titled``): the article from its title on, however short. A
    page's main region or a second opinion holds more text beside such an article (teaser
    cards, link lists), not more of it."""
    return (
        "recovery.titled" in rules
        and selection.titled
        and article is not None
        and article is selection.article
        and text_size(article) >= TINY_ARTICLE_CHARS
    )


def _recover(
    root: etree._Element, selection: _Selection, rules: frozenset[str], title: str, page_chars: int
) -> Optional[etree._Element]:
    """The article readability selected, cleaned, or what the ``recovery.*`` rules take instead
    (its table column, the main region for a tiny or a fragmentary article). ``root`` is the
    pre-cleaned page, whose text size is ``page_chars`` (readability works on a copy of it, and
    nothing before the last recovery changes it)."""
    article = selection.article
    for run in selection.teasers:
        drop(run)
    if article is not None:
        clean_article(article, rules, title=title)
    if article is not None and "recovery.table_column" in rules:
        article = _widen_to_column(root, article, rules, title)
    if "recovery.tiny" in rules and (article is None or text_size(article) < TINY_ARTICLE_CHARS):
        return _recover_tiny(root, article, rules, title)
    if article is not None and "recovery.fragment" in rules and not _titled(selection, article, rules):
        return _recover_fragment(root, article, rules, title, page_chars)
    return article


def extract_html(
    html: str, *, url: Optional[str] = None, mode: str = "markdown", rules: Iterable[str] = DEFAULT_RULES
) -> Extraction:
    """Extract a page's main content.

    Uses readability-lxml (``summary(html_partial=True)``) on the pre-cleaned page, removes
    the boilerplate left inside the article, and renders it in ``mode`` (``"markdown"`` or
    ``"text"``); ``url`` (or the page's ``<base href>``) makes relative links absolute in markdown. When the article is an
    implausibly small part of the page's main text region, that region is returned instead.
    When the article keeps almost nothing of a page that has text, trafilatura (an optional
    extra) is asked for a second opinion (``extractor="trafilatura"``, see ``second``).
    When there is no article (e.g. a JavaScript-only page) falls back to the page's visible
    text (``extractor="visible_text"``); the text may then be empty. ``rules`` names the
    cleaning rules to apply (``rules.RULES``; all by default; for benchmarks). Never raises
    for any input except ``ValueError`` for an unknown ``mode`` or rule name.
    """
    _check_mode(mode)
    rules = check_rules(rules)
    root = _parse(html, "markup.repair" in rules)
    if root is None:
        return Extraction(title="", text="", extractor="visible_text")
    title = _page_title(root)
    link_base = _link_base(root, url)
    preclean(root, rules)
    page_chars = text_size(_body(root))
    selection = _article(root, rules, title)
    text = ""
    article = _recover(root, selection, rules, title, page_chars)
    titled = _titled(selection, article, rules)
    if article is not None and article is selection.article:
        for box in selection.boxes:  # after the recovery rules, which judge readability's selection as it was
            drop(box)
    if article is not None:
        text = render_element(article, mode, base_url=link_base)
    if "recovery.second_opinion" in rules and not titled and near_empty(_chars(text), page_chars):
        other = second_opinion(html, url=url, mode=mode, include_comments=COMMENT_RULE not in rules)
        if other is not None and _chars(other) >= max(2 * _chars(text), NEAR_EMPTY_CHARS):
            return Extraction(title=title, text=other, extractor=SECOND_EXTRACTOR)
    if text.strip():
        return Extraction(title=title, text=text, extractor="readability")
    return Extraction(title=title, text=_visible_text(html, mode, "markup.repair" in rules), extractor="visible_text")
