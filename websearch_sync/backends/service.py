"""``service``: a company search gateway, ``POST {WEB_SEARCH_SERVICE_URL}`` (JSON, Bearer key).

The contract (no public vendor; agent CLIs call such gateways):

* request ``{"text_query", "limit", "enable_page_crawling", "timeout_seconds"}`` with
  ``Authorization: Bearer <WEB_SEARCH_SERVICE_KEY>``, any extra headers from the
  ``headers`` setting (``WEB_SEARCH_SERVICE_HEADERS``, a JSON object), and the
  call's ``trace_id`` in a request-id header (``X-Request-Id`` unless
  ``WEB_SEARCH_SERVICE_REQUEST_ID_HEADER`` names another);
* answer ``{"search_results": [{"site_name", "title", "url", "snippet", "content", "date"}]}``.

``enable_page_crawling`` is ``include_content``; ``timeout_seconds`` is the request's deadline
(the call's ``timeout_ms``, else the backend's, :meth:`SearchService.fit_request`) minus one
second, so the gateway answers before we give up.
Extra headers may not set ``Authorization`` (nor ``Content-Type``, ``Content-Length``,
``Host``): such a setting is refused before any request. Header values are secrets:
they never appear in messages.
"""

import dataclasses
import re
from typing import Any, Optional

from ..engine.json_api import JsonApiBackend, request_id_text
from ..engine.setting import Setting, bad_setting, own_timeout
from ..errors import InvalidInput, WebSearchError, redact_error
from ..models import SearchParams
from ..net import jsontext
from ..net.deadline import Deadline
from ..net.transport import HttpResponse, RequestSpec

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

DEFAULT_REQUEST_ID_HEADER = "X-Request-Id"
#: Headers the extra headers may not set (lower case).
RESERVED_HEADERS = ("authorization", "content-type", "content-length", "host")
_MARGIN_MS = 1000
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_VALUE = re.compile(r"[\t\x20-\x7e]*")


