"""Reading an image for a multimodal model: PNG, JPEG, GIF or WebP as base64, within caps.

Only when asked (``fetch(..., images=True)``): a text user keeps today's refusal. The
width and height come from the header bytes (:mod:`.imagesize`, no dependency), and so do
the checks that the image is whole and that its data can hold the pixels it declares.
An image over the caps (``MAX_IMAGE_BYTES``, ``MAX_IMAGE_SIDE``: what the model APIs
take, for the largest size any part of it declares) is downscaled when Pillow is installed
(the ``images`` extra), else refused with ``WebProviderError(image_too_large)``; one so
large that decoding it is itself the risk (over ``MAX_DECODE_PIXELS``) is refused either way.
A PNG, JPEG or GIF without its end marker (``IEND``, ``FF D9``, the trailer) is never returned,
whatever HTTP says of where its body ends (:func:`_cut_short`): a file cut short on the server is
served with a ``Content-Length`` of what was left, a JPEG's scan data has no length, and a PNG or
GIF cut between two chunks or sub-blocks reads well up to the cut; Pillow refuses them, "image
file is truncated". An animation (GIF,
APNG, WebP) is returned as a still image of its first frame (:mod:`.stills`, :func:`_still`):
OpenAI's vision input takes a GIF only when it is not animated, Anthropic's documents GIF without
animation: a still image is what every model API takes.
"""

import base64
import importlib.util
import io
import logging
import math
from collections.abc import Sequence
from typing import Any, Optional
from urllib.parse import urlsplit

from ..errors import (
    ASK_FOR_IMAGES,
    IMAGE_TOO_LARGE,
    IMAGE_UNREADABLE,
    IMAGES_WHEN_ASKED,
    RAISE_MAX_BYTES,
    UNSUPPORTED_CONTENT,
    WebParseError,
    WebProviderError,
    install_hint,
)
from ..net.media import served_as, sniffed_image_type, sniffed_other_image_type
from ..net.transport import HttpResponse
from .imagesize import Header, read_header
from .pagetext import ImageData, PageText, partial_answer
from .pngcrc import with_crcs_repaired
from .stills import first_frame

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

EXTRACTOR = "image"
EXTRA = "images"
#: Characters of one image's base64 text: Anthropic's per-image limit (5 MiB), which counts the
#: base64 string, not the image's bytes (OpenAI takes more).
MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024
#: Bytes of one image: the most whose base64 text fits :data:`MAX_IMAGE_BASE64_CHARS` (3,932,160).
MAX_IMAGE_BYTES = MAX_IMAGE_BASE64_CHARS // 4 * 3
#: Pixels on the longer side (Anthropic's limit).
MAX_IMAGE_SIDE = 8000
#: An image with more pixels than this is not decoded to downscale it (a decompression bomb).
MAX_DECODE_PIXELS = 50_000_000
#: The bytes that tell whether a body opens as an image of a type fetch returns (a WebP's RIFF header).
SIGNATURE_BYTES = 12
#: Pillow's format names for the types fetch returns.
_FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WEBP"}
#: The ``content_type`` of every image fetch returns (the model APIs' image types): an image block
#: of another (read back from a cache, planted) is never built.
IMAGE_TYPES = frozenset(_FORMATS)
#: Declared types that may be one of those (servers send the aliases too); others never are.
_RETURNABLE = (*_FORMATS, "image/jpg", "image/pjpeg", "image/x-png", "image/apng")
#: Attempts at encoding smaller when the first downscaled image is still over the byte cap.
_ATTEMPTS = 4
#: How far under the byte cap a downscale aims (the bytes of an encoding follow its pixels roughly).
_MARGIN = 0.9


def image_downscalable() -> bool:
    """Whether fetch downscales an image over the caps here (the ``images`` extra is installed),
    without importing Pillow: the fetch tool's description says so only then."""
    return importlib.util.find_spec("PIL") is not None


def _pillow() -> Any:
    """Pillow's ``Image`` module, or ``None`` without the ``images`` extra."""
    try:
        from PIL import Image
    except ImportError:
        return None
    return Image


