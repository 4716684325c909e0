"""Turning response bytes into text: declared charset, then ``<meta>``, then detection."""

import codecs
import re
from typing import Optional

__all__ = ["decode_body", "declared_charset", "meta_charset"]

_CHARSET_PARAM = re.compile(r"charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:\-]+)", re.I)
_META_CHARSET = re.compile(rb"<meta[^>]{0,300}?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:\-]+)", re.I)
_META_SCAN_BYTES = 16384

# Labels whose real-world meaning is a superset (what browsers do, per the WHATWG Encoding spec).
_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "gb_2312-80": "gb18030",
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "big5": "big5hkscs",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "euc-kr": "cp949",
}


def _codec(label: Optional[str]) -> Optional[str]:
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    label = _SUPERSETS.get(label, label)
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def declared_charset(content_type: Optional[str]) -> Optional[str]:
    """The codec named by a Content-Type header's ``charset`` parameter, if valid."""
    if not content_type:
        return None
    match = _CHARSET_PARAM.search(content_type)
    return _codec(match.group(1)) if match else None


def meta_charset(content: bytes) -> Optional[str]:
    """The codec named by a ``<meta charset>`` / ``http-equiv`` tag near the top of a page."""
    match = _META_CHARSET.search(content[:_META_SCAN_BYTES])
    return _codec(match.group(1).decode("ascii", "ignore")) if match else None


def _bom(content: bytes) -> Optional[str]:
    if content.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return None


def _strict(content: bytes, codec: Optional[str]) -> Optional[str]:
    if not codec:
        return None
    try:
        return content.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None


def _detect(content: bytes) -> Optional[str]:
    try:
        from charset_normalizer import from_bytes  # installed with requests
    except ImportError:  # pragma: no cover - requests may use chardet instead
        return None
    best = from_bytes(content[:200_000]).best()
    return _codec(best.encoding) if best is not None else None


def decode_body(content: bytes, content_type: Optional[str] = None) -> str:
    """Decode a response body to text.

    Order: byte-order mark, the header's charset, ``<meta charset>``, UTF-8, then
    statistical detection. A declared charset that does not fit the bytes is not
    trusted blindly (servers lie); the last resort decodes with replacement
    characters, so this never raises.
    """
    if not content:
        return ""
    header = declared_charset(content_type)
    candidates = [_bom(content), header]
    is_html = not content_type or "html" in content_type.lower() or "xml" in content_type.lower()
    if is_html:
        candidates.append(meta_charset(content))
    candidates.append("utf-8")
    if header == "cp1252" and not content.isascii():
        # "ISO-8859-1" is the classic wrong label: bytes that are valid UTF-8 are UTF-8.
        candidates.insert(1, "utf-8")
    for codec in candidates:
        text = _strict(content, codec)
        if text is not None:
            return text
    detected = _detect(content)
    text = _strict(content, detected)
    if text is not None:
        return text
    fallback = header or detected or "utf-8"
    return content.decode(fallback, errors="replace")
