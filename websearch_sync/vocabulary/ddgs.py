"""ddgs's words and ours: what the refusal of a ddgs argument name or region says to use instead.

Code written for ddgs (``DDGS().text/news/images/videos``, ``ddgs/ddgs.py`` and its engines)
passes names this library does not take (``region``, ``timelimit``, ``type_image``) or a region
as a locale (``us-en``). Each is still refused (a renamed argument taken silently would hide
that its values differ too); these tables only make the message name our equivalent.
"""

from typing import Callable, Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_IMAGES = " with vertical='images'"
_VIDEOS = " with vertical='videos'"

#: ``{ddgs argument: what this library takes instead, and how its values differ}``; ddgs's
#: ``max_results`` and ``backend`` are names of ours too (docs/api.md, "Coming from ddgs").
DDGS_ARGUMENTS = {
    "keywords": "query, search()'s first argument",
    "region": "locale, a language tag, language first: ddgs's 'us-en' is 'en-US', 'uk-en' 'en-GB'; for 'wt-wt' "
    "give none",
    "safesearch": "safe_search: 'off', 'moderate' or 'strict' (ddgs's 'on' is 'strict')",
    "timelimit": "time_range: 'day', 'week', 'month' or 'year' (ddgs's 'd', 'w', 'm', 'y'; a date range has none)",
    "page": "pageno, an option of the backends that page by number; max_results over one page reads the next "
    "pages itself",
    "size": "image_size" + _IMAGES,
    "color": "image_color" + _IMAGES,
    "type_image": "image_type" + _IMAGES,
    "layout": "image_layout" + _IMAGES,
    "license_image": "image_license" + _IMAGES + " (ddgs's 'any' is 'creative_commons', 'Public' 'public_domain', "
    "'ShareCommercially' 'share_commercially', 'ModifyCommercially' 'modify_commercially')",
    "resolution": "video_resolution" + _VIDEOS + " (ddgs's 'standart' is 'standard')",
    "duration": "video_duration" + _VIDEOS,
    "license_videos": "video_license" + _VIDEOS + " (ddgs's 'creativeCommon' is 'creative_commons')",
}

#: ddgs's regions (``region``, DuckDuckGo's ``kl``): the list ddgs documents (``wt-wt``, no region,
#: ``xl-es``, ``il-he`` ...) with those DuckDuckGo's region select lists now (``pk-en``, ``is-is``,
#: ``il-en``, ``us-es``, ``es-ca``). Only these are refused or hinted as ddgs's: ``nl-AN`` is a locale.
DDGS_REGION_LIST = frozenset(
    """
    ar-es at-de au-en be-fr be-nl bg-bg br-pt ca-en ca-fr ch-de ch-fr ch-it cl-es cn-zh co-es ct-ca cz-cs
    de-de dk-da ee-et es-ca es-es fi-fi fr-fr gr-el hk-tzh hr-hr hu-hu id-en id-id ie-en il-en il-he in-en
    is-is it-it jp-jp kr-kr lt-lt lv-lv mx-es my-en my-ms nl-nl no-no nz-en pe-es ph-en ph-tl pk-en pl-pl
    pt-pt ro-ro ru-ru se-sv sg-en sk-sk sl-sl th-en th-th tr-tr tw-tzh ua-uk ue-es uk-en us-en us-es ve-es
    vn-en vn-vi wt-wt xa-ar xa-en xl-es za-en
    """.split()
)

#: The regions of :data:`DDGS_REGION_LIST` whose locale is not their two parts swapped (``at-de`` is
#: ``de-AT``): ``""`` for the one that is no locale (``wt-wt``, no region). DuckDuckGo's own words:
#: ``uk`` the United Kingdom, ``xl`` Latin America, ``ue`` the United States in Spanish, ``ct``
#: Catalonia, ``tzh`` traditional Chinese, ``xa`` (Saudi) Arabia, ``sl`` Slovenia (not Sierra Leone).
DDGS_REGIONS = {
    "wt-wt": "",
    "uk-en": "en-GB",
    "xl-es": "es-419",
    "ue-es": "es-US",
    "ct-ca": "ca-ES",
    "hk-tzh": "zh-HK",
    "tw-tzh": "zh-TW",
    "jp-jp": "ja-JP",
    "kr-kr": "ko-KR",
    "xa-ar": "ar-SA",
    "xa-en": "en-SA",
    "sl-sl": "sl-SI",
}