class SearchService(JsonApiBackend):
    """A generic search gateway speaking the contract in the module docstring."""

    name = "service"
    unsent = ("locale", "safe_search", "time_range")  # the gateway's body has no such fields (docs/backends.md)
    auto_rank = 70
    text_format = "html"  # the gateway contract's snippets carry <em> highlights and entities
    provides_content = True
    result_fields = {
        "title": "title",
        "url": "url",
        "snippet": "snippet",
        "source": "site_name",
        "published_at": "date",
    }
    results_at = "search_results"
    content_field = "content"  # the page text (include_content)
    summary = "generic search gateway, POST JSON (needs WEB_SEARCH_SERVICE_URL and WEB_SEARCH_SERVICE_KEY)"
    provider_settings = (
        Setting("url", env="WEB_SEARCH_SERVICE_URL", kind="url", required=True),
        Setting("api_key", env="WEB_SEARCH_SERVICE_KEY", required=True),
        Setting("headers", env="WEB_SEARCH_SERVICE_HEADERS", kind="json"),
        Setting("request_id_header", env="WEB_SEARCH_SERVICE_REQUEST_ID_HEADER", default=DEFAULT_REQUEST_ID_HEADER),
        own_timeout("WEB_SEARCH_SERVICE_TIMEOUT_MS"),
    )

    # -- configuration --------------------------------------------------------------------

    def endpoint_url(self) -> str:
        """``Settings.endpoints["service"]``, else the ``url`` setting, used as it is."""
        return self.configured_base() or super().endpoint_url()

    def configured_base(self) -> Optional[str]:
        """The endpoint override, else the ``url`` setting: two gateways keep two paces and
        two cool-downs (:meth:`~..engine.base.Backend.upstream_key`)."""
        return self.settings.endpoints.get(self.name) or self.config.get("url") or None

    def missing_settings(self) -> list[str]:
        """Required settings not set; an endpoint override stands in for ``url``."""
        missing = super().missing_settings()
        if self.settings.endpoints.get(self.name):
            missing = [key for key in missing if key != "url"]
        return missing

    def extra_headers(self) -> dict[str, str]:
        """The ``headers`` setting (a mapping, or a JSON object from the environment), checked."""
        value = self.config.get("headers")
        if value is None or value == "":
            return {}
        if isinstance(value, str):
            try:
                value = jsontext.loads(value)
            except ValueError:
                raise self._bad_setting("headers", "must be a JSON object of header names to values") from None
        if not isinstance(value, dict):
            raise self._bad_setting("headers", "must be a mapping (or a JSON object) of header names to values")
        headers = {}
        for name, header_value in value.items():
            if not isinstance(name, str) or not _TOKEN.fullmatch(name):
                raise self._bad_setting("headers", "has an invalid header name %r" % (name,))
            if name.lower() in RESERVED_HEADERS:
                raise self._bad_setting(
                    "headers", "may not set %s (the key goes in %s)" % (name, self.setting("api_key").env_or_key())
                )
            if not isinstance(header_value, str) or not _VALUE.fullmatch(header_value):
                raise self._bad_setting(
                    "headers", "has an invalid value for %s (a single-line ASCII string is needed)" % name
                )
            headers[name] = header_value
        return headers

    def request_id_header(self) -> str:
        """The header that carries ``trace_id`` (default ``X-Request-Id``)."""
        name = self.setting_value("request_id_header")
        if not isinstance(name, str) or not _TOKEN.fullmatch(name) or name.lower() in RESERVED_HEADERS:
            raise self._bad_setting(
                "request_id_header", "must be a header name other than %s, got %r" % (", ".join(RESERVED_HEADERS), name)
            )
        return name

    def secrets(self) -> list[str]:
        """The key and every extra header value (configuration mistakes aside)."""
        found = super().secrets()
        try:
            found.extend(v for v in self.extra_headers().values() if v)
        except InvalidInput:
            found.extend(_loose_header_values(self.config.get("headers")))
        return found

    def check_params(self, params: SearchParams) -> None:
        """Also check the header settings (before any request)."""
        super().check_params(params)
        self.extra_headers()
        self.request_id_header()

    def _bad_setting(self, key: str, problem: str) -> InvalidInput:
        return bad_setting(self.name, "%s: %s %s" % (self.name, self.setting(key).env_or_key(), problem))

    # -- request and answer -------------------------------------------------------------------

    def build_request(self, params: SearchParams) -> RequestSpec:
        """JSON ``{text_query, limit, enable_page_crawling, timeout_seconds}``; the bearer key
        is set after the extra headers, the trace id after both."""
        headers = self.json_headers()
        headers.update(self.extra_headers())
        headers.update(self.json_headers(self.bearer()))
        if params.trace_id:
            headers[self.request_id_header()] = params.trace_id
        body = {
            "text_query": params.full_query,
            "limit": params.max_results,
            "enable_page_crawling": params.include_content,
            "timeout_seconds": _timeout_seconds(self.timeout_ms()),
        }
        return RequestSpec("POST", self.endpoint_url(), json=body, headers=headers)

    def fit_request(self, spec: RequestSpec, deadline: Deadline) -> RequestSpec:
        """``timeout_seconds`` from the deadline this request has (a call's own ``timeout_ms`` beats the
        backend's, as for our own wait): with the backend's alone, a call of 3 s told the gateway 14 s."""
        seconds = _timeout_seconds(deadline.timeout_ms)
        return dataclasses.replace(spec, json=dict(spec.json or {}, timeout_seconds=seconds))

    def error_envelope(self, data: Any) -> Optional[tuple[Any, Optional[str]]]:
        """A gateway's own words: ``{"error": "..."}``, ``{"error": {"message"}}``, ``{"message"}`` or
        ``{"detail"}``. Beside ``search_results`` only an ``error`` counts, and only when there are no
        results: ``{"error": "quota exceeded", "search_results": []}`` is that error (code ``error``, so
        that an HTTP 200 carrying it is one too), not "no results" to be cached."""
        if not isinstance(data, dict) or data.get("search_results"):
            return None
        beside_results = "search_results" in data
        for key in ("error",) if beside_results else ("error", "message", "detail"):
            value = data.get(key)
            if isinstance(value, dict):
                value = value.get("message")
            if isinstance(value, str) and value:
                return ("error" if beside_results else None), value
        return None

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """The shared mapping, with header values redacted from the gateway's words."""
        error = super().classify(response)
        if error is not None:
            redact_error(error, self.secrets())
        return error

    def request_id(self, data: Any, response: HttpResponse) -> Optional[str]:
        """The answer's request-id header, if any, read as an id in a body is
        (:func:`~..engine.json_api.request_id_text`: one line, bounded)."""
        return request_id_text(response.headers.get(self.request_id_header()))


def _timeout_seconds(timeout_ms: float) -> int:
    """The whole seconds a gateway may take within ``timeout_ms``: one second less, at least one."""
    return max(1, int(timeout_ms - _MARGIN_MS) // 1000)


def _loose_header_values(value: Any) -> list[str]:
    """Header values from a malformed setting, for redaction only."""
    if isinstance(value, str):
        try:
            value = jsontext.loads(value)
        except ValueError:
            return [value]
    if isinstance(value, dict):
        return [str(v) for v in value.values() if isinstance(v, (str, int)) and str(v)]
    return []
