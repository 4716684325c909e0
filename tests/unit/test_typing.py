"""The result shapes are types a user's checker sees: a misspelt key or a wrong fixed value
fails type checking, the right ones pass, and the ``Literal`` types name the values the calls
accept at run time."""

import os
import shutil
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
# a batch job's objects, typed as docs/api.md says (imported here: the lines above are numbered)
import copy
from typing import Optional

from websearch_sync.errors import RenewalFailed, error_from_code

page = ws.fetch("https://example.com/a.png", images=True)
pixels: int = page["width"] * page["height"]
encoded: str = page["data"]
notes: list[ws.ErrorInfo] = page.get("errors", []) + news.get("errors", [])
try:
    ws.search("q")
except ws.WebSearchError as error:
    form: ws.ErrorInfo = error.to_dict()
    wait: Optional[float] = error.retry_after
    facts = (error.code, error.retryable, error.status, error.hint, error.errors[0].detail_code, form["detail_code"])
    again: ws.WebSearchError = error_from_code(form["type"], form["message"], errors=form.get("errors", []))
    print(facts, again.message, copy.deepcopy(error).provider, form.get("engine"), wait)
settings: ws.Settings = copy.copy(ws.Settings.from_env()).replace(timeout_ms=1000)
failures: list[tuple[str, BaseException]] = RenewalFailed([]).failures
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


#: The folders of pytest's cache (``config.cache.mkdir``) where mypy keeps its incremental cache:
#: this prefix and :func:`sources_digest`; the most recent few are kept.
MYPY_CACHE = "websearch_mypy-"
KEPT_CACHES = 3


def sources_digest(package: Path, *files: Path) -> str:
    """A digest of the contents (and paths) of the package's Python sources and of ``files``: mypy
    trusts a cached module whose source has the same size and whole-second mtime, so an edit of
    the same size within a second, or a copy that keeps mtimes, would reuse stale results; a cache
    named after the contents starts cold instead."""
    import hashlib

    digest = hashlib.sha1()
    sources = sorted(p for p in package.rglob("*") if p.suffix in (".py", ".pyi") or p.name == "py.typed")
    for path in [*sources, *files]:
        digest.update(str(path.relative_to(package.parent)).encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def mypy_cache_dir(config: pytest.Config) -> str:
    """Where mypy keeps its cache between runs: in pytest's cache folder, named after
    :func:`sources_digest` of the package and this file (its scripts and settings), so a run with
    the same sources analyses nothing again (1.5 s -> 0.2 s of CPU) and any change starts cold.
    With the cache off (``-p no:cacheprovider``) or its folder not creatable (a read-only checkout:
    pytest only warns then), mypy's documented way to write none."""
    cache = getattr(config, "cache", None)
    if cache is None:
        return os.devnull
    try:
        folder = Path(cache.mkdir(MYPY_CACHE + sources_digest(ROOT / "websearch_sync", Path(__file__))))
    except OSError:
        return os.devnull
    older = sorted(folder.parent.glob(MYPY_CACHE + "*"), key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in [p for p in older if p != folder][KEPT_CACHES - 1 :]:
        shutil.rmtree(stale, ignore_errors=True)
    return str(folder)


def test_the_mypy_cache_is_named_after_the_sources_contents_not_their_size_and_mtime(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    source = package / "models.py"
    source.write_text("rank: int\n", encoding="utf-8")
    before = sources_digest(package)
    stat = source.stat()
    source.write_text("rank: str\n", encoding="utf-8")  # the same size, the same mtime
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert sources_digest(package) != before


def test_an_uncreatable_mypy_cache_folder_means_no_cache() -> None:
    class Unwritable:
        def mkdir(self, name: str) -> Path:
            raise FileNotFoundError(2, "No such file or directory", "/proc/" + name)

    class Config:
        cache = Unwritable()

    assert mypy_cache_dir(Config()) == os.devnull  # type: ignore[arg-type]


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
