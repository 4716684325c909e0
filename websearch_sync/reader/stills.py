"""A still image of an animation, cut out of the file's bytes without decoding a pixel.

A still image is what every model API takes (OpenAI's vision input takes a GIF only when it is
not animated, and a model API refuses the whole request that carries an image it does not
take), so fetch returns an animation's first frame, in its own format:

- GIF: the header, the screen, the first frame and its graphic control
  (:func:`~.imagesize.gif_first_frame`);
- APNG: the PNG without its animation chunks (``acTL``, ``fcTL``, ``fdAT``). Its default image
  (``IDAT``) is a still PNG, byte for byte, and the first frame when a frame control comes
  before it. When the default image is not part of the animation, the first frame is built
  from its ``fdAT`` chunks (their data less the sequence number, as ``IDAT``, each with the
  CRC of its new data) when it covers the whole image from its corner; otherwise the default
  image is returned, the still image the file holds for viewers that do not animate;
- animated WebP: the first ``ANMF`` frame's bitstream (``VP8L``, or ``VP8 `` with its
  ``ALPH`` alpha chunk) in a still file of its own, when the frame covers the whole canvas
  from its corner. A frame that does not is composed onto the canvas by a decoder: :func:`first_frame`
  says so (``None``) and :mod:`.image` decodes it with Pillow, or refuses it without.

The input is a file :func:`~.imagesize.read_header` read whole (every chunk within the data);
the walks are the ones it makes, bounded by the data's length.
"""

import struct
import zlib
from typing import NamedTuple, Optional

from .imagesize import (
    ANMF_HEADER,
    CUT,
    anmf_frame,
    gif_first_frame,
    png_chunks,
    read_header,
    webp_chunks,
    webp_declared_size,
)

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The chunks of an APNG's animation: control, frame controls, frame data.
_APNG_CHUNKS = (b"acTL", b"fcTL", b"fdAT")
#: Bytes of a frame control's data: sequence number, width, height, left, top, delay, disposal, blending.
_FCTL_LENGTH = 26
#: A VP8X chunk's flag: the image has an alpha channel (an ``ALPH`` chunk).
_VP8X_ALPHA = 0x10


class Still(NamedTuple):
    """A still image cut out of an animation."""

    data: bytes
    #: Whether it is the animation's first frame (false: an APNG's default image, not part of
    #: the animation, returned in its place).
    first: bool = True


def first_frame(data: bytes, media: str, size: tuple[int, int]) -> Optional[Still]:
    """The still image to return for the animated image ``data`` of type ``media`` and ``size``
    (its header's, which the caller has read); ``None`` when it cannot be cut out of the bytes
    (a WebP whose first frame does not cover the canvas, or that has no frame to cut: it must be
    decoded), or when what was cut is no still image of that size (a frame whose bitstream says
    another size, or none: a consumer could not read it)."""
    still = _cut(data, media)
    if still is None:
        return None
    cut = read_header(still.data, media)
    if cut is None or cut.animated or cut.size != size:
        return None
    return still


def _cut(data: bytes, media: str) -> Optional[Still]:
    if media == "image/gif":
        return Still(gif_first_frame(data))
    if media == "image/png":
        return _apng_still(data)
    if media == "image/webp":
        return _webp_still(data)
    return None


def _png_chunk(kind: bytes, content: bytes) -> bytes:
    return struct.pack(">I", len(content)) + kind + content + struct.pack(">I", zlib.crc32(kind + content))


def _apng_still(data: bytes) -> Still:
    """The APNG ``data`` as a still PNG (see the module docstring)."""
    chunks = list(png_chunks(data))
    first_control = next((n for n, (kind, _, _) in enumerate(chunks) if kind == b"fcTL"), None)
    first_data = next((n for n, (kind, _, _) in enumerate(chunks) if kind == b"IDAT"), len(chunks))
    if first_control is not None and first_control > first_data:  # the default image is not a frame
        built = _apng_frame(data, chunks, first_control, first_data)
        if built is not None:
            return Still(built)
        return Still(_still_chunks(data, chunks), first=False)
    return Still(_still_chunks(data, chunks))


