"""Input validation: every bad input becomes ``InvalidInput``, by one rule per kind of input.

- numbers (:func:`check_number`): every count, size, limit and duration the library takes,
  from ``Settings`` to the command line, with its range and detail code as parameters;
- search's inputs (:func:`search_params`);
- a tool's arguments (:class:`Argument`): one declaration gives both the JSON Schema a
  model is shown (:func:`arguments_schema`) and the check of what it sends
  (:func:`check_arguments`), so the two cannot disagree;
- URLs: an endpoint's (:func:`url_fault`); the shared state's (:func:`check_state_url`) and the
  ``impersonate`` profile (:func:`check_impersonate`) live in :mod:`.settings`, re-exported here.

This module sits below ``config`` (which checks its numbers here), so it imports only
``errors``, ``models``, ``hostnames``, ``secrets`` and the code tables of ``vocabulary``
(and its own :mod:`.settings`).
"""

import dataclasses
import difflib
import functools
import inspect
import logging
import re
import unicodedata
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from typing import Any, Callable, Literal, Optional, Protocol, TypeVar, Union, cast, overload

from ..errors import (
    BAD_ARGUMENTS,
    BAD_FILTER,
    BAD_INCLUDE_CONTENT,
    BAD_LOCALE,
    BAD_MAX_CONTENT_CHARS,
    BAD_MAX_RESULTS,
    BAD_OPTION,
    BAD_QUERY,
    BAD_SAFE_SEARCH,
    BAD_SITE_FILTER,
    BAD_TIME_RANGE,
    BAD_TIMEOUT,
    BAD_TRACE_ID,
    BAD_VERTICAL,
    EMPTY_QUERY,
    QUERY_TOO_LONG,
    UNKNOWN_BACKEND,
    InvalidInput,
)
from ..hostnames import idna_refusal, ignored_character
from ..models import MEDIA_FILTERS, SAFE_SEARCH_LEVELS, TIME_RANGES, VERTICALS, SearchParams
from ..once import Once
from ..secrets import name_words, userinfo_hidden
from ..vocabulary.ddgs import (
    DDGS_ARGUMENTS,
    as_locale,
    country_code_hint,
    country_locales,
    ddgs_argument,
    ddgs_keyword,
    ddgs_misread,
    ddgs_region_locale,
    ddgs_value,
)
from ..vocabulary.locale_codes import LANGUAGE_NAME_GIVEN, locale_refusal, named_language
from ..vocabulary.synonyms import OPTION_SYNONYMS, VALUE_SYNONYMS
from .settings import (  # re-exported: config and the client check these settings alike
    IMPERSONATE_CHOICES as IMPERSONATE_CHOICES,
)
from .settings import (
    IMPERSONATE_PLACES as IMPERSONATE_PLACES,
)
from .settings import (
    IMPERSONATE_PROFILES as IMPERSONATE_PROFILES,
)
from .settings import (
    STATE_URL_PLACES as STATE_URL_PLACES,
)
from .settings import (
    check_impersonate as check_impersonate,
)
from .settings import (
    check_state_url as check_state_url,
)
from .settings import (
    shown_url as shown_url,
)

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_Callable = TypeVar("_Callable", bound=Callable[..., Any])

logger = logging.getLogger("websearch_sync")

#: The characters no URL given to the library may hold (a fetch's, an endpoint's): C0 controls and DEL,
#: tab and line breaks included (a parser would drop a tab or line break without a word, or send it
#: encoded); searched in C, not character by character in Python.
URL_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")
#: What a configured URL holding one says (``%s``: where it is set; ``%r``: the character).
CONTROL_IN_SETTING = "%s holds the control character %r (a URL may hold none: refused, as in a fetch's URL)"


def control_in(url: object) -> Optional[str]:
    """The first control character ``url`` holds (a string's: :data:`URL_CONTROL_CHARS`), or ``None``."""
    found = URL_CONTROL_CHARS.search(url) if isinstance(url, str) else None
    return found.group() if found else None


#: What splits a header value (or ends it, in C): refused in any header value.
_LINE_BREAKS = ("\r", "\n", "\x00")


def header_value_problem(value: str) -> Optional[str]:
    """Why ``value`` cannot be sent as a header value, or ``None``: the one rule of the transports
    (:mod:`..net.headers`) and of ``Settings.user_agent``."""
    if value.isascii() and value.isprintable():  # nearly every value: no line break, all Latin-1
        return None
    if any(mark in value for mark in _LINE_BREAKS):
        return "a line break or NUL"
    try:
        value.encode("latin-1")
    except UnicodeEncodeError as exc:
        return "the character %s at position %d, outside Latin-1 (HTTP headers carry Latin-1 only)" % (
            "U+%04X" % ord(value[exc.start]),
            exc.start,
        )
    return None


MAX_QUERY_CHARS = 2000
#: The most results one search returns (``max_results`` is 1..50; a backend whose pages hold
#: fewer reads the next pages).
MAX_RESULTS = 50
#: The most results one image search returns: 100, one page of DuckDuckGo's images, as ddgs
#: gives (an image is read at a glance, so more of them are asked for than of pages or articles).
MAX_IMAGE_RESULTS = 100
#: The most results one video search returns: 60, one page of DuckDuckGo's videos (its v.js answer's
#: ``next`` counts 60), as ddgs's ``videos(max_results=60)`` gives in one request.
MAX_VIDEO_RESULTS = 60
#: Each vertical's largest ``max_results`` where it is not :data:`MAX_RESULTS`.
_MOST_RESULTS = {"images": MAX_IMAGE_RESULTS, "videos": MAX_VIDEO_RESULTS}
#: The most results the LLM tool and the MCP server let a model ask for (a model reads every one).
TOOL_MAX_RESULTS = 10
#: The most result pages one search reads (50 results at 10 a page, and a margin for pages of
#: repeats): the ``max_pages`` option's bound, and ``Settings.max_pages``'s.
MAX_PAGES = 8
#: The longest deadline a call or a provider timeout may ask (10 minutes).
MAX_TIMEOUT_MS = 600_000

#: Options every backend receives (each uses what it supports).
COMMON_OPTIONS = (
    "locale",
    "lang",
    "time_range",
    "site_filter",
    "safe_search",
    "trace_id",
    "include_content",
    "max_content_chars",
    "vertical",
    *MEDIA_FILTERS,
)

#: A BCP 47 language tag: a 2-3 letter ISO 639 language, then script, region or variant subtags
#: (``en``, ``en-US``, ``zh-Hant-TW``, ``es-419``); a language name (``english``) is not one.
#: ``auto`` (any case) asks the service to pick the language itself: SearXNG's own word
#: (:data:`LOCALE_WORDS`); a backend that has no such word refuses it (``Backend.locale_words``).
_LOCALE = re.compile(r"^(?:[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}|(?i:auto))$")
#: The locale values that are no language tag.
LOCALE_WORDS = ("auto",)
#: A site: a host name (letters beyond ASCII too: an internationalised domain, ``bücher.de``), an
#: optional port and path (``docs.python.org/3``); its labels are checked by :func:`_site_filter`.
_SITE = re.compile(r"^((?:[A-Za-z0-9.-]|[^\x00-\x7f\s])+)(?::\d+)?(?:/[^\s]*)?$")
# a URL's start (RFC 3986's scheme then //): a ``://`` later in a path or query is part of a site filter
_URL_START = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")  # anchored: linear however it is scanned
#: The longest ``site_filter`` taken: a host name (253) with a port and a path.
MAX_SITE_FILTER = 1024
_HEADER_SAFE = re.compile(r"^[\x21-\x7e]{1,200}$")


