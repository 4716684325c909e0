"""Fixtures are checked out on Windows and macOS too (a plugin author's laptop, a CI matrix):
``record`` wrote ``con.json`` (a device name on Windows, whatever follows its dot: the checkout
fails on that file) for ``--name con`` or the query "CON", and ``Rust.meta.json`` beside
``rust.meta.json`` (one file where letter case is ignored); ``verify`` said nothing of either."""

import io
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.contract import recording
from websearch_sync.contract.cases import unportable_name
from websearch_sync.contract.recording import case_name_for, record_case

STUB_CASE = Path(__file__).resolve().parents[2] / "fixtures" / "stub" / "basic"


@pytest.fixture
def no_search(monkeypatch):
    monkeypatch.setattr(recording, "_capture", lambda *a, **k: pytest.fail("searched before checking the name"))


@pytest.mark.parametrize("name", ["con", "NUL", "aux.1", "com1", "lpt9.old"])
def test_a_device_name_is_refused_before_the_search(tmp_path, no_search, name):
    with pytest.raises(ws.InvalidInput) as caught:
        record_case("stub", "q", fixtures_dir=tmp_path, name=name)
    assert caught.value.detail_code == "bad_case_name"
    assert "is a device name on Windows" in caught.value.message


@pytest.mark.parametrize(
    ("name", "device"),
    [
        ("con ", "CON"),  # Windows drops the spaces before the first dot
        ("nul .x", "NUL"),
        ("COM\u00b9", "COM\u00b9"),  # superscript digits name ports too
        ("lpt\u00b3.json", "LPT\u00b3"),
        ("CONIN$", "CONIN$"),
        ("conout$.meta", "CONOUT$"),
        ("clock$", "CLOCK$"),
    ],
)
def test_every_spelling_windows_reads_as_a_device_is_noted(name, device):
    """Case files already on disk (``record``'s own names cannot hold a space, ``$`` or ``\u00b9``)."""
    assert unportable_name(name) == "%s is a device name on Windows, where its files cannot be written" % device


@pytest.mark.parametrize("name", ["rust.", "console", "com10", "con-case", "clock"])
def test_a_name_only_like_a_device_is_portable(name):
    assert unportable_name(name) is None


@pytest.mark.parametrize(("query", "name"), [("CON", "con-case"), ("com 1", "com-1"), ("console", "console")])
def test_a_name_from_the_query_is_never_a_device_name(query, name):
    assert case_name_for(query) == name


def test_a_name_differing_only_in_letter_case_is_refused(tmp_path, no_search):
    (tmp_path / "stub").mkdir()
    (tmp_path / "stub" / "rust.meta.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ws.InvalidInput) as caught:
        record_case("stub", "q", fixtures_dir=tmp_path, name="Rust")
    assert caught.value.detail_code == "case_exists"
    assert "differs from the case rust" in caught.value.message


def test_verify_notes_the_names_a_checkout_cannot_hold(tmp_path):
    folder = tmp_path / "stub"
    folder.mkdir()
    for name in ("con", "basic", "Basic"):
        for suffix in (".meta.json", ".expected.json"):
            shutil.copy(str(STUB_CASE) + suffix, folder / (name + suffix))
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["verify", "--fixtures", str(tmp_path)]) == 0  # notes, not verdicts
    notes = [line for line in out.getvalue().splitlines() if line.startswith("note:")]
    assert notes == [
        "note: stub/con: CON is a device name on Windows, where its files cannot be written",
        "note: stub/Basic and stub/basic differ only in letter case: one file on Windows and macOS",
    ]


def test_a_line_break_in_a_case_name_forges_no_verdict_line(tmp_path):
    """A CI job reading ``verify``'s lines met a file named ``x\\nPASS   stub-fake.meta.json`` as a
    passing case of its own: the name is shown with its line break escaped."""
    folder = tmp_path / "stub"
    folder.mkdir()
    shutil.copy(str(STUB_CASE) + ".meta.json", folder / "x\nPASS   stub-fake.meta.json")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["verify", "--fixtures", str(tmp_path)]) == 1  # NEW: no golden
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("NEW    stub/x\\nPASS   stub-fake  "), lines
    assert not any(line.startswith("PASS") for line in lines), lines
