"""How several backends answer one call: a fallback chain or a parallel merge.

Both take a ``run`` callable (one backend -> its :class:`ParseResult` or a
``WebSearchError``) and return ``(response, keep_s)``: the seconds the answer may be cached
(0.0: not at all; ``math.inf``: as long as the call's TTL). A response with a failure
in it is not cached, unless each failure is a refusal (``refusing``: the backends that
refuse the call before sending, a missing key, say): the same call is refused again; or that
of a backend cooling down (``skipped_for``), which the same call skips until its cool-down
ends: the answer is kept until the first such cool-down ends (:func:`keep_s`).
"""

import concurrent.futures
import logging
import math
from collections.abc import Collection, Iterable, Sequence
from functools import partial
from typing import Any, Callable, Optional, cast

from ..engine.base import Backend
from ..engine.engines_listed import few_engines
from ..engine.normalize import normalize_items
from ..engine.registry import reported
from ..errors import (
    BAD_PARSE_RESULT,
    DEADLINE_EXCEEDED,
    INTERNAL_ERROR,
    NOT_ASKED,
    QUERY_TOO_LONG,
    UNSUPPORTED_QUERY,
    ErrorInfo,
    Timeout,
    WebSearchError,
)
from ..models import STRATEGIES as STRATEGIES  # STRATEGIES: in models, where the CLI reads it without the engines
from ..models import ParseResult, ProviderMeta, SearchItem, SearchParams, SearchResponse
from ..net.deadline import Deadline, each_within
from .attempts import error_kind
from .fusion import fuse

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

#: Errors after which a fallback chain moves on to the next backend.
FALL_THROUGH = ("WebBlocked", "Timeout", "NetworkError", "BadGateway", "AuthError", "WebParseError")
#: Most informative first, when every backend failed.
_PRECEDENCE = (
    "WebBlocked",
    "AuthError",
    "WebParseError",
    "BadGateway",
    "NetworkError",
    "Timeout",
    "WebProviderError",
    "InvalidInput",
)

Run = Callable[[Backend], ParseResult]
#: The answer and the seconds it may be cached (0.0: not at all; ``math.inf``: the call's TTL).
Outcome = tuple[SearchResponse, float]


def _never_skipped(backend: Backend) -> float:
    """No backend cools down (a strategy called without a client's cool-downs)."""
    return 0.0


def fallback(
    backends: list[Backend],
    params: SearchParams,
    budget: Deadline,
    run: Run,
    refusing: Collection[str] = (),
    skipped_for: Callable[[Backend], float] = _never_skipped,
) -> Outcome:
    """Try ``backends`` in order; the first success answers, the failures before it go to ``errors``.

    The answer is cached when each failure before it is a refusal (``refusing``) or a backend
    the next call skips too (``skipped_for``: its cool-down left, met now or before), until the
    first of those cool-downs ends: the same call would get the same backend's answer until
    then (while the first engine of ``auto`` cooled down, each call asked the next one again).

    When every backend failed, the most informative failure is raised after its ``except``
    block, with its own cause and context: raised inside it, Python would chain the last
    failure to it ("during handling of the above exception"), as if one had led to the other.
    """
    failures: list[WebSearchError] = []
    failed: list[Backend] = []
    not_asked: list[str] = []
    for position, backend in enumerate(backends):
        try:
            result = run(backend)
        except WebSearchError as error:
            if len(backends) == 1:
                raise
            failures.append(error)
            failed.append(backend)
            if ends_chain(error):  # fallback cannot fix it: say so
                error.errors = failures[:-1]
                raise error
            if position == len(backends) - 1:
                break
            if budget.expired():
                not_asked = [later.name for later in backends[position + 1 :]]
                break
            logger.info(
                "backend %s failed (%s); falling back to %s",
                backend.name,
                error_kind(error),
                backends[position + 1].name,
            )
            continue
        items = normalize_items(result.items, backend.name, params.max_results, params.vertical, result.answered_at)
        response = _response(items, backend.name, result, failures, params.vertical)
        _add_not_sent(response["provider_meta"], {backend.name: _not_sent(backend, params)})
        return response, keep_s(result.partial, zip(failed, failures), refusing, skipped_for)
    best = most_informative(failures)
    if not_asked:  # else `auto` reads as if it had tried only the engines that failed
        best.message += "; not asked: %s (no time left)" % ", ".join(not_asked)
        best.errors += [_not_asked(name) for name in not_asked]
    raise best


