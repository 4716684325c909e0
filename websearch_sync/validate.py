"""Input validation for search(): every bad input becomes ``InvalidInput``."""

import re
from collections.abc import Iterable, Mapping
from typing import Any, Optional, Union, cast

from .config import MAX_TIMEOUT_MS, Settings
from .errors import (
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
    EMPTY_QUERY,
    QUERY_TOO_LONG,
    UNKNOWN_BACKEND,
    InvalidInput,
)
from .models import SAFE_SEARCH_LEVELS, TIME_RANGES, SearchParams

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

MAX_QUERY_CHARS = 2000

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
)

#: A BCP 47 language tag: a 2-3 letter ISO 639 language, then script, region or variant subtags
#: (``en``, ``en-US``, ``zh-Hant-TW``, ``es-419``); a language name (``english``) is not one.
_LOCALE = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}$")
_SITE = re.compile(r"^[A-Za-z0-9.-]+(?::\d+)?(?:/[^\s]*)?$")
_HEADER_SAFE = re.compile(r"^[\x21-\x7e]{1,200}$")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_query(query: Any) -> str:
    """The query stripped of surrounding whitespace; ``InvalidInput`` unless a non-blank str of <= 2000
    characters that is valid Unicode (a lone surrogate cannot be encoded for any service)."""
    if not isinstance(query, str):
        raise InvalidInput("query must be a string, got %s" % type(query).__name__, detail_code=BAD_QUERY)
    text = query.strip()
    if not text:
        raise InvalidInput("query is empty or only whitespace", detail_code=EMPTY_QUERY)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: no service can be sent it
        raise InvalidInput(
            "query is not valid Unicode text: %r at position %d cannot be encoded" % (text[exc.start], exc.start),
            detail_code=BAD_QUERY,
        ) from None
    if len(text) > MAX_QUERY_CHARS:
        raise InvalidInput(
            "query is %d characters long; the limit is %d" % (len(text), MAX_QUERY_CHARS), detail_code=QUERY_TOO_LONG
        )
    return text


def check_max_results(value: Any, default: int) -> int:
    """``value`` (or ``default`` when None) checked to be an int in 1..10 (a bool is not an int)."""
    if value is None:
        return default
    if not _is_int(value):
        raise InvalidInput("max_results must be an integer in 1..10, got %r" % (value,), detail_code=BAD_MAX_RESULTS)
    if not 1 <= value <= 10:
        raise InvalidInput("max_results must be in 1..10, got %d" % value, detail_code=BAD_MAX_RESULTS)
    return cast(int, value)


def check_timeout_ms(value: Any, name: str = "timeout_ms", detail: str = BAD_TIMEOUT) -> Optional[int]:
    """``None``, or a whole number of milliseconds in 1..600000 (a fraction or a bool is refused, not
    truncated): ``InvalidInput(detail)`` naming argument ``name``."""
    if value is None:
        return None
    if not _is_int(value):
        raise InvalidInput("%s must be a whole number of milliseconds, got %r" % (name, value), detail_code=detail)
    if not 0 < value <= MAX_TIMEOUT_MS:
        raise InvalidInput("%s must be in 1..%d, got %r" % (name, MAX_TIMEOUT_MS, value), detail_code=detail)
    return cast(int, value)


def _check_choice(name: str, value: Any, choices: Iterable[str], detail: str) -> Optional[str]:
    if value is None:
        return None
    choices = tuple(choices)
    if not isinstance(value, str) or value.lower() not in choices:
        raise InvalidInput("%s must be one of %s, got %r" % (name, ", ".join(choices), value), detail_code=detail)
    return value.lower()


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
            "invalid %s: %r%s" % (name, value, " (expected %s)" % example if example else ""), detail_code=detail
        )
    return value


