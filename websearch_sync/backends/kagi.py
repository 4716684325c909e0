"""``kagi``: the Kagi Search API (v0), ``GET https://kagi.com/api/v0/search?q=…&limit=…``.

Authenticated with ``Authorization: Bot <KAGI_API_KEY>``. Every answer is an
envelope ``{"meta": {"id", ...}, "data": ..., "error": [{"code", "msg"}]}``.
Kagi's error codes are small integers (1 malformed request, 2 unauthorized,
100 no billing information, 101 insufficient credit), not HTTP statuses, so they
are passed on by name; insufficient credit comes with HTTP 400, yet it is an
account problem (``AuthError``), not a bad request. ``data[]`` mixes search
results (``t == 0``) with related searches (``t == 1``); only results become items.
"""

from typing import Any, Optional, cast

from ..engine.base import json_shape
from ..engine.json_api import JsonApiBackend, request_id_text, vendor_text
from ..engine.setting import Setting
from ..errors import (
    INSUFFICIENT_CREDIT,
    INVALID_API_KEY,
    INVALID_PARAMS,
    NO_BILLING,
    UNEXPECTED_SHAPE,
    AuthError,
    InvalidInput,
    WebParseError,
    counted,
)
from ..models import SearchParams
from ..net.transport import RequestSpec

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Kagi's documented error codes, by the name passed to ``api_error``.
_CODE_NAMES = {
    0: "INTERNAL_ERROR",
    1: "MALFORMED_REQUEST",
    2: "UNAUTHORIZED",
    100: "NO_BILLING_INFORMATION",
    101: "INSUFFICIENT_CREDIT",
}
_SEARCH_RESULT = 0
_RELATED_SEARCHES = 1


class Kagi(JsonApiBackend):
    """The Kagi search API."""

    name = "kagi"
    unsent = ("locale", "safe_search", "time_range")  # v0 search takes q and limit only (docs/backends.md)
    auto_rank = 50
    text_format = "html"  # snippets carry <b> highlights and entities (&quot;, &nbsp;)
    results_at = "data"  # search results (t == 0) and related searches (t == 1): results()
    result_fields = {"title": "title", "url": "url", "snippet": "snippet", "published_at": "published"}
    request_id_at = ("meta", "id")
    summary = "Kagi Search API v0 (needs KAGI_API_KEY)"
    default_base_url = "https://kagi.com/api/v0"
    endpoint_path = "/search"
    provider_settings = (Setting("api_key", env="KAGI_API_KEY", required=True),)
    vendor_codes = {
        "UNAUTHORIZED": (AuthError, INVALID_API_KEY),
        "NO_BILLING_INFORMATION": (AuthError, NO_BILLING),
        "INSUFFICIENT_CREDIT": (AuthError, INSUFFICIENT_CREDIT),
        "MALFORMED_REQUEST": (InvalidInput, INVALID_PARAMS),
    }

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``q`` and ``limit`` = max_results, ``Authorization: Bot <key>``."""
        auth = ("Authorization", "Bot %s" % self.config["api_key"])
        return RequestSpec(
            "GET",
            self.endpoint_url(),
            params={"q": params.full_query, "limit": params.max_results},
            headers=self.json_headers(auth),
        )

    def error_envelope(self, data: Any) -> Optional[tuple[Any, Optional[str]]]:
        """The first entry of ``error: [{"code", "msg"}]``, its code by name
        (``INTERNAL_ERROR`` and unknown codes, ``KAGI_ERROR_<n>``, are left to the HTTP status;
        with HTTP 200 they are ``WebProviderError(api_error)``)."""
        if not isinstance(data, dict) or not isinstance(data.get("error"), list) or not data["error"]:
            return None
        first = data["error"][0] if isinstance(data["error"][0], dict) else {}
        code = first.get("code")
        known = isinstance(code, int) and not isinstance(code, bool)
        name = _CODE_NAMES.get(cast(int, code), "KAGI_ERROR_%d" % cast(int, code)) if known else "KAGI_ERROR"
        message = vendor_text(first.get("msg"))
        request = request_id_text(data["meta"].get("id")) if isinstance(data.get("meta"), dict) else None
        if request:
            message = "%s (request %s)" % (message or "no message", request)
        return name, message

    def results(self, data: Any, params: SearchParams) -> list[Any]:
        """The entries of ``data[]`` that are search results (``t == 0``), not related searches.

        Entries none of which is of either kind (``t`` renamed or gone, a list of strings) are
        ``WebParseError``: an answer of an unknown shape, never "no results" (which would be cached)."""
        entries = super().results(data, params)
        kinds = [entry.get("t") if isinstance(entry, dict) else None for entry in entries]
        if entries and not any(kind in (_SEARCH_RESULT, _RELATED_SEARCHES) for kind in kinds):
            raise WebParseError(
                "kagi answered with %s in `data`, none a search result (t 0) or related searches "
                "(t 1): an unknown shape, not 'no results' (the first entry: %s)"
                % (counted(len(entries), "entry", "entries"), json_shape(entries[0])),
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
            )
        return [entry for entry, kind in zip(entries, kinds) if kind == _SEARCH_RESULT]
