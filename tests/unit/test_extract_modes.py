"""Text and markdown mode carry the same content: the same words, markdown adding markup only."""

import pytest
from test_extract import ARTICLE_PAGE, metric  # noqa: F401 - metric: bench/extraction_metric.py as a fixture
from test_extract_recovery import LIST_POST, PRODUCT_PAGE, VIDEO_PAGE

from websearch_sync.extract.article import extract_html

MARKUP_PAGE = """<html><head><title>Notes on parsers</title></head><body><div id="content">
<h1>Notes on parsers</h1>
<p>A <b>bold</b> claim, an <i>em</i>phasised half word, <code>inline()</code> code and a
<a href="/docs/x">relative link</a>next to a word, plus [brackets] and a pipe | in text.</p>
<h2>2. Results in numbers</h2>
<ol start="3"><li>third <a href="https://a.example/(x)">item, with a link</a></li><li>fourth item</li></ol>
<ul><li>outer<ul><li>inner <em>nested</em></li></ul></li></ul>
<blockquote><p>Quoted line one.</p><p>Quoted line two, with <strong>strength</strong>.</p></blockquote>
<pre><code class="language-python">def f(x):
    return x * 2  # doubled
</code></pre>
<table><tr><th>name</th><th>value</th></tr><tr><td>a|b</td><td><a href="https://b.example/">1</a></td></tr></table>
<p>Closing paragraph of the page, long enough to be article text for readability, with commas, and more.</p>
</div></body></html>"""


def test_markdown_words_leave_out_markup_only(metric):
    markdown = "## 2. Title\n\n1. [a *link*](https://x.example/a_(b)) ed\n- `code` \\[edit\\]\n\n```python\nx = 1\n```"
    assert metric.markdown_words(markdown) == metric.text_words("2. Title\n\na link ed\ncode [edit]\n\nx = 1")
    assert metric.markdown_words("[label](https://x.example/)suffix") == {"labelsuffix": 1}


@pytest.mark.parametrize(
    "page",
    [ARTICLE_PAGE, MARKUP_PAGE, LIST_POST, VIDEO_PAGE, PRODUCT_PAGE],
    ids=["article", "markup", "recovered-list-post", "video", "product"],
)
def test_text_and_markdown_carry_the_same_words(metric, page):
    text = extract_html(page, mode="text", url="https://news.example/a/b")
    markdown = extract_html(page, mode="markdown", url="https://news.example/a/b")
    assert text.text
    assert text.title == markdown.title and text.extractor == markdown.extractor
    assert metric.markdown_words(markdown.text) == metric.text_words(text.text)


def test_markdown_of_the_markup_page_has_its_markup(metric):
    markdown = extract_html(MARKUP_PAGE, mode="markdown", url="https://news.example/a/b").text
    lines = markdown.split("\n")
    for expected in (
        "## 2. Results in numbers",
        "3. third [item, with a link](https://a.example/%28x%29)",
        "```python",
        "> Quoted line one.",
        "| a\\|b | 1 |",
    ):
        assert expected in lines
    assert "**bold**" in markdown and "*em*phasised" in markdown
