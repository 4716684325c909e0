"""The cleaning rules of extraction, by name, each one switchable.

``extract_html(..., rules=...)`` takes a set of rule names (default ``DEFAULT_RULES``:
all of them); ``bench/extraction.py --ablate`` switches each one off in turn and
measures what it is worth on each development set. A rule is one of:

- a tag or a group of ``class``/``id`` words removed before readability (stage
  ``page``) or inside the article readability selected (stage ``article``);
- a repair of the markup before it is parsed (stage ``markup``);
- a named behaviour of ``boilerplate`` or ``region`` (no tags, no words), looked up
  by its name where it runs.

Every rule is generic: tags, class/id words, link density, label phrases; none
names a site, a page or a URL.
"""

import functools
from collections.abc import Iterable
from dataclasses import dataclass

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


@dataclass(frozen=True)
class Rule:
    """One switchable cleaning rule: ``stage`` is ``markup`` (the text, before parsing),
    ``page`` (before readability),
    ``readability`` (readability's own cleaning), ``article`` (inside the selected
    article) or ``recovery``; ``tags`` and ``words`` are what it removes (both empty for a
    behaviour looked up by name); ``long_blocks``: its words remove a block even when it
    holds several long paragraphs (slideshow captions); ``prefixes``: those of its words that
    name a block at the start of a longer class word too (``relatedposts``: a name written as
    one word, where ``related-posts`` and ``relatedPosts`` split into words already)."""

    name: str
    stage: str
    summary: str
    tags: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()
    long_blocks: bool = False
    prefixes: frozenset[str] = frozenset()


def _rule(name: str, stage: str, summary: str, tags: str = "", words: str = "", long_blocks: bool = False) -> Rule:
    """A ``Rule``; a word of ``words`` written with a trailing ``*`` is one of its ``prefixes``."""
    return Rule(
        name,
        stage,
        summary,
        frozenset(tags.split()),
        frozenset(word.rstrip("*") for word in words.split()),
        long_blocks,
        frozenset(word[:-1] for word in words.split() if word.endswith("*")),
    )


