"""The result shapes are types a user's checker sees: a misspelt key or a wrong fixed value
fails type checking, the right ones pass, and the ``Literal`` types name the values the calls
accept at run time."""

import os
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
read = ws.search("q", vertical="news", include_content=True)["items"][0]  # include_content fills them in any vertical
print(read["content"], read["content_by"], images["items"][0]["content"], videos["items"][0]["content_by"])
"""


#: Both scripts are checked in one mypy run (one analysis of the package: ~1.6 s of CPU each):
#: ``--strict`` for the run, and the per-module flags ``--strict`` turns on back at mypy's defaults for
#: ``user_script`` (a user without a config). The package's own modules stay strict, which can only
#: add errors that a default-config user would not see, never hide one.
MYPY_INI = """\
[mypy]

[mypy-user_script]
disallow_any_generics = False
disallow_subclassing_any = False
disallow_untyped_calls = False
disallow_untyped_defs = False
disallow_incomplete_defs = False
check_untyped_defs = False
disallow_untyped_decorators = False
warn_unused_ignores = False
warn_return_any = False
implicit_reexport = True
strict_equality = False
extra_checks = False
"""
SCRIPTS = {"user_script": USER_SCRIPT, "strict_user_script": VERTICAL_SCRIPT}


#: The folder of pytest's cache (``config.cache.mkdir``) where mypy keeps its incremental cache.
MYPY_CACHE = "websearch_mypy"


def mypy_cache_dir(config: pytest.Config) -> str:
    """Where mypy keeps its cache between runs: in pytest's cache folder, so a run after the first
    analyses again only the modules that changed and what depends on them (mypy checks every
    cached module against its source; 1.5 s -> 0.2 s of CPU when nothing changed). With the cache
    off (``-p no:cacheprovider``) mypy's documented way to write none."""
    cache = getattr(config, "cache", None)
    return str(cache.mkdir(MYPY_CACHE)) if cache is not None else os.devnull


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> dict[str, dict[int, str]]:
    """mypy's errors on each user script of :data:`SCRIPTS`, by script and line (line 0: the whole output)."""
    pytest.importorskip("mypy")
    folder = tmp_path_factory.mktemp("typing")
    for name, text in SCRIPTS.items():
        (folder / (name + ".py")).write_text(text, encoding="utf-8")
    config = folder / "mypy.ini"
    config.write_text(MYPY_INI, encoding="utf-8")  # not the project's own (strict, over the package)
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(config),
            "--strict",
            "--follow-imports=silent",
            "--cache-dir",
            mypy_cache_dir(pytestconfig),
            "--no-error-summary",
            "--hide-error-context",
            *(name + ".py" for name in SCRIPTS),
        ],
        cwd=folder,
        env={"MYPYPATH": str(ROOT), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=300,
    )
    by_script: dict[str, dict[int, str]] = {name: {0: checked.stdout + checked.stderr} for name in SCRIPTS}
    for line in checked.stdout.splitlines():
        if ": error: " in line:
            where, message = line.split(": error: ", 1)
            path, number = where.rsplit(":", 1)
            by_script[path[: -len(".py")]][int(number)] = message
    return by_script


def test_a_strict_users_script_reads_each_verticals_own_keys_and_no_other(mypy_errors) -> None:
    by_line = mypy_errors["strict_user_script"]
    assert sorted(by_line) == [0, 5, 9, 13], by_line[0]
    assert 'TypedDict "NewsItem" has no key "imgae_url"' in by_line[5]
    assert 'TypedDict "ImageItem" has no key "duration"' in by_line[9]
    assert 'TypedDict "SearchItem" has no key "image_url"' in by_line[13]


def test_a_users_script_with_a_misspelt_key_fails_type_checking(mypy_errors) -> None:
    by_line = dict(mypy_errors["user_script"])
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