# -- numbers ----------------------------------------------------------------------------------------


@overload
def check_number(
    name: str,
    value: object,
    *,
    detail: str,
    minimum: float = 1,
    maximum: Optional[float] = None,
    integer: Literal[True] = True,
    provider: Optional[str] = None,
    hint: str = "",
) -> int: ...


@overload
def check_number(
    name: str,
    value: object,
    *,
    detail: str,
    minimum: float = 1,
    maximum: Optional[float] = None,
    integer: Literal[False],
    provider: Optional[str] = None,
    hint: str = "",
) -> float: ...


def check_number(
    name: str,
    value: object,
    *,
    detail: str,
    minimum: float = 1,
    maximum: Optional[float] = None,
    integer: bool = True,
    provider: Optional[str] = None,
    hint: str = "",
) -> Union[int, float]:
    """``value`` unchanged when it is a number in ``minimum..maximum``, else ``InvalidInput(detail)``.

    The one number rule: ``integer`` asks for an ``int`` (a fraction is refused, not
    truncated); a bool is no number (``True`` is an ``int`` to Python, never a count to a
    caller), nor is NaN (it compares false with every limit). The message names ``name``,
    the range and the value, and ``hint`` (``" (...)"``) after the range, before the value:
    what to write instead; ``provider`` goes on the error (a backend's own setting).
    """
    kinds: tuple[type, ...] = (int,) if integer else (int, float)
    number = cast(float, value)
    if isinstance(value, bool) or not isinstance(value, kinds) or number != number:
        wanted = _wanted(minimum, maximum, integer)
    elif number < minimum or (maximum is not None and number > maximum):
        wanted = (
            "in %s..%s" % (_shown(minimum), _shown(maximum)) if maximum is not None else _wanted(minimum, None, integer)
        )
    else:
        return number
    raise InvalidInput(
        "%s must be %s%s, got %s" % (name, wanted, hint, shown_text(repr(value))), provider=provider, detail_code=detail
    )


def _wanted(minimum: float, maximum: Optional[float], integer: bool) -> str:
    """What a number must be, in words: ``a positive integer``, ``a number >= 0``, ``an integer in 1..10``."""
    kind = "an integer" if integer else "a number"
    if maximum is not None:
        return "%s in %s..%s" % (kind, _shown(minimum), _shown(maximum))
    if integer and minimum == 1:
        return "a positive integer"
    return "%s >= %s" % (kind, _shown(minimum))


def _shown(limit: float) -> str:
    """A limit as a reader writes it (``86400``, not ``86400.0``)."""
    return "%d" % limit if float(limit).is_integer() else "%s" % limit


#: The control characters a query may not hold: C0 but for whitespace (tab, line breaks, VT, FF), DEL
#: and C1. NUL and a terminal escape are no text anyone searches for; sent as given, a service got them
#: (one that cuts C strings at NUL searched for half the query) and any log line echoing the query did.
#: The separators U+001C-U+001F and NEL (U+0085, a C1 control that Unicode also counts a line break)
#: are refused with them, anywhere in the query, its edges too (``str.strip`` would drop them there
#: as whitespace): a query's line breaks are LF, CR, VT, FF, U+2028 and U+2029.
_QUERY_CONTROLS = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")


#: Invisible characters that are not whitespace: the variation selectors, the combining grapheme
#: joiner, the Hangul fillers and the blank Braille pattern; every format character (Unicode category Cf: zero-width space and
#: joiners, direction marks, byte-order mark, soft hyphen, tag characters) is one too.
_INVISIBLE_MARKS = frozenset(
    [chr(code) for code in range(0xFE00, 0xFE10)]
    + [chr(code) for code in range(0xE0100, 0xE01F0)]
    + ["\u034f", "\u115f", "\u1160", "\u2800", "\u3164", "\uffa0"]
)


def _invisible(character: str) -> bool:
    """Whether ``character`` shows nothing: whitespace, a format character or :data:`_INVISIBLE_MARKS`."""
    return character.isspace() or character in _INVISIBLE_MARKS or unicodedata.category(character) == "Cf"


def check_query(query: Any) -> str:
    """The query stripped of surrounding whitespace; ``InvalidInput`` unless a non-blank str of <= 2000
    characters that is valid Unicode (a lone surrogate cannot be encoded for any service) and holds no
    control character but whitespace (:data:`_QUERY_CONTROLS`: refused, never stripped, so the query
    searched is the query given). Both are checked on the query as given, before stripping: the
    position a message names counts code points (``str`` indices, from 0) in it. Search, the command
    line, the agent tools and MCP all check here. A query of invisible characters alone (a zero-width
    space, direction marks, a byte-order mark: :func:`_invisible`) is blank too, ``empty_query``; one
    with a visible character keeps its invisible ones (they are sent as given)."""
    if not isinstance(query, str):
        raise InvalidInput("query must be a string, got %s" % type(query).__name__, detail_code=BAD_QUERY)
    try:
        query.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: no service can be sent it
        raise InvalidInput(
            "query is not valid Unicode text: %r at position %d cannot be encoded" % (query[exc.start], exc.start),
            detail_code=BAD_QUERY,
        ) from None
    control = _QUERY_CONTROLS.search(query)
    if control is not None:
        raise InvalidInput(
            "query holds the control character %r at position %d: a query is text to search for"
            % (control.group(), control.start()),
            detail_code=BAD_QUERY,
        )
    text = query.strip()
    if not text:
        raise InvalidInput("query is empty or only whitespace", detail_code=EMPTY_QUERY)
    if len(text) > MAX_QUERY_CHARS:
        raise InvalidInput(
            "query is %d characters long; the limit is %d" % (len(text), MAX_QUERY_CHARS), detail_code=QUERY_TOO_LONG
        )
    if all(_invisible(character) for character in text):
        raise InvalidInput(
            "query holds only invisible characters (%s): nothing to search for"
            % ", ".join("U+%04X" % ord(character) for character in dict.fromkeys(text[:3])),
            detail_code=EMPTY_QUERY,
        )
    return text


def most_results(vertical: str) -> int:
    """The largest ``max_results`` of a search of ``vertical``: 100 for images, 60 for videos, else 50."""
    return _MOST_RESULTS.get(vertical, MAX_RESULTS)


