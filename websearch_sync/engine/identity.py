"""When two raw items are one result: the paging of a backend and normalisation agree on it."""

from collections.abc import Mapping
from typing import Any, Optional

from ..net.urls import dedupe_key, picture_url, result_url

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What makes two items of a vertical one result when it is not their URL: an image is its
#: image (one page holds many).
IDENTITY_FIELD = {"images": "image_url"}


def identity(raw: Mapping[str, Any], vertical: str = "web") -> Optional[str]:
    """What makes a raw item one result of ``vertical`` (its URL, an image's image URL read as
    :func:`~websearch_sync.net.urls.picture_url`, as :func:`~websearch_sync.net.urls.dedupe_key`
    compares them), ``None`` for an item without one."""
    field = IDENTITY_FIELD.get(vertical)
    url = picture_url(raw.get(field)) if field else result_url(raw.get("url"))
    return dedupe_key(url) if url is not None else None


def has_address(raw: Mapping[str, Any], vertical: str = "web") -> bool:
    """Whether a raw item has the address normalisation keeps a result of ``vertical`` for: an
    http(s) URL (:func:`~websearch_sync.net.urls.result_url`; a relative or ``javascript:`` link
    is none) and its :func:`identity` (an image's image URL)."""
    return result_url(raw.get("url")) is not None and identity(raw, vertical) is not None
