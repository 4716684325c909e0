"""The checks of settings that both ``config`` (when :class:`~websearch_sync.config.Settings` are built)
and the client (when it is given a value, or reads one from the environment) run: the shared state's
Redis URL and the ``impersonate`` profile, and :func:`shown_url`, how a URL is quoted in their messages.

One place for each, so a value refused when the settings are built is refused for the same reason,
in the same words, when a client is given it. Imports only ``errors`` and ``secrets``.
"""

import re
import urllib.parse
from typing import Any, Optional

from ..errors import BAD_IMPERSONATE, BAD_STATE_URL, InvalidInput, cut_end
from ..secrets import is_secret_name, userinfo_hidden


def shown_url(url: str) -> str:
    """``url`` for messages and logs: scheme, host, port and path (cut at 80 characters).

    User info, query and fragment are left out: they are where credentials and keys travel
    (``user:pass@``, ``?api_key=``), and a message or log line may be shown to anyone.
    """
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return "<unparsable URL>"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc.rsplit("@", 1)[-1], cut_end(parts.path, 80), "", ""))


# -- the shared state's URL ----------------------------------------------------------------------

#: The schemes of a shared-state (Redis) URL.
STATE_URL_SCHEMES = ("redis", "rediss", "unix")

#: The query options a state URL may carry: name -> the check of its value (redis-py passes
#: unknown ones to the connection, which fails at every command instead of once, here).
_POSITIVE = "a positive number"
_URL_OPTIONS: dict[str, str] = {
    "socket_timeout": _POSITIVE,
    "socket_connect_timeout": _POSITIVE,
    "db": "a whole number >= 0",
    "max_connections": "a whole number >= 1",
    "health_check_interval": "a whole number >= 0",
    "socket_keepalive": "a flag",
    "password": "text",
    "username": "text",
    "client_name": "text",
    "ssl_cert_reqs": "text",
    "ssl_ca_certs": "text",
    "ssl_ca_path": "text",
    "ssl_certfile": "text",
    "ssl_keyfile": "text",
    "ssl_check_hostname": "a flag",
}


#: The URL options redis-py takes that a state URL cannot use, and why.
_REFUSED_OPTIONS = {
    # redis-py hands it to the connection class, which takes no such argument: every search raised TypeError
    "timeout": "timeout is the wait of redis-py's blocking connection pool, which the state does not use:"
    " set socket_timeout (and socket_connect_timeout) for a command's",
}


def _option_problem(name: str, value: str) -> Optional[str]:
    refused = _REFUSED_OPTIONS.get(name)
    if refused is not None:
        return refused
    kind = _URL_OPTIONS.get(name)
    if kind is None:
        return "unknown option %r (known: %s)" % (name, ", ".join(sorted(_URL_OPTIONS)))
    try:
        if kind == _POSITIVE:
            ok = 0 < float(value) < float("inf")
        elif kind.startswith("a whole number"):
            ok = int(value) >= int(kind[-1])
        elif kind == "a flag":
            ok = value.lower() in ("0", "1", "true", "false", "yes", "no", "on", "off")
        else:
            ok = True
    except ValueError:
        ok = False
    return None if ok else "%s must be %s" % (name, kind)


