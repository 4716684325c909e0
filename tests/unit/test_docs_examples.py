"""The examples and figures the docs show are the ones the code gives: the README's quickstart
and result shape, the plugin written as docs/backends.md writes it (with ``Setting``), the
contract counts of docs/contract.md, every command-line option in docs/cli.md (docs/mcp.md
for ``mcp``), and each page's examples of the library alone, run in the page's order (offline:
searches and fetches answered by doubles). Each test reads the docs' own text, so an edit to either side that breaks the
other fails here."""

import argparse
import ast
import builtins
import copy
import inspect
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _read(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def _fences(text: str, language: str) -> list[str]:
    return re.findall(r"^```%s\n(.*?)^```" % language, text, re.S | re.M)


def _clean_environment() -> dict[str, str]:
    """The caller's environment without any of the library's or the demo's variables."""
    prefixes = ("WEB_SEARCH_", "WEB_FETCH_", "DEMO_")
    return {key: value for key, value in os.environ.items() if not key.startswith(prefixes)}


def _run(args: list[str], pythonpath: list[Path]) -> subprocess.CompletedProcess[str]:
    environ = _clean_environment()
    environ["PYTHONPATH"] = os.pathsep.join(str(path) for path in pythonpath)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120, env=environ)


#: Where a page's Python examples use the library under its docs' name, ``ws.``
_USES_WS = re.compile(r"(?<![\w.])ws\.")
_IMPORTS_WS = re.compile(r"^\s*import websearch_sync as ws\b", re.M)


def _python_examples(page: str) -> str:
    """A page's Python examples, one after the other as the page shows them."""
    return "\n".join(_fences(_read(page), "python"))


#: The pages (README.md, docs/*.md) whose Python examples use ``ws.``.
_PAGES_USING_WS = [
    page
    for page in ["README.md"] + ["docs/" + path.name for path in sorted(DOCS.glob("*.md"))]
    if _USES_WS.search(_python_examples(page))
]


@pytest.mark.parametrize("page", _PAGES_USING_WS)
def test_a_pages_python_examples_import_ws_before_using_it(page):
    """Copied into a script in the order the page shows them, the examples run: the first to use
    ``ws.`` imports it, or one before it does (docs/scaling.md's first example was a NameError)."""
    code = _python_examples(page)
    used, imported = _USES_WS.search(code), _IMPORTS_WS.search(code)
    assert imported is not None and imported.start() < used.start(), code[: used.end() + 60]


# -- README -------------------------------------------------------------------------------------


def test_the_readme_quickstart_searches_offline_and_says_so():
    bash = "\n".join(_fences(_read("README.md"), "bash"))
    line = next(line for line in bash.splitlines() if line.startswith("pip install . && websearch-sync search"))
    query = re.search(r'websearch-sync search "([^"]+)"', line).group(1)
    done = _run(["-m", "websearch_sync", "search", query], [ROOT])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("1. %s" % query)
    assert (
        "stub" in done.stderr
    )  # "The first command searches with the offline default backend (stub; the CLI says so on stderr)"


@pytest.mark.parametrize("page", ["README.md", "docs/api.md"])
def test_the_documented_result_shape_is_the_one_search_returns(page):
    block = next(block for block in _fences(_read(page), "python") if block.lstrip().startswith("{"))
    documented = eval(block, {"str": str})  # noqa: S307 - the docs' own literal: str, ... and constants
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = ws.search("python requests timeout", backend="stub", settings=ws.Settings())
    assert set(result) == set(documented)
    assert set(result["items"][0]) == set(documented["items"][0])
    assert set(result["provider_meta"]) == set(documented["provider_meta"])
    assert result["provider_meta"]["provider_name"] == documented["provider_meta"]["provider_name"]


def test_the_readmes_offline_replay_prints_the_recorded_answers(monkeypatch, capsys):
    """The README's way to see the engines' answers without network: its block, run from the
    checkout's root as it says, prints what the recordings it replays hold (their goldens), with no
    key and no connection."""
    block = next(block for block in _fences(_read("README.md"), "python") if "replay_fixtures(" in block)
    monkeypatch.chdir(ROOT)
    exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - the docs' own example
    printed = capsys.readouterr().out
    for case in ("ddg_html/meka__2", "brave/brave-search-python-client__1"):  # the block's two queries
        golden = json.loads((ROOT / "fixtures" / (case + ".expected.json")).read_text(encoding="utf-8"))
        assert golden["items"][0]["url"] in printed, (case, printed)


# -- docs/backends.md: the plugin example --------------------------------------------------------

