"""format_results(..., "markdown"): titles, snippets and URLs render as the same text, never as
links, images, HTML or entities (issue 23 point 8, issue 24 point 5).

The output is rendered by two renderers, markdown-it-py (CommonMark, tables and strikethrough
on) and cmarkgfm (GitHub's own cmark-gfm, with its autolinks), and the rendered HTML is read back
with an HTML parser.
"""

import html
from urllib.parse import unquote

import cmarkgfm
import pytest
from bs4 import BeautifulSoup
from markdown_it import MarkdownIt

from websearch_sync import tool

MARKDOWN_IT = MarkdownIt("commonmark").enable(["table", "strikethrough"])
RENDERERS = {"markdown-it": MARKDOWN_IT.render, "github": cmarkgfm.github_flavored_markdown_to_html}

HOSTILE_TEXTS = [
    "![x](https://evil.example/leak.png?q=secret)",
    "[click](javascript:alert(1))",
    "<img src=https://evil.example/x.png>",
    "<script>alert(1)</script>",
    "<typename T> and std::vector<int>",
    "Tom &amp; Jerry &lt;b&gt; &#60;i&#62;",
    "*bold* _em_ `code` ~~gone~~ | a | b |",
    "# not a heading",
    "1. not a list",
    "- not a list",
    "> not a quote",
    "back\\slash \\[x\\]",
    "<https://autolink.example/>",
    "[ref]: https://evil.example/",
    "see https://evil.example/x.png or www.evil.example/y.png",
    # "_" before "www." (a word character: no \b) still opens GitHub's www autolink, which then took
    # the backslash escaping the "<" after it, and the rest became a raw <img> tag
    "_www.evil.example:<img src=https://evil.example/x.png>",
    "WWW.evil.example",
]


@pytest.fixture(params=sorted(RENDERERS))
def rendered(request):
    render = RENDERERS[request.param]
    return lambda markdown: BeautifulSoup(render(markdown), "html.parser")


def search(title, snippet, url="https://a.example/page"):
    return {
        "items": [{"title": title, "url": url, "snippet": snippet, "provider": "x", "rank": 1}],
        "provider_meta": {},
    }


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_titles_and_snippets_render_as_the_same_text(rendered, text):
    soup = rendered(tool.format_results(search("Title " + text, "Snippet " + text), "markdown"))
    links = soup.find_all("a")
    assert [a["href"] for a in links] == ["https://a.example/page"]
    assert links[0].get_text() == "Title " + text
    assert soup.find("img") is None and soup.find("script") is None
    assert ("Snippet " + text) in soup.get_text()
    assert soup.find(["h1", "h2", "blockquote", "code", "em", "strong", "del", "table"]) is None


@pytest.mark.parametrize(
    "url",
    [
        "https://a.example/x)![x](https://evil.example/leak.png)",
        "https://a.example/x)[click](javascript:alert(1))",
        "https://a.example/a>b<img src=x>",
        "https://a.example/?a=1&amp;b=2",
    ],
)
def test_a_url_cannot_end_its_link_early(rendered, url):
    soup = rendered(tool.format_results(search("Title", "Snippet", url=url), "markdown"))
    assert soup.find("img") is None
    # one link, to the whole URL (renderers differ in percent-encoding and in decoding "&amp;")
    assert [html.unescape(unquote(a["href"])) for a in soup.find_all("a")] == [html.unescape(url)]


@pytest.mark.parametrize("snippet", [":-", ":---:", ": -- |"])
def test_a_snippet_that_reads_as_a_table_delimiter_row_stays_text(rendered, snippet):
    """Under the title's line, a snippet of colons and dashes was a GFM table's delimiter row: the
    title became a table header and the snippet vanished."""
    soup = rendered(tool.format_results(search("Title", snippet), "markdown"))
    assert soup.find("table") is None
    assert soup.get_text().split() == ["Title"] + snippet.split()


def test_a_fetched_pages_title_and_url_are_text(rendered):
    url = "https://a.example/x)![x](https://evil.example/y.png)"
    result = {
        "url": url,
        "final_url": url,
        "title": "<script>x</script> ![t](https://evil.example/t.png)",
        "text": "body",
        "truncated": False,
        "length": 4,
    }
    soup = rendered(tool.format_results(result, "markdown", untrusted_notice=False))
    assert soup.find("img") is None and soup.find("script") is None and soup.find("a") is None
    assert soup.h1.get_text() == result["title"]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8734/",
        "https://www.example.org/a?b=1&c=2",
        "https://a.example/x`y``z`",
        "`https://a.example/`",
    ],
)
def test_a_fetched_pages_url_reads_as_written(rendered, url):
    """The URL line was escaped text (``http\\://127.0.0.1:8734/``), what `websearch-sync fetch`
    printed by default: a code span shows the URL as written, to copy, and is still no link."""
    for title in ("T", ""):  # a page without a title (a text file) is headed by its URL
        result = {"url": url, "final_url": url, "title": title, "text": "body", "truncated": False, "length": 4}
        markdown = tool.format_results(result, "markdown", untrusted_notice=False)
        assert "\\" not in "".join(markdown.splitlines()[:2])
        soup = rendered(markdown)
        assert soup.find("a") is None and [code.get_text() for code in soup.find_all("code")][-1] == url
        assert soup.h1.get_text() == (title or url)


def test_markdown_text_keeps_ordinary_text_readable():
    assert (
        tool.markdown_text("Python requests: timeout, retries and sessions.")
        == "Python requests: timeout, retries and sessions."
    )
