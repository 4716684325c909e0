"""The sizes ``fetch(..., images=True)`` reports for WebP (a lossy ``VP8 ``, a lossless ``VP8L``,
an extended ``VP8X`` file, an animation) and APNG (one whose default image is not the animation's
first frame), checked against their specifications: WebP files Pillow writes (libwebp), whose sizes
Pillow reads back as the oracle, and PNGs written chunk by chunk here (tests/images.py).

WebP (https://developers.google.com/speed/webp/docs/riff_container): ``VP8 `` holds a key frame,
3 bytes of frame tag, the start code ``9d 01 2a``, then width and height in 14 bits each (2 bits of
scale above); ``VP8L`` a signature byte ``2f``, then width - 1 and height - 1 in 14 bits each;
``VP8X`` flags, 3 reserved bytes, then canvas width - 1 and height - 1 in 24 bits each.
APNG (https://wiki.mozilla.org/APNG_Specification): "To be recognized as an APNG, an `acTL` chunk
must appear in the stream before any `IDAT` chunks"; a file whose ``acTL`` comes after is a still
PNG, which a decoder shows as its ``IDAT`` image.
"""

import base64
import io
import struct
import zlib

import pytest
from images import _chunk, _grey_rows, apng, gif, jpeg_frame, pillow_image, webp_frame
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.net.response import HttpResponse
from websearch_sync.reader.image import image_text
from websearch_sync.reader.imagesize import read_header
from websearch_sync.reader.stills import first_frame

SIZES = [(1, 1), (17, 9), (640, 480), (16383, 2), (3, 16383)]
#: The IHDR fields after the size: bit depth, colour type, compression, filter and interlace method.
GREY8 = (8, 0, 0, 0, 0)


def webp(size, mode="RGB", **options):
    from PIL import Image

    out = io.BytesIO()
    Image.new(mode, size, (30, 200, 30, 128)[: len(mode)] if mode != "L" else 90).save(out, "WEBP", **options)
    return out.getvalue()


def pillow_size(data):
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return image.size


def first_chunk(data):
    return data[12:16]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    "mode, options, chunk",
    [
        ("RGB", {"lossless": False}, b"VP8 "),
        ("L", {"lossless": False}, b"VP8 "),
        ("RGB", {"lossless": True}, b"VP8L"),
        ("RGBA", {"lossless": True}, b"VP8L"),
        ("RGBA", {"lossless": False}, b"VP8X"),  # lossy with alpha: VP8X, ALPH, VP8
        ("RGB", {"lossless": True, "icc_profile": b"\0" * 20}, b"VP8X"),  # a colour profile: VP8X, ICCP, VP8L
    ],
)
def test_a_still_webp_reports_the_size_libwebp_reads(size, mode, options, chunk):
    data = webp(size, mode, **options)
    assert first_chunk(data) == chunk
    header = read_header(data, "image/webp")
    assert header is not None and not header.animated
    assert header.size == header.extent == pillow_size(data) == size


def test_the_scale_bits_of_a_lossy_bitstream_are_not_its_size():
    """The two bits above each 14-bit side of a ``VP8 `` key frame are an upscaling hint, which
    libwebp does not apply: the size is the 14 bits."""
    data = bytearray(webp((17, 9)))
    start = data.index(b"\x9d\x01\x2a") + 3
    for at in (start + 1, start + 3):  # the high byte of the width, of the height
        data[at] |= 0xC0
    assert read_header(bytes(data), "image/webp").size == pillow_size(bytes(data)) == (17, 9)


@pytest.mark.parametrize("lossless", [False, True])
@pytest.mark.parametrize("size", [(17, 9), (640, 480)])
def test_an_animated_webp_reports_its_canvas_and_its_first_frame_has_that_size(size, lossless):
    from PIL import Image

    frames = [Image.new("RGB", size, (60 * n, 20, 20)) for n in range(3)]
    out = io.BytesIO()
    frames[0].save(out, "WEBP", save_all=True, append_images=frames[1:], lossless=lossless)
    data = out.getvalue()
    header = read_header(data, "image/webp")
    assert first_chunk(data) == b"VP8X"
    assert (header.size, header.animated, header.frames) == (pillow_size(data), True, 3)
    still = first_frame(data, "image/webp", header.size)
    assert still is not None and pillow_size(still.data) == size


