"""Small images built in the test: PNG and GIF written here by hand (PNG with zlib, so the
size reader is checked against bytes no image library wrote; GIF frames of any size and data),
JPEG, WebP and noise images through Pillow (the ``images`` extra, in the test extra), and
JPEG and WebP headers rewritten to declare other sizes."""

import io
import os
import struct
import zlib
from typing import Optional

__all__ = ["png", "pillow_image", "noise_png", "gif", "jpeg_frame", "webp_frame"]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width: int, height: int, *, pixels: bool = True) -> bytes:
    """A grey 8-bit greyscale PNG of ``width`` x ``height`` (one grey compresses to almost
    nothing); without ``pixels`` only its header is right (for sizes never to be decoded)."""
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height)) if pixels else b""
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + _chunk(b"IDAT", zlib.compress(rows))
        + _chunk(b"IEND", b"")
    )


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
    Image.frombytes("RGB", (width, height), os.urandom(width * height * 3)).save(out, format="PNG", compress_level=1)
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
