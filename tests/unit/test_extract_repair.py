"""Markup repairs before parsing and <br><br> paragraphs: what libxml2 would lose is kept,
and markup that needs no repair is left as it is."""

import lxml.html

from websearch_sync.extract.article import extract_html
from websearch_sync.extract.paragraphs import split_br_runs
from websearch_sync.extract.repair import repair_markup

TEXT = "The council met on Tuesday and agreed the budget for the coming year after a long debate. " * 3


def test_unclosed_title_is_closed_at_the_next_tag():
    page = "<html><head><TITLE>Budget news<meta charset='utf-8'></head><body><p>%s</p></body></html>" % TEXT
    assert "agreed the budget" in extract_html(page, mode="text").text
    assert repair_markup(page).startswith("<html><head><TITLE>Budget news</title><meta")


def test_misspelt_title_end_is_closed_too():
    page = "<html><head><title>Budget news</titel><body><p>%s</p></body></html>" % TEXT
    assert "agreed the budget" in extract_html(page, mode="text").text


def test_stray_early_html_end_keeps_the_rest_of_the_page():
    page = "<html><body><div>Menu</div></body></html><div><p>%s</p></div>" % TEXT
    assert "agreed the budget" in extract_html(page, mode="text").text


def test_well_formed_markup_is_unchanged():
    page = "<html><head><title>T</title></head><body><p>%s</p></body></html>\n" % TEXT
    assert repair_markup(page) == page
    trailing = page + "<!-- served in 12 ms -->"
    assert repair_markup(trailing) == trailing


XHTML_HEAD = (
    '<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
    '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd" [\n<!ENTITY publisher "The Council">\n]>\n'
)


def test_an_internal_doctype_subset_does_not_leak_into_the_text():
    """libxml2's HTML parser ends the doctype at the subset's first ``>``: "]>" was the page's
    first text (a fuzzer's find on both wires' fetch)."""
    page = (
        XHTML_HEAD
        + '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><p>Short.</p></body></html>'
    )
    extraction = extract_html(page, mode="text")
    assert extraction.text == "Short." and extraction.title == "T"
    assert repair_markup(page).startswith('<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC')
    assert '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd" >\n<html' in repair_markup(page)


def test_a_bracket_after_the_doctype_or_in_the_page_is_left_alone():
    plain = "<!DOCTYPE html><html><body><p>[1] a note]></p></body></html>"
    assert repair_markup(plain) == plain
    unclosed = "<!DOCTYPE html [ <p>" + "x" * 1000
    assert repair_markup(unclosed) == unclosed
    body = "<html><body><h1>T</h1><p>%s</p><script>if(a[0]>1){}</script></body></html>" % TEXT
    assert repair_markup("<!DOCTYPE html [\n" + body) == "<!DOCTYPE html [\n" + body  # never closed before <html>
    many = "<!DOCTYPE html [" + "] " * 50_000  # no "]>": the search is linear and gives up
    assert repair_markup(many) == many


def test_repair_is_linear_on_many_openers():
    page = "<title>" + "<title " * 50_000
    assert repair_markup(page).count("</title>") == 1


def test_br_runs_become_paragraphs_and_single_breaks_stay():
    root = lxml.html.fromstring(
        "<div><td>one<br>two<br><br>three <b>bold</b><br> <br>four<ul><li>x</li></ul>five</td></div>"
    )
    split_br_runs(root)
    cell = root.find(".//td")
    assert [p.text_content() for p in cell.findall("p")] == ["onetwo", "three bold", "four", "five"]
    assert cell.find("ul") is not None and cell.find("p").find("br") is not None


def test_br_runs_in_a_paragraph_are_left_alone():
    root = lxml.html.fromstring("<div><p>one<br><br>two</p></div>")
    split_br_runs(root)
    assert root.find(".//p").find("p") is None


def test_deeply_nested_quotes_are_rendered_not_a_recursion_error():
    # 250 nested <blockquote> (libxml2 keeps 255 levels) made the recursive render raise
    # RecursionError; structure beyond render.MAX_DEPTH is flattened to its text (issue 33).
    sentence = "A quoted sentence of ordinary words. "
    page = "<html><body>%s<p>%s</p>%s</body></html>" % ("<blockquote>" * 250, sentence * 30, "</blockquote>" * 250)
    for mode in ("text", "markdown"):
        result = extract_html(page, mode=mode)
        assert result.text.count("A quoted sentence") == 30, mode


def test_a_control_character_after_a_br_run_is_read_as_a_space():
    # libxml2 keeps U+001F in text; moving that text into a new paragraph made lxml refuse it
    # (ValueError: "All strings must be XML compatible"), found by tests/unit/test_extract_fuzz.py.
    sentence = "The engine idles rough after the rebuild and the float height is set to spec. " * 3
    page = "<html><body><div><p>%s</p><br><br>\x1fand the pilot screw<br><br>%s</div></body></html>" % (
        sentence,
        sentence,
    )
    for mode in ("text", "markdown"):
        text = extract_html(page, mode=mode).text
        assert "and the pilot screw" in text and "\x1f" not in text
