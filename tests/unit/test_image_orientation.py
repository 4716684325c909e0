"""An image's EXIF orientation (reader/imagesize.py ``exif_orientation``, reader/image.py): a
JPEG with orientation 6 or 8 (a phone's photo taken upright) was returned as stored, its width
and height the stored ones, and a model API that does not read EXIF saw it on its side. With
Pillow it is turned upright (encoded at its size, without EXIF); without, it is returned as
stored, its size the one it is shown at, and its line says how it is stored. Images built in
the test with Pillow, or by hand."""

import base64
import io
import struct
import zlib

import pytest
from requests.structures import CaseInsensitiveDict

from websearch_sync.net.transport import HttpResponse
from websearch_sync.reader import image as image_reader
from websearch_sync.reader.imagesize import exif_orientation, read_header

Image = pytest.importorskip("PIL.Image")

URL = "http://example.org/i"


def photo(orientation: int, fmt: str = "JPEG") -> bytes:
    """A 40x20 image stored with its left half red, the rest blue, its EXIF orientation ``orientation``."""
    stored = Image.new("RGB", (40, 20), (0, 0, 255))
    stored.paste((255, 0, 0), (0, 0, 20, 20))
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    stored.save(out, format=fmt, quality=95, exif=exif)
    return out.getvalue()


def read(body: bytes, content_type: str = "image/jpeg", max_chars=None):
    headers = CaseInsensitiveDict({"Content-Type": content_type, "Content-Length": str(len(body))})
    return image_reader.image_text(
        HttpResponse(200, headers, body, URL), provider="fetch", images=True, max_chars=max_chars
    )


@pytest.mark.parametrize("orientation, red_at", [(6, "top"), (8, "bottom")])
def test_a_photo_stored_on_its_side_comes_back_upright_with_pillow(orientation, red_at):
    page = read(photo(orientation))
    assert (page.image.width, page.image.height) == (20, 40)
    with Image.open(io.BytesIO(base64.b64decode(page.image.data))) as shown:
        assert shown.size == (20, 40) and shown.getexif().get(0x0112, 1) == 1
        red = shown.convert("RGB").getpixel((10, 10 if red_at == "top" else 30))
    assert red[0] > 200 and red[2] < 60
    assert page.text.startswith("[image: image/jpeg, 20x40 pixels, ") and "EXIF" not in page.text


def test_without_pillow_it_is_returned_as_stored_its_size_as_shown_and_its_line_says_so(monkeypatch):
    monkeypatch.setattr(image_reader, "_pillow", lambda: None)
    body = photo(6)
    page = read(body)
    assert base64.b64decode(page.image.data) == body
    assert (page.image.width, page.image.height) == (20, 40)
    assert (
        page.text
        == "[image: image/jpeg, 20x40 pixels, %.1f KB, stored as 40x20 with EXIF orientation 6, from %s]"
        % (
            len(body) / 1000,
            URL,
        )
    )


def test_a_png_s_exif_chunk_turns_it_too(monkeypatch):
    monkeypatch.setattr(image_reader, "_pillow", lambda: None)
    page = read(photo(8, "PNG"), "image/png")
    assert (page.image.width, page.image.height) == (20, 40)
    assert "stored as 40x20 with EXIF orientation 8" in page.text


def test_a_half_turn_keeps_its_sides_and_is_said(monkeypatch):
    monkeypatch.setattr(image_reader, "_pillow", lambda: None)
    page = read(photo(3))
    assert (page.image.width, page.image.height) == (40, 20)
    assert "stored with EXIF orientation 3" in page.text


def big_endian_exif(tag_type: int, value: int, count: int = 1) -> bytes:
    """EXIF data in Motorola order with one entry, the orientation tag (0x0112)."""
    return b"MM\x00*" + struct.pack(">IHHHIHH", 8, 1, 0x0112, tag_type, count, value, 0) + b"\x00" * 4


@pytest.mark.parametrize(
    "tiff, orientation",
    [
        (big_endian_exif(3, 6), 6),
        (big_endian_exif(3, 9), 1),  # no orientation: as stored, as Pillow and browsers read it
        (big_endian_exif(3, 0), 1),
        (big_endian_exif(4, 6), 1),  # a LONG, not the SHORT the tag is (Pillow turns it; browsers do not)
        (big_endian_exif(8, 6), 1),  # a signed SHORT (likewise)
        (big_endian_exif(3, 6, count=0), 1),  # no value (Pillow reads none either)
        (big_endian_exif(3, 6, count=2), 1),  # two values (Pillow turns it by the first; browsers do not)
        (big_endian_exif(3, 6)[:-8], 1),  # the directory runs past the data
        (b"II*\x00\xff\xff\x00\x00", 1),  # a directory past the data
        (b"", 1),
    ],
)
def test_the_orientation_is_read_as_browsers_read_it(tiff, orientation):
    assert exif_orientation(tiff) == orientation


