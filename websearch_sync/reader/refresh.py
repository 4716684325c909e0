"""Meta refresh as a browser acts on it, for fetch's redirect loop.

A browser with scripting on acts on the first ``<meta http-equiv="refresh">`` of the
markup it parses. It never sees one inside a comment (IE conditional comments
``<!--[if lt IE 9]>…<![endif]-->`` are comments to every other browser) or inside
``<noscript>`` (raw text when scripts run), so fetch never follows those. A redirect stub
that carries its target twice, in a script for browsers with scripts and in a noscript
refresh for the others (Baidu's ``/link?url=`` pages), is followed through its script
(``engine.redirects``: ``location.replace(...)`` on a near-empty page); when no script
redirect can be read, the stub is read as it is and the noscript target is remembered
(``RefreshChain.unfollowed``) so that fetch can name it to the caller. When the target
cannot be loaded, the reader is left with the page that carried the refresh, so fetch
returns that page instead of the target's error.

Where the line between a redirect and content lies: a refresh within
``REDIRECT_DELAY_S`` (1 s) is a redirect: 0 is the instant redirect of WCAG technique
H76 and redirect stubs write 0 or 1. A longer delay is given so that the page is read
first: a page with text (an article that reloads itself, a news front page that
refreshes every few minutes) is content and is not left. Only a notice with almost no
text ("You will be redirected in 5 seconds", under ``NOTICE_TEXT_CHARS`` readable
characters) is followed, up to ``NOTICE_DELAY_S`` (10 s); beyond that a refresh is a
reload timer.
"""

import html
import re
from dataclasses import dataclass, replace
from typing import Optional
from urllib.parse import urljoin

from ..engine.redirects import _CONTENT_ATTR, _META_REFRESH, client_redirect  # one reading of the tag for both
from ..extract.article import visible_text
from ..net.media import content_kind
from ..net.transport import HttpResponse
from ..net.urls import page_key

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A refresh within this many seconds is a redirect from any page.
REDIRECT_DELAY_S = 1.0
#: A slower refresh is followed only from a notice page (less readable text than
#: ``NOTICE_TEXT_CHARS``), and only within this many seconds.
NOTICE_DELAY_S = 10.0
NOTICE_TEXT_CHARS = 300
#: How much of the page is searched for a refresh (the ``<head>`` and the start of the body).
_SCAN_CHARS = 65536

#: Markup a browser with scripting on never acts on: (opener, closer), lower case.
_UNSEEN = (("<!--", "-->"), ("<noscript", "</noscript"))


@dataclass(frozen=True)
class Refresh:
    """A meta refresh: its absolute ``target`` and its ``delay_s``."""

    target: str
    delay_s: float


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


def _delay_and_url(value: str) -> Optional[tuple[float, str]]:
    """(delay in seconds, URL) of a refresh's ``content`` as the HTML standard's declarative
    refresh steps read it; None when it has no time or no URL (a reload of the same page)."""
    value = value.strip()
    digits = len(value) - len(value.lstrip("0123456789"))
    if not digits and not value.startswith("."):
        return None
    delay = float(value[:digits] or 0)
    rest = value[digits:].lstrip("0123456789.").lstrip()
    if rest[:1] in (";", ","):
        rest = rest[1:].lstrip()
    if rest[:3].lower() == "url":
        after = rest[3:].lstrip()
        if after.startswith("="):
            rest = after[1:].lstrip()
    if rest[:1] in ("'", '"'):
        quote, rest = rest[0], rest[1:]
        rest = rest.split(quote, 1)[0]
    rest = rest.strip()
    return (delay, rest) if rest else None


def _refresh(tag: str, base_url: str) -> Optional[Refresh]:
    """The refresh a ``<meta http-equiv=refresh>`` tag asks for; None without a URL (a reload)."""
    content = _CONTENT_ATTR.search(tag)
    parsed = _delay_and_url(html.unescape(content.group(1).strip("\"'"))) if content else None
    if parsed is None:
        return None
    try:
        target = urljoin(base_url, parsed[1])
    except ValueError:  # malformed (``http://[::1``): the redirect policy refuses it as it is
        target = parsed[1]
    return Refresh(target, parsed[0])


