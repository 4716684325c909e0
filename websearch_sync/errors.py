"""The one error vocabulary of websearch_sync.

Every failure a caller can get from :func:`websearch_sync.search` or
:func:`websearch_sync.fetch` is an instance of :class:`WebSearchError`, or of one
of its subclasses, whose class name equals its ``code``.
"""

import copy
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Optional, TypedDict, TypeVar

from .forks import RenewalFailed as RenewalFailed  # forks (the lowest layer) raises it; its public name is here
from .secrets import redact as redact  # the backends and state tiers import errors and redaction from here

__all__ = [
    "WebSearchError",
    "InvalidInput",
    "UrlTooLong",
    "Timeout",
    "NetworkError",
    "WebBlocked",
    "AuthError",
    "BadGateway",
    "WebParseError",
    "WebProviderError",
    "ToolNotFound",
    "StdoutClaimed",
    "RenewalFailed",
    "error_from_code",
]

# -- detail codes
# Every ``detail_code`` the package sets is one of these constants (the strings are the
# contract: callers, cool-down settings and recorded goldens compare them), grouped by the
# error class that carries them; docs/errors.md lists each one (a test checks both ways).
# The HTTP status family ``http_<status>`` is built by :func:`http_status` (the named ones
# below are those the docs mention). tests/unit/test_error_table.py refuses a literal code.

