"""``brave``: the Brave Search API, ``GET https://api.search.brave.com/res/v1/web/search``.

Authenticated with ``X-Subscription-Token: <BRAVE_API_KEY>``. A rejected key is a
422 ``SUBSCRIPTION_TOKEN_INVALID`` (sometimes 401/403): ``AuthError``; a 422
``VALIDATION`` is ``InvalidInput``; a 429 carries the wait from ``Retry-After`` /
``X-RateLimit-Reset`` (the free plan allows one request per second).

Web search gives at most 20 results a request (``count`` above 20 is a 422 ``VALIDATION``);
``offset`` is the index (0..9) of a page of ``count`` results. A call whose pages gave fewer
distinct results than asked (more than 20, or a first page short of the call's ``count``) reads the
next pages, until the answer's ``query.more_results_available`` is false or ``max_pages``: each
page is a paid query (``Settings.max_pages=1`` keeps one a call).

``country`` and ``search_lang`` are closed lists (:data:`BRAVE_COUNTRIES`, :data:`BRAVE_LANGUAGES`):
a value outside them is a 422 ``VALIDATION`` (``country=SG``: brave/brave-search-mcp-server#74),
``InvalidInput``, which would end a fallback chain. The locale is a hint: a region or language
Brave does not list is not sent.
"""

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Optional

from ..engine.base import Page
from ..engine.json_api import JsonApiBackend, JsonPath
from ..engine.locales import split_locale, traditional_chinese
from ..engine.media_fields import nested
from ..engine.setting import Setting
from ..engine.unsent import locale_parts_unsent, said_in
from ..errors import (
    INVALID_API_KEY,
    INVALID_PARAMS,
    QUERY_TOO_LONG,
    UNEXPECTED_SHAPE,
    AuthError,
    InvalidInput,
    WebParseError,
)
from ..models import SearchParams
from ..net.transport import RequestSpec

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_FRESHNESS = {"day": "pd", "week": "pw", "month": "pm", "year": "py"}
_MAX_WORDS = 50
#: Brave's last page index (``offset``).
_LAST_OFFSET = 9
#: Brave's countries (its API's ``country`` enum, as its own MCP server, brave/brave-search-mcp-server
#: ``src/tools/web/params.ts``, declares it): any other is a 422 ``VALIDATION``.
BRAVE_COUNTRIES = frozenset(
    "AR AU AT BE BR CA CL DK FI FR DE HK IN ID IT JP KR MY MX NL NZ NO CN PL PT PH RU SA ZA ES SE CH TW TR GB US".split()
)
#: Brave's ``search_lang`` values (the same declaration): any other is a 422 ``VALIDATION``.
BRAVE_LANGUAGES = frozenset(
    "ar eu bn bg ca zh-hans zh-hant hr cs da nl en en-gb et fi fr gl de gu he hi hu is it jp kn ko lv lt ms ml "
    "mr nb pl pt-br pt-pt pa ro ru sr sk sl es sv ta te th tr uk vi".split()
)
#: Brave's ``search_lang`` codes that are not the plain ISO 639-1 code.
_LANG_EXCEPTIONS = {"ja": "jp", "no": "nb", "nn": "nb"}
_LANG_WITH_REGION = {("en", "GB"): "en-gb", ("pt", "BR"): "pt-br", ("pt", "PT"): "pt-pt"}


