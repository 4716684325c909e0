"""Recording live answers: one search through the normal request path, captured
at the wire and written as a fixture case.

:class:`Recorder` wraps each wire of an ordinary :class:`~websearch_sync.SearchClient`
in a :class:`RecordingWire`, which tees every exchange (the request exactly as the wire
sent it, after the browser wire's request building for a browser request; the status,
the headers and the body as the transport read it, decompressed). A browser request is
written to the case without the headers the browser profile decides
(:func:`~websearch_sync.net.wire.browser_owned`, Chrome's form-post ``Cache-Control``),
which the two wire kinds send differently, so a case recorded with or without the
``browser`` extra is the same file and replays on both. Settings, endpoints,
keys, the wire kinds, the deadline and the byte cap all apply as in production.

:func:`record_case` writes ``<backend>/<case>.<html|json|txt|bin>``, ``<case>.meta.json``
and the golden ``<case>.expected.json`` (from replaying the written case offline).
Secrets never reach a written file: cookies are dropped, headers and request
fields named like credentials are stored as ``<redacted>`` (which matches any value
when replaying), and every secret value the settings hold or a request sent under a
credential's name is replaced wherever it appears (URL, headers, fields, body); a sent one under
:data:`LONG_SECRET_LEN` characters only where it stands whole and, when it reads as no word, as a
whole token in prose.
"""

import codecs
import datetime
import email.parser
import email.policy
import email.utils
import functools
import hashlib
import html.entities
import ipaddress
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional
from urllib.parse import parse_qsl, quote, quote_plus, urlsplit, urlunsplit

from requests.structures import CaseInsensitiveDict

from ..backends.searxng_config import fresh_configs
from ..client.search_client import SearchClient
from ..config import VERSION as __version__
from ..config import Settings
from ..engine import registry
from ..errors import BAD_ARGUMENTS, BAD_CASE_NAME, CASE_EXISTS, InvalidInput, WebSearchError
from ..models import StrPath
from ..net import decoding
from ..net.deadline import Deadline
from ..net.transport import DEFAULT_USER_AGENT, HttpResponse
from ..net.wire import FORM_POST_CACHE_CONTROL, BodySink, BrowserRequests, Wire, WireRequest, browser_owned
from ..secrets import is_secret_name
from .cases import (
    Case,
    CaseResult,
    compare,
    load_case,
    misplaced_folder,
    outcome_of,
    run_case,
    unportable_name,
    write_case_file,
    write_golden,
)
from .replay import PLACEHOLDER, query_params

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

RECORDED_BY = "websearch-sync record"

#: Request headers that say nothing about the backend (transport and requests defaults).
_TRANSPORT_HEADERS = {"accept-encoding": "gzip, deflate", "accept": "*/*", "connection": "keep-alive"}
_ALWAYS_DROPPED_REQUEST = ("content-length", "host")
#: Cookie headers, never written (noted as dropped): a request's and a response's, RFC 6265's and RFC 2965's.
_COOKIE_REQUEST = ("cookie", "cookie2")
_COOKIE_RESPONSE = ("set-cookie", "set-cookie2")
#: Response headers that describe the transfer, not the answer (the body is stored decoded).
_DROPPED_RESPONSE = (
    "content-encoding",
    "transfer-encoding",
    "content-length",
    "connection",
    "keep-alive",
)
_CASE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
#: A value sent under a credential's name (not a setting: those are replaced everywhere) shorter than this is short: not
#: searched for inside other text, only where it stands whole (:class:`Redactor`'s ``whole``) and, when
#: it reads as no word (:func:`_reads_as_word`), as a whole token in prose: ``key=ab12`` would turn every
#: ``ab12`` inside a page's words and hashes into a placeholder, ``pw=admin`` every ``administrator``.
LONG_SECRET_LEN = 8
#: A secret shorter than this is not searched for at all (a setting's field is still redacted by its name).
SHORT_SECRET_LEN = 4
#: Values sent under a credential's name that are no secret (``auth=true``), in any letter case.
_NO_SECRET = frozenset(["true", "false", "null", "none"])
#: A short secret as a URL's field value (``?t=ab12&``, ``;t=ab12"``): the field's opening (its
#: separator and name, kept) and the secret, up to what ends a value. Each separator starts at most
#: one scan of a name, which stops at the next separator: linear in the text.
_IN_URL_FIELD = r"([?&;][^=&#?;\s\"'<>]*=)(?:%s)(?=[&#;\"'\s<>\\)]|$)"
#: The same behind an escaped separator: JSON's ``\u0026`` (Go's encoder escapes every ``&``), or a URL
#: inside a URL's field (``%3Fpw%3Dab12x%26``); its name at most 64 characters, none of them an escape's.
_IN_ESCAPED_URL_FIELD = r"((?:\\u0026|%%26|%%3[Ff])[^=&#?;\s\"'<>%%\\]{0,64}(?:=|%%3[Dd]))(?:%s)(?=[&#;\"'\s<>\\)%%]|$)"
#: A short secret as a URL's whole path segment (``/v1/ab12x/search``, ``/v1/ab12x?q=1``, ``/v1/ab12x"``):
#: after a ``/`` (as it is, percent-encoded or JSON-escaped: kept), up to what ends a segment.
_IN_URL_PATH = r"(/|%%2[Ff]|\\/)(?:%s)(?=[/?#;&%%\"'\s<>\\)]|$)"
#: A short secret that reads as no word, as a whole token in prose (``the ab12x key``): not before a
#: letter or a digit, nor after one (:data:`_TOKEN_LEFT_EDGE`). The pattern starts with the secret's
#: spellings, each beginning with a literal, so ``re`` skips the positions where none begins; its left edge
#: is checked where one is found (:class:`_TokenPattern`): a pattern starting with the lookbehinds is
#: tried at every position of the text (a 1.9 MB page: 0.19 s, against 0.02 s: bench/redaction.py).
_AS_TOKEN = r"(?:%s)(?![^\W_])"
#: A token's left edge: not after a letter or a digit (but one ending an escape before it: ``%2F``,
#: ``%252F``, ``\u002f``, JSON's ``\n``), matched where the token starts (its lookbehinds see the text before).
_TOKEN_LEFT_EDGE = re.compile(
    r"(?:(?<![^\W_])|(?<=%[0-9A-Fa-f]{2})|(?<=%25[0-9A-Fa-f]{2})|(?<=\\u[0-9A-Fa-f]{4})|(?<=\\[bfnrt]))"
)
#: A short secret as a whole JSON string (``"ab12"``; not a string's escaped quote, ``\"ab12\"``). Its
#: quote first, the lookbehind after it, so ``re`` skips to each quote (a lookbehind first: every position).
_AS_JSON_STRING = r'"(?<!\\")(?:%s)"'
#: The encodings besides UTF-8 a secret is looked for in a body (a recorded body is written as it came):
#: JSON's other encodings (RFC 8259, 8.1; ``json.detect_encoding`` reads each, by its BOM or its zero bytes).
_WIDE_ENCODINGS = ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
#: Their byte order marks (UTF-32's first: UTF-16 LE's is its start).
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
#: A compressed body (a ``.gz`` served as ``application/gzip``) is searched decompressed up to this size.
MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024
#: A ``multipart/form-data`` request body is read for credential-named parts up to this size (a larger
#: one is an upload, not parsed: its parts are not looked for in the answer).
MAX_MULTIPART_BYTES = 1024 * 1024
#: A credential-named multipart part's value longer than this (a file) is not looked for in the answer.
MAX_MULTIPART_SECRET_LEN = 4096
#: A credential header's value as it may be kept: the placeholder, after an auth scheme (an HTTP token) or alone.
#: Anchored at the start: searched (the regex audit's ``findall``), it is tried once, not from every
#: character of a long token run (quadratic); ``fullmatch`` reads it the same.
_SCHEMED_PLACEHOLDER = re.compile(r"\A(?:[!#$%%&'*+.^_`|~0-9A-Za-z-]+ )?%s\Z" % re.escape(PLACEHOLDER))


