"""A short code block in a box (``<div class="highlight"><pre>``, what documentation
generators write) is kept: readability dropped the box as too short, and the command with it."""

import gzip
from pathlib import Path

import pytest

from websearch_sync.extract.article import extract_html

STRUCTURES = Path(__file__).resolve().parents[2] / "bench" / "extraction-structures"
PAGE = "hidden-panels-1"  # an article of <p> paragraphs
COMMAND = "pip install lxml"  # under 25 characters: readability's "too short" box
BOXES = [
    '<div class="highlight"><pre><code>%s</code></pre></div>',
    '<div class="language-shell highlighter-rouge"><div class="highlight"><pre class="highlight"><code>%s</code></pre>'
    "</div></div>",
    '<div class="code-box"><button>Copy</button><pre>%s</pre></div>',
]


@pytest.mark.parametrize("box", BOXES, ids=["pygments", "rouge", "copy-button"])
@pytest.mark.parametrize("mode", ["text", "markdown"])
def test_a_one_line_command_in_a_code_box_is_kept(box, mode):
    html = gzip.decompress((STRUCTURES / "html" / ("%s.html.gz" % PAGE)).read_bytes()).decode("utf-8")
    end = html.index("</p>") + len("</p>")  # after the article's first paragraph
    text = extract_html(html[:end] + box % COMMAND + html[end:], mode=mode).text
    assert COMMAND in text
    assert "Turning part of a lawn" in text  # the article is still the article
