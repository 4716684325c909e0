"""Extraction abandoned at its deadline stops at its next checkpoint (issue 33.2).

``fetch`` runs extraction in a thread it abandons at the deadline. Before, extraction had no
checkpoint: an abandoned render of a hostile page went on allocating (1.8 GB) long after the
caller got its ``Timeout``. Here each phase of extraction runs in a thread whose work was
already abandoned: it must raise ``WorkAbandoned`` instead of finishing. No wall clock.
"""

import re
import threading

import lxml.html
import pytest

from websearch_sync.checkpoints import EVERY, WorkAbandoned, abandonable, checked, checkpoint
from websearch_sync.extract.article import _article, extract_html
from websearch_sync.extract.boilerplate import clean_article, linked_section_headings, preclean
from websearch_sync.extract.divs import blocks_below
from websearch_sync.extract.region import main_region
from websearch_sync.extract.render import render_element

#: A page with more elements than one checkpoint interval, in every structure the phases walk.
PAGE = (
    "<html><head><title>T</title></head><body><div class='main'><article>"
    + "".join("<p>Paragraph %d with enough words to be read as text.</p>" % i for i in range(EVERY * 2))
    + "</article></div><table>"
    + "".join("<tr><td>cell %d</td></tr>" % i for i in range(EVERY * 2))
    + "</table></body></html>"
)


#: Headings that are links, each before a paragraph (readability.linked_headings, run in readability's sanitize).
LINKED_HEADINGS = "<div>%s</div>" % "".join(
    "<h3><a href='/a%d'>Item %d</a></h3><p>%s</p>" % (i, i, "A summary long enough to open a section. " * 3)
    for i in range(4)
)


def _tree():
    return lxml.html.document_fromstring(PAGE)


PHASES = {
    "extract_html": lambda: extract_html(PAGE, url="https://a.example/", mode="markdown"),
    "preclean": lambda: preclean(_tree()),
    "readability": lambda: _article(_tree()),
    "clean_article": lambda: clean_article(_tree().find("body")),
    "main_region": lambda: main_region(_tree().find("body")),
    "render": lambda: render_element(_tree().find("body"), "markdown"),
    "blocks_below": lambda: blocks_below(_tree(), re.compile("<(a|table|pre)")),
    "linked_section_headings": lambda: list(linked_section_headings(lxml.html.fragment_fromstring(LINKED_HEADINGS))),
}


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_an_abandoned_phase_stops(phase):
    abandoned = threading.Event()
    abandoned.set()
    with abandonable(abandoned), pytest.raises(WorkAbandoned):
        PHASES[phase]()


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_a_phase_that_was_not_abandoned_runs_to_its_end(phase):
    with abandonable(threading.Event()):
        PHASES[phase]()


def test_outside_abandonable_work_a_checkpoint_is_a_no_op():
    checkpoint()
    assert list(checked(range(EVERY * 3))) == list(range(EVERY * 3))


def test_an_except_exception_in_the_work_cannot_swallow_the_stop():
    abandoned = threading.Event()
    abandoned.set()
    with abandonable(abandoned), pytest.raises(WorkAbandoned):
        try:
            checkpoint()
        except Exception:  # what a fallback in extraction or a third-party parser would do
            pytest.fail("WorkAbandoned was caught as an Exception")
