"""Which backends a call uses: names checked against the registry, ``"auto"`` expanded."""

from collections.abc import Mapping
from typing import Any, Optional

from ..config import Settings
from ..engine import registry
from ..engine.locales import split_locale
from ..errors import NOT_CONFIGURED, InvalidInput, WebProviderError
from ..models import SearchParams
from ..validate import BackendArg, backend_list

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Where ``auto`` is declared: each backend's ``auto_rank`` (lower first, ``None``: never)
#: and ``auto_languages``. API backends (ranks 10-99) join when configured; the keyless web
#: engines (100-199) always: DuckDuckGo first, then the engines that block it least alike
#: (Bing; Mojeek's own index; Yahoo, a Bing-fed front end with its own walls), DuckDuckGo
#: Lite last (DuckDuckGo's rate limit often covers both of its endpoints); Baidu leads them
#: for a Chinese locale only. Wikipedia is an encyclopedia, not web search: never in ``auto``.
#: Each vertical has its own chain: a backend's engine for that vertical declares its own
#: ``auto_rank``.
KEYLESS_RANKS = range(100, 200)


def _auto_candidates(locale: Optional[str], vertical: str = "web") -> list[str]:
    """Registered backends whose ``vertical`` engine declares a place in ``auto`` for
    ``locale``'s language, by rank."""
    language = split_locale(str(locale))[0] if locale else None
    ranked = []
    for name in registry.backends_for(vertical):
        cls = registry.backend_class(name, vertical)
        if cls.auto_rank is not None and (not cls.auto_languages or language in cls.auto_languages):
            ranked.append((cls.auto_rank, name))
    return [name for _, name in sorted(ranked)]


def keyless_chain(vertical: str = "web") -> tuple[str, ...]:
    """The keyless engines of ``auto`` for ``vertical``, in order (registered now, a default locale)."""
    return tuple(
        n for n in _auto_candidates(None, vertical) if registry.backend_class(n, vertical).auto_rank in KEYLESS_RANKS
    )


def check_backends(names: Optional[list[str]]) -> Optional[list[str]]:
    """``names`` unchanged, after ``InvalidInput(unknown_backend)`` for a name nobody registered."""
    for name in names or ():
        if name != "auto":
            registry.primary_class(name)
    return names


def default_backends(settings: Settings) -> list[str]:
    """The backends of ``settings.backend``, else the offline default (``InvalidInput`` for a
    misspelt ``WEB_SEARCH_BACKEND``: see :meth:`Settings.default_backend`)."""
    return check_backends(backend_list(settings.default_backend())) or [registry.DEFAULT_BACKEND]


def auto_backends(settings: Settings, locale: Optional[str] = None, vertical: str = "web") -> list[str]:
    """The chain ``"auto"`` stands for under ``settings`` (and the call's ``locale``) for
    ``vertical``: configured API backends, then the keyless engines (Baidu first among them
    for a Chinese locale)."""
    chosen = [
        n for n in _auto_candidates(locale, vertical) if registry.usable(registry.backend_class(n, vertical), settings)
    ]
    if not chosen:
        raise InvalidInput(
            "backend 'auto' found no configured backend%s" % ("" if vertical == "web" else " for " + vertical),
            detail_code=NOT_CONFIGURED,
        )
    return chosen


def sending_everything_first(names: list[str], settings: Settings, params: SearchParams) -> list[str]:
    """``names`` with the backends that send every input the call gave (none :meth:`~Backend.not_sent`)
    first, each group in its own order: ``auto`` asks an engine that would ignore the call's time
    range or locale only after those that apply it. An engine that joins ``auto`` for some languages
    only (``auto_languages``: Baidu for Chinese) is there because of the locale, its index is in that
    language: its locale counts as applied. One whose declaration raises (a plugin's defect, logged
    by :func:`registry.reported`) goes with those that do not send everything."""

    def sends_everything(name: str) -> bool:
        cls = registry.backend_class(name, params.vertical)
        try:
            unsent = registry.reported(cls, lambda: registry.instance(cls, settings).not_sent(params))
        except WebProviderError:
            return False
        return not [given for given in unsent if not (cls.auto_languages and given.partition(".")[0] == "locale")]

    complete = [sends_everything(name) for name in names]
    return [name for name, ok in zip(names, complete) if ok] + [name for name, ok in zip(names, complete) if not ok]


def resolve_backends(
    backend: BackendArg,
    client_default: Optional[list[str]],
    settings: Settings,
    params: Optional[SearchParams] = None,
) -> list[str]:
    """The call's backend names: its own, else the client's, else the settings'; ``auto`` expanded
    for the call's ``params`` (its locale, its vertical; those of its engines that send every input
    it gave first: :func:`sending_everything_first`), no repeats."""
    names = check_backends(backend_list(backend)) or client_default or default_backends(settings)
    if "auto" not in names:
        return names
    chain = auto_backends(settings, params.locale, params.vertical) if params else auto_backends(settings)
    if params is not None:
        chain = sending_everything_first(chain, settings, params)
    expanded: list[str] = []
    for name in names:
        for item in chain if name == "auto" else [name]:
            if item not in expanded:
                expanded.append(item)
    return expanded


def offline_default(response: Any) -> bool:
    """Whether ``response`` was answered by the offline stub as the default, no backend named
    (``provider_meta["offline_default"]``): its notes then tell how to search the web."""
    meta = response.get("provider_meta") if isinstance(response, Mapping) else None
    return isinstance(meta, Mapping) and meta.get("offline_default") is True


def offline_backends(response: Any) -> list[str]:
    """The offline backends (the stub) that produced ``response``'s results, in order; empty for web results."""
    meta = response.get("provider_meta") if isinstance(response, Mapping) else None
    meta = meta if isinstance(meta, Mapping) else {}
    names = meta.get("providers") or [meta.get("provider_name")]
    known = registry.backend_names()
    return [n for n in names if isinstance(n, str) and n in known and registry.backend_class(n).kind == "offline"]