def _still_chunks(data: bytes, chunks: list[tuple[bytes, int, int]]) -> bytes:
    """The signature and the chunks but the animation's, each as it is (its CRC unchanged)."""
    kept = (data[start:end] for kind, start, end in chunks if kind != CUT and kind not in _APNG_CHUNKS)
    return data[:8] + b"".join(kept)


def _apng_frame(data: bytes, chunks: list[tuple[bytes, int, int]], control: int, first_data: int) -> Optional[bytes]:
    """The frame whose control is ``chunks[control]`` as a still PNG: the chunks before the
    default image's data (``chunks[first_data]``: ``IHDR``, the palette, the colour
    information), the frame's ``fdAT`` data as ``IDAT``, ``IEND``; ``None`` when the frame does
    not cover the image from its corner, or its control or data chunks are too short to be what
    they say."""
    _, start, end = chunks[control]
    width, height = struct.unpack(">II", data[16:24])
    if end - start - 12 < _FCTL_LENGTH or struct.unpack(">IIII", data[start + 12 : start + 28]) != (
        width,
        height,
        0,
        0,
    ):
        return None
    frame = []
    for kind, chunk_start, chunk_end in chunks[control + 1 :]:
        if kind != b"fdAT":
            break
        if chunk_end - chunk_start - 12 < 4:  # no room for its sequence number
            return None
        frame.append(_png_chunk(b"IDAT", data[chunk_start + 12 : chunk_end - 4]))
    if not frame:
        return None
    return _still_chunks(data, chunks[:first_data]) + b"".join(frame) + _png_chunk(b"IEND", b"")


def _riff(chunks: bytes) -> bytes:
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WEBP" + chunks


def _webp_chunk(kind: bytes, content: bytes) -> bytes:
    return kind + struct.pack("<I", len(content)) + content + b"\x00" * (len(content) & 1)


def _webp_still(data: bytes) -> Optional[Still]:
    """The first ``ANMF`` frame of the animated WebP ``data`` as a still WebP, when it covers
    the canvas from its corner: its lossless bitstream alone, its lossy one alone or, with an
    alpha chunk, both after a ``VP8X`` chunk saying so (metadata and colour profile left out)."""
    end = 8 + int.from_bytes(data[4:8], "little")
    canvas = frame = None
    for kind, start, stop in webp_chunks(data, 12, end):
        if kind == b"VP8X":
            canvas = webp_declared_size(data, kind, start, stop - start)
        elif kind == b"ANMF" and stop - start >= ANMF_HEADER:
            frame = start, stop
            break
    if canvas is None or frame is None or anmf_frame(data, frame[0]) != (0, 0, *canvas):
        return None
    bitstreams = {
        kind: data[start:stop]
        for kind, start, stop in webp_chunks(data, frame[0] + ANMF_HEADER, frame[1])
        if kind in (b"ALPH", b"VP8 ", b"VP8L")
    }
    if b"VP8L" in bitstreams:
        return Still(_riff(_webp_chunk(b"VP8L", bitstreams[b"VP8L"])))
    if b"VP8 " not in bitstreams:
        return None
    lossy = _webp_chunk(b"VP8 ", bitstreams[b"VP8 "])
    if b"ALPH" not in bitstreams:
        return Still(_riff(lossy))
    extended = (
        bytes([_VP8X_ALPHA, 0, 0, 0]) + (canvas[0] - 1).to_bytes(3, "little") + (canvas[1] - 1).to_bytes(3, "little")
    )
    return Still(_riff(_webp_chunk(b"VP8X", extended) + _webp_chunk(b"ALPH", bitstreams[b"ALPH"]) + lossy))
