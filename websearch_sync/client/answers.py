"""Is a stored answer one this library could have returned? (cache tiers outside the process)

A SQLite file or a Redis may be written by anyone who can reach it, so an answer read
from there is untrusted input: before it is returned it must have the result shape
(``items`` of text fields with an http(s) URL, one-line texts cleaned as a search cleans
them, page text as a tool result may carry it, at most ``max_results`` of them, ``provider_meta``
an object; a fetch result's fields with their types, its text and title cleaned as fetch cleans
them and its ``length`` that of its text). An answer
that does not is a miss: one stored by an older version (tag characters were kept) or planted. Answers from the process's own memory are not checked again.
One normalisation comes first (:func:`stray_selectors_read`): a search answer stored before searches
left out the variation selectors that select nothing has them left out of its texts as it is read,
then is checked like any other.

An answer is also bounded in size by what the call could have produced
(:func:`search_answer_bytes`, :func:`page_answer_bytes`): a bigger stored value is a
miss, read no further than that bound, and a bigger answer is not written to those
tiers (a planted 10 MB entry would cost every reader seconds and hundreds of MB).
"""

from typing import Any, Optional

from ..config import READ_WARNINGS
from ..engine.normalize import LINE_TEXT_FIELDS, clean_text
from ..net.urls import MAX_URL_CHARS, stray_selectors_dropped
from ..reader.image import EXTRACTOR as IMAGE_EXTRACTOR
from ..reader.image import IMAGE_TYPES, MAX_IMAGE_BASE64_CHARS
from ..reader.pagetext import CUTS, sendable, title_line

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_ITEM_TEXT = ("title", "url", "provider")
#: Text an item of a vertical must have besides those (docs/verticals.md: an image result has no snippet).
_VERTICAL_TEXT = {"web": ("snippet",), "images": ("image_url",)}
_ITEM_OPTIONAL_TEXT = (
    "snippet",
    "source",
    "published_at",
    "content",
    "content_by",
    "publisher",
    "uploader",
    "image_url",
    "thumbnail_url",
    "embed_url",
)
_ITEM_OPTIONAL_COUNTS = ("width", "height", "duration", "view_count")
#: The keys of a warning fetch writes (``WebSearchError.to_dict()`` of an error with no attached ones).
_WARNING_KEYS = frozenset({"type", "message", "retryable", "detail_code", "provider"})
_PAGE_TEXT = ("url", "final_url", "title", "text", "content_type", "extractor")

#: A stored answer's JSON, besides its page text, at most: the frame (``provider_meta``,
#: ``errors``, a page's title and URLs) and one search item (title, URL, snippet...).
_FRAME_BYTES = 64 * 1024
_ITEM_BYTES = 32 * 1024
#: Bytes one character of page text takes in the stored JSON at worst (a ``\u001f`` escape).
_BYTES_PER_CHAR = 6
#: Page text a search item may carry when the service itself provides it (an answer stored before such text
#: was cut to ``max_content_chars`` too).
_SERVICE_CONTENT_CHARS = 50_000


def search_answer_bytes(max_results: int, content_chars: Optional[int] = None) -> int:
    """The largest stored search answer a call for ``max_results`` items can have (with page text
    of ``content_chars`` characters per item when it asks ``include_content``)."""
    per_item = _ITEM_BYTES
    if content_chars is not None:
        per_item += _BYTES_PER_CHAR * max(content_chars, _SERVICE_CONTENT_CHARS)
    return _FRAME_BYTES + max_results * per_item


def page_answer_bytes(max_chars: int, images: bool = False) -> int:
    """The largest stored fetch result a call for at most ``max_chars`` characters can have (with
    ``images``, also an image's base64 ``data``, at most :data:`MAX_IMAGE_BASE64_CHARS`: an image
    fetch's answer was measured against the text's bound alone, so an image over about 300 KB was
    never shared, and each one was warned of as too long)."""
    return _FRAME_BYTES + _BYTES_PER_CHAR * max(0, max_chars) + (MAX_IMAGE_BASE64_CHARS if images else 0)


