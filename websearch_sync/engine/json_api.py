"""What JSON API backends share: base-URL endpoints, auth headers, the declared reading of
an answer, and the one mapping from a vendor's error code or HTTP status to an error.

A JSON API backend (brave, bocha, tavily, kagi, jina, service, wikipedia, searxng; a
plugin's ``JsonApiEngine``) derives from :class:`JsonApiBackend` and declares:

* ``default_base_url`` / ``endpoint_path``: the endpoint is
  ``Settings.endpoints[name]`` if given, else ``base_url`` (provider setting, else
  ``default_base_url``) + ``endpoint_path`` (a base URL already ending with it, as the
  vendor's docs show the endpoint, is used as it is);
* ``results_at`` (where the answer lists its results), ``result_fields`` (how one vendor
  result becomes a raw item) and ``request_id_at``: with them the backend writes no ``parse``
  (:meth:`JsonApiBackend.parse`); :meth:`JsonApiBackend.results` and
  :meth:`JsonApiBackend.item_of` are the hooks for an answer or a field with a quirk.
  :meth:`JsonApiBackend.items_from` refuses results none of which holds a URL (a renamed
  field is an unknown shape, never "no results");
* ``auth_statuses``: statuses (HTTP or vendor code) meaning "the key or the
  instance refused us" -> ``AuthError`` (401, 402 and 403 by default: a 403 from an API
  is a refused key or plan, not a bot wall; a 402, Payment Required, is an account whose
  credit or plan is used up: no retry heals it, its key is not sent again);
* ``vendor_codes``: the vendor's own string error codes that decide the error
  whatever the status (``{"SUBSCRIPTION_TOKEN_INVALID": (AuthError, "invalid_api_key")}``);
* :meth:`JsonApiBackend.error_envelope`: where the vendor puts its error code and
  message in a JSON body.

Everything else (429 with its wait time, 5xx, other statuses) is the shared
:func:`websearch_sync.net.transport.status_error`. The error says what to check: the
setting holding the key for an ``AuthError``, the one the endpoint came from for a 404.
"""

import dataclasses
import difflib
import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Optional, Union
from urllib.parse import urlsplit

from ..config import settings_place
from ..errors import (
    API_ERROR,
    BAD_PARSE_RESULT,
    KEY_REFUSALS,
    UNEXPECTED_SHAPE,
    AuthError,
    InvalidInput,
    WebBlocked,
    WebParseError,
    WebProviderError,
    WebSearchError,
    cut_end,
    http_status,
)
from ..models import ImageItem, NewsItem, ParseResult, SearchItem, SearchParams, VideoItem
from ..net.ssrf import forbidden_reason, literal_address
from ..net.status import edge_refusal, forbidden
from ..net.transport import HttpResponse, status_error
from ..net.urls import shown_url
from ..once import Once
from . import registry
from .base import Backend, dig, json_body, json_path, json_shape
from .media_fields import nested
from .normalize import clean_text
from .setting import Setting

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

#: A vendor error code: a string (``"SUBSCRIPTION_TOKEN_INVALID"``, ``"403"``) or an int.
VendorCode = Union[None, str, int]
#: A place in a JSON object: a key (``"hits"``) or a sequence of keys (``("web", "results")``).
JsonPath = Union[str, Sequence[str]]

_MAX_UPSTREAM_MESSAGE = 300
#: The canonical item of each vertical: its keys are the fields a vendor field can be declared as.
_ITEM_TYPES: dict[str, Any] = {"web": SearchItem, "news": NewsItem, "images": ImageItem, "videos": VideoItem}
#: Item keys no vendor field fills by ``result_fields``: written by normalisation and the client, or
#: the page text (``content_field``, read only when ``include_content`` is asked).
_NOT_DECLARED = ("rank", "provider", "providers", "content", "content_by", "content_truncated_by")


