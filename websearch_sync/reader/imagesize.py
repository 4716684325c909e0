"""The width and height of a PNG, JPEG, GIF or WebP image, read from its header bytes
(no image library), for a file that reaches its end: a file cut short (a body whose
connection closed early, a half-written upload) has a size in its header but cannot be
decoded, and a model API refuses the whole request that carries it. Linear in the bytes
read: PNG chunks and JPEG segments are skipped by length."""

from collections.abc import Iterator
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: JPEG start-of-frame markers (the ones that carry the frame size): C0-CF but DHT, JPG, DAC.
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
#: JPEG markers without a length (start of image, restart markers, TEM).
_STANDALONE = frozenset({0xD8, 0x01, *range(0xD0, 0xD8)})


def _big(data: bytes, start: int, size: int) -> int:
    return int.from_bytes(data[start : start + size], "big")


def _little(data: bytes, start: int, size: int) -> int:
    return int.from_bytes(data[start : start + size], "little")


def _png_chunks(data: bytes) -> Iterator[tuple[bytes, int, int]]:
    """``(type, length, end)`` of a PNG's chunks (length, type, data and CRC after the
    signature) whose head is in ``data``; ``end`` may lie past it (a chunk cut short)."""
    position = 8
    while position + 12 <= len(data):
        length = _big(data, position, 4)
        yield data[position + 4 : position + 8], length, position + 12 + length
        position += 12 + length


def _png(data: bytes) -> Optional[tuple[int, int]]:
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    for kind, _, end in _png_chunks(data):
        if kind == b"IEND":
            return (_big(data, 16, 4), _big(data, 20, 4)) if end <= len(data) else None
    return None


def _gif(data: bytes) -> Optional[tuple[int, int]]:
    ends = data.endswith(b";")  # the trailer
    return (_little(data, 6, 2), _little(data, 8, 2)) if len(data) >= 14 and ends else None


def _webp(data: bytes) -> Optional[tuple[int, int]]:
    if len(data) < 8 + _little(data, 4, 4):  # the RIFF container's length
        return None
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        return _little(data, 26, 2) & 0x3FFF, _little(data, 28, 2) & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = _little(data, 21, 4)
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        return _little(data, 24, 3) + 1, _little(data, 27, 3) + 1
    return None


def _jpeg(data: bytes) -> Optional[tuple[int, int]]:
    """The frame's size, when the first scan (its entropy-coded data follows the SOS
    segment) is followed by the end-of-image marker somewhere (scan data holds none)."""
    size: Optional[tuple[int, int]] = None
    position = 2  # after the start-of-image marker
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            return None
        marker = data[position + 1]
        if marker == 0xFF:  # a fill byte before the marker
            position += 1
            continue
        if marker in _SOF and size is None and position + 9 <= len(data):
            size = _big(data, position + 7, 2), _big(data, position + 5, 2)
        if marker in _STANDALONE:
            position += 2
            continue
        if marker == 0xD9:  # end of image before any scan
            return None
        if marker == 0xDA:  # start of scan
            ends = data.find(b"\xff\xd9", position + 2 + _big(data, position + 2, 2)) != -1
            return size if ends else None
        position += 2 + _big(data, position + 2, 2)
    return None


#: At most this many bytes of pixels come out of one byte of deflate data (its limit is about 1032).
_DEFLATE_RATIO = 1100
#: Channels of a PNG's colour types (grey, RGB, palette, grey and alpha, RGBA).
_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def holds_its_pixels(data: bytes, media: str) -> bool:
    """False when ``data`` is provably too small for the pixels its header declares: a PNG
    whose compressed image data (``IDAT``) could not inflate to its rows even at deflate's
    best ratio (a 90-byte file saying 7999x7999 decodes nowhere, and a model API refuses the
    request that carries it). True for the other formats: no such bound is checked."""
    if media != "image/png" or _png(data) is None:
        return True
    width, height = _big(data, 16, 4), _big(data, 20, 4)
    bits = data[24] * _PNG_CHANNELS.get(data[25], 1)
    compressed = sum(length for kind, length, _ in _png_chunks(data) if kind == b"IDAT")
    return compressed * _DEFLATE_RATIO >= height * ((width * bits + 7) // 8)


_READERS = {"image/png": _png, "image/gif": _gif, "image/webp": _webp, "image/jpeg": _jpeg}


def image_size(data: bytes, media: str) -> Optional[tuple[int, int]]:
    """``(width, height)`` of an image of type ``media`` (``image/png``, ``image/jpeg``,
    ``image/gif``, ``image/webp``) from its bytes; None when the header does not say
    (malformed, or a zero side) or the file does not reach its end: a PNG without its IEND
    chunk, a JPEG without an end-of-image marker after its first scan, a GIF without its
    trailer, a WebP shorter than its RIFF length."""
    reader = _READERS.get(media)
    size = reader(data) if reader is not None else None
    return size if size is not None and size[0] > 0 and size[1] > 0 else None
