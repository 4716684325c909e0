"""fetch: read one page as clean text or markdown — safely and within budget.

The pipeline of one fetch:

1. validate the inputs (``InvalidInput``: ``bad_url``, ``bad_extract_mode``, ...);
2. resolve the host once and refuse non-public addresses (:mod:`.ssrf`);
3. optionally ask a page-reading service first (:mod:`.fetch_service`), falling
   back to the direct path on any failure;
4. direct path: GET through the library's one hop loop (``HttpTransport.send``, at
   most 5 redirects, each hop's host checked by the address guard and connected to
   the checked address), client-side redirects included (the meta-refresh /
   ``location.replace`` pages Baidu's ``/link?url=`` serves, :mod:`.refresh`);
   bot walls -> ``WebBlocked(captcha_required)``; status -> errors;
5. body -> text by content type (:mod:`.fetch_content`), capped at ``max_chars``.

:func:`fetch_page` is what ``websearch_sync.fetch`` and ``SearchClient.fetch``
call; :func:`add_page_content` fills ``content`` for ``search(include_content=True)``.
"""

import logging
from collections.abc import Iterable, Mapping, Set
from functools import partial
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

from ..config import DEFAULT_CONTENT_CHARS, DEFAULT_MAX_BYTES, DEFAULT_MAX_CHARS, MIN_FETCH_BYTES, Settings
from ..engine import registry
from ..engine.redirects import Refresh
from ..errors import (
    BAD_ALLOW_PRIVATE,
    BAD_EXTRACT_MODE,
    BAD_IMAGES,
    BAD_INCLUDE_COMMENTS,
    BAD_MAX_BYTES,
    BAD_MAX_CHARS,
    BAD_MAX_CONTENT_CHARS,
    BAD_REDIRECT,
    BAD_URL,
    DEADLINE_EXCEEDED,
    DNS_ERROR,
    DNS_TIMEOUT,
    INTERNAL_ERROR,
    NO_CONTENT,
    PRIVATE_ADDRESS,
    RESOLVED_HERE,
    ErrorInfo,
    InvalidInput,
    NetworkError,
    Timeout,
    WebParseError,
    WebProviderError,
    WebSearchError,
    redact_error,
)
from ..models import EXTRACT_MODES, ExtractMode, FetchResult, SearchItem
from ..net.contenttype import media_type
from ..net.deadline import INLINE_MAX_BYTES, Deadline, DeadlinePassed, each_within, run_within
from ..net.environment import environment_proxy
from ..net.hops import HopRules, RedirectPolicy
from ..net.media import content_kind
from ..net.mocks import requests_patched
from ..net.ssrf import AddressGuard, ResolvedHost, Resolver, lookup_under_mock, no_lookup
from ..net.transport import HttpResponse, HttpTransport, RequestSpec, status_error
from ..net.urls import bounded_request_url, host_token, shown_url
from ..net.wire import BodyWanted
from ..validate import check_choice, check_flag, check_number, check_timeout_ms
from .content import PageText, page_text, wanted
from .pagetext import (
    CUT_MAX_BYTES,
    CUT_MAX_CHARS,
    CUT_PARTIAL,
    CUTS,
    asked_url,
    partial_answer,
    sendable,
    title_line,
    untagged,
)
from .refresh import RefreshChain
from .service import ReaderService, carries_credentials, read_with_service, reader_service

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

PROVIDER = "fetch"
_ACCEPT = "text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.8,text/markdown;q=0.8,*/*;q=0.5"
#: Extra wait for page fetches of include_content beyond the deadline (threads wind down).
_CONTENT_GRACE_S = 1.0
#: A page's refresh target is logged whole up to this length (else host and path).
_NAMED_URL_CHARS = 2048


# -- inputs ---------------------------------------------------------------------------------


_FLAG_DETAILS = {"allow_private": BAD_ALLOW_PRIVATE, "include_comments": BAD_INCLUDE_COMMENTS, "images": BAD_IMAGES}


def _check_flags(**flags: Any) -> None:
    """``InvalidInput(bad_<name>)`` for the first flag that is not a bool."""
    for name, value in flags.items():
        check_flag(name, value, _FLAG_DETAILS[name])


def _check_mode(mode: Any) -> str:
    return check_choice("extract_mode", mode, EXTRACT_MODES, BAD_EXTRACT_MODE)


# -- one fetch ------------------------------------------------------------------------------


