"""The conformance kit: what every backend must do, checked on any registered one (a plugin's too),
for each vertical it serves (web, news, images, videos: each is its own engine class).

The checks are stated against the backend's own declaration (its endpoint, settings, auth
statuses, longest query) and its recorded cases, never against a list of known backends:

* ``declaration``: the class declarations the registry accepts;
* ``request``: the request goes to the declared endpoint (or its override) with the query, and
  a secret setting travels in a header, never in the URL or body;
* ``missing_settings``: a required setting left out is refused before any request;
* ``options`` (a backend declaring typed options): a value of no kind is refused by its
  ``check`` with the option's detail code (its ``check_params`` reaches the declared check);
* ``statuses``: a bare status (no envelope, no wall) maps as declared: its ``auth_statuses``
  (401 by default) ``AuthError``, 403/429 ``WebBlocked``, 5xx ``BadGateway``, the rest
  ``WebProviderError``, each ``http_<status>``; a 429's ``Retry-After`` is reported;
* ``proxy_pages``: a reverse proxy's HTML error page is its status, not a parse error or a wall;
* ``unknown_layout``: a 200 answer of no format the backend knows (a sign-in portal) is
  ``WebParseError``, never "0 results";
* ``deadline``: a server on 127.0.0.1 that accepts and never answers ends the call with
  ``Timeout`` (the call never hangs);
* ``unsent`` (an engine whose one request is the search, no ``continue_request`` flow): a common
  input (``time_range``, ``safe_search``, ``site_filter``, ``locale``) its request goes without is
  declared ``unsent``, so that ``provider_meta["not_sent"]`` tells a call giving it that the answer
  ignored it, and one its request carries is not (an ``Accept-Language`` header alone is no carrier);
* ``recorded_cases``: every case recorded for it (``websearch-sync record``) replays to its
  golden and keeps the result contract; its recorded bot walls are ``WebBlocked`` there.

Answers are built in memory and read by the backend's own ``interpret`` (classifier, status
mapping, parser); the deadline check alone opens a socket, on loopback. Used by
:func:`websearch_sync.testing.conformance_checks` and the project's own conformance suite.
"""

import contextlib
import os
import socket
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional, Union
from urllib.parse import unquote_plus, urlsplit

from requests.structures import CaseInsensitiveDict

from ..config import Settings
from ..engine import registry
from ..engine.base import Backend, made_request
from ..engine.code_site import plugin_package
from ..errors import (
    BAD_VERTICAL,
    INTERNAL_ERROR,
    UNKNOWN_BACKEND,
    AuthError,
    BadGateway,
    InvalidInput,
    Timeout,
    WebBlocked,
    WebParseError,
    WebProviderError,
    WebSearchError,
)
from ..models import VERTICALS, SearchParams, StrPath
from ..net.deadline import Deadline
from ..net.response import HttpResponse
from ..net.transport import HttpTransport, RequestSpec
from ..secrets import is_secret_name
from ..validate import check_choice
from .cases import run_cases

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Statuses sent with a body that means nothing (no vendor envelope, no bot wall).
STATUSES = (400, 401, 402, 403, 404, 422, 429, 432, 433, 500, 502, 503, 504)
#: Error pages of a reverse proxy in front of a failing service (nginx's wording).
PROXY_PAGES = {
    502: (
        "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>"
        "<hr><center>nginx</center></body></html>"
    ),
    503: "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>",
}
#: A 200 that is no search answer: a captive portal, a sign-in page.
PORTAL_PAGE = "<!doctype html><html><head><title>Sign in</title></head><body><form>Wi-Fi login</form></body></html>"
QUERY = "conformance check"
#: The deadline of the silent-server check, and how long the kit waits for the call before it
#: reports a hang (the call must end at its deadline; the margin only tells a hang apart). The
#: check waits out the whole deadline once per engine and vertical: 100 ms is ample to reach a
#: server on loopback, and a slower machine only makes the expected ``Timeout`` come sooner.
DEADLINE_MS = 100
HANG_S = 30.0
#: The common inputs the ``unsent`` check gives, each with a value no request builder fills in when the
#: call gives none (a builder sending ``safe_search=moderate`` by default carries ``strict`` as a change).
UNSENT_PROBES = (("time_range", "week"), ("safe_search", "strict"), ("site_filter", "example.org"), ("locale", "de-DE"))


def engine_name(backend: str, vertical: str) -> str:
    """How checks and messages name an engine: ``bing_html`` for its web search, ``bing_html[news]``."""
    return backend if vertical == "web" else "%s[%s]" % (backend, vertical)


