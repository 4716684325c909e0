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
        (png(64, 48)[:-12], "image/png"),
    ],
    ids=["gif without its trailer", "png without its IEND chunk"],
)
def test_an_image_without_its_end_marker_is_whole_when_its_http2_stream_ended(body, content_type):
    settings = ws.Settings(ca_bundle=CERT, allow_private=True)  # the browser wire: the default with the extra
    with FingerprintServer(answers={"/image": (content_type, body)}) as server:
        result = ws.fetch(server.url("/image"), images=True, settings=settings)
    assert [record.get("http") for record in server.records] == ["h2"]
    assert (result["width"], result["height"], base64.b64decode(result["data"]) == body) == (64, 48, True)


def test_a_jpeg_without_its_end_of_image_marker_is_unreadable_though_its_http2_stream_ended():
    """A JPEG's scan data has no length: only its end-of-image marker says it is whole."""
    settings = ws.Settings(ca_bundle=CERT, allow_private=True)
    with FingerprintServer(answers={"/image": ("image/jpeg", pillow_image(64, 48, "JPEG")[:-2])}) as server:
        with pytest.raises(ws.WebParseError) as caught:
            ws.fetch(server.url("/image"), images=True, settings=settings)
    assert [record.get("http") for record in server.records] == ["h2"]
    assert caught.value.detail_code == "image_unreadable" and "end-of-image marker (FF D9)" in caught.value.message
