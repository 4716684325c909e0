"""A locale's parts as the engines send them: its language, its region, its script.

Locales arrive as BCP 47-like tags (``"en-US"``, ``"zh-Hant-TW"``, ``"es-419"``, ``"de"``); an
engine sends a language, a country or both, and :mod:`~.unsent` reports the parts it left out.
Both read the tag here, by the one rule of what counts as a region (``vocabulary.locale_codes``,
which validation checks the locale's codes with).
"""

from typing import Optional

from ..vocabulary.locale_codes import locale_parts, region_subtag

__all__: list[str] = []  # internal: split_locale is public through websearch_sync.backends


def split_locale(locale: str) -> tuple[str, Optional[str]]:
    """``"en-US"`` -> ``("en", "US")``; ``"zh-Hant-TW"`` -> ``("zh", "TW")``; ``"de"`` -> ``("de", None)``;
    ``"es-419"`` -> ``("es", None)``: a region of UN M.49 digits is no country; ``"de-u-co-phonebk"``
    -> ``("de", None)``: an extension is no region (:func:`~..vocabulary.locale_codes.locale_parts`)."""
    return locale_parts(locale)


def locale_region(locale: str) -> Optional[str]:
    """The region subtag of ``locale``: two letters (``"US"``) or three UN M.49 digits (``"419"``,
    Latin America), ``None`` without one (``"zh-Hant"``: a script; ``"en-u-uk"``: an extension's
    subtag), by the rule validation checks (:func:`~..vocabulary.locale_codes.region_subtag`)."""
    return region_subtag(locale)


def locale_script(locale: str) -> Optional[str]:
    """The script subtag of ``locale``, title-cased (``"sr-latn"`` -> ``"Latn"``), ``None`` without
    one: four letters right after the language, as BCP 47 places it (``zh-Hant-TW``)."""
    parts = locale.replace("_", "-").split("-")
    script = parts[1] if len(parts) > 1 else ""
    return script.title() if len(script) == 4 and script.isascii() and script.isalpha() else None


#: The script a language written in several is read in when no script is said, and the regions
#: where it is another one: CLDR's likelySubtags (``sr`` -> ``sr_Cyrl_RS``, ``sr_ME`` ->
#: ``sr_Latn_ME``, ``uz`` -> ``uz_Latn_UZ``, ``pa_PK`` -> ``pa_Arab_PK``), for the languages CLDR
#: writes in more than one script (a locale of another script, ``sr_Latn``, ``hi_Latn``, ``bs_Cyrl``,
#: or a region of another one; tests/unit/test_locale_scripts.py checks them against CLDR's data
#: in babel). A language not here is taken to be written in one script, which dropping says nothing
#: against (``ru-Cyrl``, ``de-Latn``). Chinese is Traditional in the regions
#: the services read so (Taiwan, Hong Kong, Macao: :func:`traditional_chinese`); CLDR also gives
#: ``zh_US`` and a dozen other diaspora regions ``Hant``, which no service here reads as Traditional.
_LIKELY_SCRIPTS: dict[str, tuple[str, dict[str, str]]] = {
    "az": ("Latn", {"IQ": "Arab", "IR": "Arab", "RU": "Cyrl"}),
    "bal": ("Arab", {}),
    "bm": ("Latn", {}),
    "bs": ("Latn", {}),
    "en": ("Latn", {}),
    "ff": ("Latn", {}),
    "ha": ("Latn", {"CM": "Arab", "SD": "Arab"}),
    "hi": ("Deva", {}),
    "isv": ("Latn", {}),
    "iu": ("Cans", {}),
    "kaa": ("Cyrl", {}),
    "kk": ("Cyrl", {"AF": "Arab", "CN": "Arab", "IR": "Arab", "MN": "Arab"}),
    "kok": ("Deva", {}),
    "ks": ("Arab", {}),
    "ku": ("Latn", {**dict.fromkeys(("AM", "AZ", "GE", "TM"), "Cyrl"), **dict.fromkeys(("IQ", "IR", "LB"), "Arab")}),
    "ky": ("Cyrl", {"CN": "Arab", "TR": "Latn"}),
    "kxv": ("Latn", {}),
    "mn": ("Cyrl", {"CN": "Mong"}),
    "mni": ("Beng", {}),
    "ms": ("Latn", {"CC": "Arab"}),
    "pa": ("Guru", {"PK": "Arab"}),
    "sat": ("Olck", {}),
    "sd": ("Arab", {"IN": "Deva"}),
    "shi": ("Tfng", {}),
    "sr": ("Cyrl", {"ME": "Latn", "RO": "Latn", "TR": "Latn"}),
    "suz": ("Deva", {}),
    "tg": ("Cyrl", {"PK": "Arab"}),
    "tk": ("Latn", {}),
    "ug": ("Arab", {"KZ": "Cyrl", "MN": "Cyrl"}),
    "uz": ("Latn", {"AF": "Arab", "CN": "Cyrl"}),
    "vai": ("Vaii", {}),
    "yi": ("Hebr", {}),
    "yue": ("Hant", {"CN": "Hans"}),
    "zh": ("Hans", {"TW": "Hant", "HK": "Hant", "MO": "Hant"}),
}


def likely_script(tag: str) -> Optional[str]:
    """The script a service reads the language tag ``tag`` in (``"sr-RS"``, ``"zh-TW"``,
    ``"zh-hant"``): the script it names, else its language's likely one in its region
    (:data:`_LIKELY_SCRIPTS`: ``sr-ME`` -> ``Latn``, ``zh-TW`` -> ``Hant``), else ``None`` for a
    language written in one script (or none CLDR lists in several)."""
    named = locale_script(tag)
    if named is not None:
        return named
    language, region = split_locale(tag)
    usual = _LIKELY_SCRIPTS.get(language.lower())
    if usual is None:
        return None
    return usual[1].get((region or "").upper(), usual[0])


def traditional_chinese(locale: str) -> bool:
    """Whether a Chinese ``locale`` is written in traditional characters: the script it names
    (``Hant``; ``zh-Hans-TW`` is Simplified Chinese in Taiwan), else a region that writes them
    (Taiwan, Hong Kong, Macao); ``zh``, ``zh-CN``, ``zh-SG``: simplified."""
    script = locale_script(locale)
    if script in ("Hans", "Hant"):
        return script == "Hant"
    return any(part in ("tw", "hk", "mo") for part in locale.lower().replace("_", "-").split("-")[1:])
