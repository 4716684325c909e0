"""URL rules: what counts as a URL, the forms a URL takes, and when two URLs are one page.

Every part of the library that checks, rewrites or compares URLs calls this module, so
a rule is written once. A URL takes one of two forms, each for its own purpose:

- **result form** (:func:`result_url`): the ``url`` of a search result, close to what
  the engine sent (a reader may recognise it and copy it), made usable: http(s) with a
  host, a lower-case scheme, spaces after the host percent-encoded;
- **request form** (:func:`request_url`): the URL a fetch sends, percent-encoded and
  its host encoded by the library's one rule for host names (:mod:`~..hostnames`), the rest
  exactly as ``requests`` will send it, so what is checked (the host the SSRF guard resolves)
  is what is requested.

and two keys compare them:

- :func:`dedupe_key` (result form in): results that are one page for a reader, across
  engines and within one list (scheme, ``www.``, trailing slash, fragment and tracking
  parameters ignored);
- :func:`page_key` (request form in): the document one request gets, the request form
  without the fragment a client never sends (redirect loops, fetch cache keys).

Messages and logs show a URL by :func:`shown_url`, without the parts that may hold secrets;
an error message names a URL a page chose (a redirect or refresh target) by its host only
(:func:`host_token`): error lines reach a model outside the untrusted-content block.
Two comparisons decide what a URL may receive: :func:`same_origin` (whether credentials
go along a redirect, whether a page's form may be posted) and :func:`host_in` (whether a URL
is on a site, e.g. its bot wall).
Parsers read links from markup with :func:`url_parts`, which never raises.
"""

import codecs
import difflib
import functools
import re
from typing import Optional
from urllib.parse import SplitResult, parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from ..errors import BAD_URL, InvalidInput, UrlTooLong
from ..hostnames import HostRefused, ascii_host, with_ascii_host
from ..validate import URL_CONTROL_CHARS
from ..validate import shown_url as shown_url  # re-exported: below config, which names a bad state URL with it
from ..weburl.resolve import browser_join as browser_join  # re-exported: the module every URL rule is read from
from ..weburl.resolve import browser_target, query_start
from .memo import remembered
from .ssrf import literal_address

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The longest URL fetch takes (servers refuse longer ones, commonly at 8 KB).
MAX_URL_CHARS = 8192
#: Control and invisible formatting characters, and lone surrogates (a JSON ``"\\ud800"``
#: escape yields one: it is no text and cannot be encoded, e.g. printed as UTF-8). Neither a
#: result URL nor single-line text carries them. The C1 controls are among them (U+009B is a
#: terminal's CSI, as ESC ``[``), except U+0085, a line break: whitespace, read as a space. The tag
#: characters (U+E0000-U+E007F) are among them: each is an ASCII character written invisibly, which a
#: model reads as text (words hidden in a result's snippet: "ASCII smuggling"); their one other use,
#: an emoji flag of a region (England's), is left its black flag.
_TAG_CHARS = r"\U000e0000-\U000e007f"
_INVISIBLE_CHARS = (
    r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f"  # C0, DEL, C1
    r"\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff"  # invisible formatting, lone surrogates
    + _TAG_CHARS
)
INVISIBLE = re.compile("[%s]" % _INVISIBLE_CHARS)
#: The tag characters alone (text leaves them out; a URL after its host has them percent-encoded).
TAGS = re.compile("[%s]" % _TAG_CHARS)
#: Variation selectors: VS1-VS16 (U+FE00-U+FE0F) and the supplement's VS17-VS256 (U+E0100-U+E01EF).
_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def stray_selectors_dropped(text: str) -> str:
    """``text`` without the variation selectors that select nothing: invisible, each can carry a byte
    after a base character ("emoji smuggling": a run of them after one emoji, like tag characters'
    "ASCII smuggling"). Kept (:func:`_selects`): one selector right after a base it can vary, so an
    emoji keeps its presentation (``\u2764\ufe0f``, a keycap ``1\ufe0f\u20e3``) and a CJK ideograph its
    registered glyph (an ideographic variation sequence, VS17-VS256); dropped: every selector after
    another (a run), at the start, after a space or a control, VS1-VS14 after ASCII, VS17-VS256 after
    anything but an ideograph. One pass, each character looked at once."""
    if text.isascii() or max(text) < "\ufe00" or not _SELECTORS.search(text):  # the first two in C
        return text
    return _SELECTORS.sub(lambda selector: selector.group() if _selects(text, selector.start()) else "", text)


