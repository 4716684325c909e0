"""Refusing request headers that cannot go on the wire, before anything is sent.

HTTP/1.1 header values are bytes; ``http.client`` encodes them as Latin-1 and refuses
line breaks. A User-Agent, an API key or proxy credentials with a character outside
Latin-1 made ``http.client`` raise ``UnicodeEncodeError`` in the middle of sending;
a line break would split the header. Both are configuration mistakes:
``InvalidInput`` naming the header (never its value, which may be a key).
"""

import operator
from collections.abc import Mapping
from itertools import chain, repeat
from typing import Optional
from urllib.parse import unquote, urlsplit

from requests.utils import select_proxy

from ..errors import BAD_HEADER, BAD_PROXY, InvalidInput
from ..validate import header_value_problem as _problem

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def check_headers(headers: Mapping[str, object], provider: Optional[str]) -> None:
    """``InvalidInput(bad_header)`` when a header name or value cannot be sent as it is."""
    if _plain(headers):
        return
    for name, value in headers.items():
        if (
            isinstance(name, str)
            and isinstance(value, str)
            and name.isascii()
            and name.isprintable()
            and value.isascii()
            and value.isprintable()
        ):
            continue  # nearly every header: what _problem passes first, without calling it twice
        problem = _problem(name) if isinstance(name, str) else None
        if problem is None and isinstance(value, str):
            problem = _problem(value)
        elif problem is None and not isinstance(value, (bytes, type(None))):  # None: a session's "leave it out"
            raise InvalidInput(
                "the %s header cannot be sent: its value is of type %s, not text (a backend's build_request gives "
                "str(value); a setting of headers holds text)" % (_shown_name(name), type(value).__name__),
                provider=provider,
                detail_code=BAD_HEADER,
            )
        if problem is not None:
            raise InvalidInput(
                "the %s header cannot be sent: its value has %s; check the setting it comes from "
                "(user_agent, an API key, WEB_SEARCH_SERVICE_HEADERS...)" % (_shown_name(name), problem),
                provider=provider,
                detail_code=BAD_HEADER,
            )


def _plain(headers: Mapping[str, object]) -> bool:
    """Whether every name and value is a ``str`` of printable ASCII (what :func:`check_headers`
    passes without a look at each): asked of them all at once, in C, not in a Python loop of a
    few lines a header (a search's sixteen headers: about 130 lines of Python)."""
    if not (
        all(map(operator.is_, map(type, headers), repeat(str)))
        and all(map(operator.is_, map(type, headers.values()), repeat(str)))
    ):
        return False
    text = "".join(chain(headers, headers.values()))  # type: ignore[arg-type]  # every one a str
    return text.isascii() and text.isprintable()


def check_proxy(url: str, proxies: Mapping[str, str], provider: Optional[str]) -> None:
    """``InvalidInput(bad_proxy)`` when the proxy ``url`` would go through has credentials
    that cannot be sent (``requests`` encodes them as Latin-1 for ``Proxy-Authorization``)."""
    proxy = select_proxy(url, dict(proxies)) if proxies else None
    problem = credentials_problem(proxy) if proxy else None
    if problem:
        raise InvalidInput("the proxy's " + problem, provider=provider, detail_code=BAD_PROXY)


def credentials_problem(proxy: str) -> Optional[str]:
    """Why the user name or password in the proxy URL ``proxy`` cannot be sent, or ``None`` (also
    for a URL too malformed to read: that is refused as such, :mod:`.environment`, ``config``)."""
    try:
        parts = urlsplit(proxy)
        credentials = [unquote(parts.username or ""), unquote(parts.password or "")]
    except ValueError:
        return None
    if any(_problem(part) for part in credentials):
        return (
            "user name or password cannot be sent: HTTP proxy credentials carry Latin-1 only "
            "(percent-encoding does not help: they are decoded before sending)"
        )
    return None


def _shown_name(name: object) -> str:
    """A header name for a message (a bad name itself is shown escaped)."""
    text = str(name)
    return text if _problem(text) is None and len(text) <= 100 else ascii(text[:100])
