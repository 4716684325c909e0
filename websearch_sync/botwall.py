"""Recognising bot walls (captcha / "are you a robot" pages) in any answer.

Fetch uses the search backends' own signatures, so fetch and search agree. Each
signature comes from a recorded real page (see ``fixtures/*/`` blocked cases):

- DuckDuckGo's anomaly page ("Unfortunately, bots use DuckDuckGo too."): the
  ``anomaly-modal`` markup and a form posting to ``anomaly.js``; served with
  HTTP 200, 202 or 403.
- Baidu's security check ("百度安全验证"): a redirect to, or a page from,
  ``wappass.baidu.com/static/captcha``; the page itself loads wappass scripts.
"""

from typing import Optional
from urllib.parse import urlsplit

from .backends.baidu import is_baidu_captcha_url, is_baidu_challenge
from .backends.ddg import is_ddg_challenge
from .errors import WebBlocked
from .http import HttpResponse

__all__ = ["bot_wall", "bot_wall_error"]

_SCAN_CHARS = 200_000


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
    return None


def bot_wall_error(response: HttpResponse, provider: Optional[str]) -> Optional[WebBlocked]:
    """``WebBlocked(captcha_required)`` when ``response`` is a bot wall, else ``None``.

    Only HTML-ish bodies are scanned (JSON APIs and binaries never are).
    """
    content_type = response.content_type
    scan = content_type in ("", "text/html", "application/xhtml+xml", "text/plain")
    name = bot_wall(response.url, response.text if scan else "", response.location)
    if name is None:
        return None
    host = urlsplit(response.url).hostname or "the site"
    return WebBlocked(
        "%s answered with a bot wall (%s); a human would have to solve a captcha" % (host, name),
        provider=provider,
        detail_code="captcha_required",
        status=response.status,
    )
