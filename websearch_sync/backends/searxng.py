"""``searxng``: a SearXNG instance's JSON API, ``GET {SEARXNG_BASE_URL}/search?format=json``.

SearXNG is a meta-engine: one request asks many engines inside the instance, and
each of them may fail alone. What a real instance does (see UPSTREAMS.md and
docs/backends.md):

* **Its own refusals.** JSON output is off on a fresh instance (``search.formats:
  [html]``): ``/search`` then answers with Werkzeug's standard 403 page, an
  ``AuthError`` telling what to enable. Its limiter (on by default on public
  instances, ``searx/botdetection``) answers 429 ``Too Many Requests`` without
  ``Retry-After``: it counts JSON requests per IP in a one-hour sliding window, so
  asking again at once only extends the block; on a public instance it redirects a
  client it takes for a bot from ``/search`` to its home page. A 403 that is not
  SearXNG's page came from something in front of it (a Cloudflare challenge, a
  proxy's access rule).
* **Its engines' failures** (``unresponsive_engines``, ``[engine, reason]``) are
  listed in ``errors`` (with the engine's name and, for a blocked or suspended one,
  ``retry_after``: how long the instance leaves it alone) without failing a call
  that has results. No results while engines failed is that failure; a block of
  engines cools down only the engines/categories that call asked for
  (:meth:`SearXNG.cooldown_keys`), since the instance keeps answering with its
  other engines.
* **Its deadline.** The instance waits for its slowest engine (its
  ``outgoing.request_timeout``) unless told ``timeout_limit``; each request says
  what is left of the call's deadline minus a margin for the round trip and parsing, never
  more than its engines' own timeouts once its ``/config`` was read (:mod:`.searxng_config`):
  an instance with ``outgoing.max_request_timeout`` gives them ``timeout_limit`` instead.
* **Its query syntax** (:mod:`.searxng_query`): ``!engine``, ``:lang`` and ``<N`` in the query
  win over the request's options; a ``<N`` is capped at the call's deadline. No redirect is
  followed: an external ``!!bang`` redirects to another site (``offsite_redirect``), the
  limiter to the home page (a block), anything else on the host is a base URL to fix.
* **Its extras.** Answers, infoboxes, suggestions and corrections go to
  ``provider_meta["extras"]``; engine/category names it ignored, or searched others than
  (a locked preference), are a warning (:mod:`.searxng_names`). An Anubis challenge in
  front of it is a bot wall (:data:`ANUBIS`), and so is a public instance's JavaScript challenge
  page (:data:`JS_CHALLENGE`, recorded in front of searx.be).

The request carries the headers a real instance's limiter and Sec-Fetch check let
through. ``language`` must match ``^[a-z]{2,3}(-[a-zA-Z]{2})?$`` (else HTTP 400):
locales are mapped to that form (``zh-Hant-TW`` -> ``zh-TW``; ``zh-Hant`` -> ``zh-TW``, since its
engines read a bare ``zh`` as Simplified Chinese) or refused before
sending; a script it cannot say (``sr-Latn``, sent as ``sr``, which SearXNG reads as Cyrillic
Serbian) is reported as not sent (``locale.script``). Engine failure reasons are asked for in English (``locale=en``) and read in
any language the instance speaks (:mod:`.searxng_reasons`).
"""

import dataclasses
import logging
import math
import re
from collections.abc import Mapping
from functools import partial
from typing import Any, Optional
from urllib.parse import SplitResult, parse_qs, unquote_plus, urljoin, urlsplit, urlunsplit

from ..config import Settings
from ..engine.base import answer_within_s
from ..engine.json_api import JsonApiBackend
from ..engine.option import Option, pageno_option
from ..engine.pace import before_next_request
from ..engine.setting import Setting, own_timeout
from ..errors import (
    ANSWER_ONLY,
    ANSWERS_LEFT_OUT,
    BAD_CATEGORIES,
    BAD_ENGINES,
    BAD_LOCALE,
    BAD_SETTING,
    CAPTCHA_REQUIRED,
    HTTP_403,
    HTTP_404,
    OFFSITE_REDIRECT,
    UNSUPPORTED_QUERY,
    AuthError,
    InvalidInput,
    Timeout,
    WebBlocked,
    WebProviderError,
    WebSearchError,
    counted,
)
from ..models import ErrorInfo, ParseResult, SearchParams
from ..net.botwall import BotWall
from ..net.deadline import Deadline
from ..net.transport import HttpResponse, HttpTransport, RequestSpec, retry_after_seconds
from ..net.urls import browser_join, host_token, shown_url
from ..once import Once
from .searxng_config import (
    DEFAULT_ENGINE_TIMEOUT_S,
    InstanceConfig,
    Unread,
    failed_read,
    known_config,
    read_config_at,
    slow_answer,
    want_config,
    wanted,
)
from .searxng_extras import MAX_ANSWERS_CHARS, extras_of
from .searxng_failures import EngineFailure, engine_failures, no_results_because
from .searxng_names import (
    PAGING,
    TIME_RANGE,
    SkipRule,
    categories_undecided,
    engines_undecided,
    ignored_names,
)
from .searxng_query import engine_bangs, has_external_bang, unreadable_time_limit, within_deadline

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_SAFESEARCH = {"off": "0", "moderate": "1", "strict": "2"}

