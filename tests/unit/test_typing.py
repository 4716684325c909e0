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


VERTICAL_SCRIPT = """\
import websearch_sync as ws

news = ws.search("q", vertical="news")
for item in news["items"]:
    print(item["imgae_url"])
    print(item["image_url"], item["source"], item["published_at"], item["rank"] + 1)
with ws.SearchClient() as client:
    images = client.search("q", vertical="images", max_results=30)
print(images["items"][0]["duration"])
print(images["items"][0]["width"] + images["items"][0]["height"], images["items"][0]["image_url"])
videos = ws.search("q", vertical="videos")
print(videos["items"][0]["duration"] + 1, videos["items"][0]["view_count"])
print(ws.search("q")["items"][0]["image_url"])
"""


def _mypy_errors(tmp_path: Path, text: str, *flags: str) -> dict[int, str]:
    """mypy's errors on a user script ``text``, by line."""
    pytest.importorskip("mypy")
    script = tmp_path / "user_script.py"
    script.write_text(text, encoding="utf-8")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n", encoding="utf-8")  # not the project's own (strict, over the package)
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(config),
            *flags,
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
    by_line[0] = checked.stdout + checked.stderr  # for the failure message
    return by_line


def test_a_strict_users_script_reads_each_verticals_own_keys_and_no_other(tmp_path: Path) -> None:
    by_line = _mypy_errors(tmp_path, VERTICAL_SCRIPT, "--strict")
    assert sorted(by_line) == [0, 5, 9, 13], by_line[0]
    assert 'TypedDict "NewsItem" has no key "imgae_url"' in by_line[5]
    assert 'TypedDict "ImageItem" has no key "duration"' in by_line[9]
    assert 'TypedDict "SearchItem" has no key "image_url"' in by_line[13]


def test_a_users_script_with_a_misspelt_key_fails_type_checking(tmp_path: Path) -> None:
    by_line = _mypy_errors(tmp_path, USER_SCRIPT)
    del by_line[0]
    assert sorted(by_line) == [5, 8, 10], by_line
    assert 'TypedDict "SearchItem" has no key "ulr"' in by_line[5]
    assert 'No overload variant of "search"' in by_line[8]  # search() is overloaded by vertical
    assert '"extract_mode"' in by_line[10] and "Literal['html']" in by_line[10]


@pytest.mark.parametrize(
    "literal, accepted",
    [(TimeRange, TIME_RANGES), (SafeSearch, SAFE_SEARCH_LEVELS), (ExtractMode, EXTRACT_MODES), (Strategy, STRATEGIES)],
    ids=["time_range", "safe_search", "extract_mode", "strategy"],
)
def test_literal_types_name_the_values_the_calls_accept(literal: object, accepted: tuple) -> None:
    assert get_args(literal) == tuple(accepted)
