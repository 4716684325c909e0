"""Small images built in the test: PNG and GIF written here by hand (PNG with zlib, so the
size reader is checked against bytes no image library wrote; GIF frames of any size and data),
JPEG, WebP and noise images through Pillow (the ``images`` extra, in the test extra), and
JPEG and WebP headers rewritten to declare other sizes."""

import io
import os
import struct
import zlib
from typing import Optional

__all__ = [
    "png",
    "apng",
    "pillow_image",
    "noise_png",
    "gif",
    "jpeg_frame",
    "webp_frame",
    "animation",
    "webp_animation",
]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width: int, height: int, *, pixels: bool = True, parts: int = 1) -> bytes:
    """A grey 8-bit greyscale PNG of ``width`` x ``height`` (one grey compresses to almost
    nothing); without ``pixels`` only its header is right (for sizes never to be decoded);
    ``parts``: its image data split into that many ``IDAT`` chunks of (about) equal length."""
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height)) if pixels else b""
    data = zlib.compress(rows)
    step = -(-len(data) // parts)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + b"".join(_chunk(b"IDAT", data[n : n + step]) for n in range(0, max(len(data), 1), step))
        + _chunk(b"IEND", b"")
    )


def _grey_rows(width: int, height: int, grey: int) -> bytes:
    return zlib.compress(b"".join(b"\x00" + bytes([grey]) * width for _ in range(height)))


def apng(
    size: tuple[int, int],
    frames: list[tuple[int, int, int, int, int]],
    *,
    default_frame: bool = True,
    claimed: Optional[int] = None,
) -> bytes:
    """An APNG written here chunk by chunk (greyscale, 8-bit): its default image of ``size``,
    grey 0x80, then ``frames`` as ``(left, top, width, height, grey)``, each a frame control
    and one ``fdAT``; ``default_frame``: the default image is the animation's first frame
    (its frame control before ``IDAT``); ``claimed``: the frame count ``acTL`` states."""
    count = len(frames) + default_frame
    out = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", *size, 8, 0, 0, 0, 0))
    out += _chunk(b"acTL", struct.pack(">II", count if claimed is None else claimed, 0))
    sequence = 0
    if default_frame:
        out += _chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, *size, 0, 0, 1, 10, 0, 0))
        sequence += 1
    out += _chunk(b"IDAT", _grey_rows(*size, 0x80))
    for left, top, width, height, grey in frames:
        out += _chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, width, height, left, top, 1, 10, 0, 0))
        out += _chunk(b"fdAT", struct.pack(">I", sequence + 1) + _grey_rows(width, height, grey))
        sequence += 2
    return out + _chunk(b"IEND", b"")