#: Headers a real instance's limiter and Sec-Fetch check let through (what a browser's
#: ``fetch()`` from the instance's own page sends); ``Accept-Language`` is added per call.
_BROWSER_HEADERS = {
    "Accept": "application/json, text/html;q=0.9",
    "Sec-Fetch-Mode": "cors",
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Dest": "empty",
}
#: The redirects an instance may answer a search with (read, never followed by the transport).
_REDIRECT_STATUSES = (301, 302, 303, 307, 308)
#: ``language`` values SearXNG accepts besides language codes.
_SPECIAL_LANGUAGES = ("all", "auto")
#: A script no region says, said by its likely region (CLDR likelySubtags: ``zh-Hant`` -> ``zh-Hant-TW``):
#: SearXNG's engines read a bare ``zh`` as Simplified Chinese (``searx/data/engine_traits.json``,
#: google: ``"zh": "lang_zh-CN"``, ``"zh_Hant": "lang_zh-TW"``; startpage ``jiantizhongwen``), and
#: ``zh-TW`` as Traditional (babel parses it as ``zh_Hant_TW``). ``zh-Hans`` stays ``zh``.
_SCRIPT_REGIONS = {("zh", "hant"): "TW"}
#: The regions whose Chinese SearXNG reads as Traditional (babel: ``zh-TW`` is ``zh_Hant_TW``, ``zh-HK`` and
#: ``zh-MO`` likewise); every other region's Chinese it reads as Simplified (``zh-CN``, ``zh-SG``: ``zh_Hans``).
_TRADITIONAL_REGIONS = ("TW", "HK", "MO")
#: The ``language`` of a call without a locale: every language (as documented), not the one the
#: instance would guess from ``Accept-Language``.
_ALL_LANGUAGES = "all"

#: Anubis (TecharoHQ/anubis), a proof-of-work bot wall some instances put in front of them: its
#: challenge page embeds the challenge as ``<script id="anubis_challenge" type="application/json">``
#: and loads its solver from ``/.within.website/x/cmd/anubis/`` (``web/index.templ``). Both are
#: required (one bounded class each: linear on any page).
ANUBIS = BotWall(
    "Anubis proof-of-work challenge",
    hints=("anubis_challenge",),  # what the first pattern needs
    patterns=(
        re.compile(r"""<script\b[^<>]{0,200}\bid=["']?anubis_challenge\b"""),
        re.compile(r"""<(?:script|img)\b[^<>]{0,400}/\.within\.website/x/cmd/anubis/"""),
    ),
)

#: A JavaScript challenge some public instances put in front of them (recorded: searx.be's
#: "Verifying your request" page, 200): a heading saying so, a countdown ``<span
#: id="countdowntimer">`` before the script redirects, and a ``<noscript>`` asking for
#: JavaScript. All three are required (a download page may have a countdown); each pattern is
#: one bounded class or a literal: linear on any page.
JS_CHALLENGE = BotWall(
    "JavaScript challenge ('Verifying your request', a countdown before a redirect)",
    hints=("countdowntimer",),
    patterns=(
        re.compile(r"""<span\b[^<>]{0,200}\bid=["']?countdowntimer\b"""),
        re.compile(r"""<h1\b[^<>]{0,200}>[^<]{0,200}Verifying your request"""),
        re.compile(r"""<noscript\b[^<>]{0,200}>\s{0,200}Please enable JavaScript"""),
    ),
)

#: The limiter's window for JSON requests (``searx/botdetection/ip_limit.py``: ``API_WINDOW``,
#: at most ``API_MAX`` = 4 requests per IP in it): how long a client it refused stays away.
LIMITER_WINDOW_S = 3600.0
#: The bodies of the limiter's 429 (``flask.make_response(('Too Many Requests', 429))`` in
#: ``searx/botdetection/_helpers.py``; ``'IP is on BLOCKLIST - ...'`` in ``searx/limiter.py``).
_LIMITER_BODIES = (b"Too Many Requests", b"IP is on BLOCKLIST")
#: The limiter's 429 for an IP on its block list (checked before the bot detection).
_BLOCKLIST_BODY = _LIMITER_BODIES[1]
#: The User-Agents SearXNG's bot detection refuses on every request while its limiter is on: its
#: ``USER_AGENT`` pattern (``searx/botdetection/http_user_agent.py``, matched at the start) without
#: its one unanchored name, ``PetalBot`` (:func:`_refused_agent`); alternatives of literals only.
_BOT_AGENTS = re.compile(
    r"unknown|[Cc][Uu][Rr][Ll]|[wW]get|Scrapy|splash|JavaFX|FeedFetcher|python-requests|Go-http-client|Java|Jakarta"
    r"|okhttp|HttpClient|Jersey|Python|libwww-perl|Ruby|SynHttpClient|UniversalFeedParser|Googlebot"
    r"|GoogleImageProxy|bingbot|Baiduspider|yacybot|YandexMobileBot|YandexBot|Yahoo! Slurp|MJ12bot|AhrefsBot"
    r"|archive\.org_bot|msnbot|SeznamBot|linkdexbot|Netvibes|SMTBot|zgrab|James BOT|Sogou|Abonti|Pixray|Spinn3r"
    r"|SemrushBot|Exabot|ZmEu|BLEXBot|bitlybot|HeadlessChrome"
    r"|Mozilla/5\.0 \(compatible; Farside/0\.1\.0; \+https://farside\.link\)"
)
#: Werkzeug's standard 403 page (``flask.abort(403)``, what ``/search`` answers for a format
#: not in ``search.formats``): its title and its bare ``<h1>`` (a proxy's page says
#: ``<h1>403 Forbidden</h1>``).
_WERKZEUG_403 = (b"<title>403 Forbidden</title>", b"<h1>Forbidden</h1>")

#: The smallest ``timeout_limit`` sent (SearXNG reads it as seconds).
_MIN_TIMEOUT_LIMIT_S = 0.1

#: The query strings of a base URL already said to be dropped (once per process): their field names and
#: how many pieces had no name, never their values.
_SAID_DROPPED_QUERY = Once()

logger = logging.getLogger("websearch_sync")