def describe(image: ImageData, url: str, notes: Sequence[str] = (), max_chars: Optional[int] = None) -> str:
    """The one line a text-only reader gets for an image: its type, size in pixels and bytes,
    ``notes`` (what it is of the animation it was cut from, :func:`_still`; how it is stored
    turned), and where it is from. Within ``max_chars``: its last parts are left out until it
    fits (the URL first, which the result's ``url`` holds too), ``[image]`` at the least, cut only
    below that; the image itself is whole, so nothing a larger ``max_chars`` would bring is missing."""
    size = len(image.data) * 3 // 4
    parts = [
        image.content_type,
        "%dx%d pixels" % (image.width, image.height),
        "%.1f KB" % (size / 1000),
        *notes,
        "from %s" % url,
    ]
    while parts:
        line = "[image: %s]" % ", ".join(parts)
        if max_chars is None or len(line) <= max_chars:
            return line
        parts.pop()
    return "[image]"[:max_chars]


def image_text(
    response: HttpResponse, *, provider: Optional[str], images: bool, max_chars: Optional[int] = None
) -> PageText:
    """The image of ``response`` as ``PageText`` (``extractor="image"``, ``image`` set, ``text``
    one line describing it, within ``max_chars``: :func:`describe`). Its width and height are
    those it is shown at, its EXIF orientation applied (turned upright by Pillow, or said in the
    line when returned as stored).

    Raises ``WebProviderError``: ``unsupported_content`` (``images`` is false: the hint says
    to ask; or a type other than PNG, JPEG, GIF and WebP), ``image_too_large`` (cut by
    ``max_bytes``, or over the caps without Pillow); ``WebParseError(image_unreadable)``.
    """
    host = urlsplit(response.url).hostname or "the site"
    # the server chose the type: named as a well-formed media type only, or said to be missing or unknown
    declared = served_as(response.content_type)
    media = sniffed_image_type(response.content[:16])
    refusal = _not_returned(response, host, provider, declared, media, images) or _no_image(
        response, host, provider, declared, media, images
    )
    if refusal is not None:
        raise refusal
    if not images or media is None:  # (an empty body's when not asked: no image is known to be there)
        raise WebProviderError(
            # the message reaches a model through the tools too: the Python parameter is in the hint only
            "%s served %s, an image; %s" % (host, declared, IMAGES_WHEN_ASKED),
            provider=provider,
            detail_code=UNSUPPORTED_CONTENT,
            status=response.status,
            hint=ASK_FOR_IMAGES,
        )
    if response.truncated:
        raise _too_large(
            "%s served an image larger than the %d-byte cap" % (host, len(response.content)),
            provider,
            response.status,
            RAISE_MAX_BYTES,
        )
    content, header = _header(response.content, media)
    if header is None or not header.ended:  # its end marker must be there (:func:`_cut_short`)
        raise _cut_short(host, provider, response, unended=media if header is not None else None)
    content, header, still = _still_of(content, media, header, host, provider, response.status)
    served, _ = _as_shown(*header.size, header.orientation)  # the size it was served at, as it is shown
    content, (width, height), orientation, shrunk = _within_caps(
        content, media, header, host, provider, response.status
    )
    original = served if shrunk else None
    (width, height), stored = _as_shown(width, height, orientation)
    image = ImageData(media, width, height, base64.b64encode(content).decode("ascii"), original)
    downscaled = "downscaled from %dx%d pixels to the caps" % original if original else ""
    notes = [note for note in (downscaled, still, stored) if note]
    return PageText("", describe(image, response.url, notes, max_chars), EXTRACTOR, image=image)


def _not_returned(
    response: HttpResponse, host: str, provider: Optional[str], declared: str, media: Optional[str], images: bool
) -> Optional[WebProviderError]:
    """The refusal of a type fetch never returns, as such, not with a hint to ask for images (the
    body of a declared image is read only when they are asked for): a type other than those it
    returns (SVG, BMP...), or an image of such a type by its first bytes under one it returns (a
    favicon's ICO sent as ``image/png``, a bitmap as ``image/jpeg``), named as an untyped one is,
    not called "no image". A bitmap opens with ``BM`` as a text may ("BMW..."), but its header
    holds NUL bytes, and so do the others' (ICO, TIFF, an ISO file-type box), and a text none."""
    head = response.content[:16]
    other = sniffed_other_image_type(head) if media is None and b"\x00" in head else None
    if other is not None:
        served = "%s, %s by its first bytes" % (declared, other)
    elif media is None and response.content_type not in _RETURNABLE and (response.content or not images):
        served = declared
    else:
        return None
    return WebProviderError(
        "%s served %s, which fetch cannot return (PNG, JPEG, GIF and WebP images only)" % (host, served),
        provider=provider,
        detail_code=UNSUPPORTED_CONTENT,
        status=response.status,
    )


