"""An image without its end marker over HTTP/2 (the browser wire): the stream's end marks where
the body ends, but a file cut short on the server ends its stream as a whole one does, so a PNG,
JPEG or GIF without its end marker is refused there too (as over HTTP/1 whatever HTTP says: see
test_fetch_images.py)."""

import pytest
from fingerprint_lab import CERT, FingerprintServer
from images import pillow_image, png

import websearch_sync as ws
from websearch_sync.net.browser import browser_available

pytestmark = pytest.mark.skipif(not browser_available(), reason="needs the browser extra (curl_cffi)")


@pytest.mark.parametrize(
    "body, content_type, missing",
    [
        (pillow_image(64, 48, "GIF")[:-1], "image/gif", "a GIF's trailer (3B)"),
        (pillow_image(64, 48, "JPEG")[:-2], "image/jpeg", "a JPEG's end-of-image marker (FF D9)"),
        (png(64, 48, parts=3)[:-12], "image/png", "a PNG's IEND chunk"),
    ],
    ids=["gif without its trailer", "jpeg without its end-of-image marker", "png without its IEND chunk"],
)
def test_an_image_without_its_end_marker_is_unreadable_though_its_http2_stream_ended(body, content_type, missing):
    settings = ws.Settings(ca_bundle=CERT, allow_private=True)  # the browser wire: the default with the extra
    with FingerprintServer(answers={"/image": (content_type, body)}) as server:
        with pytest.raises(ws.WebParseError) as caught:
            ws.fetch(server.url("/image"), images=True, settings=settings)
    assert [record.get("http") for record in server.records] == ["h2"]
    assert caught.value.detail_code == "image_unreadable"
    assert caught.value.message.endswith("its data stops without %s" % missing), caught.value.message