def grey_at(data, where=(0, 0)):
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return image.convert("L").getpixel(where)


def test_an_apng_whose_default_image_is_not_a_frame_gives_its_first_frame():
    data = apng((40, 30), [(0, 0, 40, 30, 0x20), (4, 4, 10, 10, 0x40)], default_frame=False)
    header = read_header(data, "image/png")
    assert (header.size, header.animated, header.frames) == ((40, 30), True, 2)
    still = first_frame(data, "image/png", header.size)
    assert still.first and pillow_size(still.data) == (40, 30)
    assert grey_at(still.data) == 0x20  # the first frame's grey, not the default image's 0x80


def still_png_with_animation_chunks_after_its_data(size=(40, 30)):
    """A PNG whose ``acTL``, frame control and frame data come after its ``IDAT``: a still PNG."""
    width, height = size
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + _chunk(b"IDAT", _grey_rows(width, height, 0x80))
        + _chunk(b"acTL", struct.pack(">II", 1, 0))
        + _chunk(b"fcTL", struct.pack(">IIIIIHHBB", 0, width, height, 0, 0, 1, 10, 0, 0))
        + _chunk(b"fdAT", struct.pack(">I", 1) + _grey_rows(width, height, 0x20))
        + _chunk(b"IEND", b"")
    )


def test_a_png_whose_animation_control_comes_after_its_data_is_a_still_image():
    data = still_png_with_animation_chunks_after_its_data()
    header = read_header(data, "image/png")
    assert (header.size, header.animated, header.frames) == ((40, 30), False, 1)
    assert grey_at(data) == 0x80  # what a decoder shows: the IDAT image (Pillow too)


def test_fetch_returns_such_a_png_as_it_is_not_a_frame_cut_out_of_it():
    data = still_png_with_animation_chunks_after_its_data()
    headers = CaseInsensitiveDict({"Content-Type": "image/png", "Content-Length": str(len(data))})
    page = image_text(HttpResponse(200, headers, data, "https://example.com/a.png"), provider="fetch", images=True)
    assert base64.b64decode(page.image.data) == data
    assert (page.image.width, page.image.height) == (40, 30)
    assert "frames" not in page.text


def assert_unreadable(data, media):
    """``data`` gives no header, and fetch (a whole body, ``images=True``) refuses it as ``image_unreadable``."""
    assert read_header(data, media) is None
    headers = CaseInsensitiveDict({"Content-Type": media, "Content-Length": str(len(data))})
    with pytest.raises(ws.WebParseError) as info:
        image_text(HttpResponse(200, headers, data, "https://example.com/a"), provider="fetch", images=True)
    assert info.value.detail_code == "image_unreadable"


def grey_png(ihdr, rows=(10, 10)):
    """A PNG of ``rows`` (width, height) grey rows whose IHDR chunk holds the bytes ``ihdr``."""
    return (
        b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", _grey_rows(*rows, 0x80)) + _chunk(b"IEND", b"")
    )


