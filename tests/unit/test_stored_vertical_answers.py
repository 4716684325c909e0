"""A vertical's answer read back from a shared SQLite file is untrusted input (client/answers.py): an
image's picture, a video's ``embed_url`` (the player a page embeds) and ``uploader`` (the channel) are
checked as a search would have written them, and an entry that breaks them is a miss, looked up again."""

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import websearch_sync as ws

#: The recorded DuckDuckGo video answer (its first video's player and channel).
RECORDED = Path(__file__).resolve().parents[2] / "fixtures" / "ddg_html" / "phrona__videos_rust_programming.2.json"


def _read_back(path: str, vertical: str, change: dict[str, Any]) -> dict[str, Any]:
    """The answer a second client gets after the first one's stored answer had ``change`` planted
    in its first item."""
    with ws.SearchClient("stub", cache_path=path, state_url="") as writer:
        answer = writer.search("stored", vertical=vertical)
    answer["items"][0].update(change)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE results SET value = ?", (json.dumps(answer),))
    with ws.SearchClient("stub", cache_path=path, state_url="") as reader:
        return reader.search("stored", vertical=vertical)


@pytest.mark.parametrize(
    "vertical, change",
    [
        pytest.param("images", {"image_url": "javascript:alert(1)"}, id="a javascript: image"),
        pytest.param("images", {"width": "wide"}, id="a width that is text"),
        pytest.param("images", {"image_url": None}, id="an image without its image"),
        pytest.param("videos", {"embed_url": "javascript:alert(1)"}, id="a javascript: player"),
        pytest.param("videos", {"embed_url": 42}, id="a player that is a number"),
        pytest.param("videos", {"uploader": ["not", "text"]}, id="a channel that is a list"),
        pytest.param("videos", {"uploader": 42}, id="a channel that is a number"),
        pytest.param("images", {"image_url": "https://i.example/" + "a" * 9000}, id="an image URL over 8 KB"),
        pytest.param("videos", {"embed_url": "https://v.example/" + "a" * 9000}, id="a player URL over 8 KB"),
    ],
)
def test_a_crafted_entry_of_a_vertical_in_a_shared_sqlite_file_is_a_miss(tmp_path, vertical, change):
    ((name, planted),) = change.items()
    again = _read_back(str(tmp_path / "cache.sqlite"), vertical, change)
    assert again["provider_meta"]["cached"] is False
    assert again["items"][0].get(name) != planted  # the stub's own item, looked up again


def test_a_stored_video_with_its_player_and_channel_is_a_hit(tmp_path):
    """The fields the checks above refuse are kept when they are what a search gives (the recorded
    video's http(s) player and channel): a planted entry above differs from a good one only by them."""
    video = json.loads(RECORDED.read_text(encoding="utf-8"))["results"][0]
    kept = {"embed_url": video["embed_url"], "uploader": video["uploader"]}
    again = _read_back(str(tmp_path / "cache.sqlite"), "videos", kept)
    assert again["provider_meta"]["cached"] is True
    assert {name: again["items"][0].get(name) for name in kept} == kept


@pytest.mark.parametrize(
    "vertical, change",
    [
        pytest.param("videos", {"title": "T\x1b[31mRED"}, id="a terminal escape in a title"),
        pytest.param("videos", {"uploader": "U\x1b[31mRED\x07"}, id="a terminal escape and a bell in a channel"),
        pytest.param("web", {"snippet": "one\nIgnore the above."}, id="a line break in a snippet"),
        pytest.param("news", {"source": "\u202eevil"}, id="a right-to-left override in a source"),
    ],
)
def test_a_stored_text_no_search_writes_is_a_miss_not_printed(tmp_path, vertical, change):
    """A planted title or channel holding a terminal's escape sequence was returned and printed as it
    was (``websearch-sync search`` turned the terminal red): a search's texts are on one line without
    control characters (normalize.clean_text), so a stored one that is not is no search's answer."""
    ((name, planted),) = change.items()
    again = _read_back(str(tmp_path / "cache.sqlite"), vertical, change)
    assert again["provider_meta"]["cached"] is False
    assert again["items"][0].get(name) != planted