def _no_image(
    response: HttpResponse, host: str, provider: Optional[str], declared: str, media: Optional[str], images: bool
) -> Optional[WebParseError]:
    """The refusal of a body declared an image that opens as none (``media`` is ``None``): not
    "cut short or malformed" (a page sent under an image's type is read as the page before this),
    nor, when images were not asked for, an image to ask for: its first KB was read all the same
    (it said "fetch returns images only when asked", and asking for them led to this refusal), when
    it holds the :data:`SIGNATURE_BYTES` that tell (fewer may be an image's opening, cut short)."""
    if media is not None or not (images or len(response.content) >= SIGNATURE_BYTES):
        return None
    opening = "is empty" if not response.content else "opens with no PNG, JPEG, GIF or WebP signature"
    return WebParseError(
        "%s served %s that is no image: it %s" % (host, declared, opening),
        provider=provider,
        detail_code=IMAGE_UNREADABLE,
        status=response.status,
    )


def _as_shown(width: int, height: int, orientation: int) -> tuple[tuple[int, int], str]:
    """The size an image stored at ``width`` x ``height`` is shown at, by its EXIF ``orientation``
    (its sides swapped for a quarter turn, 5-8), and what its line says of how it is stored."""
    if orientation >= _SWAPPED:
        return (height, width), "stored as %dx%d with EXIF orientation %d" % (width, height, orientation)
    return (width, height), "stored with EXIF orientation %d" % orientation if orientation != 1 else ""


#: The EXIF orientations that turn an image a quarter (5-8), showing its width as its height.
_SWAPPED = 5


def _header(content: bytes, media: str) -> tuple[bytes, Optional[Header]]:
    """``content`` and what its header declares (:func:`~.imagesize.read_header`); for a PNG it
    refuses, the PNG with its image data's wrong CRCs made right when that makes it one it reads
    (:mod:`.pngcrc`: Pillow does not check them)."""
    header = read_header(content, media)
    if header is None and media == "image/png":
        repaired = with_crcs_repaired(content, lambda size: _refused_undecoded(len(content), size))
        if repaired is not content:
            return repaired, read_header(repaired, media)
    return content, header


def _still_of(
    content: bytes, media: str, header: Header, host: str, provider: Optional[str], status: int
) -> tuple[bytes, Header, str]:
    """``content``, its header and ``""`` for a still image; for an animation, its still image
    (:func:`_still`: the model APIs take still images only), its header, and what it is of it."""
    if not header.animated:
        return content, header, ""
    content, still = _still(content, media, header, host, provider, status)
    cut = read_header(content, media)
    if cut is None:  # the cut keeps chunks read whole: a header is there to read
        raise _unreadable(host, provider, status)
    return content, cut, still


def _still(
    content: bytes, media: str, header: Header, host: str, provider: Optional[str], status: int
) -> tuple[bytes, str]:
    """A still image of the animation ``content`` and what the line says it is: its first
    frame, cut out of the bytes (:func:`~.stills.first_frame`), else decoded by Pillow (an
    animated WebP whose first frame does not cover the canvas is composed onto it); without
    Pillow, ``WebProviderError(unsupported_content)`` naming the ``images`` extra."""
    cut = first_frame(content, media, header.size)
    if cut is not None and not cut.first:  # an APNG's default image, not part of the animation
        return cut.data, "the still image beside its animation of %d frames" % header.frames
    data = cut.data if cut is not None else _decoded_first_frame(content, media, header, host, provider, status)
    return data, "the first of %d frames" % header.frames if header.frames > 1 else ""