def check_max_results(value: Any, default: int, vertical: str = "web") -> int:
    """``value`` (or ``default`` when None) checked to be an int in 1..50, 1..100 for images, 1..60
    for videos (:func:`most_results`; a bool is not an int)."""
    if value is None:
        return default
    return check_number("max_results", value, maximum=most_results(vertical), detail=BAD_MAX_RESULTS)


def check_timeout_ms(value: Any, name: str = "timeout_ms", detail: str = BAD_TIMEOUT) -> Optional[int]:
    """``None``, or a whole number of milliseconds in 1..600000 (a fraction or a bool is refused, not
    truncated): ``InvalidInput(detail)`` naming argument ``name``."""
    if value is None:
        return None
    return check_number(name, value, maximum=MAX_TIMEOUT_MS, detail=detail)


def _check_choice(name: str, value: Any, choices: Iterable[str], detail: str) -> Optional[str]:
    """:func:`check_choice`, ``None`` (not given) staying ``None``."""
    return None if value is None else check_choice(name, value, choices, detail)


def check_choice(name: str, value: Any, choices: Iterable[str], detail: str) -> str:
    """``value`` lower-cased when it is one of ``choices``, else ``InvalidInput(detail)`` naming
    the choices and the closest one (ddgs's value, another tool's short form: ``md``, or the
    closest spelling)."""
    choices = tuple(choices)
    if not isinstance(value, str) or value.lower() not in choices:
        raise InvalidInput(
            "%s must be one of %s, got %s%s"
            % (name, ", ".join(choices), quoted(value), choice_hint(name, value, choices)),
            detail_code=detail,
        )
    return value.lower()


def choice_hint(name: str, value: Any, choices: Sequence[str]) -> str:
    """What a refusal of ``value`` among ``choices`` adds: `` (ddgs's 'd' is 'day')``, another tool's short
    form (`` (did you mean 'markdown'?)``) or the closest spelling; ``""`` when nothing is close."""
    if not isinstance(value, str):
        return ""
    return ddgs_value(name, value) or _value_synonym(name, value) or close_match(value.lower(), choices)


def _value_synonym(name: str, value: str) -> str:
    """`` (did you mean 'markdown'?)`` for another tool's short form of a value of ``name``
    (:data:`~.vocabulary.synonyms.VALUE_SYNONYMS`), else ``""``."""
    ours = VALUE_SYNONYMS.get(name, {}).get(value.lower())
    return " (did you mean %r?)" % ours if ours else ""


#: What a valid value looks like, for the message of a refused one.
_EXAMPLES = {
    "locale": "a language tag such as en, en-US or zh-Hant-TW",
    "site_filter": "a domain such as docs.python.org",
}


def _check_pattern(name: str, value: Any, pattern: "re.Pattern[str]", detail: str) -> Optional[str]:
    if value is None:
        return None
    if not isinstance(value, str) or not pattern.fullmatch(value):
        example = _EXAMPLES.get(name)
        raise InvalidInput(
            "invalid %s: %s%s" % (name, quoted(value), " (expected %s)" % example if example else ""),
            detail_code=detail,
        )
    return value


#: The locales :func:`_hint_country_code` has logged its hint for (once per process each).
_HINTED_LOCALES = Once()


def _hint_country_code(locale: str) -> None:
    """Log once a taken locale that is a rare language's code and a common country's (``kr``: Kanuri,
    most often typed for Korea: :func:`~.vocabulary.ddgs.country_code_hint`)."""
    hint = country_code_hint(locale)
    if hint is not None and _HINTED_LOCALES.first(locale.lower()):
        logger.warning(hint)


def _check_locale(value: Any) -> Optional[str]:
    """``locale`` checked: a language tag's shape (:data:`_LOCALE`), then its parts' codes
    (:func:`~.vocabulary.locale_codes.locale_refusal`). ddgs's region, country first (``us-en``, read as a
    language ``us`` in a country ``EN``), mostly fails the second, and its refusal names the locale it
    means; one written as ddgs writes it whose parts are codes too is refused when the two readings
    differ (:func:`~.vocabulary.ddgs.ddgs_misread`: ``ar-es``, ddgs's Argentina, is Arabic in Spain;
    ``kr-kr`` Kanuri in Korea), while ``ar-ES``, in a locale's case, is the locale. A language's
    name (``english``) is refused naming its tag (:func:`~.vocabulary.locale_codes.named_language`), and
    only the tag: a locale made of it (``zh-ZH``, ``ar-AR``) would name no country or the wrong one."""
    named = named_language(value) if isinstance(value, str) and not _LOCALE.fullmatch(value) else None
    if named is not None:  # locale="english": a language's name, not its tag
        raise InvalidInput(
            "invalid locale: %r (%s)" % (value, LANGUAGE_NAME_GIVEN % named),
            detail_code=BAD_LOCALE,
        )
    locale = _check_pattern("locale", value, _LOCALE, BAD_LOCALE)
    if locale is None or locale.lower() in LOCALE_WORDS:
        return locale
    reason = locale_refusal(locale)
    misread = ddgs_misread(locale)
    if reason is None and misread is None:
        _hint_country_code(locale)
        return locale
    meant = ddgs_region_locale(locale)
    countries = country_locales(locale) if reason is not None and len(locale) == 2 else []
    if countries:  # locale="jp": a country's code typed for its language
        hint = "%s is a country: did you mean %s?" % (locale.upper(), " or ".join(countries))
    elif meant is None:
        hint = "expected %s" % _EXAMPLES["locale"]
    elif meant:
        hint = "a locale is language-COUNTRY; ddgs's region %s is the locale %s" % (locale, meant)
    else:
        hint = "ddgs's region %s is no region: give no locale" % locale
    if reason is None and as_locale(locale) != locale:
        hint += "; read as a locale, language first, it is written %s" % as_locale(locale)
    raise InvalidInput(
        "invalid locale: %r (%s)" % (locale, "; ".join(filter(None, (reason, hint)))), detail_code=BAD_LOCALE
    )


def _site_filter(value: Any) -> Optional[str]:
    """``site_filter`` checked, and sent as given: the shape of :data:`_SITE`, and a host name by
    the library's one rule (:mod:`~.hostnames`: no label empty or over 63 characters, no ``xn--``
    that is no punycode: ``...`` or ``a..b.com`` is no domain, and sent as ``site:...`` it would
    narrow nothing), after one leading dot: ``.gov`` names the domains ending in ``gov``, as
    ``site:.gov`` does in a search engine. The encoding only checks: the domain is sent as typed,
    which a search engine reads. A character UTS #46 maps to nothing (an invisible one) is refused,
    not sent hidden in the host (:func:`~.hostnames.ignored_character`). At most
    :data:`MAX_SITE_FILTER` characters: a name with a path, not a document (checked first, so a
    long one costs no mapping). A value starting with a scheme (``https://``) is a URL, refused
    naming its site; a ``://`` further on (``web.archive.org/web/2020/https://python.org``) is a path's."""
    if isinstance(value, str) and len(value) > MAX_SITE_FILTER:
        raise _bad_site(value[:80] + "...", "%d characters long, over %d" % (len(value), MAX_SITE_FILTER))
    if isinstance(value, str) and _URL_START.match(value):
        raise _bad_site(value, _url_given(value))
    return _domain(value)


