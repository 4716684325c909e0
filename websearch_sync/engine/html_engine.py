"""What the keyless engines read from an HTML results page share (DuckDuckGo, Baidu,
Bing, Yahoo, Mojeek).

An engine derives from :class:`HtmlEngine` and declares:

* the request: ``method`` (``GET`` sends :meth:`HtmlEngine.query` as the URL's query,
  ``POST`` as a form, as a browser submitting the engine's no-JS form does),
  ``follow_redirects`` (Baidu's bot wall is a redirect, never followed), the
  preference cookies a browser holds (:meth:`HtmlEngine.cookies`);
* its bot walls (``bot_walls``, see :mod:`websearch_sync.net.botwall`);
* where its results region starts and ends on the page (``region_start`` /
  ``region_end`` markers, see :func:`~.html_parsing.region`, or its own
  :meth:`HtmlEngine.results_region`) and which markers mean a real "no results" page
  (``no_results``);
* :meth:`HtmlEngine.items`: the raw items of the results region.

The headers are what a browser adds on that navigation or form post, and nothing a
browser transport's profile owns (User-Agent, ``sec-ch-ua*``, Accept-Encoding): the
search is submitted from the engine's own page, so ``Referer`` is the engine's origin
(their pages set ``Referrer-Policy: origin``) and ``Sec-Fetch-Site: same-origin``; a
form POST adds ``Origin`` and ``Content-Type``; ``Accept-Language`` follows the locale;
cookies carry the engine's preferences.

The rest is shared: every registered wall is recognised whatever the status (search
and fetch agree); no items and no "no results" notice is ``WebParseError``, never
"0 results"; the structure report of ``check-live``.

Each wall's scan reads the whole page (a Baidu or Startpage page: 0.4-0.9 MB, all walls
1.2 ms), so a successful answer is scanned for the engine's own walls before it is parsed,
and for every registered wall only when it reads no results (a wall is a page without
results: a results page quoting another engine's markers is no wall). An answer with an
error status, and every wall's address, are checked against every wall first.
"""

import dataclasses
from typing import Any, ClassVar, Optional, Union
from urllib.parse import urlsplit

from ..errors import UNEXPECTED_SHAPE, WebParseError, WebSearchError
from ..models import ParseResult, SearchParams
from ..net.botwall import bot_wall_error
from ..net.transport import HttpResponse, RequestSpec
from . import registry
from .base import Backend, Page
from .html_parsing import notice_shown, region
from .locales import split_locale
from .option import PAGENO, Option
from .page_links import linked_offsets, next_offset, search_path

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def accept_language(locale: Optional[str]) -> Optional[str]:
    """The ``Accept-Language`` a browser set to ``locale`` sends: ``de-DE`` -> ``de-DE,de;q=0.9``,
    ``de`` -> ``de`` (``None`` without a locale)."""
    if not locale:
        return None
    lang, country = split_locale(locale)
    return "%s-%s,%s;q=0.9" % (lang, country, lang) if country else lang


