"""What fetch makes of a response body: text by content type (a PDF through :mod:`.pdf`, an
image, when asked for, through :mod:`.image`).

Pure functions over :class:`~websearch_sync.net.transport.HttpResponse`; no I/O.
"""

import json
from typing import Optional
from urllib.parse import urlsplit

from ..errors import NO_CONTENT, NOT_JSON, RAISE_MAX_BYTES, UNSUPPORTED_CONTENT, WebParseError, WebProviderError
from ..extract.article import extract_html
from ..extract.rules import COMMENT_RULE, DEFAULT_RULES
from ..net.contenttype import untyped
from ..net.deadline import Deadline
from ..net.jsontext import JsonTooDeep
from ..net.media import content_kind, media_kind, media_token, opens_as_page, served_as, sniffed_other_image_type
from ..net.transport import HttpResponse
from ..net.wire import BodyWanted
from .image import image_text
from .pagetext import PageText as PageText  # the readers' result, named here for fetch and the service path
from .pagetext import binary, readable
from .pdf import pdf_text
from .xhtml import xhtml_as_html

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The kinds of body (``net.media``) fetch reads (an image only when asked for).
READ_KINDS = ("html", "json", "text", "pdf")


def wanted(status: int, media: str, images: bool = False) -> BodyWanted:
    """Whether the body of an answer with this status and media type is worth reading: not a
    successful answer of a type fetch refuses anyway (a video, an archive). An image's, unless
    ``images``, only as far as :func:`~..net.media.opens_as_page` looks (its first KB): a page
    sent under an image's type is read as the page (:func:`page_text`), an image refused unread."""
    kind = media_kind(media)
    if not 200 <= status < 300 or kind in (None, *READ_KINDS) or (images and kind == "image"):
        return True
    return opens_as_page if kind == "image" else False


def page_text(
    response: HttpResponse,
    *,
    mode: str,
    provider: Optional[str] = None,
    include_comments: bool = False,
    max_chars: Optional[int] = None,
    deadline: Optional[Deadline] = None,
    images: bool = False,
) -> PageText:
    """Turn a successful response into text (``mode``: ``"markdown"`` or ``"text"``;
    ``include_comments`` keeps an HTML page's reader comment threads).

    HTML -> main content (readability; visible text as the fallback), JSON ->
    pretty-printed, text/plain and text/markdown -> as is, PDF -> its text layer page by
    page (:func:`.pdf.pdf_text`, which stops at ``max_chars`` and before ``deadline``), an
    image -> base64 with its size when ``images`` (:func:`.image.image_text`). Raises
    ``WebProviderError(unsupported_content)`` for other types and
    ``WebParseError(no_content)`` when nothing readable is left.
    """
    host = urlsplit(response.url).hostname or "the site"
    kind = _kind(response)
    if kind == "image":
        return image_text(response, provider=provider, images=images, max_chars=max_chars)
    if kind not in READ_KINDS:
        if untyped(response.content_type):  # sniffed: neither a page, a PDF, an image fetch returns nor text
            image = sniffed_other_image_type(response.content[:16])
            if image is not None:  # an ICO or a BMP is no "binary data (no image)": said as a declared one is
                served = "%s, %s by its first bytes" % (served_as(response.content_type), image)
                raise _unsupported(response, host, provider, served, " (images: PNG, JPEG, GIF and WebP only)")
            served = "%s, binary data by its first bytes (no HTML, PDF, image or text)" % served_as(
                response.content_type
            )
            raise _unsupported(response, host, provider, served)
        served = "%s content" % media_token(response.content_type)
        raise _unsupported(response, host, provider, served, " (only HTML, JSON, text and PDF)")
    if kind == "pdf":
        return pdf_text(response, mode=mode, provider=provider, max_chars=max_chars, deadline=deadline)
    if kind in ("html", "text"):
        _check_text(response, host, provider)
    if kind == "html":
        rules = DEFAULT_RULES - {COMMENT_RULE} if include_comments else DEFAULT_RULES
        markup = _without_cut_tag(response.text) if response.truncated else response.text
        if response.read_as_xml:  # XHTML served as XML, or untyped under a prefix: read as XML
            markup = xhtml_as_html(markup)
        extraction = extract_html(markup, url=response.url, mode=mode, rules=rules)
        result = PageText(extraction.title, extraction.text.strip(), extraction.extractor)
        if not readable(result.text):
            raise _no_readable_text(
                response,
                host,
                provider,
                "%s returned a page with no readable text; it likely needs JavaScript to show its content" % host,
            )
        return result
    if kind == "json":
        result = PageText("", _pretty_json(response, host, provider), "json")
    else:
        result = PageText("", response.text.strip(), "text")
    if not readable(result.text):
        raise WebParseError(
            "%s returned no readable text" % host, provider=provider, detail_code=NO_CONTENT, status=response.status
        )
    return result


def _kind(response: HttpResponse) -> str:
    """The kind of body fetch reads (``net.media.content_kind``): JSON declared as HTML as JSON,
    and an untyped body sniffed as JSON (it opens with ``{`` or ``[``) as text unless it is JSON:
    ``[Home](/)`` or ``[1] Introduction`` open a markdown or plain text, which no type declared JSON."""
    kind = content_kind(response)
    if kind == "html" and _parses_as_json(response):
        return "json"
    if kind == "json" and untyped(response.content_type) and not _parses_as_json(response):
        return "text"
    return kind