def _selects(text: str, at: int) -> bool:
    """Whether the variation selector at ``text[at]`` varies the character before it."""
    base = text[at - 1] if at else " "
    if _SELECTORS.fullmatch(base) or base.isspace() or not base.isprintable():
        return False
    if text[at] >= "\U000e0100":  # ideographic variation sequences
        return "\u3400" <= base <= "\u9fff" or "\uf900" <= base <= "\ufaff" or "\U00020000" <= base <= "\U0003ffff"
    return text[at] in "\ufe0e\ufe0f" or not base.isascii()  # text or emoji presentation: any base (keycaps)


#: What disqualifies a result URL: whitespace (after the host's spaces are encoded) or an invisible character.
_UNFIT_IN_URL = re.compile(r"[\s%s]" % _INVISIBLE_CHARS)
#: Where a URL's host ends (after ``scheme://``).
_HOST_END = re.compile(r"[/?#]")
#: A host as a message may name it: host-name characters (IDNA-encoded), IP literals.
_HOST_TOKEN = re.compile(r"[a-z0-9._:-]{1,253}")
#: Query parameters that only say where a click came from: the same page with or without them.
_TRACKING = re.compile(r"^(utm_[a-z0-9_]*|fbclid|gclid|dclid|msclkid|mc_eid|yclid)$", re.I)
_HTTP_SCHEMES = ("http", "https")


def result_url(value: object) -> Optional[str]:
    """The result form of ``value``, or ``None`` unless it is an http(s) URL with a host.

    Stripped, with a lower-case scheme (``HTTPS://`` is common in engines' markup). Spaces
    after the host are percent-encoded (``%20``, as a browser does: engines return such
    URLs), and so are tag characters (an emoji flag in a path that a parser unquoted; the
    address a browser requests, where text leaves them out); a space in the host, other
    whitespace or an invisible character disqualifies the URL (it could not be followed as shown).
    A backslash before the query is the slash a browser reads there (``https://a.example\\@b.example/``
    goes to ``a.example``, where ``urlsplit`` reads host ``b.example`` and fetch refuses the backslash).
    User info is left out (``https://www.paypal.com@evil.example/`` is ``https://evil.example/``, where a
    browser goes): shown, it names a site the link does not lead to, and no result link logs in.
    A port of 0 or out of range, an invalid IPv6 literal, or a URL over :data:`MAX_URL_CHARS` (which
    servers refuse, and fetch too: an API's 100 KB "address" in every item) is no URL either.
    """
    if type(value) is str and len(value) <= MAX_URL_CHARS:
        return _result_form(value)
    return _result_form.__wrapped__(value) if isinstance(value, str) else None


#: How many URLs' result forms and dedupe keys are remembered: a search reads each result's twice
#: (its paging's identity of the item, then normalisation), a merge once per list it is in.
URLS_KEPT = 256


