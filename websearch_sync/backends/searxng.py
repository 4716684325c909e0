"""``searxng``: a SearXNG instance's JSON API, ``GET {SEARXNG_BASE_URL}/search?format=json``.

JSON output is off on a fresh instance (``search.formats: [html]``): the instance
then answers 403 with an HTML page, reported as ``AuthError`` telling what to
enable. Engines that failed inside the instance (``unresponsive_engines``) are
reported in the response's ``errors`` without failing the call when results exist.

What a real instance needs (see UPSTREAMS.md): its limiter (on by default on public
instances) answers 429 to a ``/search`` request without ``text/html`` in ``Accept``
or without ``Accept-Language``, and, over https, redirects a browser User-Agent that
sends no ``Sec-Fetch-Mode`` to its home page; so the request carries those headers.
``language`` must match ``^[a-z]{2,3}(-[a-zA-Z]{2})?$`` (else HTTP 400): locales are
mapped to that form (``zh-Hant-TW`` -> ``zh-TW``) or refused before sending. Engine
failure reasons are asked for in English (``locale=en``) and read in any language
the instance speaks (:mod:`.searxng_reasons`); a blocked or suspended engine is a
block that asking again at once cannot lift.
"""

from typing import Any, Dict, List, Optional, Tuple, Type
from urllib.parse import urlsplit, urlunsplit

from ..errors import AuthError, InvalidInput, Timeout, WebBlocked, WebParseError, WebProviderError, WebSearchError, redact
from ..net.transport import HttpResponse, RequestSpec
from ..models import ParseResult, SearchParams
from ..engine.base import dig, page_number
from ..engine.json_api import JsonApiBackend
from .searxng_reasons import MAX_REASON_CHARS, read_reason

__all__ = ["SearXNG", "searxng_language", "instance_root"]

_SAFESEARCH = {"off": "0", "moderate": "1", "strict": "2"}

#: Headers a real instance's limiter and Sec-Fetch check let through (what a browser's
#: ``fetch()`` from the instance's own page sends); ``Accept-Language`` is added per call.
_BROWSER_HEADERS = {
    "Accept": "application/json, text/html;q=0.9",
    "Sec-Fetch-Mode": "cors",
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Dest": "empty",
}
#: ``language`` values SearXNG accepts besides language codes.
_SPECIAL_LANGUAGES = ("all", "auto")

#: A kind of engine failure (:func:`.searxng_reasons.read_reason`) -> (error class, detail
#: code, seconds SearXNG suspends the engine by default: settings.yml ``search.suspended_times``).
_ENGINE_PROBLEMS: Dict[str, Tuple[Type[WebSearchError], str, Optional[float]]] = {
    "captcha": (WebBlocked, "captcha_required", 3600.0),
    "too_many_requests": (WebBlocked, "http_429", 180.0),
    "access_denied": (WebBlocked, "http_403", 180.0),
    "timeout": (Timeout, "engine_timeout", None),
}
#: Seconds SearXNG suspends an engine after any other failure (settings.yml ``search.ban_time_on_fail``).
_FAILURE_SUSPENSION_S = 5.0