class SearXNG(JsonApiBackend):
    """A SearXNG metasearch instance (self-hosted or public)."""

    name = "searxng"
    auto_rank = 30
    results_per_page = 10  #: pages that gave fewer distinct results than asked: the next ``pageno``
    text_format = "text"  # SearXNG escapes title/content in its HTML page: the JSON holds plain text
    results_at = "results"
    result_fields = {"title": "title", "url": "url", "snippet": "content", "published_at": "publishedDate"}
    summary = "SearXNG instance, JSON API (needs SEARXNG_BASE_URL and `json` in search.formats)"
    endpoint_path = "/search"
    provider_settings = (
        Setting("base_url", env="SEARXNG_BASE_URL", kind="url", required=True),
        Setting("api_key", env="SEARXNG_API_KEY"),
        own_timeout("SEARXNG_TIMEOUT_MS"),
    )
    options = (
        Option("categories", "names", detail=BAD_CATEGORIES, doc="the instance's categories to search (news, it...)"),
        Option("engines", "names", detail=BAD_ENGINES, doc="the instance's engines to ask (google, wikipedia...)"),
        pageno_option(  # sent only when given: page 1 unasked is the instance's own default
            "the instance's page: as many results as its engines give a page, whatever max_results is",
            omitted_sends_default=False,
        ),
    )
    volatile_params = ("timeout_limit",)
    #: No redirect is followed: an external ``!!bang`` redirects to another site (read, refused).
    follow_redirects = False
    bot_walls = (ANUBIS, JS_CHALLENGE)  #: also recognised by fetch, in front of any site
    #: ``language=auto``: an instance older than March 2026 detects the query's language; a newer one
    #: (``searx/webadapter.py``, searxng #5795) takes ``Accept-Language``'s, ``*`` here: every language.
    locale_words = ("auto",)

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        #: The ``timeout_limit`` this call sent last (a backend object serves one call).
        self.sent_limit_s = 0.0
        #: Whether the call's deadline set that limit (below the engines' own timeouts): then the
        #: engines that timed out might answer a call with a longer one (:meth:`parse`).
        self.deadline_cut = False
        #: The results and failed engines of an answer whose ``engines``/``categories`` only
        #: ``/config`` can judge, and those options.
        self.undecided: Optional[tuple[list[Any], list[str], tuple[str, ...]]] = None

    def endpoint_url(self) -> str:
        """``Settings.endpoints["searxng"]`` as it is, else the instance's root (``base_url``,
        a trailing ``/search`` dropped) + ``/search``."""
        base = self.config.get("base_url")
        if self.settings.endpoints.get(self.name) or not base:
            return super().endpoint_url()
        return instance_root(str(base)) + self.endpoint_path

    def configured_base(self) -> Optional[str]:
        """The endpoint override, else the instance's root."""
        base = self.config.get("base_url")
        return self.settings.endpoints.get(self.name) or (instance_root(str(base)) if base else None)

    def check_configured(self) -> None:
        """Also refuse credentials given twice: a user name/password in ``SEARXNG_BASE_URL``
        (sent as HTTP Basic auth) beside ``SEARXNG_API_KEY`` (a bearer token): only one
        ``Authorization`` header can be sent, so one of them would be lost without a word."""
        super().check_configured()
        try:
            userinfo = urlsplit(self.endpoint_url()).username is not None
        except ValueError:  # pragma: no cover - check_configured refused a malformed URL already
            userinfo = False
        if userinfo and self.config.get("api_key"):
            raise InvalidInput(
                "searxng: SEARXNG_BASE_URL carries a user name (HTTP Basic auth) and SEARXNG_API_KEY is set "
                "(a bearer token); only one Authorization header can be sent: keep one of them",
                provider=self.name,
                detail_code=BAD_SETTING,
            )
        self._say_dropped_query()

    def _say_dropped_query(self) -> None:
        """Log once per process (and set of field names) that the base URL's query string is not sent
        (:func:`instance_root` drops it: users paste ``/search?q=`` URLs), naming its fields only: a
        value, or a piece without ``=``, may be a token."""
        base = self.config.get("base_url")
        if self.settings.endpoints.get(self.name) or not base:
            return
        try:
            query = urlsplit(str(base).strip()).query
        except ValueError:  # malformed: check_configured refused it already
            return
        pieces = [piece for piece in query.split("&") if piece]
        names = tuple(sorted({unquote_plus(piece.split("=", 1)[0]) for piece in pieces if "=" in piece}))
        bare = sum("=" not in piece for piece in pieces)
        if not pieces or not _SAID_DROPPED_QUERY.first((names, bare)):
            return
        fields = ["%r" % name[:40] for name in names[:8]]
        if bare:
            fields.append("%d without a name" % bare)
        logger.warning(
            "searxng: the query string of %s is not sent (its fields: %s; values not shown): requests go to the "
            "instance's /search with their own query; give the instance's address without one",
            self.setting("base_url").env_or_key(),
            ", ".join(fields),
        )

    def check_params(self, params: SearchParams) -> None:
        """Also check that the locale has a form SearXNG accepts, and that no query word would make
        the instance fail (:func:`.searxng_query.unreadable_time_limit`)."""
        super().check_params(params)
        if params.locale:
            searxng_language(params.locale)
        word = unreadable_time_limit(params.full_query)
        if word is not None:
            raise InvalidInput(
                "searxng: the query word %r makes a SearXNG instance fail (HTTP 500 'search error'): it reads `<` and "
                "digits as a time limit and cannot read %r as a number; put a space after the `<` or drop the word"
                % (word, word[1:]),
                provider=self.name,
                detail_code=UNSUPPORTED_QUERY,
            )

    def said_locale(self, params: SearchParams) -> Optional[str]:
        """The ``language`` sent (:func:`searxng_language`), whose script the base reads: ``sr-Latn``
        is sent as ``sr``, Cyrillic Serbian to SearXNG, and ``provider_meta["not_sent"]`` says
        ``locale.script`` rather than the search silently running in the other script. ``None``
        for a locale SearXNG cannot say (refused before sending, ``check_params``)."""
        try:
            return searxng_language(params.locale or "")
        except InvalidInput:
            return None

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``GET /search?q=…&format=json&locale=en&language=…`` (``all`` without a locale) with time
        range, safe search and options, and the headers a real instance's limiter wants."""
        query: dict[str, Any] = {"q": params.full_query, "format": "json", "locale": "en"}
        if params.options.get("pageno") is not None:  # page 1 unasked: the instance's default
            query["pageno"] = self.option(params, "pageno")
        language = searxng_language(params.locale) if params.locale else _ALL_LANGUAGES
        query["language"] = language  # unset, the instance would pick one from Accept-Language
        if params.time_range:
            query["time_range"] = params.time_range
        if params.safe_search:
            query["safesearch"] = _SAFESEARCH[params.safe_search]
        for name in ("categories", "engines"):
            names = self._names(params, name)
            if names:
                query[name] = names
        return RequestSpec(
            "GET",
            self.endpoint_url(),
            params=query,
            headers=self._headers(language),
            allow_redirects=self.follow_redirects,
        )

    def _headers(self, language: Optional[str]) -> dict[str, str]:
        """The headers of every request to the instance (its limiter checks them all)."""
        headers = self.json_headers(self.bearer())
        headers.update(_BROWSER_HEADERS)
        headers["Accept-Language"] = _accept_language(language)
        return headers

    def search(self, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
        """Search, then read the instance's ``/config`` when it matters (:mod:`.searxng_config`):
        a slow answer (it sets later searches' ``timeout_limit``), or an answer with a time range
        or for a page after the first (which engines did the instance skip? :meth:`_skip_rules`)
        or whose categories only ``/config`` can judge
        (:func:`.searxng_names.categories_undecided`), which it then judges. Never before the
        search, and only on a rate-limit slot free at once, so it never waits for one: without it
        a time range (a later page) is said unverified (:meth:`.searxng_names.SkipRule.unverified`, the answer
        cached as it is, its note recomputed when served once ``/config`` is known:
        :meth:`revise_cached`), and it is read after a later answer that leaves a slot free."""
        self.check(params)
        headers = self._headers(searxng_language(params.locale) if params.locale else None)
        result = super().search(params, transport, deadline)
        judged = bool(self._skip_rules(params)) or self.undecided is not None
        unread = self._read_config(transport, headers, deadline, judged)
        if judged:
            self._judge(params, result, unread)
        return result

    def _skip_rules(self, params: SearchParams) -> tuple[SkipRule, ...]:
        """The kinds of engines the instance does not ask for this search (``get_params``): those
        without time-range support with a time range, those without paging for a ``pageno`` after
        the first (the call's own: the pages a call reads after it for ``max_results`` skip them too,
        their results are on its first page)."""
        later_page = (self.option(params, "pageno") or 1) > 1
        return tuple(rule for rule, applies in ((TIME_RANGE, bool(params.time_range)), (PAGING, later_page)) if applies)

    def _read_config(
        self, transport: HttpTransport, headers: dict[str, str], deadline: Deadline, judged: bool
    ) -> Optional[Unread]:
        """Read ``/config`` after an answer when it is wanted (a slow answer seen) or the answer is
        to be ``judged`` by it, on a slot free at once; ``None`` when it is known after, else why
        not (:func:`.searxng_config.read_config_at`)."""
        url = self._config_url()
        if judged:
            want_config(url)  # also after a later answer, when this one leaves no slot for it
        if self.instance() is not None:
            return None
        failed = failed_read(url, headers)
        if failed is not None:
            return Unread(failed)
        if judged or wanted(url):
            return read_config_at(
                transport,
                url,
                headers,
                deadline,
                self.name,
                self.secrets(),
                self.answer_error,
                partial(before_next_request, at_once=True),
            )
        return None

    def _judge(self, params: SearchParams, result: ParseResult, unread: Optional[Unread]) -> None:
        """Add what ``/config`` says of an answer (the categories it searched, the engines a time
        range or a later page skipped), or that those are unverified (``unread``: why it is not known);
        categories it cannot judge keep the answer from the cache (a skip left unverified
        does not: its note may be the client's pace, which the cache key holds,
        :func:`~websearch_sync.client.cachekey.search_key`)."""
        config = self.instance()
        if self.undecided is not None:  # were the engines/categories asked searched? /config tells
            if config is None:  # not judged: not cached
                result.partial = True
            else:
                results, failed, options = self.undecided
                warnings = self._warnings(params, results, failed, config, options)
                result.errors.extend(warning.to_dict() for warning in warnings)
        for rule in self._skip_rules(params):  # only /config says which engines SearXNG skipped
            warning = (
                rule.skipped(config, *self._asked(params))
                if config is not None
                else rule.unverified(unread.why if unread is not None else "/config was not read")
            )
            result.errors.extend([warning.to_dict()] if warning is not None else [])

    def revise_cached(self, params: SearchParams, errors: list[ErrorInfo]) -> list[ErrorInfo]:
        """A cached answer whose time range (later page) was left unverified (:meth:`_judge`) gets,
        in place of that note, what ``/config`` says once it is known (read after a later answer):
        the engines skipped, or nothing. The note is recomputed each time the answer is served,
        so it does not outlive the read for the cache's TTL. It keeps the note's place among the
        others (a merge lists them in the order its backends answered)."""
        rules = {rule.unverified_code: rule for rule in self._skip_rules(params)}
        config = self.instance() if rules else None
        if config is None or not any(_unverified_here(error, self.name, rules) for error in errors):
            return errors
        asked = self._asked(params)

        def revised(error: ErrorInfo) -> list[ErrorInfo]:
            if not _unverified_here(error, self.name, rules):
                return [error]
            skipped = rules[str(error.get("detail_code"))].skipped(config, *asked)
            return [skipped.to_dict()] if skipped is not None else []

        return [entry for error in errors for entry in revised(error)]

    def _config_url(self) -> str:
        return urljoin(self.endpoint_url(), "config")

    def instance(self) -> Optional[InstanceConfig]:
        """What the instance published at ``/config``, when it was read (:mod:`.searxng_config`)."""
        return known_config(self._config_url())

    def fit_request(self, spec: RequestSpec, deadline: Deadline) -> RequestSpec:
        """Add ``timeout_limit``: what is left of the deadline, minus a margin for the round
        trip, the instance's merging and our parsing (:func:`~websearch_sync.engine.base.answer_within_s`), so the instance answers with the engines that made it in time
        instead of waiting for its slowest one past our deadline; never more than the
        slowest own timeout of the engines asked (``/config``; until it is known, SearXNG's default
        engine timeout): an instance that sets ``outgoing.max_request_timeout`` gives every engine
        ``timeout_limit`` instead of its own."""
        left = max(_MIN_TIMEOUT_LIMIT_S, answer_within_s(deadline))
        query = dict(spec.params or {})
        cap, known = self._limit_cap(query)
        if isinstance(query.get("q"), str):  # a `<N` word in the query would win over timeout_limit
            query["q"], cap = within_deadline(query["q"], cap)
        query["timeout_limit"] = "%.2f" % max(_MIN_TIMEOUT_LIMIT_S, min(left, cap))
        self.sent_limit_s = float(query["timeout_limit"])
        self.deadline_cut = left < cap or not known
        return dataclasses.replace(spec, params=query)

    def _limit_cap(self, query: dict[str, Any]) -> tuple[float, bool]:
        """The longest ``timeout_limit`` worth sending: the slowest own timeout of the engines asked
        (``/config``; until it is known, SearXNG's default engine timeout); unbounded when ``/config``
        gives none. Also whether the cap is known: the default is a guess, so engines it cut may
        have more once ``/config`` is read."""
        instance = self.instance()
        if instance is None:  # not known yet: no longer than a default instance gives its engines
            return DEFAULT_ENGINE_TIMEOUT_S, False
        asked = [str(query.get(name) or "").split(",") for name in ("engines", "categories")]
        own = instance.engines_timeout_s(*asked)
        return (own if own is not None else math.inf), True

    def cooldown_keys(self, params: SearchParams) -> tuple[str, ...]:
        """The instance (its limiter, its 403) and the engines/categories this call asks for."""
        return (self.upstream_key(), self._engines_key(params))

    def cooldown_key(self, params: SearchParams, error: WebBlocked) -> str:
        """A block of the engines asked (no results, engines failed: the error lists them)
        cools down only those engines/categories; a block of the instance, all of it."""
        return self._engines_key(params) if error.errors else self.upstream_key()

    def _engines_key(self, params: SearchParams) -> str:
        asked = [
            "%s=%s" % (name, ",".join(sorted(names.split(","))))
            for name in ("engines", "categories")
            for names in [self._names(params, name)]
            if names
        ]
        return "%s[%s]" % (self.upstream_key(), "; ".join(asked) or "default engines")

    def interpret(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Note a slow answer (:func:`.searxng_config.slow_answer`), then read it."""
        slow_answer(self._config_url(), response.elapsed_ms / 1000.0, self.sent_limit_s)
        return super().interpret(response, params)

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """The instance's own refusals (a 404 at the base URL, Werkzeug's 403, the limiter's
        429 and its redirect to the home page), a 403 from something in front of it, else
        the shared API mapping. A redirect is never followed off the instance's host."""
        redirect = self._redirect_error(response)
        if redirect is not None:
            return redirect
        wall = self.wall(response)  # an HTML page where JSON belongs: any wall
        if wall is not None:
            return wall
        if response.status == 404:
            return self._not_found(response)
        if response.status == 403:
            return self._forbidden(response)
        error = super().classify(response)
        if response.status == 401 and error is not None and _asks_basic_auth(response):
            return _reworded(error, self._basic_auth_refusal())
        if response.status == 429 and error is not None and _is_limiter_429(response):
            return self._limiter_refusal(error, response.content.strip())
        return error

    def _limiter_refusal(self, error: WebSearchError, body: bytes) -> WebSearchError:
        """The limiter's 429 (``searx/limiter.py: filter_request``): the client's IP on its block list
        (checked before all but its pass list), the bot detection's refusal of a User-Agent (its ``Too Many Requests``, on
        every request), else its hourly window of JSON requests."""
        if body.startswith(_BLOCKLIST_BODY):
            return _reworded(
                error,
                "searxng: the instance's limiter has this client's IP on its block list (HTTP 429 'IP is on "
                "BLOCKLIST': `block_ip` in its limiter.toml): a wait does not heal it; ask the instance's operator, "
                "or use an instance you run",
                retryable=False,
            )
        agent = self.settings.user_agent
        if agent and _refused_agent(agent):
            return _reworded(
                error,
                "searxng: the instance's limiter refused the request (HTTP 429): its bot detection refuses the "
                "User-Agent %r on every request (SearXNG's botdetection/http_user_agent.py: names starting with "
                "curl, python-requests, Python, Go-http-client, Java ...); unset WEB_SEARCH_USER_AGENT "
                "(Settings.user_agent) or set a browser's" % agent,
                retryable=False,
            )
        return _reworded(
            error,
            "searxng: the instance's limiter refused the request (HTTP 429, no Retry-After): it allows "
            "4 JSON requests per IP per hour and each new request extends the block; on your own instance add "
            "your address to `pass_ip` in limiter.toml or set `server.limiter: false` in settings.yml",
            retryable=False,
            retry_after=LIMITER_WINDOW_S,
        )

    def _basic_auth_refusal(self) -> str:
        """What to do about a 401 asking for HTTP Basic auth (a reverse proxy's password in front
        of the instance): a user name and password in the base URL, not a bearer key."""
        if urlsplit(self.endpoint_url()).username is not None:
            return (
                "searxng: the instance refused the user name and password in %s (HTTP 401, Basic auth): "
                "check them" % self._endpoint_origin()
            )
        return (
            "searxng: the instance asks for a user name and password (HTTP 401, WWW-Authenticate: Basic)%s: "
            "put them in %s as https://user:password@host/"
            % (
                "; SEARXNG_API_KEY is sent as a bearer token, which it does not take"
                if self.config.get("api_key")
                else "",
                self._endpoint_origin(),
            )
        )

    def _not_found(self, response: HttpResponse) -> WebSearchError:
        setting = (
            "Settings.endpoints['searxng'] (WEB_SEARCH_ENDPOINT_SEARXNG): it is used as it is, so it must be the "
            "instance's /search URL"
            if self.settings.endpoints.get(self.name)
            else "SEARXNG_BASE_URL: it must be the instance's root URL (the one that shows its search page), "
            "requests go to <base URL>/search"
        )
        return WebProviderError(
            "searxng: %s answered 404 Not Found; check %s" % (shown_url(response.url), setting),
            provider=self.name,
            detail_code=HTTP_404,
            status=response.status,
        )

    def _forbidden(self, response: HttpResponse) -> WebSearchError:
        """SearXNG's own 403 (JSON disabled), Cloudflare's edge refusing it (the shared mapping's
        ``WebBlocked``), or a 403 from something else in front of it (a challenge's 403 is a wall
        :meth:`classify` found first)."""
        if all(marker in response.content[:4096] for marker in _WERKZEUG_403):
            return AuthError(
                "SearXNG instance refused JSON output (HTTP 403 with its standard page): enable `json` in the "
                "instance's settings.yml `search.formats` (e.g. `formats: [html, json]`) and restart it",
                provider=self.name,
                detail_code=HTTP_403,
                status=response.status,
            )
        error = super().classify(response)
        assert error is not None  # a 403 is never a success
        if isinstance(error, WebBlocked):  # Cloudflare's edge refused it (net.status.edge_refusal): its words
            return error
        return _reworded(
            error,
            "searxng: HTTP 403 from something in front of the instance at %s (a reverse proxy, firewall or access "
            "rule), not SearXNG's own page: check its access rules (and SEARXNG_API_KEY if it wants a token)"
            % shown_url(response.url),
        )

    def _redirect_error(self, response: HttpResponse) -> Optional[WebSearchError]:
        """What a redirect means (none is followed): one off the instance's host (SearXNG's answer
        to an external ``!!bang``: following it would send the query to that site from the user's
        own address), one to a sign-in page on its host (a login proxy's, carrying the search's
        address to come back to: :func:`_carries_return_to`), one to the instance's home page on the
        scheme asked (its limiter, ``searx/botdetection``: ``link_token``, ``http_sec_fetch``), or one
        elsewhere on its host or to another scheme (the base URL to fix: a server moving plain http
        to its https home page)."""
        target = _redirect_target(response)
        if target is None:
            return None
        asked = urlsplit(self.endpoint_url())
        if (target.hostname or "").lower() != (asked.hostname or "").lower():
            why = (
                "SearXNG sends an external bang (`!!g`, `!!w` ... in the query) to that site's own search, which "
                "would get the query from your own address; drop the `!!` word (a single `!` picks the instance's "
                "own engine)"
                if has_external_bang(_asked_query(response.url))
                else "the query has no external bang (`!!g` ...), so something in front of the instance (a login "
                "or single sign-on proxy) sent this client away: check its access rules (and SEARXNG_API_KEY if "
                "it takes a bearer token)"
            )
            return WebProviderError(
                "searxng: %s answered with a redirect to another site (%s) instead of results; not followed: %s"
                % (shown_url(response.url), host_token(urlunsplit(target)), why),
                provider=self.name,
                detail_code=OFFSITE_REDIRECT,
                status=response.status,
            )
        error = super().classify(response)
        assert error is not None  # a redirect is never a success
        if _carries_return_to(target, asked):
            return _reworded(
                error,
                "searxng: %s redirected the search to a sign-in page on its own host (%s, HTTP %d, not followed; "
                "it carries the search's address to come back to): something in front of the instance (a login or "
                "single sign-on proxy) wants a login: check its access rules (and SEARXNG_API_KEY if it takes a "
                "bearer token)" % (shown_url(response.url), shown_url(urlunsplit(target)), response.status),
            )
        root = urlsplit(instance_root(self.endpoint_url())).path.rstrip("/")
        # the limiter's home page is on the scheme it was asked on: http sent to https is the base URL to fix
        same_scheme = target.scheme.lower() == asked.scheme.lower()
        if target.path.rstrip("/") == root and target.path != asked.path and same_scheme:
            return WebBlocked(
                "searxng: %s redirected the search to its home page: the limiter treats this client as a bot "
                "(a public instance does this to API clients); use an instance you run" % shown_url(response.url),
                provider=self.name,
                detail_code=CAPTCHA_REQUIRED,
                status=response.status,
            )
        return _reworded(
            error,
            "searxng: %s redirected the search to %s on its own host (HTTP %d, not followed): set %s to the "
            "address it redirects to"
            % (shown_url(response.url), shown_url(urlunsplit(target)), response.status, self._endpoint_origin()),
        )

    def error_envelope(self, data: Any) -> Optional[tuple[Any, Optional[str]]]:
        """SearXNG's ``{"error": "No query"}``."""
        if isinstance(data, dict) and isinstance(data.get("error"), str):
            return None, data["error"]
        return None

    def structure_report(self, response: HttpResponse, params: Optional[SearchParams] = None) -> dict[str, bool]:
        """No structure checks on a refusal (JSON disabled, limiter, 403): there is no answer to
        compare, and ``check-live`` reports the refusal itself."""
        error = self.classify(response)
        if isinstance(error, (AuthError, WebBlocked)):
            return {}
        return super().structure_report(response, params)

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Items from ``results[]``; ``unresponsive_engines`` and ignored names become ``errors``;
        answers, infoboxes, suggestions and corrections become ``extras``. An answer without
        engines that timed out is ``partial``, not cached, when the call's deadline (or, before
        ``/config`` is known, the guess of a cap) set the ``timeout_limit`` they had
        (:meth:`fit_request`): a call with a longer one gives them more. Not when their own timeouts
        set it (a longer deadline would not help). One with an engine the instance suspended after a
        timeout (``retry_after``) is partial whatever set the limit: the suspension (seconds) ends
        long before the cache's TTL, and the engine answers again."""
        data = self.data(response)
        results = self.results(data, params)
        items = self.items_from(results, params)
        problems = engine_failures(data.get("unresponsive_engines"), self.name, self.secrets())
        if not items and problems:
            raise no_results_because(problems, response.status, self.name)
        extras, answers_left_out = extras_of(data)
        errors = [problem.to_dict() for problem in problems]
        errors.extend(warning.to_dict() for warning in self._names_searched(params, results, problems))
        errors.extend(warning.to_dict() for warning in _extras_warnings(extras, answers_left_out, bool(items)))
        cut = any(isinstance(p, Timeout) and (self.deadline_cut or p.retry_after is not None) for p in problems)
        return ParseResult(items=items, errors=errors, extras=extras, partial=cut)

    def _names_searched(
        self, params: SearchParams, results: list[Any], problems: list[EngineFailure]
    ) -> list[WebSearchError]:
        """The warnings on the names the instance did not search; an answer whose engines or
        categories only ``/config`` can judge is kept for :meth:`search`, which reads it (as it does
        for the engines a time range skipped)."""
        failed = [p.engine for p in problems]
        engines, categories = (self._names(params, o) for o in ("engines", "categories"))
        undecided = tuple(
            option
            for option, unknown in (
                ("engines", engines_undecided(engines, categories, results, failed, _bangs(params))),
                ("categories", categories_undecided(categories, results)),
            )
            if unknown
        )
        if self.instance() is None and undecided:
            self.undecided = (results, failed, undecided)
        return self._warnings(params, results, failed, self.instance())

    def _warnings(
        self,
        params: SearchParams,
        results: list[Any],
        failed: list[str],
        config: Optional[InstanceConfig],
        options: tuple[str, ...] = ("engines", "categories"),
    ) -> list[WebSearchError]:
        """A warning for each of ``options`` whose names the instance did not search (:mod:`.searxng_names`)."""
        categories = self._names(params, "categories")
        warnings = (
            ignored_names(o, self._names(params, o), results, failed, config, categories, _bangs(params))
            for o in options
        )
        return [warning for warning in warnings if warning is not None]

    def _asked(self, params: SearchParams) -> tuple[Optional[str], Optional[str], list[str]]:
        """``(engines, categories, the query's !names)``: what picks the engines a search asks."""
        return self._names(params, "engines"), self._names(params, "categories"), _bangs(params)

    def _names(self, params: SearchParams, option: str) -> Optional[str]:
        """The names option ``option`` (``engines``, ``categories``) asks for, comma-separated (``None``: unset)."""
        names = self.option(params, option)
        return ",".join(names) if names else None


