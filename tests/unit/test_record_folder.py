"""``record --fixtures DIR`` where no case can be written (a file, a folder that cannot be made)
is one error line naming the folder, exit 2, before the live search (which it would waste);
it was a ``NotADirectoryError`` traceback after the search."""

import json
from pathlib import Path

import pytest
from recorded_exchanges import json_exchange

import websearch_sync as ws
from websearch_sync.backends import JsonApiEngine, RequestSpec, SearchParams, register
from websearch_sync.cli import main
from websearch_sync.contract import recording
from websearch_sync.contract.cases import load_case, run_case
from websearch_sync.contract.recording import Exchange, record_case
from websearch_sync.net.wire import WireRequest

ROOT = Path(__file__).resolve().parents[2]


def test_record_into_a_file_is_refused_before_the_search(tmp_path, monkeypatch):
    blocker = tmp_path / "fixtures"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setattr(
        "websearch_sync.contract.recording._capture", lambda *a, **k: pytest.fail("searched before checking the folder")
    )
    with pytest.raises(ws.InvalidInput) as caught:
        record_case("stub", "q", fixtures_dir=blocker)
    assert caught.value.detail_code == "bad_arguments"
    assert caught.value.message == "cannot write the case under %s: %s is not a folder" % (blocker, blocker)


def test_the_command_says_it_in_one_line(tmp_path, capsys):
    blocker = tmp_path / "fixtures"
    blocker.write_text("not a folder", encoding="utf-8")
    assert main(["record", "stub", "q", "--fixtures", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "error: InvalidInput/bad_arguments: cannot write the case under %s: %s is not a folder" % (
        blocker,
        blocker,
    )


def test_verify_of_a_file_says_it_is_not_a_folder(tmp_path, capsys):
    """It said the folder "does not exist", of a file that does."""
    blocker = tmp_path / "fixtures"
    blocker.write_text("not a folder", encoding="utf-8")
    assert main(["verify", "--fixtures", str(blocker)]) == 2
    assert (
        "error: InvalidInput/no_cases: fixture folder %s is a file, not a folder" % blocker in capsys.readouterr().err
    )


def test_a_folder_that_cannot_be_made_after_all_is_the_same_error(tmp_path, monkeypatch):
    """/proc looks writable to root and refuses the folder: refused as the check refuses."""
    from pathlib import Path

    def refuse(self, *args, **kwargs):
        raise FileNotFoundError(2, "No such file or directory", str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)
    with pytest.raises(ws.InvalidInput) as caught:
        record_case("stub", "q", fixtures_dir=tmp_path / "fixtures")
    assert caught.value.detail_code == "bad_arguments"
    assert caught.value.message.startswith("cannot write the case under %s: [Errno 2]" % (tmp_path / "fixtures"))


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["verify", "--fixtures", "{dir}/none"], "fixture folder {dir}/none does not exist; "),
        (["verify", "--fixtures", "{dir}"], "no fixture cases (*/<case>.meta.json) under {dir}; "),
        (
            ["verify", "--fixtures", "{dir}", "--backend", "brave"],
            "no fixture cases of backend brave (*/<case>.meta.json) under {dir}; ",
        ),
    ],
)
def test_verify_with_nothing_recorded_says_how_to_record(tmp_path, capsys, argv, said):
    """What a plugin author's first ``verify`` (and the kit's ``recorded_cases`` check) meets before
    anything was recorded: it named the folder and nothing to run."""
    folder = tmp_path / "my fixtures"
    folder.mkdir()
    argv = [arg.format(dir=folder) for arg in argv]
    backend = argv[-1] if "--backend" in argv else "BACKEND"
    assert main(argv) == 2
    record = 'record one with `websearch-sync record %s QUERY --fixtures "%s"`' % (backend, argv[2])
    assert capsys.readouterr().err == "error: InvalidInput/no_cases: %s%s\n" % (said.format(dir=folder), record)


def test_a_replayed_search_with_no_case_of_its_backend_says_how_to_record_one(tmp_path):
    from websearch_sync.testing import replay_fixtures

    with replay_fixtures(tmp_path, backends=["brave"]), pytest.raises(ws.WebProviderError) as missing:
        ws.search("rust async", backend="brave")
    assert missing.value.detail_code == "no_recorded_case"
    assert missing.value.message == (
        "no recorded case of brave for query 'rust async' (no case of this backend is recorded: record one with "
        '`websearch-sync record brave "rust async" --fixtures %s`)' % tmp_path
    )


def test_record_names_the_meta_file_to_complete_by_its_path_and_key(tmp_path, capsys):
    """It said 'add a "checked" line to q.meta.json': a file name without its folder, and a "line"
    of a JSON file whose key and value were left to guess (the contract suite asks for that key)."""
    assert main(["record", "stub", "q", "--fixtures", str(tmp_path)]) == 0
    meta = tmp_path / "stub" / "q.meta.json"
    assert meta.is_file()
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == 'review the golden against the page, then say what you compared in %s: "checked": "..."' % meta


