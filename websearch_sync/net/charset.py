"""Turning response bytes into text: declared charset, then ``<meta>``, then detection."""

import codecs
import functools
import re
from collections.abc import Iterator
from typing import Optional

from websearch_sync.checkpoints import checkpoint
from websearch_sync.net.alphabets import spelling_candidates
from websearch_sync.net.contenttype import PDF_TYPES, charset_label, media_type, untyped, xml_media

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A ``<meta`` tag's opening, the end of its attributes (the next ``<`` or ``>``) and the
#: ``charset=`` in them, read in three steps (:func:`_meta_charset_match`): one pattern with a lazy
#: ``[^<>]{0,300}?`` before ``charset`` tried the word at each of 300 places after every ``<meta``.
_META_OPEN = re.compile(rb"<meta", re.I)
#: A tag's bracket: where a ``<meta`` tag's attributes end, and where a page's markup is cut to
#: sample its text (:func:`_text_sample`).
_BRACKET = re.compile(rb"[<>]")
#: (The space after ``=`` is read before the quote or after it, never split between two runs: a
#: ``\s*["']?\s*`` tried every split of 16,000 spaces, 2 s for one tag.)
_CHARSET_ATTRIBUTE = re.compile(rb"charset\s*=\s*(?:[\"']\s*)?([A-Za-z0-9_.:\-]+)", re.I)
#: How far into a ``<meta`` tag its ``charset`` may begin (the prescan reads tags of any length;
#: a bound keeps a hostile page's one endless tag from being searched through).
_META_CHARSET_REACH = 300
_META_SCAN_BYTES = 16384

#: Labels of the WHATWG Encoding Standard that Python does not know by that name.
_LABELS = {
    "windows-874": "cp874",
    "x-mac-cyrillic": "mac-cyrillic",
    "x-mac-ukrainian": "mac-cyrillic",
    "windows-31j": "cp932",
    "x-sjis": "cp932",
    "iso-8859-8-i": "iso8859-8",
    "iso8859-8-i": "iso8859-8",
    "csiso88598i": "iso8859-8",
    "x-gbk": "gb18030",
    "csgb2312": "gb18030",
    "unicode-1-1-utf-8": "utf-8",
    "unicode11utf8": "utf-8",
    "unicode20utf8": "utf-8",
    "x-unicode20utf8": "utf-8",
}

#: Codecs whose real-world meaning is a superset (what browsers do, per the WHATWG Encoding
#: Standard), by Python's codec name (so every alias of a label maps the same way).
_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "iso8859-1": "cp1252",
    "ascii": "cp1252",
    "iso8859-9": "cp1254",
    "iso8859-11": "cp874",
    "tis-620": "cp874",
    "big5": "big5hkscs",
    "shift_jis": "cp932",
    "euc_kr": "cp949",
}

#: The only encodings a page may name: the WHATWG Encoding Standard's, as Python codecs. Any
#: other label (a Python codec that is no text encoding, such as ``rot13`` or ``zlib``; one
#: that fails on most bytes, such as ``punycode``, ``idna`` or ``undefined``; ``utf-7``,
#: which browsers refuse; ``unicode_escape``...) is ignored like an unknown one.
_WEB_ENCODINGS = frozenset(
    ["utf-8", "utf-16", "utf-16-le", "utf-16-be", "cp866", "koi8-r", "koi8-u", "mac-roman", "mac-cyrillic", "cp874"]
    + ["iso8859-%d" % n for n in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16)]
    + ["cp%d" % n for n in range(1250, 1259)]
    + ["gb18030", "big5hkscs", "euc_jp", "iso2022_jp", "cp932", "cp949"]
)


def _codec(label: Optional[str]) -> Optional[str]:
    """The Python codec for an encoding label, or ``None`` unless it names a web encoding."""
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    try:
        name = codecs.lookup(_LABELS.get(label, label)).name
    except (LookupError, ValueError):
        return None
    name = _SUPERSETS.get(name, name)
    return name if name in _WEB_ENCODINGS else None


@functools.lru_cache(maxsize=64)
def single_byte(codec: str) -> bool:
    """Whether ``codec`` reads every byte as one character (cp1251, koi8-r; not gb18030, cp932):
    bytes that are valid UTF-8 and not ASCII are then almost surely UTF-8 under a wrong label, while a
    multi-byte legacy codec's pairs can also be valid UTF-8 (GBK's 学校 reads ``ѧУ`` as UTF-8)."""
    return len(bytes(range(256)).decode(codec, "replace")) == 256