# PNG specification 11.2.2 (IHDR): 13 bytes; width and height "limited to the range 0 to 2^31-1";
# bit depths per colour type 0: 1 2 4 8 16, 2: 8 16, 3: 1 2 4 8, 4: 8 16, 6: 8 16; compression and
# filter method 0; interlace method 0 or 1 (libpng's png_check_IHDR refuses every other value).
@pytest.mark.parametrize(
    "ihdr",
    [
        struct.pack(">II", 10, 10) + bytes([99, 0, 0, 0, 0]),
        struct.pack(">II", 10, 10) + bytes([4, 2, 0, 0, 0]),
        struct.pack(">II", 10, 10) + bytes([16, 3, 0, 0, 0]),
        struct.pack(">II", 10, 10) + bytes([8, 7, 0, 0, 0]),
        struct.pack(">II", 10, 10) + bytes([8, 0, 1, 0, 0]),
        struct.pack(">II", 10, 10) + bytes([8, 0, 0, 1, 0]),
        struct.pack(">II", 10, 10) + bytes([8, 0, 0, 0, 2]),
        struct.pack(">II", 10, 10) + bytes(GREY8) + b"\x00\x00",
        struct.pack(">II", 10, 10),  # cut short: the size was read from the IDAT chunk after it
        struct.pack(">II", 2**31, 10) + bytes(GREY8),
    ],
    ids=[
        "bit depth 99",
        "RGB of 4 bits",
        "palette of 16 bits",
        "colour type 7",
        "compression method 1",
        "filter method 1",
        "interlace method 2",
        "IHDR of 15 bytes",
        "IHDR of 8 bytes",
        "width 2^31",
    ],
)
def test_a_png_whose_header_the_specification_does_not_allow_is_unreadable_not_returned(ihdr):
    assert_unreadable(grey_png(ihdr), "image/png")


@pytest.mark.parametrize("depth, colour", [(1, 0), (16, 0), (8, 2), (16, 6), (4, 3), (8, 4)])
def test_a_png_of_each_allowed_depth_and_colour_type_gives_its_size(depth, colour):
    ihdr = struct.pack(">II", 3, 2) + bytes([depth, colour, 0, 0, 1])  # Adam7 interlaced too
    assert read_header(grey_png(ihdr, rows=(3 * depth * 4, 2)), "image/png").size == (3, 2)


def jpeg_with_frame_header(change):
    """A JPEG Pillow wrote (baseline, 3 components) with ``change(header)`` made to the bytes of
    its frame header after the marker (Lf, precision, height, width, Nf, the components)."""
    data = bytearray(pillow_image(20, 10, "JPEG"))
    start = data.index(b"\xff\xc0") + 2
    length = struct.unpack(">H", data[start : start + 2])[0]
    header = bytearray(data[start : start + length])
    change(header)
    return bytes(data[:start] + header + data[start + length :])


def _set(index, value):
    def change(header):
        header[index] = value

    return change


# ITU T.81 B.2.2: Lf = 8 + 3 x Nf; Pillow (libjpeg, 8-bit) and browsers decode 8-bit samples only
@pytest.mark.parametrize(
    "change",
    [_set(2, 12), _set(2, 16), _set(2, 0), _set(7, 2), _set(7, 4)],
    ids=["12-bit", "16-bit", "0-bit", "2 components in a header of 3", "4 components in a header of 3"],
)
def test_a_jpeg_whose_frame_header_pillow_refuses_is_unreadable_not_returned(change):
    from PIL import Image

    data = jpeg_with_frame_header(change)
    with pytest.raises((OSError, SyntaxError, ValueError)):  # the oracle: Pillow does not decode it either
        Image.open(io.BytesIO(data)).load()
    assert_unreadable(data, "image/jpeg")


def test_the_jpeg_pillow_wrote_is_read_with_its_frame_header_unchanged():
    assert read_header(jpeg_with_frame_header(lambda header: None), "image/jpeg").size == (20, 10)


def png_with_text_chunk():
    """A 10x10 grey PNG with a ``tEXt`` chunk (ancillary) before its image data."""
    good = grey_png(struct.pack(">II", 10, 10) + bytes(GREY8))
    return good[:33] + _chunk(b"tEXt", b"Comment\x00made here") + good[33:]


def with_crc_broken(data, kind):
    """``data`` with the last byte of the CRC of its chunk of type ``kind`` flipped."""
    at = data.index(kind) - 4
    end = at + 12 + struct.unpack(">I", data[at : at + 4])[0]
    return data[: end - 1] + bytes([data[end - 1] ^ 0xFF]) + data[end:]