@dataclass(frozen=True)
class ConformanceCheck:
    """One named check of one backend; calling it raises ``AssertionError`` naming what failed."""

    backend: str
    name: str
    run: Callable[[], None]
    vertical: str = "web"

    def __call__(self) -> None:
        self.run()

    def __str__(self) -> str:
        engine = engine_name(self.backend, self.vertical)
        return "%s-%s" % (engine, self.name)


def secret_values(cls: type[Backend]) -> dict[str, str]:
    """A distinct dummy secret per secret setting of ``cls``."""
    return {s.name: "%s-%s-SECRET-0451" % (cls.name, s.name) for s in cls.declared_settings() if s.secret}


def dummy_settings(cls: type[Backend], settings: Optional[Settings] = None) -> Settings:
    """``settings`` if given, else settings that make ``cls`` usable: each required or secret
    setting gets a dummy value (a URL setting a ``.test`` URL, a secret a marked string)."""
    if settings is not None:
        return settings
    secrets = secret_values(cls)
    config: dict[str, Any] = {}
    for setting in cls.declared_settings():
        if not (setting.required or setting.secret):
            continue
        if setting.kind == "json":
            config[setting.name] = {"X-Conformance": secrets.get(setting.name, "conformance")}
        elif setting.secret:
            config[setting.name] = secrets[setting.name]
        elif setting.kind == "url":
            config[setting.name] = "https://%s.conformance.test/api" % cls.name
        elif setting.kind == "int":
            config[setting.name] = setting.minimum
        else:
            config[setting.name] = "conformance"
    return Settings(providers={cls.name: config} if config else {})


def declared_error(cls: type[Backend], status: int) -> type[WebSearchError]:
    """The error class a bare ``status`` must give for ``cls`` (see the module docstring)."""
    if status == 401 or status in getattr(cls, "auth_statuses", (401,)):
        return AuthError
    if status in (403, 429):
        return WebBlocked
    return BadGateway if 500 <= status <= 599 else WebProviderError


def _answer(status: int, body: str, content_type: str, headers: Optional[dict[str, str]] = None) -> HttpResponse:
    fields: CaseInsensitiveDict[str] = CaseInsensitiveDict({"Content-Type": content_type})
    fields.update(headers or {})
    return HttpResponse(status, fields, body.encode("utf-8"), "https://conformance.test/")


def _params(backend: Backend) -> SearchParams:
    """The search the checks ask of ``backend``, in the vertical its class serves."""
    return SearchParams(query=QUERY, max_results=10, vertical=backend.vertical)


def _interpreted(backend: Backend, response: HttpResponse) -> Any:
    """What a search makes of ``response`` with the backend: its parse result, shape checked
    (:func:`~websearch_sync.engine.registry.checked_result`), or the error it raises; a defect of the
    backend's (any other exception: a plugin's ``RuntimeError`` in ``parse``) is the search's
    ``WebProviderError(internal_error)`` naming where it raised, a finding, not a traceback out of the kit.
    A built-in backend's is the library's own bug: raised as it is, not reported as the backend's finding."""

    def interpret() -> Any:
        return registry.checked_result(backend.interpret(response, _params(backend)), backend.name)

    try:
        return interpret() if plugin_package(type(backend)) is None else registry.reported(backend, interpret)
    except WebSearchError as error:
        return error


def sent_values(spec: RequestSpec) -> list[str]:
    """Every value of the query parameters, form and top-level JSON body of a request, as text."""
    values: list[Any] = []
    for part in (spec.params, spec.data, spec.json):
        if isinstance(part, dict):
            values.extend(part.values())
        elif isinstance(part, (list, tuple)):
            values.extend(value for _key, value in part)
    return [str(value) for value in values]


def _request_values(spec: RequestSpec) -> str:
    """The query string (decoded), the :func:`sent_values` and a body that is neither, as one text."""
    bodies = [
        str(part) for part in (spec.data, spec.json) if part is not None and not isinstance(part, (dict, list, tuple))
    ]
    return " ".join([unquote_plus(urlsplit(spec.url).query), *sent_values(spec), *bodies])