class SearXNG(JsonApiBackend):
    """A SearXNG metasearch instance (self-hosted or public)."""

    name = "searxng"
    auto_rank = 30
    text_format = "text"  # SearXNG escapes title/content in its HTML page: the JSON holds plain text
    result_fields = {"title": "title", "url": "url", "snippet": "content", "published_at": "publishedDate"}
    summary = "SearXNG instance, JSON API (needs SEARXNG_BASE_URL and `json` in search.formats)"
    endpoint_path = "/search"
    env_vars = {"base_url": "SEARXNG_BASE_URL", "api_key": "SEARXNG_API_KEY", "timeout_ms": "SEARXNG_TIMEOUT_MS"}
    required = ("base_url",)
    options = ("categories", "engines", "pageno")

    def endpoint_url(self) -> str:
        """``Settings.endpoints["searxng"]`` as it is, else the instance's root (``base_url``,
        a trailing ``/search`` dropped) + ``/search``."""
        base = self.config.get("base_url")
        if self.settings.endpoints.get(self.name) or not base:
            return super().endpoint_url()
        return instance_root(str(base)) + self.endpoint_path

    def check_params(self, params: SearchParams) -> None:
        """Also check the SearXNG options: ``categories``/``engines`` (names), ``pageno`` (int >= 1),
        and that the locale has a form SearXNG accepts."""
        super().check_params(params)
        if params.locale:
            searxng_language(params.locale)
        for name in ("categories", "engines"):
            _names(params.options.get(name), name, self.name)
        page_number(params, self.name)

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``GET /search?q=…&format=json&locale=en`` with language, time range, safe search and
        options, and the headers a real instance's limiter wants."""
        query: Dict[str, Any] = {"q": params.full_query, "format": "json", "locale": "en"}
        if params.options.get("pageno") is not None:
            query["pageno"] = params.options["pageno"]
        language = searxng_language(params.locale) if params.locale else None
        if language:
            query["language"] = language
        if params.time_range:
            query["time_range"] = params.time_range
        if params.safe_search:
            query["safesearch"] = _SAFESEARCH[params.safe_search]
        for name in ("categories", "engines"):
            names = _names(params.options.get(name), name, self.name)
            if names:
                query[name] = names
        headers = self.json_headers(self.bearer())
        headers.update(_BROWSER_HEADERS)
        headers["Accept-Language"] = _accept_language(language)
        return RequestSpec("GET", self.endpoint_url(), params=query, headers=headers)

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """A 403 HTML page means JSON output is disabled; a 404 that the base URL looks
        wrong; else the shared API mapping."""
        if response.status == 404 and not self.settings.endpoints.get(self.name):
            return WebProviderError(
                "searxng: %s answered 404 Not Found; check SEARXNG_BASE_URL: it must be the instance's root URL "
                "(the one that shows its search page), requests go to <base URL>/search" % _shown(response.url),
                provider=self.name,
                detail_code="http_404",
                status=response.status,
            )
        if response.status == 403 and _is_html(response):
            return AuthError(
                "SearXNG instance refused JSON output (HTTP 403 with an HTML page): enable `json` in the "
                "instance's settings.yml `search.formats` (e.g. `formats: [html, json]`) and restart it",
                provider=self.name,
                detail_code="http_403",
                status=response.status,
            )
        return super().classify(response)

    def error_envelope(self, data: Any) -> Optional[Tuple[Any, Optional[str]]]:
        """SearXNG's ``{"error": "No query"}``."""
        if isinstance(data, dict) and isinstance(data.get("error"), str):
            return None, data["error"]
        return None

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Items from ``results[]``; ``unresponsive_engines`` become ``errors``."""
        data = self.data(response)
        results = dig(data, ["results"], self.name)
        if not isinstance(results, list):
            raise WebParseError("searxng answered with a non-list `results`", provider=self.name, detail_code="unexpected_shape")
        items = self.items_from(results, params)
        problems = [_engine_error(entry, self.name, self.secrets()) for entry in data.get("unresponsive_engines") or ()]
        problems = [p for p in problems if p is not None]
        if not items and problems:
            raise _no_results_because(problems, response.status, self.name)
        return ParseResult(items=items, errors=[p.to_dict() for p in problems])


def _names(value: Any, option: str, provider: str) -> Optional[str]:
    """A comma-separated list from a string or a list of strings (``None`` when unset)."""
    if value is None:
        return None
    parts = value.split(",") if isinstance(value, str) else value
    if not isinstance(parts, (list, tuple)) or not all(isinstance(p, str) and p.strip() for p in parts) or not parts:
        raise InvalidInput(
            "%s must be a name or a list of names, got %r" % (option, value), provider=provider, detail_code="bad_" + option
        )
    return ",".join(p.strip() for p in parts)


def _is_html(response: HttpResponse) -> bool:
    if response.content_type in ("text/html", "application/xhtml+xml"):
        return True
    return response.content[:200].lstrip().lower().startswith((b"<!doctype html", b"<html"))


def searxng_language(locale: str) -> str:
    """The ``language`` SearXNG accepts (``^[a-z]{2,3}(-[a-zA-Z]{2})?$``) for a locale.

    The language is lower-cased, a script subtag dropped (``zh-Hant-TW`` -> ``zh-TW``,
    ``sr-Latn`` -> ``sr``), the region upper-cased; ``all`` and ``auto`` pass. Anything
    else (a numeric region such as ``es-419``, variants, extensions, a longer language
    name) cannot be said to SearXNG: ``InvalidInput(bad_locale)``, before any request.
    """
    parts = locale.replace("_", "-").split("-")
    language, rest = parts[0].lower(), parts[1:]
    if not rest and language in _SPECIAL_LANGUAGES:
        return language
    if rest and len(rest[0]) == 4 and _letters(rest[0]):
        rest = rest[1:]
    if 2 <= len(language) <= 3 and _letters(language) and len(rest) <= 1 and all(len(r) == 2 and _letters(r) for r in rest):
        return "-".join([language] + [r.upper() for r in rest])
    raise InvalidInput(
        "searxng cannot search in locale %r: it accepts a language code with an optional two-letter region "
        "(e.g. 'de', 'en-US', 'zh-TW')" % (locale,),
        provider="searxng",
        detail_code="bad_locale",
    )


def _letters(text: str) -> bool:
    return text.isascii() and text.isalpha()


def _accept_language(language: Optional[str]) -> str:
    """``de-DE`` -> ``de-DE,de;q=0.9``; ``de`` -> ``de``; no language (or all/auto) -> ``en``."""
    if not language or language in _SPECIAL_LANGUAGES:
        return "en"
    primary = language.split("-", 1)[0]
    return language if primary == language else "%s,%s;q=0.9" % (language, primary)


def instance_root(base_url: str) -> str:
    """The instance's root URL from a configured base URL: no query or fragment, no
    trailing slashes, and no trailing ``/search`` (the page users copy from the address bar)."""
    try:
        parts = urlsplit(base_url.strip())
    except ValueError:  # malformed (``http://[::1``): check_configured refuses what comes out
        return base_url.rstrip("/")
    path = parts.path.rstrip("/")
    if path.endswith("/search"):
        path = path[: -len("/search")].rstrip("/")
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _shown(url: str) -> str:
    """A URL for messages: scheme, host, port and path (no credentials, no query)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = ":%d" % parts.port if parts.port else ""
    except ValueError:
        return "the instance"
    return "%s://%s%s%s" % (parts.scheme, host, port, parts.path)