def _html_named() -> dict[str, list[str]]:
    """HTML's named references of each ASCII character that has one (HTML5's ``&sol;``, ``&plus;``,
    ``&amp;``...) as patterns after the ``&``, as ``html.unescape`` reads them: a name HTML also
    knows without its ``;`` (``&amp``) may leave it out."""
    named: dict[str, list[str]] = {}
    for name, char in sorted(html.entities.html5.items()):
        if len(char) == 1 and ord(char) < 128 and name.endswith(";"):
            bare = name[:-1]
            named.setdefault(char, []).append(bare + ("(?:;|(?!;))" if bare in html.entities.html5 else ";"))
    return named


_HTML_NAMED = _html_named()
#: The ``&`` opening an HTML character reference, as it is or escaped once more: by HTML (``&amp;#47;``,
#: a page escaping twice) or by JSON (``\u0026#47;``, Go's encoder escaping ``&`` in markup it holds).
_AMPERSANDS = ("&", "&amp;", r"\\u0026")
#: The ``%`` opening a percent escape, as it is or escaped once more: encoded twice (``%252F``), an HTML
#: character reference (``&#37;2F``, ``&#x25;2F``) or JSON-escaped (``\u00252F``).
_PERCENTS = ("%", "%25", "&#0*37;", "&#[xX]0*25;", r"\\u0025")
_PERCENT = "(?:%s)" % "|".join(_PERCENTS)
#: A short secret as an HTML attribute's whole value: quoted (``value="ab12x"``, ``value='ab12x'``) or
#: not (``value=ab12x>``, up to what ends an unquoted value); its quotes JSON-escaped too, in markup a JSON
#: string holds (``value=\"ab12x\"``). The ``=`` and the spaces after it are kept.
_AS_ATTRIBUTE = r"(=[ \t\n\r\f]{0,16})(?:(\\?[\"'])(?:%s)\2|(?:%s)(?=[ \t\n\r\f>]|$))"


# -- capturing -------------------------------------------------------------------------------------


@dataclass
class Exchange:
    """One request sent and the response read, as the wire sent and read them."""

    request: WireRequest
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    url: str = ""
    body: bytearray = field(default_factory=bytearray)
    complete: bool = False  #: the body was read to its end

    def http_response(self) -> HttpResponse:
        """The exchange as the :class:`~websearch_sync.net.transport.HttpResponse` a backend parses."""
        return HttpResponse(
            status=self.status, headers=CaseInsensitiveDict(self.headers), content=bytes(self.body), url=self.url
        )


class _TeeSink:
    """A :class:`~websearch_sync.net.wire.BodySink` that keeps a copy of what passes into the real one."""

    def __init__(self, sink: BodySink, exchange: Exchange) -> None:
        self.sink, self.exchange = sink, exchange
        self.stopped = False

    def head(self, status: int, headers: Mapping[str, str], url: str, framed: bool = False) -> bool:
        """Keep the status line and headers, then hand them on."""
        self.exchange.status, self.exchange.headers, self.exchange.url = status, dict(headers), url
        wanted = self.sink.head(status, headers, url, framed)
        self.stopped = not wanted
        return wanted

    def data(self, chunk: bytes) -> bool:
        """Keep a chunk, then hand it on."""
        self.exchange.body.extend(chunk)
        wanted = self.sink.data(chunk)
        self.stopped = not wanted
        return wanted


class RecordingWire:
    """A :class:`~websearch_sync.net.wire.Wire` that sends over ``next_wire`` and keeps every
    exchange in ``into``: the request exactly as handed to ``next_wire`` and the answer as read
    (decoded). Under the browser wire's request building it records what the browser sent."""

    def __init__(self, next_wire: Wire, into: list[Exchange]) -> None:
        self.next_wire, self.exchanges = next_wire, into
        self.name, self.profile = next_wire.name, next_wire.profile
        self.decoders, self.bypasses_requests = next_wire.decoders, next_wire.bypasses_requests

    def exchange(self, request: WireRequest, sink: BodySink, *, deadline: Deadline, provider: Optional[str]) -> None:
        """Send ``request`` over the next wire, keeping a copy of the exchange."""
        exchange = Exchange(request=request)
        tee = _TeeSink(sink, exchange)
        self.next_wire.exchange(request, tee, deadline=deadline, provider=provider)
        if exchange.status:
            exchange.complete = not tee.stopped
            self.exchanges.append(exchange)

    def close(self) -> None:
        """Close the next wire."""
        self.next_wire.close()


class Recorder:
    """Keeps every exchange of a client's requests in :attr:`exchanges`.

    Pass :meth:`wrap` as a :class:`~websearch_sync.SearchClient`'s ``wire``: each wire the
    client builds is wrapped in a :class:`RecordingWire` (a browser wire below its request
    building, so the request recorded is the one the browser wire sent).

    As a context manager it also starts from no instance's ``/config`` known
    (:func:`~websearch_sync.backends.searxng_config.fresh_configs`): what a search learnt of the
    instance before (another case recorded in the same process) would leave the ``/config``
    exchange its answer relied on out of the recording, and its replay (which starts from none
    known) would send it.
    """

    def __init__(self) -> None:
        self.exchanges: list[Exchange] = []
        self._fresh: Optional[AbstractContextManager[None]] = None

    def wrap(self, wire: Wire) -> Wire:
        """``wire`` with its exchanges recorded."""
        recording = RecordingWire(wire, self.exchanges)
        return BrowserRequests(recording, wire.profile) if wire.profile else recording

    def reset(self) -> None:
        """Forget the exchanges captured so far."""
        self.exchanges.clear()

    def close(self) -> None:
        """Nothing to release (the client closes its wires)."""

    def __enter__(self) -> "Recorder":
        self._fresh = fresh_configs()
        self._fresh.__enter__()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if self._fresh is not None:
            self._fresh.__exit__(*exc_info)
            self._fresh = None
        self.close()


# -- redacting ------------------------------------------------------------------------------------