RULES = (
    # --- on the markup, before parsing
    _rule("markup.repair", "markup", "close an unclosed <title>, drop early </body>/</html> (libxml2 loses the page)"),
    # --- before readability, on the whole page
    _rule("page.br_paragraphs", "page", "<br><br> runs inside td/th/div split into paragraphs"),
    _rule("page.tab_panels", "page", "hidden tab panels (role=tabpanel, class word 'tab') are kept"),
    _rule(
        "page.hidden_prose",
        "page",
        "hidden blocks that continue the text beside them (a long paragraph in both) are kept",
    ),
    _rule("page.quotations", "page", "keep <blockquote> (embedded posts) as content"),
    _rule("page.heading_anchors", "page", "unwrap in-page links inside headings"),
    _rule(
        "page.form_boxes",
        "page",
        "the box around a form (newsletter sign-up, search, contact) unless it holds 30% of the page's text",
    ),
    _rule("page.landmarks", "page", "<nav>, <header>, <footer>, <aside>", tags="nav header footer aside"),
    # --- readability's own cleaning of the article it selected
    _rule("readability.keep_lists", "readability", "readability's cleaning keeps lists and tables"),
    _rule(
        "readability.code_blocks",
        "readability",
        "readability's cleaning keeps the boxes around a <pre> (it drops one of under 25 characters)",
    ),
    _rule(
        "readability.heading_boxes",
        "readability",
        "readability's cleaning keeps a box that holds only a heading followed by running text (a page built of "
        "components, one box a heading), which it drops when under 25 characters",
    ),
    _rule(
        "readability.heading_slugs",
        "readability",
        "readability's class weight of a heading leaves out an id that is a slug of the heading's text "
        "('1.-ai-shines-a-light-on-cumbersome-toolchains' matched its negative word 'tool' and dropped the heading)",
    ),
    _rule(
        "readability.linked_headings",
        "readability",
        "readability's cleaning keeps a heading that is mostly a link when a long paragraph follows it: a section "
        "named after what it links to (a product of a roundup), not a teaser's headline",
    ),
    _rule(
        "readability.no_retry",
        "readability",
        "a short article is kept, not selected again without readability's filter of unlikely blocks",
    ),
    _rule(
        "readability.sibling_gaps",
        "readability",
        "a paragraph, list, quotation or code block between two blocks readability appended is appended too when it "
        "is running text (100+ characters, link density 0.3 at most): readability's test reads only a paragraph's "
        "text before its first link or emphasis",
    ),
    _rule(
        "readability.segment_gaps",
        "readability",
        "a block of the best candidate's tag and classes (or one of its content class names, as readability "
        "reads them) between two that readability merged into it (an article written as sections, a how-to's "
        "steps) is merged too when it is running text: readability merges one only when it scores a twentieth of "
        "the best, which a short section or a list does not",
    ),
    _rule(
        "readability.data_tables",
        "readability",
        "readability's pick that is a data table's body (its table has a caption, a header row or header cells) "
        "is taken with its table (caption and header row) and the paragraphs of running text just before it "
        "(what the table lists)",
    ),
    _rule(
        "readability.wrappers",
        "readability",
        "readability's best candidate is taken with the wrappers around it that hold no running text of their own "
        "(a 'Read more' expander, an ad slot), so that the article's paragraphs beside a wrapper are its siblings",
    ),
    _rule(
        "readability.title_boxes",
        "readability",
        "a block appended after an article that holds its title heading is left out when it opens with a "
        "heading of its own and shares no class with the article (an 'about us' box)",
    ),
    _rule(
        "readability.title_start",
        "readability",
        "a block appended before an article that holds its title heading is left out (the article starts at its title)",
    ),
    # --- inside the article readability selected
    _rule(
        "article.title",
        "article",
        "a single <h1> repeating the page title (one holds the other, they share 3/4 of their words, or the title "
        "holds all of its 4+ words)",
    ),
    _rule("article.title_line", "article", "the article's first text line when it is the page title (any tag)"),
    _rule(
        "article.captions",
        "article",
        "captions, credits, galleries",
        words="caption captions credit credits copyright gallery",
        long_blocks=True,
    ),
    _rule(
        "article.bylines", "article", "bylines and datelines", words="byline bylines author authors timestamp dateline"
    ),
    _rule(
        "article.related",
        "article",
        "related/teaser/recirculation blocks (also a class word that starts with 'related': 'relatedposts')",
        words="related* promo teaser trending popular recirc recirculation outbrain taboola carousel slider swiper rail",
    ),
    _rule(
        "article.inner_boxes",
        "article",
        "sidebar, fact and info boxes and photo captions (class words) inside the article",
        words="sidebar sidebox infobox factbox photocaption imagecaption figcaption",
    ),
    _rule(
        "article.navigation",
        "article",
        "navigation, tags, print links",
        words="footer nav breadcrumb breadcrumbs tags print",
    ),
    _rule(
        "article.labels",
        "article",
        'label lines ("Advertisement", "Share this", "Read more") and a button left as its shortcode '
        '("[button link=...] Send us your review[/button]")',
    ),
    _rule("article.dates", "article", 'publication-date lines ("Updated at 1:23 p.m.")'),
    _rule(
        "article.meta_lines",
        "article",
        'copyright, "Posted by", share, byline and reading-time lines ("Copyright 2016 ... All rights reserved", '
        '"By Name, role | date", "Reviewed by Name, MD", "Additional reporting by Name", "5 min read")',
    ),
    _rule(
        "article.contact_lines",
        "article",
        "a reporter's contact line, a site's subscription pitch (under 600) and its call to follow it under 300 characters "
        '("Name may be reached at name@example.com", "If you enjoyed this article, ... join", "Follow us on Twitter")',
    ),
    _rule(
        "article.link_leads",
        "article",
        'link leads ("Related: <a>...</a>", a wiki\'s "Main article: <a>...</a>") and short note boxes '
        '(role="note") holding a link ("For other uses, see <a>...</a>")',
    ),
    _rule(
        "article.link_dense",
        "article",
        "blocks (not headings) that are (nearly) all link text; of a hover card inside a sentence (a span of links) "
        "only the card, not the name before it or a sentence that is mostly link text by the card's links alone",
    ),
    _rule("article.link_spans", "article", "a <span> of three or more links inside a paragraph"),
    _rule(
        "article.removal_cap",
        "article",
        "a rule whose removals hold over half of the article is cancelled for the page",
    ),
    _rule(
        "article.teaser_runs",
        "article",
        "in an article selected from its title heading on, a run of three or more teaser cards (a headline link "
        "first, a short summary) with no article text after it",
    ),
    _rule(
        "article.comments",
        "article",
        "reader comment threads (class/id words, compounds such as 'commentlist' split) unless little else is left",
    ),
    _rule(
        "article.end_headings",
        "article",
        "the headings the article ends with, no text after them: what is left of a box removed or left out "
        "('Like this:', '4 responses', 'Earlier reports'); an article of nothing but headings keeps them",
    ),
    # --- after readability
    _rule(
        "recovery.table_column",
        "recovery",
        "an article whose table cell holds under 60% of its column's "
        "running text is widened to the column's text cells (navigation, sidebar and link-dense cells left out)",
    ),
    _rule(
        "recovery.titled",
        "recovery",
        "an article readability selected from the page's title heading on (100 characters or more) stands: "
        "neither widened to the main region as a fragment nor replaced by the second opinion",
    ),
    _rule(
        "recovery.tiny",
        "recovery",
        "an article under 100 characters (or none) is replaced by the main text "
        "region when that holds more, before the whole-page fallback (comments and reviews left out)",
        words="comment comments review reviews reply replies respond discussion",
    ),
    _rule(
        "recovery.second_opinion",
        "recovery",
        "a near-empty extraction of a page with text is asked of "
        "trafilatura (optional extra) before the whole-page fallback",
    ),
    _rule(
        "recovery.fragment",
        "recovery",
        "an implausibly small extraction is widened to the main text region (which leaves out comments and reviews)",
        words="comment comments review reviews reply replies respond discussion",
    ),
)