# InvalidInput: the call's arguments
EMPTY_QUERY = "empty_query"
BAD_QUERY = "bad_query"
QUERY_TOO_LONG = "query_too_long"  #: also a backend's own limit, and Wikipedia's cirrussearch-query-too-long
UNSUPPORTED_QUERY = "unsupported_query"  #: a query a backend cannot take in that form (Tavily: site: operators alone)
BAD_MAX_RESULTS = "bad_max_results"
BAD_TIMEOUT = "bad_timeout"
BAD_LOCALE = "bad_locale"
BAD_TIME_RANGE = "bad_time_range"
BAD_SITE_FILTER = "bad_site_filter"
BAD_SAFE_SEARCH = "bad_safe_search"
BAD_TRACE_ID = "bad_trace_id"
BAD_INCLUDE_CONTENT = "bad_include_content"
BAD_MAX_CONTENT_CHARS = "bad_max_content_chars"
BAD_OPTION = "bad_option"  #: a backend-specific option no backend of the call takes
BAD_PAGENO = "bad_pageno"
BAD_MAX_PAGES = "bad_max_pages"  #: the option of every engine that reads next pages
BAD_RESOLVE_LINKS = "bad_resolve_links"  #: baidu's option
BAD_SUMMARY = "bad_summary"  #: bocha's option
BAD_TOPIC = "bad_topic"  #: tavily's option
BAD_WIKI = "bad_wiki"  #: wikipedia's option
BAD_ENGINES = "bad_engines"  #: searxng's option
BAD_CATEGORIES = "bad_categories"  #: searxng's option
UNKNOWN_ENGINES = "unknown_engines"  #: a warning: no SearXNG result came from the engines asked for
UNKNOWN_CATEGORIES = "unknown_categories"  #: a warning: ... from the categories asked for
UNKNOWN_BACKEND = "unknown_backend"
BAD_VERTICAL = "bad_vertical"  #: ``vertical=`` is not one of web, news, images, videos
UNSUPPORTED_VERTICAL = "unsupported_vertical"  #: a backend of the call does not serve the vertical
BAD_FILTER = "bad_filter"  #: an image or video filter's value, or one given for another vertical
# InvalidInput: configuration
NOT_CONFIGURED = "not_configured"
BAD_SETTING = "bad_setting"
BAD_ENDPOINT = "bad_endpoint"
BAD_PROXY = "bad_proxy"
BAD_HEADER = "bad_header"  #: a header value that cannot be sent (outside Latin-1, a line break)
BAD_IMPERSONATE = "bad_impersonate"  #: an ``impersonate`` value that is no offered profile
MISSING_BROWSER_EXTRA = "missing_browser_extra"  #: a browser profile without the ``browser`` extra (or Python < 3.10)
BAD_STATE_URL = "bad_state_url"
BAD_STATE_PREFIX = "bad_state_prefix"
MISSING_REDIS_EXTRA = "missing_redis_extra"
STATE_IS_CLUSTER = "state_is_cluster"  #: the state URL names a node of a sharded Redis Cluster (it answers MOVED)
MISSING_MCP_EXTRA = "missing_mcp_extra"
BAD_MAX_CONCURRENT = "bad_max_concurrent"
INVALID_PARAMS = "invalid_params"  #: the service refused the parameters (Brave 422, Kagi, Wikipedia)
# InvalidInput: fetch
BAD_URL = "bad_url"
BAD_EXTRACT_MODE = "bad_extract_mode"
BAD_MAX_CHARS = "bad_max_chars"
BAD_MAX_BYTES = "bad_max_bytes"
BAD_ALLOW_PRIVATE = "bad_allow_private"
BAD_INCLUDE_COMMENTS = "bad_include_comments"
BAD_IMAGES = "bad_images"
PRIVATE_ADDRESS = "private_address"  #: fetch (or a search redirect) aimed at a private/loopback address
# InvalidInput: client arguments
BAD_STRATEGY = "bad_strategy"
BAD_RETRIES = "bad_retries"
BAD_CACHE_TTL_S = "bad_cache_ttl_s"
BAD_MIN_INTERVAL_S = "bad_min_interval_s"
BAD_BUDGET_MS = "bad_budget_ms"
BAD_COOLDOWNS = "bad_cooldowns"
BAD_CACHE_PATH = "bad_cache_path"
BAD_CACHE_MAX_ANSWERS = "bad_cache_max_answers"
CLIENT_CLOSED = "client_closed"  #: a search or fetch on a SearchClient after its close()
SESSION_FROM_PARENT = "session_from_parent"  #: a forked child using a requests.Session its parent gave a client
# InvalidInput: tools, command line, contract kit
BAD_ARGUMENTS = "bad_arguments"
BAD_TOOL_NAME = "bad_tool_name"
BAD_STYLE = "bad_style"
BAD_IMAGES = "bad_images"  #: call_tool, ToolSession: ``images`` no bool; tool_definitions: not a bool or "line"
BAD_MAX_REPEATS = "bad_max_repeats"
BAD_REPEAT_WINDOW = "bad_repeat_window"
CASE_EXISTS = "case_exists"
BAD_CASE_NAME = "bad_case_name"
NO_CASES = "no_cases"
# Timeout
CONNECT_TIMEOUT = "connect_timeout"
READ_TIMEOUT = "read_timeout"
DEADLINE_EXCEEDED = "deadline_exceeded"
DNS_TIMEOUT = "dns_timeout"
BUDGET_EXHAUSTED = "budget_exhausted"  #: a rate-limit slot would come after the budget ends
ENGINE_TIMEOUT = "engine_timeout"  #: a SearXNG engine timed out inside the instance
NOT_ASKED = "not_asked"  #: in ``errors`` only: a backend of a fallback chain the deadline left no time to ask
# NetworkError
DNS_ERROR = "dns_error"
NETWORK_BLOCKED = "network_blocked"  #: a test blocked the connection (websearch_sync.testing.no_network)
CONNECTION_REFUSED = "connection_refused"
CONNECTION_RESET = "connection_reset"
CONNECTION_ERROR = "connection_error"
TLS_ERROR = "tls_error"
PROXY_ERROR = "proxy_error"
INCOMPLETE_BODY = "incomplete_body"
BAD_CONTENT_ENCODING = "bad_content_encoding"
MALFORMED_RESPONSE = "malformed_response"
REQUEST_FAILED = "request_failed"
STATE_UNAVAILABLE = "state_unavailable"  #: the shared state (Redis) cannot be reached
# WebBlocked
CAPTCHA_REQUIRED = "captcha_required"  #: a bot wall
HTTP_403 = "http_403"
HTTP_429 = "http_429"
# AuthError
MISSING_API_KEY = "missing_api_key"
INVALID_API_KEY = "invalid_api_key"
NO_BILLING = "no_billing"  #: Kagi
INSUFFICIENT_CREDIT = "insufficient_credit"  #: Kagi
HTTP_401 = "http_401"
HTTP_402 = "http_402"  #: an API backend's account without credit (Payment Required; Jina: no balance left)
HTTP_432 = "http_432"  #: Tavily: plan limit
HTTP_433 = "http_433"  #: Tavily: pay-as-you-go limit
# BadGateway
MAXLAG = "maxlag"  #: Wikipedia's databases lag
SEARCH_BUSY = "search_busy"  #: Wikipedia's search (CirrusSearch) shed load or failed for a while: "try again later"
# WebParseError
UNEXPECTED_SHAPE = "unexpected_shape"
NOT_JSON = "not_json"
NO_CONTENT = "no_content"  #: fetch: a page with no readable text
PDF_NO_TEXT = "pdf_no_text"  #: fetch: a PDF without a text layer (scanned pages)
PDF_BROKEN = "pdf_broken"  #: fetch: a PDF its reader cannot parse
PDF_PAGES_LEFT_OUT = "pdf_pages_left_out"  #: fetch, a warning: pages of a PDF its reader cannot parse, left out
IMAGE_UNREADABLE = "image_unreadable"  #: fetch: an image whose size cannot be read, or cut short
# WebProviderError
HTTP_404 = "http_404"
API_ERROR = "api_error"  #: an error envelope in a 2xx answer
ENGINE_ERROR = "engine_error"  #: a SearXNG engine failed inside the instance
RESPONSE_TOO_LARGE = "response_too_large"
REDIRECT_LOOP = "redirect_loop"
BAD_REDIRECT = "bad_redirect"
OFFSITE_REDIRECT = "offsite_redirect"  #: a search endpoint redirected to another site (SearXNG's `!!bang`)
UNSUPPORTED_CONTENT = "unsupported_content"
PDF_ENCRYPTED = "pdf_encrypted"  #: fetch: a PDF that needs a password to read
IMAGE_TOO_LARGE = "image_too_large"  #: fetch: an image over the byte or pixel cap
PDF_READS_BUSY = "pdf_reads_busy"  #: fetch: PDF reads given up earlier still running (retryable)
INTERNAL_ERROR = "internal_error"  #: a bug inside a backend or the extractor
BAD_PARSE_RESULT = "bad_parse_result"  #: a backend's parse returned the wrong shape
ANSWER_ONLY = "answer_only"
ANSWERS_LEFT_OUT = "answers_left_out"  #: a warning: SearXNG's answers past their cap in all, left out and counted
OPTION_OVERRIDDEN = "option_overridden"  #: a warning: SearXNG searched other engines than asked (a locked preference)
TIME_RANGE_SKIPPED = "time_range_skipped"  #: a warning: SearXNG did not ask its engines without time-range support
TIME_RANGE_UNVERIFIED = "time_range_unverified"  #: a warning: SearXNG's /config could not be read to tell that
PAGING_SKIPPED = "paging_skipped"  #: a warning: SearXNG did not ask its engines without paging for a later page
PAGING_UNVERIFIED = "paging_unverified"  #: a warning: SearXNG's /config could not be read to tell that
NEXT_PAGE_REPEATED = "next_page_repeated"  #: a warning: a page's "next" asked for that page again; paging stopped
NO_RECORDED_CASE = "no_recorded_case"  #: replay: the request matches no recorded case
# ToolNotFound
UNKNOWN_TOOL = "unknown_tool"
# -- end of detail codes

