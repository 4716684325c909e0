"""A locale's parts as the engines send them: its language, its region, its script.

Locales arrive as BCP 47-like tags (``"en-US"``, ``"zh-Hant-TW"``, ``"es-419"``, ``"de"``); an
engine sends a language, a country or both, and :mod:`~.unsent` reports the parts it left out.
Both read the tag here, the one place that says what counts as a region.
"""

from typing import Optional

__all__: list[str] = []  # internal: split_locale is public through websearch_sync.backends


def split_locale(locale: str) -> tuple[str, Optional[str]]:
    """``"en-US"`` -> ``("en", "US")``; ``"zh-Hant-TW"`` -> ``("zh", "TW")``; ``"de"`` -> ``("de", None)``;
    ``"es-419"`` -> ``("es", None)``: a region of UN M.49 digits is no country (:func:`locale_region`)."""
    region = locale_region(locale)
    return locale.replace("_", "-").split("-")[0].lower(), region if region and region.isalpha() else None


def locale_region(locale: str) -> Optional[str]:
    """The region subtag of ``locale``: two letters (``"US"``) or three UN M.49 digits (``"419"``,
    Latin America), ``None`` without one (``"zh-Hant"``: a script)."""
    parts = locale.replace("_", "-").split("-")[1:]
    return next((p.upper() for p in parts if (len(p) == 2 and p.isalpha()) or (len(p) == 3 and p.isdigit())), None)


def traditional_chinese(locale: str) -> bool:
    """Whether a Chinese ``locale`` is written in traditional characters: the ``Hant`` script, or
    a region that writes them (Taiwan, Hong Kong, Macao); ``zh``, ``zh-CN``, ``zh-SG``: simplified."""
    return any(part in ("hant", "tw", "hk", "mo") for part in locale.lower().replace("_", "-").split("-")[1:])