def _domain(value: Any) -> Optional[str]:
    """:func:`_site_filter` past its length and URL checks: the shape, then the host name rule."""
    site = _check_pattern("site_filter", value, _SITE, BAD_SITE_FILTER)
    if site is None:
        return None
    matched = _SITE.fullmatch(site)
    host = matched.group(1) if matched else site
    # one leading dot restricts to a domain's suffix (site:.gov): the labels are those after it
    labels = host[1:] if host.startswith(".") and len(host) > 1 else host
    hidden = ignored_character(host)
    if hidden is not None:
        raise _bad_site(site, "invisible character U+%04X, no part of a domain" % ord(hidden))
    reason = idna_refusal(labels)
    if reason is not None:
        raise _bad_site(site, reason)
    return site


def _url_given(url: str) -> str:
    """Why a URL given as ``site_filter`` is refused, naming the site it holds when that is one
    (``https://docs.python.org/3/``: ``docs.python.org/3``): a newcomer copies the address bar."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:  # an unclosed IPv6 bracket: no site to name
        return "a URL"
    site = parts.netloc.rpartition("@")[2] + parts.path.rstrip("/")
    try:
        _domain(site)  # named only when it would be taken
    except InvalidInput:
        return "a URL"
    if _URL_START.match(site):  # https://https://x.org: a URL again
        return "a URL"
    return "a URL; its site is %r" % site


def _bad_site(site: str, reason: object) -> InvalidInput:
    """The refusal of ``site``, saying why (``reason``) and what a domain looks like."""
    return InvalidInput(
        "invalid site_filter: %r (%s; expected %s)" % (site, reason, _EXAMPLES["site_filter"]),
        detail_code=BAD_SITE_FILTER,
    )


class Defaults(Protocol):
    """What :func:`search_params` reads of the ``Settings`` (this module sits below ``config``)."""

    @property
    def max_results(self) -> int:
        """The number of results a search without ``max_results`` returns."""


def search_params(
    query: Any,
    max_results: Any,
    options: dict[str, Any],
    settings: "Defaults",
    backend_options: Iterable[str] = (),
    keywords: Iterable[str] = (),
    elsewhere: Mapping[str, str] = {},
) -> SearchParams:
    """Validate a search call's inputs into :class:`SearchParams`.

    ``options`` are the extra keyword arguments of ``search()``; names that
    neither the common options nor any backend (``backend_options``) know are a
    caller's programming error and raise ``TypeError``, like any unknown keyword,
    naming the closest option or ``search()``'s own keyword (``keywords``: ``retires``
    is ``retries`` mistyped, not an option), or where it is given (``elsewhere``: ``cache_path``
    belongs to the client).
    """
    known_specific = set(backend_options)
    _check_known(options, known_specific, keywords, elsewhere)
    max_content_chars = options.get("max_content_chars")
    include_content = _include_content(options.get("include_content", False))
    if max_content_chars is not None:
        check_number("max_content_chars", max_content_chars, detail=BAD_MAX_CONTENT_CHARS)
        if not include_content:  # it would be dropped without a word
            raise InvalidInput(
                "max_content_chars caps the page text include_content=True reads; without it no page text is read",
                detail_code=BAD_MAX_CONTENT_CHARS,
            )
    specific = {k: v for k, v in options.items() if k in known_specific and v is not None}
    if max_content_chars is not None:
        specific["max_content_chars"] = max_content_chars
    vertical = _check_choice("vertical", options.get("vertical"), VERTICALS, BAD_VERTICAL) or "web"
    return SearchParams(
        query=check_query(query),
        max_results=check_max_results(max_results, settings.max_results, vertical),
        locale=_check_locale(_locale(options)),
        time_range=_check_choice("time_range", options.get("time_range"), TIME_RANGES, BAD_TIME_RANGE),
        site_filter=_site_filter(options.get("site_filter")),
        safe_search=_check_choice(
            "safe_search", _safe_search(options.get("safe_search")), SAFE_SEARCH_LEVELS, BAD_SAFE_SEARCH
        ),
        trace_id=_check_pattern("trace_id", options.get("trace_id"), _HEADER_SAFE, BAD_TRACE_ID),
        include_content=include_content,
        vertical=vertical,
        options=specific,
        filters=media_filters(options, vertical),
    )


def media_filters(options: Mapping[str, Any], vertical: str) -> dict[str, str]:
    """The image or video filters among ``options`` (:data:`~.models.MEDIA_FILTERS`), each value
    lower-cased; ``InvalidInput(bad_filter)`` for a value outside its list (naming the list and
    the closest value) or a filter of another vertical than the call's (it would filter nothing)."""
    filters: dict[str, str] = {}
    for name, (filtered, values) in MEDIA_FILTERS.items():
        value = options.get(name)
        if value is None:
            continue
        if filtered != vertical:
            raise InvalidInput(
                "%s filters %s: give it with vertical=%r (this call searches %s)"
                % (name, filtered, filtered, vertical),
                detail_code=BAD_FILTER,
            )
        filters[name] = check_choice(name, value, values, BAD_FILTER)
    return filters


def _check_known(
    options: dict[str, Any],
    known_specific: Iterable[str],
    keywords: Iterable[str] = (),
    elsewhere: Mapping[str, str] = {},
) -> None:
    """``TypeError`` for an option neither the common ones nor any backend knows (a programming
    error), with the closest known name: an option's, or one of the call's ``keywords``, or where a
    name of ``elsewhere`` is given."""
    known = sorted(set(COMMON_OPTIONS) | set(known_specific))
    unknown = sorted(k for k in options if k not in known)
    if unknown:
        names = known + sorted(set(keywords) - set(known))
        where = {name: given for name, given in elsewhere.items() if name not in names}
        raise unexpected_keywords("search()", unknown, names, "known options: " + ", ".join(known), where)


def unexpected_keywords(
    called: str, unknown: Iterable[str], known: Sequence[str], listed: str, elsewhere: Mapping[str, str] = {}
) -> TypeError:
    """The ``TypeError`` of keyword arguments ``called`` (``search()``, ``Settings()``) does not take,
    each with what was meant: a key's place (:data:`_KEY_HINT`; a ``known`` key spelled close, such as
    ``fetch_service_key``, first), else :func:`option_hint` among ``known`` and ``elsewhere`` (ddgs's names
    only for ``search()``: they are search options), then ``listed`` (the names it takes)."""
    search = called == "search()"
    where = "a search option" if search else "an argument of " + called
    return TypeError(
        "%s got unexpected keyword argument(s) %s; %s"
        % (called, ", ".join(name + _keyword_hint(name, known, where, search, elsewhere) for name in unknown), listed)
    )


def _keyword_hint(name: str, known: Sequence[str], where: str, ddgs: bool, elsewhere: Mapping[str, str]) -> str:
    if _names_a_key(name):
        keys = [key for key in known if _names_a_key(key)]
        return close_match(name, keys) or _KEY_HINT % where
    return option_hint(name, known, ddgs, elsewhere)


