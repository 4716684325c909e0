"""Which backends a call uses: names checked against the registry, ``"auto"`` expanded."""

from typing import Iterable, List, Optional, Union

from ..backends import registry
from ..config import Settings
from ..errors import InvalidInput
from ..validate import backend_list

__all__ = ["AUTO_ORDER", "AUTO_LAST", "check_backends", "resolve_backends", "auto_backends", "default_backends"]

BackendArg = Union[None, str, Iterable[str]]

#: ``backend="auto"``: configured API backends in this order, then ``ddg_html``.
AUTO_ORDER = ("brave", "bocha", "searxng", "tavily", "kagi", "jina", "service")
AUTO_LAST = "ddg_html"


def check_backends(names: Optional[List[str]]) -> Optional[List[str]]:
    """``names`` unchanged, after ``InvalidInput(unknown_backend)`` for a name nobody registered."""
    for name in names or ():
        if name != "auto":
            registry.backend_class(name)
    return names


def default_backends(settings: Settings) -> List[str]:
    """The backends of ``settings.backend``, else the offline default."""
    return check_backends(backend_list(settings.backend)) or [registry.DEFAULT_BACKEND]


def auto_backends(settings: Settings) -> List[str]:
    """The chain ``"auto"`` stands for under ``settings``."""
    known = registry.backend_names()
    chosen = [n for n in AUTO_ORDER if n in known and registry.backend_class(n)(settings).is_configured()]
    if AUTO_LAST in known:
        chosen.append(AUTO_LAST)
    if not chosen:
        raise InvalidInput("backend 'auto' found no configured backend", detail_code="not_configured")
    return chosen


def resolve_backends(backend: BackendArg, client_default: Optional[List[str]], settings: Settings) -> List[str]:
    """The call's backend names: its own, else the client's, else the settings'; ``auto`` expanded, no repeats."""
    names = check_backends(backend_list(backend)) or client_default or default_backends(settings)
    if "auto" not in names:
        return names
    expanded: List[str] = []
    for name in names:
        for item in auto_backends(settings) if name == "auto" else [name]:
            if item not in expanded:
                expanded.append(item)
    return expanded