def _bangs(params: SearchParams) -> list[str]:
    """The names of the query's ``!name`` words, which win over the options when the instance knows
    one (:func:`.searxng_query.engine_bangs`)."""
    return engine_bangs(params.full_query)


def _unverified_here(error: ErrorInfo, provider: str, rules: Mapping[str, SkipRule]) -> bool:
    """Whether ``error`` is ``provider``'s note of a skip it could not verify (``rules``: by its code)."""
    return error.get("detail_code") in rules and error.get("provider") == provider


def _redirect_target(response: HttpResponse) -> Optional[SplitResult]:
    """Where a redirect answer sends the search (absolute), or ``None`` for another answer."""
    if response.status not in _REDIRECT_STATUSES or not response.location:
        return None
    try:
        return urlsplit(browser_join(response.url, response.location))
    except ValueError:  # unparsable: the shared mapping reports the status
        return None


def _carries_return_to(target: SplitResult, search: SplitResult) -> bool:
    """Whether a redirect goes elsewhere on the host with the search's own address to come back to,
    as a sign-in page's does (oauth2-proxy's nginx integration: ``return 302
    /oauth2/sign_in?rd=$scheme://$host$request_uri``): a value that is an address with a query on the
    search's path and host (or none). A moved ``/search`` (http to https) stays on the search's path
    and carries the search's own parameters instead, a query that is itself an address too."""
    if target.path == search.path:
        return False
    try:
        values = [value for values in parse_qs(target.query).values() for value in values]
        return any(_return_address(urlsplit(value), search) and "?" in value for value in values)
    except ValueError:  # an unparsable value: no address
        return False


