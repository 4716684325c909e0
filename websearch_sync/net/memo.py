"""Memos of pure functions of one string that keep only strings of a bounded length.

The URL helpers remember their last answers (a URL is asked about several times a request), but
a URL can be long and partly an upstream's choice (a redirect target, a result link): 256 entries
of 98 KB request forms (an 8 KB URL of emoji, percent-encoded) would hold 25 MB for the life of
the process. Only an ASCII string of a bounded length is kept (CPython stores a string of
emoji at 4 bytes a character: 1024 of 8 KB held 68 MB); another is worked out each time. An
exception is never kept (``functools.lru_cache`` keeps none).
"""

import functools
from typing import Any, Callable, Generic, TypeVar

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

T = TypeVar("T")

#: The longest string a memo keeps: 256 entries of it (ASCII, a byte a character) hold 2 MB at most.
MAX_KEPT_CHARS = 8192


class Memo(Generic[T]):
    """``function`` with the answers for its last ``maxsize`` ASCII strings of at most ``max_chars``."""

    def __init__(self, function: Callable[[str], T], maxsize: int, max_chars: int) -> None:
        self._function = function
        self._cached = functools.lru_cache(maxsize=maxsize)(function)
        self._max_chars = max_chars
        functools.update_wrapper(self, function)

    def __call__(self, text: str) -> T:
        if len(text) <= self._max_chars and text.isascii():
            return self._cached(text)
        return self._function(text)

    def cache_clear(self) -> None:
        """Forget every kept answer (tests)."""
        self._cached.cache_clear()

    def cache_info(self) -> Any:  # functools' named tuple of the figures
        """``functools.lru_cache``'s figures of the kept answers (tests)."""
        return self._cached.cache_info()


def remembered(maxsize: int, max_chars: int = MAX_KEPT_CHARS) -> Callable[[Callable[[str], T]], Memo[T]]:
    """Decorator: a :class:`Memo` of the function."""
    return lambda function: Memo(function, maxsize, max_chars)