def _decoded_first_frame(
    content: bytes, media: str, header: Header, host: str, provider: Optional[str], status: int
) -> bytes:
    """The first frame of the animation ``content``, decoded by Pillow and encoded as a still
    image of its type, within the same decoding cap as a downscale."""
    pillow = _pillow()
    if pillow is None:
        raise WebProviderError(
            "%s served an animated image whose first frame is drawn onto a larger canvas; returning it as a "
            "still image (model APIs take no animation) needs %s" % (host, install_hint("images")),
            provider=provider,
            detail_code=UNSUPPORTED_CONTENT,
            status=status,
        )
    what = "%s served an animated %dx%d image" % (host, *header.size)
    if header.extent[0] * header.extent[1] > MAX_DECODE_PIXELS:
        raise _undecodable(what, header.extent, provider, status, "cut a frame from")
    if not header.holds:
        raise _not_held(host, header, provider, status)
    out = io.BytesIO()
    try:
        with pillow.open(io.BytesIO(content)) as image:
            if image.width * image.height > MAX_DECODE_PIXELS:
                raise _undecodable(what, image.size, provider, status, "cut a frame from")
            image.seek(0)
            image.save(out, format=_FORMATS[media])  # the frame shown, alone: no save_all
    except (OSError, ValueError, EOFError, pillow.DecompressionBombError):
        raise _unreadable(host, provider, status) from None
    return out.getvalue()


#: What each type's end marker is called where a file cut short lacks it (a WebP declares its
#: length up front: its header is read only when the file is whole).
_END_MARKERS = {
    "image/png": "a PNG's IEND chunk",
    "image/jpeg": "a JPEG's end-of-image marker (FF D9)",
    "image/gif": "a GIF's trailer (3B)",
}


def _cut_short(
    host: str, provider: Optional[str], response: HttpResponse, unended: Optional[str] = None
) -> WebParseError:
    """The ``image_unreadable`` of an image whose header gives no size or that stops before its
    end: said to be a part the server sent when a 206 holds only a part of the file; one whose
    parts read well but that lacks its end marker (``unended``: its type, whose
    :data:`_END_MARKERS` entry the message names) is said to lack it.

    The end marker is required whatever HTTP says of where the body ends (a ``Content-Length``,
    the chunked coding, an HTTP/2 stream): a file cut short on the server (an upload or a copy
    that stopped) is served with a ``Content-Length`` of what was left. A JPEG's scan data carries
    no length, so it reads well up to any cut; a PNG's chunks and a GIF's sub-blocks carry theirs,
    but a file cut between two of them (between two ``IDAT`` chunks) reads well up to the cut too.
    Pillow refuses all of them ("image file is truncated"), and libpng and giflib refuse a file
    without its end marker though all its image data is there. The marker is found by walking
    the file's parts (:func:`~.imagesize.read_header`), not looked for in its last bytes: bytes
    after it (padding, a second image of an MPO file) are the file's, and the ``FF D9`` of an EXIF
    thumbnail inside an APP1 segment is skipped with its segment."""
    if partial_answer(response):
        why = "is cut short: the server sent only a part of it (206 Partial Content)"
        return _unreadable(host, provider, response.status, why)
    if unended in _END_MARKERS:
        why = "is cut short: its data stops without %s" % _END_MARKERS[unended]
        return _unreadable(host, provider, response.status, why)
    return _unreadable(host, provider, response.status)


def _unreadable(
    host: str,
    provider: Optional[str],
    status: int,
    why: str = "is cut short or malformed (its header gives no size, or it stops before its end)",
) -> WebParseError:
    return WebParseError(
        "%s served an image that %s" % (host, why),
        provider=provider,
        detail_code=IMAGE_UNREADABLE,
        status=status,
    )


def _not_held(host: str, header: Header, provider: Optional[str], status: int) -> WebParseError:
    """``image_unreadable`` for an image declaring more pixels than its data can hold: its size,
    and where its parts reach when past it (``header.extent``: the widest and tallest of its
    parts, a GIF frame or WebP bitstream past its screen or canvas, possibly two parts' sides)."""
    declared = "%dx%d pixels" % header.size
    if header.extent != header.size:
        declared += " and parts reaching %dx%d" % header.extent
    return _unreadable(host, provider, status, "declares %s, more than its data can hold" % declared)


def _within(length: int, extent: tuple[int, int]) -> bool:
    """Whether an image of ``length`` bytes whose parts reach ``extent`` is within the caps."""
    return length <= MAX_IMAGE_BYTES and max(extent) <= MAX_IMAGE_SIDE


def _refused_undecoded(length: int, extent: tuple[int, int]) -> bool:
    """Whether an image of ``length`` bytes whose parts reach ``extent`` is refused before anything
    decodes it: over the caps, it would be downscaled, but it has too many pixels to decode."""
    return not _within(length, extent) and extent[0] * extent[1] > MAX_DECODE_PIXELS


