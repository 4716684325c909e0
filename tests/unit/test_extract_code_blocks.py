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


LINES = ["def sow(seed):", "    rake(seed)", "", "sow('yellow rattle')"]


@pytest.mark.parametrize(
    "code",
    [
        "<pre>%s</pre>" % "<br>".join(LINES),  # a line per <br> (blog editors)
        "<pre><code>%s</code></pre>" % "".join("<div class='line'>%s</div>" % line for line in LINES),  # per <div>
        "<pre><code>%s</code></pre>" % "\n".join("<span class='line'>%s</span>" % line for line in LINES),
    ],
    ids=["br", "div", "span"],
)
@pytest.mark.parametrize("mode", ["text", "markdown"])
def test_a_code_block_keeps_its_lines_however_they_are_marked_up(code, mode):
    html = gzip.decompress((STRUCTURES / "html" / ("%s.html.gz" % PAGE)).read_bytes()).decode("utf-8")
    end = html.index("</p>") + len("</p>")
    text = extract_html(html[:end] + code + html[end:], mode=mode).text
    assert "def sow(seed):\n    rake(seed)\n" in text
    assert "\nsow('yellow rattle')" in text


@pytest.mark.parametrize("mode", ["text", "markdown"])
def test_a_code_block_keeps_its_runs_of_blank_lines(mode):
    html = gzip.decompress((STRUCTURES / "html" / ("%s.html.gz" % PAGE)).read_bytes()).decode("utf-8")
    end = html.index("</p>") + len("</p>")
    code = "<pre>import os\n\n\ndef sow(seed):\n    rake(seed)\n</pre>"  # two blank lines, as PEP 8 asks
    text = extract_html(html[:end] + code + html[end:], mode=mode).text
    assert "import os\n\n\ndef sow(seed):\n    rake(seed)\n" in text
    assert "\n\n\n\n" not in text.replace("import os\n\n\ndef", "")  # outside code, blank runs still collapse
