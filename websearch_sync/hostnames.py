"""Which host names the library takes, how it encodes them, and why it refuses one, in its own words.

One rule for every host (a fetch's and its redirects', a search endpoint's, a ``site_filter``'s):
a browser's, WHATWG URL host parsing: the host percent-decoded as UTF-8 first (``%e2%91%a0.example``
is ``①.example``, ``1.example``: libcurl decodes it so, and a guard that checked the escaped name
would not check the host sent), then no character WHATWG forbids in a domain (``/``, ``@``, ``%``,
controls ...), then UTS #46 processing without its transitional mapping
(``straße.de`` stays ``straße.de``, ``xn--strae-oqa.de``; ``。`` separates labels; invisible
characters such as a soft hyphen are dropped), each label checked as the ``idna`` package checks an
IDNA 2008 label (the package ``requests`` and urllib3 encode hosts with). A label typed in ASCII is
taken as typed (``searx_1``, a container's name), unless it starts with ``xn--``: that one must be
the punycode of a valid label (``xn--zz`` decodes to nothing: refused here, not looked up). DNS's
limits count too: no empty label, none over 63 characters once encoded, no name over 253 (counted
as typed too, before any mapping: the work stays bounded, whatever the length given). Fetch
and the endpoints send a host as :func:`ascii_host` encodes it, so what is checked is what is sent.

The ``idna`` package decides, through its step functions; the walk here only says which label and
why, in words that change neither with the package's version nor with the Python (the standard
library's IDNA 2003 codec words its refusals differently in 3.13). One thing does depend on the
Python: a character newer than its Unicode data (``unicodedata``) has no known direction, which
IDNA's right-to-left rule needs; such a label is refused as holding a character "unknown to this
Python's Unicode data", not taken for right-to-left text. A leaf module (the standard
library, and ``idna``, a dependency of ``requests``, imported at the first host that holds IDNA):
``validate`` (``site_filter``), ``net`` (fetch's URLs) and ``engine`` (endpoint hosts) use it.
"""

import functools
import re
import unicodedata
from typing import Optional
from urllib.parse import unquote_to_bytes, urlsplit

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The longest label DNS carries (RFC 1035), counted as IDNA encodes it.
MAX_LABEL = 63
#: The longest name DNS carries, without its trailing dot (RFC 1035).
MAX_NAME = 253
#: What separates labels as typed: the full stop, and the ideographic and fullwidth ones UTS #46 maps to it.
_DOTS = re.compile("[.\u3002\uff0e\uff61]")
_ACE_PREFIX = "xn--"
#: What WHATWG URL forbids in a domain ("forbidden domain code points"): C0 controls, space, DEL and
#: ``#%/:<>?@[\\]^|``; only a percent-decoded host can hold the delimiters, and none may be sent.
#: Also refused, unlike a browser: the other ASCII punctuation but ``-``, ``.`` and ``_``
#: (``!"$&'()*+,;=`{}``), which no DNS name holds and libcurl refuses in a host (the browser wire
#: failed such a host as a malformed endpoint after the guard had looked it up, and requests
#: escaped some again, so the guard looked up ``a%22b`` for ``a"b``).
_FORBIDDEN = frozenset("".join(map(chr, range(0x21))) + "\x7f#%/:<>?@[\\]^|" + "!\"$&'()*+,;=`{}")


class HostRefused(Exception):
    """``host`` is no host name; ``reason`` says which label and why ("label 2 is empty")."""

    def __init__(self, host: str, reason: str) -> None:
        super().__init__("%s is not a valid host name (%s)" % (host, reason))
        self.host = host
        self.reason = reason


def idna_refusal(host: str) -> Optional[str]:
    """Why ``host`` is no host name under the library's rule ("label 2 is empty", "label 1 is 64
    characters long, over 63"), or ``None`` when it is one."""
    try:
        ascii_host(host)
    except HostRefused as refused:
        return refused.reason
    return None


