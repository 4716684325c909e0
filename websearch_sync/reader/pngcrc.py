"""A PNG whose image data chunks carry a wrong CRC, returned with the CRCs made right, as Pillow
decodes it.

Pillow checks the CRC of the chunks it reads while opening a PNG (IHDR, PLTE and the ancillary
ones before the image data: "cannot identify image file"), not of ``IDAT`` (it reads the image
data without it) nor of ``IEND``; libpng, by default, refuses a wrong CRC in any of them. Such a
file was refused (``image_unreadable``), though Pillow, and so a model API decoding with it,
shows it. Returned as it is, a decoder like libpng would refuse it, and the model API the whole
request carrying it. So when the ``IDAT`` data is whole by its own check, the zlib stream's
Adler-32 (zlib verifies it when the stream ends: damaged data fails it, or the stream's
decoding), the wrong ``IDAT`` and ``IEND`` CRCs are written right: every decoder then reads the
pixels Pillow shows. A wrong CRC elsewhere is left, and refused as before
(:func:`~.imagesize.read_header`).
"""

import zlib
from typing import Callable

from ..checkpoints import checkpoint
from .imagesize import CUT, png_chunks, png_filtered_bytes, png_ihdr_valid, png_size

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The chunks whose CRC Pillow does not check.
UNCHECKED = (b"IDAT", b"IEND")
#: Bytes inflated between two checkpoints (zlib's work in C: about a millisecond).
_STEP = 1 << 20
#: How many times the bytes its rows take (:func:`~.imagesize.png_filtered_bytes`) the image data
#: may inflate to, and bytes more: past it the stream holds more than the image (3.9 MB of
#: deflated zeros inflate to 4 GB), which Pillow never reads and this does not either.
_ROWS_SLACK, _BYTES_SLACK = 2, 1024


def with_crcs_repaired(data: bytes, refused: Callable[[tuple[int, int]], bool]) -> bytes:
    """``data`` with the CRC of each ``IDAT`` and ``IEND`` chunk that holds a wrong one made right,
    when its image data inflates whole (:func:`_inflates_whole`); ``data`` itself when none is
    wrong, when the data does not, or when a chunk runs past the end (a cut file, refused as such)
    or the file opens with no valid IHDR (its size and rows unread: refused as before). Nor when
    ``refused(size)`` says the size its IHDR declares is refused however whole its data (over the
    caps, too large to decode): checking that it is whole inflated all of it first (4.5 s of CPU
    for a 1.9 MB PNG declaring 100000x20000 pixels), to refuse it after."""
    if not png_ihdr_valid(data) or refused(png_size(data)):
        return data
    view = memoryview(data)
    wrong: list[tuple[int, int]] = []  # (start, end) of each chunk whose CRC is wrong
    idat: list[memoryview] = []
    for kind, start, end in png_chunks(data):
        if kind == CUT:
            return data
        if kind == b"IDAT":
            idat.append(view[start + 8 : end - 4])
        if kind in UNCHECKED and _crc(view, start, end) != bytes(view[end - 4 : end]):
            wrong.append((start, end))
    filtered = png_filtered_bytes(data)
    if not wrong or not _inflates_whole(idat, filtered, _ROWS_SLACK * filtered + _BYTES_SLACK):
        return data
    repaired = bytearray(data)
    for start, end in wrong:
        repaired[end - 4 : end] = _crc(view, start, end)
    return bytes(repaired)


def _crc(view: memoryview, start: int, end: int) -> bytes:
    """The CRC the chunk at ``view[start:end]`` should end with: of its type and data."""
    return zlib.crc32(view[start + 4 : end - 4]).to_bytes(4, "big")


def _inflates_whole(parts: list[memoryview], least: int, most: int) -> bool:
    """Whether the zlib stream ``parts`` hold (the ``IDAT`` chunks' data, in order) decodes to its
    end, its Adler-32 checked, to ``least`` bytes (the rows the image needs: a short stream whole
    by its own check still leaves Pillow rows to read, "image file is truncated") and at most
    ``most``, with nothing after it; its output counted away a step at a time."""
    inflater = zlib.decompressobj()
    made = 0
    try:
        for part in parts:
            pending = bytes(part)
            while pending and made <= most:
                checkpoint()
                made += len(inflater.decompress(pending, _STEP))
                pending = inflater.unconsumed_tail
        while not inflater.eof and made <= most:
            checkpoint()
            out = inflater.decompress(b"", _STEP)
            if not out:
                break
            made += len(out)
    except zlib.error:
        return False
    return inflater.eof and not inflater.unused_data and least <= made <= most