def _too_large(message: str, provider: Optional[str], status: int, hint: Optional[str]) -> WebProviderError:
    return WebProviderError(message, provider=provider, detail_code=IMAGE_TOO_LARGE, status=status, hint=hint)


def _undecodable(
    what: str, size: tuple[int, int], provider: Optional[str], status: int, to: str = "downscale"
) -> WebProviderError:
    """``image_too_large`` for an image with too many pixels to decode (``what``: the message's
    start; ``to``: what decoding it was for)."""
    return _too_large(
        "%s; it is too large to %s (%dx%d pixels to decode, over %d)" % (what, to, *size, MAX_DECODE_PIXELS),
        provider,
        status,
        "fetch a smaller rendition of the image",
    )


def _within_caps(
    content: bytes, media: str, header: Header, host: str, provider: Optional[str], status: int
) -> tuple[bytes, tuple[int, int], int, bool]:
    """``content``, its stored size, its EXIF orientation and ``False`` when within the caps, else the
    image downscaled by Pillow (turned upright: orientation 1), its size and ``True``. The caps hold for the largest size any
    part of the image declares (``header.extent``: a GIF frame past its screen), and a header
    declaring more pixels than its data can hold is refused before anything decodes it (returned
    undecoded, a lie in its header would stay). An image within them whose EXIF orientation turns
    it is turned upright with Pillow too, at its size (a model API's decoder may not read EXIF:
    a phone's photo of a page came to it on its side); without Pillow it is returned as stored."""
    width, height = header.size
    within = _within(len(content), header.extent)
    over = "%s served a %dx%d image of %d bytes, over the caps (%d bytes, %d pixels a side)" % (
        host,
        width,
        height,
        len(content),
        MAX_IMAGE_BYTES,
        MAX_IMAGE_SIDE,
    )

    if _refused_undecoded(len(content), header.extent):
        raise _undecodable(over, header.extent, provider, status)
    if not header.holds:
        raise _not_held(host, header, provider, status)
    pillow = _pillow()
    if within:
        turned = _turned_upright(pillow, content, media, header.orientation, host) if header.orientation != 1 else None
        return (*turned, 1, False) if turned is not None else (content, header.size, header.orientation, False)
    if pillow is None:
        raise _too_large(
            "%s; downscaling needs %s" % (over, install_hint("images")),
            provider,
            status,
            None,  # the message names the extra and how to install it: a hint said it again
        )
    try:
        with pillow.open(io.BytesIO(content)) as image:
            # Pillow decodes the size it reads: checked again before decoding, should it read
            # one the header walk (every frame of it included) did not see
            if image.width * image.height > MAX_DECODE_PIXELS:
                raise _undecodable(over, image.size, provider, status)
            smaller = _downscale(pillow, image, media, len(content), header.orientation)
    except (OSError, ValueError, pillow.DecompressionBombError):
        raise _unreadable(host, provider, status) from None
    if smaller is None:
        raise _too_large("%s; downscaling did not bring it under the byte cap" % over, provider, status, "")
    return (*smaller, 1, True)


#: Pillow's ``Image.transpose`` methods that show an image stored with each EXIF orientation
#: (2-8) upright, the TIFF specification's table (Pillow's ``ImageOps.exif_transpose`` uses it).
_TRANSPOSES = {2: "FLIP_LEFT_RIGHT", 3: "ROTATE_180", 4: "FLIP_TOP_BOTTOM", 5: "TRANSPOSE", 6: "ROTATE_270"}
_TRANSPOSES.update({7: "TRANSVERSE", 8: "ROTATE_90"})
#: The quality a JPEG is encoded at again (Pillow's default, 75, blurs a page's small print).
_JPEG_QUALITY = 90


def _transposed(pillow: Any, image: Any, orientation: int) -> Any:
    """``image`` turned (and mirrored) as the ``orientation`` its header gives says (1: as it is).
    By ``Image.transpose``, not ``ImageOps.exif_transpose``: that one writes the EXIF data again
    to drop the tag, and a malformed entry Pillow reads (a wrong count or offset) raised there
    (``struct.error``, ``TypeError``): the orientation is all there is to read."""
    if orientation not in _TRANSPOSES:
        return image
    return image.transpose(pillow.Transpose[_TRANSPOSES[orientation]])


