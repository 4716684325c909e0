"""Which client-side redirects fetch follows, as a browser does.

The page is read by the one client-side-redirect reader (``engine.redirects``, shared with
Baidu's link resolution): the first ``<meta http-equiv="refresh">`` a browser with scripting
on acts on (none inside a comment or ``<noscript>``), the first ``<noscript>`` one, and a
stub's script redirect. A redirect stub
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
reload timer. Only a page of at most 64 KB is rendered to count its text: a bigger page is
content (never a notice), so deciding about a refresh costs the same on a 5 MB page.
"""

from typing import Optional

from ..engine.redirects import SCAN_CHARS, Refresh, client_redirects, same_document
from ..extract.article import visible_text
from ..net.transport import HttpResponse

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A refresh within this many seconds is a redirect from any page.
REDIRECT_DELAY_S = 1.0
#: A slower refresh is followed only from a notice page (less readable text than
#: ``NOTICE_TEXT_CHARS``), and only within this many seconds.
NOTICE_DELAY_S = 10.0
NOTICE_TEXT_CHARS = 300


def _readable(response: HttpResponse) -> Optional[str]:
    """The visible text of a page small enough to be a redirect stub or notice (at most
    ``SCAN_CHARS`` characters), or ``None`` for a bigger page: that is content, and rendering
    all of it (megabytes) just to decide about a refresh would cost what the deadline cannot
    bound. Linear in at most 64 KB."""
    text = response.text
    return visible_text(text) if len(text) <= SCAN_CHARS else None


class RefreshChain:
    """What fetch follows from one page to the next, as a browser would; the last page
    whose meta refresh it followed (``carrier``: what a reader is left with when the
    refresh target fails); and, of the last page read when nothing on it was followed, its
    ``<noscript>`` refresh target (``unfollowed``: where a browser without scripts would go)
    and its refresh to itself (``reload``): for fetch to name when the page has nothing to read."""

    def __init__(self) -> None:
        self.carrier: Optional[HttpResponse] = None
        self.unfollowed: Optional[str] = None
        self.reload: Optional[Refresh] = None

    def client_redirect(self, response: HttpResponse) -> Optional[str]:
        """Where a 2xx HTML page sends the browser (``engine.redirects``): a meta refresh it acts
        on (module docstring), else a near-empty stub's script redirect."""
        self.unfollowed = self.reload = None
        found = client_redirects(response)
        refresh = found.refresh
        if refresh is not None and refresh.reloads(response.url):
            self.reload, refresh = refresh, None  # nothing to follow: the page is read; the script (if any) still runs
        if refresh is not None:
            target = self._followed(refresh, response)
            if target is not None:
                return target
        elif found.script is not None and not same_document(found.script, response.url):
            return found.script
        if found.noscript is not None and not found.noscript.reloads(response.url):
            self.unfollowed = found.noscript.target
        return None

    def _followed(self, refresh: Refresh, response: HttpResponse) -> Optional[str]:
        """``refresh``'s target when a browser follows it from ``response`` (module docstring).
        Only a page of at most 64 KB is rendered to count its text (``_readable``)."""
        readable = _readable(response)
        if refresh.delay_s > REDIRECT_DELAY_S and (
            refresh.delay_s > NOTICE_DELAY_S or readable is None or len(readable) >= NOTICE_TEXT_CHARS
        ):
            return None
        if readable is None or readable.strip():
            self.carrier = response
        return refresh.target

    def settle(self, response: HttpResponse) -> HttpResponse:
        """``response``, or the page whose refresh led to it when it is an error (4xx, 5xx)."""
        if response.status >= 400 and self.carrier is not None:
            return self.carrier
        return response
