"""``<noframes>`` (raw text to an HTML5 parser, libxml2's included) never reaches the output as
literal markup. On an ordinary page it is what a browser shows of it: nothing (the user-agent
style sheet hides it). On a frameset page, whose frames fetch does not load, its markup is read
as the page's body: what its author wrote for a reader that shows no frames."""

import pytest

from websearch_sync.extract import extract_html
from websearch_sync.extract.article import visible_text

ARTICLE = (
    "<html><head><title>An article</title></head><body><article><h1>An article about trains</h1>"
    "<p>%s</p>%s<p>The last paragraph of the article closes the argument.</p></article></body></html>"
)
PARAGRAPH = "Trains carry people and goods over long distances at low cost. " * 4
NOTICE = "<noframes><p>Your <b>browser</b> does not support <a href='/f'>frames</a>.</p></noframes>"

FRAMESET = (
    '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN">\n<html>\n<head><title>Rail archive</title></head>\n'
    '<frameset cols="25%,*">\n <frame src="toc.html" name="toc">\n <frame src="main.html" name="main">\n</frameset>\n'
    "<noframes>\n<body>\n<h2>Welcome</h2>\n<p>The archive holds <em>timetables</em> from 1850 to 1990. "
    "Start with <a href='toc.html'>the table of contents</a>.</p>\n</body>\n</noframes>\n</html>"
)


@pytest.mark.parametrize("mode", ["text", "markdown"])
def test_noframes_on_an_ordinary_page_is_left_out_as_a_browser_leaves_it_out(mode):
    with_notice = extract_html(ARTICLE % (PARAGRAPH, NOTICE), url="https://rail.example/a", mode=mode)
    without = extract_html(ARTICLE % (PARAGRAPH, ""), url="https://rail.example/a", mode=mode)
    assert with_notice.text == without.text
    assert "<" not in with_notice.text and "frames" not in with_notice.text
    assert visible_text(ARTICLE % (PARAGRAPH, NOTICE), mode) == visible_text(ARTICLE % (PARAGRAPH, ""), mode)


def test_a_frameset_page_is_read_from_its_noframes_markup():
    text = extract_html(FRAMESET, url="https://rail.example/", mode="text")
    markdown = extract_html(FRAMESET, url="https://rail.example/", mode="markdown")
    assert text.title == "Rail archive"
    assert text.text == ("Welcome\n\nThe archive holds timetables from 1850 to 1990. Start with the table of contents.")
    assert markdown.text == (
        "## Welcome\n\nThe archive holds *timetables* from 1850 to 1990. "
        "Start with [the table of contents](https://rail.example/toc.html)."
    )
    assert visible_text(FRAMESET) == text.text


@pytest.mark.parametrize(
    "page",
    [
        "<html><frameset><frame src='a.html'></frameset></html>",  # no noframes: nothing to read
        # noframes inside noframes: raw text again, parsed once only (no recursion on nesting)
        "<html><frameset><noframes><frameset><noframes><p>inner</p></noframes></frameset></noframes></frameset></html>",
        "<frameset>" + "<frameset><noframes>" * 2000,
    ],
)
@pytest.mark.parametrize("mode", ["text", "markdown"])
def test_a_frameset_page_never_shows_tags(page, mode):
    result = extract_html(page, url="https://rail.example/", mode=mode)
    assert "<" not in result.text and "<" not in visible_text(page, mode)