def fetch_page(
    url: str,
    *,
    transport: HttpTransport,
    settings: Settings,
    extract_mode: ExtractMode = "markdown",
    max_chars: int = DEFAULT_MAX_CHARS,
    timeout_ms: Optional[int] = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    allow_private: bool = False,
    deadline: Optional[Deadline] = None,
    resolver: Optional[Resolver] = None,
    trusted_networks: Iterable[str] = (),
    include_comments: bool = False,
    images: bool = False,
) -> FetchResult:
    """Read one page and return the fetch result dict.

    Returns ``{"url", "final_url", "status", "content_type", "extractor", "title",
    "text", "truncated", "length"}``, and for an image (``images``) ``width``, ``height``
    and ``data`` (base64), and for one downscaled, ``original_width`` and ``original_height``; ``errors``, warnings on what was read (a PDF's pages left out), when any;
    ``truncated_by``, when truncated: what cut the text (:data:`~.pagetext.CUTS`).

    Args:
        url: an http(s) URL.
        transport: the HTTP transport (session, proxy, user agent) to use.
        settings: timeout default, ``allow_private``, the fetch service / Jina key.
        extract_mode: ``"markdown"`` or ``"text"``.
        max_chars: cap on the returned text (``truncated`` tells when it cut).
        timeout_ms: deadline of the whole call (default ``settings.timeout_ms``).
        max_bytes: cap on the bytes read from the page (the rest is not read), at least
            ``MIN_FETCH_BYTES`` (1024).
        allow_private: let loopback/private/link-local targets through
            (``settings.allow_private`` does too).
        deadline: an outer deadline to respect as well (e.g. a search's).
        resolver: ``resolver(host, port, timeout_s) -> [ip, ...]``; default: the system's.
        trusted_networks: networks allowed although not public (e.g. ``"10.1.0.0/16"``).
        include_comments: keep the page's reader comment threads (left out by default).
        images: return an image (PNG, JPEG, GIF, WebP) as base64 data (refused by default).

    Raises:
        WebSearchError: ``InvalidInput`` (``bad_url``, ``bad_extract_mode``,
        ``bad_max_chars``, ``bad_max_bytes``, ``bad_timeout``, ``private_address``),
        ``Timeout``, ``NetworkError``, ``AuthError``, ``WebBlocked``, ``BadGateway``,
        ``WebParseError`` (``no_content``, ``pdf_no_text``, ``pdf_broken``), ``WebProviderError``
        (``http_<status>``, ``redirect_loop``, ``bad_redirect``, ``unsupported_content``, ``pdf_encrypted``,
        ``pdf_reads_busy``: retryable).
    """
    secrets = settings.secrets()
    try:
        mode = _check_mode(extract_mode)
        max_chars = check_number("max_chars", max_chars, detail=BAD_MAX_CHARS)
        max_bytes = check_number("max_bytes", max_bytes, minimum=MIN_FETCH_BYTES, detail=BAD_MAX_BYTES)
        timeout = check_timeout_ms(timeout_ms)
        _check_flags(allow_private=allow_private, include_comments=include_comments, images=images)
        start = bounded_request_url(url)
        if deadline is None:
            deadline = Deadline(timeout or settings.timeout_ms)
        else:
            deadline = deadline.sooner(timeout)
        guard = AddressGuard(
            allow_private=allow_private or settings.allow_private,
            resolver=resolver or _resolver_for(transport),
            trusted_networks=trusted_networks,
        )
        service = reader_service(settings)
        first, unresolved = _first_host(guard, start, deadline, service is not None, settings)
        if service is not None and (first is None or not first.private):
            secrets.append(service.key or "")
            served = _via_service(service, start, transport, deadline, mode, max_bytes, secrets)
            if served is not None:
                final_url, page = served
                content_type = "text/markdown" if mode == "markdown" else "text/plain"
                return _result(asked_url(url), final_url, 200, content_type, page, frozenset(), max_chars)
        if first is None:
            raise unresolved  # type: ignore[misc]  # the local fallback needs the name resolved here
        response, page = _fetch_direct(
            start, first, guard, transport, deadline, mode, max_bytes, include_comments, max_chars, images
        )
        cuts = {CUT_MAX_BYTES} if response.truncated else set()
        cuts |= {CUT_PARTIAL} if partial_answer(response) else set()
        return _result(asked_url(url), response.url, response.status, response.content_type, page, cuts, max_chars)
    except WebSearchError as error:
        redact_error(error, secrets)  # in place
        raise