def _http_url(value: Any) -> bool:
    """An http(s) URL of the length a search or fetch keeps (at most :data:`MAX_URL_CHARS`)."""
    return isinstance(value, str) and value.startswith(("https://", "http://")) and 8 < len(value) <= MAX_URL_CHARS


def _valid_optional_fields(item: dict[str, Any]) -> bool:
    """The optional fields an item has are of their kinds: text (one-line text cleaned as a search
    cleans it, page text as a tool result may carry it), counts, http(s) picture URLs; the title
    (checked a text before) is one-line text too."""
    return (
        all(type(item[name]) is str for name in _ITEM_OPTIONAL_TEXT if name in item)
        and all(clean_text(item[name], markup=False) == item[name] for name in LINE_TEXT_FIELDS if name in item)
        and ("content" not in item or sendable(item["content"]) == item["content"])
        and all(type(item[name]) is int for name in _ITEM_OPTIONAL_COUNTS if name in item)
        and all(_http_url(item[name]) for name in ("image_url", "thumbnail_url", "embed_url") if name in item)
    )


def _valid_item(item: Any, rank: int, required: tuple[str, ...]) -> bool:
    if type(item) is not dict:
        return False
    if not all(type(item.get(name)) is str for name in required) or not _http_url(item["url"]):
        return False
    if item.get("rank") != rank or type(item["rank"]) is not int or not _valid_optional_fields(item):
        return False
    providers = item.get("providers")
    if not _valid_cuts(item.get("content_truncated_by", [])):
        return False
    return providers is None or (type(providers) is list and all(type(p) is str for p in providers))


#: Where a stored search answer holds text a search cleans (:func:`stray_selectors_read`): its items,
#: the notes in its ``errors`` (a vendor's words) and ``provider_meta``'s ``extras`` (SearXNG's answers,
#: infoboxes, suggestions, corrections).
_CLEANED_PARTS = ("items", "errors")


def stray_selectors_read(answer: dict[str, Any]) -> None:
    """Leave the variation selectors that select nothing (:func:`~..net.urls.stray_selectors_dropped`)
    out of every text of a stored search answer, in place, before it is checked: an answer stored before
    a search left them out (they can carry bytes, "emoji smuggling") is served as a search gives it
    now, as a stored page is read again (its check holds fetch's rule). A URL is left as it is (one
    that holds them is no URL a search keeps: the check refuses it). One walk over the answer's
    objects and lists, no recursion: a stored value may nest as deep as JSON allows."""
    meta = answer.get("provider_meta")
    parts: list[Any] = [answer.get(name) for name in _CLEANED_PARTS]
    parts.append(meta.get("extras") if isinstance(meta, dict) else None)
    while parts:
        part = parts.pop()
        if isinstance(part, dict):
            for name, value in part.items():
                if isinstance(value, str) and not (name == "url" or name.endswith("_url")):
                    part[name] = stray_selectors_dropped(value)
                elif isinstance(value, (dict, list)):
                    parts.append(value)
        elif isinstance(part, list):
            for at, value in enumerate(part):
                if isinstance(value, str):
                    part[at] = stray_selectors_dropped(value)
                elif isinstance(value, (dict, list)):
                    parts.append(value)


def valid_search_answer(answer: Any, max_results: int, vertical: str = "web") -> bool:
    """True when ``answer`` has the search result shape of ``vertical``'s items, at most ``max_results``."""
    if type(answer) is not dict or type(answer.get("provider_meta")) is not dict:
        return False
    items = answer.get("items")
    if type(items) is not list or len(items) > max_results:
        return False
    errors = answer.get("errors")
    if errors is not None and (type(errors) is not list or not all(type(e) is dict for e in errors)):
        return False
    required = _ITEM_TEXT + _VERTICAL_TEXT.get(vertical, ())
    return all(_valid_item(item, rank, required) for rank, item in enumerate(items, 1))


