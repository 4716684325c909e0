"""A request's URL, body and headers encoded for the wire exactly as ``requests`` encodes them,
without building a ``requests.PreparedRequest`` per call.

Preparing a whole ``requests.Request`` (headers, cookies, hooks, the URL re-parsed and
re-quoted, the parameters run through ``requests``' runtime-checked protocols) was about half
of the browser wire's CPU per search. The endpoint URL of a backend is the same on every call,
so it is prepared by ``requests`` once (:func:`endpoint`, cached); the query and the form are
``urlencode``'d here by ``requests``' rule: a list or tuple value repeats the name, a ``None``
value is left out, text is UTF-8. ``tests/unit/test_encode.py`` holds the result equal to
``requests.Request(...).prepare()`` on every shape of request the backends build.
"""

import json as jsonlib
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Optional, Union
from urllib.parse import quote_plus, urlencode

import requests
from requests.utils import get_auth_from_url

from ..hostnames import HostRefused, with_ascii_host

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

Fields = Union[None, str, bytes, Mapping[str, Any], Iterable[tuple[str, Any]]]
FORM = "application/x-www-form-urlencoded"
JSON = "application/json"


@lru_cache(maxsize=512)
def endpoint(url: str) -> str:
    """``url`` as ``requests`` prepares it (quoting, ``/`` for an empty path), its host encoded by
    the library's rule (:func:`~..hostnames.with_ascii_host`, as fetch's, not by ``requests``' IDNA).
    Raises ``requests``' ``MissingSchema``, ``InvalidURL`` or ``InvalidSchema`` for a URL it refuses."""
    try:
        url = with_ascii_host(url)
    except (HostRefused, ValueError) as refused:  # (a checked endpoint is neither: Backend.check_configured)
        raise requests.exceptions.InvalidURL(str(refused)) from None
    prepared = requests.PreparedRequest()
    prepared.prepare_url(url, None)
    return prepared.url or url


#: The one type of the names and values of a form encoded without urlencode's checks.
_TEXT_ONLY = frozenset([str])


def encoded(fields: Fields) -> str:
    """``fields`` (a mapping or ``(name, value)`` pairs) form-encoded by ``requests``' rule;
    text or bytes as they are."""
    if fields is None:
        return ""
    if isinstance(fields, bytes):
        return fields.decode("utf-8")
    if isinstance(fields, str):
        return fields
    if (
        type(fields) is dict
        and _TEXT_ONLY.issuperset(map(type, fields))
        and _TEXT_ONLY.issuperset(map(type, fields.values()))
    ):
        # every name and value text (every engine's form): what urlencode(..., doseq=True) makes of
        # them, without its type checks of each pair
        return "&".join([quote_plus(name) + "=" + quote_plus(value) for name, value in fields.items()])
    pairs = fields.items() if isinstance(fields, Mapping) else fields
    result: list[tuple[Any, Any]] = []
    for name, values in pairs:
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            values = [values]
        result.extend((name, value) for value in values if value is not None)
    return urlencode(result, doseq=True)


def with_query(url: str, query: str) -> str:
    """``url`` (prepared) with ``query`` appended to its own, before its fragment."""
    if not query:
        return url
    base, hash_mark, fragment = url.partition("#")
    if "?" not in base:
        return "%s?%s%s%s" % (base, query, hash_mark, fragment)
    joiner = "" if base.endswith("?") else "&"
    return "%s%s%s%s%s" % (base, joiner, query, hash_mark, fragment)


def body_of(data: Fields, json: Any) -> tuple[Union[str, bytes, None], Optional[str]]:
    """The body (a form as text, JSON as bytes, raw text or bytes as given) and the
    ``Content-Type`` it implies (``None`` for raw data), as ``requests`` chooses them."""
    if data:
        if isinstance(data, (str, bytes)):
            return data, None
        return encoded(data), FORM
    if json is not None:
        return jsonlib.dumps(json, allow_nan=False).encode("utf-8"), JSON
    return None, None


def url_credentials(url: str) -> Optional[tuple[str, str]]:
    """The user name and password in ``url``'s userinfo (``requests`` sends them as Basic auth), or ``None``."""
    if "@" not in url.split("?", 1)[0].split("#", 1)[0]:
        return None
    user, password = get_auth_from_url(url)
    return (user, password) if user or password else None
