"""The result shapes are types a user's checker sees: a misspelt key or a wrong fixed value
fails type checking, the right ones pass, and the ``Literal`` types name the values the calls
accept at run time."""

import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from websearch_sync.client.strategies import STRATEGIES
from websearch_sync.extract.article import EXTRACT_MODES
from websearch_sync.models import SAFE_SEARCH_LEVELS, TIME_RANGES, ExtractMode, SafeSearch, Strategy, TimeRange

ROOT = Path(__file__).resolve().parents[2]

USER_SCRIPT = """\
import websearch_sync as ws

response = ws.search("q")
for item in response["items"]:
    print(item["ulr"])
page = ws.fetch("https://example.com/", extract_mode="markdown")
print(page["final_url"], response["provider_meta"]["provider_name"], item["rank"] + 1)
ws.search("q", time_range="weak")
with ws.SearchClient(strategy="merge") as client:
    client.fetch("https://example.com/", extract_mode="html")
"""


def test_a_users_script_with_a_misspelt_key_fails_type_checking(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    script = tmp_path / "user_script.py"
    script.write_text(USER_SCRIPT, encoding="utf-8")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n", encoding="utf-8")  # not the project's own (strict, over the package)
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(config),
            "--follow-imports=silent",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--no-error-summary",
            "--hide-error-context",
            str(script),
        ],
        cwd=tmp_path,
        env={"MYPYPATH": str(ROOT), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = [line.split(": error: ", 1) for line in checked.stdout.splitlines() if ": error: " in line]
    by_line = {int(where.rsplit(":", 1)[1]): message for where, message in errors}
    assert sorted(by_line) == [5, 8, 10], checked.stdout + checked.stderr
    assert 'TypedDict "SearchItem" has no key "ulr"' in by_line[5]
    assert '"time_range"' in by_line[8] and "Literal['weak']" in by_line[8]
    assert '"extract_mode"' in by_line[10] and "Literal['html']" in by_line[10]


@pytest.mark.parametrize(
    "literal, accepted",
    [(TimeRange, TIME_RANGES), (SafeSearch, SAFE_SEARCH_LEVELS), (ExtractMode, EXTRACT_MODES), (Strategy, STRATEGIES)],
    ids=["time_range", "safe_search", "extract_mode", "strategy"],
)
def test_literal_types_name_the_values_the_calls_accept(literal: object, accepted: tuple) -> None:
    assert get_args(literal) == tuple(accepted)