@functools.lru_cache(maxsize=URLS_KEPT)
def _result_form(value: str) -> Optional[str]:
    """:func:`result_url` of a ``str``, remembered for the last :data:`URLS_KEPT` of at most
    :data:`MAX_URL_CHARS` (a pure function of the text: a few MB at the very most)."""
    scheme, sep, rest = value.strip().partition("://")
    if not sep or scheme.lower() not in _HTTP_SCHEMES:
        return None
    if " " in rest or not rest.isascii():
        host_end = _HOST_END.search(rest)
        if host_end is not None:
            rest = rest[: host_end.start()] + tags_encoded(rest[host_end.start() :].replace(" ", "%20"))
    if _UNFIT_IN_URL.search(rest):  # the scheme is http or https
        return None
    end = query_start(rest)
    if "\\" in rest[:end]:  # a browser's slash (WHATWG); urlsplit reads "a\\@b" as host b, fetch refuses it
        rest = rest[:end].replace("\\", "/") + rest[end:]
    authority = _HOST_END.split(rest, 1)[0]
    if "@" in authority:  # user info: the host is after the last "@" (a browser goes there), the rest misleads
        rest = rest[authority.rindex("@") + 1 :]
    url = scheme.lower() + "://" + rest
    if len(url) > MAX_URL_CHARS:
        return None
    try:
        parts = urlsplit(url)
        if not parts.hostname or _port(parts) == 0:
            return None
    except ValueError:  # e.g. an invalid IPv6 literal or port
        return None
    return url


def tags_encoded(text: str) -> str:
    """``text`` (a URL, or its part after the host) with each tag character (:data:`TAGS`)
    percent-encoded as UTF-8: the address it names, where text would leave them out and name another."""
    if text.isascii() or max(text) < "\U000e0000":  # both in C: most URLs hold no character that high
        return text
    return TAGS.sub(lambda tag: quote(tag.group(), safe=""), text)


#: The port an http(s) URL names when it names none (the one table: the pace keys, the client-side
#: redirects' reload test and the dedupe key read it).
DEFAULT_PORTS = {"http": 80, "https": 443}


def _port(parts: SplitResult) -> Optional[int]:
    """``parts.port``, not parsed again for the usual URL without a ``:`` after its userinfo (no port)."""
    return parts.port if ":" in parts.netloc.rpartition("@")[2] else None


def picture_url(value: object) -> Optional[str]:
    """The result form of a picture's address (an image result's image, a thumbnail): as
    :func:`result_url`, a protocol-relative one (``//host/a.jpg``, as pages write pictures)
    read as https, as on the https page of every service that gives one."""
    if isinstance(value, str) and value.lstrip().startswith("//"):
        value = "https:" + value.lstrip()
    return result_url(value)


def dedupe_key(url: str) -> str:
    """A key under which result URLs of one page collide (for removing duplicates and merging lists).

    Ignores what does not change the page a reader gets: the scheme (engines disagree on
    http/https for one page), a leading ``www.``, the host's case, a trailing slash, the
    fragment and tracking parameters (``utm_*``, ``fbclid``, ``gclid`` ...); the port (but
    a default one, ``:80`` or ``:443``, which is no port whatever the scheme: the key ignores
    the scheme) and the other query parameters count. ``ValueError`` for a malformed URL
    (``http://[::1``).
    """
    if type(url) is str and len(url) <= MAX_URL_CHARS:
        return _dedupe_key(url)
    return _dedupe_key.__wrapped__(url)