class Redactor:
    """Removes secrets from what is about to be written; :attr:`notes` says what it removed.

    ``secrets`` are values replaced by ``<redacted>`` wherever they appear, in any spelling of
    :func:`_spelt`; names
    matching :func:`~websearch_sync.secrets.is_secret_name` have their whole value replaced (or, for
    cookies, are dropped). ``whole`` are secrets too short to be replaced wherever they appear
    (``ab12`` inside a page's prose is no echo of the key, and replacing it would corrupt the
    recording): each is replaced only where it stands whole, as a field's or header's whole value
    (``Bearer ab12`` keeps its scheme), a URL's field value (``?t=ab12&``) or path segment
    (``/v1/ab12/search``), an HTML attribute's whole value (``value="ab12"``) and, in a JSON body,
    a whole string; one that reads as no word (:func:`_reads_as_word`) also as a whole token in
    prose (``the ab12 key``, not ``xab12y``). Fields named in ``volatile`` (a backend's
    :attr:`~websearch_sync.engine.base.Backend.volatile_params`: their value depends on
    the moment, e.g. a time limit taken from the deadline) are written as the placeholder
    too, so that a replay accepts any value there.
    """

    def __init__(self, secrets: Sequence[str], volatile: Sequence[str] = (), whole: Sequence[str] = ()) -> None:
        self._volatile = frozenset(volatile)
        usable = _longest_first(secrets)
        #: Each secret in every spelling of :func:`_spelt` (text, and a body read as UTF-8).
        self._pattern = _compiled(_spelt_any(usable)) if usable else None
        short = [s for s in _longest_first(whole) if s not in usable]
        spelt = "|".join(_spelt(s) for s in short)
        #: A short secret as a whole value (``fullmatch``), as a URL's field value, as a JSON string.
        self._whole = _compiled(spelt) if short else None
        self._in_json = _compiled(_AS_JSON_STRING % spelt) if short else None
        #: Where a short secret stands whole in any text, or as a token: each pattern with its replacement.
        self._standing_forms = _short_forms(short, spelt)
        #: Each secret as a UTF-16 or UTF-32 body (a JSON answer with a BOM) may spell it, as it is
        #: and URL-encoded (a short one: as a whole JSON string), with the placeholder in the same encoding.
        self._wide = _WideForms(
            [
                (form, PLACEHOLDER)
                for secret in usable
                for form in (secret, quote(secret, safe=""), quote(secret), quote_plus(secret))
            ]
        )
        self._wide_json = _WideForms([('"%s"' % secret, '"%s"' % PLACEHOLDER) for secret in short])
        self.notes: list[str] = []

    def note(self, text: str) -> None:
        """Remember that something was removed at ``text`` (once)."""
        if text not in self.notes:
            self.notes.append(text)

    def text(self, value: str, where: str, json_text: bool = False) -> str:
        """``value`` with every known secret replaced (a short one where it stands whole: a URL's
        field value or path segment, an HTML attribute's value, and a whole string when ``value``
        is JSON text)."""
        cleaned = self._replaced(value, json_text)
        if cleaned != value:
            self.note(where)
        return cleaned

    def _replaced(self, value: str, json_text: bool = False) -> str:
        cleaned = value
        if self._pattern is not None:
            cleaned = self._pattern.sub(PLACEHOLDER, cleaned)
        for pattern, replacement in self._standing_forms:
            cleaned = pattern.sub(replacement, cleaned)
        if json_text and self._in_json is not None:
            cleaned = self._in_json.sub('"%s"' % PLACEHOLDER, cleaned)
        return cleaned

    def outcome(self, value: Any) -> Any:
        """A live answer's outcome (:func:`~.cases.outcome_of`) with every known secret replaced in
        its text, a short one standing whole too, as the replay of the redacted case gives it (no note:
        it is not written)."""
        return self._cleaned("", value, None)

    @property
    def searching(self) -> bool:
        """Whether it knows a secret to look for in a body."""
        return self._pattern is not None or self._whole is not None

    def standing(self, value: str) -> bool:
        """Whether ``value`` is, whole, a short secret (in a spelling of :func:`_spelt`)."""
        return self._whole is not None and self._whole.fullmatch(value) is not None

    def body(self, data: bytes, where: str, json_body: bool = False) -> bytes:
        """A body with every known secret replaced (a short one as :meth:`text` finds it, a
        ``json_body`` being JSON text). A UTF-16 or UTF-32 body (:func:`_wide_text`) is read in its
        encoding and written back in it; any other is read as UTF-8 with its other bytes kept as they
        are (``surrogateescape``), so the bytes around a secret are written unchanged."""
        if not self.searching:
            return data
        wide_text = _wide_text(data)
        if wide_text is not None:
            bom, encoding, text = wide_text
            cleaned = self.text(text, where, json_text=json_body)
            return data if cleaned == text else bom + cleaned.encode(encoding)
        text = data.decode("utf-8", "surrogateescape")
        cleaned = self.text(text, where, json_text=json_body)
        if cleaned != text:
            data = cleaned.encode("utf-8", "surrogateescape")
        for wide in (self._wide, self._wide_json) if json_body else (self._wide,):
            replaced = wide.sub(data)
            if replaced != data:
                self.note(where)
                data = replaced
        return data

    def url(self, value: str, where: str) -> str:
        """A URL with its userinfo replaced by ``redacted:redacted`` (still a valid URL, so a
        replay sends the same shape of request) and every known secret replaced."""
        parts = urlsplit(value)
        if "@" in parts.netloc:
            userinfo, _, host = parts.netloc.rpartition("@")
            self.note(where)
            value = urlunsplit(
                (
                    parts.scheme,
                    ("redacted:redacted" if ":" in userinfo else "redacted") + "@" + host,
                    parts.path,
                    parts.query,
                    parts.fragment,
                )
            )
        return self.text(value, where)

    def value(self, name: str, value: Any, where: str) -> Any:
        """A field value: wholly redacted when ``name`` is a credential, else secrets replaced inside."""
        return self._cleaned(name, value, where)

    def _cleaned(self, name: str, value: Any, where: Optional[str]) -> Any:
        """``value`` (the field ``name``'s) with every known secret replaced, a short one standing whole
        too, in lists and dicts all the way down (a dict's keys name its fields): :meth:`value`, written at
        ``where``, each removal noted there, and a credential's field (:func:`is_secret_name`) or a volatile
        one the placeholder whole; :meth:`outcome` (``where`` ``None``), not written: nothing noted, and
        no field judged by its name (an outcome's are the library's own, not the request's)."""
        if where is not None:
            if is_secret_name(name) and value not in (None, ""):
                self.note(where)
                return _placeholders(value)
            if name in self._volatile and value not in (None, ""):
                return PLACEHOLDER
        if isinstance(value, str):
            if not self.standing(value):
                return self._replaced(value) if where is None else self.text(value, where)
            if where is not None:
                self.note(where)
            return PLACEHOLDER
        if isinstance(value, list):
            return [self._cleaned(name, v, where) for v in value]
        if isinstance(value, dict):
            return {k: self._cleaned(k, v, None if where is None else "%s.%s" % (where, k)) for k, v in value.items()}
        return value

    def header(self, name: str, value: str, where: str) -> str:
        """A header value: secrets replaced inside, a short one standing whole after its scheme
        (``Bearer <redacted>``) or as the whole value; a credential header is wholly redacted
        unless it is then its scheme and the placeholder (nothing replaced, or more than the
        credential after a scheme left: ``key=<secret>; sig=<redacted>``)."""
        scheme, space, credential = value.strip().rpartition(" ")
        if self.standing(credential) and (not space or " " not in scheme):
            self.note(where)
            cleaned = scheme + space + PLACEHOLDER
        else:
            cleaned = self.text(value, where)
        if is_secret_name(name) and not _SCHEMED_PLACEHOLDER.fullmatch(cleaned):
            self.note(where)
            return PLACEHOLDER
        return cleaned


def _short_forms(short: Sequence[str], spelt: str) -> list[tuple[Any, Any]]:
    """The patterns finding ``short`` secrets (``spelt``: their :func:`_spelt` spellings, one
    alternation) in any text, each with its replacement: where one stands whole (a URL's field value
    or path segment, an HTML attribute's value) and, for one reading as no word
    (:func:`_reads_as_word`), as a whole token (prose too)."""
    if not short:
        return []
    forms: list[tuple[Any, Any]] = [
        (_compiled(_IN_URL_FIELD % spelt), _after_opening),
        (_compiled(_IN_ESCAPED_URL_FIELD % spelt), _after_opening),
        (_compiled(_AS_ATTRIBUTE % (spelt, spelt)), _attribute_placeholder),
        (_compiled(_IN_URL_PATH % spelt), _after_opening),
    ]
    tokens = [s for s in short if not _reads_as_word(s)]
    if tokens:
        forms.insert(0, (_TokenPattern(_spelt_any(tokens)), PLACEHOLDER))
    return forms


class _TokenPattern:
    """:data:`_AS_TOKEN` of the spellings ``spelt``, whose left edge (:data:`_TOKEN_LEFT_EDGE`) is
    checked where a spelling is found: ``sub`` replaces what ``re.sub`` would with the lookbehinds
    leading the pattern (a spelling found after a letter is no token, and the search goes on from its
    next character, so one starting inside it is still found)."""

    def __init__(self, spelt: str) -> None:
        self._found = _compiled(_AS_TOKEN % spelt)

    def sub(self, replacement: str, text: str) -> str:
        """``text`` with each whole token replaced by ``replacement``."""
        pieces: list[str] = []
        kept = position = 0
        found = self._found.search(text)
        while found is not None:
            start, end = found.span()
            if _TOKEN_LEFT_EDGE.match(text, start) is None:
                position = start + 1
            else:
                pieces += [text[kept:start], replacement]
                kept = position = end
            found = self._found.search(text, position)
        return "".join(pieces) + text[kept:] if pieces else text