# PNG specification 5.3: the CRC covers the chunk's type and data; libpng (browsers) refuses a
# critical chunk whose CRC is wrong and discards an ancillary one's with a warning. Pillow checks
# those of the chunks it reads opening the file (IHDR, PLTE): an IDAT's or IEND's wrong CRC, which
# it does not check, is made right instead (tests/unit/test_png_crc.py)
@pytest.mark.parametrize("kind", [b"IHDR"])
def test_a_png_whose_critical_chunk_has_a_wrong_crc_is_unreadable_not_returned(kind):
    assert_unreadable(with_crc_broken(png_with_text_chunk(), kind), "image/png")


def png_with_text_chunk_after_its_image():
    """A 10x10 grey PNG with a ``tEXt`` chunk between its image data and ``IEND``."""
    good = grey_png(struct.pack(">II", 10, 10) + bytes(GREY8))
    end = good.index(b"IEND") - 4
    return good[:end] + _chunk(b"tEXt", b"Comment\x00made here") + good[end:]


def test_a_png_whose_ancillary_chunk_before_its_image_has_a_wrong_crc_is_unreadable_not_returned():
    from PIL import Image

    data = with_crc_broken(png_with_text_chunk(), b"tEXt")
    with pytest.raises(OSError):  # the oracle: Pillow, which reads those chunks itself, cannot identify it
        Image.open(io.BytesIO(data)).load()
    assert_unreadable(data, "image/png")
    assert read_header(png_with_text_chunk(), "image/png").size == (10, 10)


def test_a_png_whose_ancillary_chunk_after_its_image_has_a_wrong_crc_is_read_as_pillow_and_browsers_show_it():
    from PIL import Image

    data = with_crc_broken(png_with_text_chunk_after_its_image(), b"tEXt")
    Image.open(io.BytesIO(data)).load()  # the oracle: Pillow decodes it (libpng discards the chunk)
    assert read_header(data, "image/png").size == (10, 10)