#: ``AuthError`` details that say the key itself was refused (the others: the account behind it,
#: its plan, credit or balance, which topping it up heals; or a key missing before sending).
KEY_REFUSALS = (HTTP_401, INVALID_API_KEY)


def http_status(status: int) -> str:
    """The detail code of an HTTP status: ``http_<status>`` (``http_429``)."""
    return "http_%d" % status


#: The most characters of an error's ``message`` (a few hundred at most for the package's own words
#: and an upstream's, which are cut first: engine/json_api.py).
MAX_MESSAGE_CHARS = 2000


def clipped(text: str, most: int) -> str:
    """``text`` when at most ``most`` characters, else its start and end with the count left out
    between them, ``most`` characters at most (a value of a megabyte, shown in a message or a
    ``repr``). A text that fits is left alone, so clipping a clipped text changes nothing."""
    if len(text) <= most:
        return text
    kept = (most - len(_left_out(len(text)))) // 2  # the longest marker: the count is at most len(text)
    return text[:kept] + _left_out(len(text) - 2 * kept) + text[len(text) - kept :]


def cut_end(text: str, most: int) -> str:
    """``text`` when at most ``most`` characters, else its start ending in ``...``, ``most`` in all
    (a title, an upstream's words: what comes first says most)."""
    return text if len(text) <= most else text[: most - 3] + "..."


