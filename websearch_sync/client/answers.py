"""Is a stored answer one this library could have returned? (cache tiers outside the process)

A SQLite file or a Redis may be written by anyone who can reach it, so an answer read
from there is untrusted input: before it is returned it must have the result shape
(``items`` of text fields with an http(s) URL, at most ``max_results`` of them,
``provider_meta`` an object; a fetch result's fields with their types). An answer
that does not is a miss. Answers from the process's own memory are not checked again.
"""

from typing import Any, Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_ITEM_TEXT = ("title", "url", "snippet", "provider")
_ITEM_OPTIONAL_TEXT = ("source", "published_at", "content")
_PAGE_TEXT = ("url", "final_url", "title", "text")


def _http_url(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(("https://", "http://")) and len(value) > 8


def _valid_item(item: Any, rank: int) -> bool:
    if type(item) is not dict:
        return False
    if not all(type(item.get(name)) is str for name in _ITEM_TEXT) or not _http_url(item["url"]):
        return False
    if item.get("rank") != rank or type(item["rank"]) is not int:
        return False
    if not all(type(item[name]) is str for name in _ITEM_OPTIONAL_TEXT if name in item):
        return False
    providers = item.get("providers")
    return providers is None or (type(providers) is list and all(type(p) is str for p in providers))


def valid_search_answer(answer: Any, max_results: int) -> bool:
    """True when ``answer`` has the search result shape with at most ``max_results`` items."""
    if type(answer) is not dict or type(answer.get("provider_meta")) is not dict:
        return False
    items = answer.get("items")
    if type(items) is not list or len(items) > max_results:
        return False
    errors = answer.get("errors")
    if errors is not None and (type(errors) is not list or not all(type(e) is dict for e in errors)):
        return False
    return all(_valid_item(item, rank) for rank, item in enumerate(items, 1))


def valid_page_answer(answer: Any, max_chars: Optional[int] = None) -> bool:
    """True when ``answer`` has the fetch result shape (http(s) URLs, text fields, at most ``max_chars``)."""
    if type(answer) is not dict or not all(type(answer.get(name)) is str for name in _PAGE_TEXT):
        return False
    if not (_http_url(answer["url"]) and _http_url(answer["final_url"])):
        return False
    if max_chars is not None and type(max_chars) is int and len(answer["text"]) > max_chars:
        return False
    return (
        type(answer.get("status")) is int
        and type(answer.get("truncated")) is bool
        and type(answer.get("length")) is int
    )