def _resolver_for(transport: HttpTransport) -> Optional[Resolver]:
    """How fetch's address check looks names up when the caller gave no resolver: not at all
    under a stand-in wire (it connects nowhere), leaving a name the machine cannot resolve to a
    mock of ``requests`` while one answers, else with the system's resolver (``None``)."""
    if not transport.resolves_names:
        return no_lookup
    if requests_patched() is not None:
        return lookup_under_mock
    return None


def _via_service(
    service: ReaderService,
    url: str,
    transport: HttpTransport,
    deadline: Deadline,
    mode: str,
    max_bytes: int,
    secrets: list[str],
) -> Optional[tuple[str, PageText]]:
    """The service's reading of ``url``, or ``None`` (not sendable, or the service failed: logged)."""
    if carries_credentials(url):
        logger.debug("not sending %s to %s: the URL carries credentials", shown_url(url), service.name)
        return None
    try:
        return read_with_service(service, url, transport=transport, deadline=deadline, mode=mode, max_bytes=max_bytes)
    except WebSearchError as error:
        logger.warning(
            "fetch service %s failed for %s (%s/%s: %s); reading the page directly",
            service.name,
            shown_url(url),
            error.code,
            error.detail_code,
            redact_error(error, secrets).message,
        )
        return None


def _first_host(
    guard: AddressGuard, url: str, deadline: Deadline, service: bool, settings: Settings
) -> tuple[Optional[ResolvedHost], Optional[WebSearchError]]:
    """The page's checked host, or (with a reader service) ``(None, the DNS error)`` when the
    local resolver cannot resolve it: the service resolves names itself, so a sandbox
    without DNS still reads pages; only the local fallback needs the name resolved here.
    A private address is refused (or kept off the service) as always; a host that does not
    resolve while a proxy is in force says that fetch resolves it here (:func:`_resolved_here`)."""
    try:
        return _check_host(guard, url, deadline), None
    except (NetworkError, Timeout) as error:
        if not service or error.detail_code not in (DNS_ERROR, DNS_TIMEOUT):
            raise _resolved_here(error, url, settings) from None
        logger.debug("%s does not resolve here (%s); asking the fetch service", shown_url(url), error.detail_code)
        return None, _resolved_here(error, url, settings)


def _resolved_here(error: WebSearchError, url: str, settings: Settings) -> WebSearchError:
    """``error``, and when it is the page's host not resolving (``dns_error``) while a proxy is in
    force for ``url`` (``Settings.proxy``, the environment's), the same error with the hint that
    fetch resolves the host here all the same: the command line said "or set a proxy"."""
    if error.detail_code != DNS_ERROR or error.hint is not None:
        return error
    try:
        proxied = bool(settings.proxy or environment_proxy(url, PROVIDER))
    except InvalidInput:  # the environment's proxy is unusable: the request would say so, not this
        proxied = False
    if not proxied:
        return error
    return NetworkError(error.message, provider=error.provider, detail_code=DNS_ERROR, hint=RESOLVED_HERE)


def _check_host(guard: AddressGuard, url: str, deadline: Deadline) -> ResolvedHost:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return guard.check(parts.hostname or "", port, deadline, PROVIDER)


def _wall_error(response: HttpResponse, deadline: Deadline) -> Optional[WebSearchError]:
    """The bot wall ``response`` is, if any, read within the deadline: the scan decodes the body in
    the calling thread (``charset.decode_body``: 0.1 us a byte of a body of stray bytes), whose
    checkpoints end it at the deadline."""
    try:
        return run_within(deadline, lambda: registry.wall_error(response, PROVIDER), name="websearch-wall", inline=True)
    except DeadlinePassed:
        raise _late("reading", response, deadline) from None


def _late(doing: str, response: HttpResponse, deadline: Deadline, what: str = "a page") -> Timeout:
    """The Timeout of ``doing`` (what was done to ``what``, the page) ``response`` past ``deadline``."""
    return Timeout(
        "%s %s on %s did not finish within the %.0f ms deadline"
        % (doing, what, host_token(response.url), deadline.timeout_ms),
        provider=PROVIDER,
        detail_code=DEADLINE_EXCEEDED,
    )


def _extraction_late(response: HttpResponse, deadline: Deadline) -> Timeout:
    """The Timeout of reading ``response``'s body past ``deadline``, named by what it is: an image's
    (decoded to be downscaled or turned upright: seconds for tens of megapixels) or a PDF's
    reading is no extraction of a page's text."""
    kind = content_kind(response)
    if kind in ("image", "pdf"):
        return _late("reading", response, deadline, "the image" if kind == "image" else "the PDF")
    return _late("extracting the text of", response, deadline)