def counted(count: int, noun: str, plural: Optional[str] = None) -> str:
    """``count`` and ``noun``, in the plural unless ``count`` is 1 (``1 character``, ``2 characters``;
    ``plural`` when not ``noun + "s"``: ``counted(n, "entry", "entries")``)."""
    return "%d %s" % (count, noun if count == 1 else plural or noun + "s")


def _left_out(count: int) -> str:
    return " ... [%d characters left out] ... " % count  # more than the marker's length: never 1


#: The characters ``str.splitlines`` breaks a line at (a one-line text holds none of them).
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
#: Each of :data:`LINE_BREAKS` and its escape in a Python string literal.
_LINE_BREAKS = {ord(char): repr(char)[1:-1] for char in LINE_BREAKS}


def one_line(text: str) -> str:
    """``text`` on one line: each line break written as its escape in a Python string literal
    (``\\n``); nothing else is escaped."""
    return text.translate(_LINE_BREAKS)


class _ErrorInfoKeys(TypedDict):
    type: str
    message: str
    retryable: bool
    detail_code: Optional[str]
    provider: Optional[str]


class ErrorInfo(_ErrorInfoKeys, total=False):
    """One failure in ``WebSearchError.to_dict()`` form, e.g. in a response's ``errors``."""

    errors: list["ErrorInfo"]
    engine: str  #: the engine of a meta-engine (SearXNG) that failed
    retry_after: float  #: seconds until that engine is asked again (it is suspended)
    url: str  #: the page of a result that ``include_content`` could not read
    page: int  #: the result page (2, 3 ...) that failed; the results are those of the pages before it
    engines_not_listed: int  #: the failures of a meta-engine's engines left out of ``errors`` (counted)


