"""``record``, ``verify --backend`` and ``check-live`` work on one backend: a name that is no
registered backend (``auto``, a comma list, another spelling) is ``unknown_backend``, exit 2."""

import json
from pathlib import Path

import pytest

from websearch_sync.cli import main

FIXTURES = str(Path(__file__).resolve().parents[2] / "fixtures")


@pytest.mark.parametrize("name", ["auto", "ddg_html,bing_html", "DDG_HTML"])
def test_verify_refuses_a_backend_it_cannot_have_cases_of(name, capsys):
    """``verify --backend nope`` suggested "or auto", and ``--backend auto`` (like a comma list or
    ``DDG_HTML``, which search takes) then said "no fixture cases under fixtures/auto"."""
    assert main(["verify", "--fixtures", FIXTURES, "--backend", name]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: InvalidInput/unknown_backend: ") and "or auto" not in err


@pytest.mark.parametrize("command", [["record", "nope", "q"], ["check-live", "nope", "--json"]])
def test_a_one_backend_command_does_not_suggest_auto(command, capsys):
    assert main(command) == 2
    captured = capsys.readouterr()
    assert "unknown backend 'nope'" in captured.err and "or auto" not in captured.err
    if "--json" in command:
        assert json.loads(captured.out)["error"]["detail_code"] == "unknown_backend"
