"""``searxng``: a SearXNG instance's JSON API, ``GET {SEARXNG_BASE_URL}/search?format=json``.

SearXNG is a meta-engine: one request asks many engines inside the instance, and
each of them may fail alone. What a real instance does (see UPSTREAMS.md and
docs/backends.md):

* **Its own refusals.** JSON output is off on a fresh instance (``search.formats:
  [html]``): ``/search`` then answers with Werkzeug's standard 403 page, an
  ``AuthError`` telling what to enable. Its limiter (on by default on public
  instances, ``searx/botdetection``) answers 429 ``Too Many Requests`` without
  ``Retry-After``: it counts JSON requests per IP in a one-hour sliding window, so
  asking again at once only extends the block; on a public instance it redirects a
  client it takes for a bot from ``/search`` to its home page. A 403 that is not
  SearXNG's page came from something in front of it (a Cloudflare challenge, a
  proxy's access rule).
* **Its engines' failures** (``unresponsive_engines``, ``[engine, reason]``) are
  listed in ``errors`` (with the engine's name and, for a blocked or suspended one,
  ``retry_after``: how long the instance leaves it alone) without failing a call
  that has results. No results while engines failed is that failure; a block of
  engines cools down only the engines/categories that call asked for
  (:meth:`SearXNG.cooldown_keys`), since the instance keeps answering with its
  other engines.
* **Its deadline.** The instance waits for its slowest engine (its
  ``outgoing.request_timeout``) unless told ``timeout_limit``; each request says
  what is left of the call's deadline minus a margin for the round trip and parsing.
* **Its extras.** Answers, infoboxes, suggestions and corrections go to
  ``provider_meta["extras"]``; engine/category names it ignored are a warning.

The request carries the headers a real instance's limiter and Sec-Fetch check let
through. ``language`` must match ``^[a-z]{2,3}(-[a-zA-Z]{2})?$`` (else HTTP 400):
locales are mapped to that form (``zh-Hant-TW`` -> ``zh-TW``) or refused before
sending. Engine failure reasons are asked for in English (``locale=en``) and read in
any language the instance speaks (:mod:`.searxng_reasons`).
"""

import dataclasses
from collections.abc import Sequence
from typing import Any, Optional
from urllib.parse import urlsplit, urlunsplit

from ..engine.base import dig
from ..engine.json_api import JsonApiBackend
from ..engine.option import PAGENO, Option
from ..engine.setting import Setting, own_timeout
from ..errors import (
    ANSWER_ONLY,
    BAD_CATEGORIES,
    BAD_ENGINES,
    BAD_LOCALE,
    BAD_SETTING,
    CAPTCHA_REQUIRED,
    ENGINE_ERROR,
    ENGINE_TIMEOUT,
    HTTP_403,
    HTTP_404,
    HTTP_429,
    UNEXPECTED_SHAPE,
    AuthError,
    InvalidInput,
    Timeout,
    WebBlocked,
    WebParseError,
    WebProviderError,
    WebSearchError,
    redact,
)
from ..models import ErrorInfo, ParseResult, SearchParams
from ..net.botwall import bot_wall_error
from ..net.deadline import Deadline
from ..net.transport import HttpResponse, RequestSpec, retry_after_seconds
from ..net.urls import shown_url
from .searxng_extras import extras_of, ignored_names
from .searxng_reasons import MAX_REASON_CHARS, read_reason

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

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
_ENGINE_PROBLEMS: dict[str, tuple[type[WebSearchError], str, Optional[float]]] = {
    "captcha": (WebBlocked, CAPTCHA_REQUIRED, 3600.0),
    "too_many_requests": (WebBlocked, HTTP_429, 180.0),
    "access_denied": (WebBlocked, HTTP_403, 180.0),
    "timeout": (Timeout, ENGINE_TIMEOUT, None),
}
#: Seconds SearXNG suspends an engine after any other failure (settings.yml ``search.ban_time_on_fail``).
_FAILURE_SUSPENSION_S = 5.0

