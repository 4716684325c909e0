"""``--queries-file -`` reads stdin as UTF-8, as it reads a file: bytes that are not UTF-8 are one
usage error (exit 2) naming the file, not a query per line that fails with a lone surrogate
(``'\\udcff' ... cannot be encoded``); started without stdin (``<&-``) it says so, where it was an
``AttributeError`` traceback and exit 1."""

import io
import json
import sys

from websearch_sync.cli import main
from websearch_sync.cli.queries import end_of_input_keys


def stdin_of(data: bytes) -> io.TextIOWrapper:
    """A stdin holding ``data``, decoded as Python decodes a pipe in the C locale (surrogateescape)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")


def test_stdin_that_is_not_utf8_is_a_usage_error_as_a_file_is(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", stdin_of(b"\xffq\n"))
    assert main(["search", "--queries-file", "-"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: cannot read --queries-file -: "
        "line 1 is not UTF-8 (byte 0xff at byte offset 0: invalid start byte)"
    )


def test_the_line_that_is_not_utf8_is_named(capsys, tmp_path):
    """The codec's "position 15" left a reader of a long file counting bytes; lines end as queries do (CRLF, CR)."""
    (tmp_path / "queries.txt").write_bytes(b"one\r\ntwo\rthree\n\xe9t\xe9\n")
    assert main(["search", "--queries-file", str(tmp_path / "queries.txt")]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: cannot read --queries-file %s: "
        "line 4 is not UTF-8 (byte 0xe9 at byte offset 15: invalid continuation byte)" % (tmp_path / "queries.txt")
    )


def test_utf8_stdin_gives_one_query_a_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", stdin_of("\ufeffcafé\r\nthé\n".encode()))
    assert main(["search", "--queries-file", "-"]) == 0
    assert [json.loads(line)["query"] for line in capsys.readouterr().out.splitlines()] == ["café", "thé"]


def test_without_stdin_the_batch_says_so(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["search", "--queries-file", "-"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: cannot read --queries-file -: the command was started without stdin"
    )


def test_a_lone_cr_ends_a_query_on_stdin_as_in_a_file(monkeypatch, capsys, tmp_path):
    (tmp_path / "queries.txt").write_bytes(b"a\rb\n")
    assert main(["search", "--queries-file", str(tmp_path / "queries.txt")]) == 0
    from_file = [json.loads(line)["query"] for line in capsys.readouterr().out.splitlines()]
    monkeypatch.setattr(sys, "stdin", stdin_of(b"a\rb\n"))
    assert main(["search", "--queries-file", "-"]) == 0
    from_stdin = [json.loads(line)["query"] for line in capsys.readouterr().out.splitlines()]
    assert (from_stdin, from_file) == (["a", "b"], ["a", "b"])


def test_a_byte_order_mark_before_any_line_is_no_part_of_its_query(capsys, tmp_path):
    """Two files saved with a mark, concatenated (``cat a.txt b.txt``): the second query was "\\ufeffb"."""
    (tmp_path / "queries.txt").write_bytes("\ufeffa\n\ufeffb\n".encode())
    assert main(["search", "--queries-file", str(tmp_path / "queries.txt")]) == 0
    assert [json.loads(line)["query"] for line in capsys.readouterr().out.splitlines()] == ["a", "b"]


def test_a_utf16_file_is_named_as_such(monkeypatch, capsys):
    """Windows PowerShell's ``>`` writes UTF-16 with a byte order mark: "line 1 is not UTF-8 (byte 0xff ...)"
    said nothing of what the file is."""
    monkeypatch.setattr(sys, "stdin", stdin_of("a\n".encode("utf-16")))
    assert main(["search", "--queries-file", "-"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: cannot read --queries-file -: it is UTF-16 (its byte order mark says so,"
        " as PowerShell's > writes text): save it as UTF-8"
    )


def test_a_utf32_file_is_named_as_such(monkeypatch, capsys):
    """UTF-32 LE's byte order mark starts with UTF-16 LE's: the file was called UTF-16."""
    monkeypatch.setattr(sys, "stdin", stdin_of("a\n".encode("utf-32")))
    assert main(["search", "--queries-file", "-"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: cannot read --queries-file -: it is UTF-32 (its byte order mark says so):"
        " save it as UTF-8"
    )


def test_the_keys_ending_a_terminals_input_are_the_platforms():
    """The prompt said Ctrl-D on Windows too, whose console ends input with Ctrl-Z then Enter."""
    assert (end_of_input_keys("win32"), end_of_input_keys("linux"), end_of_input_keys("darwin")) == (
        "Ctrl-Z then Enter",
        "Ctrl-D",
        "Ctrl-D",
    )


class TerminalStdin(io.StringIO):
    """A stdin that is a terminal (``isatty``): the queries are typed."""

    def isatty(self):
        return True


def test_queries_typed_at_a_terminal_are_asked_for(monkeypatch, capsys):
    """``--queries-file -`` at a terminal waited without a word, as if it hung."""
    monkeypatch.setattr(sys, "stdin", TerminalStdin("one\n"))
    assert main(["search", "--queries-file", "-"]) == 0
    assert capsys.readouterr().err.splitlines()[0] == (
        "reading queries from the terminal, one a line; end them with Ctrl-D"
    )


def test_a_relative_path_not_found_says_where_it_was_looked_for(capsys, tmp_path, monkeypatch):
    """A batch a scheduler starts runs in another working directory than its author's shell: the
    bare "No such file" left them guessing which folder ``queries.txt`` was looked for in."""
    monkeypatch.chdir(tmp_path)
    assert main(["search", "--queries-file", "queries.txt"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: cannot read --queries-file queries.txt: [Errno 2] No such file or "
        "directory: 'queries.txt' (looked for %s: a relative path is read from the working directory)"
        % (tmp_path / "queries.txt")
    )


def test_an_absolute_path_not_found_is_said_as_given(capsys, tmp_path):
    """An absolute path names its folder already: nothing is added."""
    missing = tmp_path / "queries.txt"
    assert main(["search", "--queries-file", str(missing)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: cannot read --queries-file %s: [Errno 2] No such file or "
        "directory: %r" % (missing, str(missing))
    )