def test_a_replayed_search_of_another_query_names_the_recorded_ones_and_how_to_record_it(tmp_path):
    """One of this project's brave cases copied into the folder, then a news search of a query no
    case holds: the recorded query, and the command recording this one, its vertical included."""
    from websearch_sync.testing import replay_fixtures

    case = "brave-api__minimal_trimmed"
    (tmp_path / "brave").mkdir()
    for path in (ROOT / "fixtures" / "brave").glob(case + ".*"):
        (tmp_path / "brave" / path.name).write_bytes(path.read_bytes())
    recorded = json.loads((tmp_path / "brave" / (case + ".meta.json")).read_text(encoding="utf-8"))["query"]
    with replay_fixtures(tmp_path, backends="brave"), pytest.raises(ws.WebProviderError) as missing:
        ws.search("tokio runtime", backend="brave")
    assert missing.value.message == (
        "no recorded case of brave for query 'tokio runtime' (recorded queries: %r; or record one with "
        '`websearch-sync record brave "tokio runtime" --fixtures %s`)' % (recorded, tmp_path)
    )
    with replay_fixtures(tmp_path, backends="brave"), pytest.raises(ws.WebProviderError) as missing:
        ws.search("tokio runtime", backend="brave", vertical="news")
    assert missing.value.message == (  # the web case's query is no news query (test_replay_names_the_vertical)
        "no recorded case of brave for query 'tokio runtime' (no news case of this backend is recorded: record one "
        'with `websearch-sync record brave "tokio runtime" --fixtures %s --vertical news`)' % tmp_path
    )


def test_the_record_command_for_a_query_starting_with_a_dash_runs(tmp_path, capsys):
    """``websearch-sync record stub -x --fixtures DIR`` was suggested for the query ``-x``: argparse
    reads ``-x`` as a flag and refuses the line. The query now comes last, after ``--``."""
    import shlex

    from websearch_sync.contract.cases import record_hint

    hint = record_hint(tmp_path, "stub", "-x y", "news")
    assert hint == 'record one with `websearch-sync record stub --fixtures %s --vertical news -- "-x y"`' % tmp_path
    argv = shlex.split(hint.split("`")[1])[1:]
    assert main(argv) == 0, capsys.readouterr().err
    assert json.loads(next((tmp_path / "stub").glob("*.meta.json")).read_text(encoding="utf-8"))["query"] == "-x y"


def test_the_record_command_is_quoted_as_the_command_lines_hints_quote(tmp_path):
    """The command in a replay's ``no_recorded_case`` was quoted by ``shlex`` (``'it'"'"'s'``, single quotes
    PowerShell reads otherwise), the command line's own hints by ``shell_quote``: one quoting for both."""
    from websearch_sync.contract.cases import record_hint
    from websearch_sync.shellwords import shell_quote

    folder = tmp_path / "my fixtures"
    hint = record_hint(folder, "brave", "it's")
    assert hint == "record one with `websearch-sync record brave %s --fixtures %s`" % (
        shell_quote("it's"),
        shell_quote(str(folder)),
    )
    assert '"it\'s"' in hint


def test_verify_of_one_backend_finds_its_cases_in_a_folder_of_another_name(tmp_path, capsys):
    """A plugin author kept their cases in ``tests/fixtures/acme-search/``: ``verify`` replayed them,
    ``replay_fixtures`` answered from them, but ``verify --backend acme`` said "no fixture cases under
    tests/fixtures/acme": it read the folder's name, the others the backend the meta file names."""
    assert main(["record", "stub", "hello world", "--fixtures", str(tmp_path)]) == 0
    (tmp_path / "stub").rename(tmp_path / "offline-cases")
    capsys.readouterr()
    assert main(["verify", "--fixtures", str(tmp_path), "--backend", "stub"]) == 0
    assert capsys.readouterr().out.startswith("PASS   stub/hello-world")


def test_verify_of_one_backend_notes_the_orphans_beside_its_cases_in_a_folder_of_another_name(tmp_path, capsys):
    """``verify --backend`` chose the cases by the backend their meta files name, but noted the files
    belonging to no case by the folder's name: an orphan beside ``stub``'s cases in another folder
    went unsaid, one in a folder named ``stub`` holding no case of it was said."""
    assert main(["record", "stub", "hello world", "--fixtures", str(tmp_path)]) == 0
    (tmp_path / "stub").rename(tmp_path / "offline-cases")
    (tmp_path / "offline-cases" / "left.json").write_text("{}", encoding="utf-8")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "left.json").write_text("{}", encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", "--fixtures", str(tmp_path), "--backend", "stub"]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: ")]
    assert notes == ["note: %s belongs to no case" % (tmp_path / "offline-cases" / "left.json")]


def test_verify_notes_what_a_cases_provenance_lacks(tmp_path, capsys):
    """What each provenance must name (docs/contract.md) was checked by this project's contract suite
    only: a plugin author's ``synthetic`` case without its ``why`` passed ``verify`` without a word."""
    assert main(["record", "stub", "hello world", "--fixtures", str(tmp_path)]) == 0
    meta_path = tmp_path / "stub" / "hello-world.meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    del meta["provenance"]["why"]
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", "--fixtures", str(tmp_path)]) == 0  # a note, not a verdict
    assert (
        "note: stub/hello-world: a synthetic case must say why no recording covers it (provenance.why)\n"
        in capsys.readouterr().out
    )


