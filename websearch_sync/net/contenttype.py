"""A ``Content-Type`` value's media type and charset, read as the Fetch standard's "extract a
MIME type" reads them: of several types (two headers arrive joined by a comma), the last valid
one, and the charset that goes with it. Commas and semicolons inside a quoted parameter value
belong to it (``charset="x, application/json"`` names no second type)."""

from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A type servers send for any file: the body says what it is (as for a missing type). Besides
#: the octet streams, the made-up types a server sends to make a browser save the file rather
#: than show it (PHP download scripts' ``application/force-download``): a PDF or an image as often
#: as anything, which was refused as a type fetch cannot read, its body not read.
UNTYPED = (
    "application/octet-stream",
    "binary/octet-stream",
    "application/force-download",
    "application/x-download",
    "application/download",
    "application/binary",
)
#: The PDF's type and the other names servers give it (older, or made up by a vendor's plugin).
PDF_TYPES = ("application/pdf", "application/x-pdf", "application/acrobat", "application/vnd.pdf")
#: The types the MIME Sniffing standard calls unknown: a browser sniffs what the body is.
UNKNOWN = ("*/*", "application/unknown", "unknown/unknown")


def untyped(media: str) -> bool:
    """Whether ``media`` (a :func:`media_type`) says nothing of the body, which is then sniffed as
    a browser sniffs it: absent, a type servers send for any file (:data:`UNTYPED`), one the MIME
    Sniffing standard calls unknown (:data:`UNKNOWN`), or a value that is no media type (no ``/``,
    ``text/``, ``/html``: the Fetch standard's "extract a MIME type" fails on it, as on a missing
    header)."""
    return not media or media in UNTYPED or media in UNKNOWN or not valid_media(media)


#: The characters of a token (RFC 9110), lower-case: a media type's type and subtype are tokens.
_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz")


def valid_media(media: str) -> bool:
    """Whether ``media`` (lower-case, without parameters) is a media type the Fetch standard's
    "parse a MIME type" accepts: a token, ``/``, a token (``text/``, ``/html``, ``a b/c`` are none)."""
    kind, slash, subtype = media.partition("/")
    return bool(kind and slash and subtype) and _TOKEN.issuperset(kind) and _TOKEN.issuperset(subtype)


#: The longest media type (RFC 6838: a type and a subtype of at most 127 characters each, and the
#: ``/``): a longer value names none. It was a fetch result's ``content_type`` whole, a header line
#: of up to 64 KB in the structured result a model reads (the MCP server's), whatever ``max_chars``.
MAX_MEDIA_CHARS = 255


def media_type(value: Optional[str]) -> str:
    """The media type of a ``Content-Type`` value, without parameters, lower-case (``""`` when
    absent or none is valid, or over :data:`MAX_MEDIA_CHARS`). Of several, the last that is a type:
    "text/html, text/html" is HTML to a browser, and was a type fetch could not read."""
    value = value or ""
    if "," not in value:  # the usual single value
        media = value.split(";", 1)[0].strip().lower()
        return media if len(media) <= MAX_MEDIA_CHARS else ""
    for piece in reversed(_split_outside_quotes(value, ",")):
        media = _essence(piece)
        if media and len(media) <= MAX_MEDIA_CHARS:
            return media
    return ""


def charset_label(value: Optional[str]) -> Optional[str]:
    """The ``charset`` parameter that goes with :func:`media_type`'s type, unquoted, or None.
    As in the Fetch standard: an earlier piece of the same type lends its charset to a later one
    that names none; a piece of another type ends the search (its charset is not this type's)."""
    if not value:
        return None
    if "," not in value:  # the usual single value
        return _charset_param(value)
    wanted = ""
    for piece in reversed(_split_outside_quotes(value, ",")):
        media = _essence(piece)
        if not media:
            continue
        if wanted and media != wanted:
            return None
        wanted = media
        label = _charset_param(piece)
        if label is not None:
            return label
    return None


def xml_media(media: str) -> bool:
    """Whether ``media`` (a :func:`media_type`) is an XML type, RFC 7303's: ``text/xml``,
    ``application/xml`` and every ``*/*+xml`` (a feed, XHTML, a sitemap; ``image/svg+xml`` too)."""
    return media in ("text/xml", "application/xml") or media.endswith("+xml")


def _essence(piece: str) -> str:
    """``type/subtype`` of one comma-separated piece, lower-case, or ``""`` when it names none."""
    media = piece.split(";", 1)[0].strip().lower()
    kind, slash, subtype = media.partition("/")
    valid = kind and slash and subtype and media != "*/*" and not any(c.isspace() for c in media)
    return media if valid else ""


def _charset_param(piece: str) -> Optional[str]:
    """The value of the piece's ``charset`` parameter (a quoted one unquoted), or None."""
    for parameter in _split_outside_quotes(piece, ";")[1:]:
        name, equals, raw = parameter.partition("=")
        if equals and name.strip().lower() == "charset":
            raw = raw.strip()
            return _unquoted(raw) if raw.startswith('"') else raw
    return None


def _split_outside_quotes(value: str, separator: str) -> list[str]:
    """``value`` split at each ``separator`` outside an HTTP quoted string (``"..."``, with
    backslash escapes): one pass, no backtracking. A value without a ``"`` (nearly every one:
    ``text/html; charset=utf-8``) has no quoted string, and a backslash counts only inside one,
    so it is ``str.split`` (in C: the loop below is a Python step a character, 120 lines a search)."""
    if '"' not in value:
        return value.split(separator)
    pieces, start, quoted, escaped = [], 0, False, False
    for index, char in enumerate(value):
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == separator and not quoted:
            pieces.append(value[start:index])
            start = index + 1
    pieces.append(value[start:])
    return pieces


def _unquoted(raw: str) -> str:
    """An HTTP quoted string's content (``raw`` opens with ``"``), escapes resolved; what follows
    its closing quote is ignored, as the Fetch standard's parser does."""
    chars, escaped = [], False
    for char in raw[1:]:
        if escaped:
            chars.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == '"':
            break
        else:
            chars.append(char)
    return "".join(chars)
