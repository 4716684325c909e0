"""``websearch_sync.testing.reset()`` (the pytest plugin: before each test) makes every open
client forget what it learnt running: an application's module-level ``SearchClient`` (docs/client.md:
"share one client") carried one test's block ("ddg_html is cooling down ... 600 s left") and
cached answers into every test after it. Its file cache and a shared state are kept."""

import pytest

import websearch_sync as ws
from websearch_sync.testing import fake_results, reset

BLOCK = ws.WebBlocked("wall", detail_code="captcha_required")


def _items(url):
    return [{"title": "T", "url": url}]


def test_an_open_clients_cooldown_is_forgotten():
    with ws.SearchClient("ddg_html", settings=ws.Settings()) as client:
        with fake_results({"ddg_html": BLOCK}), pytest.raises(ws.WebBlocked):
            client.search("q")
        with fake_results({"ddg_html": _items("https://t.example/")}):
            with pytest.raises(ws.WebBlocked, match="cooling down"):
                client.search("q")
            reset()
            assert client.search("q")["items"][0]["url"] == "https://t.example/"


def test_an_open_clients_answers_in_memory_are_forgotten():
    with ws.SearchClient("ddg_html", settings=ws.Settings(), cache_ttl_s=300) as client:
        with fake_results({"ddg_html": _items("https://one.example/")}):
            client.search("q")
        with fake_results({"ddg_html": _items("https://two.example/")}):
            assert client.search("q")["items"][0]["url"] == "https://one.example/"  # cached
            reset()
            assert client.search("q")["items"][0]["url"] == "https://two.example/"


def test_an_open_clients_file_cache_is_kept(tmp_path):
    """The file is the user's (answers meant to outlive the process): reset leaves it."""
    path = tmp_path / "cache.sqlite3"
    with ws.SearchClient("ddg_html", settings=ws.Settings(), cache_path=path) as client:
        with fake_results({"ddg_html": _items("https://one.example/")}):
            client.search("q")
        reset()
        with fake_results({"ddg_html": _items("https://two.example/")}):
            assert client.search("q")["items"][0]["url"] == "https://one.example/"
