"""A plain-text "no results" notice counts only where the engine prints it (issue 33.10).

An unknown block page that echoes the query — in its title, its search box and a "results for"
line — is not "0 results" when the query quotes a notice: it is ``WebParseError``. The real
no-results pages (recorded in fixtures/) still read as no results.
"""

import pytest

from websearch_sync import Settings
from websearch_sync.engine import registry
from websearch_sync.engine.html_parsing import notice_shown
from websearch_sync.errors import WebParseError
from websearch_sync.models import SearchParams

NOTICES = [
    ("yahoo_html", "We did not find results for"),
    ("baidu_html", "抱歉没有找到与"),
    ("ddg_html", "No results."),
    ("ddg_lite", "No more results."),
]


def echo_page(query: str) -> str:
    """A block page of no known engine that echoes the query three ways."""
    from html import escape

    shown = escape(query)
    return (
        "<html><head><title>%s - verify you are human</title></head><body>"
        '<form><input name="q" value="%s"></form>'
        "<p>Results for <b>%s</b> are hidden until you verify.</p>"
        "<p>\n  %s\n</p></body></html>" % (shown, escape(query, quote=True), shown, shown)
    )


@pytest.mark.parametrize("backend, notice", NOTICES)
def test_a_query_quoting_the_notice_does_not_make_an_echo_page_empty(backend, notice):
    engine = registry.backend_class(backend)(Settings())
    query = '"%s" meaning' % notice
    with pytest.raises(WebParseError):
        engine.read_page(echo_page(query), SearchParams(query=query, max_results=10))


@pytest.mark.parametrize("backend, notice", NOTICES)
def test_the_notice_printed_by_the_engine_still_counts(backend, notice):
    engine = registry.backend_class(backend)(Settings())
    query = '"%s" meaning' % notice
    page = echo_page(query).replace("</body>", "<div>%s <b>%s</b></div></body>" % (notice, query))
    assert engine.read_page(page, SearchParams(query=query, max_results=10)) == []


def test_markup_markers_match_anywhere_and_plain_ones_need_a_text_node():
    assert notice_shown('<div class="no-results">', ['class="no-results"'], "q")
    assert notice_shown("<p>No results.</p>", ["No results."], "q")
    assert not notice_shown('<input value="No results.">', ["No results."], "No results.")
    assert not notice_shown("<title>No results. - page</title>", ["No results."], "no  RESULTS.")
    assert notice_shown("<li>No results. Try again</li><title>x</title>", ["No results."], "cats")