def item_fields(vertical: str) -> tuple[str, ...]:
    """The item fields ``result_fields`` may name for ``vertical`` (``title``, ``url``, ``snippet`` ...)."""
    return tuple(key for key in _ITEM_TYPES[vertical].__annotations__ if key not in _NOT_DECLARED)


def try_json(response: HttpResponse) -> Any:
    """The body parsed as JSON, or ``None`` when it is not JSON (never raises)."""
    try:
        return response.json()
    except ValueError:
        return None


#: The statuses a numeric vendor code can stand for (RFC 9110's range): another number (Bocha's ``"0"``,
#: a code of 25 digits) is a vendor code of its own, never "unexpected HTTP 0".
_STATUS_RANGE = range(100, 600)


def _code_as_status(code: VendorCode) -> Optional[int]:
    """The HTTP status a numeric vendor code stands for (``403``, ``"403"``), else ``None``. Only ASCII
    digits, three of them, are read: ``int()`` refuses ``"²"`` (``isdigit`` takes it: a ``ValueError`` was
    an internal error) and reads ``"١٢٣"`` as 123."""
    if isinstance(code, bool):
        return None
    if isinstance(code, str):
        text = code.strip()
        code = int(text) if len(text) == 3 and text.isascii() and text.isdigit() else None
    return code if isinstance(code, int) and code in _STATUS_RANGE else None


def _body_status(code: VendorCode, status_said: Any) -> Optional[int]:
    """The HTTP status the body says, if any: its numeric code (:func:`_code_as_status`), else the
    error status it names besides it (a 4xx or 5xx: :func:`api_error`'s ``status_said``)."""
    effective = _code_as_status(code)
    if effective is None:
        said = _code_as_status(status_said)
        effective = said if said is not None and said >= 400 else None
    return effective


def api_error(
    response: HttpResponse,
    provider: str,
    *,
    code: VendorCode = None,
    message: Optional[str] = None,
    vendor_codes: Optional[Mapping[str, tuple[type[WebSearchError], str]]] = None,
    auth_statuses: tuple[int, ...] = (401, 402, 403),
    status_said: Any = None,
) -> Optional[WebSearchError]:
    """The error a JSON API answer means, or ``None`` for a success.

    ``code`` is the vendor's error code from the body, if any: a string listed in
    ``vendor_codes`` decides the error class and detail; a numeric code (Bocha's
    ``"403"``) stands for an HTTP status, so a 200 whose body says ``"429"`` is a
    429. Otherwise the HTTP status decides; a 2xx whose body holds an error (a code that is no
    status, or the vendor's words alone: Tavily's ``{"detail": {"error": ...}}``) is
    ``WebProviderError(api_error)`` with them, not an answer of an unknown shape. ``auth_statuses`` become
    ``AuthError(http_<n>)``, unless Cloudflare's edge in front of the service refused the request
    (:func:`~websearch_sync.net.status.edge_refusal`: a block, the key never reached the service);
    every other status goes through the shared
    :func:`~websearch_sync.net.transport.status_error` (429 -> ``WebBlocked`` with
    ``retry_after``, 5xx -> ``BadGateway`` ...). ``message`` (the vendor's own
    words) is appended to the error message. ``status_said`` is the error status the body
    names besides its code (Brave's ``"error": {"status": 429}``): a 4xx or 5xx it names is that
    status as a numeric code is (a 200 from a gateway in front of the API carrying a 429's body is
    the 429). ``status`` on the error is always the real HTTP status.
    """
    upstream = _upstream_words(code, message)
    host = _host(response)
    coded = _by_vendor_code(response, provider, code, vendor_codes or {}, upstream)
    if coded is not None:
        return coded
    effective = _body_status(code, status_said)
    if effective is None:
        effective = response.status
        if (code is not None or message) and 200 <= effective < 300:
            return WebProviderError(
                "%s answered with an error envelope%s" % (host, upstream),
                provider=provider,
                detail_code=API_ERROR,
                status=response.status,
            )
    if 200 <= effective < 300:
        return None
    edge = edge_refusal(response) if effective in auth_statuses and effective == response.status else None
    if effective in auth_statuses and edge is None:
        return AuthError(
            "%s refused the API key or account (HTTP %d%s)%s"
            % (host, response.status, "" if effective == response.status else ", code %d" % effective, upstream),
            provider=provider,
            detail_code=http_status(effective),
            status=response.status,
        )
    error = _by_status(response, provider, effective, edge)
    if error is None:  # pragma: no cover - effective is outside 2xx here
        return None
    if effective != response.status:
        error.message += " [HTTP %d with body code %d]" % (response.status, effective)
    error.message += upstream
    error.status = response.status
    return error