def _return_address(value: SplitResult, search: SplitResult) -> bool:
    """Whether ``value`` is the search's own address: its path, on its host or relative to it."""
    host = (value.hostname or "").lower()
    return value.path == search.path and host in ("", (search.hostname or "").lower())


def _asked_query(url: str) -> str:
    """The ``q`` a request to the instance asked for (``""`` when there is none)."""
    try:
        return " ".join(parse_qs(urlsplit(url).query).get("q", []))
    except ValueError:  # pragma: no cover - the transport sent this URL
        return ""


def _asks_basic_auth(response: HttpResponse) -> bool:
    """Whether a 401 challenges for HTTP Basic auth (``WWW-Authenticate: Basic realm=...``)."""
    return (response.headers.get("WWW-Authenticate") or "").strip().lower().startswith("basic")


def _is_limiter_429(response: HttpResponse) -> bool:
    """SearXNG's limiter: a 429 without ``Retry-After`` whose body is its own few words."""
    return retry_after_seconds(response.headers) is None and response.content.strip().startswith(_LIMITER_BODIES)


def _refused_agent(user_agent: str) -> bool:
    """Whether SearXNG's bot detection refuses this User-Agent (:data:`_BOT_AGENTS`, or ``PetalBot``
    anywhere in it): its limiter answers every such request with its 429."""
    return _BOT_AGENTS.match(user_agent) is not None or "PetalBot" in user_agent


