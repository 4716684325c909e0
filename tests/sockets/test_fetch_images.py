"""fetch returns an image when asked (images=True): PNG, JPEG, GIF and WebP as base64 with
their size read from the header bytes; refused by default with a hint; over the caps
downscaled with Pillow (the images extra) or refused as image_too_large without it."""

import base64
import functools
import io
import random
import sys

import pytest
from faults import head, raw, respond, wrong_length
from images import gif, jpeg_frame, noise_png, pillow_image, png, webp_frame
from servers import FaultServer
from test_fetch_pdf import fetch, fetch_error

from websearch_sync.reader import image as image_reader

KEYS = {"url", "final_url", "status", "content_type", "extractor", "title", "text", "truncated", "length"}


@pytest.mark.parametrize(
    "made, content_type, size",
    [
        (lambda: png(640, 480), "image/png", (640, 480)),
        (lambda: pillow_image(321, 123, "JPEG"), "image/jpeg", (321, 123)),
        (lambda: pillow_image(30, 20, "GIF"), "image/gif", (30, 20)),
        (lambda: pillow_image(77, 55, "WEBP"), "image/webp", (77, 55)),
    ],
    ids=["png", "jpeg", "gif", "webp"],
)
def test_an_image_comes_back_as_base64_with_its_size(made, content_type, size):
    body = made()
    with FaultServer({"/i": respond(200, body, content_type=content_type)}) as server:
        result = fetch(server.url("/i"), images=True)
    assert set(result) == KEYS | {"width", "height", "data"}
    assert (result["extractor"], result["content_type"], result["title"]) == ("image", content_type, "")
    assert (result["width"], result["height"]) == size
    assert base64.b64decode(result["data"]) == body
    assert result["text"] == "[image: %s, %dx%d pixels, %.1f KB, from %s]" % (
        content_type,
        size[0],
        size[1],
        len(body) / 1000,
        server.url("/i"),
    )


def test_an_image_without_a_content_type_is_sniffed():
    with FaultServer({"/i": respond(200, png(12, 34), content_type="application/octet-stream")}) as server:
        result = fetch(server.url("/i"), images=True)
    assert (result["content_type"], result["width"], result["height"]) == ("image/png", 12, 34)


@pytest.mark.parametrize("content_type", ["text/html", "text/plain"])
def test_an_image_served_as_text_is_an_image_not_its_bytes_as_text(content_type):
    with FaultServer({"/i": respond(200, png(12, 34), content_type=content_type)}) as server:
        result = fetch(server.url("/i"), images=True)
        error = fetch_error(server.url("/i"))
    assert (result["extractor"], result["content_type"], result["width"], result["height"]) == (
        "image",
        "image/png",
        12,
        34,
    )
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "unsupported_content")


@pytest.mark.parametrize("content_type", ["image/jpg", "image/pjpeg"])
def test_a_jpeg_declared_by_an_alias_gets_the_hint_and_comes_back_when_asked(content_type):
    body = pillow_image(30, 20, "JPEG")
    with FaultServer({"/i": respond(200, body, content_type=content_type)}) as server:
        error = fetch_error(server.url("/i"))
        result = fetch(server.url("/i"), images=True)
    assert error.detail_code == "unsupported_content" and "images=True" in error.hint
    assert (result["content_type"], result["width"], result["height"]) == ("image/jpeg", 30, 20)


def test_an_image_is_refused_by_default_with_a_hint():
    with FaultServer({"/i": respond(200, png(10, 10), content_type="image/png")}) as server:
        error = fetch_error(server.url("/i"))
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "unsupported_content")
    assert "image/png" in error.message and "images=True" in error.hint


@pytest.mark.parametrize("images", [True, False])
def test_a_vector_image_is_unsupported_content_without_a_hint_to_ask_for_images(images):
    svg = b"<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>"
    with FaultServer({"/i": respond(200, svg, content_type="image/svg+xml")}) as server:
        error = fetch_error(server.url("/i"), images=images)
    assert (error.detail_code, "PNG, JPEG, GIF and WebP" in error.message) == ("unsupported_content", True)
    assert error.hint is None  # images=True would not bring it either


