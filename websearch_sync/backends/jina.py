"""``jina``: Jina AI's search endpoint, ``GET https://s.jina.ai/?q=…`` (Bearer key, JSON).

s.jina.ai reads every result page by default (about 10k tokens per search);
without ``include_content`` we ask for ``X-Respond-With: no-content`` so only the
result list is billed. Errors come as ``{"code": 401, "name":
"AuthenticationRequiredError", "status": 40103, "message": ..., "data": null}``:
``code`` is the HTTP status; 402 (``InsufficientBalanceError``) is an account
problem (``AuthError``). The free plan allows 40 requests per minute.

A query without results is no success on Jina's side either: it answers HTTP 422
``{"code": 422, "name": "AssertionFailureError", "status": 42206, "message": "No search results
available for query ..."}`` (a live answer quoted in egoist/chatwise-releases#1288). That
answer is "no results" (``items: []``), not an error that would stop a batch or a fallback.
"""

from typing import Any, Optional

from ..engine.json_api import JsonApiBackend, try_json
from ..engine.setting import Setting
from ..errors import WebSearchError
from ..models import ParseResult, SearchParams
from ..net.transport import HttpResponse, RequestSpec

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How Jina's answer to a query without results begins its message (HTTP 422, status 42206).
_NO_RESULTS = "No search results available"
#: A snippet taken from the page text (when a result has no description) is cut here.
SNIPPET_FROM_CONTENT_CHARS = 300


class Jina(JsonApiBackend):
    """The Jina AI search API (s.jina.ai)."""

    name = "jina"
    auto_rank = 60
    text_format = "text"  # titles and descriptions are plain text (a bare "&" in the recording)
    provides_content = True
    summary = "Jina AI search, s.jina.ai (needs JINA_API_KEY)"
    default_base_url = "https://s.jina.ai"
    endpoint_path = "/"
    provider_settings = (
        Setting("api_key", env="JINA_API_KEY", required=True),
        Setting("reader_url", kind="url"),  # Jina Reader's URL, read by fetch (websearch_sync.reader.service)
    )
    min_interval_s = 1.5  # 40 requests per minute with a free key
    auth_statuses = (401, 402, 403)

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``GET /?q=…``; page texts only when ``include_content`` is asked."""
        headers = self.json_headers(self.bearer())
        if not params.include_content:
            headers["X-Respond-With"] = "no-content"
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.full_query}, headers=headers)

    def answer_error(self, response: HttpResponse) -> Optional[WebSearchError]:
        """The shared mapping, except Jina's answer to a query without results (not an error)."""
        if response.status == 422 and _no_results(try_json(response)):
            return None
        return super().answer_error(response)

    def error_envelope(self, data: Any) -> Optional[tuple[Any, Optional[str]]]:
        """``{"code": <status>, "name", "message", "data": null}`` whenever ``code`` is not 200."""
        if not isinstance(data, dict) or "code" not in data or data["code"] in (200, "200"):
            return None
        words = [str(data[key]) for key in ("name", "message") if data.get(key)]
        return data["code"], ": ".join(words) or None

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Items from ``data[]``: ``description`` (else the start of ``content``) is the
        snippet; ``content`` is the page text when ``include_content`` was asked."""
        data = self.data(response)
        if _no_results(data):
            return ParseResult(items=[])
        return ParseResult(items=self.items_from(self.result_list(data, ["data"]), params))

    def item_of(self, result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
        """``description`` (else the start of ``content``) is the snippet; ``content`` is the
        page text when ``include_content`` was asked."""
        content = result.get("content")
        snippet = result.get("description")
        if not snippet and isinstance(content, str):
            snippet = content[:SNIPPET_FROM_CONTENT_CHARS]
        item = {
            "title": result.get("title"),
            "url": result.get("url"),
            "snippet": snippet,
            "published_at": result.get("date"),
        }
        if params.include_content:
            item["content"] = content
        return item


def _no_results(data: Any) -> bool:
    """Whether ``data`` is Jina's answer to a query without results: its ``AssertionFailureError``
    envelope (status 42206) saying "No search results available"."""
    return (
        isinstance(data, dict)
        and data.get("name") == "AssertionFailureError"
        and data.get("data") is None
        and str(data.get("message") or "").startswith(_NO_RESULTS)
    )
