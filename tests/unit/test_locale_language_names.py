"""A locale given as a language's name (``locale="english"``, after ``region="english"`` was
refused as ddgs's ``region``) is refused naming the language's tag: it was "expected a language tag
such as en, en-US or zh-Hant-TW", which leaves the reader to know that English is ``en``. The names
are iso-codes' (docs/locale_code_tables.py writes them with the codes)."""

import re
import warnings

import pytest

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.validate import _check_locale
from websearch_sync.vocabulary.locale_codes import _LANGUAGE_BY_NAME


@pytest.mark.parametrize(
    "typed, tag",
    [("english", "en"), ("English", "en"), ("French", "fr"), ("chinese", "zh"), ("Norwegian  Bokmål", "nb")],
)
def test_a_languages_name_is_refused_naming_its_tag(typed, tag):
    with pytest.raises(ws.InvalidInput) as info, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ws.search("q", backend="stub", locale=typed)
    assert info.value.detail_code == "bad_locale"
    assert "(a language's name: give its tag, %s)" % tag in info.value.message


def test_a_three_letter_name_that_is_a_tags_shape_is_taken_as_a_tag():
    """``ido`` is Ido's name and also a three-letter language tag's shape, taken as given."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert ws.search("q", backend="stub", locale="ido")["items"]


def test_the_command_line_says_it_too(capsys):
    assert main(["search", "q", "-b", "stub", "--locale", "German"]) == 2
    assert "invalid locale: 'German' (a language's name: give its tag, de)" in capsys.readouterr().err


def test_every_language_names_a_tag_the_locale_check_takes():
    """What the refusal suggests is taken: it once added ``<code>-<CODE>`` (``zh-ZH``, ``ja-JA``), which
    the check itself refuses, or names the wrong country (``ar-AR`` Argentina, ``sv-SV`` El Salvador)."""
    refused = {}
    for name in _LANGUAGE_BY_NAME:
        try:
            _check_locale(name)
            continue  # a name that is a tag's shape (``ido``) is taken as the tag
        except ws.InvalidInput as error:
            message = error.message
        suggested = re.findall(r"[a-z]{2,3}(?:-[A-Za-z0-9]+)+|(?<=give its tag, )[a-z]{2,3}\b", message)
        assert suggested, message
        for tag in suggested:
            if tag == name.lower():
                continue
            try:
                _check_locale(tag)
            except ws.InvalidInput as error:
                refused[name] = (tag, error.message)
    assert not refused