def _address_problem(url: str) -> Optional[str]:
    """What makes the host and port of ``url`` unusable, or ``None``."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port  # raises ValueError for a port that is not a number in 0..65535
        parts.hostname  # noqa: B018
    except ValueError as exc:
        return str(exc)
    if port == 0:  # redis-py reads it as no port and connects to 6379: maybe another Redis, unseen
        return "port 0 names no server (redis-py would connect to 6379 instead); leave the port out for 6379"
    if parts.scheme.lower() in ("redis", "rediss") and not parts.hostname:
        # redis-py connects to localhost then: redis://${REDIS_HOST}:6379/0 with the variable unset gave
        # each container its own (absent) Redis, so every worker kept its own pace, with one warning
        return "it names no host (redis-py would connect to localhost instead); write redis://localhost:6379/0 for this machine's Redis"
    return None


#: What ends a URL's user info where a password holds it as it is: the rest is read as a path, a
#: query or a fragment, and the password's first part as a host or port.
_USERINFO_ENDS = re.compile(r"[/?#]")


def _userinfo_cut(url: str) -> bool:
    """Whether the text between ``url``'s ``://`` and its last ``@`` holds ``/``, ``?`` or ``#``: a
    password typed with one of them (a base64 one's ``/``) is cut there, and the parts of it the
    parse then finds (a port, a path, an option's name) must not be quoted in a message."""
    _, separator, rest = url.partition("://")
    return bool(separator) and "@" in rest and _USERINFO_ENDS.search(rest.rsplit("@", 1)[0]) is not None


def _url_problem(url: str) -> Optional[str]:
    """What makes ``url`` unusable as a state URL, or ``None`` (quoting no part of its user info)."""
    problem = _parsed_problem(url)
    if problem is not None and _userinfo_cut(url):
        return (
            "its user info (before the last '@') holds a '/', '?' or '#', which ends it there: write them"
            " percent-encoded in a user name or password (%2F, %3F, %23)"
        )
    return problem


def _parsed_problem(url: str) -> Optional[str]:
    """What makes ``url`` unusable as a state URL, or ``None``."""
    problem = _address_problem(url)
    if problem is not None:
        return problem
    if "#" in url:  # redis-py drops a fragment: a password's '#' cut it unseen
        return "it holds a '#': a state URL has no fragment (a '#' in a password is written %23)"
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() not in STATE_URL_SCHEMES:
        return "its scheme must be redis://, rediss:// or unix://"
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        return "it contains whitespace or control characters"
    if parts.scheme.lower() == "unix" and not parts.path:
        return "a unix:// URL needs a socket path"
    path_db = parts.path.strip("/")
    if parts.scheme.lower() != "unix" and path_db and not path_db.isdigit():
        return "its path must be a database number, got %r" % path_db
    return _query_problem(parts.query, parts.scheme.lower()) or _database_problem(parts)


def _database_problem(parts: urllib.parse.SplitResult) -> Optional[str]:
    """A database number in the path of a URL whose query names another (checked after the query's options)."""
    path_db = parts.path.strip("/")
    query_db = [value for name, value in urllib.parse.parse_qsl(parts.query) if name == "db"]
    if parts.scheme.lower() == "unix" or not path_db or not query_db or int(query_db[0]) == int(path_db):
        return None
    # redis-py uses the query's, unseen
    return "it names database %s in its path and %s in ?db= (redis-py would use %s): give one" % (
        path_db,
        query_db[0],
        query_db[0],
    )


def _query_problem(query: str, scheme: str) -> Optional[str]:
    """What makes the options of a state URL's ``query`` unusable, or ``None``. A name right after a
    secret's value that names no option is the rest of that secret, cut by a ``&`` it holds: not quoted."""
    after_secret = ""
    seen: set[str] = set()
    for name, value in urllib.parse.parse_qsl(query, keep_blank_values=True):
        if name in seen and name in _URL_OPTIONS:  # redis-py takes the first and drops the others, unseen
            return "option %s is given twice (redis-py would use the first): give it once" % name
        seen.add(name)
        if after_secret and name not in _URL_OPTIONS and name not in _REFUSED_OPTIONS:
            return (
                "an option after %s= names no option: a '&' in its value ends it there (write it %%26); the"
                " option is not quoted" % after_secret
            )
        problem = _option_problem(name, value)
        if problem is not None:
            return problem
        if name.startswith("ssl_") and scheme != "rediss":
            # redis-py hands it to a plain connection, which fails every command with a TypeError
            return "%s needs TLS: a rediss:// URL, not %s://" % (name, scheme)
        after_secret = name if is_secret_name(name) else ""
    return None


#: Where a state URL is set, as a refusal names it (a client's ``state_url=``, the environment, the command line).
STATE_URL_PLACES = "state_url (WEB_SEARCH_STATE_URL, --state-url)"


def check_state_url(url: Any, where: str = STATE_URL_PLACES) -> str:
    """``url`` (stripped) when it is a usable Redis URL; else ``InvalidInput(bad_state_url)`` saying
    why and naming ``where`` it was set (checked when :class:`~.config.Settings` are built and when a
    client is given one, not at every search; no part of its user info or query is quoted)."""
    problem = _url_problem(url.strip()) if isinstance(url, str) else "not a string"
    if problem is not None:
        shown = (
            (shown_url(userinfo_hidden(url)) if _userinfo_cut(url) else shown_url(url)) if isinstance(url, str) else url
        )
        raise InvalidInput(
            "%s must be a redis://, rediss:// or unix:// URL such as redis://host:6379/0: %s (got %r)"
            % (where, problem, shown),
            detail_code=BAD_STATE_URL,
        )
    return str(url).strip()


# -- the browser a request is sent as -------------------------------------------------------------

#: The browser profiles offered (each checked consistent in the fingerprint lab).
IMPERSONATE_PROFILES: tuple[str, ...] = ("chrome",)
#: Every value ``impersonate`` accepts.
IMPERSONATE_CHOICES: tuple[str, ...] = IMPERSONATE_PROFILES + ("off",)
#: Profiles curl_cffi has but the lab does not find consistent (docs/configuration.md#transports).
_REFUSED_PROFILES = {
    "firefox": "curl_cffi 0.17's Firefox profile sends a TLS fingerprint (JA4) no real Firefox sends",
    "safari": "curl_cffi 0.17's Safari profile has an HTTP/2 fingerprint the lab cannot verify against a real Safari",
}
#: Where ``impersonate`` is set, as a refusal names it.
IMPERSONATE_PLACES = "impersonate (WEB_SEARCH_IMPERSONATE, --impersonate)"


def check_impersonate(value: Any, where: str = IMPERSONATE_PLACES) -> str:
    """``value`` as a profile name (stripped, lower case) when it is one ``impersonate`` takes
    (:data:`IMPERSONATE_CHOICES`); else ``InvalidInput(bad_impersonate)`` naming ``where`` it was set
    (whether the ``browser`` extra a profile needs is installed is asked when a client is built)."""
    name = str(value).strip().lower()
    if name in _REFUSED_PROFILES:
        raise InvalidInput(
            "%s: %s is not offered: %s; use one of %s"
            % (where, name, _REFUSED_PROFILES[name], ", ".join(IMPERSONATE_CHOICES)),
            detail_code=BAD_IMPERSONATE,
        )
    if name not in IMPERSONATE_CHOICES:
        raise InvalidInput(
            "%s must be one of %s, got %r" % (where, ", ".join(IMPERSONATE_CHOICES), str(value)[:40]),
            detail_code=BAD_IMPERSONATE,
        )
    return name
