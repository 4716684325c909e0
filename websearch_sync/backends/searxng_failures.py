"""A SearXNG instance's engines that failed (``unresponsive_engines``), as errors.

Each ``[engine, reason]`` pair becomes an error of its kind (:func:`engine_failure`): a
blocked engine (CAPTCHA, too many requests, access denied) is ``WebBlocked``, a timeout
``Timeout``, anything else ``WebProviderError(engine_error)``. Each carries its ``engine``
and, for an engine the instance suspended, ``retry_after`` (SearXNG's default suspension),
both in its ``to_dict()``: wherever the failure is shown (a successful call's ``errors``, the
``errors`` of the error of a call whose every engine failed), it names its engine.
"""

from collections.abc import Sequence
from typing import Any, ClassVar, Optional

from ..engine.engines_listed import listed
from ..engine.json_api import vendor_text
from ..errors import (
    CAPTCHA_REQUIRED,
    ENGINE_ERROR,
    ENGINE_TIMEOUT,
    ENGINES_NOT_LISTED,
    HTTP_403,
    HTTP_429,
    Timeout,
    WebBlocked,
    WebProviderError,
    WebSearchError,
    redact,
)
from .searxng_names import some_names
from .searxng_reasons import MAX_REASON_CHARS, read_reason

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


class EngineFailure(WebSearchError):
    """One engine's failure inside the instance: a ``WebSearchError`` of its kind that also
    names the ``engine`` (and its ``retry_after``) in ``to_dict()``, as an error form's engine does."""

    #: The public class of this kind (what a call's own error is raised as).
    plain: ClassVar[type[WebSearchError]] = WebSearchError

    def __init__(self, message: str, *, engine: str, **details: Any) -> None:
        super().__init__(message, **details)
        self._form_only = {"engine": engine}  # to_dict() gives it (and the engine's retry_after)

    @property
    def engine(self) -> str:
        """The engine of the instance that failed."""
        return str(self._form_only["engine"])


class EngineBlocked(EngineFailure, WebBlocked):
    """An engine the instance found blocked (CAPTCHA, too many requests, access denied)."""

    plain = WebBlocked


class EngineTimeout(EngineFailure, Timeout):
    """An engine that did not answer within the instance's time."""

    plain = Timeout


class EngineError(EngineFailure, WebProviderError):
    """An engine that failed otherwise."""

    plain = WebProviderError


#: A kind of engine failure (:func:`.searxng_reasons.read_reason`) -> (error class, detail
#: code, seconds SearXNG suspends the engine by default: settings.yml ``search.suspended_times``).
_KINDS: dict[str, tuple[type[EngineFailure], str, Optional[float]]] = {
    "captcha": (EngineBlocked, CAPTCHA_REQUIRED, 3600.0),
    "too_many_requests": (EngineBlocked, HTTP_429, 180.0),
    "access_denied": (EngineBlocked, HTTP_403, 180.0),
    "timeout": (EngineTimeout, ENGINE_TIMEOUT, None),
}
#: The name an engine is given when the instance names it in no text (``null``, an object).
UNNAMED_ENGINE = "unnamed"

#: Seconds SearXNG suspends an engine after any other failure (settings.yml ``search.ban_time_on_fail``).
_FAILURE_SUSPENSION_S = 5.0


