"""An APNG and an animated WebP come back as a still image of their first frame, as an animated
GIF does (tests/sockets/test_fetch_animated_gif.py): OpenAI's vision input refuses an animated
image, and a model API refuses the whole request that carries one. The frame is cut out of the
file's bytes where the format allows it (no Pillow needed); a WebP frame drawn onto a larger
canvas is decoded with Pillow, and refused without it as unsupported_content naming the extra."""

import base64
import io
import sys

import pytest
from faults import respond
from images import animation, apng, webp_animation
from servers import FaultServer
from test_fetch_pdf import fetch, fetch_error

import websearch_sync as ws
from websearch_sync import tool


def served(body, media, *, pillow=True):
    """fetch's result for ``body`` served as ``media``, and its URL; without ``pillow``, the
    fetch runs with Pillow hidden (the test still checks the result with it)."""
    with FaultServer({"/a": respond(200, body, content_type=media)}) as server, pytest.MonkeyPatch.context() as patch:
        if not pillow:
            patch.setitem(sys.modules, "PIL", None)  # from PIL import Image raises ImportError
        return fetch(server.url("/a"), images=True), server.url("/a")


def frame(body, number=0):
    """Pillow's RGBA pixels of frame ``number``, the frame count and whether it is animated."""
    from PIL import Image

    with Image.open(io.BytesIO(body)) as image:
        frames, animated = image.n_frames, image.is_animated
        image.seek(number)
        return image.convert("RGBA").tobytes(), frames, animated


@pytest.mark.parametrize(
    "body, media, original_frame",
    [
        (animation("PNG"), "image/png", 0),
        (animation("PNG", default_image=True), "image/png", 1),  # Pillow's frame 0 is the default image
        (animation("WEBP", corner=False), "image/webp", 0),
        (animation("WEBP", corner=False, lossless=True), "image/webp", 0),
    ],
    ids=["apng", "apng default image not a frame", "webp lossy", "webp lossless"],
)
def test_an_animation_comes_back_as_its_first_frame_cut_out_without_pillow(body, media, original_frame):
    result, url = served(body, media, pillow=False)
    first = frame(body, original_frame)[0]
    data = base64.b64decode(result["data"])
    assert frame(data) == (first, 1, False)
    assert (result["content_type"], result["width"], result["height"]) == (media, 48, 32)
    frames = 3 if original_frame == 0 else 2
    assert result["text"] == "[image: %s, 48x32 pixels, %.1f KB, the first of %d frames, from %s]" % (
        media,
        len(data) / 1000,
        frames,
        url,
    )


def test_an_apng_keeps_its_chunks_and_their_crcs_when_its_default_image_is_the_first_frame():
    body = apng((40, 30), [(0, 0, 40, 30, 0x20), (0, 0, 10, 10, 0x40)])
    result, _ = served(body, "image/png", pillow=False)
    idat = body.index(b"IDAT") - 4
    # the signature and IHDR, the IDAT chunk (up to the next frame control), IEND: byte for byte
    still = body[:33] + body[idat : body.index(b"fcTL", idat) - 4] + body[-12:]
    assert base64.b64decode(result["data"]) == still


def test_an_apng_whose_first_frame_is_smaller_than_the_image_gives_its_default_image():
    # the default image is not part of the animation, and the first frame does not cover it
    body = apng((40, 30), [(4, 4, 20, 20, 0x20), (0, 0, 10, 10, 0x40)], default_frame=False)
    result, url = served(body, "image/png", pillow=False)
    data = base64.b64decode(result["data"])
    assert b"acTL" not in data and b"fcTL" not in data and b"fdAT" not in data
    assert "the still image beside its animation of 2 frames" in result["text"]


def test_a_lossy_webp_frame_with_alpha_becomes_an_extended_still_file():
    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (40, 30), (0, 0, 0, 0))
    ImageDraw.Draw(image).rectangle((0, 0, 20, 15), fill=(200, 0, 0, 255))
    out = io.BytesIO()
    image.save(out, format="WEBP")
    body = webp_animation((40, 30), [(0, 0, out.getvalue()), (0, 0, out.getvalue())])
    first = frame(body)[0]
    result, _ = served(body, "image/webp", pillow=False)
    data = base64.b64decode(result["data"])
    assert data[12:16] == b"VP8X" and b"ALPH" in data and b"ANMF" not in data
    assert frame(data) == (first, 1, False)


def test_a_webp_frame_drawn_onto_a_larger_canvas_is_decoded_with_pillow():
    body = animation("WEBP")  # libwebp stores the first frame without its transparent strip
    assert b"ANMF" in body and body[body.index(b"ANMF") + 8 : body.index(b"ANMF") + 14] != bytes(6)
    result, url = served(body, "image/webp")
    data = base64.b64decode(result["data"])
    pixels, frames, animated = frame(data)
    assert (frames, animated, result["width"], result["height"]) == (1, False, 48, 32)
    assert "the first of 3 frames" in result["text"]


def test_a_webp_frame_drawn_onto_a_larger_canvas_without_pillow_is_refused_naming_the_extra(monkeypatch):
    body = animation("WEBP")
    monkeypatch.setitem(sys.modules, "PIL", None)
    with FaultServer({"/a": respond(200, body, content_type="image/webp")}) as server:
        error = fetch_error(server.url("/a"), images=True)
    assert (type(error), error.detail_code) == (ws.WebProviderError, "unsupported_content")
    assert "animated" in error.message and "images" in error.message and "Pillow" in error.message


@pytest.mark.parametrize("style", ["openai", "openai_responses", "anthropic"])
@pytest.mark.parametrize("kind", ["PNG", "WEBP"])
def test_call_tool_gives_every_provider_a_still_image(kind, style):
    with FaultServer({"/a": respond(200, animation(kind), content_type="image/" + kind.lower())}) as server:
        with ws.SearchClient(settings=ws.Settings(allow_private=True)) as client:
            result = tool.call_tool("web_fetch", {"url": server.url("/a")}, client=client, images=True)
    block = tool.image_block(result, style)
    url = {"openai": lambda: block["image_url"]["url"], "openai_responses": lambda: block["image_url"]}
    encoded = block["source"]["data"] if style == "anthropic" else url[style]().split(";base64,", 1)[1]
    assert frame(base64.b64decode(encoded))[1:] == (1, False)


def test_a_frame_on_a_canvas_of_too_many_pixels_to_decode_is_refused_before_decoding():
    from images import pillow_image

    # a 64x48 frame on a 10000x6000 canvas (60 megapixels): the decoder would allocate the canvas
    body = webp_animation((10000, 6000), [(0, 0, pillow_image(64, 48, "WEBP"))])
    with FaultServer({"/a": respond(200, body, content_type="image/webp")}) as server:
        error = fetch_error(server.url("/a"), images=True)
    assert (type(error), error.detail_code) == (ws.WebProviderError, "image_too_large")
    assert "too large to cut a frame from (10000x6000 pixels" in error.message
