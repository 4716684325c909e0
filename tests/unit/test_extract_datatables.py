"""readability.data_tables: a data table readability picks at its body comes with its table and its introduction."""

import lxml.html

from websearch_sync.extract.article import extract_html
from websearch_sync.extract.datatables import data_table, introduction
from websearch_sync.extract.rules import DEFAULT_RULES

ROW = (
    "<tr><th><a href='/film/%d'>Film number %d</a></th><td>19%02d</td><td>A day that repeats itself for the "
    "people of a small town, the baker, the mayor, the teacher and the postman, until one of them, a girl of "
    "twelve, finds out why it keeps starting again at six, and what she has to put right before it stops.</td></tr>"
)
#: A list page: a note box, two paragraphs that say what the table lists (the first opens with a
#: word and a link: readability's own test of a sibling paragraph reads only "This "), the table
#: (a caption, a header row, a row per film: readability's best candidate is its <tbody>).
LIST_PAGE = (
    "<html><head><title>List of films about repeating days</title></head><body><div class='mw-page'>"
    "<div class='note'>This list is incomplete; <a href='/edit'>you can help</a>.</div>"
    "<p>This <b><a href='/loop'>list of films about repeating days</a></b> names films in which the characters live "
    "the same day again and again, and remember each time what happened before.</p>"
    "<p>For films about travel in time of other kinds, see <a href='/travel'>the list of time travel films</a>.</p>"
    "<table class='wikitable'><caption>Films about repeating days</caption><thead><tr><th>Film</th><th>Year</th>"
    "<th>Description</th></tr></thead><tbody>%s</tbody></table></div>"
    "<div id='footer'><a href='/about'>About</a> <a href='/privacy'>Privacy</a></div></body></html>"
) % "".join(ROW % (n, n, n) for n in range(20))


def _text(html, rules=DEFAULT_RULES):
    return extract_html(html, mode="text", rules=rules).text


def test_the_table_s_introduction_and_header_row_come_with_its_rows():
    text = _text(LIST_PAGE)
    assert text.index("names films in which") < text.index("Description") < text.index("Film number 0")
    assert "see the list of time travel films" in text
    off = _text(LIST_PAGE, DEFAULT_RULES - {"readability.data_tables"})
    assert "Film number 0" in off and "names films in which" not in off and "Description" not in off


def test_only_a_table_with_a_caption_a_header_row_or_header_cells_is_a_data_table():
    def tbody(table):
        return lxml.html.fromstring("<div>%s</div>" % table).find(".//tbody")

    row = "<tr><td>a</td><td>b</td></tr>"
    assert data_table(tbody("<table><tbody>%s</tbody></table>" % row)) is None  # a layout table
    for header in ("<caption>c</caption>", "<thead><tr><td>h</td></tr></thead>"):
        body = tbody("<table>%s<tbody>%s</tbody></table>" % (header, row))
        assert data_table(body) is body.getparent()
    body = tbody("<table><tbody><tr><th>h</th></tr>%s</tbody></table>" % row)
    assert data_table(body) is body.getparent()
    assert data_table(body[0]) is None  # a row is not a table's body


def test_the_introduction_is_the_run_of_running_text_paragraphs_just_before_the_table():
    long = "A paragraph of running text that says what the table below lists, and why."
    root = lxml.html.fromstring(
        "<div><p>%s</p><div>A box of its own</div><p>%s 1</p><p></p><p>%s 2</p><table></table></div>"
        % (long, long, long)
    )
    assert [p.text[-1] for p in introduction(root.find("table"))] == ["2"]  # an empty paragraph ends the run
    root = lxml.html.fromstring("<div><div>A box</div><p>%s 1</p><p>%s 2</p><table></table></div>" % (long, long))
    assert [p.text[-1] for p in introduction(root.find("table"))] == ["1", "2"]
    root = lxml.html.fromstring("<div><p>%s 1</p><p><a href='/x'>%s</a></p><table></table></div>" % (long, long))
    assert introduction(root.find("table")) == []  # a paragraph that is a link ends the run
