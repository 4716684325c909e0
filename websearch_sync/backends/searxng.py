"""``searxng``: a SearXNG instance's JSON API, ``GET {SEARXNG_BASE_URL}/search?format=json``.

JSON output is off on a fresh instance (``search.formats: [html]``): the instance
then answers 403 with an HTML page, reported as ``AuthError`` telling what to
enable. Engines that failed inside the instance (``unresponsive_engines``) are
reported in the response's ``errors`` without failing the call when results exist.
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Type

from ..errors import AuthError, InvalidInput, Timeout, WebBlocked, WebParseError, WebProviderError, WebSearchError, redact
from ..net.transport import HttpResponse, RequestSpec
from ..models import ParseResult, SearchParams
from .base import dig
from .json_api import JsonApiBackend

__all__ = ["SearXNG"]

_SAFESEARCH = {"off": "0", "moderate": "1", "strict": "2"}

#: An engine's failure reason (SearXNG's own words, lower-cased substring) -> error.
_ENGINE_PROBLEMS: Sequence[Tuple[str, Type[WebSearchError], str]] = (
    ("captcha", WebBlocked, "captcha_required"),
    ("too many requests", WebBlocked, "http_429"),
    ("access denied", WebBlocked, "http_403"),
    ("timeout", Timeout, "engine_timeout"),
)


class SearXNG(JsonApiBackend):
    """A SearXNG metasearch instance (self-hosted or public)."""

    name = "searxng"
    text_format = "text"  # SearXNG escapes title/content in its HTML page: the JSON holds plain text
    result_fields = {"title": "title", "url": "url", "snippet": "content", "published_at": "publishedDate"}
    summary = "SearXNG instance, JSON API (needs SEARXNG_BASE_URL and `json` in search.formats)"
    endpoint_path = "/search"
    env_vars = {"base_url": "SEARXNG_BASE_URL", "api_key": "SEARXNG_API_KEY", "timeout_ms": "SEARXNG_TIMEOUT_MS"}
    required = ("base_url",)
    options = ("categories", "engines", "pageno")

    def check_params(self, params: SearchParams) -> None:
        """Also check the SearXNG options: ``categories``/``engines`` (names), ``pageno`` (int >= 1)."""
        super().check_params(params)
        for name in ("categories", "engines"):
            _names(params.options.get(name), name, self.name)
        pageno = params.options.get("pageno")
        if pageno is not None and (isinstance(pageno, bool) or not isinstance(pageno, int) or pageno < 1):
            raise InvalidInput("pageno must be an integer >= 1, got %r" % (pageno,), provider=self.name, detail_code="bad_pageno")

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``GET /search?q=…&format=json`` with language, time range, safe search and options."""
        query: Dict[str, Any] = {"q": params.full_query, "format": "json"}
        if params.options.get("pageno") is not None:
            query["pageno"] = params.options["pageno"]
        if params.locale:
            query["language"] = params.locale.replace("_", "-")
        if params.time_range:
            query["time_range"] = params.time_range
        if params.safe_search:
            query["safesearch"] = _SAFESEARCH[params.safe_search]
        for name in ("categories", "engines"):
            names = _names(params.options.get(name), name, self.name)
            if names:
                query[name] = names
        return RequestSpec("GET", self.endpoint_url(), params=query, headers=self.json_headers(self.bearer()))

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """A 403 HTML page means JSON output is disabled; else the shared API mapping."""
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


def _engine_error(entry: Any, provider: str, secrets: List[str]) -> Optional[WebSearchError]:
    """One ``[engine, reason]`` pair as an error (``None`` for an unreadable entry)."""
    if not isinstance(entry, (list, tuple)) or not entry:
        return None
    engine = str(entry[0])
    reason = str(entry[1]) if len(entry) > 1 and entry[1] is not None else "no reason given"
    cls: Type[WebSearchError] = WebProviderError
    detail = "engine_error"
    lowered = reason.lower()
    for needle, problem_cls, problem_detail in _ENGINE_PROBLEMS:
        if needle in lowered:
            cls, detail = problem_cls, problem_detail
            break
    message = redact("searxng engine %r failed: %s" % (engine, reason), secrets)
    return cls(message, provider=provider, detail_code=detail)


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
        errors=[p for p in problems if p is not primary],
    )