class WebSearchError(Exception):
    """Base class of every error raised by websearch_sync.

    Attributes:
        code: the error code, equal to the class name (``"WebBlocked"`` ...).
        message: a human-readable explanation on one line, at most :data:`MAX_MESSAGE_CHARS`
            characters (never contains API keys).
        provider: name of the backend involved, or ``None``.
        retryable: whether trying the same call again later may succeed.
        detail_code: a finer machine-readable reason (``"captcha_required"``,
            ``"http_429"``, ``"not_configured"`` ...), or ``None``.
        status: the HTTP status of the upstream answer, if there was one.
        retry_after: seconds the upstream asked us to wait (``Retry-After``), if any.
        errors: other errors attached to this one (e.g. the failures of the
            other backends of a fallback chain), as ``WebSearchError`` objects.
        hint: what a Python caller can do about it (``"pass allow_private=True ..."``),
            or ``None``. Kept out of ``message`` and ``to_dict()`` (a model reading a
            tool result cannot act on it; the command line gives its own flags
            instead); ``str(error)`` shows it after the message.

    ``str(error)`` also names the other backends that failed (``errors`` with another
    provider), so a traceback or a log line of a fallback chain does not read as if only
    the first backend had been tried. Entries ``not_asked`` are left out of that list: those
    backends did not fail, and the chain's message already names them ("not asked: ...").
    """

    code = "WebSearchError"
    default_retryable = False
    #: Detail codes of this class that no retry heals, although the class is retryable.
    final_details: tuple[str, ...] = ()
    #: The keys of a form that name no argument (:data:`_FORM_ONLY_KEYS`), which to_dict() and
    #: repr() show: kept apart from the attributes, which a plugin's subclass may name alike. Empty
    #: and read only here, for a plugin's subclass that skips ``__init__``; ``__init__`` gives its own.
    _form_only: Mapping[str, Any] = MappingProxyType({})
    # What a plugin's subclass that does not call this __init__ (it sets the attributes it knows,
    # or none) reads instead of AttributeError when the client reports it; also __getattr__'s.
    provider: Optional[str] = None
    detail_code: Optional[str] = None
    status: Optional[int] = None
    retry_after: Optional[float] = None
    hint: Optional[str] = None

    def __init__(
        self,
        message: str,
        *,
        provider: Optional[str] = None,
        detail_code: Optional[str] = None,
        status: Optional[int] = None,
        retryable: Optional[bool] = None,
        retry_after: Optional[float] = None,
        errors: Optional[Iterable["WebSearchError"]] = None,
        hint: Optional[str] = None,
    ) -> None:
        super().__init__()
        self.message = message
        self.provider = provider
        self.detail_code = detail_code
        self.status = status
        self.retry_after = retry_after
        self.retryable = self._default_retryable(detail_code) if retryable is None else bool(retryable)
        self.errors: list[WebSearchError] = list(errors or [])
        self.hint = hint
        self._form_only = {}  # its own: a subclass or error_from_code fills it

    @property
    def message(self) -> str:
        """The message as shown: one line, at most :data:`MAX_MESSAGE_CHARS` characters (a longer
        one by its start and end). It is cut only when read, so secrets are masked in the whole
        text first (:func:`redact_error`), never left half shown by the cut. The price: an error
        holds its whole text in memory while it lives (a pickled or copied one, the shown one)."""
        return clipped(self._whole_text(), MAX_MESSAGE_CHARS)

    @message.setter
    def message(self, text: str) -> None:
        """Every assignment is made one line (a value quoted in it may hold line breaks). One that
        extends a cut message (``error.message += "; not asked: bing"``) extends the whole text,
        so the cut, made again, counts what it leaves out of the whole. A pickled or copied error
        holds only the message as shown: extended, its count is that of the cut message's middle.
        A message that is no text, a plugin's ``raise WebParseError(exc)`` or ``WebBlocked(None)``, is
        made text as ``str()`` makes it (``None``: the class's name): ``str(error)`` raised ``TypeError``
        on ``None``, and a tool result holding the exception could not be written as JSON."""
        if not isinstance(text, str):
            text = type(self).__name__ if text is None else str(text)
        if isinstance(text, str):
            shown = self.__dict__.get("_text")
            if shown is not None and len(shown) > MAX_MESSAGE_CHARS and text.startswith(self.message):
                text = shown + text[len(self.message) :]
            text = one_line(text)
        self._text = text
        self.args = (self.message,)

    if not TYPE_CHECKING:  # mypy would read any misspelt attribute as this method's Any

        def __getattr__(self, name: str) -> Any:
            """``retryable`` and ``errors`` of a plugin's subclass that set neither (it did not call
            this ``__init__``): the class's default and a list of its own; any other name is missing.
            A property (any descriptor) of the class lands here when its getter raises
            ``AttributeError``: it is read again, so that its own error is raised (a bug inside a
            property read as "no attribute" named after the property). The price: such a getter runs
            twice per read (a side effect in it happens twice; ``hasattr`` runs it twice too)."""
            owner = next((klass for klass in type(self).__mro__ if name in vars(klass)), None)
            if owner is not None and hasattr(type(vars(owner)[name]), "__get__"):
                return vars(owner)[name].__get__(self, type(self))
            if name == "retryable":
                return self._default_retryable(self.detail_code)
            if name == "errors":
                self.errors = []
                return self.errors
            raise AttributeError("%r object has no attribute %r" % (type(self).__name__, name))

    def _whole_text(self) -> str:
        """The message before its cut; for a plugin's subclass that set none (it called neither this
        ``__init__`` nor the setter), its arguments on one line, else its class name."""
        if "_text" in self.__dict__:
            text: str = self.__dict__["_text"]
            return text
        return one_line(Exception.__str__(self)) or type(self).__name__

    def _default_retryable(self, detail_code: Optional[str]) -> bool:
        return self.default_retryable and detail_code not in self.final_details

    def to_dict(self) -> ErrorInfo:
        """Return ``{"type", "message", "retryable", "detail_code", "provider"}``, plus
        ``"errors"`` (the attached errors in the same form) when there are any, and the keys of a
        form :func:`error_from_code` was given that name no argument of the class (``engine``,
        with its ``retry_after``; ``url``; ``page``), never an attribute of those names."""
        data: ErrorInfo = {
            "type": self.code,
            "message": self.message,
            "retryable": self.retryable,
            "detail_code": self.detail_code,
            "provider": self.provider,
        }
        if self.errors:
            data["errors"] = [error.to_dict() for error in self.errors]
        form = self._form_only
        if "engine" in form:
            data["engine"] = form["engine"]
            if self.retry_after is not None:  # how long that engine is suspended
                data["retry_after"] = self.retry_after
        if "url" in form:
            data["url"] = form["url"]
        if "page" in form:
            data["page"] = form["page"]
        if "engines_not_listed" in form:  # ENGINES_NOT_LISTED (a TypedDict key is spelt out)
            data["engines_not_listed"] = form["engines_not_listed"]
        return data

    @property
    def engines_not_listed(self) -> int:
        """How many failures of a meta-engine's engines ``errors`` leaves out (0: none): an instance
        naming thousands lists the first few and one of each other kind, and counts the rest."""
        count = self._form_only.get(ENGINES_NOT_LISTED, 0)
        return count if isinstance(count, int) else 0

    def __str__(self) -> str:
        text = "%s; %s" % (self.message, self.hint) if self.hint else self.message
        others = [e for e in self.errors if e.provider != self.provider and e.detail_code != NOT_ASKED]
        if not others:
            return text
        failures = ", ".join("%s (%s)" % (error.provider, error.detail_code or error.code) for error in others)
        return "%s [also failed: %s]" % (text, failures)

    def __repr__(self) -> str:
        """The call that makes this error: the arguments that are not their defaults (a log or a
        batch job's list of failures shows when to retry, and the chain's other failures)."""
        parts = [repr(self.message)]
        for name in ("provider", "detail_code", "status", "retry_after", "hint"):
            value = getattr(self, name)
            if value is not None:
                parts.append("%s=%r" % (name, value))
        parts.extend("%s=%r" % item for item in self._form_only.items())
        if self.retryable != self._default_retryable(self.detail_code):
            parts.append("retryable=%r" % self.retryable)
        if self.errors:
            parts.append("errors=%r" % (self.errors,))
        return "%s(%s)" % (type(self).__name__, ", ".join(parts))

    def __reduce__(self) -> tuple[Any, ...]:
        """Keep the keyword-only attributes when pickled (multiprocessing) or copied: the message as
        shown (a worker sends no megabyte back), and a form's keys in a mapping of the copy's own."""
        shown = self.message  # one object: pickled once, the second time by reference
        state = {**self.__dict__, "_text": shown, "_form_only": dict(self._form_only)}
        return (_rebuild_error, (type(self), shown, state))