_PLUGIN_RUN = """
import json, responses, websearch_sync as ws
out = {"names": ws.backend_names()}
settings = ws.Settings(providers={"demo": {"api_key": "k-1", "page_size": 7}})
with responses.RequestsMock() as mock:
    mock.add(responses.GET, "https://search.demo.example/api",
             json={"hits": [{"name": " A  hit ", "link": "https://a.example/", "highlights": ["one"]}]})
    out["result"] = ws.search("python", backend="demo", settings=settings)
    request = mock.calls[0].request
    out["request"] = [request.url, request.headers["Authorization"]]
    ws.search("python", backend="demo", settings=settings, fresh=True)
    out["fresh"] = mock.calls[1].request.url
errors = out["errors"] = []
for given in ({"api_key": "k", "page_size": 51}, {"api_key": "k", "pagesize": 3}):
    try:
        ws.Settings(providers={"demo": given})
    except ws.InvalidInput as error:
        errors.append([error.detail_code, error.message])
try:
    ws.search("python", backend="demo", settings=ws.Settings())
except ws.AuthError as error:
    errors.append([error.detail_code, error.message])
try:
    ws.search("python", backend="demo", settings=settings, fresh="yes")
except ws.InvalidInput as error:
    errors.append([error.detail_code, error.message])
try:
    ws.search("python", backend="demo", settings=settings, frseh=True)
except TypeError as error:
    errors.append(["TypeError", str(error)])
print(json.dumps(out))
"""


def _install_plugin(site: Path, source: str) -> None:
    """``source`` as an installed distribution declaring ``demo`` in the plugin group."""
    (site / "demo_search.py").write_text(source, encoding="utf-8")
    info = site / "demo_search-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: demo-search\nVersion: 1.0\n", encoding="utf-8")
    toml = _fences(_read("docs/backends.md"), "toml")[0]  # the plugin's pyproject.toml
    name, target = re.search(r'^(\w+) = "([\w.]+:\w+)"$', toml, re.M).groups()
    (info / "entry_points.txt").write_text("[websearch_sync.backends]\n%s = %s\n" % (name, target), encoding="utf-8")


def test_the_plugin_example_with_settings_runs_as_documented(tmp_path):
    backends_doc = _read("docs/backends.md")
    source = next(block for block in _fences(backends_doc, "python") if block.startswith("# demo_search.py"))
    _install_plugin(tmp_path, source)
    done = _run(["-c", _PLUGIN_RUN], [tmp_path, ROOT])
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert "demo" in out["names"]
    assert out["result"]["items"] == [
        {"title": "A hit", "url": "https://a.example/", "snippet": "one", "provider": "demo", "rank": 1}
    ]
    # page_size (a declared int setting) and api_key reach the request as build_request writes them
    assert out["request"] == ["https://search.demo.example/api?q=python&n=7&fresh=0", "Bearer k-1"]
    assert out["fresh"] == "https://search.demo.example/api?q=python&n=7&fresh=1"  # the option, typed
    too_large, misspelt, missing, bad_option, typo = out["errors"]
    assert bad_option == ["bad_option", "fresh must be true or false, got 'yes'"]
    assert bad_option[1] in " ".join(backends_doc.split()) and typo[1].split("; ")[0] in " ".join(backends_doc.split())
    assert too_large[0] == "bad_setting" and too_large[1] in " ".join(backends_doc.split())
    assert misspelt[0] == "bad_setting" and "did you mean 'page_size'" in misspelt[1]
    assert missing[0] == "missing_api_key" and "DEMO_API_KEY" in missing[1]  # "missing -> AuthError(missing_api_key)"


# -- docs/contract.md ---------------------------------------------------------------------------


def test_the_contract_page_states_the_fixture_counts():
    kinds = [
        json.loads(path.read_text(encoding="utf-8"))["provenance"]["status"]
        for path in (ROOT / "fixtures").glob("*/*.meta.json")
    ]
    stated = "`by provenance: %d recorded, %d provider-docs, %d synthetic` for\nthis project's %d cases" % (
        kinds.count("recorded"),
        kinds.count("provider-docs"),
        kinds.count("synthetic"),
        len(kinds),
    )
    assert stated in _read("docs/contract.md")


# -- docs/cli.md and the command line --------------------------------------------------------------


def _commands() -> dict[str, argparse.ArgumentParser]:
    found = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(found.choices)


@pytest.mark.parametrize("command", sorted(_commands()))
def test_every_command_line_option_is_documented(command):
    page = _read("docs/mcp.md" if command == "mcp" else "docs/cli.md")
    parser = _commands()[command]
    assert parser.description or parser.format_help().count("\n\n") > 2, "%s has no description" % command
    undocumented = [
        action.option_strings
        for action in parser._actions
        if action.option_strings
        and "--help" not in action.option_strings
        and not any(re.search(re.escape(option) + r"\b", page) for option in action.option_strings)
    ]
    assert not undocumented