def ascii_host(host: str) -> str:
    """``host`` as it is sent and looked up: lower case, each label that is not ASCII as its
    ``xn--`` punycode (``Bücher.de`` is ``xn--bcher-kva.de``); :class:`HostRefused` for a host
    that is no host name. Remembered for the last hosts asked: a fetch asks again for each hop."""
    encoded = _encoded(host)
    if isinstance(encoded, HostRefused):
        raise HostRefused(host, encoded.reason)
    return encoded


def ignored_character(text: str) -> Optional[str]:
    """The first character of ``text`` that UTS #46 maps to nothing (a soft hyphen, a zero-width
    space, U+180E, U+2061, a variation selector ...: invisible, dropped from a host), or ``None``.
    The joiners are not among them: IDNA 2008 keeps them where a script needs them (Persian)."""
    if text.isascii():
        return None
    import idna

    for char in text:
        if not char.isascii():
            try:
                if not idna.uts46_remap(char, std3_rules=False):
                    return char
            except idna.IDNAError:  # a character refused: the host-name rule says so, not this
                continue
    return None


def with_ascii_host(url: str) -> str:
    """``url`` with its host as :func:`ascii_host` encodes it, the rest as it is: what ``requests``
    then prepares is the URL checked, not one its own IDNA encoding would refuse or write otherwise
    (nor one whose host keeps escapes ``requests`` sends and libcurl decodes: ``%41.example`` is
    ``a.example``). A URL whose host is ASCII without ``%`` (or an IP literal, or none) is returned
    as it is; :class:`HostRefused` for a host that is no host name, ``ValueError`` for a URL
    ``urlsplit`` cannot read."""
    if url.isascii() and "%" not in url:
        return url
    parts = urlsplit(url)
    userinfo, at, host_port = parts.netloc.rpartition("@")
    host, colon, port = host_port.partition(":")
    if (host.isascii() and "%" not in host) or host.startswith("["):  # (an IPv6 literal: no name)
        return url
    start = url.find("//" + parts.netloc)
    if start < 0:  # urlsplit dropped a tab or newline from it: not the text to rewrite
        raise ValueError("the URL's host is not where urlsplit read it")
    netloc = userinfo + at + ascii_host(host) + colon + port
    start += 2
    return url[:start] + netloc + url[start + len(parts.netloc) :]


@functools.lru_cache(maxsize=256)
def _encoded(host: str) -> "str | HostRefused":
    """:func:`ascii_host`'s answer, refusal and all (a pure function of the text)."""
    if ":" in host:  # an IPv6 literal (``urlsplit``'s hostname, brackets off): an address, no name
        return host.lower()
    try:
        name = _percent_decoded(host) if "%" in host else host
        _check_typed(name)
        if name.isascii() and _ACE_PREFIX not in name.lower():  # the common name: no IDNA in it
            labels = [(label, True) for label in name.lower().split(".")]
        else:
            labels = _mapped_labels(name)
        rooted = len(labels) > 1 and labels[-1] == ("", True)
        if rooted:
            labels.pop()  # a trailing dot names the root, no empty label
        encoded = [_ascii_label(number, label, typed_ascii) for number, (label, typed_ascii) in enumerate(labels, 1)]
    except _LabelRefused as refused:
        return HostRefused(host, "label %d %s" % (refused.number, refused.reason))
    except _NameRefused as refused:
        return HostRefused(host, refused.reason)
    name = ".".join(encoded)
    if len(name) > MAX_NAME:
        return HostRefused(host, "the name is %d characters long, over %d" % (len(name), MAX_NAME))
    return name + "." if rooted else name