_E = TypeVar("_E", bound=WebSearchError)


def _rebuild_error(cls: type[_E], message: str, state: dict[str, Any]) -> _E:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


class InvalidInput(WebSearchError):
    """Bad input: blank or overlong query, max_results outside 1..50 (images 1..100, videos 1..60; the LLM tool: 1..10
    unless configured), unknown
    backend, bad URL for fetch, missing configuration (``not_configured``) or a
    refused private target (``private_address``)."""

    code = "InvalidInput"


class UrlTooLong(InvalidInput):
    """A URL refused only for its length: over 8192 characters, the longest fetch sends
    (``websearch_sync.net.urls.MAX_URL_CHARS``). An ``InvalidInput`` (``bad_url``) like any other
    refused URL, in ``to_dict()``, the command line and ``isinstance``; its own class so a caller can
    tell it apart by a public name, and a redirect's hop can say why it does not follow a target a
    browser would."""


class Timeout(WebSearchError):
    """A connect or read timeout, or the whole-call deadline passed.

    Not retryable: ``budget_exhausted`` (the next rate-limit slot comes after the
    call's budget; a later call with a fresh budget may pass)."""

    code = "Timeout"
    default_retryable = True
    final_details = (BUDGET_EXHAUSTED,)


class NetworkError(WebSearchError):
    """DNS failure, refused or reset connection, TLS or proxy failure, broken body.

    Not retryable: ``dns_error`` (the host name does not resolve), ``network_blocked`` (a test
    blocked the connection: :class:`websearch_sync.testing.NetworkAccessBlocked`)."""

    code = "NetworkError"
    default_retryable = True
    final_details = (DNS_ERROR, NETWORK_BLOCKED)


class WebBlocked(WebSearchError):
    """The service refused us: a bot wall (``captcha_required``, even with HTTP 200),
    ``http_403`` or ``http_429``. Only ``http_429`` is retryable."""

    code = "WebBlocked"
    #: The part of its message counted when it was met (a 429's "; retry after N s"), which a
    #: cool-down quoting the block later leaves out: the seconds would be stale. Kept as the words
    #: themselves, so a message extended or reworded after it was built (a vendor's words, a
    #: backend's advice) is quoted whole; ``None``: nothing in the message goes stale.
    stale_words: Optional[str] = None
    #: How ``stale_words`` say the wait (a name of ``net.status.WAIT_PHRASINGS``): ``None``, the
    #: wait the service asked for ("; retry after N s"); ``"left"``, a cool-down's "(N s left)".
    #: A waiter's copy says its aged wait again in the same phrasing.
    stale_phrasing: Optional[str] = None

    def _default_retryable(self, detail_code: Optional[str]) -> bool:
        return detail_code == HTTP_429


