"""Recognising bot walls (captcha / "are you a robot" pages) in any answer.

A :class:`BotWall` says how one wall is recognised: markers in the body (cheap
substring hints first, then structural patterns), or the address of the answer or of
its redirect. Each search engine declares its own walls (``Backend.bot_walls``, from
its recorded blocked pages); this module names no engine. Search and fetch hand every
wall the registry knows to :func:`bot_wall_error`, so they agree on what a wall is.
One generic wall is read from a header, not the body: Cloudflare's challenge ("Just a
moment..."), in front of any site, carries ``cf-mitigated: challenge`` (its documented marker);
without it, its page is recognised by its title and its ``<noscript>`` words together
(:data:`CLOUDFLARE_CHALLENGE`).
"""

import dataclasses
import logging
import re
from collections.abc import Iterable
from re import Pattern
from typing import Callable, Optional, cast
from urllib.parse import urlsplit

from ..errors import CAPTCHA_REQUIRED, WebBlocked
from .status import retry_after_header, status_error
from .transport import HttpResponse
from .urls import browser_join, shown_url

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

#: How much of a page is scanned by default: a results-page shell can put its captcha box
#: ~190 KB in (a recorded 341 KB Turnstile page), a page with inline scripts further.
SCAN_CHARS = 500_000


@dataclasses.dataclass(frozen=True)
class BotWall:
    """One bot wall and how to recognise it.

    ``hints``: substrings of which at least one must be in the scanned text before the
    patterns run (a test of a few microseconds where a pattern without a literal start, such
    as an alternation, costs ~0.3 ms on a results page, and one starting with a common literal
    such as ``<div class=`` still ~0.02 ms: a page is checked against many walls);
    ``patterns``: regexes that must all match (each
    linear on any page), tried in order; ``scan_chars``: how much of the body is looked
    at; ``address``: a test that the answer's URL or its redirect target is the wall's
    own page. A wall with neither hints nor patterns is recognised by ``address`` only; one with none
    of the three is a ``TypeError``.
    Markers should start at a tag's ``<`` or sit inside an attribute: a query echoed
    into a results page is HTML-escaped and cannot produce them.
    """

    name: str
    hints: tuple[str, ...] = ()
    patterns: tuple[Pattern[str], ...] = ()
    scan_chars: int = SCAN_CHARS
    address: Optional[Callable[[str], bool]] = None

    def __post_init__(self) -> None:
        """``TypeError`` for a field of the wrong kind, when the wall is declared: it is tried
        on every answer of every search and fetch, where it would fail all of them."""
        problem = None
        if not (isinstance(self.hints, (tuple, list)) and all(isinstance(hint, str) for hint in self.hints)):
            problem = "hints must be strings, got %r" % (self.hints,)
        elif not (
            isinstance(self.patterns, (tuple, list))
            and all(callable(getattr(p, "search", None)) for p in self.patterns)
        ):
            problem = "patterns must be compiled regular expressions (re.compile), got %r" % (self.patterns,)
        elif self.address is not None and not callable(self.address):
            problem = "address must be a function of the URL, got %r" % (self.address,)
        elif not (self.hints or self.patterns or self.address):  # else a wall never recognised, without a word
            problem = (
                "it recognises nothing: give hints (substrings of the wall's page, hints=('class=\"captcha',)),"
                " patterns (re.compile) or an address test (its name is only what errors call it)"
            )
        if problem is not None:
            raise TypeError("BotWall %r: %s" % (self.name, problem))

    def is_at(self, url: Optional[str]) -> bool:
        """True when ``url`` is this wall's own address. A test that raises (a plugin's defect)
        is logged and counts as no match: it must not fail every search and fetch."""
        if not url or self.address is None:
            return False
        try:
            return bool(self.address(url))
        except Exception:  # a third party's test: logged loudly, never the end of other backends' calls
            logger.error(
                "bot wall %r: its address test failed on %s; skipped", self.name, shown_url(url), exc_info=True
            )
            return False

    def is_in(self, text: str) -> bool:
        """True when ``text`` (a decoded body) is this wall."""
        if not (self.hints or self.patterns):
            return False
        end = self.scan_chars  # searched up to it in place: a slice copied up to 500,000 characters per wall
        if self.hints:
            for hint in self.hints:  # a loop, not any() over a generator: every answer meets every wall
                if text.find(hint, 0, end) >= 0:
                    break
            else:
                return False
        return all(pattern.search(text, 0, end) for pattern in self.patterns)


def bot_wall(
    url: str,
    text: str,
    walls: Iterable[BotWall],
    location: Optional[str] = None,
    scanned: Optional[Iterable[BotWall]] = None,
) -> Optional[str]:
    """The name of the first of ``walls`` this answer is, or ``None``.

    ``url`` is where the answer came from, ``text`` its decoded body, ``location`` its
    ``Location`` header (a redirect to a captcha page is a wall too; a relative one, which
    HTTP allows, is read against ``url``). Every wall's address
    is compared; the body is scanned for the markers of ``scanned`` (default: all of
    ``walls``): each wall's scan reads the whole page, the address test costs nothing."""
    walls = tuple(walls)
    if location and url:
        location = _absolute(url, location)
    for wall in walls:
        if wall.address is not None and (wall.is_at(location) or wall.is_at(url)):  # (no test: no call)
            return wall.name
    for wall in walls if scanned is None else scanned:
        if wall.is_in(text):
            return wall.name
    return None


