"""readability's debug descriptions are made only while its debug log is on (extract.quiet): off,
readability's ``describe`` is never called; on, its messages name the elements as before; the
extraction is the same either way."""

import logging

import lxml.html
import pytest
from readability import Document, debug, readability

from websearch_sync.extract.article import _tree_document_class, extract_html
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


@pytest.fixture
def fresh_document_class():
    """The extractor's readability class is built again for the test and again after it."""
    _tree_document_class.cache_clear()
    yield
    _tree_document_class.cache_clear()


def test_a_step_a_readability_release_no_longer_has_leaves_its_own_code_running(
    fresh_document_class, monkeypatch, caplog
):
    """A readability release without one of the copied steps (``is_quote_lead`` inlined into its
    caller, simulated) still extracts the page, readability's own code running for it."""
    expected = extract_html(PAGE, mode="text")
    _tree_document_class.cache_clear()
    is_quote_lead = Document.is_quote_lead

    def get_preserved_elements(self, node):  # the release's own, with is_quote_lead inlined
        allowed = {elem: True for elem in self.tags(node, "ul") if self.is_toc_list(elem)}
        allowed.update({elem: True for elem in self.tags(node, "div", "section") if is_quote_lead(self, elem)})
        return allowed

    monkeypatch.setattr(Document, "get_preserved_elements", get_preserved_elements)
    monkeypatch.delattr(Document, "is_quote_lead")
    with caplog.at_level(logging.WARNING, logger="websearch_sync.extract.quiet"):
        result = extract_html(PAGE, mode="text")
    assert (result.extractor, result.title, result.text) == (expected.extractor, expected.title, expected.text)
    assert "paragraph 7" in result.text
    assert any("'is_quote_lead'" in record.getMessage() for record in caplog.records), caplog.records


def test_every_step_reads_readability_s_globals_from_one_copy(fresh_document_class, monkeypatch, caplog):
    """The unlikely-candidate step rewritten in article.py logs through the same copy of
    readability's globals as the copied steps: a ``log`` rebound after the first extraction is
    seen by none of them."""
    extract_html(PAGE, mode="text")  # the copy is taken
    rebound = logging.getLogger("rebound-readability-log")
    monkeypatch.setattr(readability, "log", rebound)
    caplog.set_level(logging.DEBUG, logger="readability.readability")
    caplog.set_level(logging.DEBUG, logger=rebound.name)
    extract_html(PAGE, mode="text")
    names = {record.name for record in caplog.records}
    assert "readability.readability" in names and rebound.name not in names, names