def _wide_text(data: bytes) -> Optional[tuple[bytes, str, str]]:
    """A body's BOM, encoding and text when it is UTF-16 or UTF-32 text (by its BOM, or its zero
    bytes as ``json.detect_encoding`` reads them); ``None`` for any other body, or one that does not
    decode in that encoding (its wide forms are still looked for: :class:`_WideForms`)."""
    bom, encoding = next(((b, e) for b, e in _WIDE_BOMS if data.startswith(b)), (b"", json.detect_encoding(data[:4])))
    if encoding not in _WIDE_ENCODINGS:
        return None
    try:
        return bom, encoding, data[len(bom) :].decode(encoding)
    except UnicodeDecodeError:
        return None


def _after_opening(found: "re.Match[str]") -> str:
    """A short secret found after its opening (a URL field's ``?t=``, a path's ``/``), as the placeholder."""
    return found.group(1) + PLACEHOLDER


def _attribute_placeholder(found: "re.Match[str]") -> str:
    """An attribute's value found by :data:`_AS_ATTRIBUTE` as the placeholder, in its quotes."""
    quote_mark = found.group(2) or ""
    return found.group(1) + quote_mark + PLACEHOLDER + quote_mark


class _WideForms:
    """Texts replaced in a body in each of :data:`_WIDE_ENCODINGS`: ``(form, replacement)`` pairs."""

    def __init__(self, forms: Sequence[tuple[str, str]]) -> None:
        self._encoded = {
            form.encode(encoding): replacement.encode(encoding)
            for form, replacement in forms
            for encoding in _WIDE_ENCODINGS
        }
        ordered = sorted(self._encoded, key=len, reverse=True)
        self._pattern = re.compile(b"|".join(re.escape(e) for e in ordered)) if ordered else None

    def sub(self, data: bytes) -> bytes:
        """``data`` with each form replaced."""
        if self._pattern is None:
            return data
        return self._pattern.sub(lambda found: self._encoded[found.group()], data)


def _spelt(secret: str) -> str:
    """A regular expression matching ``secret`` in the spellings an upstream echoing it may use,
    each character in any of them: as it is; percent-encoded (its UTF-8 bytes, either case of hex
    digit, so ``quote`` with any ``safe``, ``quote_plus``'s ``+`` for a space, and lowercase
    escapes all match), or twice (``%252F``, ``&#37;2F``, ``\\u00252F``); JSON-escaped (``\\/``, ``\\u002b``, ``\\"``);
    an HTML character reference (``&#43;``, ``&#x2B;``, ``&amp;``, ``&sol;``; a numeric one
    without its ``;`` where what follows cannot extend its number, ``&#47e``; its ``&`` escaped
    again, ``&amp;#47;``, ``\\u0026#47;``). One choice per
    character among bounded texts (but a reference's leading zeros), so a search takes time
    linear in the text for a given secret (``test_record_redaction_limits`` times it)."""
    return "".join(_char_spellings(char) for char in secret)


def _spelt_any(secrets: Sequence[str]) -> str:
    """A regular expression matching any of ``secrets`` as :func:`_spelt` does, tried in their order:
    the same matches as one alternation of every spelling of a secret's first character followed by
    the rest of it (``a T|%61 T|...``), but each rest spelt once (that alternation spelt it again for
    each of its first character's 13 or more spellings: nine keys of 23-31 characters made a pattern
    of 779 KB, 3 s of CPU to compile; now 37 KB, 0.1 s). It opens with a set of the characters a
    spelling can begin with (each begins with a literal: :func:`_char_forms`), which ``re`` skips to
    as it did to an alternation of choices each beginning with a literal (an alternation of groups it
    tries whole at each position: 4x slower, and a lookahead for the set 1.7x); each choice of a first
    character then checks that character behind it (``[%a](?:(?<=a)|(?<=%)(?:61|2561))T``)."""
    leads = {_literal(_atoms(form)[0]) for secret in secrets for form in _compact_forms(secret[0])}
    firsts = sorted(char for char in leads if char is not None)
    if len(firsts) < len(leads):  # a spelling not beginning with a literal: no set of first characters
        return "|".join(_spelt(secret) for secret in secrets)
    choices = [
        _group(_branches([_atoms(form) for form in _compact_forms(secret[0])], _behind)) + _spelt(secret[1:])
        for secret in secrets
    ]
    return "[%s](?:%s)" % ("".join(re.escape(char) for char in firsts), "|".join(choices))


def _behind(char: str) -> str:
    """A lookbehind for ``char`` (the character a choice of :func:`_spelt_any` begins with, read)."""
    return "(?<=%s)" % re.escape(char)


def _group(branches: Sequence[str]) -> str:
    """``branches`` as one group (one branch as it is)."""
    return branches[0] if len(branches) == 1 else "(?:%s)" % "|".join(branches)


def _atoms(form: str) -> tuple[str, ...]:
    """``form`` (a spelling of :func:`_char_forms`) split into its atoms: a character (escaped or
    not), a set, a group; each with the quantifier after it. A loop, not a pattern: it reads only
    our own spellings."""
    atoms: list[str] = []
    position = 0
    while position < len(form):
        end = position + (2 if form[position] == "\\" else 1)
        if form[position] == "[":
            end = form.index("]", position + 2) + 1
        elif form[position] == "(":
            end = _group_end(form, position)
        if end < len(form) and form[end] in "*+?":
            end += 1
        atoms.append(form[position:end])
        position = end
    return tuple(atoms)


def _group_end(form: str, start: int) -> int:
    """The index after the ``)`` closing the group opening at ``start`` of ``form`` (no set in it
    holds a parenthesis)."""
    depth, position = 0, start
    while True:
        char = form[position]
        position += 2 if char == "\\" else 1
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return position


def _literal(atom: str) -> Optional[str]:
    """The character ``atom`` (of :func:`_atoms`) matches, when it matches one character only, once."""
    if len(atom) == 1 and atom not in ".^$|()[]{}*+?\\":
        return atom
    if len(atom) == 2 and atom[0] == "\\" and not atom[1].isalnum():
        return atom[1]
    return None


def _branches(spellings: Sequence[tuple[str, ...]], lead: Callable[[str], str] = re.escape) -> list[str]:
    """The alternation of ``spellings`` (atoms, tried in their order) as branches matching what it
    matches, in the same order, with their common leading characters written once: ``%61|%2561`` as
    ``%(?:61|2561)``. Branches beginning with different characters cannot both match at one place,
    so each run of branches beginning with a character is grouped by that character (in the order
    each first comes); a branch not beginning with one (``0*37``, or an empty one) ends the run.
    ``lead`` writes the character each group begins with (:func:`_spelt_any`'s lookbehind)."""
    branches: list[str] = []
    index = 0
    while index < len(spellings):
        runs: dict[str, list[tuple[str, ...]]] = {}
        while index < len(spellings) and spellings[index] and _literal(spellings[index][0]) is not None:
            runs.setdefault(_literal(spellings[index][0]) or "", []).append(spellings[index][1:])
            index += 1
        for char, rests in runs.items():
            branches.append(lead(char) + _group(_branches(rests)))
        if not runs:
            branches.append("".join(spellings[index]))
            index += 1
    return branches


@functools.lru_cache(maxsize=1024)
def _char_spellings(char: str) -> str:
    """The spellings of :func:`_char_forms` of ``char`` as one group, tried in the same order: its
    escapes (:func:`_char_escapes`) with their common leading characters written once
    (:func:`_branches`), then its HTML references once, after any of :data:`_AMPERSANDS`
    (``(?:&(?:|amp;)|\\u0026)R``: the same choices in the same order). 245 characters for ``a``, 15
    choices, as 143. Not for a secret's first character, whose choices must begin with a literal
    (:func:`_compact_forms`)."""
    escapes = _branches([_atoms(form) for form in _char_escapes(char)])
    return "(?:%s)" % "|".join(escapes + [r"(?:&(?:|amp;)|\\u0026)" + _references(char)])


