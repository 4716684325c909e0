"""Markdown extraction escapes the page's own text where it would read as markdown (the
review's item: a paragraph "# x" came out as a heading, "*stars*" as emphasis), the minimal way
CommonMark needs, and text mode never escapes. What the markdown means is read by two real
renderers, markdown-it-py (CommonMark, GFM tables and strikethrough) and cmarkgfm (GitHub's
cmark-gfm, with its autolinks), and the rendered HTML read back with an HTML parser."""

import html

import cmarkgfm
import pytest
from bs4 import BeautifulSoup
from markdown_it import MarkdownIt

from websearch_sync.extract import extract_html
from websearch_sync.extract.mdescape import escape_inline, escape_line_start

MARKDOWN_IT = MarkdownIt("commonmark").enable(["table", "strikethrough"])
RENDERERS = {"markdown-it": MARKDOWN_IT.render, "github": cmarkgfm.github_flavored_markdown_to_html}
LEAD = "This paragraph is long enough for the article to be the page's main content, as it is. " * 3
PAGE = (
    "<html><head><title>Escapes</title></head><body><article><h1>The page's heading</h1>"
    "<p>%s</p><p>%s</p><p>%s</p></article></body></html>"
)

PAGE_TEXTS = [
    "# not a heading",
    "###### not a heading either",
    "* not a bullet",
    "- not a bullet",
    "+ not a bullet",
    "1. not a list",
    "2) not a list",
    "> not a quote",
    "text with *stars* and **double stars** and _under_ and __double under__",
    "code `in backticks` and ``double``",
    "a link [x](https://y.example/) and an image ![x](https://evil.example/leak.png?q=secret)",
    "[ref]: https://evil.example/",
    "<img src=https://evil.example/x.png> and <script>alert(1)</script> and <!-- c --> and <https://auto.example/>",
    "Tom &amp; Jerry &lt;b&gt; &#60;i&#62; &copy;",
    "~~struck~~ and ~single~",
    "back\\slash \\[x\\] \\* and a trailing backslash \\",
    "=====",
    "---",
    "***",
    "___",
    "<typename T> and std::vector<int>",
]
#: Text that must come out exactly as it is: nothing in it can be markup (the escaping is minimal).
VERBATIM = ["snake_case_name", "2 * 3 = 6", "a < b and c > d", "1.5 million", "C# and F#", "x_1 * y_2", "AT&T"]


def extracted(text: str, mode: str) -> str:
    return extract_html(PAGE % (LEAD, html.escape(text), LEAD), url="https://page.example/", mode=mode).text


@pytest.fixture(params=sorted(RENDERERS))
def rendered(request):
    render = RENDERERS[request.param]
    return lambda markdown: BeautifulSoup(render(markdown), "html.parser")


@pytest.mark.parametrize("text", PAGE_TEXTS)
def test_page_text_renders_as_the_same_text_not_as_formatting(rendered, text):
    soup = rendered(extracted(text, "markdown"))
    paragraphs = [" ".join(p.get_text().split()) for p in soup.find_all("p")]
    assert " ".join(text.split()) in paragraphs
    assert [h.get_text() for h in soup.find_all(["h1", "h2", "h3", "h4", "h5", "h6"])] == ["The page's heading"]
    formatting = ["em", "strong", "code", "img", "blockquote", "li", "del", "hr", "table", "script", "pre"]
    assert soup.find(formatting) is None
    # GitHub links a bare address in text (its autolinks): the same text, no link the page wrote
    assert all(a.get_text() in text and a.get_text().startswith("https://") for a in soup.find_all("a"))


@pytest.mark.parametrize("text", PAGE_TEXTS + VERBATIM)
def test_text_mode_is_never_escaped(text):
    assert " ".join(text.split()) in extracted(text, "text").split("\n\n")


@pytest.mark.parametrize("text", VERBATIM)
def test_what_cannot_be_markup_is_not_escaped(rendered, text):
    markdown = extracted(text, "markdown")
    assert text in markdown.split("\n\n")
    assert text in [p.get_text() for p in rendered(markdown).find_all("p")]


PAGE_MARKUP = [
    # a list item's text that opens a list, a line after <br> that opens a block
    ("<ul><li>1. first</li><li>- second</li></ul>", ["1. first", "- second"], "li"),
    ("<p>line one<br>2) second line<br># third line<br>=====</p>", [], "p"),
    # a heading's text that ends with a closing sequence of "#", or holds emphasis marks
    ("<h2>Numbers ##</h2><h3>*not emphasis*</h3>", ["Numbers ##", "*not emphasis*"], "h2, h3"),
    # a link's label with brackets; "!" before a link does not make it an image
    (
        "<p>Wow!<a href='https://a.example/'>see [1] and *this*</a>, said the reader of the page, who read all of it.</p>",
        ["see [1] and *this*"],
        "a",
    ),
    (
        "<table><tr><th>a*b</th><th>c|d</th></tr><tr><td>_e_</td><td>`f`</td></tr></table>",
        ["a*b", "c|d", "_e_", "`f`"],
        "th, td",
    ),
]


