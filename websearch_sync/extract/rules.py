"""The cleaning rules of extraction, by name, each one switchable.

``extract_html(..., rules=...)`` takes a set of rule names (default ``DEFAULT_RULES``:
all of them); ``bench/extraction.py --ablate`` switches each one off in turn and
measures what it is worth on each development set. A rule is one of:

- a tag or a group of ``class``/``id`` words removed before readability (stage
  ``page``) or inside the article readability selected (stage ``article``);
- a named behaviour of ``boilerplate`` or ``region`` (no tags, no words), looked up
  by its name where it runs.

Every rule is generic: tags, class/id words, link density, label phrases; none
names a site, a page or a URL.
"""

import functools
from dataclasses import dataclass
from typing import FrozenSet, Iterable

__all__ = ["Rule", "RULES", "RULE_NAMES", "DEFAULT_RULES", "check_rules", "stage_tags", "stage_words"]


@dataclass(frozen=True)
class Rule:
    """One switchable cleaning rule: ``stage`` is ``page`` (before readability),
    ``readability`` (readability's own cleaning), ``article`` (inside the selected
    article) or ``recovery``; ``tags`` and ``words``
    are what it removes (both empty for a behaviour looked up by name)."""

    name: str
    stage: str
    summary: str
    tags: FrozenSet[str] = frozenset()
    words: FrozenSet[str] = frozenset()


def _rule(name: str, stage: str, summary: str, tags: str = "", words: str = "") -> Rule:
    return Rule(name, stage, summary, frozenset(tags.split()), frozenset(words.split()))


RULES = (
    # --- before readability: what is never the article, on the whole page
    _rule("page.quotations", "page", "keep <blockquote> (embedded posts) as content"),
    _rule("page.heading_anchors", "page", "unwrap in-page links inside headings"),
    _rule("page.nav", "page", "<nav>", tags="nav"),
    _rule("page.header", "page", "<header>", tags="header"),
    _rule("page.footer", "page", "<footer>", tags="footer"),
    _rule("page.aside", "page", "<aside>", tags="aside"),
    _rule("page.share", "page", "share/social blocks", words="share sharing social"),
    _rule("page.related", "page", "related/promo blocks", words="related promo outbrain taboola"),
    _rule("page.sidebar", "page", "sidebars and widgets", words="sidebar widget"),
    _rule("page.newsletter", "page", "newsletter sign-up", words="newsletter subscribe subscription"),
    _rule("page.ads", "page", "ad blocks", words="advert advertisement ad ads"),
    _rule("page.comments", "page", "comment sections", words="comment comments"),
    _rule("page.breadcrumbs", "page", "breadcrumbs", words="breadcrumb breadcrumbs"),
    # --- readability's own cleaning of the article it selected
    _rule("readability.keep_lists", "readability", "readability's cleaning keeps lists and tables"),
    _rule("readability.no_retry", "readability", "a short article is kept, not selected again without "
          "readability's filter of unlikely blocks"),
    # --- inside the article readability selected
    _rule("article.title", "article", "a single <h1> repeating the page title"),
    _rule("article.figcaption", "article", "<figcaption>", tags="figcaption"),
    _rule("article.nav", "article", "<nav>", tags="nav"),
    _rule("article.aside", "article", "<aside>", tags="aside"),
    _rule("article.header", "article", "<header>", tags="header"),
    _rule("article.footer", "article", "<footer>", tags="footer"),
    _rule("article.captions", "article", "captions, credits, galleries",
          words="caption captions credit credits gallery"),
    _rule("article.bylines", "article", "bylines and datelines",
          words="byline bylines author authors timestamp dateline"),
    _rule("article.share", "article", "share bars", words="share sharing social"),
    _rule("article.related", "article", "related/teaser/recirculation blocks",
          words="related promo teaser trending popular recirc recirculation outbrain taboola "
                "carousel slider swiper rail"),
    _rule("article.sidebar", "article", "sidebars and widgets", words="sidebar widget"),
    _rule("article.newsletter", "article", "newsletter sign-up and calls to action",
          words="newsletter subscribe subscription cta"),
    _rule("article.ads", "article", "ad blocks", words="advert advertisement ad ads"),
    _rule("article.comments", "article", "comment blocks", words="comment comments"),
    _rule("article.navigation", "article", "navigation, tags, print links",
          words="footer nav breadcrumb breadcrumbs tags print"),
    _rule("article.deks", "article", "standfirsts, deks, kickers, meta lines",
          words="standfirst dek subtitle kicker eyebrow meta"),
    _rule("article.labels", "article", 'label lines ("Advertisement", "Share this", "Read more")'),
    _rule("article.dates", "article", 'publication-date lines ("Updated at 1:23 p.m.")'),
    _rule("article.link_leads", "article", 'link leads ("Related: <a>...</a>")'),
    _rule("article.link_dense", "article", "blocks that are (nearly) all link text"),
    _rule("article.link_spans", "article", "a <span> of three or more links inside a paragraph"),
    # --- after readability
    _rule("recovery.fragment", "recovery", "an implausibly small extraction is widened to the main text region "
          "(which leaves out comments and reviews)",
          words="comment comments review reviews reply replies respond discussion"),
)

RULE_NAMES = frozenset(rule.name for rule in RULES)
DEFAULT_RULES = RULE_NAMES


def check_rules(rules: Iterable[str]) -> FrozenSet[str]:
    """``rules`` as a frozenset; ``ValueError`` naming the first unknown rule."""
    rules = frozenset(rules)
    unknown = sorted(rules - RULE_NAMES)
    if unknown:
        raise ValueError("unknown extraction rule %r (known: %s)" % (unknown[0], ", ".join(sorted(RULE_NAMES))))
    return rules


@functools.lru_cache(maxsize=256)
def stage_tags(stage: str, rules: FrozenSet[str]) -> FrozenSet[str]:
    """The tags removed at ``stage`` by the enabled ``rules``."""
    return frozenset(tag for rule in RULES if rule.stage == stage and rule.name in rules for tag in rule.tags)


@functools.lru_cache(maxsize=256)
def stage_words(stage: str, rules: FrozenSet[str]) -> FrozenSet[str]:
    """The class/id words whose blocks are removed at ``stage`` by the enabled ``rules``."""
    return frozenset(word for rule in RULES if rule.stage == stage and rule.name in rules for word in rule.words)