#: The limiter's window for JSON requests (``searx/botdetection/ip_limit.py``: ``API_WINDOW``,
#: at most ``API_MAX`` = 4 requests per IP in it): how long a client it refused stays away.
LIMITER_WINDOW_S = 3600.0
#: The bodies of the limiter's 429 (``flask.make_response(('Too Many Requests', 429))`` in
#: ``searx/botdetection/_helpers.py``; ``'IP is on BLOCKLIST - ...'`` in ``searx/limiter.py``).
_LIMITER_BODIES = (b"Too Many Requests", b"IP is on BLOCKLIST")
#: Werkzeug's standard 403 page (``flask.abort(403)``, what ``/search`` answers for a format
#: not in ``search.formats``): its title and its bare ``<h1>`` (a proxy's page says
#: ``<h1>403 Forbidden</h1>``).
_WERKZEUG_403 = (b"<title>403 Forbidden</title>", b"<h1>Forbidden</h1>")

#: ``timeout_limit`` leaves this much of the call's remaining time for the round trip,
#: the instance's own merging and our parsing: a fixed part plus a share of what is left.
_MARGIN_S = 0.25
_MARGIN_SHARE = 0.15
#: The smallest ``timeout_limit`` sent (SearXNG reads it as seconds).
_MIN_TIMEOUT_LIMIT_S = 0.1