@pytest.mark.parametrize("markup, texts, selector", PAGE_MARKUP)
def test_page_structure_keeps_its_text_literal(rendered, markup, texts, selector):
    page = "<html><head><title>Escapes</title></head><body><article><p>%s</p>%s<p>%s</p></article></body></html>"
    markdown = extract_html(page % (LEAD, markup, LEAD), url="https://page.example/", mode="markdown").text
    soup = rendered(markdown)
    assert soup.find(["em", "strong", "code", "img", "blockquote", "ol", "hr"]) is None
    if texts:
        assert [" ".join(node.get_text().split()) for node in soup.select(selector)] == texts
    else:
        assert "line one 2) second line # third line =====" in " ".join(soup.get_text().split())
        assert soup.find(["h1", "h2", "li"]) is None


def test_the_escapes_are_linear_on_long_runs():
    # each decision looks at a character's two neighbours: a run costs its length
    for run in ("*" * 200_000, "_" * 200_000, "=" * 200_000 + "x", "#" * 200_000, "\\" * 200_000, "&#" * 100_000):
        assert len(escape_line_start(escape_inline(run))) >= len(run)


@pytest.mark.parametrize("code", ["`x", "x`", "``", "a``b", "` `", "a`b"])
def test_inline_code_with_backticks_renders_as_the_same_code(rendered, code):
    """A code span's fence is longer than any run of backticks inside, and content that starts or
    ends with one is padded with a space (CommonMark, code spans): ``\\`x`` came out as
    ``\\`\\`\\`x\\`\\```, no code span, and ``\\`\\``` as six backticks of text."""
    page = "<html><head><title>Code</title></head><body><article><p>%s</p><p>Run <code>%s</code> here.</p><p>%s</p></article></body></html>"
    markdown = extract_html(page % (LEAD, html.escape(code), LEAD), url="https://page.example/", mode="markdown").text
    assert [node.get_text() for node in rendered(markdown).find_all("code")] == [code]


@pytest.mark.parametrize(
    "markup, codes",
    [
        ("<code>a</code><code>b</code>", ["ab"]),
        ("<code>a`</code><code>b</code>", ["a`b"]),
        ("<code>`</code><code>`</code>", ["``"]),
        ("<code>a </code><code>b</code><code> c</code>", ["a b c"]),
        ("<code>a</code> <code>b</code>", ["a", "b"]),
        ("<code>a</code><code>&nbsp;</code><code>b</code>", ["a b"]),
        ("<code>a</code><code> </code><code>b</code>", ["a b"]),
    ],
)
def test_adjacent_inline_code_renders_as_the_code_a_browser_shows(rendered, markup, codes):
    """``<code>`` elements with nothing between them are one span: written as two (```a``b```),
    they read as one span holding ``a``b`` (or as text and a stray fence)."""
    page = "<html><head><title>Code</title></head><body><article><p>%s</p><p>Run %s here.</p><p>%s</p></article></body></html>"
    markdown = extract_html(page % (LEAD, markup, LEAD), url="https://page.example/", mode="markdown").text
    assert [node.get_text() for node in rendered(markdown).find_all("code")] == codes


@pytest.mark.parametrize(
    "markup",
    [
        "x<code>a </code>b",
        "x<code>a  </code>b",
        "x<code> a</code>b",
        "x<code> a </code>b",
        "x<code>a </code><em>b</em>",
        "x<code>a </code><code>b</code>c",
        "x<code>a</code><code> </code><code>b</code>c",
        "x<code> </code>y",  # only a space: no span, the space a browser shows ("xy" before)
        "x <code>  </code> y",
    ],
)
def test_the_spaces_at_a_code_spans_edges_stay_where_a_browser_shows_them(rendered, markup):
    """A lone ``<code>a </code>b`` came out as ```a`b``, which reads "ab": the span's edge spaces
    were kept only between two spans. They stand outside the span now (```a` b``); the paragraph
    reads as the page's own text does."""
    page = (
        "<html><head><title>Code</title></head><body><article><p>%s</p><p id=c>%s</p><p>%s</p></article></body></html>"
    )
    markdown = extract_html(page % (LEAD, markup, LEAD), url="https://page.example/", mode="markdown").text
    shown = " ".join(BeautifulSoup(page % (LEAD, markup, LEAD), "html.parser").find(id="c").get_text().split())
    paragraphs = [" ".join(p.get_text().split()) for p in rendered(markdown).find_all("p")]
    assert shown in paragraphs, (markdown, shown)


@pytest.mark.parametrize(
    "href, expected",
    [
        ("https://en.wikipedia.org/wiki/Foo_(bar)", "https://en.wikipedia.org/wiki/Foo_%28bar%29"),
        ("https://x.example/q?a=(1)&b=2#frag(x)", "https://x.example/q?a=%281%29&b=2#frag%28x%29"),
        ("https://x.example/s?q=a\\*b", "https://x.example/s?q=a%5C*b"),
        ("https://x.example/a%20b", "https://x.example/a%20b"),
    ],
)
def test_a_link_whose_address_holds_parentheses_or_a_backslash_is_a_link(rendered, href, expected):
    """A link destination cannot hold an unbalanced ``(`` nor a ``\\`` as it is (CommonMark reads the
    first as no link, the second as an escape): ``Foo_(bar)``, with only its ``)`` encoded, was no
    link at all; ``(``, ``)`` and ``\\`` are percent-encoded, as whitespace is, and nothing twice."""
    page = '<html><head><title>Links</title></head><body><article><p>%s</p><p>See <a href="%s">the page</a>.</p><p>%s</p></article></body></html>'
    markdown = extract_html(page % (LEAD, html.escape(href), LEAD), url="https://page.example/", mode="markdown").text
    assert [a.get("href") for a in rendered(markdown).find_all("a")] == [expected]