class _NameRefused(Exception):
    """The name as a whole is refused, ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _percent_decoded(host: str) -> str:
    """``host`` percent-decoded as WHATWG URL decodes a host (its bytes read as UTF-8), or
    :class:`_NameRefused` when they are no UTF-8 (a browser reads U+FFFD there, which IDNA refuses)."""
    try:
        return unquote_to_bytes(host).decode("utf-8")
    except UnicodeDecodeError:
        raise _NameRefused("its percent-escapes are no UTF-8") from None
    except UnicodeEncodeError:  # unquote_to_bytes encodes the text first: a lone surrogate is no text
        raise _NameRefused("it holds a lone surrogate, which is no text") from None


def _check_typed(name: str) -> None:
    """:class:`_NameRefused` or :class:`_LabelRefused` for what no mapping could make a host name:
    a character WHATWG forbids in a domain, a label over :data:`MAX_LABEL` characters or a name
    over :data:`MAX_NAME` as typed (refused here, before any mapping: the ``idna`` package reads at
    most 1,024 characters, and a long text costs time to map)."""
    forbidden = next((char for char in name if char in _FORBIDDEN), None)
    if forbidden is not None:
        raise _NameRefused("holds U+%04X, a character no host name holds" % ord(forbidden))
    typed = _DOTS.split(name)
    if len(typed) > 1 and not typed[-1]:
        typed.pop()  # the root's dot
    for number, label in enumerate(typed, 1):
        if len(label) > MAX_LABEL:
            raise _LabelRefused(number, "is %d characters long, over %d" % (len(label), MAX_LABEL))
    length = len(".".join(typed))
    if length > MAX_NAME:
        raise _NameRefused("the name is %d characters long, over %d" % (length, MAX_NAME))


class _LabelRefused(Exception):
    """Label ``number`` is refused, ``reason`` says why."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(number, reason)
        self.number = number
        self.reason = reason


def _mapped_labels(host: str) -> list[tuple[str, bool]]:
    """The labels of ``host`` after UTS #46 mapping (lower case, compatibility forms folded,
    invisible characters dropped; a character mapped to a dot, U+2488 "1.", splits its label),
    each with whether it was typed in ASCII."""
    import idna  # here, not at import: most hosts hold no IDNA, and ``import websearch_sync`` stays light

    labels: list[tuple[str, bool]] = []
    for typed in _DOTS.split(host):
        if typed.isascii():
            labels.append((typed.lower(), True))
            continue
        try:
            mapped = idna.uts46_remap(typed, std3_rules=False)
        except idna.IDNAError:
            refused = next((char for char in typed if not _mappable(char)), typed[0])
            raise _LabelRefused(len(labels) + 1, "holds U+%04X, a character IDNA refuses" % ord(refused)) from None
        labels.extend((label, False) for label in mapped.split("."))
    return labels


def _mappable(char: str) -> bool:
    """True unless UTS #46 refuses ``char`` on its own (a disallowed character)."""
    import idna

    try:
        idna.uts46_remap(char, std3_rules=False)
    except idna.IDNAError:
        return False
    return True


def _ascii_label(number: int, label: str, typed_ascii: bool) -> str:
    """``label`` (number ``number``, mapped) as sent: as typed when typed in ASCII and not ``xn--``,
    else checked as IDNA 2008 checks a label and encoded; :class:`_LabelRefused` when refused."""
    if not label:
        raise _LabelRefused(number, "is empty")
    if label.startswith(_ACE_PREFIX):
        reason = _a_label_refusal(label)
    elif len(label) > MAX_LABEL:  # a Unicode one's punycode is longer still: not encoded (bounded work)
        reason = "is %d characters long, over %d" % (len(label), MAX_LABEL)
    elif typed_ascii:
        return label
    else:
        reason = _u_label_refusal(label)
        if reason is None and not label.isascii():
            encoded = _ACE_PREFIX + label.encode("punycode").decode("ascii")
            if len(encoded) > MAX_LABEL:
                reason = "is %d characters long once IDNA-encoded, over %d" % (len(encoded), MAX_LABEL)
            label = encoded
    if reason is not None:
        raise _LabelRefused(number, reason)
    return label