def _fetch_direct(
    start: str,
    first: ResolvedHost,
    guard: AddressGuard,
    transport: HttpTransport,
    deadline: Deadline,
    mode: str,
    max_bytes: int,
    include_comments: bool = False,
    max_chars: Optional[int] = None,
    images: bool = False,
) -> tuple[HttpResponse, PageText]:
    """The page at ``start`` through the one hop loop (:meth:`HttpTransport.send`): every hop's
    host checked by ``guard`` and pinned, every answer checked for a bot wall, client-side
    redirects followed as a browser does (:class:`RefreshChain`)."""
    refreshes = RefreshChain()

    def answer(response: HttpResponse) -> Optional[str]:
        """A wall, or an HTTP 429 no refresh's carrier stands in for, ends the fetch here (so
        that the hop loop cools the host down: a 403 may be one page's, and does not); else
        where the page sends the browser."""
        blocked: Optional[WebSearchError] = _wall_error(response, deadline)
        if blocked is None and response.status == 429 and refreshes.carrier is None:
            blocked = status_error(response, PROVIDER)  # WebBlocked(http_429)
        if blocked is not None:
            raise blocked
        return refreshes.client_redirect(response)

    policy = RedirectPolicy(start, guard, provider=PROVIDER, canonical=bounded_request_url)
    spec = RequestSpec("GET", start, headers={"Accept": _ACCEPT}, browser=True)
    try:
        response = transport.send(
            spec,
            deadline=deadline,
            provider=PROVIDER,
            max_bytes=max_bytes,
            truncate=True,
            read_body=_worth_reading_images if images else _worth_reading,
            hops=HopRules(policy, first, answer),
        )
    except WebSearchError as failed:
        if refreshes.carrier is None or not _target_failure(failed):
            raise
        response = refreshes.carrier  # the refresh target is unreachable or refused: stay on the page
    response = refreshes.settle(response)
    error = status_error(response, PROVIDER)
    if error is not None:
        raise error
    try:
        return response, _extract(response, mode, deadline, include_comments, max_chars, images)
    except WebParseError as empty:
        if empty.detail_code != NO_CONTENT:
            raise
        if refreshes.unfollowed is not None:
            raise _naming_noscript_target(empty, response.url, refreshes.unfollowed) from None
        if refreshes.reload is not None and not response.truncated:
            raise _refreshing_itself(empty, response.url, refreshes.reload) from None
        raise


#: What the hop loop refuses a client-side redirect's target for: fetch does not go there, a
#: browser would not either (a ``file:``, ``mailto:`` or ``data:`` URL from a web page, a host name
#: that is none) or fetch's policy stops it (a private address).
_REFUSED_TARGETS = (BAD_REDIRECT, BAD_URL, PRIVATE_ADDRESS)


def _target_failure(error: WebSearchError) -> bool:
    """Whether ``error`` is the failure of a page that a refresh led to (unreachable, or refused
    by the hop loop), after which fetch returns the page that carried the refresh."""
    return isinstance(error, NetworkError) or error.detail_code in _REFUSED_TARGETS


def _naming_noscript_target(empty: WebParseError, page_url: str, target: str) -> WebParseError:
    """``empty`` (``no_content``), its message naming the host of the page's ``<noscript>``
    refresh target: where a browser without scripts goes, which fetch does not follow (a browser
    with scripts on ignores it and runs a script fetch could not read). The page chose the
    target, so the message names its host only (an error line reaches a model outside the
    untrusted-content block); the address itself is logged."""
    shown = shown_url(target) if carries_credentials(target) or len(target) > _NAMED_URL_CHARS else target
    logger.info("%s: its <noscript> refresh points at %s", shown_url(page_url), shown)
    return WebParseError(
        "%s; its <noscript> refresh points at a page on %s, which fetch does not follow (a browser with scripts"
        " on does not act on it)" % (empty.message, host_token(target)),
        provider=empty.provider,
        detail_code=empty.detail_code,
        status=empty.status,
        hint=empty.hint,
    )


