"""normalize_items: the only writer of rank."""

import datetime

import pytest

from websearch_sync.engine.normalize import clean_text, normalize_items


def test_drops_non_http_urls_and_ranks_contiguously():
    raw = [
        {"title": "a", "url": "javascript:alert(1)"},
        {"title": "b", "url": "https://b.example/"},
        {"title": "c", "url": "/relative/path"},
        {"title": "d", "url": "ftp://files.example/"},
        {"title": "e", "url": "HTTP://E.example/x"},
        {"title": "f", "url": "mailto:x@example.com"},
        {"title": "g", "url": "https://"},
        {"title": "h", "url": None},
        {"title": "i", "url": "https://exa mple.com/"},
        {"title": "j", "url": "//proto.relative/x"},
    ]
    items = normalize_items(raw, "p", 10)
    assert [i["title"] for i in items] == ["b", "e"]
    assert [i["rank"] for i in items] == [1, 2]
    assert items[1]["url"] == "http://E.example/x"


def test_text_is_cleaned():
    raw = [
        {
            "title": "  A <b>bold</b>\n\ttitle &amp; more ",
            "url": "https://x.example/",
            "snippet": "x&nbsp;y &lt;tag&gt; \u200bz",
        }
    ]
    item = normalize_items(raw, "p", 5)[0]
    assert item["title"] == "A bold title & more"
    assert item["snippet"] == "x y <tag> z"


def test_exact_duplicates_removed_first_wins_and_truncation_after_filtering():
    raw = [{"title": str(i), "url": "https://x.example/%d" % (i // 2)} for i in range(20)]
    items = normalize_items(raw, "p", 4)
    assert [i["title"] for i in items] == ["0", "2", "4", "6"]
    assert [i["rank"] for i in items] == [1, 2, 3, 4]


def test_provider_and_extras():
    raw = [
        {
            "title": "t",
            "url": "https://x.example/",
            "published_at": " 2024-01-01 ",
            "source": "",
            "content": "line1\nline2",
            "rank": 99,
        }
    ]
    item = normalize_items(raw, "brave", 5)[0]
    assert item == {
        "title": "t",
        "url": "https://x.example/",
        "snippet": "",
        "provider": "brave",
        "published_at": "2024-01-01",
        "content": "line1\nline2",
        "rank": 1,
    }


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("plain words", "plain words"),
        ("a\x00b\x07c\x1fd\x7fe", "abcde"),  # controls go
        ("zero\u200bwidth \ufeffmark \u202eflip\u2066", "zerowidth mark flip"),  # invisible formatting goes
        ("lone \ud800 surrogate", "lone surrogate"),
        ("line\nbreak\ttab\r\n end", "line break tab end"),  # whitespace is collapsed, not removed
        ("caf\u00e9 \u4e2d\u6587 \U0001f600", "caf\u00e9 \u4e2d\u6587 \U0001f600"),
    ],
)
def test_clean_text_drops_control_and_invisible_characters(raw, clean):
    assert clean_text(raw, markup=False) == clean
    assert clean_text(raw) == clean


def test_clean_text_handles_odd_values():
    assert clean_text(None) == ""
    assert clean_text(42) == "42"
    assert clean_text("a < b and c > d") == "a < b and c > d"


def test_inline_highlights_vanish_but_block_tags_separate_words():
    assert clean_text("<strong>Bostik</strong>, commonly <b>used</b>") == "Bostik, commonly used"
    assert clean_text("first<br>second<p>third</p>") == "first second third"


def test_web_published_at_is_read_as_the_verticals_dates_are():
    """A web item's date is canonical as a news item's is (docs/api.md): the values as Tavily
    (topic news), Jina and Bocha write them; one that cannot be read is left out."""
    answered = datetime.datetime(2025, 3, 11, 12, 0, tzinfo=datetime.timezone.utc)
    written = ["Mon, 10 Mar 2025 09:30:00 GMT", "Jul 7, 2025", "2024-07-24T08:00:00+08:00", "3 hours ago", "soon"]
    raw = [{"title": str(n), "url": "https://x.example/%d" % n, "published_at": w} for n, w in enumerate(written)]
    items = normalize_items(raw, "tavily", 10, answered_at=answered)
    assert [item.get("published_at") for item in items] == [
        "2025-03-10T09:30:00Z",
        "2025-07-07",
        "2024-07-24T00:00:00Z",
        "2025-03-11T09:00:00Z",
        None,
    ]
    news = normalize_items(raw, "tavily", 10, vertical="news", answered_at=answered)
    assert [item.get("published_at") for item in news] == [item.get("published_at") for item in items]