def _absolute(url: str, location: str) -> str:
    """``location`` read against ``url`` as a browser and the hop loop read it
    (:func:`~.urls.browser_target`); as it is when it cannot be (``http://[::1``: the walls'
    address tests then see the malformed text, which is no wall's address)."""
    try:
        return browser_join(url, location)
    except ValueError:
        return location


#: Cloudflare's challenge page in front of any site, its ``cf-mitigated`` header dropped (a proxy, a cache
#: serving it with a 200): its title and the words of its ``<noscript>`` together, near its start. Neither
#: alone: a page may be titled "Just a moment..." and an article may quote the words; a query echoed into a
#: results page cannot write the title's tag.
_CLOUDFLARE_NOSCRIPT_WORDS = re.compile(r"Enable JavaScript and cookies to continue")
CLOUDFLARE_CHALLENGE = BotWall(
    "Cloudflare challenge ('Just a moment...')",
    hints=("<title>Just a moment...</title>",),
    patterns=(_CLOUDFLARE_NOSCRIPT_WORDS,),
    scan_chars=65_536,
)

#: The media types whose bodies may be a bot wall.
_SCANNED = frozenset(
    ("", "text/html", "application/xhtml+xml", "text/plain")
    + ("application/javascript", "application/x-javascript", "text/javascript")
)
#: What a JSON document an API answers with starts with (an object or an array), after JSON's whitespace.
_JSON_OPENERS = (b"[", b"{")
_JSON_WHITESPACE = b" \t\r\n"


def _scanned(response: HttpResponse) -> bool:
    """Whether ``response``'s body may be a wall: an HTML-ish or script body, or one labelled JSON
    that does not start like JSON (a block script from an endpoint whose answers are JSON: its
    label is the endpoint's, its body the wall's)."""
    content_type = response.content_type
    if content_type in _SCANNED:
        return True
    is_json = content_type == "application/json" or content_type.endswith("+json")
    return is_json and response.content.lstrip(_JSON_WHITESPACE)[:1] not in _JSON_OPENERS


def bot_wall_error(
    response: HttpResponse,
    provider: Optional[str],
    walls: Iterable[BotWall] = (),
    scanned: Optional[Iterable[BotWall]] = None,
) -> Optional[WebBlocked]:
    """``WebBlocked(captcha_required)`` when ``response`` is one of ``walls`` or a generic wall, else ``None``.

    Only HTML-ish and script bodies are scanned, and a body labelled JSON that is no JSON object
    or array (JSON answers and binaries never are): a service answering its page's script
    requests may block with a script. ``scanned``: the walls whose
    markers the body is scanned for (default: all of ``walls``; see :func:`bot_wall`).
    A wall sent with ``Retry-After`` (a 429 or 503 wall page) keeps that wait in ``retry_after``:
    the cool-down of the block is the service's word, as for any 429 (not the default of its kind),
    unless it says to ask again at once (``0``, a date gone by): that would only meet the wall again.
    A short page saying only "Too Many Requests" is the rate limit it says, whatever its status
    (:func:`_rate_limit_page`): ``WebBlocked(http_429)``.
    """
    scans = _scanned(response)
    name = bot_wall(response.url, response.text if scans else "", walls, response.location, scanned)
    if name is None and (response.headers.get("cf-mitigated") or "").strip().lower() == "challenge":
        name = CLOUDFLARE_CHALLENGE.name
    if name is None and scans and CLOUDFLARE_CHALLENGE.is_in(response.text):
        name = CLOUDFLARE_CHALLENGE.name
    if name is None:
        return _rate_limit_page(response, provider) if scans else None
    host = urlsplit(response.url).hostname or "the site"
    return WebBlocked(
        "%s answered with a bot wall (%s); a human would have to solve a captcha" % (host, name),
        provider=provider,
        detail_code=CAPTCHA_REQUIRED,
        status=response.status,
        retry_after=retry_after_header(response.headers) or None,  # 0: asked again now, the wall again
    )


#: The longest body read as a bare rate-limit page: nginx's is 162 bytes, Werkzeug's (SearXNG's Flask) 262;
#: a results page or an article is far longer, and is not read as one.
_LIMIT_PAGE_MAX = 1024
#: What a rate-limit page says, all of it (a plain-text body) or in its title: HTTP 429's reason phrase.
_LIMIT_WORDS = ("too many requests", "429 too many requests")


def _rate_limit_page(response: HttpResponse, provider: Optional[str]) -> Optional[WebBlocked]:
    """``WebBlocked(http_429)`` when ``response`` is a short page saying only "Too Many Requests" (a
    plain-text body, SearXNG's limiter's; or an HTML page titled so, nginx's and Werkzeug's 429 pages)
    under another status than 429: a proxy or cache in front of a service may serve it with a 200, where
    it was read as a results page that does not parse (no cool-down, the next call sent at once). It is
    the 429 it says (:func:`~.status.status_error`'s, its wait read), its message naming the status."""
    if response.status == 429 or len(response.content) > _LIMIT_PAGE_MAX:
        return None  # a 429 is read by its status
    lowered = response.text.lower()
    start = lowered.find("<title>")
    if start >= 0:
        said = lowered[start + len("<title>") : lowered.find("</title>", start)]
    else:
        said = "" if "<" in lowered else lowered
    if " ".join(said.split()) not in _LIMIT_WORDS:
        return None
    error = cast(WebBlocked, status_error(dataclasses.replace(response, status=429), provider))
    error.message += " [HTTP %d with a 'Too Many Requests' page]" % response.status
    error.status = response.status
    return error
