"""``parse_html`` reads blank markup as an empty document: every kind of white space Python's
``str.strip`` removes (Unicode's too, which lxml would otherwise read as a paragraph's text), and
nothing else. Its test of the markup (``isspace``, not a stripped copy) against ``not markup.strip()``."""

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_examples import examples

from websearch_sync.engine.html_parsing import parse_html

#: Every character ``str.strip`` removes.
BLANKS = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]


def _empty(root: object) -> bool:
    return len(root) == 0 and not (root.text or "").strip()  # type: ignore[arg-type, attr-defined]


@pytest.mark.parametrize("blank", BLANKS, ids=lambda blank: "U+%04X" % ord(blank))
def test_each_blank_is_an_empty_document(blank: str) -> None:
    assert _empty(parse_html(blank * 3))


def test_nothing_is_an_empty_document() -> None:
    assert _empty(parse_html(""))


def test_text_among_blanks_is_read() -> None:
    root = parse_html("\u3000 x \u3000")
    assert "x" in "".join(root.itertext())


@settings(max_examples=examples(300, deep=2000), deadline=None)
@given(st.text(alphabet=st.sampled_from(BLANKS + ["x"]), max_size=12))
def test_read_as_empty_exactly_when_strip_leaves_nothing(markup: str) -> None:
    root = parse_html(markup)
    assert _empty(root) == (not markup.strip())
    assert ("x" in "".join(root.itertext())) == ("x" in markup)