@functools.lru_cache(maxsize=1024)
def _char_forms(char: str) -> tuple[str, ...]:
    """Regular expressions of ``char``'s spellings (:func:`_spelt`), each beginning with a literal:
    :func:`_char_escapes`, then each HTML reference of :func:`_char_references` after each of
    :data:`_AMPERSANDS` (remembered: a recording spells every secret's characters again for each of
    its redactors, and spelling one took 45 us, 12 ms a redactor of a few keys)."""
    return _char_escapes(char) + tuple(ampersand + ref for ampersand in _AMPERSANDS for ref in _char_references(char))


@functools.lru_cache(maxsize=1024)
def _compact_forms(char: str) -> tuple[str, ...]:
    """:func:`_char_forms` of ``char``, each beginning with a literal (a secret's first character: the
    set opening :func:`_spelt_any`), its HTML references written twice, not three times: after ``&``
    then ``&amp;`` (``&(?:|amp;)R``: the same choices in the same order), and after ``\\u0026``."""
    references = _references(char)
    return _char_escapes(char) + ("&(?:|amp;)" + references, r"\\u0026" + references)


def _references(char: str) -> str:
    """:func:`_char_references` of ``char`` as one group, their common leading characters written once."""
    return _group(_branches([_atoms(reference) for reference in _char_references(char)]))


def _char_escapes(char: str) -> tuple[str, ...]:
    """``char`` as it is, percent-encoded (or twice), JSON-escaped: its spellings not an HTML reference."""
    # each choice begins with a literal (the opening of an escape spelt out in each of its
    # spellings), so that ``re`` skips the positions where none can begin: twice as fast on a page
    utf8 = char.encode("utf-8", "surrogatepass")
    rest = "".join(_PERCENT + _hex(byte, 2) for byte in utf8[1:])
    forms = [re.escape(char)] + [percent + _hex(utf8[0], 2) + rest for percent in _PERCENTS]
    if char == " ":
        forms.append(r"\+")
    json_form = json.dumps(char)[1:-1]  # \" \\ \n, or \uXXXX (a surrogate pair beyond the BMP)
    units = char.encode("utf-16-be", "surrogatepass")
    forms.append("".join(r"\\u" + _hex(int.from_bytes(units[i : i + 2], "big"), 4) for i in range(0, len(units), 2)))
    if json_form != char and not json_form.startswith("\\u"):
        forms.append(re.escape(json_form))
    if char == "/":
        forms.append(r"\\/")
    return tuple(forms)


def _char_references(char: str) -> tuple[str, ...]:
    """``char``'s HTML character references after their ``&``: decimal, hexadecimal, named."""
    # a numeric reference's ';' may be left out where what follows cannot extend its number
    code = ord(char)
    numeric = ("#0*%d(?:;|(?![0-9;]))" % code, "#[xX]0*" + _hex(code, 1) + "(?:;|(?![0-9A-Fa-f;]))")
    return numeric + tuple(_HTML_NAMED.get(char, ()))


@functools.lru_cache(maxsize=64)
def _compiled(pattern: str) -> "re.Pattern[str]":
    """``pattern`` compiled, remembered: a redactor's patterns are long (a few keys in all their
    spellings: 0.1 s to compile) and the same for every recording of a session, where ``re``'s own
    cache, which drops its oldest of 512 patterns, has lost them to the parsers' by the next one."""
    return re.compile(pattern)


def _reads_as_word(secret: str) -> bool:
    """Whether a short secret reads as a word or a number a page may hold for itself: letters only,
    in one case or capitalised (``admin``, ``Secret``, ``HUNTER``), or digits only (``20245``). A
    mix (``ab12x``, ``aBcD``, ``k-9x``) reads as a token."""
    if secret.isdigit():
        return True
    return secret.isalpha() and (secret.islower() or secret.isupper() or secret.istitle())


def _longest_first(secrets: Sequence[str]) -> list[str]:
    """The usable ``secrets`` (at least :data:`SHORT_SECRET_LEN` characters), once each, longest
    first (an alternation tries them in order: a secret inside a longer one leaves none of it)."""
    # ties in their text's order, not the set's: the same secrets give the same pattern in every call
    return sorted({s for s in secrets if s and len(s) >= SHORT_SECRET_LEN}, key=lambda s: (-len(s), s))


def _hex(value: int, width: int) -> str:
    """``value`` in hexadecimal, each letter digit matching either case."""
    return "".join("[%s%s]" % (d, d.upper()) if d.isalpha() else d for d in "%0*x" % (width, value))


