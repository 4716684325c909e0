"""The optional service-first path of fetch: ask a page-reading service before
reading the page ourselves (as agent frameworks do with Jina Reader).

Both configurations speak the Jina Reader protocol (documented at
https://jina.ai/reader; the open-source reader can be self-hosted):

    POST <service URL>            (https://r.jina.ai/ for Jina)
    Authorization: Bearer <key>   (when a key is set)
    Accept: application/json
    Content-Type: application/json
    X-Return-Format: markdown | text
    X-Timeout: <seconds>
    {"url": "<page URL>"}

    -> 200 {"code": 200, "status": 20000,
            "data": {"title": "...", "url": "<final URL>", "content": "<page text>", ...}}

A URL that carries credentials (user:password@, or key-like query or fragment
parameters such as ``key``, ``api_key``, ``token``, ``access_token``,
``password``, ``sig``, ``signature``) is never sent to the service.
"""

from dataclasses import dataclass
from typing import Any, Optional
from urllib.parse import parse_qsl, urlsplit

from ..config import FETCH_SERVICE_URL_SETTING, Settings, check_url_setting
from ..errors import NO_CONTENT, NOT_JSON, UNEXPECTED_SHAPE, WebParseError
from ..net.deadline import Deadline
from ..net.transport import HttpTransport, RequestSpec, status_error
from ..net.urls import result_url
from ..secrets import is_secret_name
from .content import PageText

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

JINA_READER_URL = "https://r.jina.ai/"
#: Share of the remaining time the service may use; the rest is kept for reading the page directly.
SERVICE_SHARE = 0.6


@dataclass(repr=False)
class ReaderService:
    """A configured page-reading service: ``name`` (``fetch_service`` or ``jina``), URL, key.

    A URL holding a control character is ``InvalidInput(bad_endpoint)`` naming ``where``, when the
    service is made (fetch fails on it, before any request): a configuration error, not a failing
    service to read past (a tab was dropped from its host, a trailing line break sent as ``%0A``).
    """

    name: str
    url: str
    key: Optional[str] = None
    #: Where its URL is set (what an error about the URL names).
    where: str = "its URL"

    def __post_init__(self) -> None:
        check_url_setting(self.url, self.where, self.name)

    def __repr__(self) -> str:
        return "ReaderService(name=%r, url=%r, key=%s)" % (self.name, self.url, "***" if self.key else None)


def reader_service(settings: Settings) -> Optional[ReaderService]:
    """The service fetch should try first, or ``None``.

    ``Settings.fetch_service_url`` (``WEB_FETCH_SERVICE_URL``, key
    ``WEB_FETCH_SERVICE_KEY``) wins; otherwise Jina Reader when a Jina key is set
    (``Settings.providers["jina"]["api_key"]``, ``JINA_API_KEY``: the key of the
    ``jina`` search backend). ``Settings.providers["jina"]["reader_url"]`` overrides
    the Reader's URL (``Settings.endpoints["jina"]`` is the search endpoint).
    """
    if settings.fetch_service_url:
        return ReaderService(
            "fetch_service",
            settings.fetch_service_url,
            settings.fetch_service_key,
            FETCH_SERVICE_URL_SETTING,
        )
    jina = settings.provider("jina")
    if jina.get("api_key"):
        where = "Settings.providers['jina']['reader_url']"
        return ReaderService("jina", jina.get("reader_url") or JINA_READER_URL, str(jina["api_key"]), where)
    return None


def carries_credentials(url: str) -> bool:
    """True when ``url`` holds credentials: userinfo, or a key-like query/fragment parameter."""
    parts = urlsplit(url)
    if "@" in parts.netloc:
        return True
    for component in (parts.query, parts.fragment):
        for name, _value in parse_qsl(component, keep_blank_values=True):
            if is_secret_name(name.strip()):
                return True
    return False


def read_with_service(
    service: ReaderService,
    url: str,
    *,
    transport: HttpTransport,
    deadline: Deadline,
    mode: str,
    max_bytes: int,
) -> tuple[str, PageText]:
    """Ask ``service`` for ``url``; return ``(final_url, PageText)``.

    Raises any ``WebSearchError`` (the caller falls back to reading the page).
    """
    budget = deadline.sooner(max(1.0, deadline.remaining_ms() * SERVICE_SHARE))
    headers = {
        "Accept": "application/json",
        "X-Return-Format": mode,
        "X-Timeout": str(max(1, int(budget.remaining_s()))),
    }
    if service.key:
        headers["Authorization"] = "Bearer %s" % service.key
    spec = RequestSpec("POST", service.url, json={"url": url}, headers=headers)
    response = transport.send(spec, deadline=budget, provider=service.name, max_bytes=max_bytes, secrets=[service.key])
    error = status_error(response, service.name)
    if error is not None:
        raise error
    try:
        body = response.json()
    except ValueError:
        raise WebParseError(
            "%s did not answer with JSON" % service.name, provider=service.name, detail_code=NOT_JSON
        ) from None
    data: dict[str, Any] = body["data"] if isinstance(body, dict) and isinstance(body.get("data"), dict) else {}
    content = data.get("content") if isinstance(data, dict) else None
    if not isinstance(content, str):
        raise WebParseError(
            "%s answered without data.content" % service.name, provider=service.name, detail_code=UNEXPECTED_SHAPE
        )
    if not content.strip():
        raise WebParseError(
            "%s returned no text for the page" % service.name, provider=service.name, detail_code=NO_CONTENT
        )
    title: str = data["title"] if isinstance(data.get("title"), str) else ""
    # the page's address as the service says it: an http(s) URL as a result's is (no whitespace, no
    # invisible or control character, at most 8192 characters), else the one asked for: it is the
    # final_url the tool text shows on the page's header line, outside the untrusted-content block
    final_url = result_url(data.get("url")) or url
    return final_url, PageText(title.strip(), content.strip(), service.name)
