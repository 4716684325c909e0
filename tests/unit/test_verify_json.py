"""``verify --json`` for a CI job: one JSON object on stdout, each case with its status and the
lines saying what changed (the field named), the counts and the notes; the exit status is the
text report's. A job had to parse the aligned text lines."""

import io
import json
import shutil
from contextlib import redirect_stdout
from pathlib import Path

from websearch_sync.cli import main

CASE = Path(__file__).resolve().parents[2] / "fixtures" / "brave" / "brave-search-python-client__1"


def _verify(*argv: str) -> tuple[int, dict]:
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(["verify", "--json", *argv])
    return status, json.loads(out.getvalue())


def _copy_case(tmp_path: Path, count: str) -> None:
    folder = tmp_path / "brave"
    folder.mkdir()
    for suffix in (".json", ".expected.json"):
        shutil.copy(str(CASE) + suffix, folder / (CASE.name + suffix))
    meta = json.loads(Path(str(CASE) + ".meta.json").read_text(encoding="utf-8"))
    meta["request"]["query_params"]["count"] = count
    (folder / (CASE.name + ".meta.json")).write_text(json.dumps(meta), encoding="utf-8")
    (folder / "stray.txt").write_text("", encoding="utf-8")


def _text_summaries(fixtures: Path) -> dict[str, str]:
    """Each case's verdict line of the text report, after its status and id."""
    out = io.StringIO()
    with redirect_stdout(out):
        main(["verify", "--fixtures", str(fixtures)])
    rows = [line.split(None, 2) for line in out.getvalue().splitlines() if line.startswith(("PASS ", "NEW ", "DRIFT "))]
    return {row[1]: row[2] for row in rows}


def test_a_passing_case(tmp_path):
    _copy_case(tmp_path, "10")
    summary = _text_summaries(tmp_path)["brave/" + CASE.name]
    golden = json.loads(Path(str(CASE) + ".expected.json").read_text(encoding="utf-8"))
    assert summary == "%d items" % len(golden["items"])
    status, report = _verify("--fixtures", str(tmp_path))
    assert status == 0
    assert report["ok"] is True
    assert report["counts"] == {"PASS": 1, "NEW": 0, "DRIFT": 0, "ERROR": 0}
    assert report["provenance"] == {"recorded": 1, "provider-docs": 0, "synthetic": 0}
    assert report["cases"] == [
        {
            "case": "brave/" + CASE.name,
            "status": "PASS",
            "summary": summary,
            "diff": [],
            "golden_updated": False,
        }
    ]
    assert report["notes"] == ["%s belongs to no case" % (tmp_path / "brave" / "stray.txt")]


def test_a_failing_case_names_the_field(tmp_path):
    _copy_case(tmp_path, "20")
    status, report = _verify("--fixtures", str(tmp_path))
    assert (status, report["ok"]) == (1, False)
    (case,) = report["cases"]
    assert case["status"] == "ERROR"
    assert "query parameter count: sent '10', recorded '20'" in case["summary"]


def test_no_cases_is_the_json_error_form(tmp_path):
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["verify", "--json", "--fixtures", str(tmp_path)]) == 2
    assert json.loads(out.getvalue())["error"]["detail_code"] == "no_cases"


def test_update_rewrites_the_goldens_and_says_which(tmp_path):
    """``--update`` with ``--json``: a DRIFT's and a NEW case's goldens are rewritten from their
    replays (``golden_updated``), the exit status is 0, and a second run passes both."""
    _copy_case(tmp_path, "10")
    folder = tmp_path / "brave"
    recorded = json.loads(Path(str(CASE) + ".expected.json").read_text(encoding="utf-8"))
    stale = dict(recorded, items=recorded["items"][1:])  # the golden of an older parser, one item short
    (folder / (CASE.name + ".expected.json")).write_text(json.dumps(stale), encoding="utf-8")
    shutil.copy(str(CASE) + ".json", folder / "newcase.json")
    meta = json.loads((folder / (CASE.name + ".meta.json")).read_text(encoding="utf-8"))
    meta["response"]["body"] = "newcase.json"
    (folder / "newcase.meta.json").write_text(json.dumps(meta), encoding="utf-8")

    status, report = _verify("--fixtures", str(tmp_path), "--update")
    assert (status, report["ok"]) == (0, True)
    assert report["counts"] == {"PASS": 0, "NEW": 1, "DRIFT": 1, "ERROR": 0}
    verdicts = {case["case"]: (case["status"], case["golden_updated"]) for case in report["cases"]}
    assert verdicts == {"brave/" + CASE.name: ("DRIFT", True), "brave/newcase": ("NEW", True)}
    for name in (CASE.name, "newcase"):
        written = json.loads((folder / (name + ".expected.json")).read_text(encoding="utf-8"))
        assert written["items"] == recorded["items"], name

    status, report = _verify("--fixtures", str(tmp_path))
    assert (status, report["counts"]["PASS"]) == (0, 2)
    assert [case["golden_updated"] for case in report["cases"]] == [False, False]