def _reworded(error: WebSearchError, message: str, **changes: Any) -> WebSearchError:
    """``error`` (from the shared status mapping) with this backend's words, and ``changes``."""
    error.message = message
    for name, value in changes.items():
        setattr(error, name, value)
    return error


def searxng_language(locale: str) -> str:
    """The ``language`` SearXNG accepts (``^[a-z]{2,3}(-[a-zA-Z]{2})?$``) for a locale.

    The language is lower-cased, a script subtag dropped (``zh-Hant-TW`` -> ``zh-TW``,
    ``sr-Latn`` -> ``sr``: one SearXNG then reads in another script is reported as not sent,
    :meth:`SearXNG.said_locale`) except Traditional Chinese without a region, said by its likely one
    (``zh-Hant`` -> ``zh-TW``: a bare ``zh`` is Simplified to SearXNG's engines,
    :data:`_SCRIPT_REGIONS`), and a Chinese script whose region SearXNG reads in the other one,
    said by the script alone (``zh-Hans-TW`` -> ``zh``, ``zh-Hant-CN`` -> ``zh-TW``:
    :func:`_region_of_script`), the region upper-cased; ``all`` and ``auto`` pass. Anything
    else (a numeric region such as ``es-419``, variants, extensions, a longer language
    name) cannot be said to SearXNG: ``InvalidInput(bad_locale)``, before any request.
    """
    parts = locale.replace("_", "-").split("-")
    language, rest = parts[0].lower(), parts[1:]
    if not rest and language in _SPECIAL_LANGUAGES:
        return language
    if rest and len(rest[0]) == 4 and _letters(rest[0]):
        script, rest = rest[0].lower(), rest[1:]
        rest = _region_of_script(language, script, rest)
    if (
        2 <= len(language) <= 3
        and _letters(language)
        and len(rest) <= 1
        and all(len(r) == 2 and _letters(r) for r in rest)
    ):
        return "-".join([language] + [r.upper() for r in rest])
    raise InvalidInput(
        "searxng cannot search in locale %r: it accepts a language code with an optional two-letter region "
        "(e.g. 'de', 'en-US', 'zh-TW')" % (locale,),
        provider="searxng",
        detail_code=BAD_LOCALE,
    )


