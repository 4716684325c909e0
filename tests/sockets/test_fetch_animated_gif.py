"""An animated GIF comes back as its first frame (``fetch(..., images=True)``, ``call_tool``, MCP):
OpenAI's vision input takes a GIF only when it is not animated ("Non-animated GIF" in its image
input requirements) and Anthropic's documents ``image/gif`` without animation, and a model
API refuses the whole request that carries an image it does not take. The frame is cut out of
the file's bytes (no decoding, no Pillow needed): Pillow, where installed, checks the result."""

import base64
import io

import pytest
from faults import respond
from images import gif
from servers import FaultServer
from test_fetch_images import LZW, without_pillow  # noqa: F401  (a fixture)
from test_fetch_pdf import fetch

import websearch_sync as ws
from websearch_sync import tool

COLOURS = [(200, 30, 30), (30, 200, 30), (30, 30, 200)]


def animation(size=(48, 32), frames=3):
    """A looping animation of ``frames`` frames of different colours (a transparent corner each),
    written by Pillow with the extensions browsers' GIFs carry: the NETSCAPE loop, frame delays."""
    from PIL import Image, ImageDraw

    images = []
    for colour in COLOURS[:frames]:
        image = Image.new("P", size, 0)
        image.putpalette([0, 0, 0, *colour] + [0] * 762)
        ImageDraw.Draw(image).rectangle((4, 4, size[0] - 1, size[1] - 1), fill=1)
        images.append(image)
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], loop=0, duration=80, transparency=0)
    return out.getvalue()


def served(body):
    with FaultServer({"/a.gif": respond(200, body, content_type="image/gif")}) as server:
        return fetch(server.url("/a.gif"), images=True), server.url("/a.gif")


def test_an_animated_gif_comes_back_as_its_first_frame_a_still_gif():
    from PIL import Image

    body = animation()
    with Image.open(io.BytesIO(body)) as original:
        assert original.n_frames == 3
        first = original.convert("RGBA").tobytes()
    result, url = served(body)
    data = base64.b64decode(result["data"])
    with Image.open(io.BytesIO(data)) as still:
        assert (still.format, still.n_frames, still.is_animated, still.size) == ("GIF", 1, False, (48, 32))
        assert "loop" not in still.info  # no NETSCAPE loop count left
        assert still.info.get("transparency") == 0  # the first frame's graphic control kept
        assert still.convert("RGBA").tobytes() == first
    assert (result["content_type"], result["width"], result["height"]) == ("image/gif", 48, 32)
    assert result["text"] == "[image: image/gif, 48x32 pixels, %.1f KB, the first of 3 frames, from %s]" % (
        len(data) / 1000,
        url,
    )


def test_the_first_frame_is_cut_out_without_pillow(without_pillow):  # noqa: F811  (the fixture)
    frames = [(0, 0, 64, 48, LZW), (0, 0, 64, 48, LZW), (8, 8, 16, 16, LZW)]
    result, _ = served(gif((64, 48), frames))
    assert base64.b64decode(result["data"]) == gif((64, 48), frames[:1])
    assert "the first of 3 frames" in result["text"]


def test_a_later_frame_declaring_more_than_it_holds_is_left_out_with_the_animation(without_pillow):  # noqa: F811
    # the frame never reaches the model, nor a decoder: the first frame is whole
    result, _ = served(gif((64, 48), [(0, 0, 64, 48, LZW), (0, 0, 7999, 7999, LZW)]))
    assert (result["width"], result["height"]) == (64, 48)
    assert base64.b64decode(result["data"]) == gif((64, 48), [(0, 0, 64, 48, LZW)])


def test_a_still_gif_comes_back_as_it_is():
    from images import pillow_image

    body = pillow_image(30, 20, "GIF")
    result, url = served(body)
    assert base64.b64decode(result["data"]) == body
    assert "frames" not in result["text"]


@pytest.mark.parametrize("style", ["openai", "openai_responses", "anthropic"])
def test_call_tool_gives_every_provider_the_still_frame(style):
    from PIL import Image

    with FaultServer({"/a.gif": respond(200, animation(), content_type="image/gif")}) as server:
        with ws.SearchClient(settings=ws.Settings(allow_private=True)) as client:
            result = tool.call_tool("web_fetch", {"url": server.url("/a.gif")}, client=client, images=True)
    block = tool.image_block(result, style)
    url = {"openai": lambda: block["image_url"]["url"], "openai_responses": lambda: block["image_url"]}
    encoded = block["source"]["data"] if style == "anthropic" else url[style]().split(";base64,", 1)[1]
    with Image.open(io.BytesIO(base64.b64decode(encoded))) as still:
        assert still.n_frames == 1
