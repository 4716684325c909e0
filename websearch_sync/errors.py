"""The one error vocabulary of websearch_sync.

Every failure a caller can get from :func:`websearch_sync.search` or
:func:`websearch_sync.fetch` is an instance of :class:`WebSearchError`, or of one
of its subclasses, whose class name equals its ``code``.
"""

from collections.abc import Iterable
from typing import Any, Optional, TypedDict, TypeVar

from .secrets import redact as redact  # the backends and state tiers import errors and redaction from here

__all__ = [
    "WebSearchError",
    "InvalidInput",
    "Timeout",
    "NetworkError",
    "WebBlocked",
    "AuthError",
    "BadGateway",
    "WebParseError",
    "WebProviderError",
    "ToolNotFound",
]

#: Detail code: a browser profile asked for without the ``browser`` extra (or on Python < 3.10).
MISSING_BROWSER_EXTRA = "missing_browser_extra"
#: Detail code: an ``impersonate`` value that is no offered profile.
BAD_IMPERSONATE = "bad_impersonate"


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


class WebSearchError(Exception):
    """Base class of every error raised by websearch_sync.

    Attributes:
        code: the error code, equal to the class name (``"WebBlocked"`` ...).
        message: a human-readable explanation (never contains API keys).
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
    """

    code = "WebSearchError"
    default_retryable = False
    #: Detail codes of this class that no retry heals, although the class is retryable.
    final_details: tuple[str, ...] = ()

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
        super().__init__(message)
        self.message = message
        self.provider = provider
        self.detail_code = detail_code
        self.status = status
        self.retry_after = retry_after
        self.retryable = self._default_retryable(detail_code) if retryable is None else bool(retryable)
        self.errors: list[WebSearchError] = list(errors or [])
        self.hint = hint

    def _default_retryable(self, detail_code: Optional[str]) -> bool:
        return self.default_retryable and detail_code not in self.final_details

    def to_dict(self) -> ErrorInfo:
        """Return ``{"type", "message", "retryable", "detail_code", "provider"}``, plus
        ``"errors"`` (the attached errors in the same form) when there are any."""
        data: ErrorInfo = {
            "type": self.code,
            "message": self.message,
            "retryable": self.retryable,
            "detail_code": self.detail_code,
            "provider": self.provider,
        }
        if self.errors:
            data["errors"] = [error.to_dict() for error in self.errors]
        return data

    def __str__(self) -> str:
        return "%s; %s" % (self.message, self.hint) if self.hint else self.message

    def __repr__(self) -> str:
        parts = [repr(self.message)]
        for name in ("provider", "detail_code", "status"):
            value = getattr(self, name)
            if value is not None:
                parts.append("%s=%r" % (name, value))
        return "%s(%s)" % (type(self).__name__, ", ".join(parts))

    def __reduce__(self) -> tuple[Any, ...]:  # keep keyword-only attributes when pickled (multiprocessing)
        return (_rebuild_error, (type(self), self.message, self.__dict__.copy()))


_E = TypeVar("_E", bound=WebSearchError)


def _rebuild_error(cls: type[_E], message: str, state: dict[str, Any]) -> _E:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


class InvalidInput(WebSearchError):
    """Bad input: blank or overlong query, max_results outside 1..10, unknown
    backend, bad URL for fetch, missing configuration (``not_configured``) or a
    refused private target (``private_address``)."""

    code = "InvalidInput"


class Timeout(WebSearchError):
    """A connect or read timeout, or the whole-call deadline passed.

    Not retryable: ``budget_exhausted`` (the next rate-limit slot comes after the
    call's budget; a later call with a fresh budget may pass)."""

    code = "Timeout"
    default_retryable = True
    final_details = ("budget_exhausted",)


class NetworkError(WebSearchError):
    """DNS failure, refused or reset connection, TLS or proxy failure, broken body.

    Not retryable: ``dns_error`` (the host name does not resolve)."""

    code = "NetworkError"
    default_retryable = True
    final_details = ("dns_error",)


class WebBlocked(WebSearchError):
    """The service refused us: a bot wall (``captcha_required``, even with HTTP 200),
    ``http_403`` or ``http_429``. Only ``http_429`` is retryable."""

    code = "WebBlocked"

    def _default_retryable(self, detail_code: Optional[str]) -> bool:
        return detail_code == "http_429"


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
    """Any other backend failure (unexpected status, unsupported content, redirect loop...)."""

    code = "WebProviderError"


class ToolNotFound(WebSearchError):
    """The tool adapter was asked for a tool name it does not serve."""

    code = "ToolNotFound"


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


def error_from_code(code: str, message: str, **kwargs: Any) -> WebSearchError:
    """Build the error subclass named ``code`` (``WebProviderError`` if unknown)."""
    return ERROR_CLASSES.get(code, WebProviderError)(message, **kwargs)