def keep_s(
    partial: bool,
    failed: Iterable[tuple[Backend, WebSearchError]],
    refusing: Collection[str],
    skipped_for: Callable[[Backend], float],
) -> float:
    """The seconds an answer may be cached (``math.inf``: the call's TTL; 0.0: not at all), given
    the ``failed`` backends of the call and their failures: as long as the same call would get
    the same answer. Never a ``partial`` one (a later call may complete it); with failures, only
    when each is a refusal (``refusing``, refused again) or of a backend cooling down, which the
    same call skips too (``skipped_for``: its cool-down left), until the first such cool-down ends."""
    if partial:
        return 0.0
    return min((skipped_for(one) for one, error in failed if error.provider not in refusing), default=math.inf)


def _not_asked(provider: str) -> WebSearchError:
    """The entry in ``errors`` of a backend a fallback chain had no time left to ask."""
    return Timeout("not asked: the call's deadline passed before its turn", provider=provider, detail_code=NOT_ASKED)


#: ``WebProviderError`` detail codes after which a chain moves on too: a defect of that backend
#: (its traceback logged at ERROR), which another backend does not share: a broken plugin in
#: ``auto`` must not end every search of the chain.
DEFECTS = (INTERNAL_ERROR, BAD_PARSE_RESULT)


def ends_chain(error: WebSearchError) -> bool:
    """True when a fallback chain stops at ``error``: no other backend can fix it."""
    if error.code == "WebProviderError" and error.detail_code in DEFECTS:
        return False
    return error.code not in FALL_THROUGH and not cannot_take(error)


def asks_no_one(strategy: str, refusals: Sequence[Optional[WebSearchError]]) -> bool:
    """True when a call sends no request because its backends refuse it before sending:
    ``refusals`` are theirs in order (``None``: that backend would send). A merge asks every
    backend; a fallback chain goes on until a backend sends or a refusal ends it."""
    if strategy == "merge":
        return all(refusal is not None for refusal in refusals)
    for refusal in refusals:
        if refusal is None:
            return False
        if ends_chain(refusal):
            return True
    return True


def cannot_take(error: WebSearchError) -> bool:
    """True when ``error`` says this backend cannot take the query (longer than its own
    limit, e.g. DuckDuckGo's 500 characters; a form it refuses, e.g. Tavily's ``site:`` alone):
    another backend of a chain may."""
    return (
        error.code == "InvalidInput"
        and error.detail_code in (QUERY_TOO_LONG, UNSUPPORTED_QUERY)
        and error.provider is not None
    )


def merge(
    backends: list[Backend],
    params: SearchParams,
    budget: Deadline,
    run: Run,
    refusing: Collection[str] = (),
    skipped_for: Callable[[Backend], float] = _never_skipped,
) -> Outcome:
    """Ask every backend in parallel and fuse their lists (reciprocal rank fusion).

    Each backend runs in a copy of the caller's context (``contextvars``,
    :func:`~websearch_sync.net.workers.run_each`), as if it ran in the caller's thread: what the
    caller's waits obey (e.g. the MCP server's cancellation, see
    :class:`~websearch_sync.client.clock.CancellableClock`) its backends' waits obey too. A backend that raises something
    other than a ``WebSearchError`` (such a cancellation) ends the call with it. An answer
    without some backend's list is cached only while each one missing is refused or cooling down
    (:func:`keep_s`): until then the same call would miss the same lists.
    """
    # waits in slices (Ctrl-C is raised soon) until the call's deadline, not past it: its backends' requests
    # end there too, and a backend still running then (one whose code overruns its deadline) is a Timeout
    # in ``errors``, never the caller's wait; what has not started by then never runs
    futures = each_within(budget, run, backends, workers=len(backends), name="websearch-merge")
    lists: list[tuple[str, list[SearchItem]]] = []
    failures: list[WebSearchError] = []
    failed: list[Backend] = []
    soft_errors: list[ErrorInfo] = []
    request_ids = []
    unread: list[tuple[str, Optional[str]]] = []  # each backend's fill-up page not read, and why
    extras: dict[str, list[Any]] = {}
    not_sent: dict[str, list[str]] = {}
    partial = False
    each = max(10, params.max_results)  # what each list brings to the fusion
    for backend, future in zip(backends, futures):
        result = _merged_result(backend, future, failures)
        if result is None:
            failed.append(backend)
            continue
        lists.append(
            (backend.name, normalize_items(result.items, backend.name, each, params.vertical, result.answered_at))
        )
        partial = partial or result.partial
        soft_errors.extend(result.errors)
        add_extras(extras, result)
        if result.request_id:
            request_ids.append(result.request_id)
        unread.append((backend.name, result.page_not_read))
        not_sent[backend.name] = _not_sent(backend, params)
    if not lists:
        raise most_informative(failures)
    items = normalize_items(
        fuse(lists, params.vertical), lists[0][0], params.max_results, params.vertical, canonical=True
    )
    answered = [name for name, _ in lists]
    meta: ProviderMeta = {"provider_name": "+".join(answered), "providers": answered, "cached": False}
    if params.vertical != "web":
        meta["vertical"] = params.vertical
    if request_ids:
        meta["request_id"] = ",".join(request_ids)
    if extras:
        meta["extras"] = extras
    _add_unread(meta, unread)
    _add_not_sent(meta, not_sent)
    response: SearchResponse = {"items": items, "provider_meta": meta}
    errors = [e.to_dict() for e in failures] + soft_errors
    if errors:
        response = cast(SearchResponse, few_engines(dict(response, errors=errors)))
    return response, keep_s(partial, zip(failed, failures), refusing, skipped_for)


