"""An image over fetch's caps is decoded once and encoded once, at the size that fits them: it was
first encoded again at full size (for a 20-megapixel PNG most of the step's time: 11 s of CPU
of 12, bench/image_downscale.py) only to find that over the byte cap. A JPEG is decoded at the
reduction its decoder offers when the target is at most half its size."""

import base64
import io
import threading

import pytest
from faults import respond
from images import noise_png
from servers import FaultServer
from test_fetch_pdf import fetch

from websearch_sync.reader import image as image_reader

Image = pytest.importorskip("PIL.Image")


@pytest.fixture
def encodings(monkeypatch):
    """The size of every image Pillow encodes, and of every image it resizes from, in order."""
    seen = {"saved": [], "resized_from": []}
    save, resize = Image.Image.save, Image.Image.resize

    def saving(self, *args, **kwargs):
        seen["saved"].append(self.size)
        return save(self, *args, **kwargs)

    def resizing(self, *args, **kwargs):
        seen["resized_from"].append(self.size)
        return resize(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "save", saving)
    monkeypatch.setattr(Image.Image, "resize", resizing)
    return seen


def test_a_png_over_the_byte_cap_is_encoded_once_at_a_size_under_it(encodings):
    body = noise_png(1400, 1300)  # about 5.5 MB of random pixels
    assert len(body) > image_reader.MAX_IMAGE_BYTES
    encodings["saved"].clear()  # building it
    with FaultServer({"/i": respond(200, body, content_type="image/png")}) as server:
        result = fetch(server.url("/i"), images=True, max_bytes=10_000_000, timeout_ms=30_000)
    data = base64.b64decode(result["data"])
    assert len(data) <= image_reader.MAX_IMAGE_BYTES
    assert encodings["saved"] == [(result["width"], result["height"])]  # once, and not at 1400x1300
    assert result["width"] < 1400 and abs(result["width"] / result["height"] - 1400 / 1300) < 0.01


