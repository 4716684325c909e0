"""Issue 22.3 / 23.4: one HTML engine path, each engine owning what it knows.

- ``websearch_sync/backends`` lists engines only (a helper module of one engine is named
  after it, ``searxng_reasons``); the plumbing lives in ``websearch_sync/engine``;
- ``net/`` names no search engine and does not import ``extract/``;
- every keyless HTML engine is an :class:`HtmlEngine` and declares its own bot walls;
- cheap checks first: a wall's regexes run only on a page holding one of its substring
  hints, so an ordinary results page costs no Baidu regex (it used to cost ~0.3 ms on
  every Bing/Yahoo/Mojeek answer).
"""

import ast
import dataclasses
import pkgutil
import re
from pathlib import Path

import pytest
from backend_kit import project_backends

import websearch_sync.backends
from websearch_sync.contract.cases import discover
from websearch_sync.engine import registry
from websearch_sync.engine.html_engine import HtmlEngine
from websearch_sync.net.botwall import bot_wall

PACKAGE = Path(websearch_sync.backends.__file__).resolve().parents[1]
FIXTURES = PACKAGE.parent / "fixtures"
ENGINE_WORDS = re.compile(r"duckduckgo|\bddg|baidu|\bbing\b|mojeek|yahoo|wappass|anomaly", re.I)


def test_backends_lists_engines_only():
    modules = [info.name for info in pkgutil.iter_modules(websearch_sync.backends.__path__)]
    engines = {registry.backend_class(name).__module__.rsplit(".", 1)[1] for name in registry.backend_names()}
    others = [
        name for name in modules if name not in engines and not any(name.startswith(engine + "_") for engine in engines)
    ]
    assert not others, "modules of websearch_sync/backends that define no backend: %s" % others


def test_net_names_no_engine_and_does_not_import_extract():
    for path in sorted((PACKAGE / "net").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not [name for name in imported if name.split(".")[-1] == "extract" or ".extract." in "." + name + "."], (
            path.name
        )
    text = (PACKAGE / "net" / "botwall.py").read_text(encoding="utf-8")
    assert ENGINE_WORDS.findall(text) == []


#: Every keyless engine this project ships (``kind = "html"``), from the registry: an engine
#: added later is swept by the tests below without being named in them.
HTML_ENGINES = [name for name in project_backends() if registry.backend_class(name).kind == "html"]


def test_the_keyless_engines_are_found():
    assert {"ddg_html", "ddg_lite", "baidu_html", "bing_html", "yahoo_html", "mojeek_html"} <= set(HTML_ENGINES)


@pytest.mark.parametrize("name", HTML_ENGINES)
def test_every_keyless_engine_is_on_the_one_html_path(name):
    cls = registry.backend_class(name)
    assert issubclass(cls, HtmlEngine)
    for method in ("build_request", "classify", "interpret", "structure_report", "parse"):
        assert getattr(cls, method) is getattr(HtmlEngine, method), "%s overrides %s" % (name, method)


def recorded_walls(name):
    """``(case id, url, body text, Location)`` of each of the engine's cases whose golden is
    ``WebBlocked(captcha_required)``: a recorded wall page, or a redirect to one."""
    for case in discover(FIXTURES, name):
        if case.meta.get("vertical"):  # another engine's case (news, images, videos) under the same name
            continue
        golden = case.meta_path.with_name(case.name + ".expected.json")
        if '"captcha_required"' not in golden.read_text(encoding="utf-8"):
            continue
        response = case.meta["response"]
        body = response.get("body")
        text = (FIXTURES / name / body).read_text(encoding="utf-8") if body else response.get("body_text", "")
        location = (response.get("headers") or {}).get("Location")
        yield case.case_id, case.meta["request"]["url"], text, location


@pytest.mark.parametrize("name", HTML_ENGINES)
def test_each_recorded_wall_is_declared_by_its_engine(name):
    """Every blocked case of an engine is recognised by the walls the engine itself declares."""
    walls = registry.backend_class(name).bot_walls
    for case_id, url, text, location in recorded_walls(name):
        assert bot_wall(url, text, walls, location) is not None, case_id


def test_the_walls_on_record_are_declared():
    declaring = [name for name in HTML_ENGINES if list(recorded_walls(name))]
    assert {"ddg_html", "baidu_html", "bing_html", "mojeek_html"} <= set(declaring)
    assert all(registry.backend_class(name).bot_walls for name in declaring)


class _CountingPattern:
    """A compiled pattern that counts its searches."""

    def __init__(self, pattern, calls):
        self.pattern, self.calls = pattern, calls

    def search(self, text):
        self.calls.append(self.pattern.pattern)
        return self.pattern.search(text)


@pytest.mark.parametrize("folder", HTML_ENGINES)
def test_no_wall_regex_runs_on_an_ordinary_results_page(folder):
    """Walls whose first pattern does not start with a literal (Baidu's alternation) have hints."""
    calls = []
    walls = [
        dataclasses.replace(wall, patterns=tuple(_CountingPattern(p, calls) for p in wall.patterns))
        for wall in registry.bot_walls()
        if wall.hints
    ]
    from websearch_sync.backends.baidu import SECURITY_CHECK

    assert SECURITY_CHECK.hints and SECURITY_CHECK.patterns
    pages = sorted((FIXTURES / folder).glob("*.html"))
    checked = 0
    for path in pages:
        golden = path.with_name(path.name[: -len(".html")] + ".expected.json")
        if golden.exists() and '"items"' in golden.read_text(encoding="utf-8"):
            assert bot_wall("https://e.example/", path.read_text(encoding="utf-8"), walls) is None
            checked += 1
    assert checked and calls == [], calls
