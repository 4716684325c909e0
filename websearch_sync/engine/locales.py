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


def traditional_chinese(locale: str) -> bool:
    """Whether a Chinese ``locale`` is written in traditional characters: the ``Hant`` script, or
    a region that writes them (Taiwan, Hong Kong, Macao); ``zh``, ``zh-CN``, ``zh-SG``: simplified."""
    return any(part in ("hant", "tw", "hk", "mo") for part in locale.lower().replace("_", "-").split("-")[1:])