def search_params(
    query: Any,
    max_results: Any,
    options: dict[str, Any],
    settings: Settings,
    backend_options: Iterable[str] = (),
) -> SearchParams:
    """Validate a search call's inputs into :class:`SearchParams`.

    ``options`` are the extra keyword arguments of ``search()``; names that
    neither the common options nor any backend (``backend_options``) know are a
    caller's programming error and raise ``TypeError``, like any unknown keyword.
    """
    known_specific = set(backend_options)
    _check_known(options, known_specific)
    max_content_chars = options.get("max_content_chars")
    if max_content_chars is not None and (not _is_int(max_content_chars) or max_content_chars < 1):
        raise InvalidInput("max_content_chars must be a positive integer", detail_code=BAD_MAX_CONTENT_CHARS)
    specific = {k: v for k, v in options.items() if k in known_specific and v is not None}
    if max_content_chars is not None:
        specific["max_content_chars"] = max_content_chars
    return SearchParams(
        query=check_query(query),
        max_results=check_max_results(max_results, settings.max_results),
        locale=_check_pattern("locale", _locale(options), _LOCALE, BAD_LOCALE),
        time_range=_check_choice("time_range", options.get("time_range"), TIME_RANGES, BAD_TIME_RANGE),
        site_filter=_check_pattern("site_filter", options.get("site_filter"), _SITE, BAD_SITE_FILTER),
        safe_search=_check_choice(
            "safe_search", _safe_search(options.get("safe_search")), SAFE_SEARCH_LEVELS, BAD_SAFE_SEARCH
        ),
        trace_id=_check_pattern("trace_id", options.get("trace_id"), _HEADER_SAFE, BAD_TRACE_ID),
        include_content=_include_content(options.get("include_content", False)),
        options=specific,
    )


def _check_known(options: dict[str, Any], known_specific: Iterable[str]) -> None:
    """``TypeError`` for an option neither the common ones nor any backend knows (a programming error)."""
    known = set(COMMON_OPTIONS) | set(known_specific)
    unknown = sorted(k for k in options if k not in known)
    if unknown:
        raise TypeError(
            "search() got unexpected keyword argument(s) %s; known options: %s"
            % (", ".join(unknown), ", ".join(sorted(known)))
        )


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
    if not isinstance(value, bool):
        raise InvalidInput("include_content must be true or false", detail_code=BAD_INCLUDE_CONTENT)
    return value


def backend_list(backend: Union[None, str, Iterable[str]]) -> Optional[list[str]]:
    """A backend argument as a list of names (``None`` stays ``None``); comma lists split.

    Type errors are ``InvalidInput``; unknown names are checked by the registry.
    """
    if backend is None:
        return None
    if isinstance(backend, str):
        names = [part.strip().lower() for part in backend.split(",")]
    elif isinstance(backend, (list, tuple)):
        names = []
        for part in backend:
            if not isinstance(part, str):
                raise InvalidInput("backend names must be strings, got %r" % (part,), detail_code=UNKNOWN_BACKEND)
            names.append(part.strip().lower())
    else:
        raise InvalidInput(
            "backend must be a name or a list of names, got %r" % (backend,), detail_code=UNKNOWN_BACKEND
        )
    if not names or not all(names):
        raise InvalidInput("empty backend name in %r" % (backend,), detail_code=UNKNOWN_BACKEND)
    if len(set(names)) != len(names):
        raise InvalidInput("backend %r lists a name twice" % (backend,), detail_code=UNKNOWN_BACKEND)
    return names


def check_options_taken(
    options: Iterable[str], chosen: Mapping[str, Iterable[str]], every: Mapping[str, Iterable[str]]
) -> None:
    """``InvalidInput(bad_option)`` for a backend-specific option that no backend of the call
    takes (``wiki`` with ``backend="searxng"``): it would be dropped without a word.

    ``chosen`` and ``every`` map backend names to their options (the call's backends, all of them).
    """
    taken = {option for names in chosen.values() for option in names}
    stray = sorted(o for o in options if o not in taken and o != "max_content_chars")
    if stray:
        owners = {o: sorted(name for name, names in every.items() if o in names) for o in stray}
        raise InvalidInput(
            "option(s) %s belong to other backends (%s), not to %s; pass them with that backend or drop them"
            % (", ".join(stray), "; ".join("%s: %s" % (o, ", ".join(owners[o])) for o in stray), ", ".join(chosen)),
            detail_code=BAD_OPTION,
        )
