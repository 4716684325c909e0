"""``websearch-sync fetch README.md``: a file in the current folder, typed as a newcomer types it.

Before: ``.md`` being a real top-level domain, the refusal suggested ``https://README.md/``, a web
address the user never meant. The command line, which knows the current folder, says the argument
is a local file when it names one on disk (the library, which may run anywhere, reads only the text);
a name no file has keeps its suggestion of a host."""

import pytest

from websearch_sync.cli import main

LOCAL = "error: InvalidInput/bad_url: only http and https URLs can be fetched, got %r (a local file: fetch reads web pages)\n"


@pytest.mark.parametrize("typed", ["README.md", "docs/cli.md", "page.html", "docs"])
def test_an_existing_local_path_is_refused_as_a_local_file(tmp_path, monkeypatch, capsys, typed):
    (tmp_path / "docs").mkdir()
    for name in ("README.md", "docs/cli.md", "page.html"):
        (tmp_path / name).write_text("# x\n")
    monkeypatch.chdir(tmp_path)
    assert main(["fetch", typed]) == 2
    err = capsys.readouterr().err
    assert err == LOCAL % typed
    assert "did you mean" not in err


def test_a_name_no_file_has_keeps_the_suggestion_of_a_host(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["fetch", "README.md"]) == 2
    assert capsys.readouterr().err == (
        "error: InvalidInput/bad_url: only http and https URLs can be fetched, got 'README.md'"
        " (did you mean 'https://README.md/'?)\n"
    )


def test_a_url_with_a_scheme_is_not_read_as_a_path(tmp_path, monkeypatch, capsys):
    """A folder named ``htps:`` holding ``example.com`` does not make ``htps://example.com`` a file."""
    (tmp_path / "htps:" / "example.com").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert main(["fetch", "htps://example.com"]) == 2
    assert "(did you mean 'https://example.com'?)" in capsys.readouterr().err
