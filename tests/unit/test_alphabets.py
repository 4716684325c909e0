"""``spells_one_alphabet`` cuts a page's ASCII runs before it looks at letters one by one: the
verdict must be the one of looking at every character of the lowered text."""

from hypothesis import given, settings
from hypothesis import strategies as st
from property_examples import examples

from websearch_sync.net.alphabets import _ALPHABETS, spells_one_alphabet


def _every_character(text: str) -> bool:
    """The definition, one character at a time (what the function did before the cut)."""
    letters = {char for char in text.lower() if not char.isascii() and char.isalpha()}
    return any(letters <= alphabet for alphabet in _ALPHABETS)


#: Characters whose lowercase depends on the cut or leaves ASCII: the Kelvin sign lowers to ``k``,
#: a dotted capital I to ``i`` and a combining dot, a capital sigma to a final or a medial sigma.
TRICKY = "\u212aİΣÅŃÑŐ"
LETTERS = "".join(sorted(frozenset().union(*_ALPHABETS)))
TEXTS = st.text(
    st.one_of(
        st.sampled_from("aZ <>1\n"),
        st.sampled_from(LETTERS + LETTERS.upper()),
        st.sampled_from(TRICKY),
        st.characters(),
    ),
    max_size=40,
)


@settings(max_examples=examples(100, deep=300), deadline=None)
@given(TEXTS)
def test_the_verdict_is_the_one_of_every_character(text):
    assert spells_one_alphabet(text) == _every_character(text)


def test_a_kelvin_sign_is_no_foreign_letter():
    # lowered, it is ASCII "k": the text has no letter beyond ASCII, and fits every alphabet
    assert spells_one_alphabet("\u212a" + "ñ") and _every_character("\u212a" + "ñ")
    assert not spells_one_alphabet("ñ ń") and not _every_character("ñ ń")