def test_an_image_whose_header_is_cut_is_unreadable():
    with FaultServer({"/i": respond(200, png(10, 10)[:20], content_type="image/png")}) as server:
        error = fetch_error(server.url("/i"), images=True)
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "image_unreadable")


@pytest.mark.parametrize(
    "made",
    [lambda: png(64, 48), lambda: small("JPEG"), lambda: small("GIF"), lambda: small("WEBP")],
    ids=["png", "jpeg", "gif", "webp"],
)
def test_an_image_cut_short_is_unreadable_not_sent_on(made):
    body = made()
    # no Content-Length: the body ends where the connection closed, half-way through the file
    half = respond(200, body[: len(body) // 2], content_type="image/*", headers={"Content-Length": None})
    with FaultServer({"/i": half, "/whole": respond(200, body, content_type="image/*")}) as server:
        error = fetch_error(server.url("/i"), images=True)
        whole = fetch(server.url("/whole"), images=True)
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "image_unreadable")
    assert "cut short" in error.message and (whole["width"], whole["height"]) == (64, 48)


def test_a_png_too_small_for_the_size_its_header_declares_is_unreadable():
    # 90 bytes saying 7999x7999 (within the caps, so returned undecoded): deflate cannot hold it
    lying = png(7999, 7999, pixels=False)
    solid = png(7999, 300)  # one grey: the best deflate does, about 1000:1, still holds it
    with FaultServer(
        {"/lie": respond(200, lying, content_type="image/png"), "/solid": respond(200, solid, content_type="image/png")}
    ) as server:
        error = fetch_error(server.url("/lie"), images=True)
        result = fetch(server.url("/solid"), images=True)
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "image_unreadable"), repr(error)
    assert (result["width"], result["height"]) == (7999, 300)


def test_an_image_cut_by_the_byte_cap_is_too_large():
    body = pillow_image(400, 400, "JPEG")
    with FaultServer({"/i": respond(200, body, content_type="image/jpeg")}) as server:
        error = fetch_error(server.url("/i"), images=True, max_bytes=len(body) // 2)
    assert (type(error).__name__, error.detail_code, error.hint) == (
        "WebProviderError",
        "image_too_large",
        "raise max_bytes",
    )


def test_an_image_wider_than_the_cap_is_downscaled_with_pillow():
    body = png(image_reader.MAX_IMAGE_SIDE + 2000, 50)
    with FaultServer({"/i": respond(200, body, content_type="image/png")}) as server:
        result = fetch(server.url("/i"), images=True)
    assert (result["width"], result["height"]) == (image_reader.MAX_IMAGE_SIDE, 40)
    assert base64.b64decode(result["data"]).startswith(b"\x89PNG")


def test_an_image_over_the_byte_cap_is_downscaled_under_it_with_pillow():
    body = noise_png(1400, 1300)  # about 5.5 MB of random pixels
    assert len(body) > image_reader.MAX_IMAGE_BYTES
    with FaultServer({"/i": respond(200, body, content_type="image/png")}) as server:
        result = fetch(server.url("/i"), images=True, max_bytes=10_000_000, timeout_ms=30_000)
    assert len(base64.b64decode(result["data"])) <= image_reader.MAX_IMAGE_BYTES
    assert result["width"] < 1400 and abs(result["width"] / result["height"] - 1400 / 1300) < 0.01


def test_a_gif_whose_frame_is_larger_than_its_screen_is_not_decoded_past_the_pixel_cap(monkeypatch):
    # the header says 9000x10 (90,000 pixels); Pillow decodes the 9000x1000 frame
    monkeypatch.setattr(image_reader, "MAX_DECODE_PIXELS", 1_000_000)
    from PIL import Image

    out = io.BytesIO()
    Image.new("P", (9000, 1000), 1).save(out, format="GIF")
    body = bytearray(out.getvalue())
    body[8:10] = (10).to_bytes(2, "little")  # the logical screen's height
    with FaultServer({"/i": respond(200, bytes(body), content_type="image/gif")}) as server:
        error = fetch_error(server.url("/i"), images=True)
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "image_too_large"), repr(error)
    assert "9000x1000 pixels to decode" in error.message


