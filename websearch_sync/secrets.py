"""The one place that knows what a secret is and how it is hidden.

- :func:`is_secret_name`: the one rule for which setting, header, query or form
  field names hold a credential;
- :func:`redact`: the one redaction of known secret values from any text (an error's message:
  ``errors.redact_error``);
- :func:`redacted_value`: the same over a JSON-like value's texts (an answer, a failure record),
  before it is serialised: redacting the JSON text instead misses a secret holding a character
  JSON escapes (``"``, ``\\``, a control character).

Imports nothing from the package, so every layer can use it.
"""

import functools
import re
from collections.abc import Iterable
from typing import Any, Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Secrets shorter than this are not redacted: they would mangle the text and cannot identify an account.
MIN_SECRET_LEN = 4
#: A name word ending in one of these (or its plural) marks a secret (``api_key``, ``X-Subscription-Token``,
#: ``apiKey``, ``keys``, ``passwords``).
_SECRET_ENDINGS = (
    "key",
    "token",
    "secret",
    "password",
    "passwd",
    "apikey",
    "headers",
    "credential",
    "jwt",
    "sessid",
    "sessionid",
)
#: Name words that are secrets by themselves (or in the plural).
_SECRET_WORDS = ("auth", "authorization", "cookie", "pwd", "sig", "signature", "session", "sid")
#: Names up to this long have their verdict remembered. Real setting, header and field names are
#: short; longer ones can come from upstream (a page's refresh target, a fetched URL, up to 64 K
#: each), and 4096 of those kept would pin hundreds of megabytes.
REMEMBERED_NAME_LEN = 64
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")


def is_secret_name(name: str) -> bool:
    """True for a setting, header or field name that carries a credential.

    The one rule of the package (settings, recorded fixtures, redirects, the fetch
    service's URL check all use it). The name is split into words
    (``X-Subscription-Token`` -> x, subscription, token; ``apiKey`` -> api, key);
    a word, singular or plural, ending in key/token/secret/password/passwd/
    headers/credential/jwt/sessid/sessionid, or one of auth/authorization/cookie/session/
    sid/sig(nature)/pwd, marks a secret. ``keyword``, ``q`` or ``max_results`` do not.
    """
    name = str(name)
    return _secret_name(name) if len(name) <= REMEMBERED_NAME_LEN else _judge_name(name)


@functools.lru_cache(maxsize=4096)
def _secret_name(name: str) -> bool:
    """:func:`is_secret_name` of a short name, remembered: every request asks it of the same few
    setting, header and field names (a dozen times a search, 6 us each, a regex split every time)."""
    return _judge_name(name)


def name_words(name: str) -> list[str]:
    """``name``'s words, lower case: ``X-Subscription-Token`` -> x, subscription, token;
    ``apiKey`` -> api, key; ``brave_api_key`` -> brave, api, key."""
    return [w for w in _NON_WORD.split(_CAMEL.sub(r"\1 \2", name).lower()) if w]


def _judge_name(name: str) -> bool:
    """The verdict of :func:`is_secret_name`, worked out afresh."""
    words = name_words(name)
    return any(_secret_word(w) or (w.endswith("s") and _secret_word(w[:-1])) for w in words)


def _secret_word(word: str) -> bool:
    return word in _SECRET_WORDS or word.endswith(_SECRET_ENDINGS)


def redact(text: str, secrets: Iterable[Optional[str]]) -> str:
    """Replace every occurrence of each secret in ``text`` by ``***`` (longest first)."""
    pattern = _secrets_pattern(tuple(secrets))
    return text if pattern is None else pattern.sub("***", text)


def redacted_value(value: Any, secrets: Iterable[Optional[str]], max_depth: int) -> Any:
    """``value`` (JSON-like: dicts, lists, tuples) with ``secrets`` redacted from its texts, dict
    keys included, down to ``max_depth`` levels of containers (what lies deeper is returned as it
    is: the caller bounds the value's nesting, or redacts its serialisation too)."""
    listed = [secret for secret in secrets if secret]
    return _redacted(value, listed, max_depth) if listed else value


def _redacted(value: Any, secrets: list[str], depth_left: int) -> Any:
    if isinstance(value, str):
        return redact(value, secrets)
    if depth_left <= 0:
        return value
    if isinstance(value, dict):
        return {
            redact(key, secrets) if isinstance(key, str) else key: _redacted(part, secrets, depth_left - 1)
            for key, part in value.items()
        }
    if isinstance(value, list):
        return [_redacted(part, secrets, depth_left - 1) for part in value]
    if isinstance(value, tuple):
        return tuple(_redacted(part, secrets, depth_left - 1) for part in value)
    return value


@functools.lru_cache(maxsize=64)
def _secrets_pattern(secrets: tuple[Optional[str], ...]) -> Optional["re.Pattern[str]"]:
    """One pattern for any of ``secrets`` (the longest first; those too short to redact left out),
    remembered: a search redacts every text field of every item with the same few secrets, and
    building the pattern for each cost 10 us a field (0.6 ms a search of 20 items). ``re`` keeps
    the compiled pattern, secrets included, in its own cache either way."""
    usable = sorted({s for s in secrets if s and len(s) >= MIN_SECRET_LEN}, key=len, reverse=True)
    if not usable:
        return None
    return re.compile("|".join(re.escape(s) for s in usable))


def userinfo_hidden(text: str) -> str:
    """``text`` with all from its first ``://`` to its last ``@`` as ``***`` (``https://u:pw@host`` ->
    ``https://***@host``), else as it is: for a message quoting what someone typed where a name belongs,
    and an unknown argument of the command line. Hides more than a URL's user info rather than less: a
    password holding an ``@``, a space or any length, two URLs in one text (all between them too)."""
    scheme, separator, rest = text.partition("://")
    if not separator or "@" not in rest:
        return text
    return "%s://***@%s" % (scheme, rest.rsplit("@", 1)[1])


def mask(value: Any) -> str:
    """How a secret setting is shown: ``***`` when set, ``<unset>`` when not."""
    return "<unset>" if not value else "***"