class AuthError(WebSearchError):
    """Missing or rejected API key (or an instance that refuses our requests)."""

    code = "AuthError"


class BadGateway(WebSearchError):
    """The upstream answered with a 5xx status."""

    code = "BadGateway"
    default_retryable = True


class WebParseError(WebSearchError):
    """A 200 answer whose body is not recognisable (DOM or JSON shape changed)."""

    code = "WebParseError"


class WebProviderError(WebSearchError):
    """Any other backend failure (unexpected status, unsupported content, redirect loop...).
    Only ``pdf_reads_busy`` is retryable: the reads given up earlier end at pypdf's next checkpoint
    (usually within a second; seconds for a page whose fonts' character maps are tens of MB)."""

    code = "WebProviderError"

    def _default_retryable(self, detail_code: Optional[str]) -> bool:
        """``pdf_reads_busy``, or what the class says (a plugin's subclass setting
        ``default_retryable`` keeps it)."""
        return detail_code == PDF_READS_BUSY or super()._default_retryable(detail_code)


class ToolNotFound(WebSearchError):
    """The tool adapter was asked for a tool name it does not serve."""

    code = "ToolNotFound"


class StdoutClaimed(RuntimeError):
    """A thread ran ``websearch_sync.cli.main`` or ``serve_stdio`` while another thread's command
    or MCP server held stdout: ``sys.stdout`` and descriptor 1 are the process's, so two claims at
    once would restore each other's streams mid-command. Raised at once, before anything changed:
    run them one at a time, or in separate processes.

    Not a :class:`WebSearchError` (no search or fetch failed: a programming error of the caller's
    threads, like ``TypeError``), so it has no ``detail_code`` nor ``retryable``; defined here, the
    one vocabulary of the package's errors, so a caller catches it by a public name."""


ERROR_CLASSES: dict[str, type[WebSearchError]] = {
    cls.code: cls
    for cls in (
        InvalidInput,
        Timeout,
        NetworkError,
        WebBlocked,
        AuthError,
        BadGateway,
        WebParseError,
        WebProviderError,
        ToolNotFound,
    )
}


#: The key of an error form (a response's, a tool result's) counting the failures of a meta-engine's
#: engines its ``errors`` leaves out (``engine.engines_listed``: the first few are listed).
ENGINES_NOT_LISTED = "engines_not_listed"
#: The keys of an error form (:class:`ErrorInfo`) that name no argument of the error classes: where a
#: response's entry failed (``url``, ``page``), which engine of a meta-engine did (``engine``), how
#: many of its engines' failures ``errors`` leaves out (:data:`ENGINES_NOT_LISTED`).
_FORM_ONLY_KEYS = ("engine", "url", "page", ENGINES_NOT_LISTED)


def error_from_code(code: str, message: str, **fields: Any) -> WebSearchError:
    """Build the error subclass named ``code`` (``WebProviderError`` if unknown).

    The inverse of ``error.to_dict()``: a caller that got an error form as data (a worker's return
    value, a tool result) raises the same exception again. ``errors`` may hold error forms
    (``to_dict()["errors"]``), built back the same way; a form's ``engine``, ``url`` (text), ``page`` and
    ``engines_not_listed`` (numbers; another type is ``TypeError``) are kept apart from the attributes, so ``to_dict()`` gives
    the form back."""
    kept = {key: fields.pop(key) for key in _FORM_ONLY_KEYS if key in fields}
    for key, value in kept.items():
        kind = int if key in ("page", ENGINES_NOT_LISTED) else str
        if not isinstance(value, kind) or isinstance(value, bool):
            raise TypeError("an error form's %r is a %s, not a %s" % (key, kind.__name__, type(value).__name__))
    if fields.get("errors") is not None:
        fields["errors"] = [_from_form(entry) if isinstance(entry, Mapping) else entry for entry in fields["errors"]]
    error = ERROR_CLASSES.get(code, WebProviderError)(message, **fields)
    if kept:
        error._form_only = kept
    return error