def progressive_jpeg():
    """A progressive JPEG Pillow wrote: several scans."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 30)).save(out, "JPEG", progressive=True)
    return out.getvalue()


def between_scans(segment):
    """:func:`progressive_jpeg` with ``segment`` before its second scan: only libjpeg reads it
    (Pillow's own reading of the header stops at the first scan)."""
    good = progressive_jpeg()
    second = good.index(b"\xff\xda", good.index(b"\xff\xda") + 2)
    return good[:second] + segment + good[second:]


def padded_before(marker, padding, good=None):
    """A JPEG (:func:`jpeg_in_mode`'s RGB one unless ``good``) with ``padding`` before its first
    ``marker``: bytes that are no marker where one belongs, which libjpeg skips to the next
    ("extraneous bytes before marker", a warning) as Pillow's own header reading does."""
    good = good or jpeg_in_mode("RGB")
    at = good.index(marker, 2)
    return good[:at] + padding + good[at:]


# libjpeg's read_markers (jdmarker.c): any marker it does not know is "unsupported marker type"
UNKNOWN_MARKERS = [0x02, 0x4A, 0xBF, 0xC8, 0xDE, 0xDF, 0xF0, 0xF7, 0xFD]


@pytest.mark.parametrize("where", ["after SOI", "between scans"])
@pytest.mark.parametrize("marker", UNKNOWN_MARKERS, ids=["%02X" % marker for marker in UNKNOWN_MARKERS])
def test_a_jpeg_holding_a_marker_libjpeg_does_not_know_is_unreadable_not_returned(marker, where):
    """The reserved markers (02-BF), JPG (C8), DHP (DE), EXP (DF), JPGn (F0-FD)."""
    from PIL import Image

    segment = bytes([0xFF, marker]) + struct.pack(">H", 4) + b"xy"
    good = pillow_image(20, 10, "JPEG")
    data = good[:2] + segment + good[2:] if where == "after SOI" else between_scans(segment)
    with pytest.raises((OSError, SyntaxError)):  # the oracle: Pillow refuses it (libjpeg: "unsupported marker")
        Image.open(io.BytesIO(data)).load()
    assert_unreadable(data, "image/jpeg")


def test_a_jpeg_whose_start_of_image_no_marker_follows_is_unreadable_as_pillow_refuses_it():
    # libjpeg would skip the byte as it skips padding further on (above); Pillow takes a JPEG
    # only by its first three bytes, FF D8 FF, and so does fetch's sniffing
    from PIL import Image

    good = pillow_image(20, 10, "JPEG")
    data = good[:2] + b"\x00" + good[2:]
    with pytest.raises((OSError, SyntaxError)):  # the oracle
        Image.open(io.BytesIO(data)).load()
    assert read_header(data, "image/jpeg") is None


@pytest.mark.parametrize("marker", [0xC3, 0xC5, 0xC6, 0xC7, 0xCB, 0xCD, 0xCE, 0xCF], ids="{:02X}".format)
def test_a_jpeg_of_a_frame_kind_libjpeg_does_not_decode_is_unreadable_not_returned(marker):
    """Lossless and hierarchical frames: libjpeg decodes baseline, extended and progressive
    (C0-C2) and arithmetic (C9, CA) ones only."""
    from PIL import Image

    good = pillow_image(20, 10, "JPEG")
    at = good.index(b"\xff\xc0")
    data = good[: at + 1] + bytes([marker]) + good[at + 2 :]
    with pytest.raises(OSError):  # the oracle: Pillow refuses it
        Image.open(io.BytesIO(data)).load()
    assert_unreadable(data, "image/jpeg")


@pytest.mark.parametrize("where", ["before the first scan", "a second start of image"])
def test_a_jpeg_holding_a_tem_before_its_first_scan_or_a_second_soi_is_unreadable_not_returned(where):
    """Pillow's reading of the header refuses TEM (01), which libjpeg skips; libjpeg refuses a
    second start of image (D8)."""
    from PIL import Image

    good = pillow_image(20, 10, "JPEG")
    scan = good.index(b"\xff\xda")
    data = good[:scan] + (b"\xff\x01" if where == "before the first scan" else b"\xff\xd8") + good[scan:]
    with pytest.raises((OSError, SyntaxError)):  # the oracle
        Image.open(io.BytesIO(data)).load()
    assert_unreadable(data, "image/jpeg")


def jpeg_in_mode(mode, **options):
    from PIL import Image

    out = io.BytesIO()
    Image.new(mode, (64, 48), (200, 30, 30, 0)[: len(mode)] if mode != "L" else 120).save(out, "JPEG", **options)
    return out.getvalue()


def mpo():
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (64, 48), "red").save(out, "MPO", save_all=True, append_images=[Image.new("RGB", (64, 48))])
    return out.getvalue()


def with_exif_thumbnail():
    """A JPEG whose EXIF (APP1) holds a JPEG thumbnail of its own (IFD1's JPEGInterchangeFormat)."""
    from PIL import Image

    thumbnail = pillow_image(16, 12, "JPEG")
    ifd1 = (
        struct.pack(">H", 2) + struct.pack(">HHII", 0x201, 4, 1, 44) + struct.pack(">HHII", 0x202, 4, 1, len(thumbnail))
    )
    tiff = b"MM\x00\x2a" + struct.pack(">IHI", 8, 0, 14) + ifd1 + struct.pack(">I", 0) + thumbnail
    out = io.BytesIO()
    Image.new("RGB", (64, 48), "green").save(out, "JPEG", exif=b"Exif\x00\x00" + tiff)
    return out.getvalue()