def _a_label_refusal(label: str) -> Optional[str]:
    """Why ``label``, which starts with ``xn--``, is no A-label (the punycode of a valid label), or ``None``."""
    if not label.isascii():
        return "starts with xn-- but is not ASCII"
    if len(label) > MAX_LABEL:
        return "is %d characters long, over %d" % (len(label), MAX_LABEL)
    code = label[len(_ACE_PREFIX) :]
    try:
        decoded = code.encode("ascii").decode("punycode")
    except UnicodeError:
        return "starts with xn-- but is no punycode"
    if not code or code.endswith("-") or decoded.encode("punycode").decode("ascii") != code:
        return "starts with xn-- but is no punycode"  # empty, or not the encoding of what it decodes to
    reason = _u_label_refusal(decoded)
    return None if reason is None else "starts with xn-- but decodes to a label that %s" % reason


def _u_label_refusal(label: str) -> Optional[str]:
    """Why IDNA 2008 refuses the Unicode label ``label`` (its checks in the ``idna`` package's
    order: normal form, hyphens, a leading combining mark, each character, right-to-left text), or
    ``None``. A character this Python's ``unicodedata`` does not know has no direction: the label
    is refused as holding it (not as right-to-left text, which ``idna``'s check would report)."""
    import idna

    try:
        idna.check_nfc(label)
    except idna.IDNAError:
        return "is not in Unicode normalization form C"
    try:
        idna.check_hyphen_ok(label)
    except idna.IDNAError:
        if label[2:4] == "--":
            return "has hyphens as its third and fourth characters"
        return "starts or ends with a hyphen"
    try:
        idna.check_initial_combiner(label)
    except idna.IDNAError:
        return "starts with a combining mark"
    for position, char in enumerate(label):
        reason = _character_refusal(label, position, char)
        if reason is not None:
            return reason
    unknown = next((char for char in label if not unicodedata.bidirectional(char)), None)
    if unknown is not None:  # newer than this Python's Unicode data: no direction to check (idna raises)
        return "holds U+%04X, unknown to this Python's Unicode data" % ord(unknown)
    try:
        idna.check_bidi(label)
    except idna.IDNAError:
        return _bidi_refusal(label)
    return None


def _character_refusal(label: str, position: int, char: str) -> Optional[str]:
    """Why IDNA 2008 refuses ``char`` at ``position`` of ``label`` (RFC 5892's classes), or ``None``."""
    import idna

    classes = idna.idnadata.codepoint_classes
    code = ord(char)
    if idna.intranges_contain(code, classes["PVALID"]):
        return None
    if idna.intranges_contain(code, classes["CONTEXTJ"]):
        try:
            allowed = idna.valid_contextj(label, position)
        except ValueError:  # a character of unknown class next to the joiner
            allowed = False
        what = "a joiner"
    elif idna.intranges_contain(code, classes["CONTEXTO"]):
        allowed = idna.valid_contexto(label, position)
        what = "a character"
    else:
        return "holds U+%04X, a character IDNA refuses" % code
    return None if allowed else "holds U+%04X, %s IDNA allows only next to certain characters" % (code, what)


def _bidi_refusal(label: str) -> str:
    """Which part of IDNA's rule for right-to-left text (RFC 5893) ``label`` breaks: a right-to-left
    label starts with a right-to-left letter, holds no left-to-right one, ends with a letter or digit
    and does not mix European and Arabic-Indic digits; a left-to-right label holds no right-to-left character."""
    directions = [unicodedata.bidirectional(char) for char in label]
    if directions[0] == "L" or ("L" in directions and directions[0] in ("R", "AL")):
        return "mixes right-to-left and left-to-right characters"
    if directions[0] not in ("R", "AL"):
        return "holds right-to-left characters but does not start with a right-to-left letter"
    if "EN" in directions and "AN" in directions:
        return "mixes European and Arabic-Indic digits in right-to-left text"
    last = next(direction for direction in reversed(directions) if direction != "NSM")
    if last not in ("R", "AL", "EN", "AN"):
        return "holds right-to-left characters but does not end with a right-to-left letter or a digit"
    return "holds a character right-to-left text may not hold"