def test_the_impersonate_help_names_only_profiles_a_client_accepts():
    help_text = " ".join(_commands()["backends"].format_help().split())
    named = re.search(r"fetch send: ([a-z, ]+?) \(", help_text).group(1).split(", ")
    assert "off" in named
    for profile in named:
        try:
            with ws.SearchClient("stub", settings=ws.Settings(impersonate=profile)):
                pass
        except ws.InvalidInput as error:  # a refused profile is bad_impersonate
            assert error.detail_code == "missing_browser_extra", error.message


# -- files the docs name ------------------------------------------------------------------------------

_NAMED_FILE = re.compile(r"`((?:tests|websearch_sync|contract_tests|bench)/[\w./-]+\.py)`")


@pytest.mark.parametrize("page", ["README.md"] + sorted("docs/" + p.name for p in DOCS.glob("*.md")))
def test_every_source_file_the_docs_name_exists(page):
    missing = [path for path in _NAMED_FILE.findall(_read(page)) if not (ROOT / path).is_file()]
    assert not missing


# -- every example of the library alone runs as written ----------------------------------------------

#: Names an example leaves to its reader: the fragments that use one answer a model's call (its
#: ``url``, ``tool_use_id``, ``call_id``) or a framework's objects; they run in their own tests
#: (tests/sockets/test_docs_image_examples.py, test_docs_agent_examples.py, test_scaling_recipes.py).
_READERS_NAMES = {"url", "tool_use_id", "call_id", "search", "model", "llm", "enqueued"}
#: The modules whose examples run in their own tests: the agent frameworks', and the test doubles'
#: (which would meet this test's own: tests/sockets/test_mock_libraries.py, test_testing_helpers.py).
_OWN_TESTS = ("websearch_sync.integrations", "websearch_sync.testing")
#: A page of an answer a fetch gives in the examples (their URLs are live pages).
_ARTICLE = (
    "<html><head><title>Article</title></head><body><article><h1>Article</h1>"
    + "<p>A paragraph of the article, long enough for the extractor to read it as prose.</p>" * 5
    + "</article></body></html>"
)


def _free_names(tree: ast.AST) -> set:
    """The names a block reads without binding them (nor importing, nor defining) itself."""
    bound, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
            bound.update(a.arg for a in node.args.args + node.args.kwonlyargs) if isinstance(
                node, ast.FunctionDef
            ) else None
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return read - bound - set(dir(builtins))


#: A block's first line naming the file it is (``# jobs.py``): a recipe's or a plugin's file, run in its own tests.
_FILE_COMMENT = re.compile(r"# [\w./-]+\.py\n")