class SearXNG(JsonApiBackend):
    """A SearXNG metasearch instance (self-hosted or public)."""

    name = "searxng"
    auto_rank = 30
    results_per_page = 10  #: a call asking for more reads the next ``pageno``
    text_format = "text"  # SearXNG escapes title/content in its HTML page: the JSON holds plain text
    result_fields = {"title": "title", "url": "url", "snippet": "content", "published_at": "publishedDate"}
    summary = "SearXNG instance, JSON API (needs SEARXNG_BASE_URL and `json` in search.formats)"
    endpoint_path = "/search"
    provider_settings = (
        Setting("base_url", env="SEARXNG_BASE_URL", kind="url", required=True),
        Setting("api_key", env="SEARXNG_API_KEY"),
        own_timeout("SEARXNG_TIMEOUT_MS"),
    )
    options = (
        Option("categories", "names", detail=BAD_CATEGORIES, doc="the instance's categories to search (news, it...)"),
        Option("engines", "names", detail=BAD_ENGINES, doc="the instance's engines to ask (google, wikipedia...)"),
        PAGENO,
    )
    volatile_params = ("timeout_limit",)

    def endpoint_url(self) -> str:
        """``Settings.endpoints["searxng"]`` as it is, else the instance's root (``base_url``,
        a trailing ``/search`` dropped) + ``/search``."""
        base = self.config.get("base_url")
        if self.settings.endpoints.get(self.name) or not base:
            return super().endpoint_url()
        return instance_root(str(base)) + self.endpoint_path

    def configured_base(self) -> Optional[str]:
        """The endpoint override, else the instance's root."""
        base = self.config.get("base_url")
        return self.settings.endpoints.get(self.name) or (instance_root(str(base)) if base else None)

    def check_configured(self) -> None:
        """Also refuse credentials given twice: a user name/password in ``SEARXNG_BASE_URL``
        (sent as HTTP Basic auth) beside ``SEARXNG_API_KEY`` (a bearer token): only one
        ``Authorization`` header can be sent, so one of them would be lost without a word."""
        super().check_configured()
        try:
            userinfo = urlsplit(self.endpoint_url()).username is not None
        except ValueError:  # pragma: no cover - check_configured refused a malformed URL already
            userinfo = False
        if userinfo and self.config.get("api_key"):
            raise InvalidInput(
                "searxng: SEARXNG_BASE_URL carries a user name (HTTP Basic auth) and SEARXNG_API_KEY is set "
                "(a bearer token); only one Authorization header can be sent: keep one of them",
                provider=self.name,
                detail_code=BAD_SETTING,
            )

    def check_params(self, params: SearchParams) -> None:
        """Also check that the locale has a form SearXNG accepts."""
        super().check_params(params)
        if params.locale:
            searxng_language(params.locale)

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``GET /search?q=…&format=json&locale=en`` with language, time range, safe search and
        options, and the headers a real instance's limiter wants."""
        query: dict[str, Any] = {"q": params.full_query, "format": "json", "locale": "en"}
        if params.options.get("pageno") is not None:  # page 1 unasked: the instance's default
            query["pageno"] = self.option(params, "pageno")
        language = searxng_language(params.locale) if params.locale else None
        if language:
            query["language"] = language
        if params.time_range:
            query["time_range"] = params.time_range
        if params.safe_search:
            query["safesearch"] = _SAFESEARCH[params.safe_search]
        for name in ("categories", "engines"):
            names = self._names(params, name)
            if names:
                query[name] = names
        headers = self.json_headers(self.bearer())
        headers.update(_BROWSER_HEADERS)
        headers["Accept-Language"] = _accept_language(language)
        return RequestSpec("GET", self.endpoint_url(), params=query, headers=headers)

    def fit_request(self, spec: RequestSpec, deadline: Deadline) -> RequestSpec:
        """Add ``timeout_limit``: what is left of the deadline, minus a margin for the round
        trip and parsing, so the instance answers with the engines that made it in time
        instead of waiting for its slowest one past our deadline."""
        left = deadline.remaining_s()
        limit = max(_MIN_TIMEOUT_LIMIT_S, left - _MARGIN_S - _MARGIN_SHARE * left)
        query = dict(spec.params or {})
        query["timeout_limit"] = "%.2f" % limit
        return dataclasses.replace(spec, params=query)

    def cooldown_keys(self, params: SearchParams) -> tuple[str, ...]:
        """The instance (its limiter, its 403) and the engines/categories this call asks for."""
        return (self.cooldown_scope(), self._engines_key(params))

    def cooldown_key(self, params: SearchParams, error: WebBlocked) -> str:
        """A block of the engines asked (no results, engines failed: the error lists them)
        cools down only those engines/categories; a block of the instance, all of it."""
        return self._engines_key(params) if error.errors else self.cooldown_scope()

    def _engines_key(self, params: SearchParams) -> str:
        asked = [
            "%s=%s" % (name, ",".join(sorted(names.split(","))))
            for name in ("engines", "categories")
            for names in [self._names(params, name)]
            if names
        ]
        return "%s[%s]" % (self.cooldown_scope(), "; ".join(asked) or "default engines")

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """The instance's own refusals (a 404 at the base URL, Werkzeug's 403, the limiter's
        429 and its redirect to the home page), a 403 from something in front of it, else
        the shared API mapping."""
        if response.status == 404:
            return self._not_found(response)
        if response.status == 403:
            return self._forbidden(response)
        error = super().classify(response)
        if response.status == 429 and error is not None and _is_limiter_429(response):
            return _reworded(
                error,
                "searxng: the instance's limiter refused the request (HTTP 429, no Retry-After): it allows "
                "4 JSON requests per IP per hour and each new request extends the block; on your own instance add "
                "your address to `pass_ip` in limiter.toml or set `server.limiter: false` in settings.yml",
                retryable=False,
                retry_after=LIMITER_WINDOW_S,
            )
        if error is None and self._sent_home(response):
            return WebBlocked(
                "searxng: %s redirected the search to its home page: the limiter treats this client as a bot "
                "(a public instance does this to API clients); use an instance you run" % shown_url(response.url),
                provider=self.name,
                detail_code=CAPTCHA_REQUIRED,
                status=response.status,
            )
        return error

    def _not_found(self, response: HttpResponse) -> WebSearchError:
        setting = (
            "Settings.endpoints['searxng'] (WEB_SEARCH_ENDPOINT_SEARXNG): it is used as it is, so it must be the "
            "instance's /search URL"
            if self.settings.endpoints.get(self.name)
            else "SEARXNG_BASE_URL: it must be the instance's root URL (the one that shows its search page), "
            "requests go to <base URL>/search"
        )
        return WebProviderError(
            "searxng: %s answered 404 Not Found; check %s" % (shown_url(response.url), setting),
            provider=self.name,
            detail_code=HTTP_404,
            status=response.status,
        )

    def _forbidden(self, response: HttpResponse) -> WebSearchError:
        """SearXNG's own 403 (JSON disabled), a Cloudflare challenge, or a 403 from a proxy."""
        if all(marker in response.content[:4096] for marker in _WERKZEUG_403):
            return AuthError(
                "SearXNG instance refused JSON output (HTTP 403 with its standard page): enable `json` in the "
                "instance's settings.yml `search.formats` (e.g. `formats: [html, json]`) and restart it",
                provider=self.name,
                detail_code=HTTP_403,
                status=response.status,
            )
        wall = bot_wall_error(response, self.name)
        if wall is not None:
            return wall
        error = super().classify(response)
        assert error is not None  # a 403 is never a success
        return _reworded(
            error,
            "searxng: HTTP 403 from something in front of the instance at %s (a reverse proxy, firewall or access "
            "rule), not SearXNG's own page: check its access rules (and SEARXNG_API_KEY if it wants a token)"
            % shown_url(response.url),
        )

    def _sent_home(self, response: HttpResponse) -> bool:
        """True when the answer came from the instance's home page instead of ``/search``
        (the redirects of ``searx/botdetection``: ``link_token``, ``http_sec_fetch``)."""
        try:
            asked, came = urlsplit(self.endpoint_url()), urlsplit(response.url)
        except ValueError:
            return False
        root = urlsplit(instance_root(self.endpoint_url())).path.rstrip("/")
        return came.path != asked.path and came.path.rstrip("/") == root and came.hostname == asked.hostname

    def error_envelope(self, data: Any) -> Optional[tuple[Any, Optional[str]]]:
        """SearXNG's ``{"error": "No query"}``."""
        if isinstance(data, dict) and isinstance(data.get("error"), str):
            return None, data["error"]
        return None

    def structure_report(self, response: HttpResponse, params: Optional[SearchParams] = None) -> dict[str, bool]:
        """No structure checks on a refusal (JSON disabled, limiter, 403): there is no answer to
        compare, and ``check-live`` reports the refusal itself."""
        error = self.classify(response)
        if isinstance(error, (AuthError, WebBlocked)):
            return {}
        return super().structure_report(response, params)

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Items from ``results[]``; ``unresponsive_engines`` and ignored names become ``errors``;
        answers, infoboxes, suggestions and corrections become ``extras``."""
        data = self.data(response)
        results = dig(data, ["results"], self.name)
        if not isinstance(results, list):
            raise WebParseError(
                "searxng answered with a non-list `results`", provider=self.name, detail_code=UNEXPECTED_SHAPE
            )
        items = self.items_from(results, params)
        failures = [_engine_error(entry, self.name, self.secrets()) for entry in data.get("unresponsive_engines") or ()]
        problems = [failure for failure in failures if failure is not None]
        if not items and problems:
            raise _no_results_because([error for _, error in problems], response.status, self.name)
        extras = extras_of(data)
        errors = [_engine_entry(engine, error) for engine, error in problems]
        errors.extend(warning.to_dict() for warning in self._warnings(params, results, [e for e, _ in problems]))
        if not items and (extras.get("answers") or extras.get("infoboxes")):
            errors.append(_answer_only(extras).to_dict())
        return ParseResult(items=items, errors=errors, extras=extras)

    def _warnings(self, params: SearchParams, results: list[Any], failed: list[str]) -> list[WebSearchError]:
        """A warning for each of ``engines``/``categories`` whose names the instance ignored."""
        warnings = (ignored_names(o, self._names(params, o), results, failed) for o in ("engines", "categories"))
        return [warning for warning in warnings if warning is not None]

    def _names(self, params: SearchParams, option: str) -> Optional[str]:
        """The names option ``option`` (``engines``, ``categories``) asks for, comma-separated (``None``: unset)."""
        names = self.option(params, option)
        return ",".join(names) if names else None


def _is_limiter_429(response: HttpResponse) -> bool:
    """SearXNG's limiter: a 429 without ``Retry-After`` whose body is its own few words."""
    return retry_after_seconds(response.headers) is None and response.content.strip().startswith(_LIMITER_BODIES)


