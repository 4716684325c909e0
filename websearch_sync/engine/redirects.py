"""Client-side redirects, read once, as a browser reads them: where an HTML answer sends
the browser without a new click (``<meta http-equiv="refresh">``, ``location.replace(...)``).

One reader for fetch (``reader.refresh`` decides which of them a fetch follows) and for
Baidu's ``/link?url=`` resolution (which takes any of them: each names the result).

What a browser with scripting on acts on is an HTTP ``Refresh`` header (the same declaration,
read when the document is created, so before any tag), else the first
``<meta http-equiv="refresh">`` of the markup it parses whose ``content`` is a valid declaration (``engine.declarative``: the HTML
standard's shared declarative refresh steps; a declaration it ignores, ``1e3;url=/x``, does
not stop a later one), its URL resolved against the page's first ``<base href>`` before it,
else the page's address (an unparsable URL, or a ``javascript:`` one, is ignored too). It
never sees one inside a comment (IE conditional comments ``<!--[if lt IE 9]>…<![endif]-->``
are comments to every other browser) or inside ``<noscript>`` (raw text when scripts run);
the first ``<noscript>`` refresh is where a browser without scripts goes. A script redirect
(``location.replace(...)``, ``location.href = ...``) is read only on a near-empty stub
(Baidu's ``/link?url=`` pages), never on a real article, and only outside comments and
``<noscript>``. Only the first 64 KB of the page are read (the ``<head>`` and the start of
the body): the reading is bounded whatever the page's size.
"""

import re
from dataclasses import dataclass
from typing import Optional
from urllib.parse import urlsplit, urlunsplit

from ..errors import InvalidInput
from ..extract.article import visible_text
from ..net.media import content_kind
from ..net.response import HttpResponse
from ..net.urls import DEFAULT_PORTS, browser_join, page_key, request_url
from .declarative import declarative_refresh, start_tags

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A page that redirects with JavaScript is followed only when it is this small and shows little text.
_STUB_BYTES = 32768
_STUB_TEXT_CHARS = 300
#: How much of the page is read for redirects (the ``<head>`` and the start of the body).
SCAN_CHARS = 65536

#: What the URL parser strips from both ends of a URL (C0 controls and space) and removes inside (tab, newline).
_URL_EDGES = "".join(map(chr, range(0x21)))
_URL_INSIDE = str.maketrans("", "", "\t\n\r")
_JS_REDIRECT = re.compile(
    r"location(?:\.replace\(\s*|\.assign\(\s*|\.href\s*=\s*|\s*=\s*)"
    r"(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')"
)
#: The literal every :data:`_JS_REDIRECT` match holds: a page without it is not searched with the
#: pattern (fetch looks at every page it reads).
_JS_LOCATION = "location"
#: What the markup of a refresh tag holds (in ASCII lower case, as tags' attribute names are read):
#: an ``http-equiv`` attribute whose value opens with ``r`` or with a character reference (``&#114;``,
#: ``&#x52``: no named reference stands for an ASCII letter, and the tag walk folds case in ASCII
#: only, as the standard does), as the tag walk reads a value: after the name, whitespace, ``=``,
#: whitespace and a quote or none (:func:`~.declarative.tag_attributes`). A page without one is not
#: walked tag by tag: an ``http-equiv`` that is a ``Content-Type`` or ``X-UA-Compatible`` one, beside
#: a script's ``autoRefresh`` setting, took a walk over every ``<meta>`` (a twelfth of a 50 KB
#: page's fetch). Its literal start makes the search a scan for it; each match's tail is bounded by
#: the whitespace after it (linear).
_REFRESH_ATTRIBUTE = re.compile(r"http-equiv[\t\n\x0c\r ]*=[\t\n\x0c\r ]*[\"']?[r&]")
#: What may stand before ``location``: nothing word-like, or one of these objects.
_JS_OWNER = re.compile(r"(?:^|[^\w$.])(?:(?:window|document|top|self)\.)?$")
_JS_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))", re.S)

#: Markup a browser with scripting on never acts on: (opener, closer), lower case.
_UNSEEN = (("<!--", "-->"), ("<noscript", "</noscript"))


@dataclass(frozen=True)
class Refresh:
    """A meta refresh: its absolute ``target`` (the page itself for a reload) and its ``delay_s``."""

    target: str
    delay_s: float

    def reloads(self, page_url: str) -> bool:
        """Whether it loads ``page_url`` again (:func:`same_document`) rather than leaving it."""
        return same_document(self.target, page_url)


