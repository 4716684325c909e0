"""readability.segment_gaps: the segments readability may merge, and a short one between two it merged."""

import lxml.html

from websearch_sync.extract.article import extract_html
from websearch_sync.extract.rules import DEFAULT_RULES
from websearch_sync.extract.segments import same_segments

STEP = (
    "<div class='mod step'><div class='content'><span class='head'>Step %d</span><p>%s</p></div>"
    "<figure class='thumb'><img src='/step%d.jpg' alt=''></figure></div>"
)
SENTENCE = "Press the soaked foam into the bottom of the dish and cut a hole in it for the roots of the plant. "
#: A how-to page: a lead box (its class names "content lead"), then steps, each a box of class
#: "content"; the second box holds only a heading line and a list (what is needed), which scores
#: nothing for readability: no paragraph in it.
HOW_TO = (
    "<html><head><title>How to build a terrarium</title></head><body><div id='page'>"
    "<div class='mod step'><div class='content lead'><p>%s</p></div></div>"
    "<div class='mod step'><div class='content'><span class='head'>What you need:</span><ul>"
    "<li>A glass cloche</li><li>A shallow dish or a saucer</li><li>A block of floral foam</li>"
    "<li>Small plants from a nursery</li><li>Moss and a pair of tweezers</li></ul></div></div>"
    "%s</div><div id='side'><a href='/a'>Another page</a></div></body></html>"
) % (SENTENCE * 4, "".join(STEP % (n, SENTENCE * 2, n) for n in range(1, 5)))


def _text(html, rules=DEFAULT_RULES):
    return extract_html(html, mode="text", rules=rules).text


def test_a_list_box_between_steps_that_share_the_lead_box_content_class_is_kept():
    text = _text(HOW_TO)
    assert "A shallow dish or a saucer" in text
    assert text.index("Press the soaked") < text.index("A glass cloche") < text.index("Step 1")
    assert "A shallow dish or a saucer" not in _text(HOW_TO, DEFAULT_RULES - {"readability.segment_gaps"})


def test_segments_share_a_content_class_name_of_the_best_candidate():
    import re

    positive = re.compile("content|article|body", re.I)
    root = lxml.html.fromstring(
        "<div><div class='content lead'>a</div><div class='content'>b</div><div class='side'>c</div>"
        "<p class='content'>d</p><div class='lead'>e</div></div>"
    )
    best = root[0]
    assert [e.text for e in same_segments(best, positive)] == ["a", "b"]
    # without a content name, only the same class attribute: "lead" alone is not readability's
    assert [e.text for e in same_segments(best)] == ["a"]
    assert [e.text for e in same_segments(root[4], positive)] == ["e"]