def _by_vendor_code(
    response: HttpResponse,
    provider: str,
    code: VendorCode,
    vendor_codes: Mapping[str, tuple[type[WebSearchError], str]],
    upstream: str,
) -> Optional[WebSearchError]:
    """The error a vendor code listed in ``vendor_codes`` decides, whatever the status; else ``None``."""
    if not isinstance(code, str) or code not in vendor_codes:
        return None
    cls, detail = vendor_codes[code]
    return cls(
        "%s refused the request (HTTP %d)%s" % (_host(response), response.status, upstream),
        provider=provider,
        detail_code=detail,
        status=response.status,
    )


def _by_status(response: HttpResponse, provider: str, effective: int, edge: Optional[str]) -> Optional[WebSearchError]:
    """The shared mapping of status ``effective``; a 403 Cloudflare's edge refused (``edge``, its
    page read once by :func:`api_error`) is not read again."""
    if edge is not None and effective == 403:
        return forbidden(response, provider, edge)
    return status_error(dataclasses.replace(response, status=effective), provider)


def with_path(base: str, path: str) -> str:
    """``base`` + ``path`` (``https://api.bochaai.com`` + ``/v1/web-search``), ``base`` as it is
    when it already ends with ``path``: the endpoint itself, as the vendor's docs show it."""
    base = base.strip().rstrip("/")
    if path.strip("/") and base.endswith(path.rstrip("/")):
        return base
    return base + path


#: (backend, host) pairs already warned about a key sent over plain http (once per process).
_WARNED_PLAIN_HTTP = Once()


def _is_local(host: str) -> bool:
    """``localhost`` or a literal address that is not public (loopback, private network)."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = literal_address(host)
    except InvalidInput:  # a malformed IPv6 literal: check_configured refused it already
        return False
    return address is not None and forbidden_reason(address) is not None


def _text(value: Any) -> bool:
    """Whether ``value`` is a non-blank string."""
    return isinstance(value, str) and bool(value.strip())


def vendor_text(value: Any) -> str:
    """A vendor's words from its JSON (an error message, a request id) as one line of text: a string,
    or a number's digits, its control and invisible characters gone (an ANSI escape, a bidi override:
    the words reach a terminal and a model); ``""`` for anything else (an object, a list, ``null``:
    never its Python spelling, ``{'zh': '...'}``), as a result's text is read (:func:`~.normalize.clean_text`)."""
    return clean_text(value, markup=False)


def _upstream_words(code: VendorCode, message: Any) -> str:
    """``": <code>: <message>"``: the vendor's own words for an error (:func:`vendor_text`), each cut
    at :data:`_MAX_UPSTREAM_MESSAGE` characters, ``...`` included (they reach a model through the tool's error line)."""
    shown_code = code if isinstance(code, str) and _code_as_status(code) is None else None
    parts = [cut_end(vendor_text(words), _MAX_UPSTREAM_MESSAGE) for words in (shown_code, message)]
    return ": " + ": ".join(part for part in parts if part) if any(parts) else ""


#: The longest request id kept: a longer one is no id (it is shown in ``provider_meta`` and logs).
MAX_REQUEST_ID_CHARS = 200


