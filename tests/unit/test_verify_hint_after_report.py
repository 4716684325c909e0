"""``websearch-sync verify`` in a log (stdout and stderr to one pipe, as CI keeps them): its hint,
on stderr, came before the report on stdout, which a pipe buffers to the end, so "once each diff
above is a change you meant" stood above the verdicts. The report is flushed before the hint. Run in
a fresh interpreter: the pipe, not pytest's capture, is what buffers."""

import shutil
import subprocess
import sys
from pathlib import Path

CASE = Path(__file__).resolve().parents[2] / "fixtures" / "brave" / "brave-api__minimal_trimmed"


def test_the_hint_of_a_new_case_comes_after_the_report_in_one_pipe(tmp_path):
    (tmp_path / "brave").mkdir()
    for path in CASE.parent.glob(CASE.name + ".*"):
        if not path.name.endswith(".expected.json"):  # no golden: the case is NEW
            shutil.copy(path, tmp_path / "brave" / path.name)
    done = subprocess.run(
        [sys.executable, "-m", "websearch_sync", "verify", "--fixtures", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
        check=False,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and lines[0].startswith("NEW    brave/%s" % CASE.name), done.stdout
    assert lines[-1].startswith("hint: `websearch-sync verify --fixtures"), done.stdout