def test_a_jpeg_far_over_the_byte_cap_is_decoded_at_a_reduced_size(encodings, monkeypatch):
    monkeypatch.setattr(image_reader, "MAX_IMAGE_BYTES", 60_000)
    out = io.BytesIO()
    Image.effect_noise((1200, 1000), 60).convert("RGB").save(out, format="JPEG", quality=95)
    body = out.getvalue()
    assert len(body) > 10 * image_reader.MAX_IMAGE_BYTES  # the target: under a third of each side
    encodings["saved"].clear()
    with FaultServer({"/i": respond(200, body, content_type="image/jpeg")}) as server:
        result = fetch(server.url("/i"), images=True, timeout_ms=30_000)
    assert len(base64.b64decode(result["data"])) <= 60_000
    [(width, height)] = encodings["resized_from"]  # decoded once, at the decoder's 1/2, 1/4 or 1/8
    assert 1200 % width == 0 and width < 1200 and (width, height) == (1200 * height // 1000, height)
    assert width // 2 < result["width"] <= width  # the smallest reduction still larger than the target
    assert encodings["saved"] == [(result["width"], result["height"])]


@pytest.mark.parametrize("orientation", [6, 8])
def test_a_downscaled_photo_taken_on_its_side_comes_back_upright(monkeypatch, orientation):
    """The downscaled encoding keeps no EXIF: a JPEG whose Orientation tag turns it for display
    (6: a quarter turn clockwise, 8: counter-clockwise) came back sideways. It is turned first."""
    monkeypatch.setattr(image_reader, "MAX_IMAGE_BYTES", 60_000)
    stored = Image.effect_noise((1200, 1000), 60).convert("RGB")
    stored.paste((255, 0, 0), (0, 0, 600, 1000))  # the stored left half: the top (6) or bottom (8) shown
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    stored.save(out, format="JPEG", quality=95, exif=exif)
    with FaultServer({"/i": respond(200, out.getvalue(), content_type="image/jpeg")}) as server:
        result = fetch(server.url("/i"), images=True, timeout_ms=30_000)
    with Image.open(io.BytesIO(base64.b64decode(result["data"]))) as shown:
        assert shown.size == (result["width"], result["height"]) and result["width"] < result["height"]
        red_row = shown.height // 4 if orientation == 6 else shown.height * 3 // 4
        red, green, blue = shown.convert("RGB").getpixel((shown.width // 2, red_row))
    assert red > 200 and green < 60 and blue < 60


def test_an_image_whose_reading_outlasts_the_deadline_is_not_said_to_be_a_page_s_text(monkeypatch):
    """A downscale of tens of megapixels takes seconds (decoded, resized and encoded again, in a
    thread the fetch gives up at its deadline): the Timeout said "extracting the text of a page".

    The deadline counts a fake clock (:func:`clocks.deadlines_on`), frozen while the image is
    requested and read (they have all of its 10 s); the image's reading moves it past the
    deadline, then holds until the call has returned. The call's wait for that reading starts once
    it holds (``deadline.submit`` wrapped): no time is left, and it gives up at once. (A real 600 ms
    deadline against a 1.5 s sleep: the first fetch of a process, run alone at a load of 13, spent
    the 600 ms before the image was read in 7 of 8 runs, "no complete answer from 127.0.0.1
    within the 600 ms deadline".)"""
    from clocks import FakeClock, deadlines_on
    from images import png

    import websearch_sync as ws
    from websearch_sync.net import deadline

    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    budget_s = 10.0
    ends = clock.monotonic() + budget_s
    reading, released = threading.Event(), threading.Event()
    within_caps = image_reader._within_caps

    def outlasting(*args, **kwargs):
        clock.advance(ends - clock.monotonic() + 0.001)
        reading.set()
        released.wait(60)  # bounded: a reading nobody releases ends
        return within_caps(*args, **kwargs)

    submit = deadline.submit

    def submit_then_wait_for_the_reading(job, name):
        if name != "websearch-extract":
            return submit(job, name)

        def job_then_said():
            try:
                job()
            finally:
                reading.set()

        submit(job_then_said, name)
        reading.wait(60)

    monkeypatch.setattr(image_reader, "_within_caps", outlasting)
    monkeypatch.setattr(deadline, "submit", submit_then_wait_for_the_reading)
    try:
        with FaultServer({"/i.png": respond(200, png(8100, 10), content_type="image/png")}) as server:
            with pytest.raises(ws.Timeout) as info:
                fetch(server.url("/i.png"), images=True, timeout_ms=int(budget_s * 1000))
    finally:
        released.set()
    assert info.value.detail_code == "deadline_exceeded"
    assert "the image on 127.0.0.1" in info.value.message and "text" not in info.value.message, info.value.message


def test_a_downscaled_image_says_the_size_it_was_served_at(monkeypatch):
    """A downscaled image was described at its new size alone (``[image: image/jpeg, 400x333 pixels,
    ...]``), as if served so: its line and its result say it was shrunk and from what size, as it is
    shown (a photo stored on its side with orientation 6: 1000x1200)."""
    monkeypatch.setattr(image_reader, "MAX_IMAGE_BYTES", 60_000)
    stored = Image.effect_noise((1200, 1000), 60).convert("RGB")
    exif = Image.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    stored.save(out, format="JPEG", quality=95, exif=exif)
    with FaultServer({"/i": respond(200, out.getvalue(), content_type="image/jpeg")}) as server:
        result = fetch(server.url("/i"), images=True, timeout_ms=30_000)
    assert (result["original_width"], result["original_height"]) == (1000, 1200)
    assert result["width"] < 1000 and result["height"] < 1200
    said = "%dx%d pixels, " % (result["width"], result["height"])
    assert said in result["text"] and ", downscaled from 1000x1200 pixels to the caps, " in result["text"]
    assert "EXIF" not in result["text"]  # turned upright: no more stored on its side


def test_an_image_within_the_caps_has_no_original_size():
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (10, 20, 30)).save(out, format="PNG")
    with FaultServer({"/i": respond(200, out.getvalue(), content_type="image/png")}) as server:
        result = fetch(server.url("/i"), images=True, timeout_ms=30_000)
    assert (result["width"], result["height"]) == (64, 48) and "original_width" not in result
    assert "downscaled" not in result["text"]
