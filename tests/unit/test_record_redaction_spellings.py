"""The redactor's spellings written compactly (each secret's rest once, each character's spellings
with their common leading characters once: :func:`recording._spelt_any`, :func:`recording._branches`)
find and replace exactly what the alternation of every spelling whole found, on echoes of secrets in
every spelling mixed with the openings of escapes that spell nothing."""

import html.entities
import json
import random
from urllib.parse import quote

import pytest

from websearch_sync.contract import recording


def _char_spellings_as_it_was(char: str) -> str:
    return "(?:" + "|".join(recording._char_forms(char)) + ")"


def _spelt_any_as_it_was(secrets):
    return "|".join(
        first + "".join(_char_spellings_as_it_was(char) for char in secret[1:])
        for secret in secrets
        for first in recording._char_forms(secret[0])
    )


def _redactor_as_it_was(monkeypatch, secrets, whole):
    with monkeypatch.context() as patched:
        patched.setattr(recording, "_char_spellings", _char_spellings_as_it_was)
        patched.setattr(recording, "_spelt_any", _spelt_any_as_it_was)
        return recording.Redactor(secrets, whole=whole)


_NAMED = {}
for _name, _char in html.entities.html5.items():
    if len(_char) == 1 and _name.endswith(";"):
        _NAMED.setdefault(_char, []).append(_name)


def _spellings(char: str) -> list[str]:
    """Texts spelling ``char``, as an upstream may echo it (the cases of the docstring of ``_spelt``)."""
    code = ord(char)
    percent = quote(char, safe="")
    forms = [char, percent, percent.lower(), percent.replace("%", "%25"), percent.replace("%", "&#37;")]
    forms += [percent.replace("%", "&#x25;"), percent.replace("%", "\\u0025"), json.dumps(char)[1:-1]]
    forms += ["\\u%04x" % code if code < 0x10000 else json.dumps(char, ensure_ascii=True)[1:-1]]
    for amp in ("&", "&amp;", "\\u0026"):
        forms += [amp + "#%d;" % code, amp + "#%d" % code, amp + "#x%X;" % code, amp + "#00%d;" % code]
        forms += [amp + name for name in _NAMED.get(char, [])]
    return forms


#: Pieces that open an escape and spell nothing, or spell one only with what follows them.
_NOISE = ["%", "%25", "25", "&", "&amp;", "amp", "#", ";", "\\", "\\u00", "u0026", "0", "7", "x", "2F", "e", " ", "+"]


def _text(rnd: random.Random, secrets: list[str]) -> str:
    pieces = []
    for _ in range(rnd.randrange(1, 6)):
        if rnd.random() < 0.7:
            secret = rnd.choice(secrets)
            cut = rnd.randrange(len(secret) + 1) if rnd.random() < 0.3 else len(secret)
            pieces += [rnd.choice(_spellings(char)) for char in secret[:cut]]
        pieces += [rnd.choice(_NOISE) for _ in range(rnd.randrange(4))]
    return "".join(pieces)


SECRETS = [
    ["tok/en+9f3a77c1", "k3y-9f3a77c1abcd"],
    ["a%25&amp;b\\c d", "%&\\/+ é😀x"],
    ["&amp;&amp;", "%%%%", "\\\\\\u0026"],
]


@pytest.mark.parametrize("secrets", SECRETS, ids=["plain", "escape openers", "made of openers"])
def test_the_compact_spellings_replace_what_every_spelling_whole_replaced(monkeypatch, secrets):
    short = ["ab12x", "k-9x", "%2f&x"]
    old = _redactor_as_it_was(monkeypatch, secrets, short)
    new = recording.Redactor(secrets, whole=short)
    assert len(new._pattern.pattern) * 5 < len(old._pattern.pattern)
    rnd = random.Random(20261202)
    replaced = 0
    for _ in range(1500):
        text = _text(rnd, secrets + short)
        for json_text in (False, True):
            cleaned = new.text(text, "body", json_text=json_text)
            assert cleaned == old.text(text, "body", json_text=json_text), text
            replaced += cleaned != text
    assert replaced > 1000  # the echoes were found, not only the noise kept


def test_a_character_s_spellings_are_grouped_by_their_leading_characters_in_their_order():
    """``%61|%2561`` as ``%(?:61|2561)``; an empty choice (``%`` as itself before ``%25``) stays first."""
    assert recording._branches([("%", "6", "1"), ("%", "2", "5", "6", "1")]) == ["%(?:61|2561)"]
    assert recording._branches([("%",), ("%", "2", "5"), ("a",)]) == ["%(?:|25)", "a"]
    # a choice not beginning with a character ends a run: the choices after it are not moved before it
    assert recording._branches([("a", "1"), ("0*",), ("a", "2")]) == ["a1", "0*", "a2"]


def test_a_choice_of_a_first_character_reads_its_own_character_only():
    """The set opening the pattern reads any character a spelling begins with; each secret's choices
    then check it is one of theirs (``%ok/en...`` is no spelling of ``tok/en...``)."""
    redactor = recording.Redactor(["tok/en+9f3a77c1", "%k3y-9f3a77c1"])
    for text in ("%ok/en+9f3a77c1", "&ok/en+9f3a77c1", "tk3y-9f3a77c1", "\\u0074ok/en+9f3a77c1k3y-9f3a77c1"):
        kept = text if text[0] != "\\" else "<redacted>k3y-9f3a77c1"
        assert redactor.text(text, "body") == kept
    assert redactor.text("&#116;ok/en+9f3a77c1 %25k3y-9f3a77c1", "body") == "<redacted> <redacted>"


@pytest.mark.parametrize(
    "text",
    ["&amp;amp;amp;amp", "&amp;amp;amp", "\\u0026amp;amp;amp", "%2525%25", "%25%2525", "\\\\\\\\u005c", "&amp;#38;amp"],
)
def test_where_two_spellings_of_a_character_both_match_the_first_tried_is_kept(monkeypatch, text):
    """Texts where spellings of one character overlap (``&`` as itself, as ``&amp;``, as ``&amp;amp;``;
    ``%`` as itself, ``%25``, ``%2525``; ``\\`` as itself and ``\\\\``): replaced as the alternation of
    every spelling whole replaced them (the HTML references now written after ``&(?:|amp;)``)."""
    secrets = ["&amp", "%25%", "\\\\u005c"]
    old = _redactor_as_it_was(monkeypatch, secrets, [])
    new = recording.Redactor(secrets)
    assert new.text(text, "body") == old.text(text, "body") != text
