"""An image without its end marker over HTTP/2 (the browser wire): the stream's end marks where
the body ends, so a body read to it is the whole file even without a ``Content-Length`` (over
HTTP/1 such a body ends where the connection closed, whatever closed it: refused, see
test_fetch_images.py)."""

import base64

import pytest
from fingerprint_lab import CERT, FingerprintServer
from images import pillow_image, png

import websearch_sync as ws
from websearch_sync.net.browser import browser_available

pytestmark = pytest.mark.skipif(not browser_available(), reason="needs the browser extra (curl_cffi)")


@pytest.mark.parametrize(
    "body, content_type",
    [
        (pillow_image(64, 48, "GIF")[:-1], "image/gif"),
        (pillow_image(64, 48, "JPEG")[:-2], "image/jpeg"),
        (png(64, 48)[:-12], "image/png"),
    ],
    ids=["gif without its trailer", "jpeg without its end-of-image marker", "png without its IEND chunk"],
)
def test_an_image_without_its_end_marker_is_whole_when_its_http2_stream_ended(body, content_type):
    settings = ws.Settings(ca_bundle=CERT, allow_private=True)  # the browser wire: the default with the extra
    with FingerprintServer(answers={"/image": (content_type, body)}) as server:
        result = ws.fetch(server.url("/image"), images=True, settings=settings)
    assert [record.get("http") for record in server.records] == ["h2"]
    assert (result["width"], result["height"], base64.b64decode(result["data"]) == body) == (64, 48, True)
