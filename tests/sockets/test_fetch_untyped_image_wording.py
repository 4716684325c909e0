"""An image served without a ``Content-Type`` is named as such in fetch's refusal: it read "served an
image content, an image"."""

import pytest
from faults import respond
from images import png
from servers import FaultServer

import websearch_sync as ws


def test_an_untyped_image_not_asked_for_says_its_type_is_missing():
    with FaultServer({"/picture": respond(200, png(4, 3), content_type=None)}) as server:
        with pytest.raises(ws.WebProviderError) as caught:
            ws.fetch(server.url("/picture"), allow_private=True, settings=ws.Settings())
    assert (caught.value.detail_code, caught.value.message) == (
        "unsupported_content",
        "127.0.0.1 served content without a type, an image; fetch returns images only when asked",
    )


def test_a_typed_image_not_asked_for_names_its_type():
    with FaultServer({"/picture": respond(200, png(4, 3), content_type="image/png")}) as server:
        with pytest.raises(ws.WebProviderError) as caught:
            ws.fetch(server.url("/picture"), allow_private=True, settings=ws.Settings())
    assert caught.value.message == "127.0.0.1 served image/png content, an image; fetch returns images only when asked"