def valid_page_answer(answer: Any, max_chars: Optional[int] = None, images: bool = False) -> bool:
    """True when ``answer`` has the fetch result shape (http(s) URLs, text fields, at most
    ``max_chars``; an image's size and base64 ``data`` only when the call asks ``images``), its text
    and title cleaned as fetch cleans them (:func:`~..reader.pagetext.sendable`, :func:`~..reader.pagetext.title_line`)
    and its ``length`` that of its text."""
    if type(answer) is not dict or not all(type(answer.get(name)) is str for name in _PAGE_TEXT):
        return False
    if not (_cleaned_page(answer) and _http_url(answer["url"]) and _http_url(answer["final_url"])):
        return False
    if max_chars is not None and type(max_chars) is int and len(answer["text"]) > max_chars:
        return False
    if not _valid_image(answer, images):
        return False
    return (
        type(answer.get("status")) is int
        and type(answer.get("truncated")) is bool
        and type(answer["length"]) is int
        and _valid_cuts(answer.get("truncated_by", []))
        and _valid_warnings(answer.get("errors", []))
    )


def _cleaned_page(answer: dict[str, Any]) -> bool:
    """Whether a stored fetch result's text, title and content type are as fetch cleans them and its ``length``
    counts its text: one stored by an older version (tag characters kept) or planted is not, and
    the tool, cleaning it afterwards, gave a ``length`` that did not count its text."""
    text, title, media = answer["text"], answer["title"], answer["content_type"]
    return (
        sendable(text) == text
        and title_line(title) == title
        and title_line(media) == media
        and answer.get("length") == len(text)
    )


def _valid_warnings(errors: Any) -> bool:
    """Whether a stored fetch result's ``errors`` (its warnings: a PDF's pages left out) are what
    fetch writes: entries of exactly ``WebSearchError.to_dict()``'s keys, ``detail_code`` one of
    :data:`~websearch_sync.config.READ_WARNINGS` and ``provider`` text or ``None``. include_content
    reads each one's ``detail_code`` and ``provider`` into the search's ``errors`` (a planted ``[1]``
    failed every page read from it as an internal error, one without ``detail_code`` raised KeyError)."""
    return type(errors) is list and all(
        type(entry) is dict
        and entry.keys() == _WARNING_KEYS
        and type(entry["type"]) is str
        and type(entry["message"]) is str
        and type(entry["retryable"]) is bool
        and type(entry["detail_code"]) is str
        and entry["detail_code"] in READ_WARNINGS
        and (entry["provider"] is None or type(entry["provider"]) is str)
        for entry in errors
    )


def _valid_image(answer: dict[str, Any], images: bool) -> bool:
    """Whether a stored fetch result's image fields are an image's, and only when asked for: its
    ``data`` text of at most :data:`MAX_IMAGE_BASE64_CHARS` with its ``width`` and ``height``, or
    none of the three (a planted ``data`` reached the caller as it was, a list or 50 MB of text),
    under the image extractor and one of the types fetch returns (a planted ``text/html``, or a type
    holding a line break, became the media type of the image block a model API refuses)."""
    fields = [name for name in ("data", "width", "height") if name in answer]
    original = [name for name in ("original_width", "original_height") if name in answer]
    if not fields:
        return not original
    return (
        images
        and _an_image_type(answer)
        and len(fields) == 3
        and type(answer["data"]) is str
        and len(answer["data"]) <= MAX_IMAGE_BASE64_CHARS
        and type(answer["width"]) is int
        and type(answer["height"]) is int
        and all(type(answer[name]) is int for name in original)  # a downscaled image's served size: both or none
        and len(original) in (0, 2)
    )


def _an_image_type(answer: dict[str, Any]) -> bool:
    """Whether a stored fetch result is of the image extractor and a type fetch returns images in."""
    return answer["extractor"] == IMAGE_EXTRACTOR and answer["content_type"] in IMAGE_TYPES


def _valid_cuts(cuts: Any) -> bool:
    """Whether a stored ``truncated_by`` is a list of the causes fetch names (:data:`~..reader.pagetext.CUTS`):
    the tool text looks each up (a planted ``[["max_chars"]]`` raised TypeError there)."""
    return type(cuts) is list and all(type(cut) is str and cut in CUTS for cut in cuts)
