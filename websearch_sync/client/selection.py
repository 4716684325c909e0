"""Which backends a call uses: names checked against the registry, ``"auto"`` expanded."""

from typing import Iterable, List, Optional, Union

from ..backends import registry
from ..backends.base import split_locale
from ..config import Settings
from ..errors import InvalidInput
from ..validate import backend_list

__all__ = ["AUTO_ORDER", "KEYLESS_CHAIN", "check_backends", "resolve_backends", "auto_backends", "default_backends"]

BackendArg = Union[None, str, Iterable[str]]

#: ``backend="auto"``: the configured API backends in this order, then :data:`KEYLESS_CHAIN`.
AUTO_ORDER = ("brave", "bocha", "searxng", "tavily", "kagi", "jina", "service")
#: The keyless web engines of ``auto``, tried in this order (see docs/client.md for why):
#: DuckDuckGo first, then the engines that block it least alike (Bing; Mojeek's own index;
#: Yahoo, a Bing-fed front end with its own walls), DuckDuckGo Lite last (DuckDuckGo's
#: rate limit often covers both of its endpoints). Wikipedia is an encyclopedia, not web
#: search: never in ``auto``.
KEYLESS_CHAIN = ("ddg_html", "bing_html", "mojeek_html", "yahoo_html", "ddg_lite")
#: For a Chinese locale (``zh``, ``zh-CN``, ``zh-Hant-TW``...) Baidu leads the keyless engines.
CHINESE_FIRST = "baidu_html"


def check_backends(names: Optional[List[str]]) -> Optional[List[str]]:
    """``names`` unchanged, after ``InvalidInput(unknown_backend)`` for a name nobody registered."""
    for name in names or ():
        if name != "auto":
            registry.backend_class(name)
    return names


def default_backends(settings: Settings) -> List[str]:
    """The backends of ``settings.backend``, else the offline default."""
    return check_backends(backend_list(settings.backend)) or [registry.DEFAULT_BACKEND]


def auto_backends(settings: Settings, locale: Optional[str] = None) -> List[str]:
    """The chain ``"auto"`` stands for under ``settings`` (and the call's ``locale``): configured
    API backends, then the keyless engines (Baidu first among them for a Chinese locale)."""
    known = registry.backend_names()
    chosen = [n for n in AUTO_ORDER if n in known and registry.backend_class(n)(settings).is_configured()]
    chinese = bool(locale) and split_locale(str(locale))[0] == "zh"
    keyless = ((CHINESE_FIRST,) if chinese else ()) + KEYLESS_CHAIN
    chosen.extend(n for n in keyless if n in known)
    if not chosen:
        raise InvalidInput("backend 'auto' found no configured backend", detail_code="not_configured")
    return chosen


def resolve_backends(
    backend: BackendArg, client_default: Optional[List[str]], settings: Settings, locale: Optional[str] = None
) -> List[str]:
    """The call's backend names: its own, else the client's, else the settings'; ``auto`` expanded
    for the call's ``locale``, no repeats."""
    names = check_backends(backend_list(backend)) or client_default or default_backends(settings)
    if "auto" not in names:
        return names
    expanded: List[str] = []
    for name in names:
        for item in auto_backends(settings, locale) if name == "auto" else [name]:
            if item not in expanded:
                expanded.append(item)
    return expanded