def _merged_result(
    backend: Backend, future: "concurrent.futures.Future[ParseResult]", failures: list[WebSearchError]
) -> Any:
    """The backend's result, or ``None`` after adding its failure to ``failures``."""
    if not future.done() or future.cancelled():  # still running, or not started by the budget's end
        failures.append(
            Timeout(
                "%s did not answer within the budget" % backend.name,
                provider=backend.name,
                detail_code=DEADLINE_EXCEEDED,
            )
        )
        return None
    error = future.exception()
    if error is None:
        return future.result()
    if not isinstance(error, WebSearchError):  # a cancellation (a BaseException), or a bug: not a backend failure
        raise error
    failures.append(error)
    return None


def _not_sent(backend: Backend, params: SearchParams) -> list[str]:
    """:meth:`Backend.not_sent`, a defect in it (a plugin's ``dropped``) reported typed and logged
    (``WebProviderError(internal_error)`` naming the backend), never a stray exception."""
    return reported(backend, partial(backend.not_sent, params))


def _add_unread(meta: ProviderMeta, unread: list[tuple[str, Optional[str]]]) -> None:
    """A merge's ``page_not_read``: each backend's fill-up page not read, named by its backend."""
    said = ["%s: %s" % (name, why) for name, why in unread if why is not None]
    if said:
        meta["page_not_read"] = "; ".join(said)


def _add_not_sent(meta: ProviderMeta, not_sent: dict[str, list[str]]) -> None:
    """Say which inputs the call gave the answering backends did not send (:meth:`Backend.not_sent`):
    ``not_sent``, the sorted inputs one of them went without; in a merge also ``not_sent_by``, by
    backend. Nothing when each sent everything."""
    unsent = sorted({name for names in not_sent.values() for name in names})
    if unsent:
        meta["not_sent"] = unsent
        if len(not_sent) > 1:
            meta["not_sent_by"] = {backend: names for backend, names in not_sent.items() if names}


def add_extras(extras: dict[str, list[Any]], result: ParseResult) -> None:
    """Add what a backend answered besides results (``ParseResult.extras``) to ``extras``, kind by kind."""
    for kind, entries in result.extras.items():
        extras.setdefault(kind, []).extend(entries)


def most_informative(failures: list[WebSearchError]) -> WebSearchError:
    """The failure that says most (a block beats an auth error beats ... a timeout); the others attached
    after the errors it already carries (a meta-engine's failed engines: what says *why* it failed, and
    what its cool-down is keyed on), each once."""
    best = min(failures, key=lambda e: _PRECEDENCE.index(e.code) if e.code in _PRECEDENCE else len(_PRECEDENCE))
    own = [e for e in best.errors if not any(e is failure for failure in failures)]
    best.errors = own + [e for e in failures if e is not best]
    return best


def _response(
    items: list[SearchItem], name: str, result: ParseResult, failures: list[WebSearchError], vertical: str
) -> SearchResponse:
    meta: ProviderMeta = {"provider_name": name, "cached": False}
    if vertical != "web":
        meta["vertical"] = vertical
    if result.request_id:
        meta["request_id"] = result.request_id
    if result.pages is not None:  # a next page was asked for, or the call asked for more than a page holds
        meta["pages"] = result.pages
    if result.page_not_read is not None:  # a fill-up page not read: the answer stands whole
        meta["page_not_read"] = result.page_not_read
    extras: dict[str, list[Any]] = {}
    add_extras(extras, result)
    if extras:
        meta["extras"] = extras
    response: SearchResponse = {"items": items, "provider_meta": meta}
    errors = [e.to_dict() for e in failures] + list(result.errors)
    if errors:
        response = cast(SearchResponse, few_engines(dict(response, errors=errors)))
    return response