def _engine_error(entry: Any, provider: str, secrets: List[str]) -> Optional[WebSearchError]:
    """One ``[engine, reason]`` pair as an error (``None`` for an unreadable entry).

    A blocked engine (CAPTCHA, too many requests, access denied) or a suspended one
    is not retryable at once: the instance has suspended it (``retry_after`` is
    SearXNG's default suspension for that failure).
    """
    if not isinstance(entry, (list, tuple)) or not entry:
        return None
    engine = str(entry[0])[:MAX_REASON_CHARS]
    reason = str(entry[1])[:MAX_REASON_CHARS] if len(entry) > 1 and entry[1] is not None else "no reason given"
    kind, suspended = read_reason(reason)
    cls, detail, suspension = _ENGINE_PROBLEMS.get(kind or "", (WebProviderError, "engine_error", None))
    blocked = cls is WebBlocked
    if suspended and not blocked:
        suspension = _FAILURE_SUSPENSION_S
    message = redact("searxng engine %r failed: %s" % (engine, reason), secrets)
    return cls(
        message,
        provider=provider,
        detail_code=detail,
        retryable=False if blocked or suspended else None,
        retry_after=suspension if blocked or suspended else None,
    )


def _no_results_because(problems: List[WebSearchError], status: int, provider: str) -> WebSearchError:
    """No results while engines failed: an error, not "0 results" (a block must not look empty)."""
    order = (WebBlocked, Timeout)
    primary = next((p for cls in order for p in problems if isinstance(p, cls)), problems[0])
    reasons = "; ".join(p.message.replace("searxng engine ", "") for p in problems)
    return type(primary)(
        "searxng returned no results and %d engine(s) failed: %s" % (len(problems), reasons),
        provider=provider,
        detail_code=primary.detail_code,
        status=status,
        retryable=primary.retryable,
        retry_after=primary.retry_after,
        errors=[p for p in problems if p is not primary],
    )