@functools.lru_cache(maxsize=URLS_KEPT)
def _dedupe_key(url: str) -> str:
    """:func:`dedupe_key`, remembered as :func:`_result_form` is (a malformed URL's ``ValueError`` is not)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host.startswith("www."):
        host = host[4:]
    port = _port(parts)
    if port and port not in DEFAULT_PORTS.values():
        host = "%s:%d" % (host, port)
    path = parts.path.rstrip("/")
    query = (
        urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _TRACKING.fullmatch(k)])
        if parts.query
        else ""
    )
    return urlunsplit(("", host, path, query, ""))


_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


def _bare_host(text: str) -> bool:
    """True for a host name (``example.com``, ``localhost``) or IPv4 address with an optional port: what a URL
    typed without its scheme starts with (no regex: the text is the user's)."""
    host, colon, port = text.lower().partition(":")
    if colon and not (port.isdigit() and len(port) <= 5):
        return False
    labels = host.split(".")
    if host == "localhost" or (len(labels) == 4 and all(label.isdigit() and int(label) < 256 for label in labels)):
        return True  # localhost or an IPv4 address (``127.0.0.1:8000``: a local server)
    return (
        2 <= len(labels) <= 31
        and all(0 < len(label) <= 63 and set(label) <= _HOST_CHARS for label in labels)
        and labels[-1].isalpha()
        and len(labels[-1]) >= 2
    )


#: The remedy for a fetch of a local file, in Python terms: the extractor fetch uses reads HTML text.
LOCAL_FILE_HINT = "to read a local HTML file, pass its text to websearch_sync.extract.extract_html(html, url=...)"


#: How a relative, home or Windows network path starts (``\\\\host\\share``; ``//host`` is a URL without its scheme).
_PATH_STARTS = ("./", "../", "~", ".\\", "..\\", "\\\\")


def _local_file(text: str, scheme: str) -> bool:
    """Whether ``text`` names a local file: a ``file:`` URL, or a path (``/etc/x``, ``./page.html``,
    ``~/x``; not ``//host/``, a URL without its scheme), a Windows one too (``C:\\x``, whose ``C`` reads as a
    scheme; not ``s://host``, a URL's scheme, one letter: a drive's path has no ``//``), or a Windows network
    path (``\\\\host\\share\\x``)."""
    if scheme.lower() == "file":
        return True
    if text.startswith(_PATH_STARTS) or (text.startswith("/") and not text.startswith("//")):
        return True
    return len(text) > 2 and len(scheme) == 1 and text[1] == ":" and text[2] in "\\/" and text[2:4] != "//"


def _refuse_local_file(text: str) -> None:
    """Raise :func:`local_file_error` when ``text`` is a local file by its look (:func:`_local_file`)."""
    scheme = text.partition(":")[0] if ":" in text else ""
    if _local_file(text, scheme):
        raise local_file_error("file:" if scheme.lower() == "file" else text)


def local_file_error(text: str) -> InvalidInput:
    """``InvalidInput(bad_url)`` saying that ``text`` names a local file, its hint the extractor: one
    wording for a path by its look (here) and for a name the command line finds on disk (``README.md``,
    whose ``.md`` is a top-level domain too); a ``file:`` URL is named by its scheme, ``file:``."""
    return InvalidInput(
        "only http and https URLs can be fetched, got %r (a local file: fetch reads web pages)" % _shown_typed(text),
        detail_code=BAD_URL,
        hint=LOCAL_FILE_HINT,
    )


def _host_opened_hint(text: str) -> str:
    """`` (did you mean 'https://example.com'?)`` for ``https:/example.com``, an http(s) URL without
    a host whose host a browser opens after one slash or none (:func:`browser_target`), else ``""``."""
    return _did_you_mean(browser_target(text, ""))


def _did_you_mean(url: str) -> str:
    """`` (did you mean 'URL'?)`` for ``url``, a repair a refusal suggests, as messages show a URL
    (:func:`_shown_typed`), when fetch takes it (:func:`_fetchable`); else ``""``."""
    return " (did you mean %r?)" % _shown_typed(url) if url and _fetchable(url) else ""


def _fetchable(url: str) -> bool:
    """Whether ``url``, a URL a refusal would suggest, is one fetch takes: an http(s) URL with a host
    (checked first: one without would be refused with a suggestion again) that passes every check."""
    try:
        return bool(urlsplit(url).hostname) and bool(_checked_request_form(url))
    except (InvalidInput, ValueError):
        return False


def _shown_typed(text: str) -> str:
    """``text``, a URL as typed and possibly malformed (``htps://user:pw@host/?api_key=k``), as a refusal
    may echo it or suggest its repair: without user info, query and fragment, as :func:`shown_url` leaves
    them out of any message (it reads a well-formed URL; here the authority is whatever follows the
    scheme's colon and slashes, up to the next slash), and at most 200 characters."""
    head = text.partition("#")[0].partition("?")[0]
    scheme, colon, rest = _typed_scheme(head)
    body = rest.lstrip("/\\")
    authority = _typed_authority(rest)
    if "@" in authority:
        body = body[len(authority.rpartition("@")[0]) + 1 :]
    return (scheme + colon + rest[: len(rest) - len(rest.lstrip("/\\"))] + body)[:200]


def _typed_scheme(head: str) -> tuple[str, str, str]:
    """``(scheme, ":", rest)`` of ``head``, a URL as typed, or ``("", "", head)`` when the text before
    its first colon holds a slash (``//user:pw@host``: a URL without its scheme, the colon the user info's)."""
    scheme, colon, rest = head.partition(":")
    return (scheme, colon, rest) if colon and not set(scheme) & set("/\\") else ("", "", head)


def _typed_authority(rest: str) -> str:
    """The authority of ``rest``, a URL as typed after its scheme's colon: whatever follows the
    slashes, up to the next slash or backslash."""
    return rest.lstrip("/\\").split("/", 1)[0].split("\\", 1)[0]


def _mistyped_scheme_hint(text: str, scheme: str) -> str:
    """`` (did you mean 'https://example.com'?)`` for ``htps://example.com``, a scheme one slip from
    http or https (``htp``, ``httsp``; not ``ftp`` nor ``ws``), else ``""``."""
    close = difflib.get_close_matches(scheme.lower(), _HTTP_SCHEMES, n=1, cutoff=0.75)
    meant = "%s://%s" % (close[0], text[len(scheme) + 1 :].lstrip("/")) if close else ""
    return _did_you_mean(meant)


def _with_scheme_hint(text: str) -> str:
    """`` (did you mean 'https://example.com/'?)`` for ``example.com`` or ``//example.com/`` (a
    scheme-relative URL, as a page's link writes it) typed without its scheme, when fetch takes that
    URL, else ``""``."""
    if text.startswith("//") and not text.startswith("///"):
        return _did_you_mean("https:" + text)
    host, slash, rest = text.partition("/")
    if "://" in text or not _bare_host(host):
        return ""
    return " (did you mean %r?)" % _shown_typed("https://%s/%s" % (host, rest) if slash else "https://%s/" % host)


def _scheme_shown(text: str, scheme: str) -> str:
    """What a refusal of ``text``'s scheme echoes: ``scheme:``, or, for a URL typed without its scheme
    whose user info ``urlsplit`` took for one (``token:x-oauth-basic@github.com/o/r``), the URL
    from its host on (:func:`_shown_typed`): the "scheme" was the token."""
    first = text.split("/", 1)[0]
    if "@" in first:
        return _shown_typed(text[len(first.rpartition("@")[0]) + 1 :])
    return scheme + ":"


def request_url(url: object) -> str:
    """``url`` in the request form (as ``requests`` will send it); ``InvalidInput(bad_url)``
    unless it is an http(s) URL with a host, at most :data:`MAX_URL_CHARS` long.

    The host is encoded by the library's rule (:func:`~..hostnames.ascii_host`: a host name
    it refuses is ``bad_url``, never looked up), the path and query percent-encoded, an empty path is ``/``,
    the scheme and host are lower case; the fragment stays (see :func:`page_key`). A backslash
    before the query is refused, with a browser's reading as a hint (:func:`browser_target`):
    a browser reads it as a slash, ``urlsplit`` as part of the host (``http://host\\path``: a
    host ``host\\path``) and ``requests`` as a path character (``/%5Cpath`` on ``host``), so no
    one reading could be checked and sent; the other odd forms a browser reads (``http:/host``,
    ``http:///host``) are refused alike (no host).
    """
    if type(url) is str and len(url) <= MAX_URL_CHARS:  # (a longer one is refused, or kept out of the memo)
        try:
            return _request_form(url)
        except _NotKept as answer:
            return answer.form
    if not isinstance(url, str):
        raise InvalidInput("url must be a string, got %s" % type(url).__name__, detail_code=BAD_URL)
    return _checked_request_form(url)


def bounded_request_url(url: object) -> str:
    """:func:`request_url` of a URL fetch sends (the one asked, each redirect's target), refused
    (:class:`UrlTooLong`) when the form it is sent in is over :data:`MAX_URL_CHARS`: percent-encoding
    makes a character up to 12, so 8,100 emoji in a ``Location`` (a page's choice, 8 KB as written)
    or in a search result's URL a model fetches were a 97 KB request, and the fetch's ``final_url``,
    shown twice in the tool's text (and again in the MCP server's structured copy), gave the model
    195,000 characters for a ``max_chars`` of 10."""
    form = request_url(url)
    if len(form) > MAX_URL_CHARS:
        raise UrlTooLong(
            "url is %d characters long once percent-encoded; the limit is %d" % (len(form), MAX_URL_CHARS),
            detail_code=BAD_URL,
        )
    return form


class _NotKept(Exception):
    """:func:`_request_form`'s answer when it is too long to keep (``lru_cache`` keeps no raise)."""

    def __init__(self, form: str) -> None:
        super().__init__()
        self.form = form


@functools.lru_cache(maxsize=256)
def _request_form(url: str) -> str:
    """:func:`request_url` of a plain ``str``, remembered for the last URLs asked: a pure
    function of the text (15 us, a fiftieth of a small page's fetch; asked again for every
    fetch of a page and for each hop's target). A refused URL is not remembered: its
    ``InvalidInput`` is made anew each time; nor is a request form longer than
    :data:`MAX_URL_CHARS` (percent-encoding makes a character up to 12, and a redirect target
    is the page's choice: 256 of them would hold 25 MB), raised as :class:`_NotKept`."""
    form = _checked_request_form(url)
    if len(form) > MAX_URL_CHARS:
        raise _NotKept(form)
    return form


def _checked_request_form(url: str) -> str:
    """:func:`request_url`'s work for a string ``url``."""
    text = url.strip()
    length = len(text)  # as given: the host's ASCII form below may be longer
    if not text:
        raise InvalidInput("url is empty", detail_code=BAD_URL)
    if URL_CONTROL_CHARS.search(text):
        raise InvalidInput("url contains control characters", detail_code=BAD_URL)
    _refuse_local_file(text)  # before the backslash's check: C:\\page.html is a Windows path, not a URL
    if "\\" in text[: query_start(text)]:
        raise InvalidInput(
            "url %r has a backslash before its query, which a browser reads as a slash (did you mean %r?)"
            % (_shown_typed(text), _shown_typed(browser_target(text, ""))),
            detail_code=BAD_URL,
        )
    try:
        parts = urlsplit(text)
        host, _port = parts.hostname, parts.port
    except ValueError as exc:
        raise _malformed(text, exc) from None
    if parts.scheme.lower() not in _HTTP_SCHEMES:
        hint = _with_scheme_hint(text) or _mistyped_scheme_hint(text, parts.scheme)
        raise InvalidInput(
            "only http and https URLs can be fetched, got %r%s"
            % (_scheme_shown(text, parts.scheme) if parts.scheme and not hint else _shown_typed(text), hint),
            detail_code=BAD_URL,
        )
    if not host:
        raise InvalidInput("url %r has no host%s" % (_shown_typed(text), _host_opened_hint(text)), detail_code=BAD_URL)
    if literal_address(host) is None:  # (an out-of-range numeric host is bad_url)
        try:  # a host name by the library's rule, refused before anything is sent, and encoded by it
            ascii_host(host)  # (an ASCII one too: xn--zz is no punycode)
            text = with_ascii_host(text)  # not by requests' own IDNA encoding
        except HostRefused as refused:
            raise InvalidInput(str(refused), detail_code=BAD_URL) from None
    if length > MAX_URL_CHARS:  # checked last: a longer URL refused for another reason says that one
        raise UrlTooLong("url is %d characters long; the limit is %d" % (length, MAX_URL_CHARS), detail_code=BAD_URL)
    import requests  # the URL as requests prepares it: loaded by the first URL checked, not with the module

    prepared = requests.models.PreparedRequest()
    try:
        prepared.prepare_url(text, None)
    except (requests.exceptions.RequestException, ValueError, UnicodeError) as exc:
        raise _malformed(text, exc) from None
    return str(prepared.url)


def _malformed(text: str, exc: Exception) -> InvalidInput:
    """``InvalidInput(bad_url)`` for ``text``, a URL its parser refused with ``exc``: the URL shown by
    :func:`_shown_typed`, and the parser's reason without the user info, query and fragment it may
    quote (requests' and urllib3's reasons can quote the whole URL)."""
    reason = str(exc)
    head, mark, tail = text.partition("?") if "?" in text.partition("#")[0] else text.partition("#")
    secrets = [mark + tail] if mark else []
    authority = _typed_authority(_typed_scheme(head)[2])  # as _shown_typed reads it
    scheme, colon, rest = _typed_scheme(text)
    after = rest.lstrip("/\\")
    if "@" in after and "@" not in authority:  # a '?', '#' or '/' ended the authority before an '@': a
        # password holding one, unencoded, read as the host and port (the parser's reason quotes it as the port)
        shown = _shown_typed(scheme + colon + rest[: len(rest) - len(after)] + after.rpartition("@")[2])
        return InvalidInput(
            "malformed url %r: the text before its last '@' is not shown: user info, whose '?', '#' or '/' "
            "must be percent-encoded (%%3F, %%23, %%2F), else they end the host" % shown,
            detail_code=BAD_URL,
        )
    if "@" in authority:
        secrets.append(authority.rpartition("@")[0] + "@")
    for secret in secrets:
        reason = reason.replace(secret, "")
    return InvalidInput("malformed url %r: %s" % (_shown_typed(text), reason), detail_code=BAD_URL)


def http_url(url: str) -> str:
    """``url`` unchanged when it is an http(s) URL with a host the host-name rule takes and a
    valid port, else ``InvalidInput(bad_url)`` (or ``ValueError`` from parsing a malformed one).

    The check of a search redirect target: search sends what its endpoint answered, so
    the target is not rewritten (fetch uses the stricter :func:`request_url`). The rule is
    checked here, not first by the address guard: a refused host is then the hop's
    ``bad_redirect``, not the caller's ``bad_url``.
    """
    parts = urlsplit(url)
    if parts.scheme.lower() not in _HTTP_SCHEMES or not parts.hostname:
        raise InvalidInput("not an http(s) URL with a host", detail_code=BAD_URL)
    parts.port  # noqa: B018 - raises ValueError for a port out of range
    try:
        ascii_host(parts.hostname)
    except HostRefused as refused:
        raise InvalidInput(str(refused), detail_code=BAD_URL) from None
    return url


#: The response headers whose value holds a URL a browser may go to.
URL_HEADERS = ("Location", "Refresh")


def header_url(value: str) -> str:
    """A URL header's value (:data:`URL_HEADERS`) as a browser reads it: both wires hand a header's
    bytes over as Latin-1 characters, and a browser reads a URL's bytes as UTF-8, so one sent with
    raw UTF-8 in it (``/é``, as many servers send it) was requested as mojibake (``/%C3%83%C2%A9``);
    bytes that are no UTF-8 stay as they came (as ``requests`` reads its own redirects)."""
    if value.isascii():
        return value
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return value


def page_key(url: str) -> str:
    """The document a request for ``url`` (request form) gets: ``url`` without its fragment.

    The fragment is never sent, so ``/a#x`` and ``/a#y`` are one request: one cache entry
    and, when a redirect leads from one to the other, a loop. Everything else counts as it
    is sent, user info included (``user:PW`` and ``user:pw`` are different credentials).
    """
    return url.split("#", 1)[0]


def host_token(url: str, default: str = "another site") -> str:
    """The host of ``url`` as an error message may name it when a page chose the URL, else
    ``default``: only host-name characters (IDNA-encoded) or an IP literal, never a path,
    a query or free text (an error line reaches a model outside the untrusted-content block)."""
    try:
        host = ascii_host(urlsplit(url).hostname or "")
    except (ValueError, HostRefused):
        return default
    return host if _HOST_TOKEN.fullmatch(host) else default


def origin_of(parts: SplitResult) -> Optional[tuple[str, str, Optional[int]]]:
    """``(scheme, host, port)`` of ``parts`` as one origin: the scheme and host in lower case (a
    trailing dot kept: ``api.test.`` is another origin, as to a browser, and may be another host
    under DNS search domains), an IDN host as its punycode by the library's host-name rule
    (:func:`~..hostnames.ascii_host`: ``bücher.example`` is ``xn--bcher-kva.example``, and
    ``straße.de`` is ``xn--strae-oqa.de``, not ``strasse.de`` as Python's IDNA 2003 codec wrote
    it, another domain), the scheme's default port as no port; ``None`` without a host or with a
    port or host that does not parse. The one key both origin tests compare."""
    try:
        host = ascii_host(parts.hostname or "")
        port = _port(parts)
    except (ValueError, HostRefused):
        return None
    scheme = parts.scheme.lower()
    if not host:
        return None
    return scheme, host, None if port == DEFAULT_PORTS.get(scheme) else port


def same_origin(origin: SplitResult, parts: SplitResult, upgrade: bool = True) -> bool:
    """True when ``parts`` is on ``origin``'s origin (:func:`origin_of`), or, with ``upgrade``,
    the same host on the default ports moved from http to https: where a redirect's credentials
    may go along. Without ``upgrade``: the same origin exactly (where a page's form may post)."""
    start, target = origin_of(origin), origin_of(parts)
    if start is None or target is None:
        return False
    if start == target:
        return True
    return upgrade and start == ("http", target[1], None) and target == ("https", target[1], None)


@remembered(maxsize=1024, max_chars=2048)  # with the split parts, 1024 entries of 2 KB hold 4 MB
def url_parts(url: str) -> Optional[tuple[SplitResult, str]]:
    """``(urlsplit(url), its lower-case host)``, or ``None`` for a malformed URL (``http://[::1``):
    engines' markup holds such links, and one must not end the reading of a page. Remembered
    for the last URLs asked: a parser and its filters ask about each result link several times."""
    try:
        parts = urlsplit(url)
        return parts, (parts.hostname or "").lower()
    except ValueError:
        return None


#: Python's ``unicode_escape`` decoder (``codecs``' function: what ``bytes.decode("unicode_escape")``
#: finds after looking the codec up by its name, strict).
_unicode_escape_decode = codecs.unicode_escape_decode


def percent_decoded(text: str) -> str:
    """``urllib.parse.unquote(text)`` (UTF-8, a malformed sequence read as U+FFFD), in C where
    ``text`` is ASCII: an engine's redirect link carries its target URL encoded, and ``unquote``
    reads each escape in a Python loop (10 result links: 20 -> 7 us). Each ``%`` is written as the
    ``\\x`` of Python's ``unicode_escape`` codec (a backslash of ``text`` doubled first, so that
    it stays one), which reads every ``%XX`` as the byte ``XX`` once, as ``unquote_to_bytes``
    does; those bytes are then read as UTF-8 as ``unquote`` reads them. A ``%`` not followed by
    two hex digits is an error of the codec: that text, and one not ASCII, is left to ``unquote``
    (which keeps such a ``%`` and reads the ASCII runs apart)."""
    if "%" not in text:
        return text
    if text.isascii():
        escaped = text.replace("\\", "\\\\") if "\\" in text else text
        try:
            # the codec's function called directly: bytes.decode("unicode_escape") looks the codec up by name first
            return (
                _unicode_escape_decode(escaped.replace("%", "\\x").encode("ascii"))[0]
                .encode("latin-1")
                .decode("utf-8", "replace")
            )
        except UnicodeDecodeError:  # a "%" without two hex digits after it
            pass
    return unquote(text)


def host_in(url: str, domain: str) -> bool:
    """True when ``url``'s host is ``domain`` or below it (``False`` for a malformed URL).

    A whole label must match: ``notbaidu.com`` is not in ``baidu.com``.
    """
    parsed = url_parts(url)
    host = parsed[1] if parsed is not None else ""
    return host == domain or host.endswith("." + domain)
