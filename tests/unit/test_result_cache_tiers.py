"""The shared cache tier (Redis) is asked only when one call to it fits in the time the
search has left: the cache never spends the search's deadline."""

import json
import logging
import sqlite3
import threading

import pytest
from races import RacedSet

import websearch_sync as ws
from websearch_sync.client import cache as cache_module
from websearch_sync.client.answers import page_answer_bytes, search_answer_bytes
from websearch_sync.client.cache import MemoryCache, ResultCache, SqliteCache, too_long
from websearch_sync.client.state.results import RedisCache
from websearch_sync.once import Once


class CountingTier:
    """A stand-in with the shared tier's interface, recording what it is asked."""

    timeout_s = 0.25

    def __init__(self):
        self.calls = []
        self.stored = {}

    def get_entry(self, key, left_s=None, max_bytes=None):
        self.calls.append(("get", key))
        return self.stored.get(key)

    def set(self, key, value, ttl_s, left_s=None, max_bytes=None):
        self.calls.append(("set", key))
        self.stored[key] = (value, ttl_s)


def test_the_shared_tier_is_used_when_the_call_has_time():
    shared = CountingTier()
    cache = ResultCache(MemoryCache(60), None, shared)
    cache.set("k", {"items": []}, 60, left_s=5.0)
    assert ResultCache(MemoryCache(60), None, shared).get("k", left_s=5.0) == {"items": []}
    assert shared.calls == [("set", "k"), ("get", "k")]


def test_a_call_with_less_time_than_one_redis_call_skips_the_shared_tier():
    shared = CountingTier()
    shared.stored["k"] = ({"items": []}, 60)
    cache = ResultCache(MemoryCache(60), None, shared)
    assert cache.get("k", left_s=0.1) is None
    cache.set("k2", {"items": []}, 60, left_s=0.05)
    assert shared.calls == []


def test_an_answer_longer_than_its_bound_is_kept_in_memory_only(tmp_path):
    """Issue 33.6: what no reader would take is not written where readers outside the process look."""
    disk = SqliteCache(str(tmp_path / "c.sqlite"), 60)
    big = {"items": [], "provider_meta": {"pad": "x" * 2000}}
    cache = ResultCache(MemoryCache(60), disk, None)
    cache.set("big", big, 60, left_s=5.0, max_bytes=1000)
    cache.set("small", {"items": []}, 60, left_s=5.0, max_bytes=1000)
    assert cache.get("big") == big  # from memory
    assert disk.get("big") is None and disk.get("small") == {"items": []}


class RecordingState:
    """The part of a shared state :class:`RedisCache` uses, recording the keys written."""

    timeout_s = 0.25

    def __init__(self):
        self.written = []

    def key(self, kind, name):
        return kind + ":" + name

    def set_for(self, key, value, seconds, left_s=None):
        self.written.append(key)
        return True


def test_an_answer_too_long_to_share_is_warned_of_once_per_process(tmp_path, monkeypatch, caplog):
    """Kept out of Redis and the cache file, it was silent: a service answering with megabytes of
    snippet had every worker of a fleet ask it each question, none of them told why. Then it was
    warned of once per tier: two warnings for the first such answer of a worker with both."""
    monkeypatch.setattr(cache_module, "_TOO_LONG_WARNED", Once())
    state = RecordingState()
    cache = ResultCache(MemoryCache(60), SqliteCache(str(tmp_path / "c.sqlite"), 60), RedisCache(state, []))
    with caplog.at_level(logging.DEBUG, logger="websearch_sync"):
        for number in range(2):
            cache.set("big %d" % number, {"items": [], "provider_meta": {"pad": "x" * 2000}}, 60, 5.0, max_bytes=1000)
    said = [(r.levelname, r.getMessage()) for r in caplog.records if "memory only" in r.getMessage()]
    assert [level for level, _ in said] == ["WARNING", "DEBUG", "DEBUG", "DEBUG"], said
    assert "not in the shared state" in said[0][1] and "not in the cache file" in said[1][1]
    assert state.written == [] and cache.get("big 1") is not None  # from memory


