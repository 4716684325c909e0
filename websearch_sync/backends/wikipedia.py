"""``wikipedia``: Wikipedia's keyless search, the MediaWiki Action API ``list=search``.

``GET https://{lang}.wikipedia.org/w/api.php?action=query&list=search&srsearch=…&srlimit=…
&format=json&formatversion=2&utf8=1`` (``sroffset`` for later pages, option ``pageno``).
The edition is the ``wiki`` option (``"de"``, ``"simple"``), else the locale's language,
else the ``lang`` setting (``WIKIPEDIA_LANG``), else ``en``. An encyclopedia, not web
search: ``site_filter``, ``time_range`` and ``safe_search`` do not apply and are not sent.

Wikimedia's User-Agent policy asks every client for a descriptive User-Agent with a
way to reach its operator (a browser User-Agent may be blocked). This library has no
public page to name, and the operator to reach is whoever runs it: ours names the
library and the contact set in ``WIKIPEDIA_CONTACT`` (an e-mail address or URL); without
one it says that none is set rather than naming a page that does not exist.
``WIKIPEDIA_USER_AGENT`` replaces the whole User-Agent.

The answer: ``query.search[]`` entries ``{ns, title, pageid, size, wordcount, snippet,
timestamp}`` (``formatversion=1`` answers, as recorded, have the same fields; with
``srprop=""`` only ``ns``/``title``). The item URL is built from the title
(``https://{lang}.wikipedia.org/wiki/Title_With_Underscores``, percent-encoded as
MediaWiki does); the snippet is the search-match HTML (``<span class="searchmatch">``)
as text; ``timestamp`` (the page's last edit) becomes ``published_at``.

Errors come as ``{"error": {"code", "info"}}``, usually with HTTP 200: ``maxlag``
(replication lag; ``Retry-After`` says how long) is ``BadGateway(maxlag)``, CirrusSearch shedding
load or a temporary backend failure (``cirrussearch-too-busy-error``, ``cirrussearch-backend-error``:
"Please try again later") ``BadGateway(search_busy)``, ``ratelimited`` is ``WebBlocked(http_429)``,
refused parameters are
``InvalidInput(invalid_params)``, any other code ``WebProviderError(api_error)``.
"""

import dataclasses
from typing import Any, Optional
from urllib.parse import quote

from ..config import VERSION
from ..engine.json_api import JsonApiBackend
from ..engine.locales import split_locale
from ..engine.option import Option, pageno_option
from ..engine.setting import Setting
from ..errors import (
    BAD_SETTING,
    BAD_WIKI,
    HTTP_429,
    INVALID_PARAMS,
    MAXLAG,
    QUERY_TOO_LONG,
    SEARCH_BUSY,
    BadGateway,
    InvalidInput,
    WebBlocked,
    WebSearchError,
)
from ..models import ParseResult, SearchParams
from ..net.transport import HttpResponse, RequestSpec, retry_after_seconds

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Our descriptive User-Agent, as Wikimedia's policy asks: client/version, then how to reach the operator.
USER_AGENT = "websearch-sync/%s (%%s)" % VERSION
#: Where the contact goes while none is set (``WIKIPEDIA_CONTACT``).
NO_CONTACT = "contact not set; see WIKIPEDIA_CONTACT"
DEFAULT_USER_AGENT = USER_AGENT % NO_CONTACT
#: An edition code: a 2-3 letter language code with up to two subtags (``en``, ``zh-yue``, ``zh-min-nan``),
#: or ``simple`` (Simple English); a language's name (``english``) is not one, nor a locale: a subtag of two
#: letters (a region: ``en-US``, ``zh-TW``) or a script's (``zh-Hant``, ``sr-Latn``) names no edition (it
#: was sent to ``en-us.wikipedia.org``), but for ``nds-nl`` (Dutch Low Saxon), an edition.
_EDITION = r"^(?:[a-z]{2,3}(?:-(?!(?:[a-z]{2}|hans|hant|latn|cyrl)(?:-|$))[a-z0-9]{2,12}){0,2}|nds-nl|simple)$"
_API = "https://%s.wikipedia.org/w/api.php"
#: The ``wiki`` option; ``WIKIPEDIA_LANG`` is read by the same rule (as a setting: ``bad_setting``).
WIKI = Option(
    "wiki",
    "code",
    pattern=_EDITION,
    example="a Wikipedia edition code such as 'en' or 'simple' (for a locale, its language alone: 'en' for en-US)",
    detail=BAD_WIKI,
    doc="the edition to search (unset: the locale's language, else WIKIPEDIA_LANG, else en)",
)
_LANG_SETTING = dataclasses.replace(WIKI, name="WIKIPEDIA_LANG", detail=BAD_SETTING)
#: MediaWiki's own URL encoding of titles keeps these characters (``wfUrlencode``).
_TITLE_SAFE = ";@$!*(),/~:"


def article_url(edition: str, title: str) -> str:
    """``https://{edition}.wikipedia.org/wiki/Title_With_Underscores``, percent-encoded as MediaWiki does."""
    return "https://%s.wikipedia.org/wiki/%s" % (edition, quote(title.replace(" ", "_"), safe=_TITLE_SAFE))