def _refreshing_itself(empty: WebParseError, page_url: str, reload: Refresh) -> WebParseError:
    """``empty`` (``no_content``) of a page whose only way on is a refresh to its own address:
    said as what it is (a browser would load the same empty page again, and so would fetch),
    not as a page that needs JavaScript."""
    when = "at once" if reload.delay_s < 1 else "after %d s" % reload.delay_s
    return WebParseError(
        "%s returned a page with no readable text that only refreshes itself (it loads the same address again %s)"
        % (host_token(page_url, "the site"), when),
        provider=empty.provider,
        detail_code=empty.detail_code,
        status=empty.status,
    )


def _worth_reading(status: int, headers: Mapping[str, str], images: bool = False) -> BodyWanted:
    """False for a successful answer of a content type fetch refuses anyway (a video, an archive...);
    for an image not asked for, a test of its first bytes (:func:`~.content.wanted`)."""
    return wanted(status, media_type(headers.get("Content-Type")), images)


def _worth_reading_images(status: int, headers: Mapping[str, str]) -> BodyWanted:
    """:func:`_worth_reading` of a fetch that returns images."""
    return _worth_reading(status, headers, images=True)


#: What :func:`_extract` may read in the calling thread: text our own extraction walks (with checkpoints).
_INLINE_KINDS = ("html", "text", "json")


def _extract(
    response: HttpResponse,
    mode: str,
    deadline: Deadline,
    include_comments: bool = False,
    max_chars: Optional[int] = None,
    images: bool = False,
) -> PageText:
    """The page's text, within the deadline; a failure inside the third-party parsers is logged and typed.

    Extraction cannot be interrupted and its cost varies a lot (readability takes
    about 2 s for 5 MB of one endless paragraph), so it runs in a thread that is
    abandoned at the deadline (:func:`~websearch_sync.net.deadline.run_within`); a text
    page of at most :data:`~websearch_sync.net.deadline.INLINE_MAX_BYTES` runs in the calling
    thread instead, its checkpoints ending it at the deadline (a PDF or an image, read by
    third-party code between its checkpoints, always goes to the thread).
    """
    inline = len(response.content) <= INLINE_MAX_BYTES and content_kind(response) in _INLINE_KINDS
    try:
        return run_within(
            deadline,
            lambda: page_text(
                response,
                mode=mode,
                provider=PROVIDER,
                include_comments=include_comments,
                max_chars=max_chars,
                deadline=deadline,
                images=images,
            ),
            name="websearch-extract",
            inline=inline,
        )
    except DeadlinePassed:
        raise _extraction_late(response, deadline) from None
    except WebSearchError:
        raise
    except Exception as exc:  # a defect in extraction: report it loudly, typed
        logger.error("extracting %s failed unexpectedly", shown_url(response.url), exc_info=True)
        raise WebProviderError(
            "internal error while extracting a page on %s: %s" % (host_token(response.url), type(exc).__name__),
            provider=PROVIDER,
            detail_code=INTERNAL_ERROR,
        ) from exc


def _result(
    url: str, final_url: str, status: int, content_type: str, page: PageText, cuts: Set[str], max_chars: int
) -> FetchResult:
    """The fetch result of ``page``, its text cut at ``max_chars``; ``truncated_by`` (when it is
    truncated) names what cut it: ``cuts`` (the response's: ``max_bytes``, ``partial_content``),
    the reader's (``page.cuts``) and ``max_chars``, in the order of :data:`~.pagetext.CUTS`."""
    text = untagged(page.text)  # before the cut: hidden characters do not use up max_chars
    cuts = cuts | page.cuts
    if len(text) > max_chars:
        text, cuts = text[:max_chars], cuts | {CUT_MAX_CHARS}
    text = sendable(text)  # whatever the reader: no control character, lone surrogate or tag character
    result: FetchResult = {
        "url": url,
        "final_url": final_url,
        "status": status,
        # what was sent, a type or not: one line without control or invisible characters, as the title
        "content_type": title_line(content_type) if page.image is None else page.image.content_type,
        "extractor": page.extractor,
        "title": title_line(untagged(page.title)[:max_chars]),  # the page chose it too: max_chars holds on it
        "text": text,
        "truncated": bool(cuts),
        "length": len(text),
    }
    if cuts:
        result["truncated_by"] = [cut for cut in CUTS if cut in cuts]
    if page.image is not None:
        result["width"], result["height"], result["data"] = page.image.width, page.image.height, page.image.data
        if page.image.original_size is not None:  # downscaled to the caps: the size it was served at
            result["original_width"], result["original_height"] = page.image.original_size
    if page.warnings:
        result["errors"] = page.warnings
    return result


# -- search(include_content=True) -----------------------------------------------------------


