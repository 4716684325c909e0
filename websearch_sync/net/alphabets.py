"""The accented letters of the Latin-script languages the Windows code pages serve.

Charset detection rates two code pages alike when their only difference in a text is a letter or two
(a Spanish ``ñ`` is cp1250's ``ń``, a Hungarian ``ő`` cp1252's ``õ``). What tells them apart is which
decoding spells a real alphabet: ``á é í ñ ó ú`` is Spanish, ``á é í ń ó ú`` is no language's.
"""

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


def spells_one_alphabet(text: str) -> bool:
    """Whether every non-ASCII letter of ``text`` belongs to one language's alphabet (a text without
    any fits every alphabet)."""
    letters = {char for char in text.lower() if not char.isascii() and char.isalpha()}
    return any(letters <= alphabet for alphabet in _ALPHABETS)


def spelling_candidates(texts: Iterable[str]) -> list[int]:
    """The positions of the ``texts`` that spell one alphabet (see :func:`spells_one_alphabet`)."""
    return [index for index, text in enumerate(texts) if spells_one_alphabet(text)]