def suggesting_keywords(elsewhere: Mapping[str, str] = {}) -> Callable[[_Callable], _Callable]:
    """A decorator: the function refuses an unknown keyword argument as ``search()`` refuses an unknown
    option (:func:`unexpected_keywords`: ``timeout`` is "did you mean 'timeout_ms'?", on every Python; the
    interpreter's own ``TypeError`` names nothing before 3.12 and no other API's name ever), before it
    runs; ``elsewhere`` maps names it does not take to where they are given (``proxy``:
    ``settings=Settings(proxy=...)``). On a class, its ``__init__``: ``Settings``' (a dataclass's, whose
    fields kept out of its repr, ``from_env``'s bookkeeping, are taken but neither listed nor suggested)."""

    def decorate(function: _Callable, unlisted: frozenset[str] = frozenset()) -> _Callable:
        if isinstance(function, type):
            fields = dataclasses.fields(function) if dataclasses.is_dataclass(function) else ()
            hidden = frozenset(field.name for field in fields if not field.repr)
            function.__init__ = decorate(function.__init__, hidden)  # type: ignore[misc]
            return function
        parameters = inspect.signature(function).parameters
        keywords = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        taken = frozenset(
            name for name, parameter in parameters.items() if parameter.kind in keywords and name != "self"
        )
        known = [name for name in parameters if name in taken and name not in unlisted]
        owner, _, name = function.__qualname__.rpartition(".")
        called = (owner if name == "__init__" else function.__qualname__) + "()"
        listed = "known arguments: " + ", ".join(known)
        beside = {name: place for name, place in elsewhere.items() if name not in taken}

        @functools.wraps(function)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if not taken.issuperset(kwargs):
                unknown = [name for name in kwargs if name not in taken]
                raise unexpected_keywords(called, unknown, known, listed, beside)
            return function(*args, **kwargs)

        return cast(_Callable, checked)

    return decorate


def query_first(function: _Callable) -> _Callable:
    """A decorator of ``search()`` and ``SearchClient.search``: a call without the query but with text under a
    name the function does not declare (ddgs's older ``keywords=``, ``q=``, ``text=``) is a ``TypeError``
    saying the query is the first argument; Python's own, ``missing 1 required positional argument:
    'query'``, named neither (the options' check, which knows ddgs's names, runs only once bound)."""
    parameters = inspect.signature(function).parameters
    named = frozenset(
        name
        for name, parameter in parameters.items()
        if parameter.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    )
    before = 1 if "self" in parameters else 0

    @functools.wraps(function)
    def called(*args: Any, **kwargs: Any) -> Any:
        if len(args) <= before and "query" not in kwargs:
            text = [name for name, value in kwargs.items() if name not in named and isinstance(value, str)]
            if text:
                raise TypeError(
                    "search() got no query: give it as the first argument, search('python requests') %s"
                    % (
                        "(ddgs's keywords is our %s)" % DDGS_ARGUMENTS["keywords"]
                        if text[0] == "keywords"
                        else "(%s is not a name of search()'s arguments)" % text[0]
                    )
                )
        return function(*args, **kwargs)

    return cast(_Callable, called)


#: What a key given as a keyword is refused with (``%s``: what it is not, ``a search option``): a key is
#: a backend's setting, read when the client is made.
_KEY_HINT = (
    " (a key is a backend's setting, not %s: settings=Settings(providers={'brave': {'api_key': ...}}),"
    " for example, or the environment variable `websearch-sync backends` lists)"
)


#: The last word of a name that is a credential given as a keyword (``brave_api_key``, ``bing_key``,
#: ``api_keys``, ``token``, ``client_secret``).
_KEY_WORDS = frozenset(("key", "keys", "apikey", "token", "secret", "password"))
#: A name that is a credential on its own (``auth=``, ``credentials=``), not as a last word (``basic_auth``).
_KEY_NAMES = frozenset(("credential", "credentials", "auth", "authorization"))
#: The word before ``key`` in a key that is no credential (``sort_key``, ``primary_key``, ``cache_key``).
_NOT_KEYS = frozenset(("sort", "hot", "primary", "foreign", "cache"))


def _names_a_key(name: str) -> bool:
    """Whether the keyword ``name`` is a key given to ``search()``: ``key``, ``api_key``
    (``apiKey``, ``XApiKey``, ``brave_key``, ``subscription_key``, ``api_keys``), ending in ``_token``,
    ``_secret``, ``_password``, or ``auth``, ``authorization``, ``credentials`` alone; not a key
    named for what it sorts or looks up (``sort_key``, ``primary_key``; ``hotkey`` is one word).
    Narrower than :func:`~.secrets.is_secret_name`, whose ``headers``, ``session``, ``signature``,
    ``max_tokens`` or ``cookies`` are secrets to hide, not keys a newcomer meant: those get the
    closest option."""
    words = name_words(name)
    if len(words) == 1 and words[0] in _KEY_NAMES:
        return True
    return bool(words) and words[-1] in _KEY_WORDS and (len(words) < 2 or words[-2] not in _NOT_KEYS)


def option_hint(name: str, known: Iterable[str], ddgs: bool = True, elsewhere: Mapping[str, str] = {}) -> str:
    """What the refusal of an unknown option or tool argument adds: ours for a ddgs argument name
    (:func:`~.vocabulary.ddgs.ddgs_argument`; ``region`` is spelled close to no option of ours
    but ``engines``), ours for another API's name of a ``known`` one (:data:`~.vocabulary.synonyms.OPTION_SYNONYMS`:
    ``count``, ``site``), or a ddgs name mistyped (``regoin``, ``timelimt``: closer to it than to any ``known``
    name, and close, so that ``engine`` is not ddgs's ``region``), else the closest ``known`` name
    (:func:`close_match`). Without ``ddgs`` (what is not a search: ``fetch()``, ``Settings()``),
    ddgs's names are not looked for, nor one whose ours is not ``known`` (:func:`_ddgs_names_of`). A name of ``elsewhere`` (``{name: where it is given}``, such as
    ``settings=Settings(proxy=...)``) is a known one given there."""
    known = list(known) + [name for name in elsewhere if name not in known]
    theirs = _ddgs_names_of(known) if ddgs else []
    if name in theirs:
        return ddgs_argument(name)
    if name in elsewhere:
        return " (it is given as %s)" % elsewhere[name]
    ours = [OPTION_SYNONYMS[name]] if OPTION_SYNONYMS.get(name) in known else []
    if not ours:  # another API's name (count, site) is none of these: letters alone name none, or another
        close = difflib.get_close_matches(name, theirs, n=1, cutoff=0.8)
        ours = difflib.get_close_matches(name, known, n=1)
        if close and (not ours or _likeness(name, close[0]) > _likeness(name, ours[0])):
            return ddgs_argument(close[0])
    return " (did you mean %s?)" % elsewhere.get(ours[0], repr(ours[0])) if ours else ""