def declared_charset(content_type: Optional[str]) -> Optional[str]:
    """The codec named by a Content-Type header's ``charset`` parameter, if valid: the one that
    goes with the type that counts (``contenttype.charset_label``)."""
    return _codec(charset_label(content_type))


#: UTF-16 codecs: a ``<meta>`` naming one means UTF-8 (see :func:`meta_charset`).
_UTF16 = frozenset(["utf-16", "utf-16-le", "utf-16-be"])


#: How many first bytes of a body declared UTF-16 are looked at for the NUL its markup holds.
_WIDE_SCAN_BYTES = 1024


def _may_be(codec: Optional[str], content: bytes) -> bool:
    """Whether ``content`` may be in ``codec``: a body with no NUL byte in its first kilobyte is no
    UTF-16 (every ASCII character of UTF-16 markup has one), whatever its header says. Decoded as
    UTF-16, a UTF-8 body of an even length read without an error, every two bytes one CJK-looking
    character (one of an odd length failed and was read as UTF-8): as a ``<meta>`` naming UTF-16
    means UTF-8 (:func:`meta_charset`), the header's label is not taken then."""
    return codec not in _UTF16 or b"\x00" in content[:_WIDE_SCAN_BYTES]


def meta_charset(content: bytes) -> Optional[str]:
    """The codec named by a ``<meta charset>`` / ``http-equiv`` tag near the top of a page.

    A tag naming UTF-16 means UTF-8, as the HTML standard's prescan rules: the tag was
    read as ASCII bytes, which a UTF-16 page cannot hold (its text read as UTF-16 is mojibake).
    """
    match = _meta_charset_match(content[:_META_SCAN_BYTES])
    codec = _codec(match.group(1).decode("ascii", "ignore")) if match else None
    return "utf-8" if codec in _UTF16 else codec


def _meta_charset_match(head: bytes) -> "Optional[re.Match[bytes]]":
    """The first ``charset=`` beginning within :data:`_META_CHARSET_REACH` bytes of a ``<meta``
    tag's attributes (before the next ``<`` or ``>``). The tags' attributes do not overlap (each
    ends at the ``<`` of the next), so the whole head is read once."""
    for opened in _META_OPEN.finditer(head):
        start = opened.end()
        angle = _BRACKET.search(head, start)
        end = angle.start() if angle else len(head)
        found = _CHARSET_ATTRIBUTE.search(head, start, end)
        if found is not None and found.start() - start <= _META_CHARSET_REACH:
            return found
    return None


def _bom(content: bytes) -> Optional[str]:
    if content.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return None


#: The byte-order marks of UTF-32, which XML reads (XML 1.0 Appendix F) and the web's encodings do not.
_UTF32_MARKS = (codecs.BOM_UTF32_BE, codecs.BOM_UTF32_LE)
#: The forms of Unicode an XML document opening with ``<`` may be in without a byte-order mark, besides
#: the ASCII-compatible ones: where the NUL bytes of its first characters fall says which.
_WIDE_FORMS = ("utf-32-be", "utf-32-le", "utf-16-be", "utf-16-le")


def xml_encoding(content: bytes) -> Optional[str]:
    """The codec an XML document's first bytes fix, as XML 1.0 Appendix F reads them: a byte-order
    mark (UTF-32's first: ``FF FE 00 00`` is no UTF-16 mark followed by a NUL), else the UTF-16 or
    UTF-32 form in which its first four bytes are ``<`` and characters without a NUL (``00 3C 00 3F``
    is UTF-16BE ``<?``); ``None`` for a document in an ASCII-compatible encoding, which its
    declaration or its server names. Read as UTF-8, a BOM-less UTF-16 document was every other
    character a NUL, and refused as binary data."""
    if content.startswith(_UTF32_MARKS):
        return "utf-32"
    marked = _bom(content)
    if marked or b"\x00" not in content[:4]:  # an ASCII-compatible opening has no NUL: no decoding tried
        return marked
    for form in _WIDE_FORMS:
        try:
            opening = content[:4].decode(form)
        except UnicodeDecodeError:
            continue
        if opening.startswith("<") and "\x00" not in opening:
            return form
    return None