def ddgs_argument(name: str) -> str:
    """`` (ddgs's region is locale here: ...)`` for a ddgs argument name, else ``""``."""
    instead = DDGS_ARGUMENTS.get(name)
    return " (ddgs's %s is our %s)" % (name, instead) if instead else ""


#: ``{our option: {ddgs's value (lower case): ours}}`` for ddgs's values no close spelling of
#: which is ours (``safesearch="on"``); the others are ours in any case (``Large``), or close
#: enough for the refusal's "did you mean" (``Public``: ``public_domain``; ``standart``).
DDGS_VALUES = {
    "vertical": {"text": "web"},  # DDGS().text() is a web search
    "safe_search": {"on": "strict"},
    "time_range": {"d": "day", "w": "week", "m": "month", "y": "year"},
    "image_license": {"any": "creative_commons"},
}


def ddgs_value(option: str, value: str) -> str:
    """`` (ddgs's 'on' is 'strict')`` for a ddgs value of ``option`` that is none of ours, else ``""``."""
    ours = DDGS_VALUES.get(option, {}).get(value.lower())
    return " (ddgs's %r is %r)" % (value, ours) if ours else ""


def ddgs_region_locale(value: str) -> Optional[str]:
    """The locale a ddgs region means (``us-en`` -> ``en-US``, ``wt-wt`` -> ``""``: none), in any
    case, or ``None`` when ``value`` is none of :data:`DDGS_REGION_LIST` (``nl-AN`` swapped is no hint)."""
    lowered = value.lower().replace("_", "-")
    if lowered not in DDGS_REGION_LIST:
        return None
    if lowered in DDGS_REGIONS:
        return DDGS_REGIONS[lowered]
    country, _, language = lowered.partition("-")
    return "%s-%s" % (language, country.upper())


def country_locales(code: str) -> list[str]:
    """The locales of the country ``code`` (``jp``: ``ja-JP``; ``il``: ``en-IL``, ``he-IL``) by ddgs's
    regions of it, in order; none for a code no region of :data:`DDGS_REGION_LIST` starts with."""
    prefix = code.lower() + "-"
    found = (ddgs_region_locale(region) for region in sorted(DDGS_REGION_LIST) if region.startswith(prefix))
    return sorted(locale for locale in found if locale)


#: ``{code: (language, country)}``: two-letter codes that are a rare language's (ISO 639-1) and a common
#: country's whose own language has another code, so a locale of the code alone is most often typed for the
#: country (``kr``: Kanuri, typed for Korea, ``ko-KR``). Taken as the language, with a hint naming the
#: country's locales (:func:`country_locales`). Not here: a code of a widely used language (``ar`` Arabic,
#: Argentina's; ``ca`` Catalan, Canada's; ``be``, ``my``), read as typed.
COUNTRY_CODE_LANGUAGES = {
    "br": ("Breton", "Brazil"),
    "ch": ("Chamorro", "Switzerland"),
    "co": ("Corsican", "Colombia"),
    "ee": ("Ewe", "Estonia"),
    "ie": ("Interlingue", "Ireland"),
    "kr": ("Kanuri", "Korea"),
    "se": ("Northern Sami", "Sweden"),
    "sg": ("Sango", "Singapore"),
    "tw": ("Twi", "Taiwan"),
    "ve": ("Venda", "Venezuela"),
    "za": ("Zhuang", "South Africa"),
}


