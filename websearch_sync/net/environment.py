"""What the environment says about a request (its proxy, its CA bundle), read once per origin and
values of the variables: ``requests`` reads the whole environment for it on every request (a tenth
of a warm search's CPU), and a changed variable must still count at once.

Both wires take the environment's proxy as ``requests`` reads it (``<scheme>_proxy`` and
``ALL_PROXY`` in either case, ``NO_PROXY``), so a search goes through the same proxy whichever
wire sends it (libcurl's own reading skips ``HTTP_PROXY``, and reads ``NO_PROXY`` its own way).
"""

import os
import threading
from collections.abc import Hashable
from typing import Callable, Generic, Optional, TypeVar
from urllib.parse import urlsplit

from requests.utils import get_environ_proxies, prepend_scheme_if_needed, select_proxy

from ..config import proxy_problem
from ..errors import BAD_PROXY, InvalidInput
from .headers import credentials_problem

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The variables the environment's proxy for a URL comes from (urllib's ``getproxies`` reads the
#: ``*_proxy`` ones of both cases on every platform).
PROXY_VARIABLES = tuple(
    name for base in ("http_proxy", "https_proxy", "all_proxy", "no_proxy") for name in (base, base.upper())
)
#: How many origins' answers a memo keeps (then it starts again).
_KEPT = 256

T = TypeVar("T")


class PerOrigin(Generic[T]):
    """Answers kept per origin (scheme, host, port), values of ``variables`` and what else the
    caller says the answer depends on (a wire's CA bundle): one table may serve several wires."""

    def __init__(self, variables: tuple[str, ...]) -> None:
        self.variables = variables
        self._kept: dict[tuple[Hashable, ...], T] = {}
        self._lock = threading.Lock()

    def get(self, url: str, read: Callable[[str], T], *depends: Hashable) -> T:
        """``read(url)``'s answer as the environment now stands (read once per key)."""
        parts = urlsplit(url)
        key = (parts.scheme, parts.netloc, tuple(map(os.environ.get, self.variables))) + depends
        with self._lock:
            if key in self._kept:
                return self._kept[key]
        answer = read(url)
        with self._lock:
            if len(self._kept) >= _KEPT:
                self._kept.clear()
            self._kept[key] = answer
        return answer


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


#: The environment's proxy per origin, for every wire (a bad one is refused again on each request).
_PROXIES: PerOrigin[Optional[str]] = PerOrigin(PROXY_VARIABLES)


def proxy_from_environment(url: str, provider: Optional[str]) -> Optional[str]:
    """:func:`environment_proxy`, read once per origin and values of the proxy variables."""
    return _PROXIES.get(url, lambda target: environment_proxy(target, provider))


def _variable(url: str, proxies: dict[str, str], found: str) -> str:
    """The variable ``found`` came from (``HTTPS_PROXY`` or ``https_proxy``, else ``ALL_PROXY``...)."""
    scheme = urlsplit(url).scheme
    base = (scheme if proxies.get(scheme) == found else "all") + "_proxy"
    return base if os.environ.get(base) == found else base.upper()