def _reworded(error: WebSearchError, message: str, **changes: Any) -> WebSearchError:
    """``error`` (from the shared status mapping) with this backend's words, and ``changes``."""
    error.message = message
    error.args = (message,)
    for name, value in changes.items():
        setattr(error, name, value)
    return error


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
    if (
        2 <= len(language) <= 3
        and _letters(language)
        and len(rest) <= 1
        and all(len(r) == 2 and _letters(r) for r in rest)
    ):
        return "-".join([language] + [r.upper() for r in rest])
    raise InvalidInput(
        "searxng cannot search in locale %r: it accepts a language code with an optional two-letter region "
        "(e.g. 'de', 'en-US', 'zh-TW')" % (locale,),
        provider="searxng",
        detail_code=BAD_LOCALE,
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


def _engine_error(entry: Any, provider: str, secrets: list[str]) -> Optional[tuple[str, WebSearchError]]:
    """One ``[engine, reason]`` pair as ``(engine, error)`` (``None`` for an unreadable entry).

    A blocked engine (CAPTCHA, too many requests, access denied) or a suspended one
    is not retryable at once: the instance has suspended it (``retry_after`` is
    SearXNG's default suspension for that failure).
    """
    if not isinstance(entry, (list, tuple)) or not entry:
        return None
    engine = str(entry[0])[:MAX_REASON_CHARS]
    reason = str(entry[1])[:MAX_REASON_CHARS] if len(entry) > 1 and entry[1] is not None else "no reason given"
    kind, suspended = read_reason(reason)
    cls, detail, suspension = _ENGINE_PROBLEMS.get(kind or "", (WebProviderError, ENGINE_ERROR, None))
    blocked = cls is WebBlocked
    if suspended and not blocked:
        suspension = _FAILURE_SUSPENSION_S
    message = redact("searxng engine %r failed: %s" % (engine, reason), secrets)
    return engine, cls(
        message,
        provider=provider,
        detail_code=detail,
        retryable=False if blocked or suspended else None,
        retry_after=suspension if blocked or suspended else None,
    )


def _engine_entry(engine: str, error: WebSearchError) -> ErrorInfo:
    """An ``errors`` entry for one failed engine: its name, and how long the instance leaves it alone."""
    entry = error.to_dict()
    entry["engine"] = engine
    if error.retry_after is not None:
        entry["retry_after"] = error.retry_after
    return entry


def _no_results_because(problems: Sequence[WebSearchError], status: int, provider: str) -> WebSearchError:
    """No results while engines failed: an error, not "0 results" (a block must not look empty).

    Blocked (or suspended) only when every engine asked is: then it may be asked again
    when the first of them is back (``retry_after``); otherwise the failure that may heal
    at once (a timeout first) decides. Every engine's own failure is attached once in
    ``errors`` (which also marks the error as the engines', see :meth:`SearXNG.cooldown_key`).
    """
    waiting = [p.retry_after for p in problems if p.retry_after is not None]
    if len(waiting) == len(problems):  # every engine is blocked or suspended: back when the first one is
        primary = next((p for p in problems if isinstance(p, WebBlocked)), problems[0])
        retry_after: Optional[float] = min(waiting)
    else:  # some engine may answer at once (a timeout): that failure decides
        healing = [p for p in problems if p.retry_after is None]
        primary = next((p for p in healing if isinstance(p, Timeout)), healing[0])
        retry_after = None
    return type(primary)(
        "searxng returned no results: the %d engine(s) it asked failed" % len(problems),
        provider=provider,
        detail_code=primary.detail_code,
        status=status,
        retryable=primary.retryable,
        retry_after=retry_after,
        errors=problems,
    )


def _answer_only(extras: dict[str, Any]) -> WebSearchError:
    """The note for an answer without web results (a calculator, a unit conversion, an infobox)."""
    kinds = ", ".join("%d %s" % (len(extras[k]), k) for k in ("answers", "infoboxes") if extras.get(k))
    texts = [a["text"] for a in extras.get("answers", ()) if a.get("text")] + [
        i["title"] for i in extras.get("infoboxes", ())
    ]
    return WebProviderError(
        "searxng answered with no web results, only %s (in provider_meta['extras']): %s"
        % (kinds, "; ".join(texts[:3])),
        provider="searxng",
        detail_code=ANSWER_ONLY,
    )
