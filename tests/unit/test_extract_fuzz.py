"""extract_html over generated HTML never raises: its docstring promises a result for any
input (``ValueError`` only for an unknown mode or rule name). The pages are built from the
structures extraction treats specially (layout tables, ``<br>`` runs, headings, quotations,
boilerplate class words, hidden blocks, comments, processing instructions), nested at random,
and also mangled as text (tags cut, unclosed), so the parser's repairs are covered too."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_examples import examples
from unicode_text import UTF8_CHARS

from websearch_sync.extract.article import Extraction, extract_html
from websearch_sync.extract.rules import DEFAULT_RULES, RULES

SETTINGS = settings(deadline=None, max_examples=examples(100, deep=400), suppress_health_check=[HealthCheck.too_slow])

TAGS = [
    "div", "p", "span", "a", "h1", "h2", "h3", "table", "tr", "td", "th", "ul", "ol", "li", "blockquote",
    "section", "article", "aside", "nav", "header", "footer", "pre", "code", "em", "strong", "form", "br",
    "img", "figure", "figcaption", "svg", "title", "meta", "noscript", "script", "style", "iframe", "dl", "dd",
]  # fmt: skip
CLASSES = ["", "content", "article", "post", "sidebar", "comments", "comment-list", "related", "nav", "footer",
           "caption", "byline", "share", "teaser", "tab-panel", "hidden", "main", "entry-content"]  # fmt: skip
ATTRIBUTES = st.one_of(
    st.just(""),
    st.sampled_from(CLASSES).map(lambda name: " class='%s'" % name),
    st.sampled_from(CLASSES).map(lambda name: " id='%s'" % name),
    st.just(" style='display:none'"),
    st.just(" hidden"),
    st.sampled_from(["#top", "/a", "http://example.org/x", "javascript:x()"]).map(lambda href: " href='%s'" % href),
    st.integers(1, 40).map(lambda span: " colspan='%d' rowspan='%d'" % (span, span)),
)
WORDS = st.sampled_from(
    [
        "The engine idles rough after the rebuild and the float height is set to spec.",
        "Read more",
        "Advertisement",
        "Related:",
        "Posted on 3 May 2016",
        "Share",
        "x",
        "",
        " ",
        "\u00a0",
        "Ünïcödé テキスト",
        "&amp;",
        "&#0;",
        "\x00",
        "Carburettor idles rough after rebuild",
        "Lorem ipsum dolor sit amet, " * 12,
    ]
)
LEAVES = st.one_of(
    WORDS,
    st.just("<br>"),
    st.just("<br><br>"),
    st.just("<!-- a comment <h1>x</h1> -->"),
    st.just("<?php echo 1; ?>"),
    st.just("<![CDATA[ data ]]>"),
    st.text(UTF8_CHARS, max_size=30),
)


def _element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(
        lambda tag, attributes, inner: "<%s%s>%s</%s>" % (tag, attributes, "".join(inner), tag),
        st.sampled_from(TAGS),
        ATTRIBUTES,
        st.lists(children, max_size=5),
    )


FRAGMENTS = st.recursive(LEAVES, _element, max_leaves=60)
#: A table layout (a forum thread, an old home page): rows of a narrow cell and a cell of
#: running text with random markup around it, which the table-column recovery copies.
ROW = st.builds(
    lambda side, before, after: (
        "<tr><td>%s</td><td><div>%s<div>%s</div>%s</div></td></tr>"
        % (side, before, "The engine idles rough after the rebuild and the float height is set to spec. " * 3, after)
    ),
    WORDS,
    FRAGMENTS,
    FRAGMENTS,
)
TABLES = st.lists(ROW, min_size=2, max_size=6).map(lambda rows: "<table>%s</table>" % "".join(rows))
PAGES = st.builds(
    lambda title, body: "<html><head><title>%s</title></head><body>%s</body></html>" % (title, "".join(body)),
    WORDS,
    st.lists(st.one_of(FRAGMENTS, TABLES), min_size=1, max_size=6),
)
MANGLED = st.builds(lambda page, cut: page[:cut], PAGES, st.integers(0, 4000))
RULE_SETS = st.one_of(st.just(DEFAULT_RULES), st.sets(st.sampled_from(sorted(rule.name for rule in RULES))))


@SETTINGS
@given(page=st.one_of(PAGES, MANGLED), mode=st.sampled_from(["text", "markdown"]), rules=RULE_SETS)
def test_extract_html_returns_an_extraction_for_any_generated_page(page, mode, rules):
    result = extract_html(page, url="http://example.org/page", mode=mode, rules=rules)
    assert isinstance(result, Extraction)
    assert isinstance(result.title, str) and isinstance(result.text, str)
    assert result.extractor in ("readability", "visible_text", "trafilatura")
