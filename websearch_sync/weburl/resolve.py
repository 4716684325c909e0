"""A URL a page names (a link, a ``<base href>``, a redirect's target) made absolute as a
browser makes it (WHATWG URL): its backslashes, its slashes where a host may start and another
scheme's host read as a browser reads them (:func:`browser_target`), and the empty segments of
its path kept.

``urljoin`` drops those when it merges a relative path with the page's (``x//y`` against
``/a/b`` is ``/a/x/y``; a browser reads ``/a/x//y``), so on a page whose own path holds ``//``
(an archived copy, ``/web/2020/https://site/a/b``) every relative link pointed at
``https:/site/...``, no page. RFC 3986's merge and dot-segment removal (section 5.2), which the
WHATWG URL standard's path parsing agrees with here, keep them (:func:`join_url`).

The extraction's links and ``<base href>`` and the fetch's redirect targets
(:mod:`~..net.urls`, which re-exports :func:`browser_join`) read URLs here: extraction does not
import the network layer, and a link must lead where the redirect would."""

from urllib.parse import urljoin, urlsplit

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A single-dot segment as the WHATWG URL standard reads it, its dot percent-encoded or not.
_SINGLE_DOT = frozenset((".", "%2e"))
#: A double-dot segment, likewise.
_DOUBLE_DOT = frozenset(("..", ".%2e", "%2e.", "%2e%2e"))


def join_url(base: str, reference: str) -> str:
    """``reference`` made absolute against ``base``: ``urljoin``'s, but for the path of a
    relative-path reference, merged and resolved keeping its empty segments (module docstring).
    ``ValueError`` as ``urljoin`` raises it (``http://[::1``)."""
    joined = urljoin(base, reference)
    parts = urlsplit(reference)
    if parts.netloc or not parts.path or parts.path.startswith("/"):
        return joined  # another host's, an absolute path, or no path: urljoin keeps these as they are
    page = urlsplit(base)
    if not page.netloc or (parts.scheme and parts.scheme.lower() != page.scheme.lower()):
        return joined  # no page to be relative to, or another scheme's URL
    merged = page.path[: page.path.rfind("/") + 1] + parts.path if page.path else "/" + parts.path
    return urlsplit(joined)._replace(path=_without_dot_segments(merged)).geturl()


def _without_dot_segments(path: str) -> str:
    """``path`` with its ``.`` and ``..`` segments resolved (RFC 3986 section 5.2.4), empty ones kept."""
    kept: list[str] = []
    segments = path.split("/")
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        lowered = segment.lower()
        if lowered in _SINGLE_DOT or lowered in _DOUBLE_DOT:
            if lowered in _DOUBLE_DOT and len(kept) > 1:
                kept.pop()  # never the empty segment before the path's first slash
            if last:
                kept.append("")  # ``a/.`` and ``a/..`` end with a slash
            continue
        kept.append(segment)
    return "/".join(kept)


#: The schemes whose URLs read a backslash as a slash (WHATWG URL's "special" schemes).
_SPECIAL_SCHEMES = frozenset(("http", "https", "ws", "wss", "ftp", "file"))
#: What WHATWG URL parsing strips from a URL's ends (C0 controls and space) ...
_C0_AND_SPACE = "".join(map(chr, range(0x21)))
#: ... and removes from anywhere in it (ASCII tab and newline).
_TAB_AND_NEWLINE = dict.fromkeys(map(ord, "\t\n\r"))
#: What a scheme is made of after its first letter (RFC 3986).
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789+.-")


def browser_target(location: str, base_scheme: str) -> str:
    """``location`` (a redirect target, read against an http(s) page of scheme ``base_scheme``) as a
    browser reads it (WHATWG URL, for any special scheme's URL): before its query and fragment a
    backslash is a slash (``\\ok`` is ``/ok``), and a run of two or more slashes where the host may
    start, at the start or after ``http:``, opens the host, however long (``///host/x`` and
    ``\\\\host\\x`` are ``//host/x``, another host's); the query and fragment keep theirs. ``urljoin``
    took a backslash for a path character (``/%5Cok``) and ``///host`` for a path, on both wires.

    A special scheme other than the page's opens the host whatever follows its colon, one slash
    or none (``http:/10.0.0.1/x`` from an https page is ``http://10.0.0.1/x``, a host the guard
    then checks like any other; ``urljoin`` read a path without a host); the page's own scheme
    there starts a path relative to the page (``http:/x`` on an http page), as ``urljoin`` reads it.
    ``file:`` keeps its slashes (``file:///x`` has an empty host; it is refused as a hop anyway).

    First, as WHATWG does before anything else, control characters and spaces at either end go,
    and every tab, CR and LF: ``urlsplit`` drops those (the host the guard checks) but ``urljoin``
    keeps them in another scheme's URL, so the URL sent would not be the URL checked."""
    location = location.strip(_C0_AND_SPACE).translate(_TAB_AND_NEWLINE)
    scheme, colon, _ = location.partition(":")
    scheme = scheme.lower()
    named = bool(colon) and scheme[:1].isalpha() and set(scheme) <= _SCHEME_CHARS
    if named and scheme not in _SPECIAL_SCHEMES:
        return location  # another scheme's URL (refused as a hop anyway)
    end = query_start(location)
    target = location[:end].replace("\\", "/") + location[end:]
    prefix = target[: len(scheme) + 1] if named else ""
    rest = target[len(prefix) :]
    if scheme == "file" and named:
        return target
    if rest.startswith("//") or (named and scheme != base_scheme.lower()):
        target = prefix + "//" + rest.lstrip("/")
    return target


def browser_join(base_url: str, location: str) -> str:
    """``location`` (a redirect target: a ``Location``, a meta refresh's or a script's URL) made
    absolute against the page at ``base_url`` as a browser reads it (:func:`browser_target`);
    ``ValueError`` for one that cannot be (``http://[::1``)."""
    return join_url(base_url, browser_target(location, urlsplit(base_url).scheme))


def query_start(url: str) -> int:
    """Where ``url``'s query or fragment starts (its length when it has neither)."""
    ends = [at for at in (url.find("?"), url.find("#")) if at >= 0]
    return min(ends) if ends else len(url)
