"""A new user's walk through the cache: bad paths are refused, TTLs do what the docs say,
and a corrupt cache file fails no search (a locked one: tests/reliability/test_cache_deadline.py,
where real time is the subject)."""

import logging
import threading

import pytest
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.cli import main

# -- bad paths -----------------------------------------------------------------------------------


def bad_paths(tmp_path):
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("hello, I am a text file and not a database\n" * 20)
    return {
        "missing folder": str(tmp_path / "no" / "such" / "folder" / "cache.sqlite3"),
        "not a database": str(not_a_database),
        "a folder": str(tmp_path),
    }


@pytest.mark.parametrize("case", ["missing folder", "not a database", "a folder"])
def test_a_bad_cache_path_is_invalid_input_at_construction(tmp_path, case):
    path = bad_paths(tmp_path)[case]
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=ws.Settings(), cache_path=path)
    assert info.value.detail_code == "bad_cache_path" and path in info.value.message


@pytest.mark.parametrize("case", ["missing folder", "not a database"])
def test_a_bad_cache_path_exits_2_in_the_cli(tmp_path, capsys, case):
    assert main(["search", "q", "--cache-path", bad_paths(tmp_path)[case]]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: InvalidInput/bad_cache_path: ") and "Traceback" not in err


EMPTY = "cache_path is empty: give a file path, or leave it unset to keep no cache file"


def test_an_empty_cache_path_is_refused_not_read_as_no_cache():
    """``--cache-path "$CACHE"`` with ``CACHE`` unset, or ``cache_path=os.environ.get("CACHE", "")``:
    the empty path kept no file and said nothing, a cache the user asked for silently gone."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=ws.Settings(), cache_path="")
    assert (info.value.detail_code, info.value.message) == ("bad_cache_path", EMPTY)


@pytest.mark.parametrize("command", [["search", "q", "-b", "stub"], ["mcp"]])
def test_an_empty_cache_path_exits_2_in_the_cli(capsys, command):
    assert main([*command, "--cache-path", ""]) == 2
    assert capsys.readouterr().err == "error: InvalidInput/bad_cache_path: %s\n" % EMPTY


def test_a_new_file_in_an_existing_folder_is_fine(tmp_path):
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=str(tmp_path / "new.sqlite3")) as client:
        client.search("q")
        assert client.search("q")["provider_meta"]["cached"] is True


# -- TTLs ----------------------------------------------------------------------------------------


def test_a_per_call_ttl_caches_although_the_client_default_is_zero():
    with ws.SearchClient("stub", settings=ws.Settings(), cache_ttl_s=0) as client:
        assert client.search("q", cache_ttl_s=60)["provider_meta"]["cached"] is False
        assert client.search("q", cache_ttl_s=60)["provider_meta"]["cached"] is True
        assert client.search("q")["provider_meta"]["cached"] is False  # the default (0) still bypasses the cache


def test_a_per_call_ttl_reaches_the_file_too(tmp_path):
    db = str(tmp_path / "c.sqlite3")
    with ws.SearchClient("stub", settings=ws.Settings(), cache_ttl_s=0, cache_path=db) as client:
        client.search("q", cache_ttl_s=60)
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=db) as other:
        assert other.search("q")["provider_meta"]["cached"] is True


def test_a_hit_from_the_file_lives_no_longer_in_memory_than_on_disk(tmp_path):
    db = str(tmp_path / "c.sqlite3")
    clock = FakeClock()
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=db, clock=clock) as writer:
        writer.search("q", cache_ttl_s=10)
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=db, cache_ttl_s=3600, clock=clock) as reader:
        assert reader.search("q")["provider_meta"]["cached"] is True  # from the file, now also in memory
        clock.advance(5)
        assert reader.search("q")["provider_meta"]["cached"] is True
        clock.advance(6)  # the disk entry has expired: so has its memory copy
        assert reader.search("q")["provider_meta"]["cached"] is False


def test_memory_entries_expire_on_the_clients_clock():
    clock = FakeClock()
    with ws.SearchClient("stub", settings=ws.Settings(), cache_ttl_s=30, clock=clock) as client:
        client.search("q")
        clock.advance(29)
        assert client.search("q")["provider_meta"]["cached"] is True
        clock.advance(2)
        assert client.search("q")["provider_meta"]["cached"] is False


# -- a locked or corrupt file degrades -------------------------------------------------------------


def test_a_cache_file_corrupted_while_in_use_does_not_fail_searches(tmp_path, caplog):
    db = tmp_path / "c.sqlite3"
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=str(db)) as client:
        for i in range(50):
            client.search("query %d" % i)
        client._cache.memory.clear()
        for path in tmp_path.iterdir():  # scribble over everything after the header
            data = bytearray(path.read_bytes())
            data[100:] = b"\xa5" * (len(data) - 100)
            path.write_bytes(bytes(data))
        answers = []
        with caplog.at_level(logging.WARNING, logger="websearch_sync"):
            # a thread of its own: a connection of its own, which reads the file as it is now
            # (the page cache of the one that wrote it would hide the damage)
            reader = threading.Thread(target=lambda: answers.extend(client.search("query 3") for _ in range(2)))
            reader.start()
            reader.join()
    assert len(answers) == 2 and all(answer["items"] for answer in answers)
    assert "cache" in caplog.text.lower()


def test_a_cache_path_under_a_file_says_that_its_folder_is_a_file(tmp_path):
    """``notes.txt/cache.sqlite3``: the message said the folder ``notes.txt`` "does not exist",
    though it is right there, a file."""
    notes = tmp_path / "notes.txt"
    notes.write_text("a file\n")
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=ws.Settings(), cache_path=str(notes / "cache.sqlite3"))
    assert info.value.detail_code == "bad_cache_path"
    assert "its folder %s is a file" % notes in info.value.message
