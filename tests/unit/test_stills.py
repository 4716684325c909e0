"""An animation's still image cut out of hostile bytes (websearch_sync.reader.stills): chunk
lengths past the end, chunks too short for what they say, zero-length chunks, frame counts
that lie or are huge. The cut never raises, ends in time linear in the bytes, and what it gives
is a still image the header reader reads whole (or ``None``: decode it instead)."""

import struct
import time
import zlib

import pytest
from images import animation, apng, webp_animation

from websearch_sync.reader.imagesize import read_header
from websearch_sync.reader.stills import first_frame

APNG = apng((40, 30), [(0, 0, 40, 30, 0x20), (0, 0, 10, 10, 0x40)], default_frame=False)
WEBP = animation("WEBP", corner=False)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _replaced(body: bytes, kind: bytes, data: bytes) -> bytes:
    """The PNG ``body`` with its first ``kind`` chunk holding ``data`` instead (its CRC made anew)."""
    at = body.index(kind) - 4
    (length,) = struct.unpack(">I", body[at : at + 4])
    return body[:at] + _chunk(kind, data) + body[at + 12 + length :]


def _still_of(data: bytes, media: str):
    header = read_header(data, media)
    assert header is not None and header.animated
    still = first_frame(data, media, header.size)
    if still is not None:
        again = read_header(still.data, media)
        assert again is not None and not again.animated and again.ended and again.size == header.size
    return still


def test_every_chunk_of_a_built_apng_frame_has_the_crc_of_its_data():
    data = _still_of(APNG, "image/png").data
    position = 8
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind, body = data[position + 4 : position + 8], data[position + 8 : position + 8 + length]
        assert struct.unpack(">I", data[position + 8 + length : position + 12 + length])[0] == zlib.crc32(kind + body)
        position += 12 + length
    assert position == len(data)


def test_an_apng_claiming_billions_of_frames_counts_those_it_holds():
    body = apng((40, 30), [(0, 0, 40, 30, 0x20)], claimed=2**32 - 1)
    assert read_header(body, "image/png").frames == 2


@pytest.mark.parametrize(
    "body",
    [
        # an fdAT too short for its sequence number, or a frame control too short: the default image
        _replaced(APNG, b"fdAT", b"\x00\x00"),
        _replaced(APNG, b"fcTL", b""),
    ],
    ids=["fdAT of 2 bytes", "fcTL of 0 bytes"],
)
def test_an_apng_frame_too_short_to_be_one_gives_the_default_image(body):
    assert body != APNG
    still = _still_of(body, "image/png")
    assert still is not None and not still.first


def test_an_apng_chunk_running_past_the_end_is_no_image():
    at = APNG.index(b"fdAT") - 4
    assert read_header(APNG[:at] + struct.pack(">I", 2**31) + APNG[at + 4 :], "image/png") is None


def test_a_webp_frame_chunk_running_past_its_frame_is_no_image():
    at = WEBP.index(b"VP8 ") + 4
    assert read_header(WEBP[:at] + struct.pack("<I", 2**31) + WEBP[at + 4 :], "image/webp") is None


def test_a_webp_animation_frame_without_a_bitstream_must_be_decoded():
    anmf = WEBP.index(b"ANMF")
    (length,) = struct.unpack("<I", WEBP[anmf + 4 : anmf + 8])
    empty = b"ANMF" + struct.pack("<I", 16) + WEBP[anmf + 8 : anmf + 24]
    body = WEBP[:anmf] + empty + WEBP[anmf + 8 + length + (length & 1) :]
    body = body[:4] + struct.pack("<I", len(body) - 8) + body[8:]
    assert _still_of(body, "image/webp") is None


def test_a_webp_of_many_empty_frames_is_walked_in_linear_time():
    # 20,000 frames of a header each (16 bytes) after the real ones: 480 KB, every chunk walked
    frames = (b"ANMF" + struct.pack("<I", 16) + bytes(16)) * 20_000
    body = WEBP + frames
    body = body[:4] + struct.pack("<I", len(body) - 8) + body[8:]
    started = time.process_time()
    header = read_header(body, "image/webp")
    still = _still_of(body, "image/webp")
    assert header.frames == 20_003 and still is not None and still.first
    assert time.process_time() - started < 5  # linear: about 0.2 s on an idle machine


def test_zero_length_chunks_end_the_walk():
    body = APNG[:-12] + _chunk(b"tEXt", b"") * 1000 + APNG[-12:]
    assert _still_of(body, "image/png").first


def test_a_cut_webp_frame_header_is_not_a_frame():
    # an ANMF too short for its header is skipped by the walk, as the header reader skips it
    short = b"ANMF" + struct.pack("<I", 4) + bytes(4)
    body = webp_animation((48, 32), []) + short
    body = body[:4] + struct.pack("<I", len(body) - 8) + body[8:]
    header = read_header(body, "image/webp")
    assert header is not None
    assert first_frame(body, "image/webp", header.size) is None
