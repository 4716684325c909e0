"""What the header bytes of a PNG, JPEG, GIF or WebP image declare, read without an image
library and without decoding a pixel: its size, the largest size any part of it declares,
whether its coded data can hold the pixels declared, and whether it reaches its end marker.

Linear in the bytes: PNG chunks, JPEG segments, GIF blocks and WebP chunks are skipped by
their lengths, a JPEG's entropy-coded data searched for the next marker; each walk reaches a
:func:`~websearch_sync.checkpoints.checkpoint` every few hundred steps.

The data's bounds are the format's best compression, so a file under one cannot decode to the
size it declares (a 200-byte file saying 7999x7999, which a model API refuses with the whole
request that carries it):

- PNG: deflate yields at most about 1032 bytes of rows a byte (``_DEFLATE_RATIO``);
- JPEG, Huffman-coded (all but the rare arithmetic-coded kind, which browsers do not decode
  either): a scan codes every block of a component with one bit at least, and a component
  has a block for each MCU (8x8 pixels times its frame's largest sampling factors);
- GIF: an LZW code, 12 bits at most, stands for at most 4096 pixels of a frame (its table's
  size), so a frame's data holds at most 8192 / 3 pixels a byte;
- WebP, lossy (VP8): a key frame codes the two prediction modes of each 16x16 macroblock
  with probabilities the format fixes, 1.6 bits at the least (one is counted). Lossless WebP
  (VP8L) can code one colour in no bits at all: it has no such bound.
"""

import re
import zlib
from collections.abc import Iterator
from itertools import count
from typing import NamedTuple, Optional

from ..checkpoints import checked

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


class Header(NamedTuple):
    """What an image's header bytes declare."""

    #: Width and height: PNG's IHDR, the first frame header of a JPEG, a GIF's logical screen,
    #: a WebP's canvas (or its one frame).
    size: tuple[int, int]
    #: The widest and tallest any part declares (at least ``size``): a GIF frame reaching past
    #: its screen, a WebP's frames and their bitstreams; what
    #: a decoder may allocate.
    extent: tuple[int, int]
    #: Whether the coded data is large enough for the pixels declared (see the module's bounds).
    holds: bool
    #: Whether the file reaches its end marker: PNG's ``IEND`` chunk, JPEG's end-of-image
    #: marker after a scan, GIF's trailer (a WebP declares its length up front: always true).
    ended: bool
    #: The frames of an animation (a GIF's, an APNG's frame controls, an animated WebP's
    #: ``ANMF`` chunks, as the file holds them: not what it claims to hold); 1 for a still image.
    frames: int = 1
    #: Whether the file is an animation: a GIF of several frames, a PNG with an animation
    #: control chunk (APNG), a WebP with animation frames.
    animated: bool = False
    #: How the image is turned for display, by its EXIF orientation (a JPEG's first ``Exif``
    #: APP1 segment, a PNG's ``eXIf`` chunk before its image data): 1 as stored, 2-8 mirrored or
    #: turned, 5-8 with width and height swapped (:func:`exif_orientation`).
    orientation: int = 1


def _big(data: bytes, start: int, size: int) -> int:
    return int.from_bytes(data[start : start + size], "big")


def _little(data: bytes, start: int, size: int) -> int:
    return int.from_bytes(data[start : start + size], "little")