def _parses_as_json(response: HttpResponse) -> bool:
    """Whether a body declared as HTML, or untyped, is JSON (APIs that leave their server's default
    type): it opens with ``{`` or ``[`` and parses, or would but for ``max_bytes`` cutting it or its
    nesting over 256 levels (then it gets JSON's answer: what arrived, or ``not_json``, not
    HTML extraction). Read as HTML, its strings lost their markup (``<b>x</b>`` became
    ``**x**``) and gained markdown escapes: the JSON came back altered."""
    if response.content[:256].lstrip(b"\xef\xbb\xbf\t\n\r ")[:1] not in (b"{", b"["):
        return False
    try:
        response.json(exact_integers=True)
    except JsonTooDeep:
        return True
    except json.JSONDecodeError as error:
        return response.truncated and _fails_at_the_cut(error)
    except ValueError:  # an integer of over 4300 digits, which Python refuses: read as before
        return False
    return True


#: How far before the end of a cut JSON text its parser may stop: a literal or number cut short
#: (``fals``, ``1.5e+``, ``Infinit``) is refused where it begins, at most this many characters back.
_CUT_TOKEN = 8


def _fails_at_the_cut(error: json.JSONDecodeError) -> bool:
    """Whether the parser refused the text only where ``max_bytes`` cut it (a prefix of JSON):
    at its end, in a token the cut fell in, or in a string left open. HTML that opens with a
    brace (``{ draft } <p>...``) fails at its start, and stays HTML."""
    return len(error.doc) - error.pos <= _CUT_TOKEN or error.msg.startswith("Unterminated string")


def _without_cut_tag(markup: str) -> str:
    """Markup cut by ``max_bytes`` without the tag the cut fell in: an HTML parser at the end of
    its input shows a lone ``<`` (or ``</``) as text, which here is no text of the page but
    the cut's (a page cut after ``...</p><`` ended in ``<``). Only a ``<`` that opens a tag by
    HTML's rule (a letter, ``/``, ``!`` or ``?`` after it, or the cut right after it) is cut:
    a ``<`` in text (``x < y``, ``<5 mg``) is the page's, and cutting there lost all that followed."""
    start = markup.rfind("<")
    if start < 0 or markup.find(">", start) >= 0:
        return markup
    opener = markup[start + 1 : start + 2]
    opens_tag = not opener or (opener.isascii() and opener.isalpha()) or opener in "/!?"
    return markup[:start] if opens_tag else markup


def _check_text(response: HttpResponse, host: str, provider: Optional[str]) -> None:
    """Refuse a body declared (or sniffed) as HTML or text with nothing to read (``no_content``:
    spare readability a page of NUL bytes), or that is binary data (``unsupported_content``: an
    archive or an image labelled text would be mojibake)."""
    if not readable(response.text):
        raise _no_readable_text(response, host, provider, "%s returned no readable text" % host)
    if binary(response.text):
        media = response.content_type
        served = "%s, binary data" % served_as(media) if untyped(media) else "binary data as %s" % media_token(media)
        raise _unsupported(response, host, provider, served + ", not text")


def _unsupported(
    response: HttpResponse, host: str, provider: Optional[str], served: str, only: str = ""
) -> WebProviderError:
    """``unsupported_content``: ``host`` served (what, in words), which fetch cannot read."""
    return WebProviderError(
        "%s served %s, which fetch cannot read%s" % (host, served, only),
        provider=provider,
        detail_code=UNSUPPORTED_CONTENT,
        status=response.status,
    )


def _no_readable_text(response: HttpResponse, host: str, provider: Optional[str], whole_page: str) -> WebParseError:
    """``no_content``: the byte cap cut the page before its text began (``hint``: raise it),
    else ``whole_page``, the reason for a page read to its end."""
    if response.truncated:
        return WebParseError(
            "%s sent no readable text in the first %d bytes, where the byte cap cut the page"
            % (host, len(response.content)),
            provider=provider,
            detail_code=NO_CONTENT,
            status=response.status,
            hint=RAISE_MAX_BYTES,
        )
    return WebParseError(whole_page, provider=provider, detail_code=NO_CONTENT, status=response.status)


def _pretty_json(response: HttpResponse, host: str, provider: Optional[str]) -> str:
    try:
        data = response.json(exact_integers=True)
    except ValueError as error:
        if response.truncated and not isinstance(error, JsonTooDeep):  # cut by max_bytes: show what arrived
            return response.text
        raise WebParseError(
            "%s %s" % (host, _unreadable_json(error)),
            provider=provider,
            detail_code=NOT_JSON,
            status=response.status,
        ) from None
    return json.dumps(data, indent=2, ensure_ascii=False)


def _unreadable_json(error: ValueError) -> str:
    """Why a body declared as JSON was not read, in words fetch chose (an error line reaches a
    model): nested too deeply (the start of it suffices), a syntax error, else Python's own
    refusal of valid JSON, an integer of over 4300 digits."""
    if isinstance(error, JsonTooDeep):
        return "sent %s, which fetch does not read" % error
    if isinstance(error, json.JSONDecodeError):
        return "declared JSON but sent something else"
    return "sent JSON that cannot be read: it holds a number of over 4300 digits"