def country_code_hint(locale: str) -> Optional[str]:
    """``locale 'kr' is Kanuri; for Korea use ko-KR`` for a locale of :data:`COUNTRY_CODE_LANGUAGES`,
    else ``None``."""
    entry = COUNTRY_CODE_LANGUAGES.get(locale.lower())
    if entry is None:
        return None
    return "locale %r is %s; for %s use %s" % (locale, entry[0], entry[1], " or ".join(country_locales(locale)))


def ddgs_misread(value: str) -> Optional[str]:
    """The locale ``value`` means when it is a ddgs region as ddgs writes it (lower case, country
    first: ``ar-es``) and read as a locale it means another (``ar-es``, Argentina, read as Arabic
    in Spain: ``es-AR``), else ``None``: ``de-de`` is ``de-DE`` either way, ``no-no`` ``no-NO``, and
    ``ar-ES`` (the canonical case of a locale) is no ddgs form."""
    meant = ddgs_region_locale(value) if value == value.lower() and "_" not in value else None
    return None if meant is None or meant == as_locale(value) else meant


def as_locale(value: str) -> str:
    """``value`` (``ar-es``) in a locale's case: its language lower, its country upper (``ar-ES``)."""
    language, _, country = value.partition("-")
    return "%s-%s" % (language.lower(), country.upper()) if len(country) == 2 else value


_QUERY_ARGUMENT = "the query is search's argument, given without a flag"
_LOCALE_FLAG = "--locale, a language tag, language first: us-en is en-US; for wt-wt give none"
_TIME_FLAG = "--time-range day, week, month or year: d is day"
#: ``-n`` first: ``pageno`` is an option of the backends that page by number only (not the default
#: ``stub``, nor ``ddg_html``'s or ``ddg_lite``'s web search), refused with the others.
_PAGE_FLAG = "-n, the results wanted, read over as many pages as they take; a backend that pages by number also takes --option pageno=N"
_OUTPUT_FLAG = "--format json, jsonl or markdown, written to stdout: redirect it, > results.json"

#: ``{ddgs's command-line flag (``ddgs text -r us-en -t d -m 5``): ours}``, ``websearch-sync search``'s
#: flags; the flags whose letters name ours already are left to that (``--safesearch``: ``--safe-search``).
DDGS_FLAGS = {
    "-q": _QUERY_ARGUMENT,
    "-k": _QUERY_ARGUMENT,
    "--keywords": _QUERY_ARGUMENT,
    "-r": _LOCALE_FLAG,
    "--region": _LOCALE_FLAG,
    "-s": "--safe-search off, moderate or strict: on is strict",
    "-t": _TIME_FLAG,
    "--timelimit": _TIME_FLAG,
    "-m": "-n",
    "-p": _PAGE_FLAG,
    "--page": _PAGE_FLAG,
    "-o": _OUTPUT_FLAG,
    "--output": _OUTPUT_FLAG,
    "-pr": "the WEB_SEARCH_PROXY variable",
    "--proxy": "the WEB_SEARCH_PROXY variable",
}


_IMAGES_FLAG = " with --vertical images"
_VIDEOS_FLAG = " with --vertical videos"

#: ddgs's flags of its ``images`` and ``videos`` commands (``ddgs images -size Large -type gif``,
#: ``ddgs videos -res high -d short``): ours. Named only as typed, never as a flag with its value
#: joined (:func:`ddgs_joined_flag`): ``-debug`` is no ``-d`` with ``ebug``. Looked up before
#: :data:`DDGS_FLAGS`' joined forms, so ``-size`` is not ``-s`` (safe search) with ``ize``.
DDGS_MEDIA_FLAGS = {
    "-size": "--image-size" + _IMAGES_FLAG,
    "--size": "--image-size" + _IMAGES_FLAG,
    "-c": "--image-color" + _IMAGES_FLAG,
    "--color": "--image-color" + _IMAGES_FLAG,
    "-type": "--image-type" + _IMAGES_FLAG,
    "--type_image": "--image-type" + _IMAGES_FLAG,
    "-l": "--image-layout" + _IMAGES_FLAG,
    "--layout": "--image-layout" + _IMAGES_FLAG,
    "-lic": "--image-license" + _IMAGES_FLAG + ", --video-license" + _VIDEOS_FLAG,  # both commands' -lic
    "--license_image": "--image-license" + _IMAGES_FLAG + " (any is creative_commons)",
    "-res": "--video-resolution" + _VIDEOS_FLAG + " (standart is standard)",
    "--resolution": "--video-resolution" + _VIDEOS_FLAG + " (standart is standard)",
    "-d": "--video-duration" + _VIDEOS_FLAG,
    "--duration": "--video-duration" + _VIDEOS_FLAG,
    "--license_videos": "--video-license" + _VIDEOS_FLAG + " (creativeCommon is creative_commons)",
}