def _saved(image: Any, media: str, out: io.BytesIO) -> None:
    """``image`` encoded into ``out`` in the format of ``media``, its ICC colour profile kept
    (without it a wide-gamut photo's colours are read as sRGB, washed out) and, for a JPEG, at
    :data:`_JPEG_QUALITY`."""
    options: dict[str, Any] = {"icc_profile": image.info.get("icc_profile")}
    if media == "image/jpeg":
        options["quality"] = _JPEG_QUALITY
    image.save(out, format=_FORMATS[media], **options)


def _turned_upright(
    pillow: Any, content: bytes, media: str, orientation: int, host: str
) -> Optional[tuple[bytes, tuple[int, int]]]:
    """The image ``content``, within the caps, turned upright as its EXIF ``orientation`` (read
    from its header) says and encoded again at its size in its own format (without EXIF), and
    that size; ``None`` without Pillow, or when it cannot: over the decoding cap, a decoder's
    failure, an encoding over the byte cap (logged). It is then returned as stored, its line
    saying how: the turn helps a model whose API does not read EXIF, and the image as stored is
    still what a browser shows."""
    if pillow is None:
        return None
    out = io.BytesIO()
    try:
        with pillow.open(io.BytesIO(content)) as image:
            if image.width * image.height > MAX_DECODE_PIXELS:
                raise pillow.DecompressionBombError("%dx%d pixels to decode" % image.size)
            image.load()
            upright = _encodable(_transposed(pillow, image, orientation), media)
            _saved(upright, media, out)
    except (OSError, ValueError, pillow.DecompressionBombError) as error:
        logger.info("an image from %s is returned as stored, not turned upright: %s", host, error)
        return None
    if out.tell() > MAX_IMAGE_BYTES:
        logger.info("an image from %s is returned as stored: turned upright, it is over the byte cap", host)
        return None
    return out.getvalue(), upright.size


def _encodable(image: Any, media: str) -> Any:
    """``image`` in a mode its format's encoder takes (a JPEG's CMYK or YCCK decodes to a mode Pillow
    encodes as JPEG only once converted)."""
    return image.convert("RGB") if media == "image/jpeg" and image.mode not in ("RGB", "L") else image


def _downscale(
    pillow: Any, image: Any, media: str, encoded_bytes: int, orientation: int
) -> Optional[tuple[bytes, tuple[int, int]]]:
    """The opened ``image`` decoded once, turned upright as its header's EXIF ``orientation`` says
    (the encoding keeps no EXIF: a photo taken on its side came back sideways), and encoded once,
    in its own format, at the size that fits the caps: scaled to the side cap and to the byte cap, the bytes an encoding takes
    taken to grow with its pixels (``encoded_bytes``: the image as served), with a margin;
    smaller again (a few times at most) only when that encoding is still over the byte cap
    (None when it stays over). Encoding at full size first, as it once did, cost a 20-megapixel
    PNG a full-size PNG encoding, most of the time of the step, to find it over the cap. A JPEG
    is decoded at the smallest of its built-in reductions (1/2, 1/4, 1/8) still larger than the
    target. The model APIs scale an image down to about 1500-2000 pixels a side themselves, so
    a smaller image than the caps would allow loses nothing they would have used."""
    width, height = image.size
    scale = min(1.0, MAX_IMAGE_SIDE / max(width, height), _MARGIN * math.sqrt(MAX_IMAGE_BYTES / encoded_bytes))
    target = (max(1, int(width * scale)), max(1, int(height * scale)))
    if media == "image/jpeg":
        image.draft(None, target)  # before decoding: the decoder's own reduction (a size at least the target)
    image.load()
    if orientation >= _SWAPPED:
        width, height, target = height, width, (target[1], target[0])
    image = _encodable(_transposed(pillow, image, orientation), media)
    for _ in range(_ATTEMPTS):
        out = io.BytesIO()
        _saved(image.resize(target), media, out)
        if out.tell() <= MAX_IMAGE_BYTES:
            return out.getvalue(), target
        scale *= _MARGIN * math.sqrt(MAX_IMAGE_BYTES / out.tell())
        target = (max(1, int(width * scale)), max(1, int(height * scale)))
    return None
