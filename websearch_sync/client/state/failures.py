"""A question's failure in Redis: what a waiting process raises instead of asking again.

When the first caller of a question fails with a failure its waiters would get as a copy in its own
process (:func:`~websearch_sync.client.flight.answers_waiters`: a wall, a key refused, a 404), it
writes the failure to ``…failure:<sha256 of the cache key>`` before it lets the question go, for
:data:`FAILURE_TTL_S`. The record is data, never a pickled object: the error's code, its whole
message redacted with the writer's secrets and then cut as shown, and its fields (detail code,
provider, status, wait, advice), with the failures attached to it; every text field is redacted as a
value, before the record is serialised. A record is untrusted input: one
that does not parse, names an error code outside the vocabulary (:data:`~websearch_sync.errors.ERROR_CLASSES`),
or holds a field of the wrong type or past its bound is no record, and the waiter asks itself.
"""

import json
import math
import re
from collections.abc import Iterable
from typing import Any, Optional

from ...errors import (
    ENGINES_NOT_LISTED,
    ERROR_CLASSES,
    MAX_MESSAGE_CHARS,
    WebSearchError,
    copied_error,
    error_from_code,
    redact_error,
)
from ...net.status import MAX_RETRY_AFTER_S, WAIT_PHRASINGS
from ...net.urls import MAX_URL_CHARS
from ...secrets import redacted_value
from .records import json_object, line_field, status_field

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How long a failure stays readable: long enough for every waiter to see the question let go
#: (it polls every few ms), short enough that no later question reads it (each waiter also checks
#: the record was written while it waited).
FAILURE_TTL_S = 10.0
#: The most failures attached to one (a fallback chain's other backends).
MAX_ATTACHED = 16
#: The longest record read (a message is at most 2,000 characters; up to 17 of them, escaped).
MAX_FAILURE_BYTES = 60 * 1024
_DETAIL_CODE = re.compile(r"[a-z][a-z0-9_]{0,63}")
#: The keys of an error form that name where it failed (``error_from_code``'s form-only keys).
_PLACES = {"engine": 64, "url": MAX_URL_CHARS}


def failure_record(error: WebSearchError, secrets: Iterable[Optional[str]]) -> Optional[str]:
    """The record of ``error`` (JSON text, every secret of ``secrets`` redacted), or ``None`` when it
    is longer than a reader takes (:data:`MAX_FAILURE_BYTES`)."""
    secret_list = [secret for secret in secrets if secret]
    shown = redact_error(copied_error(error), secret_list)  # the whole message, before its cut
    # every text field (hint, provider, url, engine, stale words; the message again) as a value
    form = redacted_value(_form(shown), secret_list, 1)
    form["errors"] = [redacted_value(_form(attached), secret_list, 1) for attached in shown.errors[:MAX_ATTACHED]]
    left_out = sum(1 for attached in shown.errors[MAX_ATTACHED:] if "engine" in attached._form_only)  # noqa: SLF001
    if left_out:  # a meta-engine's engines: counted as the error counts those it leaves out
        form[ENGINES_NOT_LISTED] = shown.engines_not_listed + left_out
    text = json.dumps({"error": form}, ensure_ascii=False)
    return text if len(text.encode("utf-8")) <= MAX_FAILURE_BYTES else None


def _form(error: WebSearchError) -> dict[str, Any]:
    form: dict[str, Any] = {
        "type": error.code,
        "message": error.message,
        "detail_code": error.detail_code,
        "provider": error.provider,
        "status": error.status,
        "retry_after": error.retry_after,
        "retryable": error.retryable,
        "hint": error.hint,
        "stale_words": getattr(error, "stale_words", None),  # the words a waiter ages (a 429's wait)
        "stale_phrasing": getattr(error, "stale_phrasing", None),  # how they say it (a cool-down's "s left")
    }
    form.update(error._form_only)  # noqa: SLF001 - where it failed (engine, url, page), as to_dict() gives it
    return form


def read_failure(value: Optional[bytes]) -> Optional[WebSearchError]:
    """The failure a record read from Redis holds, or ``None`` for one that is no record."""
    data = json_object(value)
    form = data.get("error") if data is not None else None
    attached = form.get("errors", []) if isinstance(form, dict) else None
    if not isinstance(attached, list) or len(attached) > MAX_ATTACHED:
        return None
    errors = [_error(entry, []) for entry in attached]
    if any(entry is None for entry in errors):
        return None
    return _error(form, errors)


def _error(form: Any, errors: list[Optional[WebSearchError]]) -> Optional[WebSearchError]:
    """The error ``form`` describes, with ``errors`` attached; ``None`` when a field is not of its kind."""
    if not _fields_of_their_kind(form):
        return None
    places = _places(form)
    if places is None:
        return None
    message, code, retryable, wait = (
        form["message"],
        form.get("detail_code"),
        form["retryable"],
        form.get("retry_after"),
    )
    shown = line_field(message, MAX_MESSAGE_CHARS) or ""
    error = error_from_code(
        form["type"],
        shown,
        provider=line_field(form.get("provider"), 64),
        detail_code=code,
        status=status_field(form.get("status")),
        retryable=retryable,
        retry_after=None if wait is None else float(min(wait, MAX_RETRY_AFTER_S)),  # an int of any size: no float
        hint=line_field(form.get("hint")),
        errors=errors,
        **places,
    )
    words, phrasing = line_field(form.get("stale_words"), 64), form.get("stale_phrasing")
    if words and words in shown and (phrasing is None or phrasing in WAIT_PHRASINGS):
        error.stale_words = words  # type: ignore[attr-defined]  # any class: the waiter ages them
        error.stale_phrasing = phrasing  # type: ignore[attr-defined]  # in the phrasing they were said in
    return error


def _fields_of_their_kind(form: Any) -> bool:
    """Whether the record's type, message, detail code, retryable flag and wait are each of their kind."""
    if not isinstance(form, dict) or form.get("type") not in ERROR_CLASSES:
        return False
    message, code, retryable = form.get("message"), form.get("detail_code"), form.get("retryable")
    if not isinstance(message, str) or len(message) > MAX_MESSAGE_CHARS or not isinstance(retryable, bool):
        return False
    if code is not None and not (isinstance(code, str) and _DETAIL_CODE.fullmatch(code)):
        return False
    wait = form.get("retry_after")
    return wait is None or (
        isinstance(wait, (int, float))
        and not isinstance(wait, bool)
        and (isinstance(wait, int) or math.isfinite(wait))  # a JSON integer may be past any float
        and 0 <= wait
    )


def _places(form: dict[str, Any]) -> Optional[dict[str, Any]]:
    """Where the failure was met (engine, url, page) and how many engines' failures it leaves out
    (``engines_not_listed``) as the record gives them; ``None`` for a number out of range."""
    places: dict[str, Any] = {}
    for key, limit in _PLACES.items():
        if form.get(key) is not None:
            places[key] = line_field(form[key], limit) or ""
    for key, most in (("page", 10_000), (ENGINES_NOT_LISTED, 10**9)):
        number = form.get(key)
        if number is not None:
            if not (isinstance(number, int) and not isinstance(number, bool) and 0 < number < most):
                return None
            places[key] = number
    return places