@dataclass(frozen=True)
class ClientRedirects:
    """The client-side redirects of one page (see the module docstring)."""

    #: The refresh a browser with scripts on acts on (``target``: the page itself for a reload).
    refresh: Optional[Refresh] = None
    #: The first refresh inside ``<noscript>``: where a browser without scripts goes.
    noscript: Optional[Refresh] = None
    #: A near-empty stub's script redirect.
    script: Optional[str] = None

    def targets(self, page_url: str) -> list[str]:
        """Every target that leaves ``page_url`` (reloads left out), in the order a browser with
        scripts on acts on them: the refresh, the script, then the ``<noscript>`` refresh."""
        found = [
            self.refresh.target if self.refresh is not None else None,
            self.script,
            self.noscript.target if self.noscript is not None else None,
        ]
        return [url for url in found if url and not same_document(url, page_url)]


def same_document(target: str, page_url: str) -> bool:
    """Whether a client-side redirect to ``target`` loads ``page_url`` again, a reload rather
    than a redirect: the same address once both are in the form a request sends (scheme and
    host in lower case, dot segments resolved, percent-encoding as sent, the default port left
    out), fragments aside. Compared as written, a refresh to ``HTTP://Host/page`` or to
    ``/./page`` was followed to the page itself, which the hop loop then refused as a redirect
    loop, and a page that only refreshes itself was said to need JavaScript."""
    return target == page_url or _document(target) == _document(page_url)


def _document(url: str) -> str:
    """``url`` in the form :func:`same_document` compares (as it is when no request can take it)."""
    try:
        parts = urlsplit(request_url(url))
        default = parts.port is not None and parts.port == DEFAULT_PORTS.get(parts.scheme)
    except (InvalidInput, ValueError):
        return page_key(url)
    netloc = parts.netloc.rpartition(":")[0] if default else parts.netloc
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))


def _ascii_lower(text: str) -> str:
    """``text`` lower-cased in ASCII, every other character as ``?``: the same length, so
    positions carry over (``str.lower`` can change the length)."""
    return text.encode("ascii", "replace").lower().decode("ascii")


def _spans(lowered: str, pairs: tuple[tuple[str, str], ...]) -> list[tuple[int, int, str]]:
    """(start, end, opener) of every block of ``pairs`` in ``lowered``, outermost first and
    not nested (an unclosed block runs to the end). Linear: each opener's next position is
    searched again only once the scan has passed it."""
    spans: list[tuple[int, int, str]] = []
    position = 0
    nexts = {opener: lowered.find(opener) for opener, _ in pairs}
    closers = dict(pairs)
    while True:
        for opener, found in nexts.items():
            if 0 <= found < position:
                nexts[opener] = lowered.find(opener, position)
        live = [(found, opener) for opener, found in nexts.items() if found >= 0]
        if not live:
            return spans
        start, opener = min(live)
        end = lowered.find(closers[opener], start + len(opener))
        end = len(lowered) if end < 0 else end + len(closers[opener])
        spans.append((start, end, opener))
        position = end


def _refresh(content: str, base_url: str, page_url: str) -> Optional[Refresh]:
    """The refresh a meta refresh's ``content`` asks for, its URL parsed against ``base_url``
    (``page_url`` when it names none: the steps' "document's URL"); None when a browser ignores it: no valid declaration, a URL the parser refuses
    (``http://[::1``), or a ``javascript:`` URL (the standard's steps; Chromium: "Refused to
    refresh ... to a javascript: URL")."""
    parsed = declarative_refresh(content) if content else None
    if parsed is None:
        return None
    delay, url = parsed
    if url is None:  # no URL: the document's own address (not the base URL, which may be elsewhere)
        return Refresh(page_url, delay)
    url = url.strip(_URL_EDGES).translate(_URL_INSIDE)
    try:
        target = browser_join(base_url, url)
        scheme = urlsplit(target).scheme
    except ValueError:
        return None
    return None if scheme.lower() == "javascript" else Refresh(target, delay)


def _base_url(href: str, page_url: str) -> str:
    """What a ``<base href>`` makes the page's base URL (the page's own when it does not parse)."""
    try:
        return browser_join(page_url, href.strip(_URL_EDGES).translate(_URL_INSIDE))
    except ValueError:
        return page_url