class _Kit:
    """The checks of one backend class, configured by ``settings``."""

    def __init__(self, cls: type[Backend], settings: Settings, fixtures: Optional[StrPath]) -> None:
        self.cls, self.settings, self.fixtures = cls, settings, fixtures
        #: how messages name the engine (:func:`engine_name`)
        self.engine = engine_name(cls.name, cls.vertical)

    def backend(self, settings: Optional[Settings] = None) -> Backend:
        """The backend built with ``settings`` (the kit's by default). A plugin's constructor that raises is
        the check's finding, an ``AssertionError`` naming where it raised (traceback logged), not a
        traceback out of the kit; a built-in backend's is the library's own bug, raised as it is."""
        settings = self.settings if settings is None else settings
        if plugin_package(self.cls) is None:
            return self.cls(settings)
        try:
            return registry.instance(self.cls, settings)
        except WebProviderError as error:
            if error.detail_code != INTERNAL_ERROR:  # a refusal the constructor makes itself (a missing key)
                raise
            raise AssertionError("%s: it cannot be built: %s" % (self.engine, error.message)) from error

    def declaration(self) -> None:
        problem = registry.declaration_problem(self.cls)
        assert problem is None, "%s: %s" % (self.engine, problem)

    def request(self) -> None:
        backend = self.backend()
        try:
            spec = made_request(backend.build_request(_params(backend)), self.cls.name, "build_request")
        except WebProviderError as error:  # a dict: say so, not AttributeError 'dict' has no 'url'
            raise AssertionError("%s: %s" % (self.engine, error.message)) from None
        sent, declared = urlsplit(spec.url), urlsplit(backend.endpoint_url())
        assert (sent.scheme, sent.hostname) == (declared.scheme, declared.hostname), (
            "%s sends to %s, but its endpoint is %s" % (self.engine, spec.url, backend.endpoint_url())
        )
        values = _request_values(spec)
        assert QUERY in values, "%s: the query is not in the request (%s)" % (self.engine, values)
        for name, secret in secret_values(self.cls).items():
            if backend.config.get(name) == secret:
                assert secret not in values + spec.url, "%s: the secret %s travels in the URL or body" % (
                    self.engine,
                    name,
                )

    def missing_settings(self) -> None:
        for setting in self.cls.declared_settings():
            if not setting.required:
                continue
            config = dict(self.settings.provider(self.cls.name))
            config.pop(setting.name, None)
            try:
                backend = self.backend(Settings(providers={self.cls.name: config}))  # its constructor may refuse
                backend.check(_params(backend))
            except WebSearchError as error:
                expected = AuthError if is_secret_name(setting.name) else InvalidInput
                assert isinstance(error, expected), "%s without %s: %r" % (self.engine, setting.name, error)
            else:
                raise AssertionError("%s searched without its required setting %s" % (self.engine, setting.name))

    def options(self) -> None:
        """Each typed option refuses a value of no kind (an ``object()``) before any request, with
        its own detail code: the backend's ``check`` reaches the declared options' check."""
        for option in self.cls.declared_options():
            if option.kind == "any":
                continue
            backend = self.backend()
            params = replace(_params(backend), options={option.name: object()})
            try:
                backend.check(params)
            except InvalidInput as error:
                assert error.detail_code == option.detail, "%s: a bad %s gave %r, not %s" % (
                    self.engine,
                    option.name,
                    error,
                    option.detail,
                )
            else:
                raise AssertionError(
                    "%s: a bad %s passed its check (check_params without super()?)" % (self.engine, option.name)
                )

    def unsent(self) -> None:
        """Each common input of :data:`UNSENT_PROBES` is carried by the request (its URL, form, body, a
        header other than ``Accept-Language``, a cookie) exactly when ``not_sent`` does not name it."""
        backend = self.backend()
        plain = _params(backend)
        without = self._carriers(backend, plain)
        ignored: list[tuple[str, str]] = []
        carried_anyway: list[tuple[str, str]] = []
        for name, value in UNSENT_PROBES:
            changed: dict[str, Any] = {name: value}
            given = replace(plain, **changed)
            try:
                backend.check(given)
            except InvalidInput:  # refused before any request: nothing is sent, nothing to declare
                continue
            carried = self._carriers(backend, given) != without
            if carried == (name in backend.not_sent(given)):
                (carried_anyway if carried else ignored).append((name, value))
        wrong = []
        if ignored:
            kept = {entry for entry in self.cls.unsent if entry not in {name for name, _ in carried_anyway}}
            wrong.append(
                "its request goes without %s, which no unsent declaration names: declare unsent = %r, so that a"
                " call giving one is told (provider_meta['not_sent'])"
                % (", ".join("%s=%r" % pair for pair in ignored), tuple(sorted(kept | {name for name, _ in ignored})))
            )
        if carried_anyway:
            said = ", ".join("%s=%r" % pair for pair in carried_anyway)
            wrong.append("its request carries %s, declared unsent: take it out of unsent" % said)
        assert not wrong, "%s: %s" % (self.engine, "; ".join(wrong))

    def _carriers(self, backend: Backend, params: SearchParams) -> str:
        """What of the request ``params`` make could carry an input: all of it but ``Accept-Language``."""
        try:
            spec = made_request(backend.build_request(params), self.cls.name, "build_request")
        except WebProviderError as error:  # a dict: said by the request check too
            raise AssertionError("%s: %s" % (self.engine, error.message)) from None
        headers = {k: v for k, v in (spec.headers or {}).items() if str(k).lower() != "accept-language"}
        return repr(replace(spec, headers=headers))

    def statuses(self) -> None:
        backend = self.backend()
        for status in STATUSES:
            error = _interpreted(backend, _answer(status, "status conformance", "text/plain"))
            expected = declared_error(self.cls, status)
            assert type(error) is expected, "%s: a bare %d gave %r, not %s" % (
                self.engine,
                status,
                error,
                expected.__name__,
            )
            assert error.detail_code == "http_%d" % status and error.status == status, repr(error)
            assert error.retryable is (status == 429 or status >= 500), "%s: %r retryable" % (self.engine, error)
        error = _interpreted(backend, _answer(429, "slow down", "text/plain", {"Retry-After": "7"}))
        assert isinstance(error, WebBlocked) and error.retry_after == 7.0, "%s: 429 + Retry-After: 7 gave %r" % (
            self.engine,
            error,
        )

    def proxy_pages(self) -> None:
        backend = self.backend()
        for status, page in PROXY_PAGES.items():
            error = _interpreted(backend, _answer(status, page, "text/html"))
            assert type(error) is declared_error(self.cls, status) and error.detail_code == "http_%d" % status, (
                "%s: a proxy's %d page gave %r" % (self.engine, status, error)
            )

    def unknown_layout(self) -> None:
        outcome = _interpreted(self.backend(), _answer(200, PORTAL_PAGE, "text/html; charset=utf-8"))
        assert isinstance(outcome, WebParseError), "%s: a sign-in page answered with 200 gave %r, not WebParseError" % (
            self.engine,
            outcome,
        )

    def deadline(self) -> None:
        with _silent_server() as url:
            settings = Settings(
                providers=self.settings.providers,
                endpoints=dict(self.settings.endpoints, **{self.cls.name: url}),
            )
            outcome: list[Any] = []

            def call() -> None:
                with contextlib.closing(HttpTransport()) as transport:
                    try:
                        backend = self.backend(settings)
                        backend.search(_params(backend), transport, Deadline(DEADLINE_MS))
                    except (WebSearchError, AssertionError) as error:  # a finding, said by the test's own thread
                        outcome.append(error)
                    else:
                        outcome.append("an answer")

            worker = threading.Thread(target=call, name="websearch-conformance", daemon=True)
            worker.start()
            worker.join(HANG_S)
            assert not worker.is_alive(), "%s: a silent server held the call past %.0f s" % (self.engine, HANG_S)
        if outcome and isinstance(outcome[0], AssertionError):
            raise outcome[0]
        assert outcome and isinstance(outcome[0], Timeout), "%s: a silent server gave %r, not Timeout" % (
            self.engine,
            outcome[0] if outcome else None,
        )

    def recorded_cases(self) -> None:
        assert self.fixtures is not None
        try:
            results = run_cases(self.fixtures, self.cls.name)
        except InvalidInput as error:  # no folder, or no case of this backend in it
            raise AssertionError(str(error)) from None
        failed = [
            "%s %s: %s" % (r.status, r.case.case_id, "; ".join(r.diff[:5])) for r in results if r.status != "PASS"
        ]
        assert not failed, "recorded cases that fail:\n" + "\n".join(failed)


