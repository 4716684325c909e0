"""What the keyless engines read from an HTML results page share (Bing, Yahoo, Mojeek).

An engine derives from :class:`HtmlEngine` and declares where its results region
starts and ends on the page (``region_start`` / ``region_end`` markers, see
:func:`~.html_parsing.region`) and which markers mean a real "no results" page
(``no_results``); it implements :meth:`HtmlEngine.query` (the GET parameters) and
:meth:`HtmlEngine.items` (raw items of the results region). The rest is shared:

* the request: ``GET <endpoint>?<query>`` with the headers a browser sends;
* bot walls: the shared table of :func:`~websearch_sync.net.botwall.bot_wall`
  (every engine recognises every recorded wall, whatever the status);
* no items and no "no results" notice is ``WebParseError``, never "0 results";
* the structure report of ``check-live``.
"""

from typing import Any, ClassVar, Dict, List, Optional, Tuple
from urllib.parse import urlsplit

from ..errors import WebParseError, WebSearchError
from ..models import ParseResult, SearchParams
from ..net.botwall import bot_wall_error
from ..net.transport import HttpResponse, RequestSpec
from .base import Backend, page_number
from .html_parsing import region

__all__ = ["HtmlEngine"]

_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


class HtmlEngine(Backend):
    """A keyless web engine read from its HTML results page (see the module docstring)."""

    kind = "html"
    text_format = "text"  # titles and snippets are read as text from the parsed page (entities already decoded)
    min_interval_s = 1.0  # a scraper: one request a second keeps clear of the bot walls
    options = ("pageno",)
    accept_language: ClassVar[str] = "en-US,en;q=0.9"
    #: Markers of the tag that opens the results region (the first one found is used).
    region_start: ClassVar[Tuple[str, ...]] = ()
    #: Markers of the first tag after the results region.
    region_end: ClassVar[Tuple[str, ...]] = ()
    #: Markers (on the whole page) of a page that really says there are no results.
    no_results: ClassVar[Tuple[str, ...]] = ()

    # -- what an engine declares ----------------------------------------------------------

    def query(self, params: SearchParams) -> Dict[str, str]:
        """The GET parameters for ``params`` (pure)."""
        raise NotImplementedError

    def items(self, markup: str, params: SearchParams) -> List[Dict[str, Any]]:
        """Raw items of the results region ``markup`` (pure)."""
        raise NotImplementedError

    # -- the shared part ------------------------------------------------------------------

    def check_params(self, params: SearchParams) -> None:
        """Also refuse a ``pageno`` that is not an integer >= 1."""
        super().check_params(params)
        page_number(params, self.name)

    def headers(self, params: SearchParams) -> Dict[str, str]:
        """What a browser on the engine's own page sends: Accept, Accept-Language, Referer."""
        parts = urlsplit(self.endpoint_url())
        return {"Accept": _ACCEPT, "Accept-Language": self.accept_language, "Referer": "%s://%s/" % (parts.scheme, parts.netloc)}

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``GET <endpoint>?<query>`` with browser headers."""
        return RequestSpec("GET", self.endpoint_url(), params=self.query(params), headers=self.headers(params))

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """Any recorded bot wall is ``WebBlocked(captcha_required)``, whatever the status."""
        return bot_wall_error(response, self.name)

    def read_page(self, text: str, params: SearchParams) -> List[Dict[str, Any]]:
        """Raw items of a results page; ``[]`` only for a page with a "no results" notice,
        else ``WebParseError`` when no result is found."""
        markup = region(text, self.region_start, self.region_end)
        items = self.items(markup, params) if markup is not None else []
        if items or any(marker in text for marker in self.no_results):
            return items
        raise WebParseError(
            "%s answered with a page that has neither results nor a no-results notice" % self.name,
            provider=self.name,
            detail_code="unexpected_shape",
        )

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Items of the results page."""
        return ParseResult(items=self.read_page(response.text, params))

    def structure_report(self, response: HttpResponse, params: Optional[SearchParams] = None) -> Dict[str, bool]:
        """Landmarks: no bot wall, the results region found, result blocks with a title
        link (or a no-results notice), and snippets found in them."""
        text = response.text
        try:
            items: Optional[List[Dict[str, Any]]] = self.read_page(text, params or SearchParams(query="structure check", max_results=10))
        except WebParseError:
            items = None
        return {
            "not_blocked": self.classify(response) is None,
            "results_region": region(text, self.region_start, self.region_end) is not None,
            "result_blocks": items is not None,
            "snippets": not items or any(item["snippet"] for item in items),
        }