def meta_refreshes(response: HttpResponse) -> tuple[Optional[Refresh], Optional[Refresh]]:
    """(the refresh a browser with scripts on acts on: the first outside comments and
    ``<noscript>``; the first inside ``<noscript>``) of a 2xx HTML page. Either is None when
    there is no such tag or it has no URL (a browser acts on the first: a reload)."""
    if content_kind(response) != "html" or not (200 <= response.status < 300):
        return None, None
    markup = response.text[:_SCAN_CHARS]
    unseen = _spans(_ascii_lower(markup), _UNSEEN)
    acted: Optional[Refresh] = None
    noscript: Optional[Refresh] = None
    seen_acted = seen_noscript = False
    for tag in _META_REFRESH.finditer(markup):
        block = next((opener for start, end, opener in unseen if start <= tag.start() < end), None)
        if block is None and not seen_acted:
            acted, seen_acted = _refresh(tag.group(0), response.url), True
        elif block == "<noscript" and not seen_noscript:
            noscript, seen_noscript = _refresh(tag.group(0), response.url), True
        if seen_acted and seen_noscript:
            break
    return acted, noscript


def _without(markup: str, pattern: "re.Pattern[str]") -> str:
    """``markup`` with comments, ``<noscript>`` blocks and matches of ``pattern`` blanked."""
    kept: list[str] = []
    position = 0
    for start, end, _ in _spans(_ascii_lower(markup), _UNSEEN):
        kept.append(pattern.sub(" ", markup[position:start]))
        position = end
    kept.append(pattern.sub(" ", markup[position:]))
    return " ".join(kept)


class RefreshChain:
    """What fetch follows from one page to the next, as a browser would; the last page
    whose meta refresh it followed (``carrier``: what a reader is left with when the
    refresh target fails); and the ``<noscript>`` refresh target of the last page read when
    nothing on that page was followed (``unfollowed``: where a browser without scripts
    would go, for fetch to name when the page has nothing to read)."""

    def __init__(self) -> None:
        self.carrier: Optional[HttpResponse] = None
        self.unfollowed: Optional[str] = None

    def client_redirect(self, response: HttpResponse) -> Optional[str]:
        """Where a 2xx HTML page sends the browser: a meta refresh it acts on (module
        docstring), else a script redirect of a near-empty stub (``engine.redirects``, asked
        about the markup a browser runs: no comments, no ``<noscript>``)."""
        self.unfollowed = None
        if content_kind(response) != "html":
            return None
        refresh, noscript = meta_refreshes(response)
        if refresh is not None:
            target = self._followed(refresh, response)
            if target is not None:
                return target
        else:
            # engine.redirects reads the first 64 KB only (and a stub's whole text, which is shorter)
            script = client_redirect(replace(response, _text=_without(response.text[:_SCAN_CHARS], _META_REFRESH)))
            if script is not None:
                return script
        if noscript is not None and not _same_page(noscript.target, response.url):
            self.unfollowed = noscript.target
        return None

    def _followed(self, refresh: Refresh, response: HttpResponse) -> Optional[str]:
        """``refresh``'s target when a browser follows it from ``response`` (module docstring)."""
        if _same_page(refresh.target, response.url):
            return None
        readable = visible_text(response.text)
        if refresh.delay_s > REDIRECT_DELAY_S and (
            refresh.delay_s > NOTICE_DELAY_S or len(readable) >= NOTICE_TEXT_CHARS
        ):
            return None
        if readable.strip():
            self.carrier = response
        return refresh.target

    def settle(self, response: HttpResponse) -> HttpResponse:
        """``response``, or the page whose refresh led to it when it is an error (4xx, 5xx)."""
        if response.status >= 400 and self.carrier is not None:
            return self.carrier
        return response


def _same_page(target: str, url: str) -> bool:
    """Whether ``target`` is ``url`` (fragments aside): a refresh to it only reloads."""
    return page_key(target) == page_key(url)