def test_a_png_s_exif_chunk_after_its_image_data_is_not_read():
    body = photo(6, "PNG")
    chunk = body[body.index(b"eXIf") - 4 :]
    chunk = chunk[: 12 + struct.unpack(">I", chunk[:4])[0]]
    moved = body.replace(chunk, b"")
    end = moved.index(b"IEND") - 4
    assert read_header(moved[:end] + chunk + moved[end:], "image/png").orientation == 1
    assert read_header(body, "image/png").orientation == 6
    assert zlib.crc32(chunk[4:-4]) == struct.unpack(">I", chunk[-4:])[0]  # the chunk moved whole


@pytest.mark.parametrize("max_chars", [10, 20, 40, 60, 3])
def test_the_line_fits_max_chars_by_leaving_out_its_last_parts(max_chars, monkeypatch):
    # it was cut at max_chars mid-word ("[image: image/jpeg, 4") and the result said truncated,
    # though the image was whole: its parts are left out from the end, the URL first
    monkeypatch.setattr(image_reader, "_pillow", lambda: None)
    body = photo(1)
    page = read(body, max_chars=max_chars)
    kb = "%.1f KB" % (len(body) / 1000)
    expected = {
        10: "[image]",
        20: "[image: image/jpeg]",
        40: "[image: image/jpeg, 40x20 pixels]",
        60: "[image: image/jpeg, 40x20 pixels, %s]" % kb,
        3: "[im",
    }
    assert page.text == expected[max_chars] and not page.cuts


def test_one_pillow_will_not_decode_is_returned_as_stored_not_refused(monkeypatch):
    # within the caps it was returned as it is: turning it is a help, so an image over the
    # decoding cap (here lowered under its 800 pixels) stays returned, as stored
    monkeypatch.setattr(image_reader, "MAX_DECODE_PIXELS", 100)
    body = photo(6)
    page = read(body)
    assert base64.b64decode(page.image.data) == body and (page.image.width, page.image.height) == (20, 40)
    assert "stored as 40x20 with EXIF orientation 6" in page.text


def malformed_exif(orientation: int) -> bytes:
    """EXIF data in Motorola order: the orientation, then a FLOAT entry (type 11) of 5 values Pillow
    reads as floats and could not write again (``ImageOps.exif_transpose`` raised AttributeError)."""
    entries = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">HHII", 0x010F, 11, 5, 38)
    return b"MM\x00*" + struct.pack(">IH", 8, 2) + entries + b"\x00" * 4 + bytes(range(20))


def with_exif(tiff: bytes, icc_profile=None) -> bytes:
    """A 40x20 JPEG (left half red, the rest blue) whose EXIF data is ``tiff``, as stored."""
    stored = Image.new("RGB", (40, 20), (0, 0, 255))
    stored.paste((255, 0, 0), (0, 0, 20, 20))
    out = io.BytesIO()
    stored.save(out, format="JPEG", quality=95, exif=b"Exif\x00\x00" + tiff, icc_profile=icc_profile)
    return out.getvalue()


def test_an_orientation_beside_an_entry_pillow_cannot_write_again_still_turns_it():
    # exif_transpose wrote the EXIF data again without the tag, and raised: internal_error
    page = read(with_exif(malformed_exif(6)))
    with Image.open(io.BytesIO(base64.b64decode(page.image.data))) as shown:
        assert shown.size == (20, 40) == (page.image.width, page.image.height)
        red = shown.convert("RGB").getpixel((10, 10))
    assert red[0] > 200 and red[2] < 60 and "EXIF" not in page.text


def test_a_downscaled_image_with_such_an_entry_is_turned_too(monkeypatch):
    monkeypatch.setattr(image_reader, "MAX_IMAGE_SIDE", 30)
    page = read(with_exif(malformed_exif(8)))
    with Image.open(io.BytesIO(base64.b64decode(page.image.data))) as shown:
        assert shown.size == (15, 30) == (page.image.width, page.image.height)
        red = shown.convert("RGB").getpixel((7, 25))  # the stored left half, shown at the bottom
    assert red[0] > 200 and red[2] < 60


@pytest.mark.parametrize("side", [None, 30])  # turned at its size; downscaled
def test_a_turned_jpeg_keeps_its_colour_profile_and_is_encoded_at_the_set_quality(monkeypatch, side):
    if side is not None:
        monkeypatch.setattr(image_reader, "MAX_IMAGE_SIDE", side)
    profile = b"a colour profile, kept as it is"
    page = read(with_exif(big_endian_exif(3, 6), icc_profile=profile))
    reference = io.BytesIO()
    Image.new("RGB", (8, 8)).save(reference, format="JPEG", quality=image_reader._JPEG_QUALITY)
    with Image.open(io.BytesIO(base64.b64decode(page.image.data))) as shown, Image.open(reference) as expected:
        assert shown.info.get("icc_profile") == profile
        assert shown.quantization == expected.quantization  # the tables Pillow writes for that quality