@pytest.mark.parametrize(
    "make",
    [
        lambda: jpeg_in_mode("RGB", progressive=True),
        lambda: jpeg_in_mode("RGB", restart_marker_rows=1),
        lambda: jpeg_in_mode("RGB", progressive=True, restart_marker_blocks=2),
        lambda: jpeg_in_mode("CMYK"),  # Adobe APP14
        lambda: jpeg_in_mode("L", comment=b"a comment"),
        lambda: jpeg_in_mode("RGB", icc_profile=b"\0" * 200_000),  # an ICC profile over several APP2 segments
        with_exif_thumbnail,
        mpo,
        lambda: between_scans(b"\xff\x01"),  # TEM past the first scan: libjpeg skips it
        lambda: between_scans(b"\xff\xdc\x00\x04\x00\x1e"),  # DNL (30 lines) after the first scan: libjpeg skips it
        # bytes where a marker belongs: they were image_unreadable
        lambda: padded_before(b"\xff\xdb", b"\x00" * 16),
        lambda: padded_before(b"\xff\xda", b"\r\n"),
        lambda: padded_before(b"\xff\xc4", b"\xff\x00junk"),
        lambda: between_scans(b"\x00\x00"),
    ],
    ids=[
        "progressive",
        "restart markers",
        "progressive restarts",
        "CMYK",
        "grey comment",
        "ICC",
        "EXIF thumbnail",
        "MPO",
        "TEM",
        "DNL",
        "padding before DQT",
        "line break before SOS",
        "stuffed zero before DHT",
        "padding between scans",
    ],
)
def test_jpegs_pillow_decodes_are_read(make):
    from PIL import Image

    data = make()
    image = Image.open(io.BytesIO(data))
    image.load()  # the oracle: Pillow decodes it
    assert read_header(data, "image/jpeg").size == image.size


def webp_with_bitstream_byte(options, offset, change):
    """A WebP Pillow wrote (``options``), its bitstream's byte at ``offset`` (past the chunk's
    8-byte head) replaced by ``change(byte)``."""
    data = bytearray(webp((20, 10), **options))
    at = 12 + 8 + offset  # RIFF head, WEBP, then the bitstream's chunk head
    data[at] = change(data[at])
    return bytes(data)


# libwebp's VP8GetInfo and VP8LGetInfo (src/dec/vp8_dec.c, vp8l_dec.c)
@pytest.mark.parametrize(
    "options, offset, change",
    [
        ({}, 0, lambda byte: byte | 1),  # frame tag: an interframe, not a key frame
        ({}, 0, lambda byte: byte | 0x0E),  # profile 7 (0-3 only)
        ({}, 0, lambda byte: byte & ~0x10),  # not shown
        ({}, 3, lambda byte: 0x9E),  # start code 9e 01 2a
        ({"lossless": True}, 0, lambda byte: 0x2E),  # signature 2e
        ({"lossless": True}, 4, lambda byte: byte | 0x20),  # version 1
    ],
    ids=["interframe", "profile 7", "hidden frame", "start code", "lossless signature", "lossless version 1"],
)
def test_a_webp_whose_bitstream_libwebp_refuses_is_unreadable_not_returned(options, offset, change):
    from PIL import Image

    data = webp_with_bitstream_byte(options, offset, change)
    with pytest.raises((OSError, SyntaxError, ValueError)):  # the oracle: Pillow's libwebp refuses it too
        Image.open(io.BytesIO(data)).load()
    assert_unreadable(data, "image/webp")


@pytest.mark.parametrize("past", [0, 1000], ids=["the chunk's length", "past the chunk"])
def test_a_webp_whose_first_partition_does_not_fit_its_chunk_is_unreadable_not_returned(past):
    """libwebp's VP8GetInfo refuses a frame tag whose first partition (its top 19 bits) is not
    shorter than the ``VP8 `` chunk ("inconsistent size information")."""
    from PIL import Image

    data = bytearray(webp((20, 10)))
    length = struct.unpack("<I", data[16:20])[0]  # the VP8 chunk's, after RIFF head and WEBP
    tag = struct.unpack("<I", data[20:23] + b"\0")[0]
    data[20:23] = struct.pack("<I", (tag & 0x1F) | (length + past) << 5)[:3]
    with pytest.raises((OSError, SyntaxError, ValueError)):  # the oracle: Pillow's libwebp refuses it too
        Image.open(io.BytesIO(bytes(data))).load()
    assert_unreadable(bytes(data), "image/webp")