def test_without_pillow_an_image_over_the_cap_is_refused_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # from PIL import Image raises ImportError
    body = png(image_reader.MAX_IMAGE_SIDE + 1, 10)
    with FaultServer({"/i": respond(200, body, content_type="image/png")}) as server:
        error = fetch_error(server.url("/i"), images=True)
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "image_too_large")
    assert "8001x10" in error.message and "the `images` extra: pip install 'Pillow>=" in error.message


def test_an_image_too_large_to_decode_is_refused_even_with_pillow():
    body = png(10_000, 6_000, pixels=False)  # 60 megapixels by its header: refused before decoding
    with FaultServer({"/i": respond(200, body, content_type="image/png")}) as server:
        error = fetch_error(server.url("/i"), images=True, timeout_ms=10_000)
    assert error.detail_code == "image_too_large" and "too large to downscale" in error.message


def test_images_must_be_a_boolean():
    error = fetch_error("http://127.0.0.1:9/i", images="yes")
    assert (type(error).__name__, error.detail_code) == ("InvalidInput", "bad_images")


@pytest.fixture
def without_pillow(monkeypatch):
    """No Pillow: an image within the caps is returned as its bytes, never decoded."""
    monkeypatch.setitem(sys.modules, "PIL", None)  # from PIL import Image raises ImportError


@functools.cache
def small(kind):
    """A 64x48 image in Pillow's ``kind`` format, made once, when a test first asks (not as the
    module is collected, in every worker: the module's Pillow images and noise JPEG took 0.1 s of
    CPU there; the bodies below are made in their tests)."""
    return pillow_image(64, 48, kind)


#: Four bytes of LZW data: what a 64x48 GIF of one colour may hold, not a 7999x7999 frame.
LZW = b"\x84\x8f\xa9\xcb"


