"""Reading Cloudflare's block page: its edge refused a request itself, the service never saw it.

In front of an API, Cloudflare's firewall (its managed WAF rules) answers a request it blocks
with a 403 and its HTML block page instead of the service's answer: "Attention Required! |
Cloudflare", "Sorry, you have been blocked". The page is recognised by its structure, the same
on every Cloudflare site: a ``div#cf-error-details`` inside a ``div#cf-wrapper``, holding the
block headline (``h1[data-translate=block_headline]``). Only a short ``text/html`` body is
parsed (the recorded page is 4,656 bytes), and only when both ids appear in it. Recorded:
fixtures/tavily/zrobank-doc-api__cloudflare_block_403.html (an API's 403 answer, 2023).
"""

from typing import Any, Optional

from .response import HttpResponse

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The longest body read as Cloudflare's block page (recorded: 4,656 bytes; Groq's, lobehub/lobehub#2147:
#: 4,517); a longer one is some other page, and is not parsed.
_PAGE_MAX = 65_536
#: The ids of the page's two nested containers, looked for before parsing.
_WRAPPER_ID = "cf-wrapper"
_DETAILS_ID = "cf-error-details"
_IDS = (_WRAPPER_ID.encode("ascii"), _DETAILS_ID.encode("ascii"))
#: The longest headline quoted from the page in a message.
_QUOTED_MAX = 80


def block_page_refusal(response: HttpResponse) -> Optional[str]:
    """What Cloudflare's block page in ``response`` says (``Cloudflare's block page "Sorry, you
    have been blocked"``, its headline quoted), else ``None``.

    The caller has checked that the answer came from Cloudflare (its headers) with a 4xx.
    """
    content = response.content
    if response.content_type != "text/html" or len(content) > _PAGE_MAX:
        return None
    if not all(marker in content for marker in _IDS):
        return None
    import lxml.html  # here, not at import: only a Cloudflare 4xx page carrying both ids is parsed
    from lxml import etree

    try:
        root = lxml.html.document_fromstring(content)
    except (etree.ParserError, ValueError):  # no element at all, or bytes lxml refuses
        return None
    details = root.xpath("//*[@id=$wrapper]//div[@id=$details]", wrapper=_WRAPPER_ID, details=_DETAILS_ID)
    if not details:
        return None
    headline = _text(details[0].xpath(".//h1[@data-translate='block_headline']"))
    return 'Cloudflare\'s block page "%s"' % headline if headline else None


def _text(elements: list[Any]) -> str:
    """The first element's text, whitespace collapsed, at most :data:`_QUOTED_MAX` characters."""
    if not elements:
        return ""
    return " ".join(elements[0].text_content().split())[:_QUOTED_MAX]