def _page_entry(entry: ErrorInfo, url: str) -> ErrorInfo:
    """``entry`` as an ``errors`` entry of the page ``url`` include_content read: one that names
    no provider (a refusal to connect) is the reading's."""
    return {**entry, "provider": entry["provider"] or PROVIDER, "url": url}


def _page_warning(warning: ErrorInfo, url: str) -> ErrorInfo:
    """A warning on the page ``url`` include_content read (a PDF's pages left out), rebuilt from the
    fields a warning has (it may come from a cached answer: nothing else of it is copied)."""
    known: ErrorInfo = {
        "type": warning["type"],
        "message": warning["message"],
        "retryable": warning["retryable"],
        "detail_code": warning["detail_code"],
        "provider": warning["provider"],
    }
    return _page_entry(known, url)


def add_page_content(
    items: list[SearchItem],
    *,
    transport: HttpTransport,
    settings: Settings,
    deadline: Deadline,
    max_content_chars: int = DEFAULT_CONTENT_CHARS,
    max_workers: int = 4,
    extract_mode: ExtractMode = "text",
    resolver: Optional[Resolver] = None,
    trusted_networks: Iterable[str] = (),
    fetch: Optional[Callable[..., FetchResult]] = None,
) -> list[ErrorInfo]:
    """Fetch every item's page in threads and put its text in ``item["content"]``.

    At most ``max_workers`` pages at once, all within ``deadline``; each text is
    capped at ``max_content_chars``, and ``content_by`` says it was read here
    (``"fetch"``); ``content_truncated_by``, when the text was cut, what cut it (the fetch result's
    ``truncated_by``). Items that already have a non-empty
    ``content`` are left alone. A failed page leaves ``content`` empty and adds
    an error entry ``{"type", "message", "retryable", "detail_code", "provider",
    "url"}`` to the returned list, as does a warning of a page read (its result's ``errors``:
    a PDF's pages left out); nothing is raised for a page.
    ``fetch(url, deadline=, extract_mode=, max_chars=, max_bytes=, allow_private=)`` is what reads
    a page: by default :func:`fetch_page` with ``transport``, ``settings``, ``resolver`` and
    ``trusted_networks``; a client passes its own (fetch's way: its cache and single flight, its
    retries, its requests paced per host and stopped by a host's cool-down like every request of
    it), given only what shapes the page, which its cache key holds.
    """
    check_number("max_content_chars", max_content_chars, detail=BAD_MAX_CONTENT_CHARS)
    todo = [item for item in items if not item.get("content")]
    for item in todo:
        item["content"] = ""
    if not todo:
        return []
    if fetch is None:
        fetch = partial(
            fetch_page, transport=transport, settings=settings, resolver=resolver, trusted_networks=trusted_networks
        )
    read = fetch
    futures = each_within(
        deadline,
        lambda item: read(
            item["url"],
            deadline=deadline,
            extract_mode=extract_mode,
            max_chars=max_content_chars,
            max_bytes=settings.max_response_bytes,
            allow_private=settings.allow_private,
        ),
        todo,
        workers=max_workers,
        name="websearch-content",
        grace_s=_CONTENT_GRACE_S,
    )
    errors: list[ErrorInfo] = []
    for item, future in zip(todo, futures):
        try:
            if future.cancelled() or not future.done():
                raise Timeout(
                    "reading %s did not finish within the search's deadline" % shown_url(item["url"]),
                    provider=PROVIDER,
                    detail_code=DEADLINE_EXCEEDED,
                )
            page = future.result()
            item["content"] = page["text"]
            item["content_by"] = PROVIDER
            if page.get("truncated_by"):
                item["content_truncated_by"] = page["truncated_by"]
            # a warning on what was read (a PDF's pages left out) stays with the text, as in fetch's result
            errors.extend(_page_warning(warning, item["url"]) for warning in page.get("errors", []))
        except WebSearchError as error:
            errors.append(_page_entry(error.to_dict(), item["url"]))
        except Exception as exc:  # a defect in fetch: logged loudly, reported typed, never fails the search
            logger.error("reading %s for include_content failed unexpectedly", shown_url(item["url"]), exc_info=exc)
            entry = WebProviderError(
                "internal error while reading %s: %s" % (shown_url(item["url"]), type(exc).__name__),
                provider=PROVIDER,
                detail_code=INTERNAL_ERROR,
            ).to_dict()
            errors.append({**entry, "url": item["url"]})
    return errors
