"""readability's debug descriptions are made only while its debug log is on (extract.quiet): off,
readability's ``describe`` is never called; on, its messages name the elements as before; the
extraction is the same either way."""

import logging

import lxml.html
import pytest
from readability import Document, debug, readability

from websearch_sync.extract.article import extract_html
from websearch_sync.extract.quiet import quiet_steps
from websearch_sync.extract.textlength import link_density

PAGE = (
    "<html><head><title>Tides</title></head><body>"
    "<div class='sidebar'><p>Related: a list of other stories to read next.</p></div>"
    "<div id='story'><h1>Tides</h1>"
    + "".join(
        "<p>The tide rises and falls twice a day, pulled by the moon and the sun, paragraph %d.</p>" % n
        for n in range(8)
    )
    + "</div><div class='footer'><p>Copyright, contact, about us.</p></div></body></html>"
)


@pytest.fixture
def described(monkeypatch):
    calls = []
    original = debug.describe

    def counting(node, depth=1):
        calls.append(node)
        return original(node, depth)

    monkeypatch.setattr(debug, "describe", counting)
    return calls


def test_no_element_is_described_while_readability_s_debug_log_is_off(described, caplog):
    caplog.set_level(logging.INFO, logger="readability.readability")
    assert "paragraph 7" in extract_html(PAGE, mode="text").text
    assert described == []


def test_its_debug_messages_describe_the_elements_while_the_log_is_on(described, caplog):
    quiet = extract_html(PAGE, mode="text")
    caplog.set_level(logging.DEBUG, logger="readability.readability")
    logged = extract_html(PAGE, mode="text")
    messages = [record.getMessage() for record in caplog.records if record.name == "readability.readability"]
    assert described, "readability described no element with its debug log on"
    assert any("Removing unlikely candidate - " in m and "sidebar" in m for m in messages), messages
    assert any(m.startswith("Branch ") and "#story" in m for m in messages), messages
    assert (logged.title, logged.text) == (quiet.title, quiet.text)


def test_its_steps_measure_text_with_textlength_not_readabilitys_patterns(monkeypatch):
    """readability's steps run with ``textlength``'s ``clean`` and ``text_length`` (the same
    strings and numbers, found in one pass): with readability's own made to fail, its summary is
    the one readability gives."""
    expected = Document(PAGE).summary(html_partial=True)

    def refused(*args):
        raise AssertionError("readability's own text measure was called")

    monkeypatch.setattr(readability, "clean", refused)
    monkeypatch.setattr(readability, "text_length", refused)
    steps = quiet_steps(Document)
    steps["get_link_density"] = lambda self, elem: link_density(elem)  # not a step of quiet's: textlength's own
    assert type("Quiet", (Document,), steps)(PAGE).summary(html_partial=True) == expected


def test_the_article_is_collected_in_a_division_made_not_parsed(monkeypatch):
    """readability's ``get_article`` collects the article in ``fragment_fromstring("<div/>")``:
    a parse of its own (30 us) for one empty element, which quiet's steps make instead; the
    summary is the one readability gives."""
    expected = Document(PAGE).summary(html_partial=True)
    parse = lxml.html.fragment_fromstring

    def no_empty_division(html, *args, **kwargs):
        assert html != "<div/>", "an empty division was parsed"
        return parse(html, *args, **kwargs)

    monkeypatch.setattr(lxml.html, "fragment_fromstring", no_empty_division)
    monkeypatch.setattr(readability, "fragment_fromstring", no_empty_division)
    steps = quiet_steps(Document)
    steps["get_link_density"] = lambda self, elem: link_density(elem)
    assert type("Quiet", (Document,), steps)(PAGE).summary(html_partial=True) == expected
