"""``tavily``: the Tavily Search API, ``POST https://api.tavily.com/search`` (JSON, Bearer key).

Errors come as ``{"detail": {"error": "..."}}``. Besides 401, Tavily answers 432
when the plan's usage limit is used up and 433 when the pay-as-you-go limit is
reached (its SDK treats 403, 432 and 433 alike): all are ``AuthError``, since
retrying cannot help until the account changes.

A search gives at most 20 results (``max_results`` in 1..20, its API reference) and has no
next page: a call for more asks for 20. A query over 400 characters is refused before sending:
Tavily answers it with HTTP 400 ``{"detail": {"error": "Query is too long. Max query length is
400 characters."}}`` (a live answer quoted in CherryHQ/cherry-studio#2201), which is read as
``InvalidInput(query_too_long)`` too. A query of ``site:`` operators alone is refused before sending
too (``InvalidInput(unsupported_query)``, another backend of a chain takes it): Tavily answers it with
HTTP 400 "Query cannot consist only of site: operators. Please provide search terms." (verified
against api.tavily.com in miurla/morphic#1020), read the same way.

The locale's region boosts results from that country: Tavily's ``country`` takes its lower-case
name from a closed list (:mod:`.tavily_countries`), and only with the ``general`` topic (its API
reference: "Available only if topic is general"); a news or finance search, or a region outside
that list, sends none. Tavily has no language parameter.
"""

from typing import Any, Optional

from ..engine.json_api import JsonApiBackend
from ..engine.locales import split_locale
from ..engine.option import Option
from ..engine.setting import Setting
from ..errors import BAD_TOPIC, QUERY_TOO_LONG, UNSUPPORTED_QUERY, InvalidInput
from ..models import SearchParams
from ..net.transport import RequestSpec
from .tavily_countries import TAVILY_COUNTRIES

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

TOPICS = ("general", "news", "finance")
#: The most results Tavily gives for one search (its ``max_results`` range).
MAX_RESULTS = 20
#: The codes we give Tavily's answers that say what it refused (Tavily's envelope has words only).
_QUERY_TOO_LONG = "QUERY_TOO_LONG"
_SITE_ONLY = "SITE_ONLY"
_REFUSED_QUERIES = {"Query is too long": _QUERY_TOO_LONG, "Query cannot consist only of site:": _SITE_ONLY}


class Tavily(JsonApiBackend):
    """The Tavily search API (built for LLM agents)."""

    name = "tavily"
    unsent = ("safe_search", "locale.language")  # Tavily has no safe search, no language (docs/backends.md)
    auto_rank = 40
    text_format = "text"  # content is extracted page text, no markup
    provides_content = True
    max_results_limit = MAX_RESULTS  # no next page: a call for more is told (not_sent)
    results_at = "results"
    result_fields = {"title": "title", "url": "url", "snippet": "content", "published_at": "published_date"}
    content_field = "raw_content"  # the page text (include_content)
    request_id_at = "request_id"
    summary = "Tavily Search API (needs TAVILY_API_KEY)"
    default_base_url = "https://api.tavily.com"
    endpoint_path = "/search"
    provider_settings = (Setting("api_key", env="TAVILY_API_KEY", required=True),)
    options = (
        Option(
            "topic",
            "choice",
            choices=TOPICS,
            detail=BAD_TOPIC,
            doc="Tavily's search category (unset: Tavily's default, general)",
        ),
    )
    auth_statuses = (401, 402, 403, 432, 433)
    max_query_chars = 401  # "Max query length is 400 characters."
    vendor_codes = {_QUERY_TOO_LONG: (InvalidInput, QUERY_TOO_LONG), _SITE_ONLY: (InvalidInput, UNSUPPORTED_QUERY)}

    def check_params(self, params: SearchParams) -> None:
        """Also refuse a query of ``site:`` operators alone (Tavily wants search terms)."""
        super().check_params(params)
        words = params.full_query.split()
        if all(word.lower().startswith("site:") and len(word) > len("site:") for word in words):
            raise InvalidInput(
                "tavily needs search terms beside site: operators (got %r)" % params.full_query,
                provider=self.name,
                detail_code=UNSUPPORTED_QUERY,
            )

    def build_request(self, params: SearchParams) -> RequestSpec:
        """JSON ``{query, max_results}`` (at most :data:`MAX_RESULTS`) plus ``topic``, ``time_range``,
        ``country`` (the locale's region, general topic only) and ``include_raw_content`` (for
        ``include_content``) when asked."""
        body: dict[str, Any] = {
            "query": params.full_query,
            "max_results": min(params.max_results, self.max_results_limit),
        }
        topic = self.option(params, "topic")
        if topic:
            body["topic"] = topic
        country = self._country(params)
        if country:
            body["country"] = country
        if params.time_range:
            body["time_range"] = params.time_range
        if params.include_content:
            body["include_raw_content"] = True
        return RequestSpec("POST", self.endpoint_url(), json=body, headers=self.json_headers(self.bearer()))

    def _country(self, params: SearchParams) -> Optional[str]:
        """The locale's region as Tavily names it, with the general topic only (``None``: none sent)."""
        country = split_locale(params.locale)[1] if params.locale else None
        if country in TAVILY_COUNTRIES and self.option(params, "topic") in (None, "general"):
            return TAVILY_COUNTRIES[country]
        return None

    def dropped(self, params: SearchParams) -> tuple[str, ...]:
        """The locale's region, when no country is sent for it (its language is never sent: :attr:`unsent`)."""
        return () if self._country(params) else ("locale.region",)

    def error_envelope(self, data: Any) -> Optional[tuple[Any, Optional[str]]]:
        """``{"detail": {"error": "..."}}`` (FastAPI's ``{"detail": "..."}`` too)."""
        if not isinstance(data, dict) or "detail" not in data:
            return None
        detail = data["detail"]
        if isinstance(detail, dict):
            detail = detail.get("error") or detail.get("message")
        if not isinstance(detail, str):
            return None, None
        code = next((code for start, code in _REFUSED_QUERIES.items() if detail.startswith(start)), None)
        return code, detail