def solid(width, height, kind):
    """One colour in Pillow's ``kind`` format: the data as small as the encoder makes it."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, format=kind)
    return out.getvalue()


@pytest.mark.parametrize(
    "made, content_type",
    [
        (lambda: jpeg_frame(small("JPEG"), 7999, 7999), "image/jpeg"),
        (lambda: gif((7999, 7999), [(0, 0, 7999, 7999, LZW)]), "image/gif"),
        (lambda: webp_frame(small("WEBP"), 7999, 7999), "image/webp"),
    ],
    ids=["jpeg", "gif", "webp"],
)
def test_a_header_declaring_more_pixels_than_the_data_can_hold_is_unreadable(without_pillow, made, content_type):
    lying = made()
    # within the caps, so returned undecoded were it not checked: the data is bytes, not the
    # tens of KB the format needs at its best for 7999x7999 (a solid image of it, below, holds)
    with FaultServer({"/i": respond(200, lying, content_type=content_type)}) as server:
        error = fetch_error(server.url("/i"), images=True)
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "image_unreadable"), repr(error)
    assert "more than its data can hold" in error.message


@pytest.mark.parametrize("kind", ["JPEG", "GIF", "WEBP"])
def test_an_image_of_one_colour_holds_its_pixels(monkeypatch, kind):
    body = solid(4000, 300, kind)  # the encoder's smallest data a pixel
    monkeypatch.setitem(sys.modules, "PIL", None)  # read as it is, from its header
    with FaultServer({"/i": respond(200, body, content_type="image/*")}) as server:
        result = fetch(server.url("/i"), images=True)
    assert (result["width"], result["height"], base64.b64decode(result["data"]) == body) == (4000, 300, True)


@pytest.mark.parametrize(
    "made, content_type",
    [
        (lambda: gif((100, 100), [(0, 0, 9000, 9000, LZW * 10_000)]), "image/gif"),
        (lambda: webp_frame(small("WEBP"), 9000, 9000, canvas=(64, 48)), "image/webp"),
    ],
    ids=["gif frame past its screen", "webp frame past its canvas"],
)
def test_a_part_declaring_a_size_past_the_pixel_cap_makes_the_image_too_large(without_pillow, made, content_type):
    body = made()
    # the first size each header gives is within the caps: the part's is 81 megapixels
    with FaultServer({"/i": respond(200, body, content_type=content_type)}) as server:
        error = fetch_error(server.url("/i"), images=True)
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "image_too_large"), repr(error)
    assert "9000x9000 pixels to decode" in error.message


def chunked(body, content_type):
    """``body`` in one chunk of the chunked transfer coding, then the last chunk."""
    fields = {"Content-Type": content_type, "Transfer-Encoding": "chunked", "Connection": "close"}
    return raw(head(200, fields) + b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))


#: A PNG whose image data is three IDAT chunks, and a GIF whose frame's data is four sub-blocks
#: (at 30 + 256 n: the header, screen and colour table, 19 bytes, the frame's descriptor and LZW
#: code size, 11, then sub-blocks of 1 + 255 bytes).
PARTED_PNG, BLOCKED_GIF = png(64, 48, parts=3), gif((64, 48), [(0, 0, 64, 48, LZW * 200)])
#: Where the first IDAT chunk of PARTED_PNG ends: after the signature and IHDR (33 bytes).
FIRST_IDAT_END = 33 + 12 + int.from_bytes(PARTED_PNG[33:37], "big")


@pytest.mark.parametrize(
    "made, content_type, missing",
    [
        (lambda: small("GIF")[:-1], "image/gif", "a GIF's trailer (3B)"),
        (lambda: BLOCKED_GIF[: 30 + 256 * 2], "image/gif", "a GIF's trailer (3B)"),
        (lambda: png(64, 48)[:-12], "image/png", "a PNG's IEND chunk"),
        (lambda: PARTED_PNG[:FIRST_IDAT_END], "image/png", "a PNG's IEND chunk"),
    ],
    ids=[
        "gif without its trailer",
        "gif cut between two sub-blocks",
        "png without its IEND chunk",
        "png cut between two IDAT chunks",
    ],
)
def test_an_image_without_its_end_marker_is_unreadable_whatever_http_says(made, content_type, missing, fake_clock):
    """A PNG's chunks and a GIF's sub-blocks carry their lengths, but a file cut between two of
    them reads well to the cut: a Content-Length of what is left, or the chunked coding, made it
    a whole file, returned as an image (Pillow refuses it, "image file is truncated"). IEND is a
    PNG's last chunk and the trailer a GIF's last byte: they must be there."""
    body = made()
    served = {
        "/length": respond(200, body, content_type=content_type),
        "/chunked": chunked(body, content_type),
        # no length: the body ends where the connection closed, whatever closed it
        "/close": respond(200, body, content_type=content_type, headers={"Content-Length": None}),
        "/dropped": wrong_length(len(body) + 100, body, content_type=content_type),
    }
    with FaultServer(served) as server:
        errors = [fetch_error(server.url(path), images=True) for path in ("/length", "/chunked", "/close")]
        dropped = fetch_error(server.url("/dropped"), images=True)
    for error in errors:
        assert (type(error).__name__, error.detail_code) == ("WebParseError", "image_unreadable"), repr(error)
        assert error.message == "127.0.0.1 served an image that is cut short: its data stops without %s" % missing
    assert (type(dropped).__name__, dropped.detail_code) == ("NetworkError", "incomplete_body"), repr(dropped)


@pytest.mark.parametrize(
    "body, content_type",
    [(PARTED_PNG, "image/png"), (BLOCKED_GIF, "image/gif")],
    ids=["png of three IDAT chunks", "gif of four sub-blocks"],
)
def test_an_image_of_several_parts_reaching_its_end_marker_is_returned(body, content_type):
    with FaultServer({"/i": respond(200, body, content_type=content_type)}) as server:
        result = fetch(server.url("/i"), images=True)
    assert (result["width"], result["height"], base64.b64decode(result["data"]) == body) == (64, 48, True)


def noise_jpeg(width, height):
    """A JPEG of seeded random pixels: its scan data is most of the file."""
    from PIL import Image

    rng = random.Random(7)
    out = io.BytesIO()
    Image.frombytes("RGB", (width, height), bytes(rng.getrandbits(8) for _ in range(width * height * 3))).save(
        out, format="JPEG"
    )
    return out.getvalue()


@functools.cache
def photo():
    """The 320x240 noise JPEG of the tests below, made once, when the first asks."""
    return noise_jpeg(320, 240)


@pytest.mark.parametrize(
    "cut",
    [lambda body: body[: len(body) * 2 // 3], lambda body: body[:-2]],
    ids=["cut a third from its end", "without its last two bytes"],
)
def test_a_jpeg_without_its_end_of_image_marker_is_unreadable_whatever_http_says(cut, fake_clock):
    """A JPEG's scan data has no length: cut short, its segments read well to the end of what is
    left, and a Content-Length of what is left (or the chunked coding) made it a whole file, returned
    as an image (Pillow refuses it: "image file is truncated"). Its end-of-image marker must be there."""
    body = cut(photo())
    served = {"/length": respond(200, body, content_type="image/jpeg"), "/chunked": chunked(body, "image/jpeg")}
    with FaultServer(served) as server:
        errors = [fetch_error(server.url(path), images=True) for path in served]
    for error in errors:
        assert (type(error).__name__, error.detail_code) == ("WebParseError", "image_unreadable"), repr(error)
        assert error.message == (
            "127.0.0.1 served an image that is cut short: its data stops without a JPEG's end-of-image marker (FF D9)"
        )


def test_a_jpeg_with_bytes_after_its_end_of_image_marker_is_returned():
    """Bytes after the marker (padding, a second image of a multi-picture file) are the file's: the
    marker is found by walking the segments, not looked for in the last bytes."""
    body = photo() + b"\x00" * 4096 + photo()
    with FaultServer({"/i": respond(200, body, content_type="image/jpeg")}) as server:
        result = fetch(server.url("/i"), images=True)
    assert (result["width"], result["height"], base64.b64decode(result["data"]) == body) == (320, 240, True)


@pytest.mark.parametrize(
    "made, content_type",
    [
        (lambda: gif((64, 48), [(0, 0, 64, 48, bytes(300))])[:-100], "image/gif"),
        (lambda: small("JPEG")[:300], "image/jpeg"),
        (lambda: png(64, 48)[:40], "image/png"),
    ],
    ids=["gif sub-block", "jpeg segment", "png chunk"],
)
def test_an_image_whose_own_lengths_run_past_its_end_is_unreadable_even_when_whole(made, content_type):
    body = made()
    with FaultServer({"/i": respond(200, body, content_type=content_type)}) as server:
        error = fetch_error(server.url("/i"), images=True)
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "image_unreadable"), repr(error)
    assert "cut short" in error.message


NO_SIGNATURE = "opens with no PNG, JPEG, GIF or WebP signature"


@pytest.mark.parametrize(
    "body, said",
    [
        (b"", "is empty"),
        (b"\x00" * 64, NO_SIGNATURE),
        (b"%PDF-1.7\n1 0 obj", NO_SIGNATURE),
    ],
    ids=["nothing", "zero bytes", "a pdf's opening"],
)
def test_a_body_declared_as_an_image_that_is_none_says_so(body, said):
    """It read "an image that is cut short or malformed (its header gives no size ...)"; an empty
    body is named as such, as for a declared PDF (an HTML page is read as one: below)."""
    with FaultServer({"/i.png": respond(200, body, content_type="image/png")}) as server:
        error = fetch_error(server.url("/i.png"), images=True)
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "image_unreadable")
    assert error.message == "127.0.0.1 served image/png content that is no image: it " + said


@pytest.mark.parametrize("body", [b"\x00" * 64, b"%PDF-1.7\n1 0 obj"], ids=["zero bytes", "a pdf's opening"])
def test_a_body_declared_as_an_image_that_is_none_says_so_when_images_were_not_asked_for(body):
    """Its first KB is read all the same (to tell a page sent under an image's type): it said "an
    image; fetch returns images only when asked", with the hint to ask for them, which only led to
    this refusal."""
    with FaultServer({"/i.png": respond(200, body, content_type="image/png")}) as server:
        error = fetch_error(server.url("/i.png"))
    assert (type(error).__name__, error.detail_code, error.hint) == ("WebParseError", "image_unreadable", None)
    assert error.message == "127.0.0.1 served image/png content that is no image: it " + NO_SIGNATURE


#: A page whose charset only its <meta> says: read without it, its GBK is taken for EUC-KR (앳없련狂).
PAGE = (
    "<!doctype html><html><head><meta charset=gbk><title>拒绝访问</title></head><body><p>拒绝访问</p></body></html>"
).encode("gbk")


@pytest.mark.parametrize("images", [False, True], ids=["images not asked for", "images asked for"])
@pytest.mark.parametrize("content_type", ["image/png", "image/jpeg", "image/svg+xml"])
def test_a_page_served_under_an_image_type_is_read_as_the_page(content_type, images):
    """A sign-in or error page sent with the type of the image it stood for was refused as "an image;
    fetch returns images only when asked" (whose hint, images=True, brought "no image" next). Its
    first bytes are sniffed as an untyped body's are: it is read as the page, in the charset its
    <meta> names, as under text/html."""
    served = {
        "/i": respond(200, PAGE, content_type=content_type),
        "/page": respond(200, PAGE, content_type="text/html"),
    }
    with FaultServer(served) as server:
        result = fetch(server.url("/i"), images=images)
        as_html = fetch(server.url("/page"), images=images)
    assert (result["extractor"], result["title"], result["text"]) == (
        as_html["extractor"],
        as_html["title"],
        as_html["text"],
    )
    assert (result["title"], result["text"]) == ("拒绝访问", "拒绝访问")
    assert result["content_type"] == content_type  # what the server said, as for any sniffed body


def test_an_image_not_asked_for_is_refused_after_its_first_kilobyte():
    """A text fetch reads no image (its bytes would be refused): of a body under an image's type it
    reads the first KB, enough to tell a page, and stops (here 2 MB the server never finishes)."""
    body = png(64, 48)
    endless = raw(head(200, {"Content-Type": "image/png", "Content-Length": "2000000"}) + body + bytes(2048))
    with FaultServer({"/i": endless}) as server:
        error = fetch_error(server.url("/i"))
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "unsupported_content"), repr(error)
    assert error.message == "127.0.0.1 served image/png content, an image; fetch returns images only when asked"


def test_a_max_chars_shorter_than_the_line_shortens_it_and_the_image_is_not_truncated():
    # the line was cut at max_chars mid-word and the result said truncated (["max_chars"]),
    # though the image was whole and no larger max_chars brought anything a reader lacked
    body = png(640, 480)
    with FaultServer({"/i": respond(200, body, content_type="image/png")}) as server:
        result = fetch(server.url("/i"), images=True, max_chars=40)
    assert (result["text"], result["truncated"], result["length"]) == ("[image: image/png, 640x480 pixels]", False, 34)
    assert "truncated_by" not in result and base64.b64decode(result["data"]) == body
