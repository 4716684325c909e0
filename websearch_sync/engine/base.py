"""The base class every backend derives from.

A backend is mostly declarative (name, endpoint, settings it reads) plus two pure
functions: :meth:`Backend.build_request` (parameters -> request) and
:meth:`Backend.parse` (response -> raw items). :meth:`Backend.classify` recognises
bot walls and vendor error envelopes in a response; everything else (sending,
deadline, status mapping, normalisation) is shared.
"""

import dataclasses
import datetime
import os
import re
import weakref
from collections.abc import Mapping, Sequence
from functools import lru_cache, partial
from itertools import islice
from typing import Any, Callable, ClassVar, Optional, TypeVar, Union
from urllib.parse import urlsplit, urlunsplit

from ..config import Settings, endpoint_setting, settings_place
from ..errors import (
    BAD_ENDPOINT,
    BAD_LOCALE,
    BAD_PARSE_RESULT,
    DEADLINE_EXCEEDED,
    MISSING_API_KEY,
    NEXT_PAGE_REPEATED,
    NOT_CONFIGURED,
    NOT_JSON,
    QUERY_TOO_LONG,
    RESPONSE_TOO_LARGE,
    UNEXPECTED_SHAPE,
    UNSUPPORTED_VERTICAL,
    AuthError,
    InvalidInput,
    Timeout,
    WebBlocked,
    WebParseError,
    WebProviderError,
    WebSearchError,
    counted,
)
from ..models import MAX_RESULT_NESTING, ErrorInfo, ParseResult, SearchParams
from ..net.botwall import BotWall
from ..net.deadline import INLINE_MAX_BYTES, Deadline, DeadlinePassed, run_within
from ..net.instants import http_date
from ..net.jsontext import JsonTooDeep
from ..net.media import media_kind, served_as
from ..net.transport import HttpResponse, HttpTransport, RequestSpec, status_error
from ..net.urls import shown_url
from ..secrets import is_secret_name, redact, redacted_value
from ..validate import CONTROL_IN_SETTING, LOCALE_WORDS, MAX_PAGES, NOT_HTTP, control_in, unusable_why, url_fault
from .code_site import plugin_package, raised_at
from .identity import has_address, identity
from .option import MAX_PAGES_OPTION, PAGENO, Option, declared, read_options
from .pace import before_next_request, later_request_failed
from .setting import COMMON_SETTINGS, Setting, from_env_vars, merged
from .unsent import said_as_declared, script_unsent, unsent_filters, unsent_inputs, untaken_options

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

T = TypeVar("T")

#: The formats a provider's text fields can have (``Backend.text_format``).
TEXT_FORMATS = ("html", "text")
#: The most requests before the results of one search (a token page, then the results endpoint).
MAX_STEPS = 3


@dataclasses.dataclass(frozen=True)
class Page:
    """What an engine knows when it asks for the next result page (:meth:`Backend.next_page`)."""

    number: int  #: the page to ask for: 2, 3 ...
    read: int  #: the results the pages before it gave (repeats included): an offset for the next
    previous: HttpResponse  #: the answer of the page before
    parsed: ParseResult  #: what was read from it
    #: the request that page answered (``None`` in a page built by hand: the call's first request)
    sent: Optional[RequestSpec] = None


