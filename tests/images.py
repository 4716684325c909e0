"""Small images built in the test: PNG, GIF and WebP-free bytes written here (PNG by hand with
zlib, so the size reader is checked against bytes no image library wrote), and JPEG, WebP and
noise images through Pillow (the ``images`` extra, in the test extra)."""

import io
import os
import struct
import zlib

__all__ = ["png", "pillow_image", "noise_png"]


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