def _ddgs_names_of(known: Sequence[str]) -> list[str]:
    """ddgs's argument names (none of ``known``) whose hint names an argument of ``known``, or the query
    (``keywords``: every call gives one). The search tool takes no ``safe_search`` and no ``pageno``: there,
    ddgs's ``safesearch`` and ``page`` get no hint, and our own ``safe_search``, close to ``safesearch``,
    is not called ddgs's with itself as ours."""
    offered = set(known) | {"query"}
    return [name for name in DDGS_ARGUMENTS if name not in known and ddgs_keyword(name) in offered]


def _likeness(name: str, other: str) -> float:
    return difflib.SequenceMatcher(None, name, other).ratio()


def close_match(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'page_size'?)`` for a mistyped name with a close known one, else ``""``:
    what the messages of unknown option and setting names add."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return " (did you mean %r?)" % close[0] if close else ""


def _locale(options: dict[str, Any]) -> Any:
    """``locale``, or its alias ``lang``; both given and different is ``InvalidInput``."""
    locale, lang = options.get("locale"), options.get("lang")
    if locale is not None and lang is not None and locale != lang:
        raise InvalidInput("give either locale or lang, not both", detail_code=BAD_LOCALE)
    return locale if locale is not None else lang


def _safe_search(value: Any) -> Any:
    """``True``/``False`` mean ``moderate``/``off``; anything else is checked as a level."""
    if isinstance(value, bool):
        return "moderate" if value else "off"
    return value


def _include_content(value: Any) -> bool:
    return check_flag("include_content", value, BAD_INCLUDE_CONTENT)


def check_flag(name: str, value: Any, detail: str) -> bool:
    """``value`` when it is a bool, else ``InvalidInput(detail)`` naming what was given (``allow_private='yes'``
    said only "allow_private must be true or false")."""
    if not isinstance(value, bool):
        raise InvalidInput("%s must be true or false, got %s" % (name, quoted(value)), detail_code=detail)
    return value


#: What ``backend=`` takes: a name (a comma list too), or names in order: a sequence (list,
#: tuple) or an iterator (a generator). A set is no such thing: it has no order, and a fallback
#: chain asks its backends in order (``InvalidInput(unknown_backend)`` says so).
BackendArg = Union[None, str, Sequence[str], Iterator[str]]


def backend_list(backend: BackendArg) -> Optional[list[str]]:
    """A backend argument as a list of names (``None`` stays ``None``); comma lists split.

    Type errors are ``InvalidInput``; unknown names are checked by the registry.
    """
    if backend is None:
        return None
    if isinstance(backend, str):
        names = [part.strip().lower() for part in backend.split(",")]
    elif isinstance(backend, (list, tuple, Sequence, Iterator)) and not isinstance(backend, (bytes, bytearray)):
        names = []
        for part in backend:
            if not isinstance(part, str):
                raise InvalidInput("backend names must be strings, got %r" % (part,), detail_code=UNKNOWN_BACKEND)
            names.append(part.strip().lower())
    else:
        unordered = " (a set has no order, and a fallback chain asks its backends in order)"
        raise InvalidInput(
            "backend must be a name or names in order (a list, a tuple, a generator), got %r%s"
            % (backend, unordered if isinstance(backend, Set) else ""),
            detail_code=UNKNOWN_BACKEND,
        )
    if not any(names):
        raise InvalidInput(userinfo_hidden(NO_BACKEND_NAMED % (backend,)), detail_code=UNKNOWN_BACKEND)
    if not all(names):
        raise InvalidInput(
            userinfo_hidden("backend %r holds an empty name (a comma too many?): leave it out" % (backend,)),
            detail_code=UNKNOWN_BACKEND,
        )
    twice = next((name for position, name in enumerate(names) if name in names[:position]), None)
    if twice is not None:
        raise InvalidInput(
            userinfo_hidden(
                "backend %r lists %r twice: name each backend once (a fallback chain asks each in turn)"
                % (backend, twice)
            ),
            detail_code=UNKNOWN_BACKEND,
        )
    return names


#: What a ``backend=`` naming none (``""``, ``[]``) is told: ``None`` is the way to the default.
NO_BACKEND_NAMED = (
    "backend=%r names no backend: name one (websearch_sync.backend_names() lists them),"
    " or leave backend out (None) for the default"
)


def check_options_taken(
    options: Iterable[str],
    chosen: Mapping[str, Iterable[str]],
    every: Mapping[str, Iterable[str]],
    elsewhere: Optional[Mapping[str, Iterable[str]]] = None,
    vertical: str = "web",
    others: Mapping[str, Mapping[str, Iterable[str]]] = {},
) -> None:
    """``InvalidInput(bad_option)`` for a backend-specific option that no backend of the call
    takes (``wiki`` with ``backend="searxng"``): it would be dropped without a word.

    ``chosen`` and ``every`` map backend names to their options (the call's backends, every
    backend's engine for the call's ``vertical``): the owners named are those that take the
    option for this search (``max_pages`` is Brave's for the web, not for news). An option no
    engine of the vertical takes names its owners in ``elsewhere`` (every backend's main engine),
    saying they take it for another vertical; ``others`` (a backend of the call → its other verticals →
    their options) says where a backend of the call takes it.
    """
    taken = {option for names in chosen.values() for option in names}
    stray = sorted(o for o in options if o not in taken and o != "max_content_chars")
    if stray:
        raise InvalidInput(
            "option(s) %s belong to other backends (%s), not to %s%s; pass them with that backend or drop them"
            % (
                ", ".join(stray),
                "; ".join("%s: %s" % (o, _owners(o, every, elsewhere or {}, vertical)) for o in stray),
                ", ".join(chosen),
                _taken_elsewhere(stray, others, vertical),
            ),
            detail_code=BAD_OPTION,
        )


def _taken_elsewhere(stray: Sequence[str], others: Mapping[str, Mapping[str, Iterable[str]]], vertical: str) -> str:
    """`` (startpage_html takes max_pages for web, not for images)`` for each backend of the call whose
    engine of another vertical takes a ``stray`` option (``others``: backend → vertical → its options):
    otherwise the refusal of Startpage's ``max_pages`` for images, or of DuckDuckGo's ``pageno`` for the
    web (ddgs's ``text(page=2)``), says the option is not that backend's, which its other searches take."""
    said = []
    for name, verticals in others.items():
        for option in stray:
            taking = [other for other, options in verticals.items() if option in options]
            if taking:
                said.append("%s takes %s for %s, not for %s" % (name, option, ", ".join(taking), vertical))
    return " (%s)" % "; ".join(said) if said else ""


def _owners(
    option: str, every: Mapping[str, Iterable[str]], elsewhere: Mapping[str, Iterable[str]], vertical: str
) -> str:
    """The backends taking ``option`` for a ``vertical`` search, else those taking it for another."""
    owners = sorted(name for name, names in every.items() if option in names)
    if owners:
        return ", ".join(owners)
    others = sorted(name for name, names in elsewhere.items() if option in names)
    search = ("an " if vertical[:1] in "aeiou" else "a ") + vertical + " search"  # an images search
    return "%s, not for %s" % (", ".join(others), search) if others else "none for %s" % search


