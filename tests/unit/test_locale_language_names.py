"""A locale given as a language's name (``locale="english"``, after ``region="english"`` was
refused as ddgs's ``region``) is refused naming the language's tag: it was "expected a language tag
such as en, en-US or zh-Hant-TW", which leaves the reader to know that English is ``en``. The names
are iso-codes' (docs/locale_code_tables.py writes them with the codes)."""

import warnings

import pytest

import websearch_sync as ws
from websearch_sync.cli import main


@pytest.mark.parametrize(
    "typed, tag",
    [("english", "en"), ("English", "en"), ("French", "fr"), ("chinese", "zh"), ("Norwegian  Bokmål", "nb")],
)
def test_a_languages_name_is_refused_naming_its_tag(typed, tag):
    with pytest.raises(ws.InvalidInput) as info, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ws.search("q", backend="stub", locale=typed)
    assert info.value.detail_code == "bad_locale"
    assert "(a language's name: give its tag, %s," % tag in info.value.message


def test_a_three_letter_name_that_is_a_tags_shape_is_taken_as_a_tag():
    """``ido`` is Ido's name and also a three-letter language tag's shape, taken as given."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert ws.search("q", backend="stub", locale="ido")["items"]


def test_the_command_line_says_it_too(capsys):
    assert main(["search", "q", "-b", "stub", "--locale", "German"]) == 2
    assert "invalid locale: 'German' (a language's name: give its tag, de, or a locale such as de-DE)" in (
        capsys.readouterr().err
    )
