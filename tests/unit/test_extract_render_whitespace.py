"""The renderer's whitespace: a run of whitespace between inline elements and text is one space
(a newline, a tab and a no-break space too), and runs of blank lines are one blank line, in text
and markdown alike (``extract.render``; the outputs are those of the ``re.sub`` forms these
replaced, checked by running both)."""

import lxml.html
import pytest

from websearch_sync.extract.render import render_element


def rendered(markup: str, mode: str) -> str:
    return render_element(lxml.html.fragment_fromstring(markup, create_parent="div"), mode=mode)


@pytest.mark.parametrize(
    "markup, text, markdown",
    [
        (
            "<p>Read <b>this</b>\nnow, and <i>that</i>\tthen.</p>",
            "Read this now, and that then.",
            "Read **this** now, and *that* then.",
        ),
        ("<p>one <b>two</b>&nbsp;three</p>", "one two three", "one **two** three"),
        ("<p>one<b>\u3000two </b>three</p>", "one two three", "one **two** three"),
    ],
)
def test_whitespace_at_an_inline_elements_edge_is_one_space(markup, text, markdown):
    assert rendered(markup, "text") == text
    assert rendered(markup, "markdown") == markdown


@pytest.mark.parametrize("mode", ["text", "markdown"])
@pytest.mark.parametrize(
    "markup, expected",
    [
        ("<p>a<br></p><p>b</p>", "a\n\nb"),
        ("<p>a<br><br></p><p>b</p>", "a\n\nb"),
        ("<li>a<br><br></li><p>b</p>", None),
    ],
)
def test_runs_of_blank_lines_are_one_blank_line(markup, expected, mode):
    out = rendered(markup, mode)
    assert "\n\n\n" not in out
    if expected is not None:
        assert out == expected


@pytest.mark.parametrize(
    "markup, text, markdown",
    [
        ("<h2>Title<br>Subtitle</h2>", "Title Subtitle", "## Title Subtitle"),
        (
            "<table><tr><th>Name</th><th>Address</th></tr><tr><td>Bob</td><td>1 Main St<br>Springfield</td></tr></table>",
            "Name\tAddress\nBob\t1 Main St Springfield",
            "| Name | Address |\n|---|---|\n| Bob | 1 Main St Springfield |",
        ),
        ("<h2>one<div>two</div>three</h2>", "one two three", "## one two three"),
        (
            "<p>see <a href='https://e.example/'>the<br>page</a> now</p>",
            "see the\npage now",
            "see [the page](https://e.example/) now",
        ),
    ],
)
def test_a_line_break_inside_a_line_is_a_space(markup, text, markdown):
    """A heading, a table cell and a link's label are one line: a ``<br>`` or a block's end in
    one separates its words as a space, as a browser shows them on separate lines; they were
    glued (``TitleSubtitle``, ``1 Main StSpringfield``)."""
    assert rendered(markup, "text") == text
    assert rendered(markup, "markdown") == markdown
