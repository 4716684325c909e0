"""engine/media_fields: counts and sizes as engines print them, and the keep-<img> reduction."""

import pytest

from websearch_sync.engine.html_parsing import reduce_markup
from websearch_sync.engine.media_fields import pixel_size, present, query_value, view_count


@pytest.mark.parametrize(
    "text, count",
    [
        ("338.3K views", 338300),  # Bing Videos (its own rounding)
        ("1.2M views", 1200000),
        ("9K views", 9000),
        ("30 views", 30),
        ("9,421 views", 9421),
        ("1,2 M", 1200000),  # a decimal comma before a multiplier
        # thousands grouped by a (no-break, narrow no-break) space, as French or German pages write them:
        # the whole number, not its first group
        ("1\u202f234 vues", 1234),
        ("12\u00a0345 Aufrufe", 12345),
        ("1 234 567 views", 1234567),
        ("1,2\u00a0M de vues", 1200000),
        ("1.2.3K", None),
        ("1.5 views", None),  # no multiplier: a separator has three digits after it (a fraction is no count)
        ("1.234 Aufrufe", 1234),
        ("2 weeks ago", 2),  # a number opens it: callers hand over the views text only
        ("views", None),
        ("", None),
        (None, None),
    ],
)
def test_view_count(text, count):
    assert view_count(text) == count


@pytest.mark.parametrize(
    "text, size",
    [
        ("700\u00d7444", (700, 444)),
        ("2048 x 1024", (2048, 1024)),
        ("700 \u00d7 444 \u00b7 jpeg", (700, 444)),
        ("x", None),
    ],
)
def test_pixel_size(text, size):
    assert pixel_size(text) == size


def test_query_value_and_present():
    assert (
        query_value("/av/proxy-image?piurl=https%3A%2F%2Fa.example%2Fb.jpg&sp=1", "piurl") == "https://a.example/b.jpg"
    )
    assert query_value("http://[::1", "piurl") is None
    assert present(a=1, b=None, c="", d=0) == {"a": 1, "d": 0}


def test_reduce_markup_keeps_images_when_asked():
    markup = '<p>a<img src="/t.jpg"><b>b</b></p>'
    assert reduce_markup(markup) == "<p>ab</p>"
    assert reduce_markup(markup, images=True) == '<p>a<img src="/t.jpg">b</p>'


def test_a_number_longer_than_a_count_is_none():
    assert view_count("1" * 10_000 + "K") is None  # 15 digits at most: bounded work on any text
