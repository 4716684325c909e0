"""``extract.textlength`` gives readability-lxml's own numbers: ``clean_text`` is
``readability.readability.clean(text)`` and ``clean_length`` its length for any text (whitespace runs of every kind and
length, the 255-character cap), and ``link_density`` is ``Document.get_link_density`` on every
element of a recorded page. A readability release that measures otherwise fails here."""

import gzip
import itertools
import os

import lxml.etree
import lxml.html
from hypothesis import given, settings
from hypothesis import strategies as st
from property_examples import examples
from readability import Document
from readability.readability import clean
from unicode_text import UTF8_CHARS

from websearch_sync.extract import boilerplate
from websearch_sync.extract.textlength import clean_length, clean_text, link_density

PAGE = os.path.join(
    os.path.dirname(os.path.dirname(__file__)),
    "data",
    "fetch",
    "57b4dafd18cfd0531b69f81e87158648227c673ef159f8d8c87d34e34bdb21f2.html.gz",
)

#: Whitespace Python's ``\s`` and ``str.strip`` know, beside the ones readability's patterns name.
SPACES = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\u00a0", "\u2003", "\u3000"]
PIECES = st.one_of(
    st.sampled_from(SPACES),
    st.sampled_from(["a", "word", ".", "é", "\u30c6"]),
    st.tuples(st.sampled_from(SPACES), st.integers(1, 300)).map(lambda run: run[0] * run[1]),
    st.text(UTF8_CHARS, max_size=5),
)


def _strings(alphabet, longest):
    """Every string of 1 to ``longest`` characters of ``alphabet``."""
    return ("".join(chars) for size in range(1, longest + 1) for chars in itertools.product(alphabet, repeat=size))


@settings(max_examples=examples(100, deep=200), deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join))
def test_clean_length_is_readabilitys(text):
    assert clean_text(text) == clean(text)
    assert clean_length(text) == len(clean(text))


def test_clean_length_on_the_runs_that_change_length():
    """Every short mix of kinds of whitespace, and a run of each kind just under, at and over the
    255-character cap, at the end of the text or before a letter, a space or a line break: where a
    boundary slips (the cap, a tab beside a space, a run not anchored at its start) a case here
    differs, which random texts found only now and then."""
    runs = (
        "a" + space * size + tail for space in SPACES for size in (1, 254, 255, 256) for tail in ("b", "", "\n", " ")
    )
    for text in itertools.chain(
        ["a" + "\t" * 300 + "b", "a \n\t b", "\t\ta  \t b\xa0 \xa0c"], _strings(" \t\n\r\x0b\xa0a", 4), runs
    ):
        assert clean_text(text) == clean(text), repr(text)
        assert clean_length(text) == len(clean(text)), repr(text)


def test_link_density_is_readabilitys_on_every_element_of_a_page():
    with gzip.open(PAGE, "rb") as handle:
        root = lxml.html.document_fromstring(handle.read())
    document = Document("<html></html>")
    elements = list(root.iter(lxml.etree.Element))  # elements only: no comments
    assert len(elements) > 200
    for element in elements:
        assert link_density(element) == document.get_link_density(element)


def test_text_within_is_the_length_of_the_normalised_text():
    with gzip.open(PAGE, "rb") as handle:
        root = lxml.html.document_fromstring(handle.read())
    for element in root.iter(lxml.etree.Element):
        length = len(boilerplate._text(element))
        for limit in (0, length - 1, length, length + 1, 20):
            assert boilerplate.text_within(element, limit) == (length <= limit)


def _within_exactly_its_length(markup: str) -> None:
    element = lxml.html.fragment_fromstring("<div>%s</div>" % markup)
    length = len(boilerplate._text(element))
    assert boilerplate.text_within(element, length) and not boilerplate.text_within(element, length - 1), markup


@settings(max_examples=examples(100, deep=400), deadline=None)
@given(st.lists(st.one_of(PIECES, st.sampled_from(["<b>", "</b>", "<i>x</i>", "<br>"])), max_size=30).map("".join))
def test_text_within_across_inline_markup(markup):
    _within_exactly_its_length(markup)


def test_text_within_on_every_short_mix_of_words_spaces_and_inline_markup():
    for pieces in _strings(["a", " ", "\n", "\xa0", "<b>", "</b>", "<i>x</i>", "<br>"], 3):
        _within_exactly_its_length(pieces)