def _library_examples():
    """``(page, blocks)``: the Python blocks of each page that use the library alone (no other
    package nor :data:`_OWN_TESTS`, no file of a recipe or plugin such as ``# jobs.py``, no
    result-shape literal), in the page's order; a block that reads a name the reader supplies is
    left out."""
    for page in ["README.md"] + ["docs/" + path.name for path in sorted(DOCS.glob("*.md"))]:
        blocks, bound = [], set()
        for block in _fences(_read(page), "python"):
            tree = ast.parse(block)
            modules = {
                (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
                for node in ast.walk(tree)
                if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names
            }
            if (
                block.lstrip().startswith("{")
                or _FILE_COMMENT.match(block.lstrip())
                or any(not name.startswith("websearch_sync") or name.startswith(_OWN_TESTS) for name in modules)
            ):
                continue
            free = _free_names(tree) - bound
            if free & _READERS_NAMES:
                continue
            blocks.append(block)
            bound |= {name for node in ast.walk(tree) if isinstance(node, ast.Name) for name in [node.id]}
        if blocks:
            yield pytest.param(page, blocks, id=page)


#: What a wrong name in an example raises: an ``except`` broader than the kind (``except
#: ws.WebSearchError`` for ``InvalidInput``, ``except Exception``) must not hide it.
_WRONG_NAME_KINDS = (ws.InvalidInput, TypeError, NameError, AttributeError)


class _Handlers:
    """The ``except`` clauses of the examples, rewritten to call :meth:`entered_clause` first: a wrong
    name caught by a broader clause escapes, and the clauses entered are noted by line."""

    def __init__(self) -> None:
        self.entered: list[int] = []

    def entered_clause(self, caught: object, line: int) -> None:
        """Note ``line``'s clause entered; re-raise a wrong name's error it catches only as a broader kind."""
        self.entered.append(line)
        error = sys.exc_info()[1]
        kinds = caught if isinstance(caught, tuple) else (caught,)
        for kind in _WRONG_NAME_KINDS:
            if isinstance(error, kind) and not any(isinstance(c, type) and issubclass(c, kind) for c in kinds):
                raise AssertionError("the except clause at line %d hides %r" % (line, error)) from error

    def code(self, tree: ast.AST, filename: str):
        """``tree`` compiled with each handler's body starting with the call to :meth:`entered_clause`."""
        tree = copy.deepcopy(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ExceptHandler):
                caught = node.type if node.type is not None else ast.Constant(None)
                call = ast.Call(ast.Name("__entered_clause__", ast.Load()), [caught, ast.Constant(node.lineno)], [])
                node.body.insert(0, ast.Expr(call))
        if not isinstance(tree, ast.Module):
            tree = ast.Module([tree], [])
        return compile(ast.fix_missing_locations(tree), filename, "exec")


@pytest.mark.parametrize("page, blocks", list(_library_examples()))
def test_a_pages_examples_of_the_library_run_as_written(page, blocks, monkeypatch):
    """Copied into a script in the page's order, the examples run: offline, each search answered
    by ``fake_results`` (every backend, key or not), each fetch by a page served through a
    ``MockWire``; only a name the library does not have, a keyword it does not take or a key a
    result does not hold fails here, even inside a ``try`` whose ``except`` is broader. Then each
    ``try`` runs again once per ``except`` clause of a library error (a bare one: ``WebSearchError``),
    the searches and fetches failing with that clause's error, so the clauses' own code runs too (``error.mesage`` fails)."""
    from websearch_sync.testing import MockResponse, MockWire, fake_results, reset

    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "text/html; charset=utf-8"}, _ARTICLE))
    real_fetch = ws.SearchClient.fetch
    failing: list = []  # the error the searches and fetches give in the second pass

    def fetch_served(self, url, **arguments):
        if failing:
            raise copy.copy(failing[0])
        with ws.SearchClient(wire=wire, settings=ws.Settings()) as served:
            return real_fetch(served, url, **arguments)

    monkeypatch.setattr(ws.SearchClient, "fetch", fetch_served)
    monkeypatch.setattr(ws, "fetch", lambda url, **arguments: fetch_served(None, url, **arguments))
    item = {"title": "T", "url": "https://t.example/", "snippet": "s", "image_url": "https://t.example/i.png"}
    handlers = _Handlers()
    names: dict = {"__entered_clause__": handlers.entered_clause}
    trees = [ast.parse(block) for block in blocks]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the offline stub's notice
        try:
            with fake_results([item]):
                for number, tree in enumerate(trees):
                    exec(handlers.code(tree, "%s, block %d" % (page, number + 1)), names)  # noqa: S102 - the docs' own example
            for number, tree in enumerate(trees):
                for statement in (node for node in ast.walk(tree) if isinstance(node, ast.Try)):
                    for clause in statement.handlers:
                        caught = (
                            eval(compile(ast.Expression(clause.type), page, "eval"), names)  # noqa: S307 - the docs' own name
                            if clause.type is not None
                            else ws.WebSearchError
                        )
                        kind = caught[0] if isinstance(caught, tuple) else caught
                        if not issubclass(kind, ws.WebSearchError):  # not an error a search or fetch gives
                            continue
                        failing[:] = [kind("an injected %s" % kind.__name__, detail_code="injected")]
                        handlers.entered.clear()
                        reset()  # no cool-down nor cache from the pass before
                        with fake_results(dict.fromkeys(ws.backend_names(), failing[0])):
                            exec(handlers.code(statement, "%s, block %d" % (page, number + 1)), names)  # noqa: S102
                        assert handlers.entered == [clause.lineno], (page, number + 1, clause.lineno, kind)
        finally:
            failing.clear()
            for value in names.values():
                if isinstance(value, ws.SearchClient):
                    value.close()  # a client an example leaves open (scaling.md's)


#: docs/contract.md's tests that read the reader's own recordings (``tests/search_fixtures``), which
#: this repository has not: left aside by name, so a test added to the block runs here.
_READERS_RECORDINGS = {"test_with_recorded_pages"}


def test_the_contract_pages_test_examples_pass(request):
    """docs/contract.md's tests of code under test, each ``test_*`` function of the block run as
    pytest would run it (its arguments are fixtures; the plugin's :func:`reset` before each), but
    the ones reading the reader's own recordings: the fakes, the fallback past a blocked backend,
    the plugin's ``websearch_fake`` fixture."""
    block = next(
        block for block in _fences(_read("docs/contract.md"), "python") if "def test_with_given_items" in block
    )
    from websearch_sync.testing import reset

    names: dict = {}
    exec(compile(block, "docs/contract.md", "exec"), names)  # noqa: S102 - the docs' own example
    tests = [name for name, value in names.items() if name.startswith("test_") and callable(value)]
    assert _READERS_RECORDINGS <= set(tests)
    ran = []
    for name in tests:
        if name in _READERS_RECORDINGS:
            continue
        reset()  # what the plugin does before each test: a test before may have cooled ddg_html down
        fixtures = [request.getfixturevalue(argument) for argument in inspect.signature(names[name]).parameters]
        names[name](*fixtures)
        ran.append(name)
    assert len(ran) >= 3, ran
