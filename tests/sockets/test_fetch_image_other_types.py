"""An image of a type fetch does not return (ICO, BMP, TIFF) declared as one it does (a favicon
sent as ``image/png``, a server that calls every image ``image/jpeg``): refused as the image it is,
named by its first bytes, as an untyped one is, not called "no image" (``image_unreadable``, the
answer to an error page sent under an image's type)."""

import io

import pytest
from faults import respond
from servers import FaultServer

import websearch_sync as ws

Image = pytest.importorskip("PIL.Image")  # writes the BMP, ICO and TIFF


def encoded(kind: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (20, 10), (1, 2, 3)).save(out, kind)
    return out.getvalue()


@pytest.mark.parametrize("kind, named", [("BMP", "image/bmp"), ("ICO", "image/x-icon"), ("TIFF", "image/tiff")])
@pytest.mark.parametrize("content_type", ["image/png", "image/jpeg"])
def test_an_image_of_another_type_declared_as_a_returned_one_is_named_by_its_bytes(kind, named, content_type):
    with FaultServer({"/i": respond(200, encoded(kind), content_type=content_type)}) as server:
        with pytest.raises(ws.WebSearchError) as info:
            ws.fetch(server.url("/i"), images=True, allow_private=True, settings=ws.Settings())
    error = info.value
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "unsupported_content"), repr(error)
    assert error.message == (
        "127.0.0.1 served %s content, %s by its first bytes, which fetch cannot return "
        "(PNG, JPEG, GIF and WebP images only)" % (content_type, named)
    )


def test_a_text_opening_like_a_bitmap_under_an_image_type_is_still_no_image():
    # "BM" opens a bitmap and a text alike ("BMW..."): a text holds no NUL byte, a bitmap's header does
    with FaultServer({"/i": respond(200, b"BMW dealers near you", content_type="image/png")}) as server:
        with pytest.raises(ws.WebSearchError) as info:
            ws.fetch(server.url("/i"), images=True, allow_private=True, settings=ws.Settings())
    assert info.value.detail_code == "image_unreadable", repr(info.value)