def pillow_image(width: int, height: int, kind: str) -> bytes:
    """A two-colour image in Pillow's ``kind`` format (``JPEG``, ``WEBP``, ``GIF``, ``PNG``)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), (200, 30, 30))
    ImageDraw.Draw(image).rectangle((0, 0, width // 2, height // 2), fill=(20, 20, 200))
    out = io.BytesIO()
    image.save(out, format=kind)
    return out.getvalue()


def noise_png(width: int, height: int) -> bytes:
    """An RGB PNG of random pixels: about 3 bytes a pixel, whatever the compression."""
    from PIL import Image

    out = io.BytesIO()
    # stored, not deflated: random bytes do not compress, and deflating them was most of the cost
    Image.frombytes("RGB", (width, height), os.urandom(width * height * 3)).save(out, format="PNG", compress_level=0)
    return out.getvalue()


def gif(screen: tuple[int, int], frames: list[tuple[int, int, int, int, bytes]], *, trailer: bool = True) -> bytes:
    """A GIF of logical screen ``screen`` (two colours) whose frames are ``(left, top, width,
    height, LZW data)``, the data in sub-blocks of 255 bytes; ``trailer``: ends with ``;``."""
    out = b"GIF89a" + struct.pack("<HHBBB", *screen, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff"
    for left, top, width, height, data in frames:
        blocks = b"".join(bytes([len(data[n : n + 255])]) + data[n : n + 255] for n in range(0, len(data), 255))
        out += b"," + struct.pack("<HHHHB", left, top, width, height, 0) + b"\x02" + blocks + b"\x00"
    return out + (b";" if trailer else b"")


def jpeg_frame(body: bytes, width: int, height: int, *, added: bool = False) -> bytes:
    """The JPEG ``body`` with its (first) frame header declaring ``width`` x ``height``, or,
    ``added``, with a second frame header declaring it after its own."""
    start = next(body.index(marker) for marker in (b"\xff\xc0", b"\xff\xc2") if marker in body)
    end = start + 2 + struct.unpack(">H", body[start + 2 : start + 4])[0]
    frame = body[start : start + 5] + struct.pack(">HH", height, width) + body[start + 9 : end]
    return body[:end] + frame + body[end:] if added else body[:start] + frame + body[end:]


def webp_frame(body: bytes, width: int, height: int, *, canvas: Optional[tuple[int, int]] = None) -> bytes:
    """The lossy WebP ``body`` (one ``VP8 `` chunk) with its frame declaring ``width`` x
    ``height``; ``canvas``: inside an extended file (``VP8X``) of that canvas."""
    chunk = bytearray(body[12:])
    chunk[14:18] = struct.pack("<HH", width, height)
    if canvas is not None:
        extended = struct.pack("<I", 0) + (canvas[0] - 1).to_bytes(3, "little") + (canvas[1] - 1).to_bytes(3, "little")
        chunk = bytearray(b"VP8X" + struct.pack("<I", len(extended)) + extended) + chunk
    return b"RIFF" + struct.pack("<I", 4 + len(chunk)) + b"WEBP" + bytes(chunk)


def animation(
    kind: str, size: tuple[int, int] = (48, 32), frames: int = 3, *, corner: bool = True, **options: object
) -> bytes:
    """An animation of ``frames`` RGBA frames of different colours written by Pillow in its
    ``kind`` format (``PNG``: an APNG, ``WEBP``, ``GIF``); ``corner``: each frame leaves a
    transparent 4-pixel strip at its top and left (libwebp then stores the first frame without
    it: a frame that does not cover the canvas); ``options`` go to Pillow's ``save``
    (``default_image=True``: an APNG whose default image is not a frame; ``lossless``)."""
    from PIL import Image, ImageDraw

    images = []
    for n in range(frames):
        image = Image.new("RGBA", size, (0, 0, 0, 0) if corner else (20, 20, 20, 255))
        ImageDraw.Draw(image).rectangle((4, 4, size[0] - 1, size[1] - 1), fill=(200 - 60 * n, 30 + 60 * n, 30, 255))
        images.append(image)
    out = io.BytesIO()
    images[0].save(out, format=kind, save_all=True, append_images=images[1:], duration=80, loop=0, **options)
    return out.getvalue()


def _riff_chunk(kind: bytes, data: bytes) -> bytes:
    return kind + struct.pack("<I", len(data)) + data + b"\x00" * (len(data) & 1)


def webp_animation(canvas: tuple[int, int], frames: list[tuple[int, int, bytes]]) -> bytes:
    """An animated WebP of ``canvas`` written here chunk by chunk, whose frames are ``(left,
    top, still WebP)`` (offsets even, as the format stores them halved): each still's chunks
    after its own header (``VP8X`` left out: ``ALPH``, ``VP8 ``, ``VP8L``) in an ``ANMF``."""
    flags = 0x02  # animation
    anmf = b""
    for left, top, still in frames:
        inner = b""
        position = 12
        while position < len(still):
            kind, length = still[position : position + 4], struct.unpack("<I", still[position + 4 : position + 8])[0]
            if kind != b"VP8X":
                inner += still[position : position + 8 + length + (length & 1)]
            flags |= 0x10 if kind == b"ALPH" else 0
            position += 8 + length + (length & 1)
        from PIL import Image

        with Image.open(io.BytesIO(still)) as image:
            width, height = image.size
        header = (
            b"".join(value.to_bytes(3, "little") for value in (left // 2, top // 2, width - 1, height - 1, 80))
            + b"\x00"
        )
        anmf += _riff_chunk(b"ANMF", header + inner)
    extended = bytes([flags, 0, 0, 0]) + (canvas[0] - 1).to_bytes(3, "little") + (canvas[1] - 1).to_bytes(3, "little")
    chunks = _riff_chunk(b"VP8X", extended) + _riff_chunk(b"ANIM", b"\x00\x00\x00\x00\x00\x00") + anmf
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WEBP" + chunks
