"""A response as the policy hands it to backends and fetch: read (or capped), decoded on demand."""

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from ..validate import json_int
from . import jsontext
from .charset import declared_charset, decode_body, single_byte
from .contenttype import media_type, untyped, xml_media
from .xmlroot import prefixed_xhtml_root

if TYPE_CHECKING:
    from requests.structures import CaseInsensitiveDict

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_NOT_PARSED = object()


@dataclass
class HttpResponse:
    """A fully read (or capped) response."""

    status: int
    headers: "CaseInsensitiveDict[str]"
    content: bytes
    url: str
    truncated: bool = False
    elapsed_ms: float = 0.0
    #: The protocol itself marked where the body ends (an HTTP/2 or HTTP/3 stream's end): read to
    #: its end (not ``truncated``), it is the whole body whatever ``Content-Length`` says or not.
    framed: bool = False
    _text: Optional[str] = field(default=None, repr=False)
    _json: Any = field(default=_NOT_PARSED, repr=False)
    _json_error: Optional[ValueError] = field(default=None, repr=False, compare=False)
    _json_long: Any = field(default=_NOT_PARSED, repr=False, compare=False)
    #: What :func:`~.media.content_kind` found, with what it read it from: ``(Content-Type header,
    #: content, truncated, kind)``, the first two compared by identity (a header or body set anew is
    #: read anew). Not an argument: ``dataclasses.replace`` starts a copy without it.
    kind_memo: Optional[tuple[Optional[str], bytes, bool, str]] = field(
        default=None, init=False, repr=False, compare=False
    )
    #: :attr:`content_type`, with the header it was read from (compared by identity).
    _media: Optional[tuple[Optional[str], str]] = field(default=None, init=False, repr=False, compare=False)

    @property
    def content_type(self) -> str:
        """The media type without parameters, lower-case (``""`` when absent): :func:`media_type`.
        Read once while the header is the same (a fetch asks about ten times)."""
        header = self.headers.get("Content-Type")
        memo = self._media
        if memo is not None and memo[0] is header:
            return memo[1]
        media = media_type(header)
        self._media = (header, media)
        return media

    @property
    def read_as_xml(self) -> bool:
        """Whether the body, if a page, is parsed as XML, as a browser parses it: declared as XML
        (XHTML served as XML), or untyped with its root XHTML's under a prefix
        (``<h:html xmlns:h="http://www.w3.org/1999/xhtml">``), whose elements only an XML parser reads
        (an HTML parser reads ``<h:p>`` as an unknown element named ``h:p``). Other untyped pages keep
        the HTML parser their sniffing names. Such a body is also decoded as XML (:attr:`text`)."""
        media = self.content_type
        if xml_media(media):
            return True
        return untyped(media) and prefixed_xhtml_root(self.content)

    @property
    def text(self) -> str:
        """The body decoded: header charset, then ``<meta>``, then detection (a body cut by the
        byte cap without the character the cut fell in); a body read as XML (:attr:`read_as_xml`)
        as XML reads it, its XML declaration before ``<meta>``."""
        if self._text is None:
            header = self.headers.get("Content-Type")
            self._text = decode_body(self.content, header, cut=self.truncated, xml=self.read_as_xml)
        return self._text

    def json(self, exact_integers: bool = False) -> Any:
        """The body parsed as JSON (raises ``ValueError`` when it is not JSON, its subclass
        :class:`~.jsontext.JsonTooDeep` when nested too deeply to be read). Parsed once, whether
        it is JSON or not: classifying and parsing an answer both read it (a truncated or deeply nested body was parsed again by
        each), so treat the value as read-only.

        An integer of over 4,300 digits, which Python's ``int`` refuses, is read as the float it
        approximates (:func:`~..validate.json_int`: infinity, which a reader takes as no value, as
        ``Infinity``): one in a field nobody reads made a whole search answer "JSON that does not
        parse". With ``exact_integers`` such a body raises Python's ``ValueError`` instead (fetch
        shows a page's JSON as written, or says why it cannot)."""
        if self._json is _NOT_PARSED and self._json_error is None:
            try:
                self._json = jsontext.loads(self._json_text())
            except ValueError as refused:
                self._json_error = refused
        failure = self._json_error
        if failure is None:
            return self._json
        if exact_integers or not jsontext.too_many_digits(failure):
            raise failure.with_traceback(None)
        if self._json_long is _NOT_PARSED:  # parsed again only for such a body: others keep int's fast path
            self._json_long = jsontext.loads(self._json_text(), parse_int=json_int)
        return self._json_long

    def _json_text(self) -> str:
        """The body as JSON text. Declared in a multi-byte legacy charset (GBK, EUC-KR, Shift_JIS),
        it is read by that charset (:attr:`text`): such bytes can also be valid UTF-8 (学校 in GBK
        reads ``ѧУ`` as UTF-8), so UTF-8 first would misread them without a sign. Otherwise (no
        charset, a UTF one, one no browser knows, or a single-byte one such as windows-1251 or
        koi8-r, whose non-ASCII bytes are hardly ever valid UTF-8 by chance: ``Café Привет`` sent in
        UTF-8 under ``charset=windows-1251`` came out ``CafГ© РџСЂРёРІРµС‚``) as JSON reads it: UTF-8,
        or UTF-16/32 by its BOM or its zero bytes (``json.detect_encoding``; RFC 8259, 8.1): a body
        declared ``charset=utf-16`` yet sent in UTF-8 was read as UTF-16, and parsed or not by its
        length's parity. A body that is no text in that encoding is decoded as any page is
        (:attr:`text`: its declared charset, then detection)."""
        declared = declared_charset(self.headers.get("Content-Type"))
        if declared is not None and not declared.startswith("utf") and not single_byte(declared):
            return self.text
        try:
            return self.content.decode(json.detect_encoding(self.content))
        except UnicodeDecodeError:
            return self.text

    @property
    def location(self) -> Optional[str]:
        """The ``Location`` header of a redirect, if any."""
        return self.headers.get("Location")