def _unescape_js(literal: str) -> str:
    def replace(match: "re.Match[str]") -> str:
        if match.group(1):
            return chr(int(match.group(1), 16))
        if match.group(2):
            return chr(int(match.group(2), 16))
        return match.group(3)

    return _JS_ESCAPE.sub(replace, literal[1:-1])


def _without(markup: str, spans: list[tuple[int, int]]) -> str:
    """``markup`` with ``spans`` (in order, possibly nested or overlapping) blanked."""
    kept: list[str] = []
    position = 0
    for start, end in spans:
        if start >= position:
            kept.append(markup[position:start])
        position = max(position, end)
    kept.append(markup[position:])
    return " ".join(kept)


def _may_script(response: HttpResponse, markup: str) -> bool:
    """Whether the page may be a stub with a script redirect: small, and naming ``location``."""
    return len(response.content) <= _STUB_BYTES and _JS_LOCATION in markup


def _may_refresh(lowered: str) -> bool:
    """Whether the page's markup (its first :data:`SCAN_CHARS`, in ASCII lower case) may hold a
    refresh tag (:data:`_REFRESH_ATTRIBUTE`)."""
    return _REFRESH_ATTRIBUTE.search(lowered) is not None


def _script_target(response: HttpResponse, markup: str, hidden: list[tuple[int, int]]) -> Optional[str]:
    """A near-empty stub's script redirect, absolute, read in the markup a browser runs
    (``hidden``: comments, ``<noscript>`` blocks and meta refresh tags), on a page that may
    have one (:func:`_may_script`)."""
    seen = _without(markup, hidden)
    for match in _JS_REDIRECT.finditer(seen):
        if _JS_OWNER.search(seen[max(0, match.start() - 12) : match.start()]):
            target = _unescape_js(match.group(1)).strip()
            if not target or len(visible_text(response.text)) >= _STUB_TEXT_CHARS:  # a stub: at most 32 KB
                return None
            try:
                return browser_join(response.url, target)
            except ValueError:  # malformed: the caller refuses it as it is
                return target
    return None


def _refresh_tags(
    markup: str, unseen: list[tuple[int, int, str]], page_url: str
) -> tuple[Optional[Refresh], Optional[Refresh], list[tuple[int, int]]]:
    """The refresh a browser with scripts on acts on, the first ``<noscript>`` one, and the
    spans of every refresh tag, in one pass over the tags and the ``unseen`` blocks (both in
    document order)."""
    found: dict[Optional[str], Refresh] = {}
    spans: list[tuple[int, int]] = []
    base: Optional[str] = None
    block_index = 0
    for start, end, name, attributes in start_tags(markup):
        while block_index < len(unseen) and unseen[block_index][1] <= start:
            block_index += 1
        inside = block_index < len(unseen) and unseen[block_index][0] <= start
        block = unseen[block_index][2] if inside else None
        if name == "base":
            if block is None and base is None and "href" in attributes:
                base = _base_url(attributes["href"], page_url)
        elif _ascii_lower(attributes.get("http-equiv", "")) == "refresh":  # ASCII case-insensitively, as the standard
            spans.append((start, end))
            if block in (None, "<noscript") and block not in found:
                refresh = _refresh(attributes.get("content", ""), base or page_url, page_url)
                if refresh is not None:
                    found[block] = refresh
    return found.get(None), found.get("<noscript"), spans


def client_redirects(response: HttpResponse) -> ClientRedirects:
    """The client-side redirects of a 2xx HTML answer (none for anything else); see the module docstring."""
    if content_kind(response) != "html" or not (200 <= response.status < 300):
        return ClientRedirects()
    markup = response.text[:SCAN_CHARS]
    lowered = _ascii_lower(markup)
    may_refresh, may_script = _may_refresh(lowered), _may_script(response, markup)
    unseen = _spans(lowered, _UNSEEN) if may_refresh or may_script else []  # (comments: a walk of their own)
    acted, noscript, tags = _refresh_tags(markup, unseen, response.url) if may_refresh else (None, None, [])
    header = response.headers.get("Refresh")
    declared = _refresh(header, response.url, response.url) if header else None
    if declared is not None:  # read when the document is created, before any tag of it
        acted = declared
    hidden = sorted([(start, end) for start, end, _ in unseen] + tags)
    script = _script_target(response, markup, hidden) if may_script else None
    return ClientRedirects(acted, noscript, script)
