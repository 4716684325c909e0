"""What ``websearch-sync fetch`` says of a page cut at ``--max-chars``: the flag, in command-line terms.

Before: the note was the fetch tool's, written for a model, ``(truncated to 200 characters: ask a
larger max_chars (at most 200000) for more)``: a Python argument the command line spells
``--max-chars``, and a most that is the tool's alone (``fetch --max-chars 300000`` reads 300000)."""

import pytest

from websearch_sync.cli import main
from websearch_sync.client.search_client import SearchClient
from websearch_sync.errors import counted
from websearch_sync.tool import MAX_FETCH_CHARS, format_results

PAGE = {
    "url": "https://example.com/a",
    "final_url": "https://example.com/a",
    "status": 200,
    "content_type": "text/html",
    "extractor": "article",
    "title": "A page",
    "text": "x" * 200,
    "truncated": True,
    "length": 200,
    "truncated_by": ["max_chars"],
}


@pytest.mark.parametrize("mode", ["markdown", "text"])
def test_a_page_cut_at_max_chars_names_the_flag(capsys, monkeypatch, mode):
    monkeypatch.setattr(SearchClient, "fetch", lambda self, url, **kw: dict(PAGE))
    assert main(["fetch", "https://example.com/a", "--max-chars", "200", "--mode", mode]) == 0
    out = capsys.readouterr().out
    assert "(truncated to 200 characters: a larger --max-chars returns more)\n" in out, out
    assert "max_chars (at most" not in out


def test_a_page_cut_at_a_larger_max_chars_than_the_tools_most_still_says_more_can_be_read(capsys, monkeypatch):
    page = dict(PAGE, length=MAX_FETCH_CHARS + 1)
    monkeypatch.setattr(SearchClient, "fetch", lambda self, url, **kw: page)
    assert main(["fetch", "https://example.com/a", "--max-chars", str(MAX_FETCH_CHARS + 1)]) == 0
    assert "a larger --max-chars returns more)" in capsys.readouterr().out


def test_the_tools_note_is_unchanged():
    assert "(truncated to 200 characters: ask a larger max_chars (at most %d) for more)" % MAX_FETCH_CHARS in (
        format_results(PAGE, untrusted_notice=False)
    )


def test_a_page_cut_at_the_byte_cap_names_the_flag(capsys, monkeypatch):
    """``(cut at the byte cap: only the start of the page was read)`` named no way on, where the command
    line has one: ``--max-bytes``."""
    page = dict(PAGE, truncated_by=["max_bytes"])
    monkeypatch.setattr(SearchClient, "fetch", lambda self, url, **kw: page)
    assert main(["fetch", "https://example.com/a", "--mode", "text"]) == 0
    out = capsys.readouterr().out
    assert "(cut at the byte cap: only the start of the page was read: a larger --max-bytes reads more)\n" in out, out


def test_the_tools_byte_cap_note_is_unchanged():
    page = dict(PAGE, truncated_by=["max_bytes"])
    assert "(cut at the byte cap: only the start of the page was read)\n" in format_results(
        page, untrusted_notice=False
    )


def test_a_page_cut_to_one_character_says_character_not_characters():
    """``web_fetch`` with ``max_chars: 1`` said ``(truncated to 1 characters: ...)``."""
    page = dict(PAGE, text="x", length=1)
    text = format_results(page, untrusted_notice=False)
    assert "(truncated to 1 character: ask a larger max_chars (at most %d) for more)" % MAX_FETCH_CHARS in text, text


def test_the_plural_is_kept_for_more_than_one():
    assert counted(1, "character") == "1 character" and counted(0, "character") == "0 characters"
    assert counted(2, "entry", "entries") == "2 entries"