#: An XML declaration's ``encoding`` (``<?xml version="1.0" encoding="windows-1251"?>``), at the
#: very start of the document as XML places it (after a UTF-8 byte-order mark).
_XML_DECLARED = re.compile(rb"(?:\xef\xbb\xbf)?<\?xml\s[^<>]{0,200}?encoding\s*=\s*[\"']([A-Za-z0-9_.:\-]{1,40})[\"']")


def xml_declared_charset(content: bytes) -> Optional[str]:
    """The codec an XML declaration names, if it names a web encoding. UTF-16 named in ASCII bytes
    means UTF-8, as for ``<meta>`` (:func:`meta_charset`): a file converted to UTF-8 that kept its
    declaration was read as UTF-16, every two bytes one CJK-looking character."""
    match = _XML_DECLARED.match(content)
    codec = _codec(match.group(1).decode("ascii")) if match else None
    return "utf-8" if codec in _UTF16 else codec


#: A byte that is not UTF-8, as the ``surrogateescape`` handler writes it (U+DC80..U+DCFF).
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")
#: The ASCII bytes (what ``bytes.translate`` deletes to count the others).
_ASCII = bytes(range(128))
#: How many of a page's non-ASCII bytes must form UTF-8 for it to be read as UTF-8 with its
#: few stray bytes replaced (a page in a legacy charset forms almost none).
_UTF8_SHARE = 0.9
#: How many bytes :func:`_mostly_utf8` reads between two checkpoints (about 10 ms of stray bytes).
_UTF8_CHUNK = 128 * 1024


def _mostly_utf8(content: bytes) -> Optional[str]:
    """``content`` as UTF-8, each stray byte replaced by U+FFFD, when at least
    :data:`_UTF8_SHARE` of its non-ASCII bytes are UTF-8 (what a browser shows for a page
    declared UTF-8); ``None`` when they are not, so detection reads a mislabelled page.

    A page that is UTF-8 throughout (nearly every one) is decoded strictly first: the same
    text, without the scan for stray bytes (a DuckDuckGo page: 82 -> 8 us). Otherwise one
    substitution both replaces and counts the stray bytes (a count, then a replacement, scanned
    a 180 KB page twice: 8.7 -> 4.2 ms), :data:`_UTF8_CHUNK` bytes at a time with a
    :func:`~websearch_sync.checkpoints.checkpoint` between them (a body of stray bytes costs 0.1 us
    a byte: 5 MB held the GIL 0.6 s past a fetch's deadline), stopping once too many were stray
    (the incremental decoder holds back a character cut between two chunks: the same text)."""
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        pass
    most_stray = (1 - _UTF8_SHARE) * len(content.translate(None, _ASCII))
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    parts: list[str] = []
    stray = 0
    for start in range(0, len(content), _UTF8_CHUNK):
        checkpoint()
        end = start + _UTF8_CHUNK
        part, count = _ESCAPED_BYTE.subn("\ufffd", decoder.decode(content[start:end], final=end >= len(content)))
        stray += count
        if stray > most_stray:
            return None
        parts.append(part)
    return "".join(parts)


def _strict(content: bytes, codec: Optional[str], cut: bool = False) -> Optional[str]:
    """``content`` decoded by ``codec`` without a byte replaced (UTF-8: see :func:`_mostly_utf8`), else
    ``None``; when ``cut`` by the byte cap, without the character the cut fell in (:func:`_whole_characters`)."""
    if not codec:
        return None
    if cut:
        content = _whole_characters(content, codec)
    if codec == "utf-8":
        return _mostly_utf8(content)
    try:
        return content.decode(codec)
    except (UnicodeError, LookupError):  # UnicodeError: what some codecs raise instead of UnicodeDecodeError
        return None


def _whole_characters(content: bytes, codec: Optional[str]) -> bytes:
    """``content``, cut by the byte cap, without the first bytes of the character the cut fell
    in: decoded, they were a U+FFFD at the end of the text (two or three for a cut UTF-8
    character), and they failed a strict decoding, sending a page in its declared charset to
    detection. Found by the codec's own incremental decoder: what it holds back unfinished."""
    if not codec:
        return content
    try:
        decoder = codecs.getincrementaldecoder(codec)("surrogateescape")
        decoder.decode(content, final=False)
        pending: bytes = decoder.getstate()[0]
    except (UnicodeError, LookupError):  # a charset Python does not know: the caller's decoding says so
        return content
    return content[: len(content) - len(pending)] if pending else content