# -- tool arguments -----------------------------------------------------------------------------------

ArgumentType = Literal["string", "integer", "boolean"]
_PYTHON_TYPES: dict[str, type] = {"string": str, "integer": int, "boolean": bool}


@dataclasses.dataclass(frozen=True)
class Argument:
    """One argument of a tool, declared once: :meth:`schema` is what a model is shown,
    :meth:`check` refuses what does not fit it (``InvalidInput(bad_arguments)``).

    ``choices`` is the JSON Schema ``enum``; ``min_length``/``max_length`` bound a
    string, ``minimum``/``maximum`` an integer.
    """

    name: str
    type: ArgumentType
    description: str
    required: bool = False
    choices: tuple[str, ...] = ()
    min_length: Optional[int] = None
    max_length: Optional[int] = None
    minimum: Optional[int] = None
    maximum: Optional[int] = None

    def schema(self) -> dict[str, Any]:
        """The argument's JSON Schema (keywords in the order the tool schemas have always had)."""
        schema: dict[str, Any] = {"type": self.type}
        if self.choices:
            schema["enum"] = list(self.choices)
        keywords = (
            ("minLength", self.min_length),
            ("maxLength", self.max_length),
            ("minimum", self.minimum),
            ("maximum", self.maximum),
        )
        schema.update((keyword, value) for keyword, value in keywords if value is not None)
        schema["description"] = self.description
        return schema

    def check(self, value: object) -> object:
        """``value`` as the call takes it, or ``InvalidInput(bad_arguments)`` naming the argument
        unless it fits :meth:`schema`. A whole number written with a fraction (``5.0``) is an
        integer to JSON Schema, and models whose API hands numbers over as floats send it: ``5``.
        So is an integer written as a string of ASCII digits, a ``-`` before them at most (``"5"``:
        models often quote numbers), the one type besides null taken that the schema refuses; any other string
        (``"5.5"``, ``"five"``, ``" 5"``, ``"true"``) stays refused, as a bool does. A value of ``choices`` is
        read in any case and comes back as the choice (``"News"`` is ``"news"``), as ``search()`` reads it."""
        value = self._as_number(value)
        if not isinstance(value, _PYTHON_TYPES[self.type]) or (self.type == "integer" and isinstance(value, bool)):
            raise InvalidInput(
                "argument %r must be of type %s, got %s" % (self.name, self.type, describe_sent(value)),
                detail_code=BAD_ARGUMENTS,
            )
        if self.choices and isinstance(value, str) and value.lower() in self.choices:
            value = value.lower()  # any case, as search() and the command line read it: "News" is news
        if self.choices and value not in self.choices:
            raise InvalidInput(
                "argument %r must be one of %s, got %r%s"
                % (self.name, ", ".join(self.choices), shown_text(value), choice_hint(self.name, value, self.choices)),
                detail_code=BAD_ARGUMENTS,
            )
        if isinstance(value, str):
            self._check_text(value)
        if self.type == "integer":
            minimum = self.minimum if self.minimum is not None else float("-inf")
            check_number("argument %r" % self.name, value, minimum=minimum, maximum=self.maximum, detail=BAD_ARGUMENTS)
        return value

    def _as_number(self, value: object) -> object:
        """``value`` as an integer argument reads it (:meth:`check`: ``5.0`` and ``"5"`` are ``5``),
        ``InvalidInput(bad_arguments)`` for an integer too long to be in range; any other unchanged."""
        if self.type == "integer" and isinstance(value, float) and value.is_integer():
            if abs(value) <= _EXACT_FLOAT_INTEGER:
                return int(value)
            minimum = self.minimum if self.minimum is not None else float("-inf")
            raise InvalidInput(  # as int, 1e100 read 10000000000000000159...: digits the model never sent
                "argument %r must be %s, got %s"
                % (self.name, _wanted(minimum, self.maximum, True), describe_sent(value)),
                detail_code=BAD_ARGUMENTS,
            )
        if self.type == "integer" and isinstance(value, str) and _INTEGER_TEXT.fullmatch(value):
            digits = value.lstrip("-").lstrip("0")  # the length that bounds it: not its sign or leading zeros
            value = (
                int(digits or "0") * (-1 if value[0] == "-" else 1)
                if len(digits) <= _INTEGER_TEXT_DIGITS
                else LongInteger(value)
            )
        if self.type in ("integer", "number") and isinstance(value, LongInteger):  # out of any range
            minimum = self.minimum if self.minimum is not None else float("-inf")
            raise InvalidInput(
                "argument %r must be %s, got %s"
                % (self.name, _wanted(minimum, self.maximum, self.type == "integer"), describe_sent(value)),
                detail_code=BAD_ARGUMENTS,
            )
        return value

    def _check_text(self, text: str) -> None:
        """Unicode text (a lone surrogate escape, which JSON lets a model write, is none: no service
        can be sent it, and a result echoing it cannot be sent back to the model) of the declared length."""
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidInput(
                "argument %r is not valid Unicode text: a lone surrogate at position %d" % (self.name, exc.start),
                detail_code=BAD_ARGUMENTS,
            ) from None
        shortest, longest = self.min_length or 0, self.max_length
        if len(text) < shortest or (longest is not None and len(text) > longest):
            limits = "%d..%d" % (shortest, longest) if longest is not None else "%d or more" % shortest
            raise InvalidInput(
                "argument %r must be %s characters long, got %d" % (self.name, limits, len(text)),
                detail_code=BAD_ARGUMENTS,
            )


#: An integer as a model may quote it (``"5"``, ``"-3"``): ASCII digits only (``int`` would also take
#: spaces, ``+``, ``_`` and other scripts' digits), read by :meth:`Argument.check`.
_INTEGER_TEXT = re.compile(r"-?[0-9]+")
#: The most digits (after its sign and leading zeros) of such a text read as an ``int``; a longer one is out of any argument's range (and ``int``
#: refuses over 4,300 digits), read as a :class:`LongInteger` named by its count of digits.
_INTEGER_TEXT_DIGITS = 18
#: The largest whole float every integer up to which a float holds exactly (2**53); a larger one sent
#: as an integer argument (``1e100``) is named as sent, not by the digits ``int`` gives it.
_EXACT_FLOAT_INTEGER = 2.0**53


#: The most of a refused text argument an error message quotes (a model may send pages of it).
_QUOTED_CHARS = 40


