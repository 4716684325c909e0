"""DuckDuckGo's regions: the ``kl`` (``l`` for its verticals) a locale is sent as.

DuckDuckGo takes only the regions its region select lists, in its own words: the United Kingdom
is ``uk-en`` (not ``gb-en``), Norway ``no-no``, Slovenia ``sl-sl``, Saudi Arabia ``xa-ar``, and
some countries only in English (Israel ``il-en``, Thailand ``th-en``). :data:`DDG_REGIONS` is that
list as the recorded pages' ``<select name="kl">`` holds it (``fixtures/ddg_html``), keyed by the
locale SearXNG reads each as (``searx/data/engine_traits.json``, ``"duckduckgo"`` ``regions``,
2026-08): 62 regions and Catalonia's second code ``ct-ca`` (``es-ca`` is Spain in Catalan).

These are what is sent; the ddgs regions a locale is refused as are another table
(``vocabulary.ddgs``): ``no-no`` is DuckDuckGo's Norway and ``no-NO`` a valid locale.
"""

from typing import Optional

from ..engine.locales import split_locale

__all__: list[str] = []  # internal: documented in docs/backends.md

#: ``{locale: DuckDuckGo's region}``, every region DuckDuckGo's region select lists but ``wt-wt``
#: (no region: what an empty ``kl`` means) and ``ct-ca`` (the same as ``es-ca``).
DDG_REGIONS = {
    "ar-SA": "xa-ar", "bg-BG": "bg-bg", "ca-ES": "es-ca", "cs-CZ": "cz-cs", "da-DK": "dk-da", "de-AT": "at-de",
    "de-CH": "ch-de", "de-DE": "de-de", "el-GR": "gr-el", "en-AU": "au-en", "en-CA": "ca-en", "en-GB": "uk-en",
    "en-IE": "ie-en", "en-IL": "il-en", "en-IN": "in-en", "en-MY": "my-en", "en-NZ": "nz-en", "en-PH": "ph-en",
    "en-PK": "pk-en", "en-SG": "sg-en", "en-US": "us-en", "en-ZA": "za-en", "es-AR": "ar-es", "es-CL": "cl-es",
    "es-CO": "co-es", "es-ES": "es-es", "es-MX": "mx-es", "es-PE": "pe-es", "es-US": "us-es", "et-EE": "ee-et",
    "fi-FI": "fi-fi", "fr-BE": "be-fr", "fr-CA": "ca-fr", "fr-CH": "ch-fr", "fr-FR": "fr-fr", "hr-HR": "hr-hr",
    "hu-HU": "hu-hu", "id-ID": "id-en", "is-IS": "is-is", "it-IT": "it-it", "ja-JP": "jp-jp", "ko-KR": "kr-kr",
    "lt-LT": "lt-lt", "lv-LV": "lv-lv", "nb-NO": "no-no", "nl-BE": "be-nl", "nl-NL": "nl-nl", "pl-PL": "pl-pl",
    "pt-BR": "br-pt", "pt-PT": "pt-pt", "ro-RO": "ro-ro", "ru-RU": "ru-ru", "sk-SK": "sk-sk", "sl-SI": "sl-sl",
    "sv-SE": "se-sv", "th-TH": "th-en", "tr-TR": "tr-tr", "uk-UA": "ua-uk", "vi-VN": "vn-en", "zh-CN": "cn-zh",
    "zh-HK": "hk-tzh", "zh-TW": "tw-tzh",
}  # fmt: skip


def _by_country() -> dict[str, dict[str, str]]:
    regions: dict[str, dict[str, str]] = {}
    for locale, region in DDG_REGIONS.items():
        language, country = locale.split("-")
        regions.setdefault(country, {})[language] = region
    return regions


#: ``{country: {language: region}}``: Belgium, Canada, Spain, Switzerland and the United States
#: have a region per language, every other country one.
_COUNTRY_REGIONS = _by_country()


def ddg_region_of(language: str, country: str) -> Optional[str]:
    """DuckDuckGo's region for a locale's ``language`` and ``country`` (upper case): the country's
    region in that language (``fr``, ``CA``: ``ca-fr``), else the country's one region whatever
    its language (``he``, ``IL``: ``il-en``; ``no``, ``NO``: ``no-no``), else ``None``: a country
    DuckDuckGo lists no region of (``EG``), or one of several languages none of which is the
    locale's (``it``, ``CH``: DuckDuckGo has ``ch-de`` and ``ch-fr``, which one is no guess to make)."""
    regions = _COUNTRY_REGIONS.get(country, {})
    if language in regions:
        return regions[language]
    return next(iter(regions.values())) if len(regions) == 1 else None


def ddg_region(locale: Optional[str]) -> Optional[str]:
    """DDG's ``kl`` region for a locale, one of the regions DuckDuckGo lists (:func:`ddg_region_of`):
    ``en-US`` -> ``us-en``, ``en-GB`` -> ``uk-en``, ``zh-Hant-TW`` -> ``tw-tzh``, ``he-IL`` -> ``il-en``;
    ``None`` for a locale without a country (``de``; ``zh-Hant``, a script; ``es-419``, a region of
    countries) or one DuckDuckGo has no region for (``ar-EG``, ``it-CH``): the request goes without."""
    if not locale:
        return None
    language, country = split_locale(locale)
    return ddg_region_of(language, country) if country else None


def region_dropped(locale: Optional[str]) -> tuple[str, ...]:
    """The parts of a locale with a country that :func:`ddg_region` does not carry (the engines'
    ``dropped``: ``provider_meta["not_sent"]``): ``"locale"`` when DuckDuckGo has no region for it
    (``ar-EG``), ``"locale.language"`` when the region is the country's one whatever the language
    (``de-DE`` and ``en-DE`` are both ``de-de``: DuckDuckGo's Germany); the language is carried only
    where the country has a region per language (``fr-CA``: ``ca-fr``, ``en-CA``: ``ca-en``). A
    locale without a country is ``locale=language-only``, which the engines declare."""
    if not locale:
        return ()
    language, country = split_locale(locale)
    if not country:
        return ()
    regions = _COUNTRY_REGIONS.get(country, {})
    if ddg_region_of(language, country) is None:
        return ("locale",)
    return () if len(regions) > 1 else ("locale.language",)