def test_two_threads_with_answers_too_long_warn_once_between_them(monkeypatch, caplog):
    raced = Once()
    raced._said = RacedSet()  # noqa: SLF001 - without the lock both threads find the tier not warned of yet
    monkeypatch.setattr(cache_module, "_TOO_LONG_WARNED", raced)
    with caplog.at_level(logging.DEBUG, logger="websearch_sync"):
        threads = [threading.Thread(target=too_long, args=("x" * 20, 10, "the shared state")) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    said = [r.levelname for r in caplog.records if "memory only" in r.getMessage()]
    assert sorted(said) == ["DEBUG", "WARNING"], said


def test_a_stored_answer_longer_than_the_bound_is_a_miss_on_disk(tmp_path):
    disk = SqliteCache(str(tmp_path / "c.sqlite"), 60)
    value = {"items": [], "provider_meta": {"pad": "é" * 500}}
    disk.set("k", value, 60)
    size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    assert ResultCache(None, disk, None).get("k", max_bytes=size) == value
    assert ResultCache(None, disk, None).get("k", max_bytes=size - 1) is None  # bytes, not characters


def test_the_bounds_grow_with_what_the_call_asks():
    assert search_answer_bytes(10) > search_answer_bytes(1)
    assert search_answer_bytes(5, 100_000) > search_answer_bytes(5, 4000) > search_answer_bytes(5)
    assert page_answer_bytes(1_000_000) > 6_000_000 > page_answer_bytes(50_000)


def test_a_stored_page_keeps_its_warnings_and_a_planted_one_is_a_miss():
    """A fetch result's ``errors`` (a PDF's pages left out) are ``to_dict()`` entries, read back from
    a file or Redis as they were written; an entry of another shape is a miss (include_content reads
    each entry's ``provider`` into the search's ``errors``)."""
    from websearch_sync.client.answers import valid_page_answer
    from websearch_sync.errors import WebParseError

    warning = WebParseError("2 pages left out", provider="fetch", detail_code="pdf_pages_left_out").to_dict()
    page = {
        "url": "https://example.org/a.pdf",
        "final_url": "https://example.org/a.pdf",
        "status": 200,
        "content_type": "application/pdf",
        "extractor": "pypdf",
        "title": "A",
        "text": "some text",
        "truncated": False,
        "length": 9,
        "errors": [warning],
    }
    assert valid_page_answer(json.loads(json.dumps(page)))
    assert not valid_page_answer({**page, "errors": [{**warning, "provider": 7}]})
    assert not valid_page_answer({**page, "errors": {"0": warning}})


TAG = "\U000e0041\U000e0042"  # tag characters: "AB" written invisibly, which fetch and a search leave out


def test_a_stored_page_or_page_text_that_fetch_would_have_cleaned_is_a_miss():
    """Stored by an older version (tag characters were kept) or planted: its text, title or page
    text of a search item is not what fetch returns now, nor a ``length`` other than its text's
    (the tool cleaned the text afterwards and its ``length`` no longer counted it)."""
    from websearch_sync.client.answers import valid_page_answer, valid_search_answer

    page = {
        "url": "https://example.org/a",
        "final_url": "https://example.org/a",
        "status": 200,
        "content_type": "text/plain",
        "extractor": "text",
        "title": "A \U0001f3f4",
        "text": "some text\n\U0001f3f4",
        "truncated": False,
        "length": 11,
    }
    assert valid_page_answer(page)
    changes = ({"text": "some text" + TAG, "length": 11}, {"text": "some\x00text\n"}, {"title": "A" + TAG})
    for change in (*changes, {"content_type": "text/plain\x1b[2J"}, {"content_type": "text/plain\u202e"}):
        assert not valid_page_answer({**page, **change}), change
    assert not valid_page_answer({**page, "length": 10})
    item = {"title": "T", "url": "https://e.example/", "provider": "p", "snippet": "s", "rank": 1, "content": "a\nb"}
    assert valid_search_answer({"items": [item], "provider_meta": {}}, 1)
    for content in ("a" + TAG, "a\x1b[31m"):
        assert not valid_search_answer({"items": [{**item, "content": content}], "provider_meta": {}}, 1), content


def test_a_page_stored_with_tag_characters_is_fetched_again(tmp_path):
    from websearch_sync.net.wire_mock import MockResponse, MockWire

    path = str(tmp_path / "cache.sqlite")
    words = "Words of a page that a mock serves. " * 20
    wire = MockWire(lambda request: MockResponse(headers={"Content-Type": "text/plain"}, body=words))
    with ws.SearchClient("stub", wire=wire, cache_path=path, state_url="") as writer:
        stored = writer.fetch("https://docs.example.org/a")
    planted = {**stored, "text": stored["text"] + TAG, "length": stored["length"] + 2}
    with sqlite3.connect(path) as conn:
        assert conn.execute("UPDATE pages SET value = ?", (json.dumps(planted),)).rowcount == 1
    with ws.SearchClient("stub", wire=wire, cache_path=path, state_url="") as reader:
        again = reader.fetch("https://docs.example.org/a")
    assert again["text"] == stored["text"] and again["length"] == len(again["text"])


#: A run of variation selectors that select nothing ("emoji smuggling": each can carry a byte), as
#: an answer stored before a search left them out (aa71a420) may hold them.
SMUGGLED = "\ufe01\ufe02\ufe03\U000e0100\U000e0101"


def test_a_search_answer_stored_with_stray_variation_selectors_is_read_without_them(tmp_path):
    """Texts a search now cleans of stray variation selectors (titles, snippets, page text, SearXNG's
    extras) were served from a cache file as an older version stored them: the extras as they were,
    the items as a miss (asked again). They are read as a search gives them now."""
    path = str(tmp_path / "cache.sqlite")
    with ws.SearchClient("stub", cache_path=path, state_url="") as writer:
        stored = writer.search("python", max_results=2)
    item = stored["items"][0]
    old = json.loads(json.dumps(stored))
    old["items"][0].update(
        title=item["title"] + " \u2764\ufe0f" + SMUGGLED,  # the heart keeps its emoji presentation
        snippet=SMUGGLED + item["snippet"],
        content="line one" + SMUGGLED + "\nline two",
    )
    extras = {
        "suggestions": ["py" + SMUGGLED + "thon"],
        "answers": [{"text": "an answer" + SMUGGLED, "url": None, "engine": "wiki" + SMUGGLED}],
        "infoboxes": [
            {
                "title": "Python" + SMUGGLED,
                "content": "A language" + SMUGGLED,
                "url": "https://python.example/",
                "urls": [{"title": "home" + SMUGGLED, "url": "https://python.example/"}],
                "attributes": [{"label": "typing" + SMUGGLED, "value": "dynamic" + SMUGGLED}],
                "engine": "wikidata",
            }
        ],
    }
    old["provider_meta"]["extras"] = extras
    with sqlite3.connect(path) as conn:
        assert conn.execute("UPDATE results SET value = ?", (json.dumps(old),)).rowcount == 1
    with ws.SearchClient("stub", cache_path=path, state_url="") as reader:
        again = reader.search("python", max_results=2)
    assert again["provider_meta"]["cached"] is True  # read from the file, not asked again
    assert again["items"][0]["title"] == item["title"] + " \u2764\ufe0f"
    assert again["items"][0]["snippet"] == item["snippet"]
    assert again["items"][0]["content"] == "line one\nline two"
    assert again["items"][1] == stored["items"][1]
    assert again["provider_meta"]["extras"] == {
        "suggestions": ["python"],
        "answers": [{"text": "an answer", "url": None, "engine": "wiki"}],
        "infoboxes": [
            {
                "title": "Python",
                "content": "A language",
                "url": "https://python.example/",
                "urls": [{"title": "home", "url": "https://python.example/"}],
                "attributes": [{"label": "typing", "value": "dynamic"}],
                "engine": "wikidata",
            }
        ],
    }


def test_a_stored_search_answer_otherwise_unclean_is_still_a_miss(tmp_path):
    path = str(tmp_path / "cache.sqlite")
    with ws.SearchClient("stub", cache_path=path, state_url="") as writer:
        stored = writer.search("python", max_results=2)
    old = json.loads(json.dumps(stored))
    old["items"][0]["title"] += SMUGGLED + "\x1b[31m"  # a control character: no search writes that
    with sqlite3.connect(path) as conn:
        assert conn.execute("UPDATE results SET value = ?", (json.dumps(old),)).rowcount == 1
    with ws.SearchClient("stub", cache_path=path, state_url="") as reader:
        again = reader.search("python", max_results=2)
    assert again["provider_meta"]["cached"] is False and again["items"][0]["title"] == stored["items"][0]["title"]


def test_stray_selectors_are_read_out_of_notes_and_extras_but_urls_are_left_as_they_are():
    from websearch_sync.client.answers import stray_selectors_read

    deep: list = ["x" + SMUGGLED]
    for _ in range(100_000):  # a value nested deeper than any recursion reaches
        deep = [deep]
    answer = {
        "items": [{"title": "t" + SMUGGLED, "url": "https://e.example/" + SMUGGLED, "image_url": SMUGGLED}],
        "errors": [{"message": "vendor said: busy" + SMUGGLED, "provider": "p"}],
        "provider_meta": {"query": "q" + SMUGGLED, "extras": {"suggestions": deep}},
    }
    stray_selectors_read(answer)
    assert answer["items"][0] == {
        "title": "t",
        "url": "https://e.example/" + SMUGGLED,
        "image_url": SMUGGLED,
    }
    assert answer["errors"][0]["message"] == "vendor said: busy"
    assert answer["provider_meta"]["query"] == "q" + SMUGGLED  # not a text a search cleans
    inner = answer["provider_meta"]["extras"]["suggestions"]
    while isinstance(inner[0], list):
        inner = inner[0]
    assert inner == ["x"]


class ValueRecordingState(RecordingState):
    """A :class:`RecordingState` that keeps the values written too."""

    def __init__(self):
        super().__init__()
        self.values = []

    def set_for(self, key, value, seconds, left_s=None):
        self.values.append(value)
        return super().set_for(key, value, seconds, left_s)


@pytest.mark.parametrize("secret", ['pa"ss"word', "back\\slash\\key", "tab\tsecret", "bell\x07secret"])
def test_a_shared_answer_has_a_secret_that_json_escapes_redacted_from_its_texts(secret):
    # the answer's JSON text was redacted, where such a secret stands escaped: it went to Redis
    state = ValueRecordingState()
    answer = {
        "items": [{"title": "key " + secret, "url": "https://example.com/?k=" + secret}],
        "provider_meta": {"extras": {"answers": [{"text": "said " + secret}], "by " + secret: 1}},
    }
    RedisCache(state, [secret]).set(("search", "q"), answer, 60)
    (text,) = state.values
    escaped = json.dumps(secret, ensure_ascii=False)[1:-1]
    assert escaped not in text and secret not in text
    stored = json.loads(text)
    assert stored["items"][0] == {"title": "key ***", "url": "https://example.com/?k=***"}
    assert stored["provider_meta"]["extras"] == {"answers": [{"text": "said ***"}], "by ***": 1}


#: A fetch result holding an image, as fetch stores it in a cache.
STORED_IMAGE = {
    "url": "https://example.org/i.png",
    "final_url": "https://example.org/i.png",
    "status": 200,
    "content_type": "image/png",
    "extractor": "image",
    "title": "",
    "text": "[image]",
    "truncated": False,
    "length": 7,
    "width": 80,
    "height": 60,
    "data": "AAAA",
}


def test_a_stored_downscaled_images_served_size_is_two_numbers_beside_its_image():
    """A downscaled image's result says the size it was served at (``original_width``,
    ``original_height``): read back from a cache, both ints beside the image, or a miss."""
    from websearch_sync.client.answers import valid_page_answer

    image = {**STORED_IMAGE, "original_width": 800, "original_height": 600}
    assert valid_page_answer(image, images=True)
    assert not valid_page_answer({**image, "original_width": "800"}, images=True)
    assert not valid_page_answer({k: v for k, v in image.items() if k != "original_height"}, images=True)
    text = {k: v for k, v in image.items() if k not in ("width", "height", "data")}
    assert not valid_page_answer(text, images=True)  # a served size without an image: planted


@pytest.mark.parametrize(
    "change",
    [
        {"content_type": "text/html"},
        {"content_type": "image/svg+xml"},
        {"content_type": "image/png\r\nX-Injected: 1"},
        {"content_type": "image/png\u202e"},
        {"content_type": ""},
        {"extractor": "readability"},
    ],
)
def test_a_stored_image_of_a_type_fetch_never_returns_is_a_miss_and_no_image_block(change):
    """An image's ``data`` read back from a cache (a file, a shared Redis) goes to the model as an
    image block of its ``content_type``: only the four types fetch returns, under the image extractor
    (a planted ``text/html``, or a type with a line break, became the block's media type, and a model
    API refuses the whole request carrying it)."""
    from websearch_sync import tool
    from websearch_sync.client.answers import valid_page_answer

    image = dict(STORED_IMAGE)
    assert valid_page_answer(image, images=True) and tool.image_block(image, "anthropic") is not None
    assert not valid_page_answer({**image, **change}, images=True)
    if "content_type" in change:  # a tool builds its block of any result holding an image's data
        assert tool.image_block({**image, **change}, "anthropic") is None
