"""The members of a ``tools/list`` or ``tools/call`` request's params the MCP SDK checks the type of
and refuses with ``-32602`` "Invalid request parameters" and empty data, naming neither the member
nor what it must be (``"_meta": 5``): each is checked here first, so that the answer says which
member, what it must be and what was sent (``tools/list``'s ``cursor`` first, in words of its own:
:data:`CURSOR_NOT_TEXT`). ``tools/call``'s ``name`` and ``arguments`` are answered by the transport
itself (their own messages). A member
inside one of these whose value the SDK's model refuses (``"task": {"ttl": "x"}``, an input response
that is no result) is named with the model's first complaint (:func:`_model_problem`).

What is checked is what the SDK refuses, no more: its models accept, and so is let through, a
``progressToken`` that is a boolean or a whole number written as ``1.0`` (pydantic's lax reading).
"""

from collections.abc import Callable
from typing import Any, Optional

from mcp_types import CallToolRequestParams, PaginatedRequestParams

from ..validate import describe_sent

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def _sent(value: Any) -> str:
    """What was sent, as JSON names it (``null`` too)."""
    return "null" if value is None else describe_sent(value)


def _object(value: Any) -> bool:
    return value is None or isinstance(value, dict)


def _token(value: Any) -> bool:
    """A progress token as the SDK reads it: a string or an integer (lax: a boolean, ``1.0``)."""
    return isinstance(value, (str, int)) or (isinstance(value, float) and value.is_integer())


#: The answer to ``tools/list`` with a cursor that is not a string (the SDK said only "Invalid request parameters").
CURSOR_NOT_TEXT = (
    "Invalid params: a tools/list cursor is a string, one a nextCursor gave (the tools are listed on one page, with"
    " no nextCursor: send no cursor); got cursor as %s"
)

#: ``(method or None for both, member path, what it must be, the check of a value present)``.
_MEMBERS: tuple[tuple[Optional[str], tuple[str, ...], str, Callable[[Any], bool]], ...] = (
    (None, ("_meta",), "an object (or null)", _object),
    (None, ("_meta", "progressToken"), "a string or an integer", _token),
    ("tools/call", ("task",), "an object (or null)", _object),
    ("tools/call", ("requestState",), "a string (or null)", lambda v: v is None or isinstance(v, str)),
    ("tools/call", ("inputResponses",), "an object mapping each input request's key to its result", _object),
)


def _member(params: dict[str, Any], path: tuple[str, ...]) -> tuple[bool, Any]:
    """``(present, value)`` of the member at ``path`` in ``params`` (absent when a step is no object)."""
    value: Any = params
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return False, None
        value = value[key]
    return True, value


def params_problem(method: str, params: Any) -> Optional[str]:
    """The ``-32602`` message for a ``method`` (``tools/list`` or ``tools/call``) request whose
    ``params`` (an object) has a member of a type the SDK refuses, or ``None``."""
    if not isinstance(params, dict):
        return None
    cursor = params.get("cursor") if method == "tools/list" else None
    if cursor is not None and not isinstance(cursor, str):
        return CURSOR_NOT_TEXT % describe_sent(cursor)
    for only, path, wanted, usable in _MEMBERS:
        if only not in (None, method):
            continue
        present, value = _member(params, path)
        if present and not usable(value):
            return "Invalid params: a %s request's params.%s is %s; got %s" % (
                method,
                ".".join(path),
                wanted,
                _sent(value),
            )
    return _model_problem(method, params)


#: The SDK's model of each method's params, as its server reads them.
_MODELS: dict[str, Any] = {"tools/list": PaginatedRequestParams, "tools/call": CallToolRequestParams}


def _model_problem(method: str, params: dict[str, Any]) -> Optional[str]:
    """What the SDK's model of ``method``'s params refuses in ``params``: the member (as far as the
    request has it: a union's branches are the model's, not the request's) and the model's complaint."""
    try:
        _MODELS[method].model_validate(params)
    except ValueError as refused:  # pydantic's ValidationError (the SDK's models are pydantic's)
        errors = getattr(refused, "errors", None)
        if not callable(errors):
            raise
        error = errors()[0]
        path, value = _sent_path(params, error["loc"])
        return "Invalid params: a %s request's params%s is not what MCP allows there (%s); got %s" % (
            method,
            path,
            error["msg"],
            _sent(value),
        )
    return None


def _sent_path(params: dict[str, Any], loc: tuple[Any, ...]) -> tuple[str, Any]:
    """The part of a pydantic error's ``loc`` the request has (``.task.ttl``, ``.inputResponses['a']``)
    and the value sent there."""
    path, value = "", params
    for step in loc:
        if isinstance(value, dict) and step in value:
            named = isinstance(step, str) and step.isidentifier() and not path.endswith(".inputResponses")
            path += ".%s" % step if named else "[%r]" % step  # a map's key (an input response's) in brackets
            value = value[step]
        elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            path += "[%d]" % step
            value = value[step]
        else:
            break
    return path, value
