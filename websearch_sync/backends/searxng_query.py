"""The query syntax a SearXNG instance reads in ``q`` itself (``searx/query.py: RawTextQuery``).

Every whitespace-separated word of the query is tried as one of these, wherever it stands:

* ``!name``: search only that engine or category (``!go``, ``!images``) when the instance knows
  the name; it wins over the ``engines``/``categories`` options (:func:`engine_bangs`);
* ``:lang``: search in that language (``:de``); it wins over ``language``;
* ``<N``: the instance's time limit, seconds below 100, milliseconds from 100 (``<3``, ``<850``);
  it wins over ``timeout_limit``; one of digits it cannot read (``<²``) fails the search
  (:func:`unreadable_time_limit`, refused before sending);
* ``!!name``: an external bang: the instance answers with a redirect to that site's own
  search (``!!g`` to Google) instead of results.

A ``<N`` longer than the call's deadline would make the instance wait past it, so
:func:`within_deadline` takes it out of the query and sends the smaller limit as
``timeout_limit``. The other words are the user's to choose and are sent as they are (an
external bang's redirect is refused, never followed: :mod:`.searxng`).
"""

import re
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The query's words and the whitespace between them (``re.split(r'(\s+)')`` as SearXNG splits it).
_PARTS = re.compile(r"(\s+)")


def _time_limit_s(word: str) -> Optional[float]:
    """The seconds a ``<N`` word asks for (``searx/query.py: TimeoutParser``), else ``None``."""
    digits = word[1:]
    if not word.startswith("<") or not digits.isdecimal():  # "²".isdigit(), yet int("²") fails
        return None
    value = int(digits)
    return float(value) if value < 100 else value / 1000.0


def within_deadline(query: str, limit_s: float) -> tuple[str, float]:
    """``(query, timeout_limit)`` for a query that may hold ``<N`` words: those words taken out
    and the limit the smaller of ``limit_s`` and the last of them (the one the instance
    would use); a query without one is returned as it is."""
    parts = _PARTS.split(query)
    asked = [_time_limit_s(part) for part in parts]
    chosen = [seconds for seconds in asked if seconds is not None]
    if not chosen:
        return query, limit_s
    kept = "".join(part for part, seconds in zip(parts, asked) if seconds is None)
    return " ".join(kept.split()), min(limit_s, chosen[-1])


def unreadable_time_limit(query: str) -> Optional[str]:
    """The first ``<N`` word whose digits the instance cannot read as a number, else ``None``: it
    takes ``<`` and characters that are digits (``str.isdigit``: ``²``, ``①`` too) for a time limit
    and calls ``int`` on them, which fails for all but decimal digits; the error is not caught, so
    the search answers HTTP 500 ``{"error": "search error"}`` (``searx/query.py: TimeoutParser``,
    ``searx/webapp.py: search``)."""
    for word in query.split():
        digits = word[1:]
        if word.startswith("<") and digits.isdigit() and not digits.isdecimal():
            return word
    return None


def has_external_bang(query: str) -> bool:
    """Whether the query holds an external bang (a ``!!name`` word, ``!!g``): the instance answers
    it with a redirect to that site's own search."""
    return any(word.startswith("!!") and len(word) > 2 for word in query.split())


def engine_bangs(query: str) -> list[str]:
    """The names the query's ``!name`` words ask for, as SearXNG reads them (``searx/query.py:
    BangParser``): each word that starts with one ``!`` (not ``!!``: an external bang, or the
    feeling-lucky ``!!`` alone), without it, ``-`` and ``_`` read as spaces, lower-cased (``!Bing_News``
    is ``bing news``); a lone ``!`` names nothing. The instance searches only the engines of those it
    knows (an engine name, a shortcut, a category: :meth:`.searxng_config.InstanceConfig.bang_engines`)
    and ignores the rest; only its ``/config`` tells which."""
    words = (part for part in _PARTS.split(query) if part and not part.isspace())
    values = (word[1:].replace("-", " ").replace("_", " ").lower() for word in words if _bang_word(word))
    return [value for value in values if value]


def _bang_word(word: str) -> bool:
    """``BangParser.check``: a word SearXNG tries as a ``!name``."""
    return word.startswith("!") and not word.startswith("!!")


def could_be_name(value: str) -> bool:
    """Whether a ``!name``'s ``value`` (:func:`engine_bangs`) may be one the instance has, while its
    ``/config`` is not known to tell: one with a letter or digit. A ``!`` before punctuation alone
    (``a != b``) is tried as a name by the instance too, but none it publishes is one (engine names,
    shortcuts and categories all have letters), so it is read as the text it is."""
    return any(character.isalnum() for character in value)
