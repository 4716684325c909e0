"""What a PDF page draws, in decoded bytes: its content streams and the form XObjects they
draw (``/Name Do``), nested forms included, as pypdf's text extraction follows them (a form
its resources hold but the page never draws is not decoded). :mod:`.pdf` measures a page
with it before extracting the page's text: a few KB of compressed content can decode to
tens of MB, and pypdf's extraction of it is slow and uninterruptible."""

import re
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: ``/Name Do``: the operator that draws a form (or an image) in a content stream; a delimiter
#: may stand for the space. Linear: the name cannot hold the space or delimiter before ``Do``.
_DRAWS = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do(?![^\s/\[\]()<>{}%])")
#: ``#xx``: a byte of a name written in hexadecimal (``/X#30`` is ``/X0``).
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")


class Decoded:
    """The streams a read decoded: their sizes by object id (pypdf keeps every object it
    resolved, and its decoded data, until the read ends), and their sum, kept as each is
    decoded: what a page decoded counts even when pypdf then fails on the page; and those
    the decoder refused as over its own cap (pypdf keeps nothing of them and would decode them
    again for each page that uses them)."""

    def __init__(self) -> None:
        self.sizes: dict[int, int] = {}
        self.total = 0
        self.over_cap: set[int] = set()

    def add(self, key: int, size: int) -> None:
        """Count the stream ``key``, of ``size`` decoded bytes."""
        self.sizes[key] = size
        self.total += size


#: What decodes a drawn stream under a cap of so many bytes: the decoder's own output limit
#: lowered for the call (pypdf's ``apply_configuration``), so that a stream over it stops there.
DecodeCap = Callable[[int], AbstractContextManager[Any]]


def _uncapped(cap: int) -> AbstractContextManager[Any]:
    return nullcontext()


def drawn_bytes(
    page: Any,
    decoded: Decoded,
    limit: int,
    budget: int,
    over_cap: tuple[type[BaseException], ...] = (),
    capped: DecodeCap = _uncapped,
) -> tuple[int, int]:
    """The decoded bytes of the content streams ``page`` draws and of the forms (XObjects)
    they draw (``/Name Do``, as pypdf's extraction follows them), nested forms included,
    counted until they pass ``limit``; and how many bytes this call decoded, counted until
    they pass ``budget``: those streams and the character maps (``/ToUnicode``, an embedded
    ``/Encoding``) of the fonts of their resources, which the extraction decodes too but which
    draw nothing (a CJK font's map can be a MB). ``decoded``: the streams decoded so far,
    to which this call adds those it decodes. ``over_cap``: what the decoder raises for a
    stream that decodes to more than its own cap (pypdf's ``LimitReachedError``: 75 MB, or a
    damaged stream over 5 MB it does not try to repair): the page then draws more than
    ``limit``, whatever stream it was, and is left out for its size, not as a page the decoder
    cannot read (a bomb of a few KB was "pdf_broken"); the decoder discards what it decoded.
    Such a stream counts as ``limit + 1`` bytes in ``decoded`` and in this call's bytes, and is
    kept in ``decoded.over_cap``, so the pages sharing it are left out without decoding it (one
    bomb drawn by 1,000 pages was decoded 1,000 times, 125 s of CPU; a font's map, by the
    extraction, which failed on it) and the budget sees each bomb. ``capped(limit + 1)``: what a
    drawn stream is decoded within, the decoder stopping past ``limit + 1`` bytes (raising one of
    ``over_cap``): a page drawing more is left out whatever the rest, so a bomb is not decoded to
    the decoder's own cap first (pypdf's 75 MB: 0.3 s and 75 MB of memory a page). A font's map,
    which draws nothing, is decoded under the decoder's own cap (it counts to ``budget`` only)."""
    resources = _resolved(page.get("/Resources"))
    contents = _resolved(page.get("/Contents"))
    todo = [(stream, resources) for stream in (contents if isinstance(contents, list) else [contents])]
    drawn = new = 0
    visited: set[int] = set()
    while todo and drawn <= limit and new <= budget:
        stream, resources = todo.pop()  # resources None: a font's map, not drawn
        stream = _resolved(stream)
        if not hasattr(stream, "get_data") or id(stream) in visited:
            continue
        visited.add(id(stream))
        new += _measured(stream, decoded, limit, over_cap, capped if resources is not None else _uncapped)
        if id(stream) in decoded.over_cap:  # a font's map too: the extraction would decode it again
            return max(drawn, limit) + 1, new
        if resources is None:
            continue
        drawn += decoded.sizes[id(stream)]
        if drawn <= limit:
            todo += [(font_map, None) for font_map in _font_maps(resources)]
            for form in _forms_drawn(stream.get_data(), resources):
                todo.append((form, _resolved(form.get("/Resources")) or resources))  # a form may use its page's
    return drawn, new


def _measured(
    stream: Any, decoded: Decoded, limit: int, over_cap: tuple[type[BaseException], ...], capped: DecodeCap
) -> int:
    """The decoded bytes of ``stream`` added to ``decoded`` (none when it holds them already);
    ``limit + 1`` for one the decoder refuses as over its cap (``capped``'s, else its own),
    counted once so for the pages that share it too."""
    if id(stream) in decoded.sizes:
        return 0
    try:
        with capped(limit + 1):
            size = len(stream.get_data())
    except over_cap:
        size = limit + 1
        decoded.over_cap.add(id(stream))
    decoded.add(id(stream), size)
    return size


def _font_maps(resources: Any) -> list[Any]:
    """The character-map streams of the fonts of ``resources``."""
    fonts = _resolved(resources.get("/Font")) if isinstance(resources, dict) else None
    if not isinstance(fonts, dict):
        return []
    fonts = [_resolved(font) for font in fonts.values()]
    return [font.get(key) for font in fonts if isinstance(font, dict) for key in ("/ToUnicode", "/Encoding")]


def _forms_drawn(content: bytes, resources: Any) -> list[Any]:
    """The form XObjects of ``resources`` that ``content`` draws (``/Name Do``)."""
    xobjects = _resolved(resources.get("/XObject")) if isinstance(resources, dict) else None
    if not isinstance(xobjects, dict):
        return []
    forms = []
    for name in dict.fromkeys(_DRAWS.findall(content)):  # each once, in order
        form = _resolved(xobjects.get("/" + _NAME_ESCAPE.sub(_unescaped, name).decode("latin-1")))
        if isinstance(form, dict) and form.get("/Subtype") == "/Form":
            forms.append(form)
    return forms


def _unescaped(match: "re.Match[bytes]") -> bytes:
    return bytes([int(match[1], 16)])


def _resolved(value: Any) -> Any:
    """``value`` with an indirect reference followed (pypdf's ``get_object``)."""
    return value.get_object() if value is not None else None