class _TwoPageEngine(JsonApiEngine):
    """Sends the query alone; its answer may come after a redirect with a body of its own."""

    name = "two_bodies"
    summary = "a redirect, then the answer"
    default_endpoint = "https://two.example/api"
    results_at = "hits"
    result_fields = {"title": "name", "url": "link"}

    def build_request(self, params: SearchParams) -> RequestSpec:
        """The query."""
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.query})


def test_a_cases_numbered_bodies_never_overwrite_another_cases_body(tmp_path, monkeypatch):
    """A case of two bodies writes ``<name>.1.json`` and ``<name>.2.json``: recorded as ``rust``
    beside a case named ``rust.1``, it wrote over that case's ``rust.1.json``, which then replayed
    the other case's answer."""
    url = "https://two.example/api?q=rust"
    register(_TwoPageEngine)  # undone after the test
    first = {"hits": [{"name": "First", "link": "https://first.example/"}]}
    monkeypatch.setattr(recording, "_capture", lambda *args: ({"items": []}, [json_exchange(url, first)]))
    assert record_case("two_bodies", "rust", name="rust.1", fixtures_dir=tmp_path).ok
    kept = (tmp_path / "two_bodies" / "rust.1.json").read_bytes()
    moved = Exchange(
        request=WireRequest("GET", url),
        status=302,
        headers={"Location": "/api?q=rust&v=2", "Content-Type": "application/json"},
        url=url,
        body=bytearray(b'{"moved": "/api?q=rust&v=2"}'),
        complete=True,
    )
    second = json_exchange("https://two.example/api?q=rust&v=2", {"hits": []})
    monkeypatch.setattr(recording, "_capture", lambda *args: ({"items": []}, [moved, second]))
    assert record_case("two_bodies", "rust", fixtures_dir=tmp_path).ok
    assert (tmp_path / "two_bodies" / "rust.1.json").read_bytes() == kept
    assert run_case(load_case(tmp_path / "two_bodies" / "rust.1.meta.json")).status == "PASS"
    assert run_case(load_case(tmp_path / "two_bodies" / "rust.meta.json")).status == "PASS"


def test_a_replayed_search_checks_its_inputs_before_it_looks_for_a_recorded_case(tmp_path):
    """A bad option value said ``no_recorded_case`` (the case lookup ran first): it is the option's
    own refusal, as on a live search, whether or not a case of the query is recorded."""
    from websearch_sync.testing import replay_fixtures

    with replay_fixtures(tmp_path, backends="wikipedia"), pytest.raises(ws.InvalidInput) as refused:
        ws.search("rust async", backend="wikipedia", wiki="Simple English")
    assert refused.value.detail_code == "bad_wiki"


def test_a_backends_folder_given_as_the_fixtures_folder_is_named_with_the_folder_above_it(tmp_path, capsys):
    """A plugin author gave ``--fixtures tests/fixtures/demo``, the folder ``record`` wrote the cases in:
    ``verify`` said there were no cases and to record one ``--fixtures tests/fixtures/demo`` (it would write
    ``demo/demo/``), and ``replay_fixtures`` said the same of "no case of this backend is recorded"."""
    from websearch_sync.testing import replay_fixtures

    case = "brave-api__minimal_trimmed"
    folder = tmp_path / "brave"
    folder.mkdir()
    for path in (ROOT / "fixtures" / "brave").glob(case + ".*"):
        (folder / path.name).write_bytes(path.read_bytes())
    said = "%s holds case files itself, as a backend's folder does: give the folder above it, %s" % (folder, tmp_path)
    assert main(["verify", "--fixtures", str(folder)]) == 2
    err = capsys.readouterr().err
    assert said in err and "record one" not in err
    with replay_fixtures(folder, backends="brave"), pytest.raises(ws.WebProviderError) as missing:
        ws.search("tokio runtime", backend="brave")
    assert said in missing.value.message and "no case of this backend is recorded" not in missing.value.message
    assert main(["verify", "--fixtures", str(tmp_path)]) == 0  # the folder above it replays the case


def test_record_into_a_backends_folder_is_refused_before_the_search(tmp_path, capsys, monkeypatch):
    """``record demo q --fixtures tests/fixtures/demo`` wrote ``tests/fixtures/demo/demo/q.*``, a case
    neither ``verify --fixtures tests/fixtures`` (``*/<case>.meta.json``) nor the folder given replays."""
    assert main(["record", "stub", "first", "--fixtures", str(tmp_path)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(
        "websearch_sync.contract.recording._capture", lambda *a, **k: pytest.fail("searched before checking the folder")
    )
    folder = tmp_path / "stub"
    assert main(["record", "stub", "second", "--fixtures", str(folder)]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: InvalidInput/bad_arguments: cannot write the case under %s: %s holds case files itself, as a"
        " backend's folder does: give the folder above it, %s (cases are read as <fixtures>/<backend>/<case>.meta.json)"
        % (folder, folder, tmp_path)
    )
    assert not (folder / "stub").exists()