RULE_NAMES = frozenset(rule.name for rule in RULES)
#: Words that name a block at the start of a longer class word too (``Rule.prefixes``), in a fixed order.
COMPOUND_PREFIXES = tuple(sorted(prefix for rule in RULES for prefix in rule.prefixes))
#: The rule ``include_comments`` switches off.
COMMENT_RULE = "article.comments"
DEFAULT_RULES = RULE_NAMES


def check_rules(rules: Iterable[str]) -> frozenset[str]:
    """``rules`` as a frozenset; ``ValueError`` naming the first unknown rule."""
    rules = frozenset(rules)
    unknown = sorted(rules - RULE_NAMES)
    if unknown:
        raise ValueError("unknown extraction rule %r (known: %s)" % (unknown[0], ", ".join(sorted(RULE_NAMES))))
    return rules


@functools.lru_cache(maxsize=256)
def stage_tags(stage: str, rules: frozenset[str]) -> frozenset[str]:
    """The tags removed at ``stage`` by the enabled ``rules``."""
    return frozenset(tag for rule in RULES if rule.stage == stage and rule.name in rules for tag in rule.tags)


@functools.lru_cache(maxsize=256)
def stage_words(stage: str, rules: frozenset[str], long_blocks_only: bool = False) -> frozenset[str]:
    """The class/id words whose blocks are removed at ``stage`` by the enabled ``rules``
    (with ``long_blocks_only``: the words of rules with ``long_blocks``)."""
    return frozenset(
        word
        for rule in RULES
        if rule.stage == stage and rule.name in rules and (rule.long_blocks or not long_blocks_only)
        for word in rule.words
    )
