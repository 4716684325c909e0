"""What the environment says about a request (its proxy, its CA bundle), read once per origin and
values of the variables: ``requests`` reads the whole environment for it on every request (a tenth
of a warm search's CPU), and a changed variable must still count at once.

Both wires take the environment's proxy as ``requests`` reads it (``<scheme>_proxy`` and
``ALL_PROXY`` in either case, ``NO_PROXY``), so a search goes through the same proxy whichever
wire sends it (libcurl's own reading skips ``HTTP_PROXY``, and reads ``NO_PROXY`` its own way).
"""

import os
import sys
import weakref
from collections.abc import Hashable
from typing import Callable, Generic, Optional, TypeVar
from urllib.parse import urlsplit

from requests.utils import get_environ_proxies, prepend_scheme_if_needed, select_proxy

from ..config import proxy_problem
from ..errors import BAD_PROXY, InvalidInput
from ..forks import instance_lock
from .headers import credentials_problem

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How many origins' answers a memo keeps (then it starts again).
_KEPT = 256
#: Whether urllib also reads the system's proxy settings (macOS, Windows) when no variable names
#: one: no key sees them, so there a wire keeps its answers to itself and a new client reads afresh.
SYSTEM_PROXIES = sys.platform in ("darwin", "win32")
#: Every table, so that :func:`forget_answers` can empty them.
_TABLES: "weakref.WeakSet[PerOrigin[object]]" = weakref.WeakSet()

T = TypeVar("T")


def proxy_environment() -> tuple[Hashable, ...]:
    """What urllib's proxy reading takes from the environment: every variable whose lower-cased
    name ends in ``_proxy`` (``getproxies_environment`` reads any spelling: ``Https_Proxy``) and
    whether ``REQUEST_METHOD`` is set (then it ignores ``HTTP_PROXY``: the httpoxy guard). Read on
    every request: the names are read alone and only the proxies' values after them (``os.environ``
    decodes each name and value it hands out: reading every value was 60% of the time, 14 us).
    Where the environment holds no such name (nearly always), the names are not read one by one
    either (:func:`_no_proxy_names`)."""
    environ = os.environ
    named: tuple[Hashable, ...] = ()
    if not _no_proxy_names():
        named = tuple(sorted((name, environ[name]) for name in environ if name[-6:].lower() == "_proxy"))
    return named + ("REQUEST_METHOD" in environ,)


#: The names of the environment as the process holds them: ``os.environ`` keeps them encoded in
#: this dictionary on POSIX (``os.environb`` shares it), and every change made through ``os.environ``
#: or ``os.environb`` lands in it. ``None`` where there is none (Windows keeps names as text).
_RAW_NAMES: Optional[dict[bytes, bytes]] = getattr(os.environ, "_data", None) if os.supports_bytes_environ else None


def _no_proxy_names() -> bool:
    """Whether no name of the environment ends in ``_proxy`` in any case, told from the raw names
    joined and lower-cased in C (0.5 us for 40 names): iterating ``os.environ`` decodes each name in a
    Python step, 90 calls of a fetch's 1,000 outside extraction. ``False`` (read them one by one)
    where the raw names are out of reach."""
    if _RAW_NAMES is None:
        return False
    return b"_proxy\0" not in b"\0".join([*_RAW_NAMES, b""]).lower()


class PerOrigin(Generic[T]):
    """Answers kept per origin (scheme, host, port), the proxy environment
    (:func:`proxy_environment`), the values of ``variables`` and what else the caller says the
    answer depends on (a wire's CA bundle): one table may serve several wires. The key holds no
    URL userinfo, so a table outliving a client keeps none of its credentials."""

    def __init__(self, variables: tuple[str, ...] = ()) -> None:
        self.variables = variables
        self._kept: dict[tuple[Hashable, ...], T] = {}
        self._lock = instance_lock(self)
        _TABLES.add(self)  # type: ignore[arg-type]

    def get(self, url: str, read: Callable[[str], T], *depends: Hashable) -> T:
        """``read(url)``'s answer as the environment now stands (read once per key)."""
        parts = urlsplit(url)
        origin = parts.netloc.rpartition("@")[2].lower()  # host and port: all the answer depends on
        key = (parts.scheme, origin, proxy_environment(), tuple(map(os.environ.get, self.variables))) + depends
        with self._lock:
            if key in self._kept:
                return self._kept[key]
        answer = read(url)
        with self._lock:
            if len(self._kept) >= _KEPT:
                self._kept.clear()
            self._kept[key] = answer
        return answer

    def forget(self) -> None:
        """Forget every answer."""
        with self._lock:
            self._kept.clear()


def forget_answers() -> None:
    """Forget every table's answers (``websearch_sync.testing.reset``: a test starts afresh)."""
    for table in list(_TABLES):
        table.forget()


def environment_proxy(url: str, provider: Optional[str] = None) -> Optional[str]:
    """The proxy the environment names for ``url`` as ``requests`` reads it, or ``None`` (none, or
    ``NO_PROXY`` names its host); one written without a scheme is an HTTP proxy, as requests takes it.

    One that is no usable proxy URL is ``InvalidInput(bad_proxy)`` on both wires, judged as a
    configured proxy is, naming the variable and never its value (urllib3's parse error quotes
    the whole URL, password included)."""
    proxies = get_environ_proxies(url)
    found: Optional[str] = select_proxy(url, proxies)
    if not found:
        return None
    proxy: Optional[str]
    try:
        proxy = prepend_scheme_if_needed(found, "http")  # type: ignore[no-untyped-call]
    except ValueError:  # urllib3's LocationParseError: its message is the whole URL
        proxy = None
    problem = proxy_problem(proxy or found) or ("it cannot be read as a URL" if proxy is None else None)
    problem = problem or credentials_problem(found)
    if problem:
        raise InvalidInput(
            "the proxy in %s is not a usable proxy URL such as http://proxy.example:3128: %s"
            % (_variable(url, proxies, found), problem),
            provider=provider,
            detail_code=BAD_PROXY,
        )
    return proxy


#: The environment's proxy per origin, shared by the wires (:func:`proxy_table`).
_SHARED_PROXIES: PerOrigin[Optional[str]] = PerOrigin()


def proxy_table() -> PerOrigin[Optional[str]]:
    """A wire's memo of :func:`environment_proxy`: one every wire shares, or its own where the
    system's proxy settings count (:data:`SYSTEM_PROXIES`: no key sees them)."""
    return PerOrigin() if SYSTEM_PROXIES else _SHARED_PROXIES


def _variable(url: str, proxies: dict[str, str], found: str) -> str:
    """The variable ``found`` came from (``HTTPS_PROXY`` or ``https_proxy``, else ``ALL_PROXY``...),
    or the system's settings."""
    scheme = urlsplit(url).scheme
    base = (scheme if proxies.get(scheme) == found else "all") + "_proxy"
    for name, value in os.environ.items():  # any spelling: urllib reads ``Https_Proxy`` too
        if name.lower() == base and value == found:
            return name
    return "the system's proxy settings"  # urllib reads them on macOS and Windows
