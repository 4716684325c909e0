"""``import websearch_sync`` stays cheap (issue 34.6): requests, BeautifulSoup, lxml,
readability and the engines load when first used, and the public names stay what they
were. Each check runs a fresh interpreter and reads its ``sys.modules``; the CPU figures
are bench/import_cost.py's (printed, not asserted)."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import websearch_sync
import websearch_sync.backends
import websearch_sync.mcp

ROOT = Path(__file__).resolve().parents[2]
#: What a search or a fetch needs and a bare import must not load.
HEAVY = ("requests", "urllib3", "idna", "bs4", "soupsieve", "lxml", "readability", "curl_cffi")


def loaded_after(code: str) -> list[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, "the interpreter ended with status %d:\n%s" % (out.returncode, out.stderr[-4000:])
    return json.loads(out.stdout.splitlines()[-1])


def heavy(modules: list[str]) -> list[str]:
    """The heavy libraries and the engine modules among ``modules``."""
    return [
        m
        for m in modules
        if m.split(".")[0] in HEAVY or m.startswith(("websearch_sync.backends.", "websearch_sync.engine.registry"))
    ]


def heavy_in_any(codes: list[str]) -> dict[str, list[str]]:
    """``{code: the heavy modules it loads}`` for the ``codes`` that load one. They run one after
    the other in one fresh interpreter (one start, not one each): a module stays loaded, and none
    of these codes changes what the next one imports, so that interpreter holds every module each
    loads alone; when none is heavy there, none is alone. Only otherwise does each run in an
    interpreter of its own, to name the one that is."""
    if not heavy(loaded_after("\n".join(codes))):
        return {}
    return {code: found for code in codes if (found := heavy(loaded_after(code)))}


def test_a_bare_import_loads_no_http_no_parser_no_engine():
    found = heavy_in_any(
        [
            "import websearch_sync",
            "import websearch_sync.backends",
            "import websearch_sync.mcp",
            "from websearch_sync import Settings, WebBlocked, SearchItem, VERTICALS; Settings()",
            "from websearch_sync.cli import build_parser; build_parser().format_help()",
        ]
    )
    assert found == {}, found


def test_the_cli_answers_version_and_help_without_loading_them():
    codes = [
        "from websearch_sync.cli import main\ntry:\n    main(%r)\nexcept SystemExit:\n    pass" % (argv,)
        for argv in (["--version"], ["--help"], ["search", "--help"], ["mcp", "--help"])
    ]
    found = heavy_in_any(codes)
    assert found == {}, found


def test_listing_backends_imports_no_engine_and_using_one_imports_only_it():
    names = "import websearch_sync as ws; ws.backend_names()"
    assert [m for m in loaded_after(names) if m.startswith("websearch_sync.backends.")] == []
    one = "from websearch_sync.engine import registry; registry.backend_class('brave')"
    loaded = loaded_after(one)
    assert [m for m in loaded if m.startswith("websearch_sync.backends.")] == ["websearch_sync.backends.brave"]
    assert "asyncio" not in loaded  # net.workers loaded it for run_awaited alone, about 10 ms of every CLI search


def _type_checking_names(package) -> dict:
    """What ``package``'s ``if TYPE_CHECKING:`` block imports (what type checkers and pdoc read)."""
    tree = ast.parse(Path(package.__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    names: dict = {"__package__": package.__name__, "__name__": package.__name__ + "._type_checking"}
    exec(compile(ast.Module(body=block.body, type_ignores=[]), package.__file__, "exec"), names)
    return {k: v for k, v in names.items() if not k.startswith("__")}


@pytest.mark.parametrize("package", [websearch_sync, websearch_sync.backends, websearch_sync.mcp])
def test_every_public_name_is_there_and_type_checkers_see_the_same_object(package):
    declared = _type_checking_names(package)
    for name in package.__all__:
        value = getattr(package, name)
        assert name not in declared or declared[name] is value, name
        assert name in dir(package), name
    assert set(declared) <= set(package.__all__)
    assert set(package.__all__) - set(declared) <= set(vars(package)), "exported, but neither eager nor lazy"


def test_a_missing_name_is_an_attribute_error_and_a_submodule_is_reachable():
    with pytest.raises(AttributeError):
        websearch_sync.no_such_name  # noqa: B018
    assert websearch_sync.api.search is websearch_sync.search


def test_a_stub_search_loads_no_http_no_parser_no_reader_and_no_engine_but_the_stub():
    """A client's settings read no engine whose variables are unset, its transport builds no wire
    before a request (no requests), a search without ``include_content`` reads no page (no reader,
    no extraction, no lxml), and the command line's text and JSON output load none of them: the
    newcomer's first command, and every script's offline run."""
    loaded = loaded_after(
        "import io, contextlib\n"
        "from websearch_sync.cli import main\n"
        "from websearch_sync import Settings, SearchClient\n"
        "Settings.from_env()\n"
        "with SearchClient('stub') as client:\n"
        "    client.search('q')\n"
        "for argv in (['search', '-b', 'stub', 'q'], ['search', '-b', 'stub', '--json', 'q']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "        main(argv)\n"
    )
    engines = [m for m in loaded if m.startswith("websearch_sync.backends.")]
    assert engines == ["websearch_sync.backends.stub"]
    unwanted = (
        "requests",
        "urllib3",
        "lxml",
        "bs4",
        "readability",
        "curl_cffi",
        "websearch_sync.reader.page",
        "websearch_sync.extract.article",
    )
    assert [m for m in loaded if m.split(".")[0] in unwanted or m in unwanted] == []
