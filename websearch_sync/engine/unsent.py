"""Which of a call's common inputs a backend's request does not carry (``provider_meta["not_sent"]``).

A service without a parameter for an input (Kagi's v0 search takes a query and a count, Bing has
no filter for a year) answers as if the caller had not given it. The response says so instead of
staying silent: each engine declares what its request builder leaves out
(:attr:`~websearch_sync.engine.base.Backend.unsent`), as an input's name (``"safe_search"``),
``"<input>=<value>"`` for the values it cannot express alone (``"time_range=year"``), or
``"locale=language-only"`` for an engine that sends a locale's region alone (``de`` is not sent). An input
counts as sent when a query parameter, body field, preference cookie or the address carries it;
an ``Accept-Language`` header alone is a browser's hint, not the service's filter.
"""

from collections.abc import Callable, Iterable

from ..models import SearchParams

__all__: list[str] = []  # internal: documented in docs/backends.md and docs/ result shape

#: The inputs every backend is asked with (``search()``'s keywords), in the order they are reported.
COMMON_INPUTS = ("locale", "safe_search", "site_filter", "time_range")
#: The value of ``locale`` in a declaration that means "a locale without a region".
LANGUAGE_ONLY = "language-only"


def unsent_inputs(declared: Iterable[str], params: SearchParams, language_only: Callable[[str], bool]) -> list[str]:
    """The inputs among ``declared`` (``"name"`` or ``"name=value"``) that the call gave (a
    value other than the default, ``None``), sorted: the ones its request goes without.
    ``language_only`` tells a locale without a region (``de``) for ``"locale=language-only"``."""
    unsent = set()
    for entry in declared:
        name, _, value = entry.partition("=")
        given = getattr(params, name) if name in COMMON_INPUTS else None
        if given and (not value or given == value or (value == LANGUAGE_ONLY and language_only(given))):
            unsent.add(name)
    return sorted(unsent)


def usable_declaration(declared: object) -> bool:
    """Whether ``declared`` is a usable ``unsent`` declaration: a tuple of ``"<input>"`` or
    ``"<input>=<value>"`` strings naming inputs of :data:`COMMON_INPUTS`."""
    return isinstance(declared, tuple) and all(
        isinstance(entry, str) and entry.partition("=")[0] in COMMON_INPUTS for entry in declared
    )
