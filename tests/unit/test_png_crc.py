"""A PNG whose IDAT or IEND chunk has a wrong CRC (reader/pngcrc.py): Pillow does not check
those CRCs and decodes it, libpng refuses it; fetch refused it (``image_unreadable``). Its image
data whole by the zlib stream's own Adler-32, it is returned with those CRCs made right, so that
every decoder reads the pixels Pillow shows; damaged data, or a wrong CRC of a chunk Pillow
checks, is still refused. PNGs built by hand, chunk by chunk."""

import base64
import io
import struct
import zlib

import pytest
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.net.transport import HttpResponse
from websearch_sync.reader import image as image_reader
from websearch_sync.reader import pngcrc

Image = pytest.importorskip("PIL.Image")

#: 24x16 8-bit grey pixels, a gradient along each row.
PIXELS = [bytes(range(y, y + 24)) for y in range(16)]
#: Its rows as PNG stores them, each after its filter byte (0: none).
ROWS = b"".join(b"\x00" + row for row in PIXELS)


def chunk(kind: bytes, data: bytes, *, wrong_crc: bool = False) -> bytes:
    crc = zlib.crc32(kind + data) ^ (1 if wrong_crc else 0)
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


#: The IHDR of the 24x16 PNG: 8-bit grey, not interlaced.
GREY_IHDR = struct.pack(">IIBBBBB", 24, 16, 8, 0, 0, 0, 0)


def grey_png(
    *,
    wrong: tuple[str, ...] = (),
    idat_parts: int = 1,
    stream: bytes = zlib.compress(ROWS),
    ihdr: bytes = chunk(b"IHDR", GREY_IHDR),
) -> bytes:
    """The 24x16 PNG, its image data in ``idat_parts`` IDAT chunks; ``wrong``: the chunks (``IHDR``,
    ``IDAT1`` for the first IDAT..., ``IEND``) whose CRC is wrong; ``ihdr``: the chunk(s) before them."""
    step = -(-len(stream) // idat_parts)
    idats = [
        chunk(b"IDAT", stream[at : at + step], wrong_crc="IDAT%d" % (n + 1) in wrong)
        for n, at in enumerate(range(0, len(stream), step))
    ]
    return (
        b"\x89PNG\r\n\x1a\n"
        + (chunk(b"IHDR", GREY_IHDR, wrong_crc=True) if "IHDR" in wrong else ihdr)
        + b"".join(idats)
        + chunk(b"IEND", b"", wrong_crc="IEND" in wrong)
    )


def read(body: bytes):
    headers = CaseInsensitiveDict({"Content-Type": "image/png", "Content-Length": str(len(body))})
    return image_reader.image_text(
        HttpResponse(200, headers, body, "http://example.org/i"), provider="fetch", images=True
    )


def pixels(body: bytes) -> bytes:
    with Image.open(io.BytesIO(body)) as shown:
        return shown.tobytes()


@pytest.mark.parametrize(
    "wrong, parts",
    [(("IDAT1",), 1), (("IDAT2",), 3), (("IEND",), 1), (("IDAT1", "IDAT3", "IEND"), 3)],
    ids=["the one IDAT", "one IDAT of three", "IEND", "several"],
)
def test_a_wrong_crc_pillow_does_not_check_is_made_right(wrong, parts):
    served = grey_png(wrong=wrong, idat_parts=parts)
    assert pixels(served) == b"".join(PIXELS)  # Pillow decodes it as served
    page = read(served)
    returned = base64.b64decode(page.image.data)
    assert returned == grey_png(idat_parts=parts)  # byte for byte the file with its CRCs right
    assert pixels(returned) == b"".join(PIXELS) and (page.image.width, page.image.height) == (24, 16)


def test_damaged_image_data_behind_a_wrong_crc_is_still_refused():
    stream = bytearray(zlib.compress(ROWS))
    stream[len(stream) // 2] ^= 0x55  # the Adler-32 at the stream's end no longer holds (or the stream breaks)
    with pytest.raises(ws.WebParseError) as info:
        read(grey_png(wrong=("IDAT1",), stream=bytes(stream)))
    assert info.value.detail_code == "image_unreadable"


def test_image_data_inflating_past_its_rows_behind_a_wrong_crc_is_refused():
    # 1 MB of zeros in 1 KB: Pillow reads the rows it needs; the repair would inflate it all
    with pytest.raises(ws.WebParseError) as info:
        read(grey_png(wrong=("IDAT1",), stream=zlib.compress(ROWS + bytes(1_000_000))))
    assert info.value.detail_code == "image_unreadable"


def test_a_wrong_crc_of_a_chunk_pillow_checks_is_still_refused():
    with pytest.raises(ws.WebParseError) as info:
        read(grey_png(wrong=("IHDR", "IDAT1")))
    assert info.value.detail_code == "image_unreadable"


@pytest.mark.parametrize(
    "ihdr",
    [chunk(b"IHDR", struct.pack(">IIBBBBB", 24, 16, 8, 7, 0, 0, 0)), chunk(b"tEXt", b"a\x00" + b"b" * 12)],
    ids=["colour type 7", "no IHDR first"],  # a text chunk whose bytes are read as colour type "b"
)
def test_a_wrong_crc_behind_an_ihdr_that_is_not_valid_is_refused_not_an_internal_error(ihdr):
    # the repair read the rows' bytes from the IHDR unchecked: KeyError, IndexError
    with pytest.raises(ws.WebParseError) as info:
        read(grey_png(wrong=("IEND",), ihdr=ihdr))
    assert info.value.detail_code == "image_unreadable"


def test_a_png_refused_for_its_size_anyway_is_not_inflated_to_check_it(monkeypatch):
    # the repair inflated all its data before the caps refused it: 4.5 s of CPU for a 1.9 MB
    # PNG declaring 100000x20000 pixels; here the caps are lowered under the 24x16 PNG's
    monkeypatch.setattr(image_reader, "MAX_IMAGE_SIDE", 20)
    monkeypatch.setattr(image_reader, "MAX_DECODE_PIXELS", 100)
    inflated = []
    monkeypatch.setattr(pngcrc, "_inflates_whole", lambda *args: inflated.append(args) or True)
    with pytest.raises(ws.WebSearchError):
        read(grey_png(wrong=("IDAT1",)))
    assert inflated == []


def test_image_data_short_of_its_rows_behind_a_wrong_crc_is_refused():
    # whole by its own Adler-32, it holds 50 of the rows' 400 bytes: Pillow says "truncated"
    with pytest.raises(ws.WebParseError) as info:
        read(grey_png(wrong=("IDAT1",), stream=zlib.compress(ROWS[:50])))
    assert info.value.detail_code == "image_unreadable"


def test_an_interlaced_png_s_rows_are_counted_by_its_passes():
    # Adam7: seven smaller images of the 24x16 one, each row after its filter byte
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    rows = b"".join(
        b"\x00" + PIXELS[y][x0::dx] for x0, y0, dx, dy in passes for y in range(y0, 16, dy) if len(PIXELS[y][x0::dx])
    )
    ihdr = chunk(b"IHDR", struct.pack(">IIBBBBB", 24, 16, 8, 0, 0, 0, 1))
    served = grey_png(wrong=("IDAT1",), stream=zlib.compress(rows), ihdr=ihdr)
    assert pixels(served) == b"".join(PIXELS)  # Pillow decodes it as served
    returned = base64.b64decode(read(served).image.data)
    assert returned == grey_png(stream=zlib.compress(rows), ihdr=ihdr)