def shown_text(value: object) -> str:
    """A text a model sent (an argument, an argument's or a tool's name) as an error message quotes
    it: whole when short, else its start and ``...`` (the message goes back to the model)."""
    text = str(value)
    return text if len(text) <= _QUOTED_CHARS else text[: _QUOTED_CHARS // 2] + "..."


def quoted(value: object) -> str:
    """A refused value as an error message writes it: its ``repr``, a text cut by :func:`shown_text`
    (a model may send pages of it as a locale, and the message goes back to the model)."""
    return repr(shown_text(value)) if isinstance(value, str) else repr(value)


class LongInteger(float):
    """A JSON integer of more digits than Python reads (over 4,300: ``int`` refuses it), read as
    the float it approximates (infinity) with its count of ``digits``: a message names it as the
    integer it was, not as ``inf``."""

    digits: int

    def __new__(cls, text: str) -> "LongInteger":
        number = super().__new__(cls, text)
        number.digits = len(text.lstrip("-").lstrip("0"))
        return number


def json_int(digits: str) -> Union[int, float]:
    """An integer of JSON text, for ``json.loads(..., parse_int=json_int)``: Python refuses to read
    one of over 4,300 digits (``ValueError``), which made well-formed arguments "not valid JSON"
    (and an MCP request "not JSON", answered with a null id: its client waited for an answer that
    never came). One that long is read as the float it approximates (infinity) remembering its
    digits (:class:`LongInteger`), which the arguments' check refuses as out of range,
    naming it as the integer it was; an upstream answer's reader (``net.jsontext.loads``) takes
    infinity as no value, as a JSON ``Infinity``."""
    try:
        return int(digits)
    except ValueError:
        return LongInteger(digits)


def describe_sent(value: object) -> str:
    """What a model sent, as JSON names it (``a string ('5')``, ``an array``): the message of a value
    of the wrong type says it, so that the model sees what to correct (a number in quotes)."""
    if isinstance(value, LongInteger):
        return "%s integer of %d digits" % ("a negative" if value < 0 else "an", value.digits)
    if isinstance(value, bool):
        return "a boolean (%s)" % ("true" if value else "false")
    if isinstance(value, (int, float)):
        return "a number (%r)" % value
    if isinstance(value, str):
        return "a string (%r)" % shown_text(value)
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    # only a Python caller can send one (bytes, a set, a Decimal, numpy's int64): "an object" had
    # told it that a mapping proxy given as the arguments, which "must be a JSON object", was one
    return "a Python %s, no JSON value" % type(value).__name__


def arguments_schema(arguments: Sequence[Argument]) -> dict[str, Any]:
    """The JSON Schema of a tool's ``arguments``: an object of exactly those properties."""
    return {
        "type": "object",
        "properties": {argument.name: argument.schema() for argument in arguments},
        "required": [argument.name for argument in arguments if argument.required],
        "additionalProperties": False,
    }


def not_an_object(given: object) -> InvalidInput:
    """The error for a tool call whose arguments are not a JSON object (a string, an array ...)."""
    return InvalidInput("arguments must be a JSON object, got %s" % describe_sent(given), detail_code=BAD_ARGUMENTS)


def check_arguments(arguments: Sequence[Argument], given: object) -> dict[str, Any]:
    """``given`` (a dict or another mapping; ``None`` is no arguments) checked against ``arguments``, without its
    ``None`` values (``null`` means "not given", as strict schemas have a model send it).

    ``InvalidInput(bad_arguments)`` names the first problem: not an object, a required
    argument missing (with the first unknown one given, which may be it misspelt: ``qeury``), an unknown
    one, or a value that does not fit its declaration.
    """
    if given is None:
        given = {}
    if isinstance(given, Mapping) and not isinstance(given, dict):  # a read-only mapping, a framework's own
        given = dict(given)
    if not isinstance(given, dict):
        raise not_an_object(given)
    values = {key: value for key, value in given.items() if value is not None}
    declared = {argument.name: argument for argument in arguments}
    for argument in arguments:
        if argument.required and argument.name not in values:
            raise _missing(argument.name, values, declared)
    checked = {}
    for key, value in values.items():
        if key not in declared:
            raise InvalidInput(_unknown_argument(key, declared), detail_code=BAD_ARGUMENTS)
        checked[key] = declared[key].check(value)
    return checked


def _missing(name: str, values: Mapping[Any, Any], declared: Mapping[str, "Argument"]) -> InvalidInput:
    """The refusal of a call without the required argument ``name``, naming the first unknown argument of
    ``values`` too: a misspelt ``qeury`` is what the model sent instead."""
    unknown = next((key for key in values if key not in declared), None)
    given_instead = "" if unknown is None else "; got %s" % _unknown_argument(unknown, declared)
    return InvalidInput("missing required argument %r%s" % (name, given_instead), detail_code=BAD_ARGUMENTS)


def _unknown_argument(key: Any, declared: Mapping[str, "Argument"]) -> str:
    """What a refusal says of the unknown argument ``key``: its closest declared name, and those allowed."""
    return "unknown argument %r%s (allowed: %s)" % (
        shown_text(key),
        option_hint(str(key), declared),
        ", ".join(declared),
    )


#: Endpoint URLs and what is wrong with each (:func:`url_fault`).
_FAULTS: dict[str, Optional[str]] = {}

#: :func:`url_fault` of a URL that is not an http(s) URL with a host.
NOT_HTTP = "not an http(s) URL with a host"


def url_fault(url: Any) -> Optional[str]:
    """Why ``url`` is no usable endpoint: :data:`NOT_HTTP` unless it is an http(s) URL with a host
    (and no port 0), the reason its host is no host name (:func:`~..hostnames.idna_refusal`),
    ``None`` for a usable one. A string's answer is remembered (:data:`_FAULTS`: a backend's endpoint
    is the same on every call)."""
    if type(url) is str and url in _FAULTS:
        return _FAULTS[url]
    try:
        parts = urllib.parse.urlsplit(url.encode("utf-8").decode("utf-8"))
        usable = parts.scheme.lower() in ("http", "https") and bool(parts.hostname) and parts.port != 0
        fault = idna_refusal(parts.hostname or "") if usable else NOT_HTTP
    except (ValueError, TypeError, AttributeError):  # a bad IPv6 literal or port, a lone surrogate, not a string
        fault = NOT_HTTP
    if type(url) is str:
        if len(_FAULTS) >= 256:
            _FAULTS.clear()
        _FAULTS[url] = fault
    return fault


def unusable_why(endpoint: Any) -> str:
    """What makes ``endpoint``, no http(s) URL with a host, so, said without the URL (it may carry
    credentials): quotes around it, which docker's ``--env-file`` and systemd's ``EnvironmentFile=`` keep
    where a shell removes them; no scheme (``SEARXNG_BASE_URL=localhost:8080``, as SearXNG's docker
    image is reached); else ``""``."""
    if not isinstance(endpoint, str):
        return ""
    if endpoint[:1] in ("'", '"'):
        return "; it is written in quotes: remove them"
    if "://" not in endpoint and url_fault("http://" + endpoint) is None and _names_a_host(endpoint):
        return "; it has no scheme: write http:// or https:// before it"
    return ""


def _names_a_host(text: str) -> bool:
    """Whether ``text``, read after ``http://``, starts with what names a host rather than any word
    (``nope``): a dotted name, ``localhost``, or a port."""
    try:
        parts = urllib.parse.urlsplit("http://" + text)
        return "." in (parts.hostname or "") or parts.hostname == "localhost" or parts.port is not None
    except ValueError:  # a bad port
        return False