class Brave(JsonApiBackend):
    """The Brave Search web-search API."""

    name = "brave"
    auto_rank = 10
    text_format = "html"  # descriptions carry <strong> highlights and entities (&#x27;, &quot;)
    summary = "Brave Search API (needs BRAVE_API_KEY)"
    default_endpoint = "https://api.search.brave.com/res/v1/web/search"
    provider_settings = (Setting("api_key", env="BRAVE_API_KEY", required=True),)
    min_interval_s = 1.0
    #: Web search's largest ``count``: fewer distinct results than asked read the next pages (``offset``).
    results_per_page: ClassVar[Optional[int]] = 20
    results_at: ClassVar[Optional[JsonPath]] = ("web", "results")
    result_fields: ClassVar[Mapping[str, JsonPath]] = {
        "title": "title",
        "url": "url",
        "snippet": "description",
        "published_at": "page_age",
    }
    max_query_chars = 401  # Brave accepts at most 400 characters (and 50 words)
    vendor_codes = {
        "SUBSCRIPTION_TOKEN_INVALID": (AuthError, INVALID_API_KEY),
        "VALIDATION": (InvalidInput, INVALID_PARAMS),
    }

    def check_params(self, params: SearchParams) -> None:
        """Brave also refuses queries of more than 50 words."""
        super().check_params(params)
        words = len(params.full_query.split())
        if words > _MAX_WORDS:
            raise InvalidInput(
                "brave accepts queries of at most %d words (got %d)" % (_MAX_WORDS, words),
                provider=self.name,
                detail_code=QUERY_TOO_LONG,
            )

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``q``, ``count`` = max_results (at most a page, or :attr:`max_results_limit`), ``country``/``search_lang`` from the locale,
        ``freshness`` from the time range, ``safesearch``."""
        count = min(params.max_results, self.results_per_page or self.max_results_limit or params.max_results)
        query: dict[str, Any] = {"q": params.full_query, "count": count}
        query.update(_locale_fields(params.locale))
        if params.time_range:
            query["freshness"] = _FRESHNESS[params.time_range]
        if params.safe_search:
            query["safesearch"] = params.safe_search
        return RequestSpec(
            "GET",
            self.endpoint_url(),
            params=query,
            headers=self.json_headers(("X-Subscription-Token", str(self.config["api_key"]))),
        )

    def dropped(self, params: SearchParams) -> tuple[str, ...]:
        """The parts of the locale Brave does not list (:func:`~..engine.unsent.locale_parts_unsent`)."""
        fields = _locale_fields(params.locale)
        return locale_parts_unsent("search_lang" in fields, "country" in fields)

    def said_locale(self, params: SearchParams) -> Optional[str]:
        """``search_lang`` (``zh-hant`` says its script) and ``country`` (:func:`~..engine.unsent.said_in`)."""
        fields = _locale_fields(params.locale)
        return said_in(fields.get("search_lang"), fields.get("country"))

    def next_page(self, params: SearchParams, page: Page) -> Optional[RequestSpec]:
        """The call's request at the next ``offset`` (a page index), none after the last page or
        where the answer says no more results are available: ``false``, or any value that is no
        boolean (``"false"`` went on paging, every page a billed request); an answer without the
        field goes on, as the field is Brave's only word on it."""
        more = nested(page.previous.json(), "query", "more_results_available")
        if page.number - 1 > _LAST_OFFSET or (more is not None and more is not True):
            return None
        spec = self.build_request(params)
        return dataclasses.replace(spec, params=dict(spec.params or {}, offset=page.number - 1))

    def error_envelope(self, data: Any) -> Optional[tuple[Any, Optional[str]]]:
        """``{"type": "ErrorResponse", "error": {"code", "detail"}}`` (the docs also show ``errors: [...]``)."""
        if not isinstance(data, dict) or data.get("type") != "ErrorResponse":
            return None
        error = _error_object(data)
        if error is None:
            return None, None
        return error.get("code"), error.get("detail")

    def envelope_status(self, data: Any) -> Any:
        """The ``status`` of an error body's ``error`` (the recorded 429's: ``"status": 429``)."""
        error = _error_object(data)
        return error.get("status") if error is not None else None

    def results(self, data: Any, params: SearchParams) -> list[Any]:
        """``web.results[]`` of a search answer (``type`` ``search``); one without ``web`` has no web results."""
        if not isinstance(data, dict) or data.get("type") != "search":
            raise WebParseError(
                "brave answered with JSON that is not a search response",
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
            )
        return super().results(data, params) if "web" in data else []


def _error_object(data: Any) -> Optional[dict[str, Any]]:
    """The ``error`` object of an ``ErrorResponse`` (or the first of its ``errors``), else ``None``."""
    error = data.get("error") if isinstance(data, dict) else None
    if error is None and isinstance(data, dict) and isinstance(data.get("errors"), list) and data["errors"]:
        error = data["errors"][0]
    return error if isinstance(error, dict) else None


def _locale_fields(locale: Optional[str]) -> dict[str, str]:
    """``search_lang`` and ``country`` from the locale, a hint: what Brave does not list is not
    sent (it would be a 422)."""
    fields: dict[str, str] = {}
    if locale:
        lang, country = split_locale(locale)
        search_lang = _LANG_WITH_REGION.get((lang, country or "")) or _search_lang(locale, lang)
        if search_lang in BRAVE_LANGUAGES:
            fields["search_lang"] = search_lang
        if country in BRAVE_COUNTRIES:
            fields["country"] = country
    return fields


def _search_lang(locale: str, lang: str) -> str:
    if lang == "zh":
        return "zh-hant" if traditional_chinese(locale) else "zh-hans"
    return _LANG_EXCEPTIONS.get(lang, lang)