def request_id_text(value: Any) -> Optional[str]:
    """A vendor's request id as shown: its text (:func:`vendor_text`: no control character) or its
    number's digits (``0`` included); ``None`` when not given, blank, of another kind (an object or
    ``true``: its Python spelling would be shown as one), a fraction or longer than
    :data:`MAX_REQUEST_ID_CHARS` (5 KB of text in every ``provider_meta`` is no id)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    text = vendor_text(value)
    return text if text and len(text) <= MAX_REQUEST_ID_CHARS else None


def _host(response: HttpResponse) -> str:
    return urlsplit(response.url).hostname or "upstream"


class JsonApiBackend(Backend):
    """Base class of backends that call a JSON API (see the module docstring)."""

    kind = "json"
    default_base_url: ClassVar[Optional[str]] = None
    endpoint_path: ClassVar[str] = ""
    auth_statuses: ClassVar[tuple[int, ...]] = (401, 402, 403)
    vendor_codes: ClassVar[dict[str, tuple[type[WebSearchError], str]]] = {}
    #: Where the answer lists its results: a key or a path (``("web", "results")``). With it the
    #: backend needs no ``parse`` of its own (:meth:`parse`); ``None``: it reads its answers itself.
    results_at: ClassVar[Optional[JsonPath]] = None
    #: How one vendor result becomes a raw item: ``{item field: vendor field}``, a vendor field a key
    #: or a path into the result (``("thumbnail", "src")``; a part that is missing reads as ``None``).
    result_fields: ClassVar[Mapping[str, JsonPath]] = {"title": "title", "url": "url"}
    #: The vendor field holding the page text, read when ``include_content`` was asked.
    content_field: ClassVar[Optional[JsonPath]] = None
    #: Where the answer names its request id (``"request_id"``, ``("meta", "id")``), if it does.
    request_id_at: ClassVar[Optional[JsonPath]] = None

    @classmethod
    def reader_problem(cls) -> Optional[str]:
        """What the class lacks to read an answer: it declares no ``results_at`` (nor overrides
        :meth:`results`) and has no ``parse`` of its own (``None``: it reads them)."""
        if cls.results_at is not None or cls.results is not JsonApiBackend.results:
            return None
        if cls.parse is not JsonApiBackend.parse or cls.interpret is not Backend.interpret:
            return None
        return (
            "it declares no results_at (where its answers list their results) "
            "and does not implement parse(response, params)"
        )

    @classmethod
    def reading_problem(cls) -> Optional[str]:
        """What makes the declared reading unusable, for a class that reads its answers by it (its
        ``parse``, ``items_from`` and ``item_of`` are the kit's): ``result_fields`` naming a field no
        item of its vertical has (``link``: the item's is ``url``), or no ``url`` (normalisation would
        drop every item: an answer would read as "no results"); before those, any of its JSON
        declarations of the wrong kind (``results_at=3``), whoever reads them."""
        problem = registry.unusable_value(cls, registry.JSON_DECLARATIONS)
        if problem is not None:
            return problem
        if (
            cls.parse is not JsonApiBackend.parse
            or cls.items_from is not JsonApiBackend.items_from
            or cls.item_of is not JsonApiBackend.item_of
        ):
            return None
        fields = item_fields(cls.vertical)
        unknown = [name for name in cls.result_fields if name not in fields]
        if unknown:
            close = difflib.get_close_matches(unknown[0], fields, n=1)
            hint = " (did you mean %s?)" % close[0] if close else ""
            if "content" in unknown:
                hint += " (the page text is declared in content_field: read when include_content is asked)"
            return "its result_fields names %s, no field of a %s item (%s)%s" % (
                ", ".join(unknown),
                cls.vertical,
                ", ".join(fields),
                hint,
            )
        if "url" not in cls.result_fields:
            return (
                "its result_fields has no url (the vendor field of the result's address): every item would be dropped"
            )
        return None

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """The declared reading of an answer: its JSON (:meth:`data`), the vendor results in it
        (:meth:`results`: the list at ``results_at``), each one a raw item (:meth:`items_from`,
        by ``result_fields``), and the request id at ``request_id_at`` (:meth:`request_id`)."""
        data = self.data(response)
        items = self.items_from(self.results(data, params), params)
        return ParseResult(items=items, request_id=self.request_id(data, response))

    def results(self, data: Any, params: SearchParams) -> list[Any]:
        """The vendor results of a JSON answer: the list at ``results_at`` (:meth:`result_list`).
        Override for an answer with a quirk (an envelope that says what it is, an answer that
        means "no results", entries of other kinds to leave out), reading the list by ``super()``."""
        if self.results_at is None:
            raise NotImplementedError("%s declares no results_at and reads no answer of its own" % self.name)
        return self.result_list(data, self.results_at)

    def request_id(self, data: Any, response: HttpResponse) -> Optional[str]:
        """The vendor's id of this request at ``request_id_at`` in the answer (:func:`request_id_text`).
        Override for one the answer's headers carry."""
        value = nested(data, *json_path(self.request_id_at)) if self.request_id_at is not None else None
        return request_id_text(value)

    def items_from(self, results: Iterable[Any], params: SearchParams) -> list[dict[str, Any]]:
        """Raw items of vendor results, each JSON object by :meth:`item_of`; entries that are
        not JSON objects are skipped.

        Results listed with none a JSON object (a list of titles, of ``null``), or none an object
        holding a URL (the ``url`` field renamed), are ``WebParseError``: an answer of an unknown shape, never "no results" (which
        would be cached and shown as a success). A backend whose vendor gives no URL
        (``result_fields`` without ``url``: Wikipedia builds it from the title) is checked once its
        items are built, by :meth:`~.base.Backend.interpret`, as every backend is (none with a usable address).
        """
        if isinstance(results, (Mapping, str, bytes)):  # a results hook's slip: its keys or letters read as results
            raise self._returned("results", results, "a list of the answer's results")
        entries = list(results)
        items = [self._item(result, params) for result in entries if isinstance(result, dict)]
        if entries and not items:  # whatever gives the URL (a field, the title): no object, no item
            raise WebParseError(
                "%s answered with %d result(s), none a JSON object (an unknown shape, not 'no results'; "
                "the first result: %s)" % (self.name, len(entries), json_shape(entries[0])),
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
            )
        if entries and "url" in self.result_fields and not any(_text(item.get("url")) for item in items):
            first = next((entry for entry in entries if isinstance(entry, dict)), entries[0])
            raise WebParseError(
                "%s answered with %d result(s), none a JSON object with a `%s` text (an unknown shape, not "
                "'no results'; the first result: %s)"
                % (self.name, len(entries), ".".join(json_path(self.result_fields["url"])), json_shape(first)),
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
            )
        return items

    def _item(self, result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
        """:meth:`item_of` of ``result``, a dict: an override returning anything else (``None``, a
        forgotten ``return``) is the backend's defect, not an answer of an unknown shape."""
        item = self.item_of(result, params)
        if not isinstance(item, dict):
            raise self._returned("item_of", item, "a dict (the item)")
        return item

    def _returned(self, hook: str, value: Any, wanted: str) -> WebProviderError:
        """``WebProviderError(bad_parse_result)``: this backend's ``hook`` returned ``value``, not ``wanted``
        (it said "answered with a body of an unknown shape (AttributeError ...)", blaming the service)."""
        what = "None" if value is None else "a %s" % type(value).__name__
        return WebProviderError(
            "backend %s's %s returned %s, not %s" % (self.name, hook, what, wanted),
            provider=self.name,
            detail_code=BAD_PARSE_RESULT,
        )

    def item_of(self, result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
        """One vendor result as a raw item: by ``result_fields`` (and ``content_field`` when
        ``include_content`` was asked). Override for a field that needs more, starting from
        ``super().item_of(result, params)``."""
        item = {ours: nested(result, *json_path(theirs)) for ours, theirs in self.result_fields.items()}
        if params.include_content and self.content_field:
            item["content"] = nested(result, *json_path(self.content_field))
        return item

    def result_list(self, data: Any, path: JsonPath) -> list[Any]:
        """The list of results at ``path`` (a key, or a sequence of keys) in a JSON answer:
        ``WebParseError`` naming the path when it is absent or not a list (``null``, an object)."""
        path = json_path(path)
        results = dig(data, path, self.name)
        if not isinstance(results, list):
            raise WebParseError(
                "%s answered with a `%s` that is not a list (%s)" % (self.name, ".".join(path), json_shape(results)),
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
            )
        return results

    # -- configuration --------------------------------------------------------------------

    @classmethod
    def declared_settings(cls) -> tuple[Setting, ...]:
        """Its settings; a declared ``base_url`` without a default has ``default_base_url``."""
        return tuple(
            dataclasses.replace(setting, default=cls.default_base_url)
            if setting.name == "base_url" and setting.default is None
            else setting
            for setting in super().declared_settings()
        )

    def endpoint_url(self) -> str:
        """``Settings.endpoints[name]`` (:meth:`~.base.Backend.overridden_endpoint`), else the base URL + ``endpoint_path``."""
        override = self.settings.endpoints.get(self.name)
        if override:
            return self.overridden_endpoint(override)
        base = self.config.get("base_url") or self.default_base_url
        if base:
            return with_path(str(base), self.endpoint_path)
        return super().endpoint_url()

    def _endpoint_origin(self) -> str:
        """Where the endpoint was set: the endpoint override, else a configured ``base_url``
        (``BOCHA_BASE_URL``), else as for every backend."""
        if not self.settings.endpoints.get(self.name) and self.config.get("base_url"):
            base_url = self.setting("base_url")
            python = "Settings.providers[%r]['base_url'] or %s" % (self.name, base_url.env_or_key())
            return settings_place(python, base_url.env)
        return super()._endpoint_origin()

    def check_configured(self) -> None:
        """Also warn, once per backend and host, when the API key would travel over plain http to
        a host that is not local (``BOCHA_BASE_URL=http://...``): anyone on the way can read it."""
        super().check_configured()
        if not self.config.get("api_key"):
            return
        parts = urlsplit(self.endpoint_url())
        host = (parts.hostname or "").lower()
        if parts.scheme.lower() != "http" or _is_local(host) or not _WARNED_PLAIN_HTTP.first((self.name, host)):
            return
        logger.warning(
            "%s: the endpoint %s is plain http: the API key travels unencrypted to %s; use https:// in %s",
            self.name,
            shown_url(self.endpoint_url()),
            host,
            self._endpoint_origin(),
        )

    def configured_base(self) -> Optional[str]:
        """The endpoint override, else a configured ``base_url`` (``None``: the defaults)."""
        base = self.config.get("base_url")
        return super().configured_base() or (str(base).rstrip("/") if base else None)

    def missing_settings(self) -> list[str]:
        """Required settings not set; an endpoint override stands in for ``base_url``."""
        missing = super().missing_settings()
        if self.settings.endpoints.get(self.name):
            missing = [key for key in missing if key != "base_url"]
        return missing

    def json_headers(self, auth: Optional[tuple[str, str]] = None) -> dict[str, str]:
        """``Accept: application/json`` plus one auth header ``(name, value)`` if given."""
        headers = {"Accept": "application/json"}
        if auth is not None:
            headers[auth[0]] = auth[1]
        return headers

    def bearer(self) -> Optional[tuple[str, str]]:
        """``("Authorization", "Bearer <api_key>")`` when a key is configured."""
        key = self.config.get("api_key")
        return ("Authorization", "Bearer %s" % key) if key else None

    # -- answers --------------------------------------------------------------------------

    def error_envelope(self, data: Any) -> Optional[tuple[VendorCode, Optional[str]]]:
        """``(vendor code, vendor message)`` found in a JSON body, or ``None``.

        Override per vendor; the default knows no envelope.
        """
        return None

    def envelope_status(self, data: Any) -> Any:
        """The HTTP status an error body names besides its code (:func:`api_error`'s ``status_said``),
        or ``None``. Override per vendor; the default knows none."""
        return None

    def _lists_results(self, data: Any) -> bool:
        """Whether ``data`` holds results, a list at ``results_at`` not empty: an answer with its results
        is one whatever else it says (a note in SearXNG's ``error`` or Tavily's ``detail`` beside them),
        so its :meth:`error_envelope` is not read. An error beside an empty list is that error, not "no
        results" (the gateway's ``{"search_results": [], "error": ...}``)."""
        if self.results_at is None:
            return False
        found = nested(data, *json_path(self.results_at))
        return isinstance(found, list) and bool(found)

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """A bot wall (:func:`~.registry.wall_error`: a challenge page where JSON was asked, whatever
        its status, is the block it is, not a refused key or "not JSON"), else the vendor's error
        envelope (in an answer that lists no results: :meth:`_lists_results`) or status, mapped by :func:`api_error`, with what to check: the key's setting for a
        refused key or account, the endpoint's for a 404."""
        wall = self.wall(response)
        if wall is not None:
            return wall
        data = try_json(response)
        envelope = self.error_envelope(data) if data is not None and not self._lists_results(data) else None
        code, message = envelope if envelope is not None else (None, None)
        error = api_error(
            response,
            self.name,
            code=code,
            message=message,
            vendor_codes=self.vendor_codes,
            auth_statuses=self.auth_statuses,
            status_said=self.envelope_status(data) if envelope is not None else None,
        )
        remedy = self._remedy(error) if error is not None else None
        if error is not None and remedy:  # after the vendor's words: a new sentence when they end one
            error.message += (
                (" %s%s" % (remedy[0].upper(), remedy[1:])) if error.message.endswith(".") else "; " + remedy
            )
        return error

    def wall(self, response: HttpResponse) -> Optional[WebBlocked]:
        """The bot wall ``response`` is (:func:`~.registry.wall_error`), looked for only when its body is
        no JSON: an answer in JSON is the service's own (25 us a search saved on a Brave answer)."""
        return registry.wall_error(response, self.name) if try_json(response) is None else None

    def _remedy(self, error: WebSearchError) -> Optional[str]:
        """What the user can check for ``error``: the key's setting (and, for a refusal that is
        not plainly the key's, its account) for an ``AuthError``, or, when no key was sent, the
        service's own account for a 402; the endpoint for a 404."""
        if isinstance(error, AuthError):
            key = next((s for s in self.declared_settings() if s.secret and s.name == "api_key"), None)
            if key is None:
                return None
            if not self.config.get("api_key"):  # an optional key (SearXNG behind a proxy that wants one)
                if error.detail_code == http_status(402):  # Payment Required: the account's, a key would not help
                    return "no key was sent, so the account refused is the service's own: its plan or credit used up"
                return "no key was sent: set one in %s" % key.where(self.name)
            account = "" if error.detail_code in KEY_REFUSALS else " and its account's plan or credit"
            return "check the key in %s%s" % (key.where(self.name), account)
        if error.detail_code == http_status(404):
            return self._endpoint_remedy()
        return None

    def _endpoint_remedy(self) -> str:
        """What to check when the endpoint answered 404: the setting it came from (a base URL is the
        API root), or, for the built-in default, that the service moved its API."""
        origin = self._endpoint_origin()
        if self.config.get("base_url") and not self.settings.endpoints.get(self.name):
            return "check %s, the API root: requests go to <base URL>%s" % (origin, self.endpoint_path)
        if self.configured_base() or not (self.default_base_url or self.default_endpoint):
            return "check %s" % origin
        return "the service may have moved its API: set %s to its new address" % origin

    def data(self, response: HttpResponse) -> Any:
        """The JSON body of a successful answer (``WebParseError`` when it is not JSON)."""
        return json_body(response, self.name)
