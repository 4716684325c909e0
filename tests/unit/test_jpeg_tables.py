"""A JPEG whose scans lack the tables to decode them ("abbreviated" image data, Pillow's
``streamtype=2``, whose tables come in another stream) is ``image_unreadable``, not returned for a
model API to refuse; a baseline or extended one without Huffman tables (Motion-JPEG frames leave
out the standard's) is returned, as libjpeg-turbo puts the standard's tables in their place. Pillow,
which decodes through libjpeg(-turbo), is the oracle of every case: the files are written by it and
cut here segment by segment."""

import base64
import io
import struct

import pytest
from test_imagesize_formats import assert_unreadable

from websearch_sync.net.response import HttpResponse
from websearch_sync.reader.image import image_text
from websearch_sync.reader.imagesize import read_header

DHT, DQT = 0xC4, 0xDB


def written(**options):
    """A 40x30 JPEG Pillow wrote with ``options`` (``progressive``, ``streamtype``)."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 40)).save(out, "JPEG", **options)
    return out.getvalue()


def without(data, marker, which=lambda index: True):
    """``data`` without the segments of ``marker`` (those whose index among them ``which`` picks),
    walked by their lengths and, after a scan, past its entropy-coded data."""
    kept, at, index = bytearray(data[:2]), 2, 0
    while at < len(data):
        if data[at] != 0xFF or data[at + 1] in (0x00, *range(0xD0, 0xD8)):  # entropy-coded data
            kept.append(data[at])
            at += 1
            continue
        if data[at + 1] == 0xD9:
            return bytes(kept + data[at:])
        end = at + 2 + struct.unpack(">H", data[at + 2 : at + 4])[0]
        if data[at + 1] != marker or not which(index):
            kept += data[at:end]
        index += data[at + 1] == marker
        at = end
    return bytes(kept)


def decodes(data):
    """Whether Pillow decodes ``data`` (the oracle)."""
    from PIL import Image

    try:
        Image.open(io.BytesIO(data)).load()
    except OSError:
        return False
    return True


def extended(data):
    """A baseline JPEG as an extended sequential one (C1): the same data, which libjpeg decodes alike."""
    return data.replace(b"\xff\xc0", b"\xff\xc1", 1)


UNDECODABLE = {
    "image data only (streamtype=2)": lambda: written(streamtype=2),
    "baseline without DQT": lambda: without(written(), DQT),
    "baseline without its second DQT": lambda: without(written(), DQT, lambda index: index == 1),
    "progressive without DHT": lambda: without(written(progressive=True), DHT),
    "progressive without its first DHT": lambda: without(written(progressive=True), DHT, lambda index: index == 0),
}


@pytest.mark.parametrize("made", UNDECODABLE.values(), ids=UNDECODABLE.keys())
def test_a_jpeg_without_the_tables_its_scans_need_is_unreadable_not_returned(made):
    data = made()
    assert not decodes(data)
    assert_unreadable(data, "image/jpeg")


def test_a_scan_naming_a_huffman_table_nothing_defined_is_unreadable():
    """The standard's tables stand in for tables 0 and 1 only: a scan naming table 2 finds none."""
    data = bytearray(without(written(), DHT))
    scan = data.index(b"\xff\xda")
    data[scan + 6] = 0x22  # the first component's DC and AC tables: 2
    assert not decodes(bytes(data))
    assert_unreadable(bytes(data), "image/jpeg")


DECODABLE = {
    "baseline": written,
    "baseline without DHT (Motion-JPEG)": lambda: without(written(), DHT),
    "extended without DHT": lambda: extended(without(written(), DHT)),
    "progressive": lambda: written(progressive=True),
    "progressive without a table redefined later": lambda: without(
        written(progressive=True), DHT, lambda index: index == 9
    ),
}


@pytest.mark.parametrize("made", DECODABLE.values(), ids=DECODABLE.keys())
def test_a_jpeg_whose_scans_find_their_tables_is_returned(made):
    data = made()
    assert decodes(data)
    headers = {"Content-Type": "image/jpeg", "Content-Length": str(len(data))}
    page = image_text(HttpResponse(200, headers, data, "https://example.com/a"), provider="fetch", images=True)
    assert page.image is not None and base64.b64decode(page.image.data) == data
    assert read_header(data, "image/jpeg").size == (40, 30)


def segment_at(data, marker, index=0):
    """Where the ``index``-th segment of ``marker`` starts in ``data`` (its ``FF`` byte), by the lengths."""
    at, seen = 2, 0
    while True:
        if data[at + 1] == marker:
            if seen == index:
                return at
            seen += 1
        at += 2 + struct.unpack(">H", data[at + 2 : at + 4])[0]


def changed(marker, offset, value, index=0):
    """A baseline JPEG with the byte ``offset`` into its ``index``-th ``marker`` segment's content set to ``value``."""
    data = bytearray(written())
    data[segment_at(data, marker, index) + 4 + offset] = value
    return bytes(data)


def with_table_4(marker):
    """A baseline JPEG with a copy of its first ``marker`` segment (tables all there) defining table 4."""
    data = written()
    at = segment_at(data, marker)
    end = at + 2 + struct.unpack(">H", data[at + 2 : at + 4])[0]
    copy = bytearray(data[at:end])
    copy[4] |= 0x04
    return data[:at] + bytes(copy) + data[at:]


def lengthened(marker):
    """A baseline JPEG whose first ``marker`` segment holds a byte more than its tables use."""
    data = written()
    at = segment_at(data, marker)
    length = struct.unpack(">H", data[at + 2 : at + 4])[0]
    end = at + 2 + length
    return data[: at + 2] + struct.pack(">H", length + 1) + data[at + 4 : end] + b"\x00" + data[end:]


def huffman_counts_overflowing():
    """A baseline JPEG whose first DHT (DC 0: one code of 2 bits, five of 3...) has two codes of
    1 bit, which fill the codes of that length (libjpeg keeps the all-1 code free), taken from
    the count of 3 bits: as many values as before."""
    data = bytearray(written())
    counts = segment_at(data, DHT) + 5
    assert data[counts : counts + 3] == b"\x00\x01\x05"
    data[counts], data[counts + 2] = 2, 4
    return bytes(data)


#: Tables libjpeg refuses where it reads them ("Bogus DQT index", "Bogus DHT index", "Bogus Huffman
#: table definition", "Bogus marker length") or where a scan uses them (a DC value over 15).
BOGUS_TABLES = {
    "DQT table 4": lambda: with_table_4(DQT),
    "DQT of 16-bit precision over 64 bytes": lambda: changed(DQT, 0, 0x10),
    "DQT longer than its table": lambda: lengthened(DQT),
    "DHT table 4": lambda: with_table_4(DHT),
    "DHT class 2": lambda: changed(DHT, 0, 0x20),
    "DHT counts past the segment": lambda: changed(DHT, 1, 0xFF),
    "DHT longer than its table": lambda: lengthened(DHT),
    "DHT of DC with a value over 15": lambda: changed(DHT, 17, 0x20),
    "DHT codes overflowing their lengths": huffman_counts_overflowing,
}


@pytest.mark.parametrize("made", BOGUS_TABLES.values(), ids=BOGUS_TABLES.keys())
def test_a_jpeg_defining_a_table_libjpeg_refuses_is_unreadable(made):
    data = made()
    assert not decodes(data)
    assert_unreadable(data, "image/jpeg")