def _placeholders(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _placeholders(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_placeholders(v) for v in value]
    return PLACEHOLDER


def _json_object(value: Any) -> Any:
    """A JSON object's text read as its mapping (``WEB_SEARCH_SERVICE_HEADERS`` from the
    environment), so that its names stay beside their placeholders: the replay needs them (a
    lone placeholder is no JSON object, and the backend would refuse the setting), and they
    are no secret. Any other value as it is."""
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        return parsed if isinstance(parsed, dict) else value
    return value


def _url_secrets(url: Optional[str]) -> list[str]:
    """The password (and user:password) in a URL's userinfo, and the values of its query fields named
    like a credential (``?token=...``: an endpoint override's query is not even sent)."""
    if not url:
        return []
    query = url.partition("?")[2].partition("#")[0]
    found = [value for name, value in parse_qsl(query) if is_secret_name(name)]
    if "@" not in url.split("?", 1)[0]:
        return found
    userinfo = urlsplit(url).netloc.rpartition("@")[0]
    return found + [part for part in (userinfo, userinfo.partition(":")[2]) if part]


def _sent_secrets(exchanges: Sequence[Exchange]) -> list[str]:
    """The values the requests sent under a credential's name (a query or form field, a JSON key,
    a header: the credential after its scheme, ``Bearer <token>``; a cookie named like a credential) that no
    setting holds (the :class:`Redactor` looks for each in its other spellings). Their own fields are stored as the placeholder,
    but an upstream that echoes its request (an answer quoting the query, a redirect's
    ``Location`` carrying it on) would write them to the case beside it."""
    found: list[str] = []
    for exchange in exchanges:
        request = exchange.request
        found.extend(_named_secrets(_fields(urlsplit(request.url or "").query)))
        found.extend(_named_secrets(_sent_fields(request)))
        for name, value in request.headers:
            if name.lower() in _COOKIE_REQUEST:  # a preference cookie (``recent=rust programming``) is no secret
                cookies = (part.partition("=") for part in value.split(";"))
                found.extend(v.strip() for k, _, v in cookies if is_secret_name(k.strip()))
            elif is_secret_name(name):
                scheme, _, credential = value.strip().partition(" ")
                found.append(credential.strip() or scheme)
    return sorted({s for s in found if len(s) >= SHORT_SECRET_LEN and s.lower() not in _NO_SECRET})


def _sent_fields(request: WireRequest) -> Any:
    """A request's form fields (each one of them, a repeated name's too) or JSON body (``None`` for another body)."""
    text, content_type = _body_text(request)
    if not text:
        return None
    if "x-www-form-urlencoded" in content_type:
        return _fields(text)
    if content_type.startswith("multipart/form-data"):
        return _multipart_fields(request)
    if "json" in content_type:
        try:
            return json.loads(text)
        except ValueError:
            return None
    return None


def _multipart_fields(request: WireRequest) -> list[dict[str, str]]:
    """Each named part of a ``multipart/form-data`` body (at most :data:`MAX_MULTIPART_BYTES`) as
    ``{name: value}``, in order, read by the standard library's MIME parser under the request's own
    ``Content-Type`` (its boundary's letter case kept); a value over :data:`MAX_MULTIPART_SECRET_LEN`
    characters (a file) is left out. No part for a larger body, or one that does not split."""
    body = request.body if isinstance(request.body, bytes) else str(request.body or "").encode("utf-8")
    content_type = CaseInsensitiveDict(request.headers).get("Content-Type") or ""
    if len(body) > MAX_MULTIPART_BYTES or "\r" in content_type or "\n" in content_type:
        return []
    head = b"Content-Type: %s\r\n\r\n" % content_type.encode("utf-8", "replace")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    fields: list[dict[str, str]] = []
    for part in message.iter_parts() if message.is_multipart() else []:
        name = email.utils.collapse_rfc2231_value(part.get_param("name", header="content-disposition") or "")
        payload = part.get_payload(decode=True)
        if name and isinstance(payload, bytes) and len(payload) <= MAX_MULTIPART_SECRET_LEN:
            fields.append({name: payload.decode("utf-8", "replace")})
    return fields


def _fields(query: str) -> list[dict[str, str]]:
    """Each field of a query string or form as ``{name: value}``, in order: a name sent twice
    (``token=a&q=rust&token=b``) keeps each of its values, which a mapping of the fields would not."""
    return [{name: value} for name, value in parse_qsl(query, keep_blank_values=True)]


def _named_secrets(value: Any, secret: bool = False) -> list[str]:
    """The strings in ``value`` held under a credential's name (at any depth; ``secret``: this
    value's own name is one)."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _named_secrets(v, secret or is_secret_name(str(k)))]
    if isinstance(value, list):
        return [s for v in value for s in _named_secrets(v, secret)]
    return [value] if secret and isinstance(value, str) else []


def _secrets_of(settings: Settings) -> list[str]:
    found = list(settings.secrets())
    for url in list(settings.endpoints.values()) + [settings.proxy]:
        found.extend(_url_secrets(url))
    for sub in settings.providers.values():
        for value in sub.values():
            if isinstance(value, str):
                found.extend(_url_secrets(value))
    return found


# -- turning exchanges into a case ----------------------------------------------------------------


def _request_meta(prepared: WireRequest, user_agent: str, redactor: Redactor, where: str) -> dict[str, Any]:
    parts = urlsplit(prepared.url or "")
    url = redactor.url(urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")), where + ".url")
    meta: dict[str, Any] = {"method": (prepared.method or "GET").upper(), "url": url}
    meta["query_params"] = {
        k: redactor.value(k, v, "%s.query_params.%s" % (where, k)) for k, v in query_params(prepared.url or "").items()
    }
    meta.update(_request_body(prepared, redactor, where))
    headers = _request_headers(prepared, user_agent, redactor, where)
    if headers:
        meta["headers"] = headers
    return meta


def _profile_decides(request: WireRequest, name: str, value: str) -> bool:
    """Whether a browser wire decides header ``name`` of ``request`` itself (the profile's identity
    headers, Chrome's ``Cache-Control`` on a form post), so the requests wire sends it otherwise."""
    if browser_owned(name):
        return True
    return (name.lower(), value) == (FORM_POST_CACHE_CONTROL[0].lower(), FORM_POST_CACHE_CONTROL[1]) and (
        request.method.upper() == "POST"
    )


def _request_headers(prepared: WireRequest, user_agent: str, redactor: Redactor, where: str) -> dict[str, str]:
    """The headers the backend chose (not the transport's defaults, nor, for a browser request,
    those the browser profile decides: :func:`_profile_decides`), secrets redacted, cookies dropped."""
    headers: dict[str, str] = {}
    defaults = dict(_TRANSPORT_HEADERS, **{"user-agent": user_agent})
    for name, value in prepared.headers:
        lower = name.lower()
        if lower in _COOKIE_REQUEST:
            redactor.note("%s.headers.%s (dropped)" % (where, name))
            continue
        if (
            lower in _ALWAYS_DROPPED_REQUEST
            or defaults.get(lower) == value
            or (prepared.browser and _profile_decides(prepared, name, value))
        ):
            continue
        headers[name] = redactor.header(name, value, "%s.headers.%s" % (where, name))
    return headers


def _request_body(prepared: WireRequest, redactor: Redactor, where: str) -> dict[str, Any]:
    """``{"form": ...}`` or ``{"json": ...}`` for a body replay can match; nothing for other bodies."""
    text, content_type = _body_text(prepared)
    if not text:
        return {}
    if "x-www-form-urlencoded" in content_type:
        return {
            "form": {
                k: redactor.value(k, v, "%s.form.%s" % (where, k)) for k, v in parse_qsl(text, keep_blank_values=True)
            }
        }
    if "json" in content_type:
        try:
            document = json.loads(text)
        except ValueError:  # no JSON document (NDJSON's lines): a raw body
            pass
        else:
            return {"json": redactor.value("", document, where + ".json")}
    redactor.note("%s: a %s body (not stored, not matched on replay)" % (where, content_type or "raw"))
    return {}


def _body_text(request: WireRequest) -> tuple[str, str]:
    """A request's body as text (bytes read as UTF-8) and its content type in lower case;
    ``("", "")`` for a request without a body."""
    body = request.body
    if not body:
        return "", ""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body)
    return text, (CaseInsensitiveDict(request.headers).get("Content-Type") or "").lower()


def _suffix(content_type: str) -> str:
    media = content_type.split(";", 1)[0].strip().lower()
    if "json" in media:
        return ".json"
    if "html" in media or "xml" in media:
        return ".html"
    if media.startswith("text/"):
        return ".txt"
    return ".bin"


def _response_meta(exchange: Exchange, redactor: Redactor, where: str) -> tuple[dict[str, Any], bytes]:
    headers: dict[str, str] = {}
    for name, value in exchange.headers.items():
        lower = name.lower()
        if lower in _COOKIE_RESPONSE:
            redactor.note("%s.headers.%s (dropped)" % (where, name))
            continue
        if lower in _DROPPED_RESPONSE:
            continue
        headers[name] = (
            PLACEHOLDER if is_secret_name(name) else redactor.header(name, value, "%s.headers.%s" % (where, name))
        )
        if headers[name] == PLACEHOLDER:
            redactor.note("%s.headers.%s" % (where, name))
    content_type = CaseInsensitiveDict(exchange.headers).get("Content-Type") or ""
    body = bytes(exchange.body)
    unpacked = _compressed_body(body, content_type, redactor, where + ".body")
    if unpacked is not None:  # searched decompressed (and as it came, for what lies outside its content)
        return {"status": exchange.status, "headers": headers}, unpacked
    body = redactor.body(body, where + ".body", json_body=_suffix(content_type) == ".json")
    return {"status": exchange.status, "headers": headers}, body


def _compressed_body(data: bytes, content_type: str, redactor: Redactor, where: str) -> Optional[bytes]:
    """A body that is compressed content (gzip, zlib or zstd by its first bytes; brotli, which has
    none, only under a declared type, which is no text's; under a text type, only gzip and zstd, whose
    first bytes begin no UTF-8 text: a ``.json.gz`` served as JSON), searched decompressed (as a JSON
    body when it reads as JSON: :func:`_json_text`) and, when
    a secret was replaced, compressed again in its coding, so the case still replays what the
    backend read (as it is when a secret stood outside the content: a gzip header's file name, bytes
    after the stream's end); ``None`` for any other body (or with no secret to look for).

    Raises:
        WebProviderError: ``response_too_large``, for a body decompressing beyond
            :data:`MAX_DECOMPRESSED_BYTES`.
    """
    if not redactor.searching:
        return None
    binary = _suffix(content_type) == ".bin"
    declared = bool(content_type.split(";", 1)[0].strip())
    codings = decoding.sniffed_codings(data, brotli=binary and declared)
    for coding in codings if binary else [c for c in codings if c in ("gzip", "zstd")]:
        plain = decoding.decompressed(data, coding, MAX_DECOMPRESSED_BYTES, "the recorded body at " + where)
        if plain is not None:
            cleaned = redactor.body(plain, where, json_body=_json_text(plain))  # a JSON file: as a JSON body
            # a secret outside the content (a gzip header's file name, bytes after the stream's end,
            # which no decoder reads): the body is written again from its content (looked for only
            # when the content held none: else it is written again anyway)
            if cleaned == plain and redactor.body(data, where) == data:
                return data
            return decoding.compressed(cleaned, coding)
    return None


def _json_text(data: bytes) -> bool:
    """Whether decompressed content reads as JSON text: an object or an array, in UTF-8, UTF-16 or
    UTF-32 (``json.detect_encoding``), a BOM and spaces before it (its whole strings are then
    searched for a short secret, as a JSON answer's)."""
    head = data[:1024].decode(json.detect_encoding(data[:4]), "ignore").lstrip("\ufeff \t\r\n")
    return head[:1] in ("{", "[")


def case_name_for(query: str) -> str:
    """A file-name-safe case name derived from a query (``python-requests-timeout``)."""
    slug = re.sub(r"[^a-z0-9]+", "-", query.lower()).strip("-")[:48].strip("-")
    if slug and unportable_name(slug):  # the query "con": a name Windows keeps for a device
        return slug + "-case"
    if slug:
        return slug
    return "case-" + hashlib.sha1(query.encode("utf-8")).hexdigest()[:8]


def _settings_meta(backend: str, settings: Settings, redactor: Redactor) -> dict[str, Any]:
    """The settings a replay needs: this backend's endpoint and provider settings, secrets as placeholders."""
    meta: dict[str, Any] = {}
    if settings.endpoints.get(backend):
        meta["endpoints"] = {backend: redactor.url(settings.endpoints[backend], "settings.endpoints.%s" % backend)}
    provider = settings.provider(backend)
    if provider:
        cleaned = {}
        for key, value in provider.items():
            where = "settings.providers.%s.%s" % (backend, key)
            if is_secret_name(key):
                redactor.note(where)
                cleaned[key] = _placeholders(_json_object(value))
            elif isinstance(value, str) and "://" in value:
                cleaned[key] = redactor.url(value, where)
            else:
                cleaned[key] = redactor.value(key, value, where)
        meta["providers"] = {backend: cleaned}
    return meta


@dataclass
class RecordResult:
    """What :func:`record_case` did."""

    verdict: (
        CaseResult  #: the replay of the written case (``NEW`` became the golden; ``ERROR`` means it does not replay)
    )
    files: list[Path]  #: every file written, the golden included when there is one
    live_outcome: dict[str, Any]  #: what the live search returned (comparable form, secrets redacted)
    redacted: list[str]  #: where secrets were removed
    live_diff: list[str]  #: differences between the live answer and its replay (empty when deterministic)

    @property
    def ok(self) -> bool:
        """True when the case replays and its golden was written."""
        return self.verdict.status in ("NEW", "PASS")


def _clean_case_name(name: str) -> str:
    if not _CASE_NAME.fullmatch(name) or name.endswith((".meta", ".expected")):
        raise InvalidInput(
            "case name %r: use letters, digits, '.', '_' and '-' (at most 100 characters)" % name,
            detail_code=BAD_CASE_NAME,
        )
    unportable = unportable_name(name)
    if unportable:
        raise InvalidInput("case name %r: %s; choose another" % (name, unportable), detail_code=BAD_CASE_NAME)
    return name


def _check_no_clash(folder: Path, case_name: str, fixtures_dir: StrPath) -> None:
    """``InvalidInput(case_exists)`` when another case of ``folder`` has ``case_name`` in other letter
    cases: one file on Windows and macOS, where a checkout would keep one of the two."""
    wanted = (case_name + ".meta.json").lower()
    for other in folder.glob("*.meta.json") if folder.is_dir() else []:
        if other.name.lower() == wanted and other.name != case_name + ".meta.json":
            raise InvalidInput(
                "case %s/%s differs from the case %s in %s only in letter case, one file on Windows and macOS"
                " (choose another --name)" % (folder.name, case_name, other.name[: -len(".meta.json")], fixtures_dir),
                detail_code=CASE_EXISTS,
            )


def _remove_case_files(meta_path: Path) -> None:
    """Delete an existing case before it is recorded again: its meta file, its golden and
    the body files its meta file names, but only files of the case's own folder that no
    other case's meta file names (a meta file may name any path: it is data)."""
    case = load_case(meta_path)
    folder = case.folder.resolve()
    keep = _named_by_other_cases(folder, meta_path.resolve())
    for body in _body_names(case):
        path = (case.folder / body).resolve()
        if (
            path.parent == folder
            and path.is_file()
            and path not in keep
            and not path.name.endswith((".meta.json", ".expected.json"))
        ):
            path.unlink()
    for path in (case.expected_path, meta_path):
        if path.exists():
            path.unlink()


def _named_by_other_cases(folder: Path, meta_path: Path) -> set[Path]:
    """Body files that the other cases of ``folder`` name."""
    named: set[Path] = set()
    for other in folder.glob("*.meta.json"):
        if other.resolve() == meta_path:
            continue
        named.update((folder / body).resolve() for body in _body_names(load_case(other)))
    return named


def _body_names(case: Case) -> list[str]:
    """The body file names a case's meta file gives (whatever its shape: it is data)."""
    if case.problem is not None or not isinstance(case.meta.get("exchanges", []), list):
        return []
    responses = [e.get("response") for e in case.exchanges() if isinstance(e, dict)]
    names = [r.get("body") for r in responses if isinstance(r, dict)]
    return [name for name in names if isinstance(name, str) and name and "\x00" not in name]


def _search_meta(backend: str, query: str, max_results: int, options: dict[str, Any], vertical: str) -> dict[str, Any]:
    """The meta file's description of the search (``vertical`` only when not the web)."""
    meta: dict[str, Any] = {"backend": backend, "query": query, "max_results": max_results, "options": options}
    if vertical != "web":
        meta["vertical"] = vertical
    return meta


def _case_place(
    backend: str, query: str, name: Optional[str], fixtures_dir: StrPath, overwrite: bool
) -> tuple[Path, str, Path]:
    """The case's folder, name and meta file, checked before the search: not there (unless
    ``overwrite``), no clash with the folder's files, writable."""
    case_name = _clean_case_name(name) if name is not None else case_name_for(query)
    folder = Path(fixtures_dir) / backend
    meta_path = folder / (case_name + ".meta.json")
    if meta_path.exists() and not overwrite:
        raise InvalidInput(
            "case %s/%s exists in %s (choose another --name, or --force)" % (backend, case_name, fixtures_dir),
            detail_code=CASE_EXISTS,
        )
    _check_no_clash(folder, case_name, fixtures_dir)
    _check_writable(folder, fixtures_dir)
    misplaced = misplaced_folder(fixtures_dir)  # a backend's folder: <backend>/<backend>/, which no replay reads
    if misplaced:
        raise _unwritable(fixtures_dir, misplaced)
    return folder, case_name, meta_path


def _redactor_for(settings: Settings, exchanges: Any, volatile: Any) -> Redactor:
    """The settings' secrets, everywhere, and the secrets the search sent: a short sent one (under
    :data:`LONG_SECRET_LEN` characters) where it stands whole and, reading as no word, as a whole token."""
    # a setting's secret is the user's own credential: replaced everywhere whatever its length (a word-like
    # one corrupts the words holding it, which replay does not mind; a leaked one cannot be taken back)
    sent = _sent_secrets(exchanges)
    return Redactor(
        _secrets_of(settings) + [s for s in sent if len(s) >= LONG_SECRET_LEN],
        volatile=volatile,
        whole=[s for s in sent if len(s) < LONG_SECRET_LEN],
    )


def record_case(
    backend: str,
    query: str,
    *,
    fixtures_dir: StrPath,
    name: Optional[str] = None,
    max_results: Optional[int] = None,
    settings: Optional[Settings] = None,
    options: Optional[Mapping[str, Any]] = None,
    timeout_ms: Optional[int] = None,
    overwrite: bool = False,
    allow_error: bool = False,
    now: Optional[datetime.datetime] = None,
    vertical: str = "web",
) -> RecordResult:
    """Search ``query`` live with ``backend`` once and write it as a fixture case (of its
    ``vertical`` engine: the meta file says which, and holds every request of the search).

    The request goes through the normal path (``settings`` default to
    ``Settings.from_env()``: endpoints, keys, proxy, user agent), without retries.
    Writes the body file(s), ``<case>.meta.json`` and, after replaying the written
    case offline, the golden ``<case>.expected.json``.

    Raises:
        InvalidInput: ``case_exists`` (the case is there and ``overwrite`` is false),
            ``bad_case_name``, ``unknown_backend``, ``bad_arguments`` (no case can be written
            under ``fixtures_dir``: checked before the search).
        WebSearchError: the live search failed before a complete answer came
            (timeout, network error, missing key ...), or it failed and
            ``allow_error`` is false; nothing is written then.
    """
    settings = settings if settings is not None else Settings.from_env()
    backend_cls = registry.backend_class(backend, vertical)
    folder, case_name, meta_path = _case_place(backend, query, name, fixtures_dir, overwrite)
    options = dict(options or {})
    captured = now or datetime.datetime.now(datetime.timezone.utc)

    live, exchanges = _capture(
        backend, query, settings, max_results, timeout_ms, dict(options, vertical=vertical), allow_error
    )
    redactor = _redactor_for(settings, exchanges, backend_cls.volatile_params)
    recorded, bodies = _redacted_exchanges(exchanges, settings.user_agent or DEFAULT_USER_AGENT, redactor)
    _make_folder(folder, fixtures_dir)
    if meta_path.exists():
        _remove_case_files(meta_path)
    files = _write_bodies(folder, case_name, recorded, bodies)
    meta = _search_meta(
        backend, query, max_results if max_results is not None else settings.max_results, options, vertical
    )
    settings_meta = _settings_meta(backend, settings, redactor)
    if settings_meta:
        meta["settings"] = settings_meta
    if len(recorded) == 1:
        meta.update(recorded[0])
    elif recorded:
        meta["exchanges"] = recorded
    meta.update(_provenance(captured, offline=backend_cls.kind == "offline" and not recorded))
    if redactor.notes:
        meta["redacted"] = list(redactor.notes)
    write_case_file(meta_path, (json.dumps(meta, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    files.append(meta_path)
    return _replayed(meta_path, live, files, redactor)


def _unwritable(fixtures_dir: StrPath, why: str) -> InvalidInput:
    return InvalidInput("cannot write the case under %s: %s" % (fixtures_dir, why), detail_code=BAD_ARGUMENTS)


def _make_folder(folder: Path, fixtures_dir: StrPath) -> None:
    """Create the case's folder; one that looked writable and is not (/proc, a read-only
    mount) is ``InvalidInput(bad_arguments)`` as :func:`_check_writable` says it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _unwritable(fixtures_dir, str(exc)) from None


def _check_writable(folder: Path, fixtures_dir: StrPath) -> None:
    """``InvalidInput(bad_arguments)`` when no case can be written in ``folder`` (its nearest
    existing ancestor is a file, or not writable), before the live search it would waste."""
    existing = folder
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        raise _unwritable(fixtures_dir, "%s is not a folder" % existing)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise _unwritable(fixtures_dir, "%s is not writable" % existing)


def _capture(
    backend: str,
    query: str,
    settings: Settings,
    max_results: Optional[int],
    timeout_ms: Optional[int],
    options: dict[str, Any],
    allow_error: bool,
) -> tuple[Any, list[Exchange]]:
    """Search live once through a recording session: the result (or error) and the exchanges.

    Raises the live error unless ``allow_error`` and the upstream answered completely.
    """
    with Recorder() as recorder:
        with SearchClient(backend, settings=settings, wire=recorder.wrap, cache_ttl_s=0, retries=0) as client:
            try:
                live: Any = client.search(query, max_results=max_results, timeout_ms=timeout_ms, **options)
            except WebSearchError as error:
                live = error
        exchanges = list(recorder.exchanges)
    if isinstance(live, WebSearchError):
        answered = (
            bool(exchanges) and all(e.complete for e in exchanges) and live.code not in ("Timeout", "NetworkError")
        )
        if not (allow_error and answered):
            raise live
    return live, exchanges


def _redacted_exchanges(
    exchanges: list[Exchange], user_agent: str, redactor: Redactor
) -> tuple[list[dict[str, Any]], list[tuple[bytes, str]]]:
    """Each exchange as meta (secrets as placeholders) and its body with the file suffix it gets."""
    recorded: list[dict[str, Any]] = []
    bodies: list[tuple[bytes, str]] = []
    for index, exchange in enumerate(exchanges):
        prefix = "exchanges[%d]." % index if len(exchanges) > 1 else ""
        request_meta = _request_meta(exchange.request, user_agent, redactor, prefix + "request")
        response_meta, body = _response_meta(exchange, redactor, prefix + "response")
        recorded.append({"request": request_meta, "response": response_meta})
        bodies.append(
            (body, _suffix(CaseInsensitiveDict(exchange.headers).get("Content-Type") or ""))  # any spelling
        )
    return recorded, bodies


def _write_bodies(
    folder: Path, case_name: str, recorded: list[dict[str, Any]], bodies: list[tuple[bytes, str]]
) -> list[Path]:
    """Write the non-empty bodies next to the meta file and name them in ``recorded``; the files written.
    A name another case's meta file gives a body (``rust.1.json`` of a case named ``rust.1``, beside the
    first of two bodies of ``rust``) is not written over: the body takes a free name (``rust.1-2.json``)."""
    with_body = [i for i, (body, _) in enumerate(bodies) if body]
    home = folder.resolve()
    taken = {p.name for p in _named_by_other_cases(home, home / (case_name + ".meta.json")) if p.parent == home}
    files: list[Path] = []
    for index in with_body:
        body, suffix = bodies[index]
        stem = case_name + ("" if len(with_body) == 1 else ".%d" % (index + 1))
        file_name, other = stem + suffix, 1
        while file_name in taken:
            other += 1
            file_name = "%s-%d%s" % (stem, other, suffix)
        taken.add(file_name)
        write_case_file(folder / file_name, body)
        files.append(folder / file_name)
        recorded[index]["response"]["body"] = file_name
    for index, (body, _) in enumerate(bodies):
        if not body:
            recorded[index]["response"]["body_text"] = ""
    return files


def _provenance(captured: datetime.datetime, offline: bool) -> dict[str, Any]:
    """``captured_at``, ``library_version`` and ``provenance`` of a recorded case."""
    provenance = {
        "status": "recorded",
        "form": "complete",
        "capture_date": captured.date().isoformat(),
        "recorded_by": RECORDED_BY,
    }
    if offline:
        provenance = {
            "status": "synthetic",
            "capture_date": captured.date().isoformat(),
            "recorded_by": RECORDED_BY,
            "why": "an offline backend sends no request; the golden pins its output",
        }
    return {
        "captured_at": captured.astimezone(datetime.timezone.utc).isoformat(timespec="seconds"),
        "library_version": __version__,
        "provenance": provenance,
    }


def _replayed(meta_path: Path, live: Any, files: list[Path], redactor: Redactor) -> RecordResult:
    """Replay the written case offline, write its golden when it is new, and compare with the live answer."""
    live_outcome = redactor.outcome(outcome_of(live))  # as the redacted case gives it: compared, and shown
    case = load_case(meta_path)
    verdict = run_case(case)
    if verdict.status == "NEW" and verdict.outcome is not None:
        write_golden(case, verdict.outcome)
        files.append(case.expected_path)
    live_diff = compare(live_outcome, verdict.outcome) if verdict.outcome is not None else []
    return RecordResult(
        verdict=verdict, files=files, live_outcome=live_outcome, redacted=list(redactor.notes), live_diff=live_diff
    )


def stand_in_host(case: Case) -> Optional[str]:
    """The loopback host (``127.0.0.1``, ``localhost``...) a recorded case's request went to, if any: the
    answer came from this machine, so it may be a stand-in its author wrote (a plugin's first cases,
    recorded before the service answers them), which ``record`` still calls ``recorded``. Only the
    author knows; :func:`~websearch_sync.cli.contract_cmd.run_record` asks them to say so."""
    for exchange in case.exchanges():
        host = urlsplit(str((exchange.get("request") or {}).get("url") or "")).hostname or ""
        if host == "localhost" or host.endswith(".localhost"):
            return host
        try:
            if ipaddress.ip_address(host).is_loopback:
                return host
        except ValueError:  # a name: not this machine's
            continue
    return None
