"""``net.memo``: the URL helpers' memos keep only strings of a bounded length (a URL is partly an
upstream's choice: a redirect target, a result link)."""

import importlib

import pytest

from websearch_sync.net.memo import MAX_KEPT_CHARS, remembered


def test_a_string_over_the_limit_is_answered_each_time_and_not_kept():
    calls = []

    @remembered(maxsize=4, max_chars=10)
    def length(text: str) -> int:
        calls.append(text)
        return len(text)

    assert [length("short"), length("short"), length("x" * 11), length("x" * 11)] == [5, 5, 11, 11]
    assert calls == ["short", "x" * 11, "x" * 11]
    assert length.cache_info().currsize == 1
    assert [length("y" * 10), length("y" * 10)] == [10, 10]  # the limit itself is kept
    assert calls[3:] == ["y" * 10] and length.cache_info().currsize == 2


def test_a_string_not_ascii_is_answered_each_time_and_not_kept():
    """CPython stores such a string at up to 4 bytes a character: within the length limit, 1024 of
    them held 68 MB."""
    calls = []

    @remembered(maxsize=4, max_chars=10)
    def length(text: str) -> int:
        calls.append(text)
        return len(text)

    assert [length("\U0001f600"), length("\U0001f600"), length("ä")] == [1, 1, 1]
    assert len(calls) == 3 and length.cache_info().currsize == 0
    assert length.__name__ == "length"


@pytest.mark.parametrize(
    "module, name",
    [  # imported in the test: collecting the suite imports no curl_cffi
        ("websearch_sync.net.wire_requests", "_host"),
        ("websearch_sync.net.wire_curl", "host_of"),
        ("websearch_sync.client.hostgate", "host_key"),
        ("websearch_sync.net.urls", "url_parts"),
    ],
)
def test_the_url_helpers_keep_no_url_over_the_limit(module, name):
    memo = getattr(importlib.import_module(module), name)
    long_url = "https://example.com/" + "%F0%9F%98%80" * (MAX_KEPT_CHARS // 12 + 1)
    memo.cache_clear()
    answer = memo(long_url)
    assert memo(long_url) == answer and memo.cache_info().currsize == 0
    memo("https://example.com/")
    assert memo.cache_info().currsize == 1