def _blocks(side: int, block: int) -> int:
    """Blocks of ``block`` pixels along a side of ``side`` pixels (the last one partly filled)."""
    return -(-side // block)


# -- EXIF -----------------------------------------------------------------------------------------

#: The EXIF (TIFF) tag saying how the image is turned for display.
_ORIENTATION_TAG = 0x0112
#: The TIFF type of a 16-bit unsigned number (SHORT), the orientation's.
_SHORT = 3
#: The entries of the first directory looked at (a camera's holds a few dozen).
_MAX_ENTRIES = 1000


def exif_orientation(tiff: bytes) -> int:
    """The orientation (1-8) that the EXIF data ``tiff`` (a TIFF header, then directories) gives
    in its first directory, read the way browsers read it (Firefox's and Chromium's EXIF parsers):
    its first orientation entry, one SHORT; 1 (as stored) without one, for a value outside 1-8,
    another type or count, or a directory running past the data. Pillow is laxer (it takes a LONG
    or a signed SHORT, and a count other than 1): the image is turned by what this reads
    (:mod:`.image`), so what a browser shows is what a model is sent."""
    if tiff[:4] not in (b"II*\x00", b"MM\x00*") or len(tiff) < 8:
        return 1
    number = _little if tiff[:2] == b"II" else _big
    directory = number(tiff, 4, 4)
    entries = number(tiff, directory, 2)
    for entry in range(directory + 2, directory + 2 + 12 * min(entries, _MAX_ENTRIES), 12):
        if entry + 12 > len(tiff):
            return 1
        if number(tiff, entry, 2) == _ORIENTATION_TAG:
            kind, count, value = number(tiff, entry + 2, 2), number(tiff, entry + 4, 4), number(tiff, entry + 8, 2)
            return value if kind == _SHORT and count == 1 and 1 <= value <= 8 else 1
    return 1


#: What opens a JPEG's APP1 segment holding EXIF data.
_EXIF_APP1 = b"Exif\x00\x00"


# -- PNG ------------------------------------------------------------------------------------------

#: At most this many bytes of rows come out of one byte of deflate data (its limit is about 1032).
_DEFLATE_RATIO = 1100
#: Channels of a PNG's colour types (grey, RGB, palette, grey and alpha, RGBA).
_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
#: The bit depths each colour type allows (PNG specification, 11.2.2 IHDR); any other pair is
#: an error to a decoder (libpng's ``png_check_IHDR``, Pillow), and to the model API sent it.
_PNG_DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
#: The largest side a PNG may declare (2^31 - 1: "PNG four-byte unsigned integers are limited").
_PNG_MAX_SIDE = 2**31 - 1


#: Bytes a compressed PNG text or colour-profile chunk may decompress to, and all text chunks
#: together: Pillow's ``MAX_TEXT_CHUNK`` and ``MAX_TEXT_MEMORY``, past which it refuses the image
#: ("Decompressed data too large"), where libpng and browsers drop the chunk (a 2 KB zTXt of zeros is 2 MB).
_PNG_TEXT_CHUNK = 1024 * 1024
_PNG_TEXT_MEMORY = 64 * _PNG_TEXT_CHUNK
#: What :func:`_png_text_bytes` counts for a chunk Pillow refuses: past the text limit at once.
_PNG_REFUSED = _PNG_TEXT_MEMORY + 1
#: Bytes the compressed text and colour-profile chunks may decompress to together, counted or not
#: (an iCCP's profile, a zTXt without a keyword): 4,000 chunks of 1 KB each inflating to 1 MiB
#: were 8.5 s of CPU. Past it the PNG is unreadable, though Pillow would take some such files.
_PNG_INFLATED_MEMORY = 64 * _PNG_TEXT_CHUNK
#: What :func:`png_chunks` gives as the type of a chunk that runs past the data's end (its head included).
CUT = b""


def png_chunks(data: bytes) -> Iterator[tuple[bytes, int, int]]:
    """``(type, start, end)`` of the chunks after the signature (length, type, data, CRC:
    ``data[start:end]`` is the whole chunk), in order, up to ``IEND`` or the data's end;
    :data:`CUT` last when a chunk runs past the data. Each step moves on by 12 bytes at
    least (a chunk of no data), so the walk ends within ``len(data) / 12`` steps."""
    position = 8
    for _ in checked(count()):
        if position >= len(data):
            return
        end = position + 12 + _big(data, position, 4)
        if end > len(data):
            yield CUT, position, position
            return
        kind = data[position + 4 : position + 8]
        yield kind, position, end
        if kind == b"IEND":
            return
        position = end


def _png(data: bytes) -> Optional[Header]:
    """Chunks (:func:`png_chunks`) up to ``IEND``; an APNG (one with an animation control,
    ``acTL``, before its image data: the APNG specification's condition, after which a decoder
    takes the file for a still PNG) has as many frames as frame controls (``fcTL``). None when a
    critical chunk's CRC is not that of its type and data (:func:`_png_crc_holds`), or when an
    IHDR follows the first: its size is the one Pillow decodes, which the caps never saw."""
    if not png_ihdr_valid(data):
        return None
    size = png_size(data)
    compressed, ended, animated, imaged, frames, text, inflated = 0, False, False, False, 0, 0, 0
    view = memoryview(data)
    for kind, start, end in png_chunks(data):
        counted, decompressed = _png_text_bytes(view, kind, start, end)
        text += counted  # a text chunk Pillow refuses counts past the limit
        inflated += decompressed
        if kind == CUT or not _png_crc_holds(view, kind, start, end, imaged) or (kind == b"IHDR" and start != 8):
            return None  # cut, a CRC wrong, or a second IHDR (libpng refuses it; Pillow reads the size of the last)
        if not _png_texts_within(text, inflated):
            return None
        animated = animated or (kind == b"acTL" and not imaged)
        imaged = imaged or kind == b"IDAT"
        compressed += end - start - 12 if kind == b"IDAT" else 0
        frames += kind == b"fcTL"
        ended = kind == b"IEND"
    holds = compressed * _DEFLATE_RATIO >= png_rows_bytes(data)
    return Header(size, size, holds, ended, max(frames, 1) if animated else 1, animated, _png_orientation(data))


def _png_orientation(data: bytes) -> int:
    """The EXIF orientation of the PNG ``data``'s first ``eXIf`` chunk before its image data, where
    Pillow reads it (:func:`exif_orientation`); 1 without one."""
    for kind, start, end in png_chunks(data):
        if kind in (b"eXIf", b"IDAT"):
            return exif_orientation(data[start + 8 : end - 4]) if kind == b"eXIf" else 1
    return 1


def png_rows_bytes(data: bytes) -> int:
    """The bytes of pixel rows the IHDR of the PNG ``data`` declares (a valid one: its filter bytes
    and an interlaced image's passes left out)."""
    width, height, bits = _big(data, 16, 4), _big(data, 20, 4), data[24] * _PNG_CHANNELS[data[25]]
    return height * ((width * bits + 7) // 8)


#: The Adam7 passes of an interlaced PNG: ``(first column, first row, column step, row step)``.
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def png_filtered_bytes(data: bytes) -> int:
    """The bytes the image data of the PNG ``data`` inflates to, as its valid IHDR declares them:
    each row's filter byte, then its pixels' bytes; an interlaced image's seven passes, each a
    smaller image (a pass of no column or row has no rows)."""
    width, height, bits = _big(data, 16, 4), _big(data, 20, 4), data[24] * _PNG_CHANNELS[data[25]]
    passes = _ADAM7 if data[28] == 1 else ((0, 0, 1, 1),)
    total = 0
    for column, row, column_step, row_step in passes:
        columns, rows = _blocks(max(width - column, 0), column_step), _blocks(max(height - row, 0), row_step)
        total += rows * (1 + (columns * bits + 7) // 8) if columns else 0
    return total


def _png_texts_within(text: int, inflated: int) -> bool:
    """Whether the text chunks so far hold ``text`` bytes Pillow takes, and decompressing
    them made ``inflated`` bytes within the total a read spends on it."""
    return text <= _PNG_TEXT_MEMORY and inflated <= _PNG_INFLATED_MEMORY


#: The chunks whose text (or colour profile) Pillow reads, decompressing those that are.
_PNG_TEXTS = frozenset({b"tEXt", b"zTXt", b"iTXt", b"iCCP"})


def _png_text_bytes(view: memoryview, kind: bytes, start: int, end: int) -> tuple[int, int]:
    """The bytes of text Pillow counts for the chunk ``kind`` at ``view[start:end]`` (0 but for a
    text or profile chunk: a keyword, a NUL, then the text, compressed for zTXt, for iTXt when
    flagged, and for iCCP's profile, which it does not count), or :data:`_PNG_REFUSED` when it
    refuses the chunk: one that decompresses past :data:`_PNG_TEXT_CHUNK`, or a zTXt or iCCP of a
    compression method other than 0; and the bytes decompressing it took (:func:`_inflated_size`)."""
    if kind not in _PNG_TEXTS:
        return 0, 0
    keyword, _, value = bytes(view[start + 8 : end - 4]).partition(b"\x00")
    if kind == b"tEXt":
        return len(value) if keyword else 0, 0
    if kind == b"iTXt":
        return _itxt_bytes(value)
    if value[:1] != b"\x00" and (kind == b"iCCP" or value):  # an unknown method (an iCCP must name one)
        return _PNG_REFUSED, 0
    size, work = _inflated_size(value[1:])
    return size if size == _PNG_REFUSED or (kind == b"zTXt" and keyword) else 0, work


def _itxt_bytes(value: bytes) -> tuple[int, int]:
    """:func:`_png_text_bytes` of an iTXt chunk's ``value`` (after its keyword): its compression
    flag and method, language and translated keyword, then its text; none read from one Pillow
    skips (its parts missing, or compressed by a method other than 0)."""
    flag, method, parts = value[:1], value[1:2], value[2:].split(b"\x00", 2)
    if len(parts) < 3 or (flag != b"\x00" and method != b"\x00"):
        return 0, 0
    return (len(parts[2]), 0) if flag == b"\x00" else _inflated_size(parts[2])


def _inflated_size(data: bytes) -> tuple[int, int]:
    """The bytes zlib decompresses ``data`` to, :data:`_PNG_REFUSED` past :data:`_PNG_TEXT_CHUNK`
    (decompressed that far only), 0 when it cannot (Pillow drops such a chunk's text); and the
    bytes decompressing it produced (for data zlib fails on, at most what deflate could make of it
    up to the chunk limit: zlib drops its output with the error)."""
    inflater = zlib.decompressobj()
    try:
        size = len(inflater.decompress(data, _PNG_TEXT_CHUNK))
    except zlib.error:
        return 0, min(_DEFLATE_RATIO * len(data), _PNG_TEXT_CHUNK)
    return (_PNG_REFUSED if inflater.unconsumed_tail else size), size


def _png_crc_holds(view: memoryview, kind: bytes, start: int, end: int, imaged: bool) -> bool:
    """Whether the chunk at ``view[start:end]`` is an ancillary one (its type's first letter lower
    case) after the image data (``imaged``), or its CRC is that of its type and data. A decoder
    refuses a critical chunk (IHDR, PLTE, IDAT, IEND) whose CRC is wrong (libpng's default,
    Pillow): such a file was returned as it is and failed the request of the model API sent it.
    Pillow refuses an ancillary one's too before the image data (it reads those chunks itself:
    "cannot identify image file"), where libpng and browsers discard the chunk; after the image
    data both let it pass. zlib's CRC, in C: about 1 ms a megabyte."""
    if kind[0] & 0x20 and imaged:
        return True
    return zlib.crc32(view[start + 4 : end - 4]) == int.from_bytes(view[end - 4 : end], "big")


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height the IHDR of the PNG ``data`` declares (a valid one: :func:`png_ihdr_valid`)."""
    return _big(data, 16, 4), _big(data, 20, 4)


def png_ihdr_valid(data: bytes) -> bool:
    """Whether the PNG ``data`` opens with an IHDR chunk (:func:`_png_header_valid`): what
    reading its size, and the bytes of its rows (:func:`png_rows_bytes`), takes."""
    return len(data) >= 29 and data[12:16] == b"IHDR" and _png_header_valid(data)


def _png_header_valid(data: bytes) -> bool:
    """Whether the IHDR chunk is one the specification allows: 13 bytes (a shorter one left its
    size to be read from the next chunk's bytes), sides of at most 2^31 - 1, a bit depth its colour
    type allows, compression and filter method 0, no interlace or Adam7. A file breaking these
    decodes nowhere: returned as it is, it failed the whole request of the model API sent it."""
    depth, colour, compression, filter_method, interlace = data[24:29]
    return (
        _big(data, 8, 4) == 13
        and max(_big(data, 16, 4), _big(data, 20, 4)) <= _PNG_MAX_SIDE
        and depth in _PNG_DEPTHS.get(colour, ())
        and compression == filter_method == 0
        and interlace in (0, 1)
    )


# -- JPEG -----------------------------------------------------------------------------------------

#: The start-of-frame markers (those that carry the frame size) libjpeg decodes (its
#: ``read_markers``): baseline, extended and progressive Huffman (C0-C2), sequential and
#: progressive arithmetic (C9, CA). The lossless and hierarchical ones (C3, C5-C7, CB, CD-CF)
#: it refuses ("unsupported JPEG process"; libjpeg-turbo 3 reads C3, lossless, which browsers
#: do not show), and Pillow with it.
_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC9, 0xCA})
#: The arithmetic-coded ones among them (no bound on their data).
_ARITHMETIC = frozenset({0xC9, 0xCA})
#: The markers with a length libjpeg reads: frame headers, DHT, DAC, SOS, DQT, DNL, DRI,
#: APP0-15, COM. It refuses any other ("unsupported marker type"), and so does Pillow: the
#: reserved ones (02-BF), the frame headers it does not decode, JPG (C8), DHP (DE), EXP (DF),
#: JPGn (F0-FD), and a second start of image (D8).
_SEGMENTS = _SOF | {0xC4, 0xCC, 0xDA, 0xDB, 0xDC, 0xDD, 0xFE, *range(0xE0, 0xF0)}
#: TEM: a marker without a length libjpeg skips, but Pillow's own reading of the header (up
#: to the first scan) refuses.
_TEM = 0x01
#: Markers without a length (restart markers, TEM).
_STANDALONE = frozenset({_TEM, *range(0xD0, 0xD8)})
#: A marker: ``FF`` then a byte that is not a stuffed zero or another ``FF`` (fill). Two fixed bytes.
_MARKER = re.compile(rb"\xff[^\x00\xff]")
#: The marker that ends a scan's entropy-coded data: ``FF`` then a byte that is not a stuffed
#: zero, a restart marker or another ``FF`` (fill). Two fixed bytes: no backtracking.
_SCAN_END = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")


class _Frame(NamedTuple):
    size: tuple[int, int]
    mcus: int  # minimum coded units: a scan codes one bit each at least


#: The sample precision of the frames fetch returns: 8 bits, the one browsers and Pillow decode
#: (the specification's 12-bit extended and progressive frames, and its lossless ones, are
#: refused by both: returned, such a file failed the whole request of the model API sent it).
_JPEG_PRECISION = 8


def _frame(segment: bytes) -> Optional[_Frame]:
    """A frame header's size and MCUs: precision, height, width, then the components, each
    an id, its sampling factors (horizontal, vertical: 1 to 4) and a table. None for a header
    whose length is not that of its components (ITU T.81 B.2.2: Lf = 8 + 3 x Nf, the 2 bytes
    of Lf included) or whose precision is not :data:`_JPEG_PRECISION`."""
    components = segment[5] if len(segment) > 5 else 0
    factors = segment[7 : 6 + 3 * components : 3]
    if not components or len(segment) != 6 + 3 * components or segment[0] != _JPEG_PRECISION:
        return None
    across, down = max(f >> 4 for f in factors), max(f & 15 for f in factors)
    if not (1 <= across <= 4 and 1 <= down <= 4):
        return None
    height, width = _big(segment, 1, 2), _big(segment, 3, 2)
    return _Frame((width, height), _blocks(width, 8 * across) * _blocks(height, 8 * down))


#: What :func:`_jpeg_segments` gives for a scan's entropy-coded data, and for a marker libjpeg refuses or a segment cut short.
_CODED, _BROKEN = -1, -2


def _jpeg_segments(data: bytes) -> Iterator[tuple[int, int, int]]:
    """``(marker, start, end)`` of the markers after the start of image, in order, up to the
    end-of-image marker or the data's end: the segment's data (after its length; empty for a
    marker without one); after a start of scan, its entropy-coded data up to the next marker
    (``_CODED``); ``_BROKEN`` last for a marker libjpeg refuses (not in :data:`_SEGMENTS`), a
    segment running past the data's end, or no marker right after the start of image. Bytes
    that are no marker where one must be after that are skipped to the next, as libjpeg's
    ``next_marker`` skips them."""
    position = 2  # after the start-of-image marker
    if data[position : position + 1] != b"\xff":  # Pillow takes a JPEG only when a marker follows it
        yield _BROKEN, position, position
        return
    while position + 2 <= len(data):
        if data[position] != 0xFF or data[position + 1] in (0x00, 0xFF):
            # fill bytes before a marker; or bytes where one belongs (padding some tools write, a
            # stuffed zero), which libjpeg skips to the next ("extraneous bytes before marker", a
            # warning), and so do Pillow's header reader and browsers: one search in C
            found = _MARKER.search(data, position)
            position = found.start() if found else len(data)
            continue
        marker = data[position + 1]
        if marker == 0xD9:
            yield marker, position + 2, position + 2
            return
        if marker in _STANDALONE:
            yield marker, position + 2, position + 2
            position += 2
            continue
        end = position + 2 + _big(data, position + 2, 2)
        if marker not in _SEGMENTS or end < position + 4 or end > len(data):  # or its length under 2 bytes, or cut
            yield _BROKEN, position, position
            return
        yield marker, position + 4, end
        position = end
        if marker == 0xDA:  # start of scan
            scan_end = _SCAN_END.search(data, position)
            yield _CODED, position, scan_end.start() if scan_end else len(data)
            position = scan_end.start() if scan_end else len(data)


#: The Huffman tables libjpeg-turbo puts in place of missing ones in a sequential Huffman frame
#: (C0, C1): the standard's (ITU T.81 K.3), tables 0 and 1, DC and AC, which Motion-JPEG frames
#: leave out. A progressive frame (C2) gets none: it must define every table a scan uses.
_DEFAULT_HUFFMAN = frozenset((kind, table) for kind in (0, 1) for table in (0, 1))
_SEQUENTIAL_HUFFMAN = frozenset({0xC0, 0xC1})
#: The markers :meth:`_Tables.take` reads: DQT, DHT, SOS, TEM.
_TABLES = frozenset({0xDB, 0xC4, 0xDA, _TEM})


#: The quantisation and Huffman tables of each kind a JPEG may define: numbers 0-3 (libjpeg's
#: NUM_QUANT_TBLS and NUM_HUFF_TBLS, the standard's four destinations).
_TABLE_NUMBERS = 4


class _Tables:
    """The tables a JPEG defined so far, and whether each scan finds those it needs, as libjpeg
    (and so Pillow) decodes: a component's quantisation table (the frame header names it) defined
    before the first scan that codes the component, and each Huffman table a scan uses defined
    before it. Without them ("abbreviated" image data, Pillow's ``streamtype=2``: the tables come
    in another stream) libjpeg stops with "Quantization table 0x00 was not defined" or "Huffman
    table 0x00 was not defined", and a model API refuses the request carrying the file."""

    def __init__(self) -> None:
        self.frame_marker = 0  # the frame header's marker, 0 before it
        self.components: dict[int, int] = {}  # the frame's components and their quantisation tables
        self.quantisation: set[int] = set()
        self.huffman: set[tuple[int, int]] = set()  # (0: DC or 1: AC, table)
        self.unusable: set[tuple[int, int]] = set()  # of those, the ones libjpeg refuses to decode with
        self.latched: set[int] = set()  # the components a scan has coded
        self.scanned = False

    def framed(self, marker: int, segment: bytes) -> None:
        """The frame header (a :func:`_frame` reads): its kind and its components' quantisation tables."""
        self.frame_marker = marker
        self.components = {segment[at]: segment[at + 2] for at in range(6, len(segment) - 2, 3)}

    def take(self, marker: int, segment: bytes) -> bool:
        """Take a DQT or DHT's tables, or check a scan's (SOS): False for tables libjpeg refuses, a scan before the frame
        header or without the tables it needs, and for TEM before the first scan (libjpeg skips
        it, but Pillow's own reading of the header, up to the first scan, refuses it)."""
        if marker == _TEM:
            return self.scanned
        if marker == 0xDB:
            return self.define_quantisation(segment)
        if marker == 0xC4:
            return self.define_huffman(segment)
        if marker == 0xDA:
            self.scanned = True
            return self.frame_marker != 0 and self.scan_decodes(segment)
        return True

    def define_quantisation(self, segment: bytes) -> bool:
        """DQT: tables, each a byte of precision (0: 64 bytes follow, else 128) and table number.
        False, as libjpeg refuses them, for a table number over 3 ("Bogus DQT index") or tables
        that do not fill the segment exactly ("Bogus marker length": a 16-bit precision on a
        table of 64 bytes)."""
        at = 0
        while at < len(segment):
            if segment[at] & 15 >= _TABLE_NUMBERS:
                return False
            self.quantisation.add(segment[at] & 15)
            at += 1 + (128 if segment[at] >> 4 else 64)
        return at == len(segment)

    def define_huffman(self, segment: bytes) -> bool:
        """DHT: tables, each a byte of class (DC 0, AC 1) and number, 16 counts, then their values.
        False, as libjpeg refuses them, for a class byte other than 0x00-0x03 or 0x10-0x13 ("Bogus
        DHT index"), counts over 256 or running past the segment ("Bogus Huffman table
        definition"), or tables that do not fill the segment exactly ("Bogus marker length")."""
        at = 0
        while len(segment) - at > 16:
            kind = segment[at]
            values = sum(segment[at + 1 : at + 17])
            if kind & ~0x10 >= _TABLE_NUMBERS or values > 256 or values > len(segment) - at - 17:
                return False
            table = (kind >> 4, kind & 15)
            self.huffman.add(table)
            self.unusable.discard(table)
            if not _huffman_usable(table[0] == 0, segment[at + 1 : at + 17], segment[at + 17 : at + 17 + values]):
                self.unusable.add(table)
            at += 17 + values
        return at == len(segment)

    def scan_decodes(self, segment: bytes) -> bool:
        """Whether the tables a scan (SOS: its components, each with its DC and AC tables; the
        spectral start and successive approximation) needs are defined."""
        frame_marker = self.frame_marker
        count = segment[0] if segment else 0
        if len(segment) < 4 + 2 * count:
            return False
        components = [(segment[1 + 2 * i], segment[2 + 2 * i]) for i in range(count)]
        start, approximation = segment[1 + 2 * count], segment[3 + 2 * count] >> 4
        for component, _ in components:
            if component not in self.latched and self.components.get(component) not in self.quantisation:
                return False
            self.latched.add(component)
        if frame_marker in _ARITHMETIC:
            return True
        needed: set[tuple[int, int]] = set()
        for _, tables in components:
            if frame_marker in _SEQUENTIAL_HUFFMAN or (start == 0 and approximation == 0):
                needed.add((0, tables >> 4))
            if frame_marker in _SEQUENTIAL_HUFFMAN or start > 0:
                needed.add((1, tables & 15))
        return self.huffman_decodes(needed)

    def huffman_decodes(self, needed: set[tuple[int, int]]) -> bool:
        """Whether the Huffman tables a scan ``needed`` are defined (the standard's stand in for
        tables 0 and 1 of a sequential frame) and libjpeg decodes with those defined."""
        defaults = _DEFAULT_HUFFMAN if self.frame_marker in _SEQUENTIAL_HUFFMAN else frozenset()
        return needed <= self.huffman | defaults and not needed & self.unusable


def _huffman_usable(dc: bool, counts: bytes, values: bytes) -> bool:
    """Whether libjpeg decodes with a Huffman table (``jpeg_make_d_derived_tbl``, when a scan uses
    it): its codes fit their lengths, the code of all 1 bits left free (``counts``: how many codes
    of each length, 1 to 16), and a DC table's values are bit counts of 15 at most."""
    code = 0
    for length, codes in enumerate(counts, 1):
        code += codes
        if code >= 1 << length:
            return False
        code <<= 1
    return not dc or max(values, default=0) <= 15


def _jpeg(data: bytes) -> Optional[Header]:
    """The frame header, scans and the end-of-image marker (:func:`_jpeg_segments`); None for a
    second frame header (libjpeg: "two SOF markers", Pillow too; the hierarchical kind that
    has several, libjpeg does not decode at all), or a scan before the frame header or without
    the tables it needs (:class:`_Tables`)."""
    frame: Optional[_Frame] = None
    tables = _Tables()
    coded = 0  # bytes of entropy-coded data
    ended = False
    for marker, start, end in checked(_jpeg_segments(data)):
        if marker == _BROKEN or (marker == 0xD9 and not coded):  # an end of image before any scan: no image
            return None
        if marker in _TABLES and not tables.take(marker, data[start:end]):
            return None
        ended = marker == 0xD9
        coded += end - start if marker == _CODED else 0
        if marker in _SOF:
            if frame is not None:
                return None
            frame = _frame(data[start:end])
            if frame is None:
                return None
            tables.framed(marker, data[start:end])
    if frame is None:
        return None
    arithmetic = tables.frame_marker in _ARITHMETIC
    holds = arithmetic or 8 * coded >= frame.mcus
    return Header(frame.size, frame.size, holds, ended, orientation=_jpeg_orientation(data))


def _jpeg_orientation(data: bytes) -> int:
    """The EXIF orientation of the JPEG ``data``'s first ``Exif`` APP1 segment before its first
    scan, the one Pillow reads (:func:`exif_orientation`); 1 without one."""
    for marker, start, end in checked(_jpeg_segments(data)):
        if marker == 0xDA:
            return 1
        if marker == 0xE1 and data.startswith(_EXIF_APP1, start):
            return exif_orientation(data[start + len(_EXIF_APP1) : end])
    return 1


# -- GIF ------------------------------------------------------------------------------------------

#: A frame's LZW data holds at most this many pixels per 3 bytes (4096 pixels per 12-bit code).
_LZW_PIXELS_PER_3_BYTES = 8192


def _palette(flags: int) -> int:
    """Bytes of the colour table a screen or frame descriptor with these flags is followed by."""
    return 3 << ((flags & 7) + 1) if flags & 0x80 else 0


def _sub_blocks(data: bytes, position: int) -> Optional[tuple[int, int]]:
    """Where the data sub-blocks at ``position`` end (after their terminator, or at the end
    of the data when it ends between two) and the bytes they carry; ``None`` when one runs
    past the data."""
    carried = 0
    for _ in checked(count()):
        if position >= len(data):
            return (position, carried) if position == len(data) else None
        length = data[position]
        position += 1 + length
        if not length:
            break
        carried += length
    return position, carried


#: What :func:`_gif_blocks` yields for the block introducers: an extension, a frame, the trailer.
_EXTENSION, _FRAME, _TRAILER = 0x21, 0x2C, 0x3B
#: The extension label of a graphic control extension (a frame's transparency and delay).
_GRAPHIC_CONTROL = 0xF9


def _gif_blocks(data: bytes) -> Iterator[tuple[int, int, int, int]]:
    """``(introducer, start, end, bytes carried)`` of the blocks after the screen descriptor
    and its colour table, in order: extensions (``!``: a label, then sub-blocks), frames
    (``,``: a descriptor, a colour table, the LZW code size and the data) and the trailer
    (``;``, last); ``_BROKEN`` last when a block runs past the data. The walk ends without
    either at the data's end or at a stray byte."""
    position = 13 + _palette(data[10])
    while position < len(data) and data[position] in b"!,;":
        introducer = data[position]
        if introducer == _TRAILER:
            yield _TRAILER, position, position + 1, 0
            return
        if introducer == _EXTENSION:
            walked = _sub_blocks(data, position + 2)
        elif position + 10 > len(data):
            walked = None
        else:
            walked = _sub_blocks(data, position + 10 + _palette(data[position + 9]) + 1)
        if walked is None:
            yield _BROKEN, position, position, 0
            return
        yield introducer, position, walked[0], walked[1]
        position = walked[0]


def _gif(data: bytes) -> Optional[Header]:
    """The screen descriptor, then the blocks (:func:`_gif_blocks`): each frame's extent and
    data, up to the trailer. The size is the screen's, grown to the first frame where that
    reaches past it, as Pillow and browsers show it (a screen of 0x0 is the frame's size); a
    first frame of no width or height gives none (Pillow: "tile cannot extend outside image")."""
    if len(data) < 13:
        return None
    size = _little(data, 6, 2), _little(data, 8, 2)
    wide, tall = size
    frames, holds, ended = 0, True, False
    for introducer, start, _, carried in checked(_gif_blocks(data)):
        if introducer == _BROKEN:
            return None
        ended = introducer == _TRAILER
        if introducer == _FRAME:
            left, top, width, height = (_little(data, start + 1 + 2 * n, 2) for n in range(4))
            wide, tall = max(wide, left + width), max(tall, top + height)
            if not frames:  # the screen grown to the first frame (one of 0x0 is its size), as decoders show it
                size = (wide, tall) if width and height else (0, 0)  # a first frame of no pixels: Pillow refuses it
            frames += 1
            holds = holds and 3 * width * height <= _LZW_PIXELS_PER_3_BYTES * carried
    return Header(size, (wide, tall), holds, ended, frames, frames > 1) if frames else None


def gif_first_frame(data: bytes) -> bytes:
    """The GIF ``data`` (one :func:`read_header` reads) cut to its first frame: the header, the
    screen and its colour table, the graphic control extensions before the first frame (its
    transparency), the frame, the trailer. A still GIF that shows what the animation shows
    first, byte for byte, without decoding it (a model API takes a GIF only when not animated);
    the application extensions (the NETSCAPE loop count) are left out with the other frames."""
    kept = [data[: 13 + _palette(data[10])]]
    for introducer, start, end, _ in checked(_gif_blocks(data)):
        if introducer == _EXTENSION and data[start + 1] == _GRAPHIC_CONTROL:
            kept.append(data[start:end])
        elif introducer == _FRAME:
            kept.append(data[start:end])
            break
    return b"".join(kept) + bytes([_TRAILER])


# -- WebP -----------------------------------------------------------------------------------------


def webp_declared_size(data: bytes, kind: bytes, start: int, length: int) -> Optional[tuple[int, int]]:
    """The size a ``VP8X`` chunk (the canvas) or a lossy or lossless bitstream (``VP8 ``,
    ``VP8L``) declares; ``None`` for another chunk, or one too short to say."""
    if kind == b"VP8X" and length >= 10:
        return _little(data, start + 4, 3) + 1, _little(data, start + 7, 3) + 1
    if kind == b"VP8 " and length >= 10:
        return _little(data, start + 6, 2) & 0x3FFF, _little(data, start + 8, 2) & 0x3FFF
    if kind == b"VP8L" and length >= 5:
        bits = _little(data, start + 1, 4)
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _webp_bitstream_valid(data: bytes, kind: bytes, start: int, length: int) -> bool:
    """Whether a ``VP8 `` or ``VP8L`` chunk opens as libwebp requires (``VP8GetInfo``,
    ``VP8LGetInfo``), other chunks being no bitstream: lossy, a key frame (frame tag bit 0 clear)
    of profile 0-3, shown, whose first partition fits the chunk, then the start code ``9d 01
    2a``; lossless, the signature byte ``2f`` and version 0 (the 3 top bits of the size field).
    libwebp and Pillow refuse any other: returned, it failed the request of the model API."""
    if kind == b"VP8 " and length >= 10:
        tag = _little(data, start, 3)
        shown_key_frame = not tag & 1 and (tag >> 1) & 7 <= 3 and (tag >> 4) & 1
        return bool(shown_key_frame) and tag >> 5 < length and data[start + 3 : start + 6] == b"\x9d\x01\x2a"
    if kind == b"VP8L" and length >= 5:
        return data[start] == 0x2F and data[start + 4] >> 5 == 0
    return True


def webp_chunks(data: bytes, position: int, end: int) -> Iterator[tuple[bytes, int, int]]:
    """``(four-character code, start, stop)`` of the RIFF chunks between ``position`` and
    ``end`` (code, length, data, a pad byte to an even length: ``data[start:stop]`` is the
    chunk's data), in order; :data:`CUT` last when a chunk runs past ``end``. Each step moves
    on by 8 bytes at least, so the walk ends within ``(end - position) / 8`` steps."""
    for _ in checked(count()):
        if position >= end:
            return
        start, stop = position + 8, position + 8 + _little(data, position + 4, 4)
        if stop > end:
            yield CUT, position, position
            return
        yield data[position : position + 4], start, stop
        position = stop + ((stop - start) & 1)


#: An animation frame's header: offset, size, duration, flags (``ANMF``'s first 16 bytes).
ANMF_HEADER = 16


def anmf_frame(data: bytes, start: int) -> tuple[int, int, int, int]:
    """``(left, top, width, height)`` of the animation frame whose ``ANMF`` data starts at ``start``."""
    return (
        2 * _little(data, start, 3),
        2 * _little(data, start + 3, 3),
        _little(data, start + 6, 3) + 1,
        _little(data, start + 9, 3) + 1,
    )


def _webp_walk(
    data: bytes, position: int, end: int, sizes: list[tuple[int, int]], nested: bool
) -> Optional[tuple[bool, int]]:
    """Walk the RIFF chunks between ``position`` and ``end`` (:func:`webp_chunks`), adding each
    size they declare to ``sizes``: the canvas and the bitstreams' frames
    (:func:`webp_declared_size`) and an animation frame's extent (``ANMF``, whose data holds
    chunks in turn, walked unless ``nested``). Whether every lossy bitstream holds its
    macroblocks, and the animation frames found; ``None`` when a chunk runs past ``end``, or a
    bitstream opens as libwebp does not take (:func:`_webp_bitstream_valid`)."""
    holds, frames = True, 0
    for kind, start, stop in webp_chunks(data, position, end):
        length = stop - start
        if kind == CUT or not _webp_bitstream_valid(data, kind, start, length):
            return None
        size = webp_declared_size(data, kind, start, length)
        if size is not None:
            sizes.append(size)
            holds = holds and (kind != b"VP8 " or 8 * length >= _blocks(size[0], 16) * _blocks(size[1], 16))
        elif kind == b"ANMF" and length >= ANMF_HEADER and not nested:
            left, top, width, height = anmf_frame(data, start)
            sizes.append((left + width, top + height))
            inner = _webp_walk(data, start + ANMF_HEADER, stop, sizes, nested=True)
            if inner is None:
                return None
            holds, frames = holds and inner[0], frames + 1
    return holds, frames


def _webp(data: bytes) -> Optional[Header]:
    """A RIFF container (``RIFF``, length, ``WEBP``) of chunks; shorter than its length: cut."""
    end = 8 + _little(data, 4, 4)
    if len(data) < max(end, 20):
        return None
    sizes: list[tuple[int, int]] = []
    walked = _webp_walk(data, 12, end, sizes, nested=False)
    if walked is None or not sizes:
        return None
    extent = max(width for width, _ in sizes), max(height for _, height in sizes)
    holds, frames = walked
    return Header(sizes[0], extent, holds, True, max(frames, 1), frames > 0)


_READERS = {"image/png": _png, "image/gif": _gif, "image/webp": _webp, "image/jpeg": _jpeg}


def read_header(data: bytes, media: str) -> Optional[Header]:
    """What the header of an image of type ``media`` (``image/png``, ``image/jpeg``,
    ``image/gif``, ``image/webp``) declares; ``None`` when it gives no size (malformed, a
    zero side), or when the file's own lengths show bytes missing (a PNG chunk, JPEG segment
    or GIF sub-block running past the end, a WebP shorter than its RIFF length)."""
    reader = _READERS.get(media)
    header = reader(data) if reader is not None else None
    return header if header is not None and header.size[0] > 0 and header.size[1] > 0 else None