def engine_failure(entry: Any, provider: str, secrets: list[str]) -> Optional[EngineFailure]:
    """One ``[engine, reason]`` pair as an error (``None`` for an unreadable entry).

    A blocked engine (CAPTCHA, too many requests, access denied) or a suspended one
    is not retryable at once: the instance has suspended it (``retry_after`` is
    SearXNG's default suspension for that failure). The name and the reason are the
    instance's words, read as every vendor's are (:func:`~..engine.json_api.vendor_text`:
    no control character, never the Python spelling of ``null`` or an object): a name
    of no text is :data:`UNNAMED_ENGINE`, a reason of no text none given.
    """
    if not isinstance(entry, (list, tuple)) or not entry:
        return None
    name = vendor_text(entry[0])[:MAX_REASON_CHARS] or UNNAMED_ENGINE
    engine = redact(name, secrets)  # the instance's words: never our secrets
    reason = (vendor_text(entry[1]) if len(entry) > 1 else "")[:MAX_REASON_CHARS] or "no reason given"
    kind, suspended = read_reason(reason)
    cls, detail, suspension = _KINDS.get(kind or "", (EngineError, ENGINE_ERROR, None))
    blocked = cls is EngineBlocked
    if suspended and not blocked:
        suspension = _FAILURE_SUSPENSION_S
    message = redact("searxng engine %r failed: %s" % (engine, reason), secrets)
    return cls(
        message,
        engine=engine,
        provider=provider,
        detail_code=detail,
        retryable=False if blocked or suspended else None,
        retry_after=suspension if blocked or suspended else None,
    )


def engine_failures(entries: Any, provider: str, secrets: list[str]) -> list[EngineFailure]:
    """The failures of an answer's ``unresponsive_engines`` (:func:`engine_failure` for each
    readable pair), one per engine: its first pair. SearXNG keeps them in a set; an instance or a
    proxy that lists an engine twice had it counted twice ("6 of the engines it asked failed" for 3)."""
    failures: dict[str, EngineFailure] = {}
    for entry in entries if isinstance(entries, list) else ():
        failure = engine_failure(entry, provider, secrets)
        if failure is not None:
            failures.setdefault(failure.engine, failure)
    return list(failures.values())


def no_results_because(problems: Sequence[EngineFailure], status: int, provider: str) -> WebSearchError:
    """No results while engines failed: an error, not "0 results" (a block must not look empty).

    Blocked (or suspended) only when every engine asked is: then it may be asked again
    when the first of them is back (``retry_after``); otherwise the failure that may heal
    at once (a timeout first) decides. Every engine's own failure is attached once in
    ``errors`` (which also marks the error as the engines', see ``SearXNG.cooldown_key``): of
    thousands, the first few and one of each other kind (:func:`~..engine.engines_listed.listed`),
    the others counted (``engines_not_listed``, and the message says how many).
    """
    waiting = [p.retry_after for p in problems if p.retry_after is not None]
    if len(waiting) == len(problems):  # every engine is blocked or suspended: back when the first one is
        primary: EngineFailure = next((p for p in problems if isinstance(p, WebBlocked)), problems[0])
        retry_after: Optional[float] = min(waiting)
    else:  # some engine may answer at once (a timeout): that failure decides
        healing = [p for p in problems if p.retry_after is None]
        primary = next((p for p in healing if isinstance(p, Timeout)), healing[0])
        retry_after = None
    shown = listed(problems, _kind)  # decided above on every failure; thousands are not all carried
    error = primary.plain(
        "searxng returned no results, and %d of the engines it asked failed (%s); any other it asked found nothing%s"
        % (len(problems), some_names([p.engine for p in problems]), _not_listed_words(len(problems) - len(shown))),
        provider=provider,
        detail_code=primary.detail_code,
        status=status,
        retryable=primary.retryable,
        retry_after=retry_after,
        errors=shown,
    )
    if len(shown) < len(problems):
        error._form_only = {ENGINES_NOT_LISTED: len(problems) - len(shown)}
    return error


def _kind(failure: EngineFailure) -> tuple[Any, ...]:
    """What is read of an engine's failure beyond its name: whether a waiter may mend it
    (``client.flight``), whether it cools down, how long the engine is suspended."""
    return (type(failure), failure.detail_code, failure.retryable, failure.retry_after)


def _not_listed_words(count: int) -> str:
    """The message's words for the failures its ``errors`` leaves out (none: no words)."""
    return "; %d not listed in its errors, the first and one of each kind are" % count if count else ""