class Backend:
    """One search service.

    Class attributes (the declarative part):
        name: registry name (``"ddg_html"``); also the ``provider`` of its items.
        kind: ``"html"``, ``"json"`` or ``"offline"``.
        summary: one line for ``websearch-sync backends`` and docs/backends.md.
        default_endpoint: the URL requests go to unless overridden.
        provider_settings: the settings it reads from ``Settings.providers[name]`` or
            the environment, each a :class:`~websearch_sync.engine.setting.Setting`
            (key, environment variable, kind, required, range); ``timeout_ms`` is
            every backend's (:meth:`declared_settings`).
        env_vars, required: the older spelling of ``provider_settings``, still read
            (``{setting: ENV_VAR}``, the required settings' names) for plugins written
            with it.
        min_interval_s: default minimum spacing between requests (rate limit).
        options: the backend-specific ``search()`` options it takes, each an
            :class:`~websearch_sync.engine.option.Option` (name, kind, default, allowed
            values, doc, detail code), checked before any request (:meth:`check_params`)
            and read typed by :meth:`option`; a plain name is the older, untyped spelling.
        max_query_chars: the length (in characters) from which the service refuses a query:
            a query this long or longer is ``InvalidInput(query_too_long)`` before sending
            (DuckDuckGo's 500: its queries are under 500 characters).
        auto_rank: its place in ``backend="auto"`` (lower first), ``None`` for never:
            API backends rank 10-99 and join when configured, keyless web engines 100-199.
        auto_languages: languages (``"zh"``) for which alone it joins ``auto``; empty: all.
        provides_content: the service itself returns page text when ``include_content``
            is asked (an item it gave text keeps it; the client reads the page of one it gave
            none); an offline backend's pages (made up) are then never read.
        text_format: what the raw items' text fields (title, snippet, source,
            published_at) are: ``"html"`` (fragments: tags are markup, entities are
            escapes; normalization strips and unescapes them) or ``"text"`` (plain
            text, shown as it is: ``C++ template <typename T>`` is a title). Every
            backend declares it; an HTML page parsed into a DOM yields ``"text"``.
        bot_walls: the bot walls of this service (:class:`~websearch_sync.net.botwall.BotWall`),
            from its recorded blocked pages; every search and fetch recognises every
            registered backend's walls.
        vertical: what it searches for: ``"web"`` (pages), ``"news"``, ``"images"`` or
            ``"videos"``. A service's engine for another vertical is a class of its own
            with the same ``name`` (its items' ``provider``), registered beside its web engine.
        results_per_page: how many results a full page of it holds; a call whose pages gave fewer
            distinct results than asked reads the next pages (:meth:`next_page`), at most
            ``max_pages`` (an option every such engine takes, :data:`~.option.MAX_PAGES_OPTION`);
            ``None``: one page is all it reads.
        fills_short_page: whether a call asking no more than a page holds reads the next page when
            the first gave fewer distinct results (best effort, :meth:`_read_more_pages`). False
            where a second request in a row risks a wall that cools the engine down for minutes
            (Baidu: most of its pages give 9 distinct results, and a captcha met filling one up
            took the engine from every call for 10 minutes): a call for more still reads them.
        max_results_limit: the most results its one request can give (Tavily's and Jina's 20)
            when it reads no next page; a call asking more is told (``not_sent``: ``max_results``).
        unsent: the common inputs (``locale``, ``safe_search``, ``site_filter``, ``time_range``)
            its request does not carry, as its request builder leaves them out: a name, or
            ``"time_range=year"`` for one value only (:mod:`.unsent`); a call that gives one
            is told in ``provider_meta["not_sent"]`` (:meth:`not_sent`).
        filters: the image or video filters its request carries (docs/verticals.md), as data:
            ``{"image_size": {"large": "size:Large", ...}}``, our value to the upstream's token
            (:meth:`filter_tokens`); a filter or value it lacks is reported in ``not_sent``.
    """

    name: ClassVar[str] = ""
    kind: ClassVar[str] = "html"
    summary: ClassVar[str] = ""
    default_endpoint: ClassVar[Optional[str]] = None
    provider_settings: ClassVar[tuple[Setting, ...]] = ()
    env_vars: ClassVar[dict[str, str]] = {}
    required: ClassVar[tuple[str, ...]] = ()
    min_interval_s: ClassVar[float] = 0.0
    options: ClassVar[tuple[Union[Option, str], ...]] = ()
    max_query_chars: ClassVar[Optional[int]] = None
    provides_content: ClassVar[bool] = False
    auto_rank: ClassVar[Optional[int]] = None
    auto_languages: ClassVar[tuple[str, ...]] = ()
    text_format: ClassVar[str] = "html"
    bot_walls: ClassVar[tuple[BotWall, ...]] = ()
    #: Request parameters whose value depends on the moment (a time limit from the deadline):
    #: ``record`` writes them as the placeholder, so that a replay accepts any value.
    volatile_params: ClassVar[tuple[str, ...]] = ()
    vertical: ClassVar[str] = "web"
    results_per_page: ClassVar[Optional[int]] = None
    fills_short_page: ClassVar[bool] = True
    max_results_limit: ClassVar[Optional[int]] = None
    #: The locale words (``validate.LOCALE_WORDS``: ``auto``) the service understands.
    locale_words: ClassVar[tuple[str, ...]] = ()
    unsent: ClassVar[tuple[str, ...]] = ()
    filters: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    #: The parameters this object's :meth:`check` last accepted, and its configuration then (:meth:`check_once`).
    _accepted: Optional[tuple[SearchParams, int]] = None

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.config: dict[str, Any] = settings.provider(self.name)

    def __repr__(self) -> str:
        return "<%s backend %r>" % (type(self).__name__, self.name)

    # -- configuration --------------------------------------------------------------------

    @classmethod
    def declared_settings(cls) -> tuple[Setting, ...]:
        """Every setting the backend reads: its ``provider_settings`` (with those of the
        older spelling ``env_vars``/``required``; the one declared by the more derived
        class wins), then ``timeout_ms`` unless it declares its own. Worked out once per
        class and declaration (every call checks its configuration with them)."""
        declaring = (cls.provider_settings, cls.env_vars, cls.required)
        known = _DECLARED.get(cls)
        if known is None or any(a is not b for a, b in zip(known[0], declaring)):
            known = _DECLARED[cls] = (declaring, cls._declared_settings())
        return known[1]

    @classmethod
    def _declared_settings(cls) -> tuple[Setting, ...]:
        own = cls.provider_settings
        legacy = from_env_vars(cls.env_vars, cls.required)
        if _declared_at(cls, "env_vars", "required") < _declared_at(cls, "provider_settings"):
            own, legacy = legacy, own
        declared = merged(legacy, own)
        names = {setting.name for setting in declared}
        return declared + tuple(setting for setting in COMMON_SETTINGS if setting.name not in names)

    @classmethod
    def declared_options(cls) -> tuple[Option, ...]:
        """The options it takes, each an :class:`Option` (a plain name in ``options``: kind ``any``),
        and ``max_pages`` (:data:`~.option.MAX_PAGES_OPTION`) when it reads next pages
        (``results_per_page``): a class declaring that name itself as well is refused at
        registration (:meth:`options_problem`), its bound on the pages read being this one."""
        own = declared(cls.options)
        return own if cls.results_per_page is None else own + (MAX_PAGES_OPTION,)

    @classmethod
    def options_problem(cls) -> Optional[str]:
        """What makes its declared options unusable (``None``: nothing): an option of its own named
        ``max_pages`` beside ``results_per_page``, which brings that option (1..8): its own (a
        default of ``None``, or 20) would bound the pages a call reads by something else."""
        if cls.results_per_page is not None and MAX_PAGES_OPTION.name in (o.name for o in declared(cls.options)):
            return "it declares an option max_pages, which results_per_page brings (1..%d): leave it out" % MAX_PAGES
        return None

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """The names of the options it takes."""
        return tuple(option.name for option in cls.declared_options())

    def option(self, params: SearchParams, name: str) -> Any:
        """The call's value of option ``name``: checked, typed, the declared default when the
        call gives none (``InvalidInput`` with the option's detail code, as :meth:`check_params`);
        ``KeyError`` when the backend declares no such option (a defect in the backend)."""
        for option in self.declared_options():
            if option.name == name:
                return option.value(params.options.get(name), self.name)
        raise KeyError(
            "backend %s reads option %r, which it does not declare (its options: %s): add Option(%r, ...) to its "
            "options" % (self.name, name, ", ".join(self.option_names()) or "none", name)
        )

    @classmethod
    def setting(cls, key: str) -> Setting:
        """The declared setting ``key`` (``KeyError`` when the backend declares none)."""
        for setting in cls.declared_settings():
            if setting.name == key:
                return setting
        raise KeyError(key)

    def setting_value(self, key: str) -> Any:
        """The value of setting ``key``: as set, else its declared default (``KeyError`` when
        the backend declares no such setting)."""
        value = self.config.get(key)
        return value if value is not None and value != "" else self.setting(key).default

    def endpoint_url(self) -> str:
        """The URL to send requests to: ``Settings.endpoints[name]`` (:meth:`overridden_endpoint`) or the default."""
        override = self.settings.endpoints.get(self.name)
        url = self.overridden_endpoint(override) if override else self.default_endpoint
        if not url:
            raise InvalidInput(
                "backend %s has no endpoint configured: set %s (a backend declares its own in default_endpoint)"
                % (self.name, self._endpoint_origin()),
                provider=self.name,
                detail_code=NOT_CONFIGURED,
            )
        return url

    def overridden_endpoint(self, override: str) -> str:
        """Where ``Settings.endpoints[name]`` sends this engine: there for the web engine (and an
        engine without an address of its own); a vertical engine with its own address keeps its
        path on the override's origin (the override of ``bing_html`` moves Bing News to the same host)."""
        if self.vertical == "web" or not self.default_endpoint:
            return override
        try:
            origin, own = urlsplit(override), urlsplit(self.default_endpoint)
        except ValueError:  # a malformed override: check_configured refuses it
            return override
        return urlunsplit((origin.scheme, origin.netloc, own.path, own.query, ""))

    def timeout_ms(self, explicit: Optional[int] = None) -> int:
        """The call's timeout: the explicit argument, else this backend's own setting, else the shared one."""
        return explicit or self.config.get("timeout_ms") or self.settings.timeout_ms

    def secrets(self) -> list[str]:
        """Secret values this backend holds (redacted from every message)."""
        return [str(v) for k, v in self.config.items() if v and is_secret_name(k) and isinstance(v, (str, int))]

    def missing_settings(self) -> list[str]:
        """Required provider settings that are not set."""
        return [s.name for s in self.declared_settings() if s.required and not self.config.get(s.name)]

    def is_configured(self) -> bool:
        """True when the backend has everything it needs to send a request."""
        return not self.missing_settings()

    def check_configured(self) -> None:
        """Raise before any request when a required setting is missing or the endpoint is unusable.

        A missing key is ``AuthError``; a missing URL is ``InvalidInput(not_configured)``;
        an endpoint that is not an http(s) URL with a host, whose host is no host name (:mod:`~..hostnames`),
        or that holds a control character (a tab or line break inside the value it is built from) is
        ``InvalidInput(bad_endpoint)``.
        """
        self._check_missing()
        endpoint = self.endpoint_url()
        fault = url_fault(endpoint)
        control = self._control_in_urls(endpoint)
        if fault is None and control is None:
            return
        origin = self._endpoint_origin()
        if origin == endpoint_setting(self.name) and not self.settings.endpoints.get(self.name):
            # nothing configured it: the class's own declaration (a plugin's default_endpoint), which no setting fixes
            origin = "%s's own default_endpoint, or its endpoint_url(); %s overrides it" % (type(self).__name__, origin)
        if control is not None:  # a URL parser drops a tab or line break (another host), or sends it encoded
            what = CONTROL_IN_SETTING % (control[1], control[0])
        elif fault != NOT_HTTP:  # no host name: refused here, never looked up (as fetch's)
            what = "the endpoint's host is not a valid host name (%s; check %s)" % (fault, origin)
        else:  # the URL itself is not shown: it may carry credentials
            what = "the endpoint is not an http(s) URL with a host (check %s)%s" % (origin, unusable_why(endpoint))
        raise InvalidInput("%s: %s" % (self.name, what), provider=self.name, detail_code=BAD_ENDPOINT)

    def _endpoint_origin(self) -> str:
        """Where the endpoint URL was set, in the terms of both ways to set it: the endpoint
        override, else the required URL setting it is built from (SearXNG's ``base_url``)."""
        if not self.settings.endpoints.get(self.name):
            for setting in self.declared_settings():
                if setting.required and setting.kind == "url" and self.config.get(setting.name):
                    python = "Settings.providers[%r][%r]" % (self.name, setting.name)
                    return settings_place("%s or %s" % (python, setting.env_or_key()), setting.env)
        return endpoint_setting(self.name)

    def _control_in_urls(self, endpoint: Any) -> Optional[tuple[str, str]]:
        """The first control character in a URL this backend is configured with (its endpoint
        override, a setting of kind ``url``) or in its ``endpoint``, and where that is set. Read as
        configured: building the endpoint (``urlsplit``) drops a tab or line break without a word."""
        found = control_in(self.settings.endpoints.get(self.name))
        if found:
            return found, endpoint_setting(self.name)
        for setting in self.declared_settings():
            found = control_in(self.config.get(setting.name)) if setting.kind == "url" else None
            if found:
                return found, setting.where(self.name)
        found = control_in(endpoint)  # a plugin's own making of it
        return (found, self._endpoint_origin()) if found else None

    def _check_missing(self) -> None:
        for key in self.missing_settings():
            var = self.setting(key).env_or_key()
            what = "needs an API key" if is_secret_name(key) else "is not configured"
            python = "%s (or Settings.providers[%r][%r])" % (var, self.name, key)
            where = (
                self._unread_variable(self.setting(key))
                or self._blank_variable(self.setting(key))
                or "set " + settings_place(python, self.setting(key).env)
            )
            if is_secret_name(key):
                raise AuthError("%s %s: %s" % (self.name, what, where), provider=self.name, detail_code=MISSING_API_KEY)
            raise InvalidInput("%s %s: %s" % (self.name, what, where), provider=self.name, detail_code=NOT_CONFIGURED)

    def _blank_variable(self, setting: Setting) -> str:
        """What to do when the setting's variable, read by these settings, is set to white space alone (an
        ``.env`` line ``DEMO_API_KEY=`` with a stray space, a key file read empty): "set DEMO_API_KEY" told a
        user who had set it to set it. ``""`` otherwise."""
        value = os.environ.get(setting.env) if setting.env is not None and self.settings.from_environment else None
        if value is None or value.strip():
            return ""
        said = "is set but empty" if not value else "holds white space alone"
        return "%s %s: give it the %s" % (setting.env, said, "key" if is_secret_name(setting.name) else "value")

    def _unread_variable(self, setting: Setting) -> str:
        """What to do when the setting's variable is set in this process's environment, but the settings
        were built in code (``Settings(timeout_ms=5000)``), which read no variable: "set BRAVE_API_KEY"
        told a user who had set it to set it. ``""`` otherwise."""
        if setting.env is None or self.settings.from_environment or not os.environ.get(setting.env, "").strip():
            return ""
        return (
            "%s is set in the environment, but Settings built in code read no variable: build them with"
            " Settings.from_env(...) (its keywords override the environment), or give Settings.providers[%r][%r]"
            % (setting.env, self.name, setting.name)
        )

    def check(self, params: SearchParams) -> None:
        """Refuse, before any request, a call this backend cannot send: its configuration
        (:meth:`check_configured`), then its parameters (:meth:`check_params`).

        Pure (no I/O, no state): the client runs it before it books a rate-limit slot, checks
        a cool-down or touches the shared state, so a refused call costs no pace. A backend
        whose ``search`` needs no endpoint (an offline one) overrides it.
        """
        self.check_configured()
        self.check_params(params)

    def check_once(self, params: SearchParams) -> None:
        """:meth:`check`, unless this object accepted these parameters last time, or a copy of them
        with the same options object (``now`` aside, as in their equality; no option value is
        compared), with the same configuration: the client checks a call before it books a slot and
        the search checks it again, with the same backend object and the same call (``check`` is pure)."""
        accepted = self._accepted
        if (
            accepted is not None
            and (accepted[0] is params or (accepted[0].options is params.options and accepted[0] == params))
            and accepted[1] == self._configuration()
        ):
            return
        self.check(params)
        self._accepted = (params, self._configuration())

    def _configuration(self) -> int:
        """What :meth:`check` reads besides the call, as a hash: ``config`` (nested values too) and the
        endpoint override. A hand edit of either between two calls with equal parameters (a key removed,
        a new endpoint) is checked again, not taken for accepted (a hash: no second copy of the key)."""
        return hash(repr((self.config, self.settings.endpoints.get(self.name))))

    def _check_locale_word(self, params: SearchParams) -> None:
        """Refuse ``locale="auto"`` (a word, no language tag: the service picks the language itself, as
        SearXNG's ``auto`` does, from ``Accept-Language`` on a current instance, from the query's
        words on one older than March 2026) unless the backend declares it."""
        word = (params.locale or "").lower()
        if word in LOCALE_WORDS and word not in self.locale_words:
            raise InvalidInput(
                "locale=%r asks the service to pick the language itself, which %s cannot do; give a language "
                "tag such as en or de-DE" % (params.locale, self.name),
                provider=self.name,
                detail_code=BAD_LOCALE,
            )

    def check_params(self, params: SearchParams) -> None:
        """Refuse parameters the service would refuse (before any request): a vertical it does
        not search, a locale word it has not (``auto``: :attr:`locale_words`), a query too long,
        a value one of its :attr:`options` refuses."""
        if params.vertical != self.vertical:  # the client picks the engine by vertical: a guard for direct calls
            raise InvalidInput(
                "%s's %s engine does not search %s" % (self.name, self.vertical, params.vertical),
                provider=self.name,
                detail_code=UNSUPPORTED_VERTICAL,
            )
        self._check_locale_word(params)
        if self.max_query_chars is not None and len(params.full_query) >= self.max_query_chars:
            raise InvalidInput(
                "%s accepts queries shorter than %d characters (got %d)"
                % (self.name, self.max_query_chars, len(params.full_query)),
                provider=self.name,
                detail_code=QUERY_TOO_LONG,
            )
        read_options(self.name, self.declared_options(), params.options)

    def not_sent(self, params: SearchParams) -> list[str]:
        """The inputs the call gave that this engine's request does not carry, sorted
        (``provider_meta["not_sent"]``): the common ones :attr:`unsent` declares and :meth:`dropped`
        names, the backend options it does not take (another backend of the call does), and
        ``max_results`` when the call asks more than :attr:`max_results_limit`."""
        common = unsent_inputs(self.unsent + self.dropped(params) + self._script_dropped(params), params)
        limit = self.max_results_limit
        capped = ["max_results"] if limit is not None and params.max_results > limit else []
        untaken = untaken_options(params.options, self.option_names())
        return sorted(common + capped + untaken + unsent_filters(self.filters, params.filters))

    def filter_tokens(self, params: SearchParams) -> dict[str, str]:
        """The upstream token of each filter the call gave that this engine sends (:attr:`filters`):
        ``{"image_size": "size:Large"}``; the others are in :meth:`not_sent`."""
        tokens = {name: self.filters.get(name, {}).get(value) for name, value in params.filters.items()}
        return {name: token for name, token in tokens.items() if token is not None}

    def dropped(self, params: SearchParams) -> tuple[str, ...]:
        """The inputs the request goes without for these values only (default none): an engine that
        sends a locale only when the service lists its region or language (Brave, Tavily, Jina)
        names ``"locale"`` when it lists neither."""
        return ()

    def said_locale(self, params: SearchParams) -> Optional[str]:
        """The language tag the request says the call's locale in (``params.locale`` is set), read
        for the script it implies (:func:`~.unsent.script_unsent`: ``locale.script`` is reported
        when the service reads another script than the locale's). By default the locale's language
        and country, the script dropped, or the language alone, as :attr:`unsent` declares
        (:func:`~.unsent.said_as_declared`: ``sr-Latn`` is said as ``sr``, Cyrillic Serbian); an
        engine that says the locale otherwise (a table of its own, a script subtag: ``zh-hant``)
        returns the tag it sends, and one whose request says any script ``None``."""
        return said_as_declared(params.locale or "", self.unsent)

    def _script_dropped(self, params: SearchParams) -> tuple[str, ...]:
        """``("locale.script",)`` when the call's locale names a script the request does not say
        (:meth:`said_locale`), for :meth:`not_sent`."""
        return script_unsent(params.locale, self.said_locale(params)) if params.locale else ()

    # -- the pure parts a backend implements ------------------------------------------------

    def build_request(self, params: SearchParams) -> RequestSpec:
        """The request for ``params`` (pure: no I/O)."""
        raise NotImplementedError

    def fit_request(self, spec: RequestSpec, deadline: Deadline) -> RequestSpec:
        """The request adjusted to the call's deadline (pure; default: unchanged). A service
        that takes a time limit of its own (SearXNG's ``timeout_limit``) is told it here."""
        return spec

    def continue_request(self, response: HttpResponse, params: SearchParams, step: int) -> Optional[RequestSpec]:
        """The request the answer to request ``step`` (1: the first) leads to before there are
        results to read, or ``None`` when ``response`` holds the results (pure; default ``None``). A flow of several requests
        declares its later steps here: DuckDuckGo's verticals read the ``vqd`` token of the
        search page, then ask the JSON endpoint with it. When the answer lacks what the next
        request needs it raises the error the answer means (:meth:`answer_error`: a bot wall,
        an error status), else ``WebParseError``."""
        return None

    def next_page(self, params: SearchParams, page: "Page") -> Optional[RequestSpec]:
        """The request for result page ``page.number`` (2, 3 ...), or ``None`` when there is no
        next page (pure). ``page`` holds the previous page's answer and what was read from it,
        and how many results the pages before gave.

        The default asks a backend that takes the ``pageno`` option for the page after the
        call's own (``pageno`` counts from the call's, 1 when unset); an engine counting
        results instead of pages uses ``page.read``; one whose next page hangs on the previous
        one (DuckDuckGo's "Next" form) reads it from ``page.previous``. Only called when
        ``results_per_page`` is declared, the pages read gave fewer distinct results than the
        call asks for, and the call's ``max_pages`` allows another.
        """
        if PAGENO.name not in self.option_names():
            return None
        first = page_number(params, self.name)
        options = dict(params.options, pageno=first + page.number - 1)
        return self.build_request(dataclasses.replace(params, options=options))

    def upstream_key(self) -> str:
        """What is paced and cooled down as one (the rate-limited unit): this backend at its
        endpoint's host (:func:`upstream_key`). Its rate-limit slots and its cool-downs are
        kept under this key, in the process and in the shared state."""
        return upstream_key(self.name, self.configured_base())

    def configured_base(self) -> Optional[str]:
        """The endpoint the settings give this backend instead of its default (``None``: the
        default), as far as it names the service (a JSON API's base URL, not its path)."""
        return self.settings.endpoints.get(self.name) or None

    def cooldown_keys(self, params: SearchParams) -> tuple[str, ...]:
        """The cool-down keys whose suspension stops a call with ``params`` (default: the
        backend at its endpoint, :meth:`upstream_key`). A meta-engine adds a narrower key for
        the engines the call asks for, spelt ``<upstream key>[<part>]`` (the cool-down's error names
        the backend before the ``@`` or ``[``)."""
        return (self.upstream_key(),)

    def cooldown_key(self, params: SearchParams, error: WebBlocked) -> str:
        """The key a block met by a call with ``params`` is recorded under: one of
        :meth:`cooldown_keys` (default: the backend at its endpoint, i.e. all of it)."""
        return self.upstream_key()

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """An error recognised in the response (bot wall, vendor error envelope), or ``None``.

        Runs before the generic status mapping, so a captcha page served with
        HTTP 200 is still a block.
        """
        return None

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Raw items from a successful response (pure). Raises ``WebParseError``
        when the body is not recognisable; returns no items only for a page that
        really says "no results"."""
        raise NotImplementedError

    @classmethod
    def reading_problem(cls) -> Optional[str]:
        """What makes the class's declared reading of answers unusable (``None``: nothing, or it
        declares none: a JSON API's ``result_fields`` are checked by its own)."""
        return None

    @classmethod
    def reader_problem(cls) -> Optional[str]:
        """What the class lacks to read an answer (``None``: nothing): a ``parse`` of its own (a
        misnamed ``parse_response`` would be a ``NotImplementedError`` at its first search). A class
        declaring where a JSON answer lists its results on the wrong base is told which base reads that."""
        if cls.parse is Backend.parse and cls.interpret is Backend.interpret:
            declared = [name for name in _JSON_READING if hasattr(cls, name)]
            hint = " (%s: read by JsonApiEngine, derive from it)" % ", ".join(declared) if declared else ""
            return "it does not implement parse(response, params)" + hint
        return None

    def structure_report(self, response: HttpResponse, params: Optional[SearchParams] = None) -> dict[str, bool]:
        """Which parts of the page structure this parser relies on were found:
        ``{check_name: found}``, all true when the page still looks as the parser knows it.

        ``websearch-sync check-live`` shows it to notice drift. The default has one
        check, ``recognised``: the response is no error (bot wall, vendor envelope,
        HTTP status) and :meth:`parse` accepts it. HTML backends override it with
        their own landmarks (e.g. ``results_container``, ``result_links``).
        """
        if self.answer_error(response) is not None:
            return {"recognised": False}
        try:
            self.parse(response, params or SearchParams(query="structure check", max_results=10))
        except (WebSearchError, ValueError, KeyError, TypeError, IndexError, AttributeError):
            return {"recognised": False}
        return {"recognised": True}

    # -- the shared path ------------------------------------------------------------------

    def search(self, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
        """Check configuration, send the request, classify and parse the answer, all within ``deadline``.

        A flow of several requests (:meth:`continue_request`) sends its later steps, and a
        call whose pages gave fewer distinct results than asked reads the next pages
        (:meth:`next_page`), each at the call's pace (:mod:`.pace`) and within ``deadline``;
        a failed later page leaves the pages read before it, its error in ``errors`` (a page
        that only fills up a short one, when the call asks no more than a page holds: best
        effort, ``page_not_read``, :meth:`_read_more_pages`).

        Parsing ends at the deadline (:meth:`_within`): a page of tens of thousands of
        results (still under the byte cap) takes seconds to parse, and the parsers'
        checkpoints stop an abandoned parse instead of letting it run on.
        """
        self.check_once(params)
        first = self._within(deadline, None, partial(self.build_request, params), "building")
        sent = self._made(first, "build_request")  # the request each page answered: its next page's base
        response = self._send(sent, transport, deadline)
        for step in range(1, MAX_STEPS + 1 if self._has_steps() else 1):
            follow = self._within(deadline, response, partial(self.continue_request, response, params, step), "reading")
            if follow is None:
                break
            before_next_request()
            sent = self._made(follow, "continue_request")
            response = self._send(sent, transport, deadline)
        parsed = self._parse(response, params, deadline)
        if not isinstance(parsed, ParseResult):  # a plugin's defect: the client's shape check names it
            return parsed
        parsed.answered_at = parsed.answered_at or answered_at(response, params)
        if self.results_per_page is not None and _pageable(parsed):  # else the client's shape check names it
            if params.max_results > self.results_per_page:  # more than a page holds: how many pages is told
                parsed.pages = 1
            self._read_more_pages(params, transport, deadline, (sent, response), parsed)
        return _without_secrets(parsed, self.secrets())

    def revise_cached(self, params: SearchParams, errors: list[ErrorInfo]) -> list[ErrorInfo]:
        """The ``errors`` of an answer to ``params`` read from the cache, brought up to date with
        what the backend learnt since it was cached: a note of its own that said something was not
        known yet (SearXNG's time range unverified before its ``/config`` was read). By default
        as they are: a cached answer holds what its backend answered. Only a class that overrides it
        is built for a cache hit; what it raises, or returns that is not a list of notes
        (``to_dict()`` form), is its defect (``WebProviderError``, as for :meth:`search`)."""
        return errors

    def _read_more_pages(
        self,
        params: SearchParams,
        transport: HttpTransport,
        deadline: Deadline,
        answered: tuple[RequestSpec, HttpResponse],
        parsed: ParseResult,
    ) -> None:
        """Add the items of the next pages to ``parsed`` (``answered``: the first page's request and
        answer) until there are ``max_results`` distinct ones, the call's ``max_pages`` are read, a
        page (the first too) brings none (repeats and items without an address are none), there is
        no next page (or its request is the one just sent: method, URL, query, form and JSON body
        alike, :func:`same_request`; it is not sent) or one fails (its error goes to ``errors``, its message saying which page and
        which pages the results are from; ``partial`` is set: the pages read stand). A later page's error of a kind the pages before gave already (SearXNG's
        engine that failed page 1, "Suspended" when asked again for page 2) is said once, in the
        first page's words. ``parsed.pages`` is the pages read once a next page was asked for (1 when it failed).

        When the call asks no more than a page holds, a next page only fills up a short one: best
        effort. One that gets no rate-limit slot within the budget (a pace near the deadline) or
        fails leaves the answer whole, neither partial nor in error (it is cached), its reason in
        ``parsed.page_not_read``: else a user's pace would turn every short page into a failure."""
        sent, response = answered
        seen: set[str] = set()
        fresh = _new_results(parsed.items, seen, self.vertical)
        page_result = parsed
        pages = 1
        read = len(parsed.items)
        given = params.options.get(MAX_PAGES_OPTION.name) is not None
        most = self.option(params, MAX_PAGES_OPTION.name) if given else self.settings.max_pages
        if not self.fills_short_page and params.max_results <= (self.results_per_page or 0):
            most = 1  # a short page stays short: no request in a row for it
        while pages < most and len(seen) < params.max_results and fresh:
            following = partial(self.next_page, params, Page(pages + 1, read, response, page_result, sent))
            try:
                repeated = partial(self._paging_repeated, params, parsed, pages)
                spec = self._next_request(deadline, response, following, sent, repeated)
                if spec is None:
                    break
                sent = spec
                before_next_request()
                response = self._send(sent, transport, deadline)
                page_result = self._parse(response, params, deadline)
                if not _pageable(page_result):
                    raise WebProviderError(
                        "backend %s's parse returned a page of the wrong shape (a ParseResult whose items and "
                        "errors are lists, the items dicts)" % self.name,
                        provider=self.name,
                        detail_code=BAD_PARSE_RESULT,
                    )
            except WebSearchError as error:
                later_request_failed(error)  # a block still starts the cool-down
                self._page_failed(params, parsed, error, pages)
                break
            pages += 1
            parsed.pages = pages
            read += len(page_result.items)
            fresh = _new_results(page_result.items, seen, self.vertical)
            parsed.items.extend(fresh)
            said = {_error_kind(error) for error in parsed.errors}
            parsed.errors.extend(error for error in page_result.errors if _error_kind(error) not in said)
            parsed.partial = parsed.partial or page_result.partial  # a page without some of its results

    def _next_request(
        self,
        deadline: Deadline,
        response: HttpResponse,
        following: Callable[[], Optional[RequestSpec]],
        sent: RequestSpec,
        repeated: Callable[[], None],
    ) -> Optional[RequestSpec]:
        """The next page's request as ``following`` (:meth:`next_page`) makes it, or ``None``: no next
        page, or one whose request is ``sent``, the one just made (a page whose "next" repeats it:
        :func:`same_request`), which would bring that page again: not sent, but said (``repeated``,
        :meth:`_paging_repeated`). A "next" link that is no URL is that page's failure; read within
        the deadline, as parsing (a page's forms are read whole: a page of very many takes its time)."""
        spec = self._within(deadline, response, partial(self._read_answer, response, following), "reading")
        if spec is None:
            return None
        made = self._made(spec, "next_page")
        if same_request(made, sent):
            repeated()
            return None
        return made

    def _paging_repeated(self, params: SearchParams, parsed: ParseResult, pages: int) -> None:
        """Say in ``parsed`` that the "next" of page ``pages`` asks for that page again, so paging
        stopped (:meth:`_read_more_pages`): a fill-up page's note in ``page_not_read`` (the answer
        stands whole), else a warning in ``errors``, ``next_page_repeated``: the call asked for more
        results than the pages read gave, and would otherwise not learn why it got fewer."""
        shown = "page 1" if pages == 1 else "pages 1-%d" % pages
        why = "the next page of page %d asks for page %d again (the request that brought it), so paging stopped" % (
            pages,
            pages,
        )
        said = "page %d was not read (the results are those of %s): %s" % (pages + 1, shown, why)
        if params.max_results <= (self.results_per_page or 0):
            parsed.page_not_read = said
            return
        parsed.errors.append(WebProviderError(said, provider=self.name, detail_code=NEXT_PAGE_REPEATED).to_dict())

    def _page_failed(self, params: SearchParams, parsed: ParseResult, error: WebSearchError, pages: int) -> None:
        """Say in ``parsed`` that page ``pages + 1`` failed with ``error`` (:meth:`_read_more_pages`):
        a fill-up page in ``page_not_read``, else in ``errors`` (``partial``). The failures it carries
        (a meta-engine's engines that failed that page: SearXNG's "no results" naming them) that the
        pages before gave already are left out of its ``errors``, said once, as a page's own are."""
        shown = "page 1" if pages == 1 else "pages 1-%d" % pages
        parsed.pages = pages
        if params.max_results <= (self.results_per_page or 0):  # a fill-up page: best effort
            parsed.page_not_read = "page %d was not read (the results are those of %s): %s" % (
                pages + 1,
                shown,
                error.message,
            )
            return
        failure = error.to_dict()  # the error stays as met: a cool-down keeps its words
        failure["message"] = "page %d (the results are those of %s): %s" % (pages + 1, shown, error.message)
        failure["page"] = pages + 1
        said = {_error_kind(said) for said in parsed.errors}
        carried = failure.pop("errors", [])
        new = [one for one in carried if _error_kind(one) not in said]
        if new:
            failure["errors"] = new
        elif carried:  # every failure it carries was said: it points to them
            failure["message"] += " (as on %s: the failures above)" % shown
        parsed.errors.append(failure)
        parsed.partial = True

    def _made(self, spec: RequestSpec, method: str) -> RequestSpec:
        """``spec`` as this backend's ``method`` returned it (:func:`made_request`)."""
        return made_request(spec, self.name, method)

    def _send(self, spec: RequestSpec, transport: HttpTransport, deadline: Deadline) -> HttpResponse:
        """One request of the search, fitted to the deadline (a web page as a browser asks for it)."""
        spec = self.fit_request(spec, deadline)
        if self.kind == "html" and not spec.browser:  # a web page a browser would ask for: the browser wire
            spec = dataclasses.replace(spec, browser=True)
        try:
            return transport.send(
                spec,
                deadline=deadline,
                provider=self.name,
                max_bytes=self.settings.max_response_bytes,
                secrets=self.secrets(),
            )
        except WebProviderError as error:
            if error.detail_code == RESPONSE_TOO_LARGE:  # name the setting that raises the cap
                error.message += " (the cap is WEB_SEARCH_MAX_BYTES, Settings.max_response_bytes)"
            raise

    def _parse(self, response: HttpResponse, params: SearchParams, deadline: Deadline) -> ParseResult:
        """:meth:`interpret` within the deadline."""
        return self._within(deadline, response, lambda: self.interpret(response, params), "parsing")

    @classmethod
    def _has_steps(cls) -> bool:
        """True when the engine declares later requests (:meth:`continue_request`)."""
        return cls.continue_request is not Backend.continue_request

    def _within(self, deadline: Deadline, response: Optional[HttpResponse], work: Callable[[], T], doing: str) -> T:
        """``work()`` (reading ``response``; ``None``: building the request) within the
        deadline: ``Timeout`` once it passes.

        A small answer read (or a request built) by an engine of this package is read in the
        calling thread (its parsers stop at their checkpoints once the deadline has passed);
        anything else in a thread abandoned at the deadline
        (:func:`~websearch_sync.net.deadline.run_within`), so that a plugin's parser without
        checkpoints, or its slow ``build_request``, cannot hold the call past it."""
        size = len(response.content) if response is not None else 0
        inline = size <= INLINE_MAX_BYTES and type(self).__module__.startswith(_OWN_MODULES)
        try:
            return run_within(deadline, work, name="websearch-parse", inline=inline)
        except DeadlinePassed:
            what = "%s the answer (%d bytes)" % (doing, size) if response is not None else doing + " the request"
            raise Timeout(
                "%s: %s did not finish within the %.0f ms deadline" % (self.name, what, deadline.timeout_ms),
                provider=self.name,
                detail_code=DEADLINE_EXCEEDED,
                status=response.status if response is not None else None,
            ) from None

    def answer_error(self, response: HttpResponse) -> Optional[WebSearchError]:
        """The error an answer means (:meth:`classify`, then its HTTP status), or ``None``; a
        ``classify`` returning anything else (a plugin's ``"blocked"``) is ``WebProviderError(bad_parse_result)``."""
        classified = self.classify(response)
        if classified is not None and not isinstance(classified, WebSearchError):
            raise WebProviderError(
                "backend %s's classify returned a %s, not a WebSearchError or None"
                % (self.name, type(classified).__name__),
                provider=self.name,
                detail_code=BAD_PARSE_RESULT,
            )
        return classified or status_error(response, self.name)

    def interpret(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Turn a response into a parse result or the error it means. Results read with none
        holding an address normalisation keeps (:func:`~.identity.has_address`: a link read wrong,
        a relative one, a page whose links moved, a title a URL is built from renamed) are
        ``WebParseError``: normalisation would drop them all, and the answer would read "no results",
        cached as a success. Items without a ``url`` key are left to :func:`registry.checked_result`,
        which names the defect."""
        error = self.answer_error(response)
        if error is not None:
            raise error
        result = self._read_answer(response, lambda: self.parse(response, params))
        items = result.items if isinstance(result, ParseResult) and isinstance(result.items, list) else []
        readable = all(isinstance(item, dict) and "url" in item for item in items)
        if items and readable and not any(has_address(item, params.vertical) for item in items):
            raise WebParseError(
                "%s read %d result(s) from its answer, none with a usable address (an http(s) URL; an unknown "
                "shape, not 'no results')" % (self.name, len(items)),
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
                status=response.status,
            )
        return result

    def _read_answer(self, response: HttpResponse, read: Callable[[], T]) -> T:
        """``read()``, which reads ``response`` (its items, its next page): what a body of an
        unexpected shape makes it raise (``KeyError``, ``ValueError`` ...) is ``WebParseError``."""
        try:
            return read()
        except WebSearchError:
            raise
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raised = raised_at(exc, plugin_package(type(self)))  # a plugin's reader: where, as it may be its own slip
            raise WebParseError(
                "%s answered with a body of an unknown shape (%s%s: %s)" % (self.name, type(exc).__name__, raised, exc),
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
                status=response.status,
            ) from exc


#: What a JSON API's engine declares to have its answers read for it (``JsonApiEngine``).
_JSON_READING = ("results_at", "result_fields", "request_id_at")
#: Engines whose parsers stop at checkpoints: the ones of this package (:meth:`Backend._within`).
_OWN_MODULES = "websearch_sync."


def made_request(spec: object, backend: str, method: str) -> RequestSpec:
    """``spec`` as backend ``backend``'s ``method`` returned it, when it is a :class:`RequestSpec`:
    a plugin's dict (or tuple) is ``WebProviderError(bad_parse_result)`` naming the method, not an
    ``AttributeError`` of the library's sending code (an "internal error" that said nothing of the
    plugin's). The one check of a search's requests and of the conformance kit's request check."""
    if not isinstance(spec, RequestSpec):
        raise WebProviderError(
            "backend %s's %s returned a %s, not a RequestSpec" % (backend, method, type(spec).__name__),
            provider=backend,
            detail_code=BAD_PARSE_RESULT,
        )
    try:
        parts = urlsplit(spec.url.lstrip())
    except ValueError:  # 'http://[::1/v1/search': an address not closed, which requests could not send either
        parts = None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.netloc:  # '/v1/search'
        raise WebProviderError(
            "backend %s's %s returned a request for %r, not an http(s) URL with a host (build it on "
            "self.endpoint_url(), which the endpoint settings override)" % (backend, method, shown_url(spec.url)),
            provider=backend,
            detail_code=BAD_PARSE_RESULT,
        )
    return spec


def _pageable(result: object) -> bool:
    """Whether ``result`` is a page whose items the next pages are read after: a :class:`ParseResult`
    whose items (dicts) and errors are lists. A first page of another shape is left to the client's
    shape check (``bad_parse_result``, naming what is wrong); a later one is that page's failure."""
    return (
        isinstance(result, ParseResult)
        and isinstance(result.items, list)
        and isinstance(result.errors, list)
        and all(isinstance(item, dict) for item in result.items)
    )


def _error_kind(error: object) -> object:
    """What makes a page's error the same as another page's: its type, detail code, provider and
    engine (a meta-engine's engine failing each page in other words: "CAPTCHA", then "Suspended:
    CAPTCHA"); one naming no engine (a warning on the whole page) by its words too, as two
    warnings of one code say different things (SearXNG's engines, then its categories,
    overridden). An error of another shape is its own kind."""
    if not isinstance(error, dict):
        return id(error)
    kind = tuple(repr(error.get(key)) for key in ("type", "detail_code", "provider", "engine"))
    return kind if error.get("engine") is not None else kind + (repr(error.get("message")),)


def _new_results(items: list[dict[str, Any]], seen: set[str], vertical: str) -> list[dict[str, Any]]:
    """The items of ``items`` that are results not in ``seen`` (which takes them in): an item
    without an address (:func:`~.identity.identity`) is no result, normalisation drops it."""
    found = [(item, identity(item, vertical)) for item in items]
    fresh = [item for item, known in found if known is not None and known not in seen]
    seen.update(known for _, known in found if known is not None)
    return fresh


@lru_cache(maxsize=256)  # a pure function of two strings, asked twice per call
def upstream_key(name: str, configured_base: Optional[str]) -> str:
    """The key of backend ``name``'s pace and cool-downs: the name at its default endpoint;
    ``<name>@<host[:port]>`` at a configured one (``configured_base``), so two SearXNG
    instances or two gateways never share a pace or a cool-down, while the paths of one host
    do (one server, one limiter)."""
    try:
        parts = urlsplit(configured_base or "")
        host, port = (parts.hostname or "").lower(), parts.port
    except ValueError:  # refused before sending anyway (check_configured)
        host, port = "", None
    if not host:
        return name
    return "%s@%s" % (name, host if port is None else "%s:%d" % (host, port))


def answered_at(response: HttpResponse, params: SearchParams) -> datetime.datetime:
    """When the service answered: its ``Date`` header (UTC), else when the search was asked for."""
    return http_date(response.headers.get("Date") or "") or params.now


#: By class: its declarations (``provider_settings``, ``env_vars``, ``required``) and the settings
#: made of them (:meth:`Backend.declared_settings`); made again when a declaration is replaced.
_DECLARED: "weakref.WeakKeyDictionary[type, tuple[tuple[Any, ...], tuple[Setting, ...]]]" = weakref.WeakKeyDictionary()


def _declared_at(cls: type, *attributes: str) -> int:
    """How far up ``cls``'s MRO the nearest class declaring one of ``attributes`` is (0: ``cls`` itself)."""
    return next(i for i, owner in enumerate(cls.__mro__) if any(a in vars(owner) for a in attributes))


def _without_secrets(result: ParseResult, secrets: list[str]) -> ParseResult:
    """``result`` with our secrets removed from the items' text, the request id and the texts of
    ``extras``: a service that echoes the request into its answer (the key in a header dump, as the
    id it gives the request, or in an answer or suggestion SearXNG passes on) must not show the key."""
    if secrets:
        # items of another shape (not dicts, or not a list) are left to the client's shape check, which names them
        for item in result.items if isinstance(result.items, list) else ():
            for name, value in item.items() if isinstance(item, dict) else ():
                if isinstance(value, str):
                    item[name] = redact(value, secrets)
        if isinstance(result.request_id, str):
            result.request_id = redact(result.request_id, secrets)
        if isinstance(result.extras, dict):  # a plugin's other type is refused by the client's shape check
            # down to the nesting the client's shape check takes (deeper values are refused there)
            result.extras = redacted_value(result.extras, secrets, MAX_RESULT_NESTING)
    return result


def json_body(response: HttpResponse, provider: str) -> Any:
    """The response parsed as JSON, or ``WebParseError`` naming what came instead."""
    try:
        return response.json()
    except ValueError as error:
        raise WebParseError(
            "%s answered with %s" % (provider, _not_json(response, error)),
            provider=provider,
            detail_code=NOT_JSON,
            status=response.status,
        ) from None


def _not_json(response: HttpResponse, error: ValueError) -> str:
    """What came instead of JSON, in words the library chose: the server's Content-Type only as a
    well-formed media type, else in :func:`~..net.media.served_as`'s words (``content of an unknown
    type (*/*)``, ``content without a type``; an error line reaches a model)."""
    if isinstance(error, JsonTooDeep):  # JSON, or its start, too deep to read: not "cut short or malformed"
        return "%s, which is not read" % error
    if not response.content.strip():
        return "an empty body instead of JSON"
    media = response.content_type
    if media_kind(media) == "json":
        return "JSON that does not parse (cut short or malformed)"
    return "%s instead of JSON" % served_as(media)


def json_path(path: Union[str, Sequence[str]]) -> tuple[str, ...]:
    """``path`` as a tuple of keys: a str is one key (``"hits"``, not ``h``, ``i``, ``t``, ``s``:
    read letter by letter, a plugin's own slip was reported as the vendor's answer without ``'h'``)."""
    return (path,) if isinstance(path, str) else tuple(path)


def dig(data: Any, path: Union[str, Sequence[str]], provider: str) -> Any:
    """``data[path[0]][path[1]]...`` (a str ``path``: one key) or ``WebParseError`` naming the missing key."""
    path = json_path(path)
    current = data
    for i, key in enumerate(path):
        if not isinstance(current, Mapping) or key not in current:
            dotted = "; a path is a sequence of keys: %r" % (tuple(key.split(".")),) if "." in key else ""
            raise WebParseError(
                "%s answered without %r in its JSON (what is there: %s%s)"
                % (provider, ".".join(path[: i + 1]), json_shape(current), dotted),
                provider=provider,
                detail_code=UNEXPECTED_SHAPE,
            )
        current = current[key]
    return current


#: The most keys of an object an error message names (:func:`json_shape`), and their most characters.
_SHOWN_KEYS = 12
_SHOWN_KEYS_CHARS = 200
#: A vendor's key an error message quotes: a well-formed token (an error line may reach a model:
#: a key of newlines or instructions is described, never quoted). No backtracking: at most 41 characters read.
_SHOWN_KEY = re.compile(r"[\w.$@-]{1,40}", re.ASCII)
_OTHER_KEY = "a key of other characters"
_JSON_KINDS = {
    type(None): "null",
    bool: "a boolean",
    str: "a string",
    list: "a list",
    int: "a number",
    float: "a number",
}


def json_shape(value: Any) -> str:
    """A JSON value described for an error message that helps fix a path or a field name: an
    object by its keys (the first :data:`_SHOWN_KEYS`, within :data:`_SHOWN_KEYS_CHARS`; a key
    that is no :data:`_SHOWN_KEY` token is "a key of other characters"), anything else by its kind."""
    if isinstance(value, Mapping):
        if not value:
            return "an empty object"
        keys: list[str] = []
        for key in islice(value, _SHOWN_KEYS):
            shown = key if isinstance(key, str) and _SHOWN_KEY.fullmatch(key) else _OTHER_KEY
            if sum(map(len, keys)) + len(shown) > _SHOWN_KEYS_CHARS:
                break
            keys.append(shown)
        more = ", ..." if len(keys) < len(value) else ""
        return "an object with keys %s%s" % (", ".join(keys), more)
    return _JSON_KINDS.get(type(value), type(value).__name__)


def listed_results(
    items: list[dict[str, Any]], vertical: str, provider: str, listed: Optional[int] = None
) -> list[dict[str, Any]]:
    """``items``, read from the list of results an answer holds (``listed`` entries, default as
    many as ``items``: entries that are no JSON object give none); ``WebParseError`` when it lists
    results none of which has what a result of ``vertical`` is known by (its URL, an image's
    image: :func:`~.identity.identity`). That is a renamed field, an answer of a shape not known,
    not an answer without results (which would read as "no results", and be cached). An item
    without a ``url`` (a reader leaving an absent field out: ``present()``) is left out, as the
    normalisation leaves out one whose ``url`` is none: not the whole answer taken for a defect."""
    listed = len(items) if listed is None else listed
    kept = [item for item in items if "url" in item]
    if listed and all(identity(item, vertical) is None for item in kept):
        raise WebParseError(
            "%s answered with %s, none with the address a result needs (an unknown shape)"
            % (provider, counted(listed, "%s result" % vertical)),
            provider=provider,
            detail_code=UNEXPECTED_SHAPE,
        )
    return kept


#: What a service told how long it may take (SearXNG's ``timeout_limit``, Jina's ``X-Timeout``) leaves
#: of the call's remaining time for the round trip and our parsing: a fixed part plus a share of it.
ANSWER_MARGIN_S = 0.25
ANSWER_MARGIN_SHARE = 0.15


def answer_within_s(deadline: Deadline) -> float:
    """How long a service that takes a time limit may take and still be read within ``deadline``:
    what is left of it minus :data:`ANSWER_MARGIN_S` and :data:`ANSWER_MARGIN_SHARE` of it."""
    left = deadline.remaining_s()
    return left - ANSWER_MARGIN_S - ANSWER_MARGIN_SHARE * left


def _pairs(values: Any) -> list[tuple[str, str]]:
    """A request's query or form fields as sorted ``(name, value)`` strings (a mapping or pairs)."""
    if values is None:
        return []
    items = values.items() if isinstance(values, Mapping) else values
    return sorted((str(name), str(value)) for name, value in items)


def same_request(following: RequestSpec, sent: RequestSpec) -> bool:
    """Whether ``following`` asks what ``sent`` asked: the same method, URL, query, form fields and
    JSON body (headers aside: a page's own Referer or cookies do not make another page)."""
    return (
        following.method.upper() == sent.method.upper()
        and following.url == sent.url
        and _pairs(following.params) == _pairs(sent.params)
        and _pairs(following.data) == _pairs(sent.data)
        and following.json == sent.json
    )


def page_number(params: SearchParams, provider: str) -> int:
    """The ``pageno`` option (1 when unset); ``InvalidInput(bad_pageno)`` unless an integer >= 1
    (:data:`~websearch_sync.engine.option.PAGENO`, for an engine that reads it outside its own
    declaration, such as a vertical engine sharing its web engine's pages)."""
    return int(PAGENO.value(params.options.get(PAGENO.name), provider))
