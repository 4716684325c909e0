"""DuckDuckGo's regions: the ``kl`` (``l`` for its verticals) a locale is sent as.

DuckDuckGo takes only the regions its region select lists, in its own words: the United Kingdom
is ``uk-en`` (not ``gb-en``), Norway ``no-no``, Slovenia ``sl-sl``, Saudi Arabia ``xa-ar``, and
some countries only in English (Israel ``il-en``, Thailand ``th-en``). :data:`DDG_REGIONS` is that
list as the recorded pages' ``<select name="kl">`` holds it (``fixtures/ddg_html``), keyed by the
locale SearXNG reads each as (``searx/data/engine_traits.json``, ``"duckduckgo"`` ``regions``,
2026-08), with the other locales a region is for (:data:`_ALSO`). A locale none is for is sent
without a region (DuckDuckGo's "All Regions"), and ``not_sent`` says so: a region is not guessed
from the country alone (``en-DE`` would be Germany in German, ``it-CH`` Switzerland in German or French).

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


#: The other locales a region is for: the English of the regions DuckDuckGo names "(en)" in a
#: country of another language (``th-en``, "Thailand (en)"); the language of Israel, Malaysia and
#: the Philippines, whose regions in it (``il-he``, ``my-ms``, ``ph-tl``: DuckDuckGo's earlier
#: list, ddgs's) DuckDuckGo folded into the English one; Norwegian's other codes; and the withdrawn
#: codes BCP 47 keeps for Hebrew and Indonesian (``iw``, ``in``).
_ALSO = {
    "en-ID": "id-en", "in-ID": "id-en", "en-TH": "th-en", "en-VN": "vn-en",
    "he-IL": "il-en", "iw-IL": "il-en", "ms-MY": "my-en", "fil-PH": "ph-en", "tl-PH": "ph-en",
    "no-NO": "no-no", "nn-NO": "no-no",
}  # fmt: skip

_BY_LOCALE = {**DDG_REGIONS, **_ALSO}


def ddg_region(locale: Optional[str]) -> Optional[str]:
    """DDG's ``kl`` region for a locale, one of the regions DuckDuckGo lists (:data:`DDG_REGIONS`):
    ``en-US`` -> ``us-en``, ``en-GB`` -> ``uk-en``, ``zh-Hant-TW`` -> ``tw-tzh``, ``he-IL`` -> ``il-en``;
    ``None`` for a locale without a country (``de``; ``zh-Hant``, a script; ``es-419``, a region of
    countries) or one DuckDuckGo has no region for (``ar-EG``, ``it-CH``, ``en-DE``): the request goes without."""
    if not locale:
        return None
    language, country = split_locale(locale)
    return _BY_LOCALE.get("%s-%s" % (language, country)) if country else None


def region_dropped(locale: Optional[str]) -> tuple[str, ...]:
    """``("locale",)`` for a locale with a country that :func:`ddg_region` sends no region for (the
    engines' ``dropped``: ``provider_meta["not_sent"]``); one without a country is
    ``locale=language-only``, which the engines declare."""
    return ("locale",) if locale and split_locale(locale)[1] and ddg_region(locale) is None else ()