#: The most bytes of a page detection reads.
_DETECTED_BYTES = 200_000
#: A non-ASCII byte; with :data:`_BRACKET`, where a page's markup is cut to sample its text (no byte
#: of a character of a legacy double-byte charset is a bracket: GBK's, Big5's and Shift_JIS's second
#: bytes are 0x40 and above).
_NON_ASCII = re.compile(rb"[\x80-\xff]")


def _text_sample(content: bytes) -> bytes:
    """What detection reads of ``content``: the runs between its tags' brackets that hold a non-ASCII
    byte, one a line, up to :data:`_DETECTED_BYTES`. Markup and scripts are ASCII, which reads as
    English in every single-byte charset: on a Baidu page in GBK (98 % markup, 5,710 non-ASCII bytes
    in 368 KB) detection rated cp1250 first. A body holding NUL bytes (UTF-16 without a mark, whose
    code units a cut at a bracket would split) is read as it is. One scan, in the regex engine:
    from each non-ASCII byte to the next bracket, back to the one before it."""
    if b"\x00" in content:
        return content[:_DETECTED_BYTES]
    parts: list[bytes] = []
    size = end = 0  # end: the bracket the part before ended at (no scan goes back past it)
    found = _NON_ASCII.search(content)
    while found is not None and size < _DETECTED_BYTES:
        at = found.start()
        start = max(content.rfind(b"<", end, at), content.rfind(b">", end, at)) + 1
        bracket = _BRACKET.search(content, at)
        end = bracket.start() if bracket is not None else len(content)
        parts.append(content[start:end])
        size += end - start + 1
        found = _NON_ASCII.search(content, end)
    return b"\n".join(parts)[:_DETECTED_BYTES] if parts else content[:_DETECTED_BYTES]


#: The legacy charsets writing a character in two bytes (or four: GB18030) that the web knows.
_DOUBLE_BYTE = ("gb18030", "big5hkscs", "cp932", "euc_jp", "cp949")
#: A run of two or more characters as the double-byte charsets write them: a first byte
#: 0x81-0xFE, a second 0x40-0x7E or 0x80-0xFE (Big5's and Shift_JIS's second bytes are often ASCII
#: letters). A single-byte charset's accented letter or curly quote stands alone between ASCII
#: letters and blanks. Each repetition takes two bytes: no backtracking beyond a run's last pair.
_DOUBLE_BYTE_RUN = re.compile(rb"(?:[\x81-\xfe][\x40-\x7e\x80-\xfe]){2,}")
#: Half-width katakana, which Shift_JIS writes in one byte (0xA1-0xDF): what the letters of a
#: single-byte charset (KOI8-R's Cyrillic, cp874's Thai) mostly read as in Shift_JIS.
_HALF_WIDTH_KANA = re.compile("[\uff61-\uff9f]")
#: The most of a sample's non-ASCII characters that may be :data:`_HALF_WIDTH_KANA`.
_HALF_WIDTH_SHARE = 0.1


def _double_byte(sample: bytes) -> bool:
    """Whether ``sample`` reads as text in a :data:`_DOUBLE_BYTE` charset: most of its non-ASCII
    bytes in runs of two such characters or more, decoded by one of them without an error, not
    mostly into half-width katakana (:data:`_HALF_WIDTH_SHARE`). A page of Latin text has no such
    runs (Shift_JIS alone decodes ``You\x92re`` and ``\xa9 2016``); Cyrillic, Greek or Thai text
    in runs fails the decoding (a word's last letter before a blank, or a byte such as cp1251's
    0xFF, is no double-byte character), or reads as Shift_JIS's one-byte katakana."""
    high = len(sample.translate(None, _ASCII))
    in_runs = sum(len(run.translate(None, _ASCII)) for run in _DOUBLE_BYTE_RUN.findall(sample))
    if not high or 2 * in_runs < high:
        return False
    for codec in _DOUBLE_BYTE:
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError:
            continue
        foreign = len(text) - len(text.encode("ascii", "ignore"))
        if len(_HALF_WIDTH_KANA.findall(text)) <= _HALF_WIDTH_SHARE * foreign:
            return True
    return False


