"""The tools' ``outputSchema``: the JSON Schema of their ``structuredContent`` (no MCP SDK here).

Written from the result types of :mod:`websearch_sync.models` (``SearchResponse`` and the
items of each vertical, ``FetchResult``, ``ErrorInfo``), so the schema says what those types
say and changes with them: each ``TypedDict`` is an object whose required keys are its
required keys, each other key optional. Keys the types do not name are allowed (a backend's
``provider_meta`` may say more), as JSON Schema allows them by default. A search's items are
those of one vertical; ``items`` takes any vertical's (``anyOf``). The MCP server adds one key
of its own to both: ``note``, the repeat notice (:class:`~websearch_sync.tool.ToolSession`).
"""

import types
import typing
from typing import Any, Union

from ..models import FetchResult, ImageItem, NewsItem, SearchItem, SearchResponse, VideoItem

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: JSON Schema's dialect of MCP's ``outputSchema`` (2025-11-25: 2020-12 when none is named).
DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: The key the MCP server's repeat notice adds to a structured result.
NOTE = {"note": {"type": "string", "description": "the tools already gave this answer: it is that answer again"}}
_SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    type(None): {"type": "null"},
    Any: {},
}


class _Writer:
    """Turns result types into JSON Schema, each ``TypedDict`` once, under ``$defs`` by its name."""

    def __init__(self) -> None:
        self.defs: dict[str, dict[str, Any]] = {}

    def of(self, kind: Any) -> dict[str, Any]:
        """The schema of ``kind``: a scalar, ``Optional``/``Union``, ``list[X]``, ``dict[str, X]`` or a ``TypedDict``."""
        if kind in _SCALARS:
            return dict(_SCALARS[kind])
        origin, arguments = typing.get_origin(kind), typing.get_args(kind)
        if origin in (Union, types.UnionType):
            return {"anyOf": [self.of(argument) for argument in arguments]}
        if origin is list:
            return {"type": "array", "items": self.of(arguments[0])}
        if origin is dict:
            return {"type": "object", "additionalProperties": self.of(arguments[1])}
        if typing.is_typeddict(kind):
            return self.ref(kind)
        raise TypeError("no JSON Schema for %r" % (kind,))

    def ref(self, typed: Any) -> dict[str, Any]:
        """A ``$ref`` to ``typed``'s object schema, written into :attr:`defs` the first time."""
        name = typed.__name__
        if name not in self.defs:
            self.defs[name] = {}  # taken first: a type naming itself (ErrorInfo's errors) refers to it
            self.defs[name] = self.object_of(typed)
        return {"$ref": "#/$defs/" + name}

    def object_of(self, typed: Any) -> dict[str, Any]:
        """``typed`` as an object schema (not a reference)."""
        hints = typing.get_type_hints(typed)
        return {
            "type": "object",
            "properties": {key: self.of(kind) for key, kind in hints.items()},
            "required": sorted(typed.__required_keys__),
        }


def output_schemas() -> dict[str, dict[str, Any]]:
    """``{"search": schema, "fetch": schema}``: the ``outputSchema`` of ``web_search`` and ``web_fetch``."""
    search_items = {"type": "array", "items": {"anyOf": [SearchItem, NewsItem, ImageItem, VideoItem]}}
    return {"search": _schema(SearchResponse, items=search_items), "fetch": _schema(FetchResult)}


def _schema(typed: Any, **replaced: Any) -> dict[str, Any]:
    """The schema of ``typed`` with :data:`NOTE`, its keys in ``replaced`` given that schema instead
    (a list of result types under ``anyOf`` becomes references to their schemas)."""
    writer = _Writer()
    schema = writer.object_of(typed)
    for key, value in replaced.items():
        value["items"]["anyOf"] = [writer.ref(kind) for kind in value["items"]["anyOf"]]
        schema["properties"][key] = value
    schema["properties"].update(NOTE)
    return dict({"$schema": DIALECT}, **schema, **{"$defs": writer.defs})
