"""Upstream JSON read with its nesting bounded before it is parsed.

Python's parser recurses once per level and stops only at the interpreter's recursion limit,
which counts the caller's own frames: a body of 100,000 ``[`` raised ``RecursionError`` (read
as "cut short or malformed"), and whether a SearXNG answer nested 900 deep was read depended on
the caller's stack (read from a script's top level, refused from 100 frames further down).
:func:`loads` refuses anything nested over :data:`MAX_JSON_DEPTH` levels first, with
:class:`JsonTooDeep` saying so: the same answer gets the same verdict from any caller, and
neither the parse nor a later walk of the value (pretty-printing, the cache's encoding) nears
the limit."""

import json
import re
from itertools import accumulate
from typing import Any, Callable, Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The deepest nesting read: real answers nest a few levels, tens at most; this leaves the
#: interpreter's 1000 frames to the caller and whatever walks the value afterwards.
MAX_JSON_DEPTH = 256

#: The bytes :func:`nesting_depth` reads (quotes and brackets), and each bracket as a signed step:
#: ``[``/``{`` +1, ``]``/``}`` -1 (0xFF read as a signed byte).
_NOT_READ = bytes(set(range(256)) - set(b'"[{]}'))
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
#: A string once its escapes are gone: no quote inside, so one pass, no backtracking.
_STRING = re.compile(rb'"[^"]*"')


class JsonTooDeep(ValueError):
    """JSON nested deeper than :data:`MAX_JSON_DEPTH` levels (a ``ValueError``: it is not read)."""


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text``, brackets inside strings not
    counted. Linear, in passes that run in C (no loop per character in Python): escapes are
    dropped (``\\\\`` first, then ``\\"``, as JSON pairs backslashes from the left), then all
    but quotes and brackets, then the strings (a string cut short too), and the brackets' running sum is taken. On text
    that is not JSON the figure is an estimate (the parser refuses such text anyway)."""
    data = text.encode("utf-8", "surrogatepass")
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = _STRING.sub(b"", data.translate(None, _NOT_READ)).partition(b'"')[0]  # [0]: an unclosed string out
    return max(accumulate(memoryview(brackets.translate(_STEPS)).cast("b")), default=0)


def loads(text: str, parse_int: Optional[Callable[[str], Any]] = None) -> Any:
    """``json.loads(text, parse_int=parse_int)``, or :class:`JsonTooDeep` when it nests over
    :data:`MAX_JSON_DEPTH` levels (``ValueError`` for text that is not JSON, as ``json.loads``)."""
    openers = text.count("[") + text.count("{")  # the common case: too few to nest deeper, not scanned
    if openers > MAX_JSON_DEPTH and nesting_depth(text) > MAX_JSON_DEPTH:
        raise JsonTooDeep("JSON nested over %d levels deep" % MAX_JSON_DEPTH)
    return json.loads(text, parse_int=parse_int)


def too_many_digits(error: ValueError) -> bool:
    """Whether ``error`` is Python's refusal of a JSON integer of over 4,300 digits (``int``'s limit):
    a plain ``ValueError``, neither a syntax error nor :class:`JsonTooDeep`. The text is JSON."""
    return type(error) is ValueError