def _region_of_script(language: str, script: str, rest: list[str]) -> list[str]:
    """The subtags after a dropped script subtag, so that SearXNG reads the script meant: a Chinese
    script without a region, or with a two-letter region whose Chinese SearXNG reads in the other
    script (``zh-Hans-TW``: ``zh-TW`` is read as Traditional), is said by the script alone
    (:data:`_SCRIPT_REGIONS`: ``zh-Hant`` -> ``TW``; ``zh-Hans``: no region, a bare ``zh``)."""
    if language != "zh" or script not in ("hans", "hant"):
        return rest
    if len(rest) == 1 and not (len(rest[0]) == 2 and _letters(rest[0])):
        return rest  # a numeric region (``419``): refused as for any language
    if len(rest) == 1 and (rest[0].upper() in _TRADITIONAL_REGIONS) == (script == "hant"):
        return rest
    if len(rest) > 1:
        return rest  # a variant or extension: refused
    return [_SCRIPT_REGIONS[(language, script)]] if (language, script) in _SCRIPT_REGIONS else []


def _letters(text: str) -> bool:
    return text.isascii() and text.isalpha()


def _accept_language(language: Optional[str]) -> str:
    """``de-DE`` -> ``de-DE,de;q=0.9``; ``de`` -> ``de``; no language (or all/auto) -> ``*`` (any:
    the limiter wants the header, and the search is in every language)."""
    if not language or language in _SPECIAL_LANGUAGES:
        return "*"
    primary = language.split("-", 1)[0]
    return language if primary == language else "%s,%s;q=0.9" % (language, primary)


