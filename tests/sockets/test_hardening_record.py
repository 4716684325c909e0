"""Hardening, part 3: ``record --force`` deletes only the case's own files.

An existing case's meta file names its body file(s); ``--force`` used to delete whatever
path it named, even outside the fixtures folder (``"body": "../../somewhere/file"``).
"""

import json
from pathlib import Path

import pytest

from websearch_sync.cli import main


def _point_body_at(meta_path: Path, body: str) -> None:
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["response"]["body"] = body
    meta_path.write_text(json.dumps(meta), encoding="utf-8")


@pytest.mark.parametrize("where", ["outside", "absolute", "sibling_case", "other_backend"])
def test_force_never_deletes_a_file_outside_the_case(testhtml_server, tmp_path, where):
    fixtures = tmp_path / "fixtures"
    argv = ["record", "testhtml", "rust async", "--fixtures", str(fixtures), "--name", "one"]
    assert main(argv) == 0
    assert main(["record", "testhtml", "rust async", "--fixtures", str(fixtures), "--name", "two"]) == 0
    victim = {
        "outside": tmp_path / "precious.txt",
        "absolute": tmp_path / "elsewhere" / "precious.txt",
        "sibling_case": fixtures / "testhtml" / "two.meta.json",
        "other_backend": fixtures / "otherbackend" / "page.html",
    }[where]
    if not victim.exists():
        victim.parent.mkdir(parents=True, exist_ok=True)
        victim.write_text("keep me", encoding="utf-8")
    before = victim.read_bytes()
    body = {
        "outside": "../../precious.txt",
        "absolute": str(victim),
        "sibling_case": "two.meta.json",
        "other_backend": "../otherbackend/page.html",
    }[where]
    _point_body_at(fixtures / "testhtml" / "one.meta.json", body)
    assert main(argv + ["--force"]) == 0
    assert victim.read_bytes() == before
    assert (fixtures / "testhtml" / "one.meta.json").exists()


def test_force_still_replaces_the_case_s_own_files(testhtml_server, tmp_path):
    argv = ["record", "testhtml", "rust async", "--fixtures", str(tmp_path), "--name", "one"]
    assert main(argv) == 0
    stale = tmp_path / "testhtml" / "one.old.html"
    stale.write_text("<html>old body</html>", encoding="utf-8")
    _point_body_at(tmp_path / "testhtml" / "one.meta.json", "one.old.html")
    assert main(argv + ["--force"]) == 0
    assert not stale.exists()
    assert sorted(p.name for p in (tmp_path / "testhtml").iterdir()) == [
        "one.expected.json",
        "one.html",
        "one.meta.json",
    ]
