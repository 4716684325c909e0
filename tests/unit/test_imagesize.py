"""The header reader over mangled images never raises: a server sends any bytes as an image,
and fetch refuses what the reader returns ``None`` for (``image_unreadable``). Real images of
each format (PNG and GIF written by hand, JPEG and WebP by Pillow, animated ones too), cut,
overwritten and spliced at random; what it returns is a size of two positive sides, within an
extent at least as large."""

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from images import apng, gif, pillow_image, png
from property_examples import examples

from websearch_sync.reader.imagesize import Header, read_header
from websearch_sync.reader.stills import first_frame

SETTINGS = settings(deadline=None, max_examples=examples(100, deep=300), suppress_health_check=[HealthCheck.too_slow])


def _animated(kind: str) -> bytes:
    from PIL import Image

    frames = [Image.new("RGB", (40, 30), (60 * n, 20, 20)) for n in range(3)]
    out = io.BytesIO()
    frames[0].save(out, format=kind, save_all=True, append_images=frames[1:])
    return out.getvalue()


IMAGES = [
    (png(40, 30), "image/png"),
    (gif((40, 30), [(0, 0, 40, 30, bytes(300)), (5, 5, 10, 10, b"\x84\x8f")]), "image/gif"),
    (pillow_image(40, 30, "GIF"), "image/gif"),
    (_animated("GIF"), "image/gif"),
    (pillow_image(40, 30, "JPEG"), "image/jpeg"),
    (pillow_image(40, 30, "WEBP"), "image/webp"),
    (_animated("WEBP"), "image/webp"),
    (_animated("PNG"), "image/png"),
    (apng((40, 30), [(0, 0, 40, 30, 0x20), (4, 4, 10, 10, 0x40)], default_frame=False), "image/png"),
]


@st.composite
def mangled(draw: st.DrawFn) -> tuple[bytes, str]:
    body, media = draw(st.sampled_from(IMAGES))
    data = bytearray(body)
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["cut", "overwrite", "insert"]))
        chunk = draw(st.binary(min_size=1, max_size=8))
        if action == "cut":
            del data[at:]
        elif action == "overwrite":
            data[at : at + len(chunk)] = chunk
        else:
            data[at:at] = chunk
    return bytes(data), media


@SETTINGS
@given(mangled())
def test_a_mangled_image_gives_a_header_or_none_never_an_error(case):
    data, media = case
    header = read_header(data, media)
    if header is not None:
        assert isinstance(header, Header) and min(header.size) > 0
        assert header.extent[0] >= header.size[0] and header.extent[1] >= header.size[1]
    still = first_frame(data, media, header.size) if header is not None and header.animated else None
    if still is not None:  # fetch sends the first frame: a still image it reads again
        first = read_header(still.data, media)
        assert first is not None and not first.animated and first.size == header.size
        assert first.ended or not header.ended


def test_the_frames_of_animations_are_counted():
    assert [read_header(body, media).frames for body, media in IMAGES] == [1, 2, 1, 3, 1, 1, 3, 3, 2]
    assert [read_header(body, media).animated for body, media in IMAGES] == [0, 1, 0, 1, 0, 0, 1, 1, 1]


def test_the_images_mangled_are_read_whole():
    for body, media in IMAGES:
        header = read_header(body, media)
        assert header is not None and header.holds and header.ended, (media, header)


def test_a_first_frame_whose_bitstream_says_no_width_is_not_cut_out():
    """Hypothesis's find: an animated WebP whose first frame's lossy bitstream declares a width
    of 0 was cut into a still no reader reads (``read_header`` gave None for it); it is not cut
    out, so fetch decodes it or refuses it."""
    data = bytearray(_animated("WEBP"))
    start = data.index(b"\x9d\x01\x2a", data.index(b"ANMF"))  # the first frame's VP8 key frame start code
    data[start + 3 : start + 5] = b"\x00\x00"  # its width
    header = read_header(bytes(data), "image/webp")
    assert header is not None and header.animated  # the canvas still says 40 x 30
    assert first_frame(bytes(data), "image/webp", header.size) is None
    assert first_frame(_animated("WEBP"), "image/webp", header.size) is not None