@contextlib.contextmanager
def _silent_server() -> Iterator[str]:
    """A server on 127.0.0.1 that accepts connections and never answers; its URL."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.1)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:  # the 0.1 s poll, or the listener closed
                continue

    acceptor = threading.Thread(target=accept, name="websearch-conformance-server", daemon=True)
    acceptor.start()
    try:
        yield "http://127.0.0.1:%d/search" % listener.getsockname()[1]
    finally:
        stop.set()
        with contextlib.suppress(OSError):  # wakes a waiting accept() at once (else at its 0.1 s poll)
            listener.shutdown(socket.SHUT_RDWR)
        acceptor.join(5)
        listener.close()
        for conn in held:
            conn.close()


#: How :func:`~..engine.registry.skipped_plugin` opens for a plugin skipped under another entry-point name.
_UNREGISTERED = "no backend is registered under this name; "


def _check_loaded(backend: object) -> None:
    """``InvalidInput(unknown_backend)`` leading with why, for a backend whose installed plugin was
    skipped (it failed to load, or its class is unusable): a plugin author's failing conformance test
    says that the plugin never loaded, its entry point and the reason, not "unknown backend" before a
    list of every other name."""
    if not isinstance(backend, str) or registry.verticals_of(backend):
        return
    why = registry.skipped_plugin(backend)
    if why is None:
        return
    source = registry.plugin_source(backend)
    said = "its plugin %s was skipped: " % source
    cause = "because"
    if why.startswith(_UNREGISTERED):  # skipped under an entry point no backend can be named after
        why, cause = why[len(_UNREGISTERED) :], "perhaps because"
    elif source is not None and why.startswith(said):  # the entry point named after the backend
        why = "the plugin declaring it, entry point '%s = %s' in the group %s, was skipped: %s" % (
            backend,
            source,
            registry.PLUGIN_GROUP,
            why[len(said) :],
        )
    raise InvalidInput(
        "cannot check backend %r: no backend has that name, %s an installed plugin was not loaded; %s"
        " (fix the plugin and run the check again; `websearch-sync backends` lists each plugin skipped and why)"
        % (backend, cause, why),
        detail_code=UNKNOWN_BACKEND,
    )


def _chosen_verticals(verticals: object) -> tuple[str, ...]:
    """The verticals ``conformance_checks(verticals=...)`` names (one, as ``vertical="news"`` is, or several),
    each checked as ``search(vertical=...)`` checks it: a slip (``"video"``) is ``InvalidInput(bad_vertical)``
    with the closest, not a vertical the backend does not serve."""
    if isinstance(verticals, str):
        verticals = (verticals,)
    if not isinstance(verticals, Iterable):
        raise TypeError(
            "conformance_checks: verticals=%r is neither a vertical nor a list of them (verticals=['news'])"
            % (verticals,)
        )
    return tuple(dict.fromkeys(check_choice("vertical", vertical, VERTICALS, BAD_VERTICAL) for vertical in verticals))


def conformance_checks(
    backend: str,
    *,
    fixtures: Optional[StrPath] = None,
    settings: Optional[Settings] = None,
    verticals: Union[str, Sequence[str], None] = None,
) -> list[ConformanceCheck]:
    """The checks of the registered ``backend`` (see the module docstring), for each vertical it
    serves (``verticals``: only these, or this one); ``settings`` that are not a ``Settings`` are
    a ``TypeError`` saying what to pass; ``recorded_cases`` (once: the cases name their vertical)
    only with ``fixtures``, a folder of cases recorded by ``websearch-sync record``."""
    _check_loaded(backend)
    served = registry.verticals_of(backend) or ("web",)  # an unknown name: backend_class says so
    if settings is not None and not isinstance(settings, Settings):
        raise TypeError(
            "conformance_checks: settings must be a websearch_sync.Settings, such as "
            "Settings(providers={%r: {...}}), got a %s" % (backend, type(settings).__name__)
        )
    if fixtures is not None and not isinstance(
        fixtures, (str, os.PathLike)
    ):  # else a TypeError from inside, at its check
        raise TypeError(
            "conformance_checks: fixtures=%r is no path: give the fixture folder's (a str or a pathlib.Path)"
            % (fixtures,)
        )
    chosen = served if verticals is None else _chosen_verticals(verticals)
    checks = []
    for vertical in chosen:
        cls = registry.backend_class(backend, vertical)
        kit = _Kit(cls, dummy_settings(cls, settings), fixtures)
        names = ["declaration"]
        if any(option.kind != "any" for option in cls.declared_options()):
            names.append("options")
        if cls.kind != "offline":
            names += ["request", "missing_settings", "statuses", "proxy_pages", "unknown_layout", "deadline"]
            if cls.continue_request is Backend.continue_request:  # a flow's later request carries the inputs
                names.insert(names.index("statuses"), "unsent")
        if fixtures is not None and vertical == chosen[0]:
            names.append("recorded_cases")
        checks += [ConformanceCheck(backend, name, getattr(kit, name), vertical) for name in names]
    return checks