class HtmlEngine(Backend):
    """A keyless web engine read from its HTML results page (see the module docstring)."""

    kind = "html"
    text_format = "text"  # titles and snippets are read as text from the parsed page (entities already decoded)
    min_interval_s = 1.0  # a scraper: one request a second keeps clear of the bot walls
    options: ClassVar[tuple[Union[Option, str], ...]] = (PAGENO,)
    accept_language: ClassVar[str] = "en-US,en;q=0.9"
    #: ``GET`` (the query in the URL) or ``POST`` (the query as a form).
    method: ClassVar[str] = "GET"
    #: False when a redirect is an answer to read (e.g. to a captcha page), not a hop to follow.
    follow_redirects: ClassVar[bool] = True
    #: Markers of the tag that opens the results region (the first one found is used).
    region_start: ClassVar[tuple[str, ...]] = ()
    #: Markers of the first tag after the results region.
    region_end: ClassVar[tuple[str, ...]] = ()
    #: Markers (on the whole page) of a page that really says there are no results.
    no_results: ClassVar[tuple[str, ...]] = ()
    #: The item field whose presence shows that result blocks are read whole (the structure
    #: report's last landmark, ``<field>s``): the snippet of web results; image and video
    #: tiles, which have none, name another.
    detail_field: ClassVar[str] = "snippet"
    #: The query field holding the rank of a page's first result (Bing's ``first``, Yahoo's
    #: ``b``) when the engine counts results, not pages: its next page starts where the page's
    #: own "Next" link says (:meth:`next_page`), whatever a page held (Yahoo shows 7 or 10).
    #: ``None``: the next ``pageno``.
    first_result_field: ClassVar[Optional[str]] = None
    #: The query or form field holding the call's query (Bing's ``q``, Yahoo's ``p``), which the
    #: page's links to its own search carry (:meth:`next_page`): an engine declaring
    #: :attr:`first_result_field` declares it (a link is matched on it alone, not on whichever
    #: request field holds the query's text: the query ``10`` beside ``count=10``).
    query_field: ClassVar[Optional[str]] = None
    #: How far :attr:`first_result_field` moves from a page to the next when the page links none
    #: of its search's pages (a fragment, a page whose links are not told to be the search's): the
    #: results a page of the engine counts (Mojeek's 10, whatever a page shows). ``None``: after
    #: the results read (Bing's image and video tiles).
    first_result_step: ClassVar[Optional[int]] = None
    #: The value :attr:`first_result_field` has on the first page, which the first request leaves
    #: out: ``1`` where the engine counts ranks (Bing's ``first=11`` is page 2), ``0`` where it counts
    #: results before the page (Baidu's ``pn=10`` is page 2).
    first_result_base: ClassVar[int] = 1
    #: The paths a results page links its own later pages at, besides the request's and the
    #: answer's (Yahoo News, asked at ``/search``, links ``/news/search``): :meth:`next_page`.
    page_link_paths: ClassVar[tuple[str, ...]] = ()

    # -- what an engine declares ----------------------------------------------------------

    def query(self, params: SearchParams) -> dict[str, str]:
        """The query parameters (``GET``) or form fields (``POST``) for ``params`` (pure)."""
        raise NotImplementedError

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """Raw items of the results region ``markup`` (pure)."""
        raise NotImplementedError

    @classmethod
    def reader_problem(cls) -> Optional[str]:
        """What the engine lacks to ask and read (``None``: nothing): :meth:`query` unless it builds
        its request itself, :meth:`items` unless it reads the region or the page its own way. A plugin
        lacking either is skipped saying so (it was a ``NotImplementedError`` at its first search)."""
        if cls.query is HtmlEngine.query and cls.build_request is HtmlEngine.build_request:
            return "it does not implement query(params)"
        readers = ("items", "region_items", "read_page", "parse", "interpret")
        if all(getattr(cls, name) is getattr(HtmlEngine, name) for name in readers):
            return "it does not implement items(markup, params)"
        return None

    @classmethod
    def reading_problem(cls) -> Optional[str]:
        """Its paging declarations of the wrong kind (``first_result_field=5``, ``query_field=""``),
        or an engine counting results (:attr:`first_result_field`) without the :attr:`query_field`
        its pages' links to its search are told by."""
        problem = registry.unusable_value(cls, registry.HTML_DECLARATIONS)
        if problem is not None:
            return problem
        if cls.first_result_field is not None and cls.query_field is None:
            return "it declares first_result_field %r without query_field (the field holding its query)" % (
                cls.first_result_field,
            )
        return super().reading_problem()

    def cookies(self, params: SearchParams) -> dict[str, str]:
        """The preference cookies a browser set up for ``params`` would send (none by default)."""
        return {}

    def results_region(self, text: str) -> Optional[str]:
        """The results region of a page (``None`` when absent): by default from
        ``region_start`` to ``region_end``."""
        return region(text, self.region_start, self.region_end)

    def region_items(self, markup: str, params: SearchParams) -> tuple[list[dict[str, Any]], bool]:
        """``(raw items, the region itself says there are no more results)``; an engine
        whose "no results" notice is a result of its own (DuckDuckGo's EOF) overrides it."""
        return self.items(markup, params), False

    # -- the shared part ------------------------------------------------------------------

    def headers(self, params: SearchParams) -> dict[str, str]:
        """What a browser submitting the search from the engine's own page adds (see the module docstring)."""
        parts = urlsplit(self.endpoint_url())
        origin = "%s://%s" % (parts.scheme, parts.netloc)
        headers = {
            "Accept": _ACCEPT,
            "Accept-Language": accept_language(params.locale) or self.accept_language,
            "Referer": origin + "/",
            "Sec-Fetch-Site": "same-origin",
        }
        if self.method == "POST":
            headers["Origin"] = origin
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        cookies = self.cookies(params)
        if cookies:
            headers["Cookie"] = "; ".join("%s=%s" % pair for pair in cookies.items())
        return headers

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``GET <endpoint>?<query>`` or ``POST <endpoint>`` with the query as a form, with browser headers."""
        fields = self.query(params)
        if self.method == "POST":
            return RequestSpec(
                "POST",
                self.endpoint_url(),
                data=fields,
                headers=self.headers(params),
                allow_redirects=self.follow_redirects,
                browser=True,  # what Backend._send makes of an HTML engine's request: built so, not copied
            )
        return RequestSpec(
            "GET",
            self.endpoint_url(),
            params=fields,
            headers=self.headers(params),
            allow_redirects=self.follow_redirects,
            browser=True,
        )

    def next_page(self, params: SearchParams, page: Page) -> Optional[RequestSpec]:
        """The request of the page before with :attr:`first_result_field` (in the URL's query or,
        for a ``POST`` engine, in the form) where that page's own "Next" link starts the next page
        (:mod:`.page_links`: a link to the search carries the query the request sent in
        :attr:`query_field`); ``None`` when the page links pages of its search but none beyond
        itself (its last page). A page linking none of its search's pages (an answer of tiles,
        a fragment) is followed :attr:`first_result_step` results on, else after the results it
        gave. The next ``pageno`` for an engine that counts pages."""
        field = self.first_result_field
        if field is None:
            return super().next_page(params, page)
        spec = page.sent if page.sent is not None else self.build_request(params)
        posted = self.method == "POST"  # where the request holds its fields: the form, else the URL
        fields: dict[str, Any] = dict((spec.data if posted else spec.params) or {})
        current = int(fields.get(field, str(self.first_result_base)))
        query_field = self.query_field or ""  # declared with first_result_field: reading_problem
        sent = fields.get(query_field)  # the query as sent (an engine may rewrite the call's), else the call's
        search = (query_field, sent if isinstance(sent, str) else params.full_query)
        own = {path for path in map(search_path, (spec.url, page.previous.url)) if path is not None}
        paths = own.union(self.page_link_paths)
        linked = linked_offsets(page.previous.text, page.previous.url or spec.url, paths, field, search)
        step = len(page.parsed.items) if self.first_result_step is None else self.first_result_step
        first = next_offset(linked, current) if linked else current + step
        if first is None:
            return None
        fields[field] = str(first)
        return dataclasses.replace(spec, data=fields) if posted else dataclasses.replace(spec, params=fields)

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """A bot wall is ``WebBlocked(captcha_required)``, whatever the status: any registered wall's
        address; in the body, the engine's own walls on a success, every registered wall on an error
        status (the rest when the page reads no results: :meth:`interpret`, the module docstring)."""
        walls = registry.bot_walls()
        success = 200 <= response.status < 300
        return bot_wall_error(response, self.name, walls, self.bot_walls if success else walls)

    def interpret(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """The answer read (:meth:`Backend.interpret`); one that reads no results is first checked
        for every registered wall (:meth:`classify` looked for the engine's own), also where a
        subclass reads the page its own way (its :meth:`parse`)."""
        try:
            result = super().interpret(response, params)
        except WebParseError:
            blocked = self._other_wall(response)
            if blocked is not None:
                raise blocked from None
            raise
        if not isinstance(result, ParseResult):  # a subclass's parse of the wrong shape: checked_result names it
            return result
        blocked = None if result.items else self._other_wall(response)
        if blocked is not None:
            raise blocked
        return result

    def _any_wall(self, response: HttpResponse) -> Optional[WebSearchError]:
        """Any registered bot wall in ``response`` (``WebBlocked``), or ``None``."""
        return registry.wall_error(response, self.name)

    def _other_wall(self, response: HttpResponse) -> Optional[WebSearchError]:
        """Another engine's wall in ``response`` (``WebBlocked``), or ``None``: the body is not
        scanned again for the engine's own walls, which :meth:`classify` looked for."""
        walls = registry.bot_walls()
        return bot_wall_error(response, self.name, walls, [wall for wall in walls if wall not in self.bot_walls])

    def read_page(self, text: str, params: SearchParams) -> list[dict[str, Any]]:
        """Raw items of a results page; ``[]`` only for a page with a "no results" notice,
        else ``WebParseError`` when no result is found."""
        markup = self.results_region(text)
        items, empty = self.region_items(markup, params) if markup is not None else ([], False)
        if items or empty or notice_shown(text, self.no_results, params.query):
            return items
        # which step found nothing: the page's region (region_start/region_end, or results_region), or the
        # region's items (items): the same words for both sent a plugin's author, or a page that moved, guessing
        where = "no results region found" if markup is None else "its results region holds no result"
        raise WebParseError(
            "%s answered with a page that has neither results nor a no-results notice (%s)" % (self.name, where),
            provider=self.name,
            detail_code=UNEXPECTED_SHAPE,
        )

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Items of the results page."""
        return ParseResult(items=self.read_page(response.text, params))

    def structure_report(self, response: HttpResponse, params: Optional[SearchParams] = None) -> dict[str, bool]:
        """Landmarks: no bot wall, the results region found, result blocks with a title
        link (or a no-results notice), and snippets (the ``detail_field``) found in them."""
        text = response.text
        try:
            items: Optional[list[dict[str, Any]]] = self.read_page(
                text, params or SearchParams(query="structure check", max_results=10)
            )
        except WebParseError:
            items = None
        return {
            "not_blocked": self._any_wall(response) is None,
            "results_region": self.results_region(text) is not None,
            "result_blocks": items is not None,
            self.detail_field + "s": not items or any(item.get(self.detail_field) for item in items),
        }