def instance_root(base_url: str) -> str:
    """The instance's root URL from a configured base URL: no query or fragment, no
    trailing slashes, and no trailing ``/search`` (the page users copy from the address bar)."""
    try:
        parts = urlsplit(base_url.strip())
    except ValueError:  # malformed (``http://[::1``): check_configured refuses what comes out
        return base_url.rstrip("/")
    path = parts.path.rstrip("/")
    if path.endswith("/search"):
        path = path[: -len("/search")].rstrip("/")
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _extras_warnings(extras: dict[str, Any], answers_left_out: int, has_items: bool) -> list[WebSearchError]:
    """What the answer's extras say about it: answers cut by their total size, and an answer
    that holds no results, only answers or infoboxes."""
    warnings = []
    if answers_left_out:
        warnings.append(_answers_left_out(extras["answers"], answers_left_out))
    if not has_items and (extras.get("answers") or extras.get("infoboxes")):
        warnings.append(_answer_only(extras))
    return warnings


def _answers_left_out(kept: list[dict[str, Any]], left_out: int) -> WebSearchError:
    """The warning that the answers past :data:`~.searxng_extras.MAX_ANSWERS_CHARS` were left out."""
    return WebProviderError(
        "searxng's answers come to over %d characters, the most kept of them in all: %s kept,"
        " %s left out" % (MAX_ANSWERS_CHARS, counted(len(kept), "answer"), counted(left_out, "other")),
        provider="searxng",
        detail_code=ANSWERS_LEFT_OUT,
    )


def _answer_only(extras: dict[str, Any]) -> WebSearchError:
    """The note for an answer without web results (a calculator, a unit conversion, an infobox)."""
    kinds = ", ".join("%d %s" % (len(extras[k]), k) for k in ("answers", "infoboxes") if extras.get(k))
    texts = [a["text"] for a in extras.get("answers", ()) if a.get("text")] + [
        i["title"] for i in extras.get("infoboxes", ())
    ]
    return WebProviderError(
        "searxng answered with no web results, only %s (in provider_meta['extras']): %s"
        % (kinds, "; ".join(texts[:3])),
        provider="searxng",
        detail_code=ANSWER_ONLY,
    )