class Wikipedia(JsonApiBackend):
    """Wikipedia's full-text search (MediaWiki Action API, no key)."""

    name = "wikipedia"
    unsent = (
        "safe_search",
        "site_filter",
        "time_range",
        "locale.region",
    )  # an encyclopedia's full-text search: they do not apply; the edition is a language (docs/backends.md)
    summary = "Wikipedia full-text search (MediaWiki API), no key; an encyclopedia, not in auto"
    provider_settings = (
        Setting("lang", env="WIKIPEDIA_LANG", default="en"),
        Setting("contact", env="WIKIPEDIA_CONTACT"),
        Setting("user_agent", env="WIKIPEDIA_USER_AGENT"),
    )
    default_endpoint = _API % "en"  # the default edition's; the locale, ``wiki`` or ``lang`` choose another
    options = (WIKI, pageno_option("max_results results a page (sroffset = (pageno - 1) x max_results)"))
    text_format = "html"  # the snippet is search-match HTML (<span class="searchmatch">)
    min_interval_s = 0.5  # API etiquette: requests in series, not in bursts
    max_query_chars = 301  # CirrusSearch refuses queries over 300 characters
    auth_statuses = ()  # a 403 from Wikimedia is a blocked client (User-Agent policy), not a key problem
    results_at = ("query", "search")
    result_fields = {"title": "title", "snippet": "snippet", "published_at": "timestamp"}  # the URL: item_of
    vendor_codes = {
        "maxlag": (BadGateway, MAXLAG),
        "ratelimited": (WebBlocked, HTTP_429),
        "badvalue": (InvalidInput, INVALID_PARAMS),
        "badinteger": (InvalidInput, INVALID_PARAMS),
        "missingparam": (InvalidInput, INVALID_PARAMS),
        "invalidparammix": (InvalidInput, INVALID_PARAMS),
        "cirrussearch-query-too-long": (InvalidInput, QUERY_TOO_LONG),
        # CirrusSearch (Searcher.php): its pool counter's full queue (the cluster sheds load), and
        # any Elasticsearch failure it does not classify (backend-error): "Please try again later"
        "cirrussearch-too-busy-error": (BadGateway, SEARCH_BUSY),
        "cirrussearch-regex-too-busy-error": (BadGateway, SEARCH_BUSY),
        "cirrussearch-backend-error": (BadGateway, SEARCH_BUSY),
    }

    def dropped(self, params: SearchParams) -> tuple[str, ...]:
        """The locale, when the edition does not come from it: the ``wiki`` option chose one, or
        ``Settings.endpoints`` fixed the address."""
        chosen = self.option(params, "wiki") is not None or self.name in self.settings.endpoints
        return ("locale",) if chosen else ()

    def edition(self, params: Optional[SearchParams] = None) -> str:
        """The Wikipedia edition asked for: option ``wiki``, else the locale's language, else the setting, else ``en``."""
        chosen = self.option(params, "wiki") if params is not None else None
        if chosen is not None:
            return str(chosen)
        if params is not None and params.locale:
            return split_locale(params.locale)[0]
        return str(_LANG_SETTING.value(self.setting_value("lang"), self.name))

    def endpoint_url(self, params: Optional[SearchParams] = None) -> str:
        """``Settings.endpoints["wikipedia"]`` as it is, else the edition's ``/w/api.php``."""
        return self.settings.endpoints.get(self.name) or _API % self.edition(params)

    def check_params(self, params: SearchParams) -> None:
        """Also check the edition a call without ``wiki`` and locale reads from ``WIKIPEDIA_LANG``."""
        super().check_params(params)
        self.edition(params)

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``action=query&list=search`` with a descriptive User-Agent."""
        query = {
            "action": "query",
            "list": "search",
            "srsearch": params.query,
            "srlimit": str(params.max_results),
            "format": "json",
            "formatversion": "2",
            "utf8": "1",
        }
        page = self.option(params, "pageno")
        if page > 1:
            query["sroffset"] = str((page - 1) * params.max_results)
        headers = self.json_headers()
        headers["User-Agent"] = str(
            self.config.get("user_agent") or USER_AGENT % (self.config.get("contact") or NO_CONTACT)
        )
        return RequestSpec("GET", self.endpoint_url(params), params=query, headers=headers)

    def error_envelope(self, data: Any) -> Optional[tuple[Any, Optional[str]]]:
        """``{"error": {"code", "info"}}``."""
        if isinstance(data, dict) and isinstance(data.get("error"), dict):
            return data["error"].get("code"), data["error"].get("info")
        return None

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """The shared API mapping; a ``maxlag`` error keeps the wait ``Retry-After`` asked for."""
        error = super().classify(response)
        if error is not None and error.retry_after is None:
            error.retry_after = retry_after_seconds(response.headers)
        return error

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """The shared reading; an answer the search module warned about (:func:`search_warned`) is
        ``partial``, so it is not cached: CirrusSearch answers a search that timed out with the
        results it has and the warning ``cirrussearch-timed-out`` (``cirrussearch-regex-timed-out``
        for a regex; Searcher.php), so a later ask may find more."""
        result = super().parse(response, params)
        result.partial = result.partial or search_warned(self.data(response))
        return result

    def item_of(self, result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
        """The article's URL, built from its title (the answer names none); a result without a
        title has none (normalisation drops it)."""
        item = super().item_of(result, params)
        title = item["title"]
        item["url"] = article_url(self.edition(params), title) if isinstance(title, str) and title else None
        return item


def search_warned(data: Any) -> bool:
    """Whether the answer carries a warning of the ``search`` module, as the API's default error
    format (``bc``: ``ApiErrorFormatter_BackCompat``) writes one: ``{"warnings": {"search":
    {"warnings": text}}}`` (``"*"`` for ``formatversion=1``), English text without its code. So any
    of them counts: a timed-out search's warning cannot be told from the others (a query syntax
    CirrusSearch reads differently, say) but by its English wording, and leaving such an answer
    out of the cache costs one request, while caching a timed-out one keeps its missing results."""
    warnings = data.get("warnings") if isinstance(data, dict) else None
    search = warnings.get("search") if isinstance(warnings, dict) else None
    texts = (search.get(key) for key in ("warnings", "*")) if isinstance(search, dict) else ()
    return any(isinstance(text, str) and text.strip() for text in texts)
