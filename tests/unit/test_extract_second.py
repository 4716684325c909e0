"""The second opinion for near-empty extractions: trafilatura answers (and says so) where
readability and the main-region recovery keep nothing of a page with text; without the
extra, extraction behaves as before."""

import builtins

import pytest

from websearch_sync.extract.article import extract_html
from websearch_sync.extract.rules import DEFAULT_RULES
from websearch_sync.extract.second import near_empty

SUBJECTS = ["harbour board", "ferry company", "fishing cooperative", "town council", "lifeboat crew", "sailing club"]
PARAGRAPH = (
    "<p>The <a href='/a{0}'>{1} of the northern district</a> met on Tuesday number {0} and "
    "<a href='/b{0}'>approved the long awaited plan {0}</a> after <a href='/c{0}'>a public hearing in "
    "hall {0}</a>.</p>"
)
# Every paragraph is mostly link text: readability scores none of them, the main region
# counts them against itself; the page's visible text adds the footer line.
LINKED_PAGE = (
    "<html><head><title>Plans</title></head><body><div class='main'>"
    + "".join(PARAGRAPH.format(i, s) for i, s in enumerate(SUBJECTS))
    + "</div><div class='info'><p>Posted on Monday by the editor, filed under local news and harbour "
    "updates.</p></div></body></html>"
)


def test_near_empty_needs_a_page_with_text_and_almost_nothing_kept():
    assert near_empty(0, 800) and near_empty(60, 800)
    assert not near_empty(0, 300)  # nothing to recover
    assert not near_empty(200, 1000)  # a fifth of the page is a short page's content


def test_trafilatura_answers_a_near_empty_page():
    pytest.importorskip("trafilatura")
    result = extract_html(LINKED_PAGE, mode="text")
    assert result.extractor == "trafilatura"
    assert "public hearing in hall 5" in result.text
    assert "Posted on Monday" not in result.text
    without = extract_html(LINKED_PAGE, mode="text", rules=DEFAULT_RULES - {"recovery.second_opinion"})
    assert without.extractor == "visible_text" and "Posted on Monday" in without.text


def test_without_the_extra_extraction_is_unchanged(monkeypatch):
    real_import = builtins.__import__

    def no_trafilatura(name, *args, **kwargs):
        if name == "trafilatura":
            raise ImportError("not installed")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_trafilatura)
    assert extract_html(LINKED_PAGE, mode="text") == extract_html(
        LINKED_PAGE, mode="text", rules=DEFAULT_RULES - {"recovery.second_opinion"}
    )


SUMMARY = (
    "<div class='card'><h3><a href='/s{0}'>Other story {0}</a></h3><p>Summary of other story {0}, a sentence "
    "about something else that happened in the town this week, with enough words to read as prose.</p></div>"
)
# A short article from its title heading on (readability selects it) beside a run of teaser
# cards holding far more text: near-empty against the page, yet the whole article.
SHORT_ARTICLE_PAGE = (
    "<html><head><title>Library opening hours change | Town news</title></head><body>"
    "<div class='story'><h1>Library opening hours change</h1><p>From Monday the library opens at ten "
    "instead of nine on weekdays and stays open until seven on Thursdays, after a survey of readers.</p></div>"
    "<div class='cards'>" + "".join(SUMMARY.format(n) for n in range(12)) + "</div></body></html>"
)


def test_a_short_article_from_its_title_on_is_not_replaced():
    pytest.importorskip("trafilatura")
    result = extract_html(SHORT_ARTICLE_PAGE, mode="text")
    assert result.extractor == "readability"
    assert "stays open until seven" in result.text and "other story 3" not in result.text
    # without the two, trafilatura replaces it (without recovery.titled alone, the main region does)
    off = {"recovery.titled", "article.teaser_runs"}
    without = extract_html(SHORT_ARTICLE_PAGE, mode="text", rules=DEFAULT_RULES - off)
    assert without.extractor == "trafilatura" and "other story 3" in without.text
