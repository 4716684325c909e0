"""The command line's hint for an ``unsupported_content`` refusal: ``fetch --images`` only for an
image not asked for. A PDF without the ``pdf`` extra and an animation needing Pillow (``--images``
already given) share the detail code and carry a hint of their own, and were told to pass
``--images``."""

import sys

import pytest
from images import animation, png
from requests.structures import CaseInsensitiveDict

from websearch_sync.cli.output import cli_hint
from websearch_sync.errors import WebProviderError
from websearch_sync.net.response import HttpResponse
from websearch_sync.reader.image import image_text
from websearch_sync.reader.pdf import pdf_text


def _response(body, media):
    return HttpResponse(
        200, CaseInsensitiveDict({"Content-Type": media}), body, "https://files.example/a", truncated=False
    )


def _refusal(read):
    with pytest.raises(WebProviderError) as caught:
        read()
    assert caught.value.detail_code == "unsupported_content"
    return caught.value


def test_an_image_not_asked_for_names_the_flag():
    error = _refusal(lambda: image_text(_response(png(3, 2), "image/png"), provider="fetch", images=False))
    assert cli_hint(error, None) == "fetch --images reads an image (with --json, its base64 data)"


def test_a_pdf_without_the_extra_is_not_told_to_pass_images(monkeypatch):
    monkeypatch.setitem(sys.modules, "pypdf", None)  # import pypdf raises ImportError
    error = _refusal(lambda: pdf_text(_response(b"%PDF-1.7\n", "application/pdf"), mode="text", provider="fetch"))
    assert "pdf" in error.message and cli_hint(error, None) is None
    # the message names the extra and its pip command; a hint said it again after them
    assert str(error).count("extra") == 1 and error.hint is None


def test_an_animation_needing_pillow_is_not_told_to_pass_images(monkeypatch):
    body = animation("WEBP")  # its first frame is drawn onto a larger canvas: only Pillow makes a still
    monkeypatch.setitem(sys.modules, "PIL", None)
    error = _refusal(lambda: image_text(_response(body, "image/webp"), provider="fetch", images=True))
    assert "Pillow" in error.message and cli_hint(error, None) is None
    assert str(error).count("extra") == 1 and error.hint is None


def test_an_image_over_the_caps_without_pillow_names_the_extra_once(monkeypatch):
    """``str(error)`` was the message, which names the extra and its pip command, then
    "; install the images extra (Pillow) to downscale it": the same advice twice in one line."""
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(WebProviderError) as caught:
        image_text(_response(png(9000, 10), "image/png"), provider="fetch", images=True)
    error = caught.value
    assert error.detail_code == "image_too_large" and "pip install" in error.message
    assert str(error).count("extra") == 1 and error.hint is None