def _from_form(form: Mapping[str, Any]) -> WebSearchError:
    """The error an error form (an entry of a form's ``errors``) was made from."""
    fields = {key: value for key, value in form.items() if key not in ("type", "message")}
    return error_from_code(form["type"], form["message"], **fields)


def copied_error(error: _E) -> _E:
    """A copy of ``error`` (and of the errors attached to it) another thread may raise and redact in
    place: its own attributes, their values shared, never pickled (a plugin's error may hold a lock
    or a response, which ``copy.deepcopy`` refuses with a ``TypeError``). It keeps the whole message,
    not the cut one ``copy.copy`` keeps (:meth:`WebSearchError.__reduce__`): the copy is redacted
    before the cut (:func:`redact_error`), so a secret across the cut is masked whole; and the chain
    (``__cause__``), which tells why the first raiser failed."""
    clone = copy.copy(error)
    clone.__dict__["_text"] = error._whole_text()
    clone.args = (clone.message,)
    clone.__cause__ = error.__cause__
    clone.__suppress_context__ = error.__suppress_context__
    clone.errors = [copied_error(attached) for attached in error.errors]
    return clone


def redact_error(error: _E, secrets: Iterable[Optional[str]]) -> _E:
    """Redact ``secrets`` from the message of ``error`` and of the errors attached to it, in place;
    returns ``error``. The whole message is redacted, before it is cut to be shown."""
    secret_list = [s for s in secrets if s]
    if secret_list:
        items: list[WebSearchError] = [error, *error.errors]
        for item in items:
            item.message = redact(item._whole_text(), secret_list)
    return error


def client_closed() -> InvalidInput:
    """The error of a search or fetch on a client after its ``close()``: one wording, whether the
    client or its transport (a browser wire not built before the close) finds it."""
    return InvalidInput(
        "this SearchClient is closed (close() was called, or its with block ended); make a new one",
        detail_code=CLIENT_CLOSED,
    )


def unresolved_host(host: str, provider: Optional[str] = None) -> NetworkError:
    """``NetworkError(dns_error)``: ``host`` does not resolve (no address, or the resolver said no), in
    one wording whoever resolved it: a search's wire, libcurl's own resolver, fetch's address check."""
    return NetworkError("could not resolve the host name %s" % host, provider=provider, detail_code=DNS_ERROR)


#: The hint of fetch's refusal of an image it was not asked for (``unsupported_content``, whose
#: other hints name an extra to install): the command line names its flag instead.
ASK_FOR_IMAGES = "pass images=True to receive it as base64 data with its size"
#: The end of that refusal's message, which a caller who can ask reads (a Python caller, the command line).
IMAGES_WHEN_ASKED = "fetch returns images only when asked"
#: Its end as the agent tools say it (``call_tool``, a ``ToolSession``, the MCP server's ``--no-images``):
#: the model has no argument to ask with, its host decided.
TOOL_RETURNS_NO_IMAGES = "this tool returns text, not images (its host passes no images to the model)"
#: The hint of fetch's ``dns_error`` for a page's host while a proxy is in force: the command line's
#: "set a proxy" would send the user to what is already done.
RESOLVED_HERE = (
    "fetch resolves a page's host on this machine, through a proxy too (its check of private addresses needs "
    "the address): this machine's DNS must resolve it"
)
#: The hint of a body the byte cap cut where the part read is of no use (a page whose text had
#: not begun, a PDF, an image): the command line names its flag instead.
RAISE_MAX_BYTES = "raise max_bytes"


def install_hint(extra: str) -> str:
    """How to install the optional ``extra``, whatever way this package was installed: its
    packages as this installation's metadata lists them (``pip install 'pypdf>=6.21.3'`` works
    after a git URL, a wheel or a checkout alike), and the checkout's spelling: the package is
    on no index, so a requirement naming it with the extra would not resolve."""
    from importlib import metadata  # only when a message needs it

    marker = 'extra == "%s"' % extra
    try:
        requires = metadata.requires("websearch-sync") or []
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        requires = []
    packages = [requirement.split(";", 1)[0].strip() for requirement in requires if marker in requirement]
    checkout = "pip install -e '.[%s]'" % extra
    if not packages:
        return "the `%s` extra (from a checkout: %s)" % (extra, checkout)
    return "the `%s` extra: pip install %s (from a checkout: %s)" % (
        extra,
        " ".join("'%s'" % package.replace(" ", "") for package in packages),
        checkout,
    )
