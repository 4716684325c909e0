"""``bocha``: the Bocha web-search API, ``POST {BOCHA_BASE_URL}/v1/web-search`` (JSON, Bearer key).

Errors come as ``{"code": "403", "message": ..., "log_id": ...}`` (the code is a
string on errors and the integer 200 on success), sometimes inside an HTTP 200:
the body's code then decides. A 403 means the account has no money or package
quota left (``AuthError`` with Bocha's own words).
"""

from typing import Any, Optional

from ..engine.json_api import JsonApiBackend, request_id_text, vendor_text
from ..engine.option import Option
from ..engine.setting import Setting, own_timeout
from ..errors import BAD_SUMMARY, UNEXPECTED_SHAPE, WebParseError
from ..models import SearchParams
from ..net.transport import RequestSpec

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_FRESHNESS = {None: "noLimit", "day": "oneDay", "week": "oneWeek", "month": "oneMonth", "year": "oneYear"}
_MAX_COUNT = 50


class Bocha(JsonApiBackend):
    """The Bocha (博查) web-search API."""

    name = "bocha"
    unsent = ("locale", "safe_search")  # the API has no such parameters (docs/backends.md)
    auto_rank = 20
    text_format = "text"  # recorded snippets are plain text (a bare "&" in "普华永道&AIGCC")
    summary = "Bocha web-search API (needs BOCHA_API_KEY)"
    default_base_url = "https://api.bochaai.com"
    result_fields = {
        "title": "name",
        "url": "url",
        "snippet": "snippet",
        "source": "siteName",
        "published_at": "datePublished",
    }
    request_id_at = "log_id"
    endpoint_path = "/v1/web-search"
    provider_settings = (
        Setting("api_key", env="BOCHA_API_KEY", required=True),
        Setting("base_url", env="BOCHA_BASE_URL", kind="url"),
        own_timeout("BOCHA_TIMEOUT_MS"),
        Setting("top_k_default", env="BOCHA_TOP_K_DEFAULT", kind="int"),  # more than _MAX_COUNT asks for that many
    )
    options = (
        Option(
            "summary",
            "bool",
            default=False,
            detail=BAD_SUMMARY,
            doc="ask for Bocha's longer summary of each page and use it as the snippet",
        ),
    )

    def build_request(self, params: SearchParams) -> RequestSpec:
        """JSON ``{query, count, freshness, summary}``; ``count`` is ``top_k_default`` when that
        asks for more than ``max_results`` (the answer is still cut to ``max_results``)."""
        count = max(params.max_results, min(self.config.get("top_k_default") or 0, _MAX_COUNT))
        body = {
            "query": params.full_query,
            "count": count,
            "freshness": _FRESHNESS[params.time_range],
            "summary": self.option(params, "summary"),
        }
        return RequestSpec("POST", self.endpoint_url(), json=body, headers=self.json_headers(self.bearer()))

    def error_envelope(self, data: Any) -> Optional[tuple[Any, Optional[str]]]:
        """``{"code": "<status>", "message", "log_id"}`` whenever ``code`` is not 200."""
        if not isinstance(data, dict) or "code" not in data or data["code"] in (200, "200"):
            return None
        message = vendor_text(data.get("message")) or vendor_text(data.get("msg"))
        log_id = request_id_text(data.get("log_id"))
        if log_id:
            message = "%s (log_id %s)" % (message or "no message", log_id)
        return data["code"], message

    def results(self, data: Any, params: SearchParams) -> list[Any]:
        """``data.webPages.value[]`` (a gateway's top-level ``webPages.value[]``); none in a search
        answer without ``webPages``."""
        if not isinstance(data, dict):
            raise WebParseError(
                "bocha answered with JSON that is not an object", provider=self.name, detail_code=UNEXPECTED_SHAPE
            )
        inner: dict[str, Any] = data["data"] if isinstance(data.get("data"), dict) else data
        if inner.get("webPages") is None:
            if inner.get("_type") == "SearchResponse":  # a search answer without web pages: no results
                return []
            raise WebParseError("bocha answered without `webPages`", provider=self.name, detail_code=UNEXPECTED_SHAPE)
        return self.result_list(inner["webPages"], ["value"])

    def item_of(self, result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
        """Bocha's ``summary`` is the snippet when the ``summary`` option asks for it and it is text (else
        its ``snippet``: a summary of ``null``, an object or blanks is none)."""
        item = super().item_of(result, params)
        summary = vendor_text(result.get("summary")) if self.option(params, "summary") else ""
        if summary:
            item["snippet"] = result["summary"]
        return item