#: ddgs's commands (``ddgs news -q ...``): the vertical ``websearch-sync search`` searches for each.
DDGS_COMMANDS = {"text": "web", "news": "news", "images": "images", "videos": "videos"}


def ddgs_flag(flag: str) -> str:
    """`` (ddgs's -t: here --time-range ...)`` for a flag of ddgs's command line, else ``""``."""
    instead = DDGS_FLAGS.get(flag) or DDGS_MEDIA_FLAGS.get(flag)
    return " (ddgs's %s: here %s)" % (flag, instead) if instead else ""


#: The values ddgs's short flags take, as they may be joined to the flag (``-td``, ``-m5``, ``-rus-en``):
#: a word whose rest is none of them is no such flag but a query's excluded term typed unquoted
#: (``-reddit`` is no ``-r`` with ``eddit``, ``-twitter`` no ``-t``, ``-pinterest`` no ``-p``).
_JOINED_VALUES: dict[str, Callable[[str], bool]] = {
    "-r": lambda value: (
        len(value) == 5 and value[2] == "-" and (value[:2] + value[3:]).isascii() and (value[:2] + value[3:]).isalpha()
    ),
    "-s": lambda value: value.lower() in ("on", "moderate", "off"),
    "-t": lambda value: value.lower() in ("d", "w", "m", "y"),
    "-m": lambda value: value.isascii() and value.isdigit(),
    "-p": lambda value: value.isascii() and value.isdigit(),
    "-o": lambda value: value.lower() in ("json", "csv") or value.lower().endswith((".json", ".csv")),
    "-pr": lambda value: value.lower() == "tb" or "://" in value,
}


def ddgs_joined_flag(word: str) -> str:
    """The short flag of ddgs's command line that ``word`` starts with, its value joined to it as a
    short flag's may be (``-td``, ``-m5``, ``-rus-en``, ``-prsocks5://...``: the longest flag first),
    else ``""``: also when the rest is no value that flag takes (:data:`_JOINED_VALUES`)."""
    if word.startswith("--"):
        return ""
    return next(
        (
            flag
            for flag in (word[:3], word[:2])
            if flag in _JOINED_VALUES and len(word) > len(flag) and _JOINED_VALUES[flag](word[len(flag) :])
        ),
        "",
    )


def ddgs_keyword(name: str) -> Optional[str]:
    """Our search() keyword for ddgs argument ``name`` (``timelimit``: ``time_range``), the first word of
    what :data:`DDGS_ARGUMENTS` says instead, else ``None``."""
    instead = DDGS_ARGUMENTS.get(name)
    return instead.split(":")[0].split(",")[0].split(" ")[0] if instead else None


def ddgs_argument_as_flag(name: str, flag: Optional[str]) -> str:
    """`` (ddgs's timelimit: here --time-range day, week, month or year: d is day)`` for ddgs argument
    ``name`` given on the command line (``--option timelimit=d``): what :data:`DDGS_FLAGS` says of ddgs's
    flag of that name (``--page``), else of ``flag``, the flag setting our keyword for it, else that flag;
    ``""`` when there is neither."""
    said = DDGS_FLAGS.get("--" + name)
    if said is None and flag is not None:
        said = next((text for text in DDGS_FLAGS.values() if text.split(" ")[0].rstrip(",") == flag), flag)
    return " (ddgs's %s: here %s)" % (name, said) if said else ""
