"""Recognising bot walls (captcha / "are you a robot" pages) in any answer.

Search backends and fetch use the same signatures, so they agree. Each
signature comes from a recorded real page (see ``fixtures/*/`` blocked cases):

- DuckDuckGo's anomaly page ("Unfortunately, bots use DuckDuckGo too."): the
  ``anomaly-modal`` markup and a form posting to ``anomaly.js``; served with
  HTTP 200, 202 or 403.
- Baidu's security check ("百度安全验证"): a redirect to, or a page from,
  ``wappass.baidu.com/static/captcha``; the page itself loads wappass scripts.
- Bing's Cloudflare Turnstile challenge ("One last step"): a results-page shell
  with ``div.captcha_header`` and the Turnstile widget (``#turnstile-widget``, or
  the ``challenges.cloudflare.com/turnstile/`` script); served with 200 or 403.
- Mojeek's ALTCHA captcha: ``div.captcha-wrap`` and the ``altcha.js`` script.
- Cloudflare's challenge ("Just a moment..."), in front of any site: the
  ``cf-mitigated: challenge`` header Cloudflare sets on it (its documented marker).

Every marker starts at a tag's ``<``: a query echoed into a results page is
HTML-escaped and cannot produce one.
"""

import re
from typing import Optional
from urllib.parse import urlsplit

from ..errors import WebBlocked
from .transport import HttpResponse

__all__ = [
    "bot_wall",
    "bot_wall_error",
    "is_ddg_challenge",
    "is_baidu_challenge",
    "is_baidu_captcha_url",
    "is_bing_turnstile",
    "is_mojeek_altcha",
]

_CHALLENGE_MARKERS = ('class="anomaly-modal', 'action="//duckduckgo.com/anomaly.js', "action='//duckduckgo.com/anomaly.js")
# Structural markers only (a query echoed into a results page is escaped and cannot
# produce a quoted src/href, nor a title that is exactly "百度安全验证").
_CHALLENGE = re.compile(r"""<title>\s*百度安全验证\s*</title>|(?:src|href)\s*=\s*['"][^'"]*(?:mkdjump|/static/captcha/)""", re.I)
# Each needs both of its markers: a Turnstile widget or an ALTCHA script alone may sit
# in an ordinary page's form; with the captcha box around it, it is the wall.
_TURNSTILE_BOX = re.compile(r"""<div class=["']?captcha_header\b""")
_TURNSTILE_WIDGET = re.compile(r"""<div id=["']?turnstile-widget\b|<script[^>]{0,200}?src=["']?https://challenges\.cloudflare\.com/turnstile/""")
_ALTCHA_BOX = re.compile(r"""<div class=["']?captcha-wrap\b""")
_ALTCHA_SCRIPT = re.compile(r"<script\b[^<>]{0,400}/altcha\.js")  # one bounded class: linear on any page

# How much of a page is scanned: Bing's Turnstile shell (341 KB recorded) has its captcha box
# ~190 KB in, and a raw page with inline scripts can put it further (1.5 ms on 875 KB of Baidu).
_SCAN_CHARS = 500_000


def bot_wall(url: str, text: str, location: Optional[str] = None) -> Optional[str]:
    """The name of the bot wall an answer is, or ``None``.

    ``url`` is where the answer came from, ``text`` its decoded body, ``location``
    its ``Location`` header (a redirect to a captcha page is a wall too). The
    signatures are the search backends' own, so fetch and search agree.
    """
    if is_baidu_captcha_url(location) or is_baidu_captcha_url(url):
        return "Baidu security check (wappass captcha)"
    head = text[:_SCAN_CHARS]
    if is_ddg_challenge(head):
        return "DuckDuckGo anomaly (bot check) page"
    if is_baidu_challenge(head):
        return "Baidu security check page"
    if is_bing_turnstile(head):
        return "Bing's Cloudflare Turnstile challenge ('One last step')"
    if is_mojeek_altcha(head):
        return "Mojeek's ALTCHA captcha"
    return None


def bot_wall_error(response: HttpResponse, provider: Optional[str]) -> Optional[WebBlocked]:
    """``WebBlocked(captcha_required)`` when ``response`` is a bot wall, else ``None``.

    Only HTML-ish bodies are scanned (JSON APIs and binaries never are).
    """
    content_type = response.content_type
    scan = content_type in ("", "text/html", "application/xhtml+xml", "text/plain")
    name = bot_wall(response.url, response.text if scan else "", response.location)
    if name is None and (response.headers.get("cf-mitigated") or "").strip().lower() == "challenge":
        name = "Cloudflare challenge ('Just a moment...')"
    if name is None:
        return None
    host = urlsplit(response.url).hostname or "the site"
    return WebBlocked(
        "%s answered with a bot wall (%s); a human would have to solve a captcha" % (host, name),
        provider=provider,
        detail_code="captcha_required",
        status=response.status,
    )


def is_ddg_challenge(text: str) -> bool:
    """True when ``text`` is DuckDuckGo's anomaly (bot challenge) page."""
    return any(marker in text for marker in _CHALLENGE_MARKERS)


def is_baidu_captcha_url(url: Optional[str]) -> bool:
    """True for Baidu's security-check address (``wappass.baidu.com``, ``/static/captcha/...``)."""
    try:
        parts = urlsplit(url or "")
    except ValueError:  # malformed (``http://[::1``)
        return False
    host = (parts.hostname or "").lower()
    return host == "wappass.baidu.com" or ((host == "baidu.com" or host.endswith(".baidu.com")) and "/static/captcha" in parts.path)


def is_baidu_challenge(text: str) -> bool:
    """True when ``text`` is Baidu's security check page ("百度安全验证", mkdjump scripts)."""
    return _CHALLENGE.search(text[:8192]) is not None


def is_bing_turnstile(text: str) -> bool:
    """True when ``text`` is Bing's Cloudflare Turnstile challenge ("One last step")."""
    return _TURNSTILE_BOX.search(text) is not None and _TURNSTILE_WIDGET.search(text) is not None


def is_mojeek_altcha(text: str) -> bool:
    """True when ``text`` is Mojeek's ALTCHA captcha page."""
    return _ALTCHA_BOX.search(text) is not None and _ALTCHA_SCRIPT.search(text) is not None