@pytest.mark.parametrize("second", [(90000, 90000), (5, 1)], ids=["a size past the caps", "a smaller size"])
def test_a_png_of_two_ihdr_chunks_is_unreadable_not_returned(second):
    """libpng refuses an IHDR after the first; Pillow decodes the size of the last, which fetch's
    caps, checked on the first, never saw (90000x90000: Pillow's DecompressionBombError)."""
    first = struct.pack(">II", 10, 1) + bytes(GREY8)
    data = grey_png(first, rows=(10, 1))
    data = data[:33] + _chunk(b"IHDR", struct.pack(">II", *second) + bytes(GREY8)) + data[33:]
    assert_unreadable(data, "image/png")


@pytest.mark.parametrize("size", [(9000, 9000), (30, 20), (20, 10)], ids=["past the caps", "larger", "the same"])
def test_a_jpeg_of_two_frame_headers_is_unreadable_not_returned(size):
    from PIL import Image

    data = jpeg_frame(pillow_image(20, 10, "JPEG"), *size, added=True)
    with pytest.raises(OSError):  # the oracle: libjpeg, in Pillow, refuses a second frame header ("two SOF markers")
        Image.open(io.BytesIO(data)).load()
    assert_unreadable(data, "image/jpeg")


def test_an_arithmetic_jpeg_needs_no_more_coded_data_than_it_has():
    """A frame header of the arithmetic kind (SOF9) with its conditioning table (DAC, CC): its
    scan codes 3000 x 2000 pixels in the 20 x 10 image's few bytes, which Huffman coding could
    not (a bit an MCU at least) but arithmetic coding can; Pillow (libjpeg) decodes it."""
    from PIL import Image

    good = pillow_image(20, 10, "JPEG")
    frame, scan = good.index(b"\xff\xc0"), good.index(b"\xff\xda")
    data = bytearray(good)
    data[frame + 1] = 0xC9
    data[frame + 5 : frame + 9] = struct.pack(">HH", 2000, 3000)  # height, width
    conditioning = b"\xff\xcc" + struct.pack(">H", 4) + b"\x00\x10"  # DC table 0: L=0, U=1
    data = bytes(data[:scan]) + conditioning + bytes(data[scan:])
    image = Image.open(io.BytesIO(data))
    image.load()  # the oracle
    header = read_header(data, "image/jpeg")
    assert header is not None and (header.size, header.holds) == (image.size, True) == ((3000, 2000), True)


@pytest.mark.parametrize(
    ("media", "data", "declared"),
    [
        # a 7000x10 frame over a 10x10 screen grows the GIF to it (a part past the size: none)
        ("image/gif", gif((10, 10), [(0, 0, 7000, 10, b"\x00")]), "7000x10 pixels,"),
        # a 1000x800 lossy bitstream of 90 bytes in a 10x10 canvas (the message named the canvas alone)
        (
            "image/webp",
            webp_frame(pillow_image(16, 16, "WEBP"), 1000, 800, canvas=(10, 10)),
            "10x10 pixels and parts reaching 1000x800,",
        ),
    ],
)
def test_an_image_whose_data_cannot_hold_a_part_names_the_part_s_extent(media, data, declared):
    headers = CaseInsensitiveDict({"Content-Type": media, "Content-Length": str(len(data))})
    with pytest.raises(ws.WebParseError) as info:
        image_text(HttpResponse(200, headers, data, "https://example.com/a"), provider="fetch", images=True)
    assert info.value.message.endswith(" declares %s more than its data can hold" % declared)


@pytest.mark.parametrize("screen", [(10, 10), (0, 0), (0, 20), (30, 30)])
def test_a_gif_s_size_is_its_screen_grown_to_its_first_frame_as_pillow_shows_it(screen):
    # it was the screen's: 10x10 for a 20x20 frame Pillow shows at 20x20, and 0x0 unreadable
    from PIL import Image

    out = io.BytesIO()
    Image.new("P", (20, 20), 1).save(out, "GIF")
    data = out.getvalue()[:6] + struct.pack("<HH", *screen) + out.getvalue()[10:]
    image = Image.open(io.BytesIO(data))
    image.load()  # the oracle
    assert read_header(data, "image/gif").size == image.size


