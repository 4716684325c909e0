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

Image = pytest.importorskip("PIL.Image")

#: 24x16 8-bit grey pixels, a gradient along each row.
PIXELS = [bytes(range(y, y + 24)) for y in range(16)]
#: Its rows as PNG stores them, each after its filter byte (0: none).
ROWS = b"".join(b"\x00" + row for row in PIXELS)


def chunk(kind: bytes, data: bytes, *, wrong_crc: bool = False) -> bytes:
    crc = zlib.crc32(kind + data) ^ (1 if wrong_crc else 0)
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def grey_png(*, wrong: tuple[str, ...] = (), idat_parts: int = 1, stream: bytes = zlib.compress(ROWS)) -> bytes:
    """The 24x16 PNG, its image data in ``idat_parts`` IDAT chunks; ``wrong``: the chunks (``IHDR``,
    ``IDAT1`` for the first IDAT..., ``IEND``) whose CRC is wrong."""
    step = -(-len(stream) // idat_parts)
    idats = [
        chunk(b"IDAT", stream[at : at + step], wrong_crc="IDAT%d" % (n + 1) in wrong)
        for n, at in enumerate(range(0, len(stream), step))
    ]
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 24, 16, 8, 0, 0, 0, 0), wrong_crc="IHDR" in wrong)
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