def _detect(content: bytes) -> Optional[str]:
    """The encoding charset_normalizer finds most likely: of the double-byte charsets, reading the
    page's text (:func:`_text_sample`), when that text runs as theirs (:func:`_double_byte`: a GBK
    Baidu page was read as cp1250), else of all, reading the page's head. Of several it rates alike
    (the same chaos and coherence: a Spanish page reads the same as cp1252 and cp1250 but for its
    ``ñ``, cp1250's ``ń``; a Hungarian page the same but for its ``ő``, cp1252's ``õ``), the one
    decoding whose accented letters spell one language's alphabet; when none or several do, the
    most likely."""
    try:
        from charset_normalizer import from_bytes  # installed with requests
    except ImportError:  # pragma: no cover - requests may use chardet instead
        return None
    sample = _text_sample(content)
    # a page whose text runs as a double-byte charset's: which of them, by its text; else (or when
    # none of them reads it) every charset, by the page's head
    matches = from_bytes(sample, cp_isolation=list(_DOUBLE_BYTE)) if _double_byte(sample) else None
    if not matches:
        matches = from_bytes(content[:_DETECTED_BYTES])
    best = matches.best()
    if best is None:
        return None
    tied = [match for match in matches if (match.chaos, match.coherence) == (best.chaos, best.coherence)]
    spelled = spelling_candidates(str(match) for match in tied)
    return _codec(tied[spelled[0]].encoding if len(spelled) == 1 else best.encoding)


def _labelled(content: bytes, content_type: Optional[str], header: Optional[str], xml: bool) -> Iterator[Optional[str]]:
    """The codecs the body's bytes and labels name, in the order :func:`decode_body` tries them,
    each found when it is asked for: a page whose header's charset fits its bytes is not searched
    for a ``<meta charset>`` (up to 16 KB read tag by tag, a Python step per ``<meta``)."""
    xml = xml or xml_media(media_type(content_type))
    yield xml_encoding(content) if xml else _bom(content)
    if header == "cp1252" and not content.isascii():
        # "ISO-8859-1" is the classic wrong label: bytes that are valid UTF-8 are UTF-8.
        yield "utf-8"
    yield header if _may_be(header, content) else None
    if xml:
        yield xml_declared_charset(content)
    # a body that says nothing of itself (``*/*``, ``application/octet-stream``...) is sniffed as one
    # under no type, so may be a page naming its charset; and one under an image's or a PDF's type is
    # decoded only when it opens as a page (``net.media.content_kind``)
    media = media_type(content_type)
    is_html = untyped(media) or "html" in media or "xml" in media or media.startswith("image/") or media in PDF_TYPES
    if is_html:
        yield meta_charset(content)
    yield "utf-8"


def decode_body(content: bytes, content_type: Optional[str] = None, *, cut: bool = False, xml: bool = False) -> str:
    """Decode a response body to text.

    Order: byte-order mark, the header's charset, ``<meta charset>``, UTF-8, then
    statistical detection. An XML type's body (``contenttype.xml_media``) is read as XML reads
    it (RFC 7303, XML 1.0 Appendix F): its first bytes' form of Unicode (:func:`xml_encoding`:
    a byte-order mark, UTF-32's too, or a BOM-less UTF-16 or UTF-32 ``<``), the header's charset,
    then its XML declaration's encoding (:func:`xml_declared_charset`), before ``<meta charset>``,
    which an XML parser does not read; so is a body ``xml`` says is read as XML whatever its type
    (an untyped one sniffed as XHTML: ``HttpResponse.read_as_xml``). A declared charset that does
    not fit the bytes is not trusted blindly (servers lie); UTF-8 fits a page whose non-ASCII bytes are UTF-8 but
    for a few stray ones (each read as U+FFFD, as a browser shows them: one bad byte does
    not turn the page into another charset). The last resort decodes with replacement
    characters, so this never raises. A body ``cut`` by the byte cap is read without the
    character the cut fell in (:func:`_whole_characters`).
    """
    if not content:
        return ""
    header = declared_charset(content_type)
    for codec in _labelled(content, content_type, header, xml):
        text = _strict(content, codec, cut)
        if text is not None:
            return text
    detected = _detect(content)
    text = _strict(content, detected, cut)
    if text is not None:
        return text
    codec = header or detected or "utf-8"
    try:
        return (_whole_characters(content, codec) if cut else content).decode(codec, errors="replace")
    except (UnicodeError, LookupError):  # pragma: no cover - web encodings decode anything with "replace"
        return content.decode("utf-8", errors="replace")
