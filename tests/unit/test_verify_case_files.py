"""A case folder with a file missing or of the wrong shape, as a plugin author's first edits leave
one: ``verify`` says which file and what to do, with no traceback. Cases are copies of the offline
stub's recorded cases (fixtures/stub), so nothing here reaches a socket."""

import json
import shutil
from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.testing import replay_fixtures

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture
def fixtures(tmp_path):
    """A fixture folder holding the stub's ``basic`` case (meta file and golden)."""
    folder = tmp_path / "fixtures"
    (folder / "stub").mkdir(parents=True)
    for name in ("basic.meta.json", "basic.expected.json"):
        shutil.copy(FIXTURES / "stub" / name, folder / "stub" / name)
    return folder


def verify(fixtures, capsys):
    status = main(["verify", "--fixtures", str(fixtures)])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_copied_case_passes(fixtures, capsys):
    assert verify(fixtures, capsys)[0] == 0


@pytest.mark.parametrize(
    ("golden", "said"),
    [
        ([], "it is an array, not a JSON object"),
        (None, "it is null, not a JSON object"),
        ({"items": "x"}, "its items is a string ('x'), not a list"),
        ({"items": ["x"]}, "its item 1 is a string ('x'), not a JSON object"),
        ({"error": "WebBlocked"}, "its error is a string ('WebBlocked'), not a JSON object"),
    ],
)
def test_a_golden_of_the_wrong_shape_is_an_error_verdict_saying_what_to_do(fixtures, capsys, golden, said):
    """Before, each was an AttributeError traceback out of verify (status 1), or for null a NEW verdict
    as if the file were not there."""
    (fixtures / "stub" / "basic.expected.json").write_text(json.dumps(golden))
    status, out, err = verify(fixtures, capsys)
    assert status == 1 and "Traceback" not in err
    assert out.startswith("ERROR  stub/basic")
    assert "unreadable golden basic.expected.json: %s" % said in out
    assert "remove it and run `websearch-sync verify --update`" in out


def test_case_files_without_their_meta_file_are_named(fixtures, capsys):
    """Before: 'no fixture cases (*/<case>.meta.json) under ...; record one with ...', the golden left there
    unexplained."""
    (fixtures / "stub" / "basic.meta.json").unlink()
    status, out, err = verify(fixtures, capsys)
    assert status == 2
    assert "found stub/basic.expected.json, with no <case>.meta.json beside them" in err
    assert "put it back, or record one with `websearch-sync record BACKEND QUERY" in err


def test_the_body_of_a_case_whose_meta_file_is_unreadable_is_not_called_a_stray(fixtures, capsys):
    """Its body belongs to that case (named as its body): the verdict says the meta is unreadable, and
    no note says the body 'belongs to no case', as one did."""
    (fixtures / "stub" / "basic.json").write_text("{}")
    (fixtures / "stub" / "basic.2.html").write_text("<html></html>")
    (fixtures / "stub" / "basic.meta.json").write_text("{")
    (fixtures / "stub" / "other.json").write_text("{}")
    status, out, err = verify(fixtures, capsys)
    assert status == 1 and "unreadable meta file" in out
    assert "basic.json belongs to no case" not in out + err
    assert "basic.2.html belongs to no case" not in out + err
    assert "other.json belongs to no case" in out + err  # a file of no case is still named


@pytest.fixture
def mojeek_case(tmp_path):
    """A fixture folder holding a results page Mojeek really served (fixtures/mojeek_html), with its meta
    file and golden; ``(folder, its query)``."""
    folder = tmp_path / "fixtures"
    (folder / "mojeek_html").mkdir(parents=True)
    for suffix in (".meta.json", ".expected.json", ".html"):
        name = "web-search-mcp__mojeek" + suffix
        shutil.copy(FIXTURES / "mojeek_html" / name, folder / "mojeek_html" / name)
    return folder, json.loads((folder / "mojeek_html" / "web-search-mcp__mojeek.meta.json").read_text())["query"]


def test_the_copied_recording_answers_a_replayed_search(mojeek_case):
    folder, query = mojeek_case
    with replay_fixtures(folder, backends=["mojeek_html"]):
        assert ws.search(query, backend="mojeek_html")["items"]


def test_a_replayed_case_whose_body_file_is_missing_says_so_not_the_backends_internal_error(mojeek_case):
    """Before: WebProviderError(internal_error) 'internal error in backend mojeek_html: FileNotFoundError',
    blaming the backend for a file the case lacks (verify said 'cannot read the recording')."""
    folder, query = mojeek_case
    (folder / "mojeek_html" / "web-search-mcp__mojeek.html").unlink()
    with replay_fixtures(folder, backends=["mojeek_html"]), pytest.raises(ws.WebProviderError) as info:
        ws.search(query, backend="mojeek_html")
    assert info.value.detail_code == "no_recorded_case"
    assert info.value.message.startswith(
        "case mojeek_html/web-search-mcp__mojeek cannot answer: its recorded body cannot be read (FileNotFoundError: "
    )


def test_a_replayed_search_whose_case_lost_its_meta_file_names_the_files_left(mojeek_case):
    """Before: 'no case of this backend is recorded: record one with ...', the body and golden there unexplained."""
    folder, query = mojeek_case
    (folder / "mojeek_html" / "web-search-mcp__mojeek.meta.json").unlink()
    with replay_fixtures(folder, backends=["mojeek_html"]), pytest.raises(ws.WebProviderError) as info:
        ws.search(query, backend="mojeek_html")
    assert (
        "found mojeek_html/web-search-mcp__mojeek.expected.json, mojeek_html/web-search-mcp__mojeek.html, with no"
        " <case>.meta.json beside them" in info.value.message
    )


def test_a_case_without_its_golden_is_new_and_verify_says_how_to_write_it(fixtures, capsys):
    """Before: 'NEW', the counts and exit 1, with no next step."""
    (fixtures / "stub" / "basic.expected.json").unlink()
    status, out, err = verify(fixtures, capsys)
    assert status == 1 and out.startswith("NEW    stub/basic")
    assert err == (
        "hint: `websearch-sync verify --fixtures %s --update` writes the goldens of the NEW cases from their replay;"
        " review the goldens with your VCS diff\n" % fixtures
    )
    assert main(["verify", "--fixtures", str(fixtures), "--update"]) == 0
    assert verify(fixtures, capsys)[0] == 0


def test_a_drifted_case_gets_the_hint_and_a_passing_or_json_run_none(fixtures, capsys):
    golden = fixtures / "stub" / "basic.expected.json"
    assert verify(fixtures, capsys)[2] == ""  # all PASS: no hint
    golden.write_text(json.dumps(dict(json.loads(golden.read_text()), items=[])))
    status, out, err = verify(fixtures, capsys)
    assert status == 1 and out.startswith("DRIFT  stub/basic")
    assert "rewrites the goldens of the DRIFT cases once each diff above is a change you meant" in err
    assert main(["verify", "--fixtures", str(fixtures), "--json"]) == 1
    assert capsys.readouterr().err == ""  # --json: one JSON object on stdout, nothing said besides
