"""The accented letters of the Latin-script languages the Windows code pages serve.

Charset detection rates two code pages alike when their only difference in a text is a letter or two
(a Spanish ``ñ`` is cp1250's ``ń``, a Hungarian ``ő`` cp1252's ``õ``). What tells them apart is which
decoding spells a real alphabet: ``á é í ñ ó ú`` is Spanish, ``á é í ń ó ú`` is no language's.
"""

import re
from typing import Iterable

#: Each language's lowercase letters beyond ASCII (both Romanian s/t forms: the cedilla is what cp1250 has).
_ALPHABETS = tuple(
    frozenset(letters)
    for letters in (
        "áéíñóúü",  # Spanish
        "àáâãçéêíóôõú",  # Portuguese
        "àâæçéèêëîïôœùûüÿ",  # French
        "àèéìíîòóùú",  # Italian
        "àçéèíïóòúü",  # Catalan
        "äöüß",  # German
        "áäéëíïóöúü",  # Dutch
        "åæéøó",  # Danish, Norwegian
        "åäöé",  # Swedish
        "åäöšž",  # Finnish
        "áæéíðóöúýþ",  # Icelandic
        "äõöüšž",  # Estonian
        "çë",  # Albanian
        "ąćęłńóśźż",  # Polish
        "áčďéěíňóřšťúůýž",  # Czech
        "áäčďéíĺľňóôŕšťúýž",  # Slovak
        "áéíóöőúüű",  # Hungarian
        "âîăşţșț",  # Romanian
        "čćđšž",  # Croatian, Bosnian, Serbian (Latin)
        "čšž",  # Slovene
        "âçğıîöşü",  # Turkish
        "ąčęėįšūųž",  # Lithuanian
        "āčēģīķļņšūž",  # Latvian
    )
)


#: Runs of ASCII characters: what a page mostly is, removed in C before its letters are looked at.
_ASCII_RUNS = re.compile("[\x00-\x7f]+")


def spells_one_alphabet(text: str) -> bool:
    """Whether every non-ASCII letter of ``text`` belongs to one language's alphabet (a text without
    any fits every alphabet).

    Detection asks this of each tied decoding of up to 200 KB: the ASCII runs go first (a scan in
    C), so only the few non-ASCII characters are looked at one by one (a 200 KB page: 3.2 -> 0.3
    ms, ``bench/alphabets.py``). They are lowered after the cut, and ASCII is dropped again: a few
    lower to ASCII (the Kelvin sign to ``k``)."""
    letters = {char for char in set(_ASCII_RUNS.sub("", text).lower()) if not char.isascii() and char.isalpha()}
    return any(letters <= alphabet for alphabet in _ALPHABETS)


def spelling_candidates(texts: Iterable[str]) -> list[int]:
    """The positions of the ``texts`` that spell one alphabet (see :func:`spells_one_alphabet`)."""
    return [index for index, text in enumerate(texts) if spells_one_alphabet(text)]
