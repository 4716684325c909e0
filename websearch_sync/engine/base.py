"""The base class every backend derives from.

A backend is mostly declarative (name, endpoint, settings it reads) plus two pure
functions: :meth:`Backend.build_request` (parameters -> request) and
:meth:`Backend.parse` (response -> raw items). :meth:`Backend.classify` recognises
bot walls and vendor error envelopes in a response; everything else (sending,
deadline, status mapping, normalisation) is shared.
"""

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Optional
from urllib.parse import urlsplit

from ..config import Settings
from ..errors import (
    BAD_ENDPOINT,
    BAD_PAGENO,
    DEADLINE_EXCEEDED,
    MISSING_API_KEY,
    NOT_CONFIGURED,
    NOT_JSON,
    QUERY_TOO_LONG,
    RESPONSE_TOO_LARGE,
    UNEXPECTED_SHAPE,
    AuthError,
    InvalidInput,
    Timeout,
    WebBlocked,
    WebParseError,
    WebProviderError,
    WebSearchError,
)
from ..models import ParseResult, SearchParams
from ..net.botwall import BotWall
from ..net.deadline import Deadline, DeadlinePassed, run_within
from ..net.transport import HttpResponse, HttpTransport, RequestSpec, status_error
from ..secrets import is_secret_name, redact
from ..validate import check_number
from .setting import COMMON_SETTINGS, Setting, from_env_vars, merged

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The formats a provider's text fields can have (``Backend.text_format``).
TEXT_FORMATS = ("html", "text")


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
        options: backend-specific ``search()`` options this backend understands.
        max_query_chars: longest query the service accepts (checked before sending).
        auto_rank: its place in ``backend="auto"`` (lower first), ``None`` for never:
            API backends rank 10-99 and join when configured, keyless web engines 100-199.
        auto_languages: languages (``"zh"``) for which alone it joins ``auto``; empty: all.
        provides_content: the service itself returns page text when
            ``include_content`` is asked, so the client does not fetch those pages.
        text_format: what the raw items' text fields (title, snippet, source,
            published_at) are: ``"html"`` (fragments: tags are markup, entities are
            escapes; normalization strips and unescapes them) or ``"text"`` (plain
            text, shown as it is: ``C++ template <typename T>`` is a title). Every
            backend declares it; an HTML page parsed into a DOM yields ``"text"``.
        bot_walls: the bot walls of this service (:class:`~websearch_sync.net.botwall.BotWall`),
            from its recorded blocked pages; every search and fetch recognises every
            registered backend's walls.
    """

    name: ClassVar[str] = ""
    kind: ClassVar[str] = "html"
    summary: ClassVar[str] = ""
    default_endpoint: ClassVar[Optional[str]] = None
    provider_settings: ClassVar[tuple[Setting, ...]] = ()
    env_vars: ClassVar[dict[str, str]] = {}
    required: ClassVar[tuple[str, ...]] = ()
    min_interval_s: ClassVar[float] = 0.0
    options: ClassVar[tuple[str, ...]] = ()
    max_query_chars: ClassVar[Optional[int]] = None
    provides_content: ClassVar[bool] = False
    auto_rank: ClassVar[Optional[int]] = None
    auto_languages: ClassVar[tuple[str, ...]] = ()
    text_format: ClassVar[str] = "html"
    bot_walls: ClassVar[tuple[BotWall, ...]] = ()
    #: Request parameters whose value depends on the moment (a time limit from the deadline):
    #: ``record`` writes them as the placeholder, so that a replay accepts any value.
    volatile_params: ClassVar[tuple[str, ...]] = ()

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
        class wins), then ``timeout_ms`` unless it declares its own."""
        own = cls.provider_settings
        legacy = from_env_vars(cls.env_vars, cls.required)
        if _declared_at(cls, "env_vars", "required") < _declared_at(cls, "provider_settings"):
            own, legacy = legacy, own
        declared = merged(legacy, own)
        names = {setting.name for setting in declared}
        return declared + tuple(setting for setting in COMMON_SETTINGS if setting.name not in names)

    @classmethod
    def setting(cls, key: str) -> Setting:
        """The declared setting ``key`` (``KeyError`` when the backend declares none)."""
        for setting in cls.declared_settings():
            if setting.name == key:
                return setting
        raise KeyError(key)

    def endpoint_url(self) -> str:
        """The URL to send requests to: ``Settings.endpoints[name]`` or the default."""
        url = self.settings.endpoints.get(self.name) or self.default_endpoint
        if not url:
            raise InvalidInput(
                "backend %s has no endpoint configured" % self.name, provider=self.name, detail_code=NOT_CONFIGURED
            )
        return url

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
        an endpoint that is not an http(s) URL with a host is ``InvalidInput(bad_endpoint)``.
        """
        self._check_missing()
        url = self.endpoint_url()
        try:
            parts = urlsplit(url.encode("utf-8").decode("utf-8"))
            usable = parts.scheme.lower() in ("http", "https") and bool(parts.hostname) and parts.port != 0
        except (ValueError, TypeError, AttributeError):  # a bad IPv6 literal or port, a lone surrogate, not a string
            usable = False
        if not usable:  # the URL itself is not shown: it may carry credentials
            raise InvalidInput(
                "%s: the endpoint is not an http(s) URL with a host (check %s)" % (self.name, self._endpoint_origin()),
                provider=self.name,
                detail_code=BAD_ENDPOINT,
            )

    def _endpoint_origin(self) -> str:
        """Where the endpoint URL was set, in the terms of both ways to set it: the endpoint
        override, else the required URL setting it is built from (SearXNG's ``base_url``)."""
        if not self.settings.endpoints.get(self.name):
            for setting in self.declared_settings():
                if setting.required and setting.kind == "url" and self.config.get(setting.name):
                    return "Settings.providers[%r][%r] or %s" % (self.name, setting.name, setting.env_or_key())
        return "Settings.endpoints[%r] or WEB_SEARCH_ENDPOINT_%s" % (self.name, self.name.upper())

    def _check_missing(self) -> None:
        for key in self.missing_settings():
            var = self.setting(key).env_or_key()
            if is_secret_name(key):
                raise AuthError(
                    "%s needs an API key: set %s (or Settings.providers[%r][%r])" % (self.name, var, self.name, key),
                    provider=self.name,
                    detail_code=MISSING_API_KEY,
                )
            raise InvalidInput(
                "%s is not configured: set %s (or Settings.providers[%r][%r])" % (self.name, var, self.name, key),
                provider=self.name,
                detail_code=NOT_CONFIGURED,
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

    def check_params(self, params: SearchParams) -> None:
        """Refuse parameters the service would refuse (before any request)."""
        if self.max_query_chars is not None and len(params.full_query) >= self.max_query_chars:
            raise InvalidInput(
                "%s accepts queries shorter than %d characters (got %d)"
                % (self.name, self.max_query_chars, len(params.full_query)),
                provider=self.name,
                detail_code=QUERY_TOO_LONG,
            )

    # -- the pure parts a backend implements ------------------------------------------------

    def build_request(self, params: SearchParams) -> RequestSpec:
        """The request for ``params`` (pure: no I/O)."""
        raise NotImplementedError

    def fit_request(self, spec: RequestSpec, deadline: Deadline) -> RequestSpec:
        """The request adjusted to the call's deadline (pure; default: unchanged). A service
        that takes a time limit of its own (SearXNG's ``timeout_limit``) is told it here."""
        return spec

    def cooldown_scope(self) -> str:
        """What a block suspends: this backend at its endpoint's host. The backend's name at
        its default endpoint; ``<name>@<host[:port]>`` at a configured one (two SearXNG
        instances, two gateways never share a cool-down; the paths of one host do: one
        server, one limiter)."""
        try:
            parts = urlsplit(self.configured_base() or "")
            host, port = (parts.hostname or "").lower(), parts.port
        except ValueError:  # refused before sending anyway (check_configured)
            host, port = "", None
        if not host:
            return self.name
        return "%s@%s" % (self.name, host if port is None else "%s:%d" % (host, port))

    def configured_base(self) -> Optional[str]:
        """The endpoint the settings give this backend instead of its default (``None``: the
        default), as far as it names the service (a JSON API's base URL, not its path)."""
        return self.settings.endpoints.get(self.name) or None

    def cooldown_keys(self, params: SearchParams) -> tuple[str, ...]:
        """The cool-down keys whose suspension stops a call with ``params`` (default: the
        backend at its endpoint, :meth:`cooldown_scope`). A meta-engine adds a narrower key for
        the engines the call asks for, spelt ``<scope>[<part>]`` (the cool-down's error names
        the backend before the ``@`` or ``[``)."""
        return (self.cooldown_scope(),)

    def cooldown_key(self, params: SearchParams, error: WebBlocked) -> str:
        """The key a block met by a call with ``params`` is recorded under: one of
        :meth:`cooldown_keys` (default: the backend at its endpoint, i.e. all of it)."""
        return self.cooldown_scope()

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

    def structure_report(self, response: HttpResponse, params: Optional[SearchParams] = None) -> dict[str, bool]:
        """Which parts of the page structure this parser relies on were found:
        ``{check_name: found}``, all true when the page still looks as the parser knows it.

        ``websearch-sync check-live`` shows it to notice drift. The default has one
        check, ``recognised``: the response is no error (bot wall, vendor envelope,
        HTTP status) and :meth:`parse` accepts it. HTML backends override it with
        their own landmarks (e.g. ``results_container``, ``result_links``).
        """
        if self.classify(response) is not None or status_error(response, self.name) is not None:
            return {"recognised": False}
        try:
            self.parse(response, params or SearchParams(query="structure check", max_results=10))
        except (WebSearchError, ValueError, KeyError, TypeError, IndexError, AttributeError):
            return {"recognised": False}
        return {"recognised": True}

    # -- the shared path ------------------------------------------------------------------

    def search(self, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
        """Check configuration, send the request, classify and parse the answer, all within ``deadline``.

        Parsing, whatever the body's size, runs in a thread abandoned at the deadline
        (:func:`~websearch_sync.net.deadline.run_within`): a page of tens of thousands
        of results (still under the byte cap) takes seconds to parse, and the parsers'
        checkpoints stop an abandoned parse instead of letting it run on.
        """
        self.check(params)
        spec = self.fit_request(self.build_request(params), deadline)
        if self.kind == "html" and not spec.browser:  # a web page a browser would ask for: the browser wire
            spec = dataclasses.replace(spec, browser=True)
        try:
            response = transport.send(
                spec,
                deadline=deadline,
                provider=self.name,
                max_bytes=self.settings.max_response_bytes,
                secrets=self.secrets(),
            )
        except WebProviderError as error:
            if error.detail_code == RESPONSE_TOO_LARGE:  # name the setting that raises the cap
                error.message += " (the cap is WEB_SEARCH_MAX_BYTES, Settings.max_response_bytes)"
                error.args = (error.message,)
            raise
        try:
            parsed = run_within(deadline, lambda: self.interpret(response, params), name="websearch-parse")
        except DeadlinePassed:
            raise Timeout(
                "%s: parsing the answer (%d bytes) did not finish within the %.0f ms deadline"
                % (self.name, len(response.content), deadline.timeout_ms),
                provider=self.name,
                detail_code=DEADLINE_EXCEEDED,
                status=response.status,
            ) from None
        return _without_secrets(parsed, self.secrets())

    def interpret(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Turn a response into a parse result or the error it means."""
        error = self.classify(response) or status_error(response, self.name)
        if error is not None:
            raise error
        try:
            return self.parse(response, params)
        except WebSearchError:
            raise
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raise WebParseError(
                "%s answered with a body of an unknown shape (%s: %s)" % (self.name, type(exc).__name__, exc),
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
                status=response.status,
            ) from exc


def _declared_at(cls: type, *attributes: str) -> int:
    """How far up ``cls``'s MRO the nearest class declaring one of ``attributes`` is (0: ``cls`` itself)."""
    return next(i for i, owner in enumerate(cls.__mro__) if any(a in vars(owner) for a in attributes))


def _without_secrets(result: ParseResult, secrets: list[str]) -> ParseResult:
    """``result`` with our secrets removed from the items' text: a service that echoes the
    request into its results (the key in a header dump) must not show the key."""
    if secrets:
        for item in result.items:
            for name, value in item.items():
                if isinstance(value, str):
                    item[name] = redact(value, secrets)
    return result


def json_body(response: HttpResponse, provider: str) -> Any:
    """The response parsed as JSON, or ``WebParseError`` naming what came instead."""
    try:
        return response.json()
    except ValueError:
        kind = response.content_type or "unknown content type"
        raise WebParseError(
            "%s answered with %s instead of JSON" % (provider, kind),
            provider=provider,
            detail_code=NOT_JSON,
            status=response.status,
        ) from None


def dig(data: Any, path: Sequence[str], provider: str) -> Any:
    """``data[path[0]][path[1]]...`` or ``WebParseError`` naming the missing key."""
    current = data
    for i, key in enumerate(path):
        if not isinstance(current, Mapping) or key not in current:
            raise WebParseError(
                "%s answered without %r in its JSON" % (provider, ".".join(path[: i + 1])),
                provider=provider,
                detail_code=UNEXPECTED_SHAPE,
            )
        current = current[key]
    return current


def split_locale(locale: str) -> tuple[str, Optional[str]]:
    """``"en-US"`` -> ``("en", "US")``; ``"zh-Hant-TW"`` -> ``("zh", "TW")``; ``"de"`` -> ``("de", None)``."""
    parts = locale.replace("_", "-").split("-")
    country = next((p.upper() for p in parts[1:] if len(p) == 2 and p.isalpha()), None)
    return parts[0].lower(), country


def page_number(params: SearchParams, provider: str) -> int:
    """The ``pageno`` option (1 when unset); ``InvalidInput(bad_pageno)`` unless an integer >= 1."""
    pageno = params.options.get("pageno")
    if pageno is None:
        return 1
    return check_number("pageno", pageno, provider=provider, detail=BAD_PAGENO)