#: 2 MB of zeros in 2 KB: what a text or colour-profile chunk may hide.
INFLATING = zlib.compress(b"\x00" * 2_000_000)


@pytest.mark.parametrize(
    "chunk, readable",
    [
        (_chunk(b"zTXt", b"Comment\x00\x00" + INFLATING), False),
        (_chunk(b"iCCP", b"profile\x00\x00" + INFLATING), False),
        (_chunk(b"iTXt", b"Comment\x00\x01\x00en\x00\x00" + INFLATING), False),
        (_chunk(b"zTXt", b"Comment\x00\x01" + zlib.compress(b"text")), False),  # compression method 1
        (_chunk(b"iCCP", b"profile\x00\x00" + zlib.compress(b"a" * 1024 * 1024)), True),  # 1 MiB: Pillow's limit
        (_chunk(b"iTXt", b"Comment\x00\x01\x01en\x00\x00" + INFLATING), True),  # a method Pillow skips
    ],
    ids=["zTXt", "iCCP", "iTXt", "zTXt method 1", "iCCP of 1 MiB", "iTXt method 1"],
)
@pytest.mark.parametrize("after", [False, True], ids=["before IDAT", "after IDAT"])
def test_a_png_whose_text_chunk_pillow_refuses_is_unreadable_not_returned(chunk, readable, after):
    # Pillow refuses a compressed text or profile chunk decompressing past 1 MiB ("Decompressed data
    # too large"), where libpng and browsers drop it: the 2 KB PNG was returned, for a model API to refuse
    from PIL import Image

    good = grey_png(struct.pack(">IIBBBBB", 10, 10, 8, 0, 0, 0, 0))
    at = len(good) - 12 if after else 33  # before IEND, or after IHDR
    data = good[:at] + chunk + good[at:]
    try:
        Image.open(io.BytesIO(data)).load()  # the oracle
        decoded = True
    except (OSError, SyntaxError, ValueError):
        decoded = False
    assert decoded == readable
    assert (read_header(data, "image/png") is not None) == readable


#: 1 MiB of zeros in 1 KB: the most a compressed text or colour-profile chunk may hold for Pillow.
MIB_OF_ZEROS = zlib.compress(b"\x00" * 1024 * 1024, 9)


@pytest.mark.parametrize(
    "chunk",
    [_chunk(b"iCCP", b"profile\x00\x00" + MIB_OF_ZEROS), _chunk(b"zTXt", b"\x00\x00" + MIB_OF_ZEROS)],
    ids=["iCCP", "zTXt without a keyword"],
)
def test_a_png_whose_chunks_decompress_past_the_total_is_unreadable(chunk, monkeypatch):
    # a profile or a text without a keyword counts toward no text limit: 4,000 such chunks were
    # decompressed, 8.5 s of CPU; the total each took is bounded (here 3 MiB: 3 chunks pass, 4 do not)
    import websearch_sync.reader.imagesize as imagesize

    monkeypatch.setattr(imagesize, "_PNG_INFLATED_MEMORY", 3 * 1024 * 1024, raising=False)
    good = grey_png(struct.pack(">IIBBBBB", 10, 10, 8, 0, 0, 0, 0))
    assert [read_header(good[:33] + chunk * count + good[33:], "image/png") is not None for count in (3, 4)] == [
        True,
        False,
    ]


@pytest.mark.parametrize("frame", [(0, 20), (20, 0), (0, 0)])
def test_a_gif_whose_first_frame_has_no_pixels_is_unreadable_as_pillow_refuses_it(frame):
    # it was returned (an animation's cut down to it), for a model API decoding with Pillow to refuse
    from PIL import Image

    out = io.BytesIO()
    Image.new("P", (20, 20), 1).save(out, "GIF")
    first = out.getvalue().index(b",", 13)
    data = out.getvalue()[: first + 5] + struct.pack("<HH", *frame) + out.getvalue()[first + 9 :]
    with pytest.raises(ValueError):  # the oracle: "tile cannot extend outside image"
        Image.open(io.BytesIO(data)).load()
    assert read_header(data, "image/gif") is None
