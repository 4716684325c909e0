"""Third-party backends as plugins: an installed distribution's entry point in the
group ``websearch_sync.backends`` becomes a backend like a built-in one; a broken
plugin is skipped with a warning naming it.

Each test installs real distributions (a module plus its ``.dist-info`` with
``entry_points.txt``) into a temporary folder on ``PYTHONPATH`` and runs a script in a process
of its own, so entry-point discovery is the real ``importlib.metadata`` one: a child forked
from an interpreter that has started and imported ``websearch_sync``, its client, CLI and built-in
engines' modules (tests/python_forks.py ``shared_searching``: modules only; no registry is built
and no plugin discovered before a child's first question, on its own path).
"""

import json
import os
import re
import subprocess
import textwrap
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from python_forks import PythonForks, shared_searching

import websearch_sync as ws

ROOT = Path(__file__).resolve().parents[2]

PLUGIN_SOURCE = '''
"""A complete third-party backend on the plain Backend, with a parse of its own (docs/backends.md's
example, a JsonApiEngine, declares its reading instead: tests/sockets/test_plugin_packaging.py)."""

from websearch_sync.backends import Backend, HttpResponse, ParseResult, RequestSpec, SearchParams


class DemoSearch(Backend):
    name = "demo"
    kind = "json"
    summary = "Demo search API (plugin)"
    default_endpoint = "https://search.demo.example/api"
    env_vars = {"api_key": "DEMO_API_KEY"}
    required = ("api_key",)

    def build_request(self, params: SearchParams) -> RequestSpec:
        return RequestSpec(
            "GET",
            self.endpoint_url(),
            params={"q": params.full_query, "n": params.max_results},
            headers={"Authorization": "Bearer " + self.config["api_key"]},
        )

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        hits = response.json()["hits"]
        return ParseResult(items=[{"title": h["name"], "url": h["link"], "snippet": h["text"]} for h in hits])
'''


def _distribution(
    site: Path, dist: str, module: str, source: str, entry_points: str, group: str = "websearch_sync.backends"
) -> None:
    (site / (module + ".py")).write_text(textwrap.dedent(source), encoding="utf-8")
    info = site / ("%s-1.0.dist-info" % dist)
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: %s\nVersion: 1.0\n" % dist, encoding="utf-8")
    (info / "entry_points.txt").write_text("[%s]\n%s" % (group, entry_points), encoding="utf-8")


class _DemoApi(BaseHTTPRequestHandler):
    """The demo upstream: hits as JSON, or HTTP 429 for the query ``limited``."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if "q=limited" in self.path:
            self.send_response(429)
            self.send_header("Retry-After", "30")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = json.dumps(
            {
                "hits": [
                    {"name": "  First   hit ", "link": "https://example.org/a#top", "text": "one\n two"},
                    {"name": "Second", "link": "ftp://not-http.example/", "text": "dropped: not http(s)"},
                    {
                        "name": "Third",
                        "link": "https://example.org/c",
                        "text": self.headers.get("Authorization", "")[:6],
                    },
                ]
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def demo_api():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _DemoApi)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d/api" % server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def _environ(**env: str) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_SEARCH_", "DEMO_"))}
    environ.update(env)
    return environ


_forks: list[PythonForks] = []


@pytest.fixture(scope="module", autouse=True)
def _python_forks(request):
    """The Python that forks each :func:`_run`'s ``python -c`` (tests/python_forks.py
    ``shared_searching``, one per pytest process: a child is a fresh interpreter after ``import
    websearch_sync`` and the modules a search imports; 13 interpreters' start and imports, ~3 s of
    CPU, are not paid: 2.6 -> 1.6 s with the library's modules preloaded, the server's start
    shared with the other modules of the worker that fork from it)."""
    _forks.append(shared_searching(request.config))
    yield
    _forks.clear()


def _run(site: Path, code: str, **env: str) -> subprocess.CompletedProcess:
    """``python -c code`` with the distributions of ``site`` on its path (forked: see above)."""
    return _forks[0].run(code, _environ(PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]), **env))


def test_an_installed_plugin_is_a_backend_like_a_built_in_one(tmp_path, demo_api):
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    code = """
import json, websearch_sync as ws
out = {"names": ws.backend_names()}
out["result"] = ws.search("python", backend="demo", max_results=5)
try:
    ws.search("limited", backend="demo", retries=0)
except ws.WebSearchError as error:
    out["error"] = [error.code, error.detail_code, error.retry_after]
print(json.dumps(out))
"""
    done = _run(tmp_path, code, WEB_SEARCH_ENDPOINT_DEMO=demo_api, DEMO_API_KEY="k-123")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert "demo" in out["names"] and out["names"][0] == "stub"
    items = out["result"]["items"]
    # normalised like any backend: whitespace collapsed, a non-http(s) URL dropped, ranks without
    # gaps, provider set
    assert [i["title"] for i in items] == ["First hit", "Third"]
    assert items[0]["url"].startswith("https://example.org/a") and items[0]["snippet"] == "one two"
    assert [i["rank"] for i in items] == [1, 2] and {i["provider"] for i in items} == {"demo"}
    assert items[1]["snippet"] == "Bearer"  # the key from DEMO_API_KEY (declared env_vars) reached the request
    assert out["result"]["provider_meta"]["provider_name"] == "demo"
    # errors classified by the shared status mapping
    assert out["error"] == ["WebBlocked", "http_429", 30.0]


def test_a_plugin_missing_its_key_fails_before_any_request(tmp_path):
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    code = """
import websearch_sync as ws
try:
    ws.search("python", backend="demo")
except ws.AuthError as error:
    print(error.detail_code, "DEMO_API_KEY" in error.message)
"""
    done = _run(tmp_path, code)
    assert done.stdout.split() == ["missing_api_key", "True"], done.stderr


def test_the_cli_lists_an_installed_plugin(tmp_path):
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    done = _run(tmp_path, "import sys; from websearch_sync.cli import main; sys.exit(main(['backends']))")
    assert done.returncode == 0, done.stderr
    assert any(line.split()[:1] == ["demo"] for line in done.stdout.splitlines()), done.stdout


def test_broken_plugins_are_skipped_with_a_warning_naming_them(tmp_path):
    _distribution(
        tmp_path,
        "broken_import",
        "broken_import",
        "raise ImportError('no such dependency: fancylib')\n",
        "broken = broken_import:Backend\n",
    )
    _distribution(
        tmp_path,
        "not_a_backend",
        "not_a_backend",
        "class Thing:\n    name = 'thing'\n",
        "thing = not_a_backend:Thing\n",
    )
    _distribution(tmp_path, "bad_attr", "bad_attr", "X = 1\n", "missing = bad_attr:DoesNotExist\n")
    _distribution(
        tmp_path,
        "impostor",
        "impostor",
        "from websearch_sync.backends import Backend\nclass Fake(Backend):\n    name = 'ddg_html'\n",
        "ddg = impostor:Fake\n",
    )
    code = """
import websearch_sync as ws
from websearch_sync.engine.registry import backend_class
print(sorted(ws.backend_names()) == sorted(set(ws.backend_names())), "thing" in ws.backend_names(), backend_class("ddg_html").__module__)
print(ws.search("still works")["items"][0]["provider"])
"""
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", "websearch_sync.backends.ddg", "stub"]
    for name in ("'broken'", "'thing'", "'missing'", "'ddg'"):
        assert "skipping backend plugin %s" % name in done.stderr, done.stderr
    assert (
        "fancylib" in done.stderr
        and "replace the built-in backend 'ddg_html': give the class (and its entry point) another name" in done.stderr
    )


#: Test modules that sweep over the registered backends. The reliability modules sweep through
#: ``backend_kit.network_backends()`` as the conformance suite does, which stands for them here.
SWEEPING = ["tests/conformance", "contract_tests"]


def test_an_installed_plugin_does_not_enter_the_projects_own_sweeping_tests(tmp_path):
    """A third-party plugin in the same environment registers, but the suite's sweeps cover
    the project's backends only: its fixtures, docs rows and settings are not this project's."""
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_SEARCH_", "DEMO_", "PYTEST_"))}
    environ["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    # one process: it says the plugin is registered there, then collects the sweeps (as ``python -m pytest``)
    code = (
        "import sys, pytest, websearch_sync as ws\n"
        "print('demo' in ws.backend_names(), flush=True)\n"
        "sys.exit(pytest.main(sys.argv[1:]))\n"
    )
    arguments = ["--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider", *SWEEPING]
    collected = _forks[0].run(code, environ, *arguments, cwd=str(ROOT), timeout=600)  # forked, as _run
    listed, _, collection = collected.stdout.partition("\n")
    assert listed == "True", collected.stderr  # the plugin is installed and registered
    assert collected.returncode == 0, collection[-2000:] + collected.stderr[-2000:]
    ids = [line for line in collection.splitlines() if "::" in line]
    assert len(ids) > 500
    assert not [test_id for test_id in ids if "demo" in test_id.split("::", 1)[1]]


def test_the_contract_coverage_check_is_about_the_projects_backends():
    """``contract_tests`` asks every backend the project ships for recorded cases, not a plugin."""
    import importlib.util

    from websearch_sync.backends import Backend
    from websearch_sync.engine.registry import register, unregister

    spec = importlib.util.spec_from_file_location("contract_coverage", ROOT / "contract_tests" / "test_contract.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    plugin = type(
        "DemoSearch",
        (Backend,),
        {"name": "demo", "kind": "json", "summary": "a plugin", "text_format": "text", "__module__": "demo_search"},
    )
    register(plugin)
    try:
        module.test_there_are_cases_for_every_registered_backend()
    finally:
        unregister("demo")


def test_plugins_with_unusable_declarations_or_imports_never_break_the_host(tmp_path):
    """Issue 23.5: bad class attributes, sys.exit() / BaseException at import: each plugin is
    skipped with a warning naming it; the library imports and works. (A KeyboardInterrupt is the
    host's Ctrl-C: test_plugin_load_interrupts.)"""
    base = "from websearch_sync.backends import Backend\n"
    plugins = {
        "bad_format": base + "class P(Backend):\n    name = 'bad_format'\n    text_format = 'markdown'\n",
        "no_env": base + "class P(Backend):\n    name = 'no_env'\n    env_vars = None\n",
        "raising_name": base
        + (
            "class Meta(type(Backend)):\n    @property\n    def name(cls):\n        raise RuntimeError('no name today')\n"
            "class P(Backend, metaclass=Meta):\n    pass\n"
        ),
        "capitals": base + "class P(Backend):\n    name = 'MySearch'\n",
        "named_auto": base + "class P(Backend):\n    name = 'auto'\n",  # backend='auto' is the chain: never it
        "exits": "import sys\nsys.exit(3)\n",
        "base_exception": "raise BaseException('plugin gave up')\n",
    }
    for name, source in plugins.items():
        _distribution(tmp_path, name, name, source, "%s = %s:P\n" % (name, name))
    code = """
import websearch_sync as ws
print(sorted(set(ws.backend_names()) & {%s}), ws.search("still works")["items"][0]["provider"])
""" % ", ".join(repr(name) for name in list(plugins) + ["MySearch", "mysearch", "auto"])
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]", "stub"], done.stdout
    for name in plugins:
        assert "skipping backend plugin %r" % name in done.stderr, (name, done.stderr)
    assert "SystemExit" in done.stderr and "plugin gave up" in done.stderr
    assert "'markdown'" in done.stderr and "no name today" in done.stderr and "'MySearch'" in done.stderr
    assert (
        "its name is 'auto', not lower-case letters, digits and _, starting with a letter, other than auto"
        in done.stderr
    )


WRONG_SHAPES = {
    "a list, not a ParseResult": "return [{'title': 't', 'url': 'https://e.example/'}]",
    "strings as items": "return ParseResult(items=['https://e.example/'])",
    "an unregistered provider": "return ParseResult(items=[{'title': 't', 'url': 'https://e.example/', 'provider': 'nobody'}])",
    # before: passed through to the response's errors, a crash of the CLI and call_tool, a crash of --json
    "an error that is a string": "return ParseResult(items=[], errors=['boom'])",
    "extras that are a list": "return ParseResult(items=[], extras=['an answer'])",
    "a request id that is no string": "return ParseResult(items=[], request_id=object())",
}


#: A parse that ends the process: like a ``sys.exit()`` at import, it must not end the caller
#: (before, the command line stopped with a silent exit status 3, "blocked").
EXITING = {"sys.exit()": "import sys; sys.exit(3)"}


def _search_the_plugin(parse_body: str, hook: str = "", status: int = 200):
    """Register ``shaped_plugin``, whose ``parse`` runs ``parse_body`` (one line) and which has the
    method ``hook`` (source, if any), and search it on a server answering ``status``:
    ``(the error search raised, what call_tool answered)``."""
    from faults import respond
    from servers import FaultServer

    import websearch_sync as ws
    from websearch_sync import tool
    from websearch_sync.backends import Backend, ParseResult, RequestSpec
    from websearch_sync.engine.registry import register, unregister

    namespace = {"Backend": Backend, "ParseResult": ParseResult, "RequestSpec": RequestSpec}
    source = (
        """
class Shaped(Backend):
    name = "shaped_plugin"
    kind = "json"
    def build_request(self, params):
        return RequestSpec("GET", self.endpoint_url())
    def parse(self, response, params):
        %s
"""
        % parse_body
    )
    exec(source + textwrap.indent(hook, "    ") + "\n", namespace)
    register(namespace["Shaped"])
    try:
        with FaultServer({"/api": respond(status, b"{}", {"Content-Type": "application/json"})}) as server:
            settings = ws.Settings(endpoints={"shaped_plugin": server.url("/api")})
            with pytest.raises(ws.WebProviderError) as caught:
                ws.search("q", backend="shaped_plugin", settings=settings, retries=0)
            with ws.SearchClient("shaped_plugin", settings=settings, retries=0) as client:
                answer = tool.call_tool("web_search", {"query": "q"}, client=client)
    finally:
        unregister("shaped_plugin")
    assert caught.value.provider == "shaped_plugin" and "shaped_plugin" in caught.value.message
    return caught.value, answer


@pytest.mark.parametrize("shape", sorted(WRONG_SHAPES) + sorted(EXITING))
def test_a_plugin_parse_of_the_wrong_shape_is_a_typed_error_naming_it(shape):
    """Issue 23.5: before, a raw AttributeError/TypeError escaped from normalisation."""
    error, answer = _search_the_plugin({**WRONG_SHAPES, **EXITING}[shape])
    detail = "internal_error" if shape in EXITING else "bad_parse_result"
    assert error.detail_code == detail and answer["error"]["detail_code"] == detail


SLOW_PLUGIN_SOURCE = (
    "import time\n"
    "from websearch_sync import SearchClient, search  # the whole package, from a plugin's own import\n"
    "time.sleep(0.5)  # a slow import: another thread asks the registry meanwhile\n"
) + PLUGIN_SOURCE.split('"""', 2)[2]


def test_plugins_load_at_the_first_question_and_every_thread_sees_them(tmp_path):
    """Plugins load when the registry is first asked (not by ``import websearch_sync``), a plugin
    may import the public names, and a thread asking while they load waits for them."""
    _distribution(tmp_path, "demo_search", "demo_search", SLOW_PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    code = """
import json, sys, threading, websearch_sync as ws
imported = "demo_search" in sys.modules
seen = []
threads = [threading.Thread(target=lambda: seen.append("demo" in ws.backend_names())) for _ in range(2)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps([imported, seen]))
"""
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [False, [True, True]], done.stderr


RAISING_PLUGIN_SOURCE = PLUGIN_SOURCE.replace(
    'hits = response.json()["hits"]', 'raise RuntimeError("the demo parser exploded")  # a defect in the plugin'
)


def test_the_cli_shows_why_a_plugin_failed_during_a_search(tmp_path, demo_api):
    """``internal_error`` says the traceback is logged: on the command line it reaches stderr, as
    outside a search (the retry-line handler the search installs hid every other log record)."""
    _distribution(tmp_path, "demo_search", "demo_search", RAISING_PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    code = "import sys; from websearch_sync.cli import main; sys.exit(main(['search', 'q', '-b', 'demo', '--retries', '0']))"
    done = _run(tmp_path, code, WEB_SEARCH_ENDPOINT_DEMO=demo_api, DEMO_API_KEY="k-123")
    assert done.returncode == 5, done.stderr
    assert "error: WebProviderError/internal_error: internal error in backend demo" in done.stderr
    assert "backend demo failed unexpectedly\nTraceback" in done.stderr, done.stderr
    assert "RuntimeError: the demo parser exploded" in done.stderr


def test_a_plugin_whose_name_another_plugin_took_is_skipped_with_a_warning(tmp_path):
    """Two distributions declaring one backend name: before, the later silently replaced the
    earlier (which one won depended on the order the environment listed them)."""
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    _distribution(tmp_path, "demo_again", "demo_again", PLUGIN_SOURCE, "demo = demo_again:DemoSearch\n")
    code = "from websearch_sync.engine.registry import backend_class; print(backend_class('demo').__module__)"
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    winner = done.stdout.strip()
    loser = {"demo_search", "demo_again"} - {winner}
    assert len(loser) == 1, done.stdout
    assert "skipping backend plugin 'demo' (%s:DemoSearch): " % loser.pop() in done.stderr, done.stderr
    assert (
        "backend 'demo' is already registered by %s.DemoSearch: give one of the two another name, or uninstall"
        " the distribution of one" % winner in done.stderr
    )


def test_asking_for_a_skipped_plugin_says_why_it_was_skipped(tmp_path):
    """The warning scrolls by (or a program's logging hides it): the error of the search that
    names the plugin says why it is not there, in Python and on the command line."""
    _distribution(
        tmp_path, "broken_import", "broken_import", "import fancylib_not_there\n", "broken = broken_import:Backend\n"
    )
    code = """
import sys, websearch_sync as ws
from websearch_sync.cli import main
try:
    ws.search("q", backend="broken")
except ws.InvalidInput as error:
    print(error.detail_code, error.message)
sys.exit(main(["search", "q", "-b", "ddg_html,broken"]))
"""
    done = _run(tmp_path, code)
    assert done.returncode == 2, done.stderr
    why = (
        "its plugin broken_import:Backend was skipped: it failed to load: ModuleNotFoundError: No module named "
        "'fancylib_not_there' (at broken_import.py:1)"  # its import's line: the author's own code that raised
    )
    assert done.stdout.startswith("unknown_backend unknown backend 'broken' (%s)" % why), done.stdout
    assert "error: InvalidInput/unknown_backend: " in done.stderr and "'broken' (%s)" % why in done.stderr


def test_settings_for_a_skipped_plugin_leave_the_other_backends_working(tmp_path):
    """Settings naming a backend nobody registered are refused (a typo), but a plugin that failed
    to load is only logged: its section in a configuration must not stop every other backend."""
    _distribution(
        tmp_path, "broken_import", "broken_import", "import fancylib_not_there\n", "broken = broken_import:Backend\n"
    )
    code = """
import websearch_sync as ws
settings = ws.Settings(providers={"broken": {"api_key": "k"}}, endpoints={"broken": "https://b.example/"})
print(ws.search("still works", settings=settings)["items"][0]["provider"])
try:
    ws.Settings(providers={"brokne": {"api_key": "k"}})
except ws.InvalidInput as error:
    print(error.detail_code)
"""
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["stub", "unknown_backend"], done.stdout
    assert "Settings.providers names 'broken', whose plugin was skipped: " in done.stderr, done.stderr


def test_an_unreadable_entry_point_file_never_breaks_the_host(tmp_path):
    """A distribution's malformed ``entry_points.txt`` (any distribution's: reading one group
    parses them all) made every question to the registry raise a ``TypeError`` from
    ``importlib.metadata``; the plugins are then skipped with a warning saying why."""
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, "this line names no object\n")
    done = _run(tmp_path, "import websearch_sync as ws; print(ws.search('still works')['items'][0]['provider'])")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["stub"]
    assert "websearch_sync: skipping every backend plugin: the installed distributions' entry points" in done.stderr


#: The client's own calls of a backend's hooks, outside its search (before: the plugin's
#: exception escaped raw, from call_tool too, which never raises).
HOOKS = {
    "cooldown_keys": "def cooldown_keys(self, params):\n    raise RuntimeError('hook exploded')",
    "configured_base": "def configured_base(self):\n    raise RuntimeError('hook exploded')",
    "cooldown_key": "def cooldown_key(self, params, error):\n    raise RuntimeError('hook exploded')",
}


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_a_plugin_hook_that_raises_is_a_typed_error_naming_it(hook):
    error, answer = _search_the_plugin("return ParseResult(items=[])", HOOKS[hook], status=429)  # 429: a block
    assert error.detail_code == "internal_error" and answer["error"]["detail_code"] == "internal_error"


#: A plugin that builds its vendor's client in its constructor, which fails without the key.
SDK_PLUGIN_SOURCE = PLUGIN_SOURCE.replace(
    '    required = ("api_key",)\n',
    '    required = ("api_key",)\n    auto_rank = 50\n\n'
    "    def __init__(self, settings=None):\n"
    "        super().__init__(settings)\n"
    '        self.client = ("sdk", self.config["api_key"])  # KeyError without the key\n',
)


def test_a_plugin_whose_constructor_raises_never_breaks_the_host(tmp_path):
    """Before, its KeyError ended the backends listing, every search with backend="auto", the
    tools' definitions and a search naming it in a traceback."""
    _distribution(tmp_path, "demo_search", "demo_search", SDK_PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    code = """
import json, sys, websearch_sync as ws
from websearch_sync import tool
from websearch_sync.cli import main
from websearch_sync.client.selection import auto_backends
out = {"auto": auto_backends(ws.Settings()), "tools": [t["name"] for t in tool.tool_definitions("anthropic", settings=ws.Settings(backend="demo"))]}
try:
    ws.search("q", backend="demo")
except ws.WebProviderError as error:
    out["error"] = [error.detail_code, error.message]
print(json.dumps(out))
sys.exit(main(["backends"]))
"""
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[0])
    assert "demo" not in out["auto"] and out["auto"][0] == "ddg_html"
    assert out["tools"] == ["web_fetch"]
    line = 1 + next(n for n, text in enumerate(SDK_PLUGIN_SOURCE.splitlines()) if "KeyError without the key" in text)
    said = (
        "internal error in backend demo: KeyError at demo_search.py:%d: 'api_key'" % line
    )  # where in the plugin it raised
    assert out["error"] == ["internal_error", said]
    (row,) = [line for line in done.stdout.splitlines() if line.startswith("demo ")]
    assert "no (%s...)" % said[:57] in row  # cut in the table (60 characters), whole under it
    assert "  demo: %s\n" % said in done.stdout
    assert "backend demo failed unexpectedly\nTraceback" in done.stderr


def test_a_plugin_skipped_under_an_entry_point_name_no_backend_can_have_is_still_explained(tmp_path):
    """``demo-search = demo_search:DemoSearch``: the entry point's name is not the backend's (a
    dash: no backend name has one), so when the plugin fails to import nothing ties ``demo`` to
    it. Asking for ``demo`` said only "unknown backend", and its section in ``Settings`` stopped
    every other backend; now the error names the skipped plugin and why, and the section is
    logged, not refused."""
    _distribution(
        tmp_path,
        "demo_search",
        "demo_search",
        "import fancylib_not_there\n" + PLUGIN_SOURCE,
        "demo-search = demo_search:DemoSearch\n",
    )
    code = """
import websearch_sync as ws
try:
    ws.search("q", backend="demo")
except ws.InvalidInput as error:
    print(error.detail_code, error.message)
settings = ws.Settings(providers={"demo": {"api_key": "k"}})
print(ws.search("still works", settings=settings)["items"][0]["provider"])
"""
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith("unknown_backend unknown backend 'demo' (no backend is registered under this name; "), first
    assert (
        "plugin 'demo-search' (demo_search:DemoSearch) was skipped: it failed to load: ModuleNotFoundError: "
        "No module named 'fancylib_not_there'" in first
    ), first
    assert second == "stub"


def test_the_backends_listing_shows_a_skipped_plugin_with_why(tmp_path):
    """Before, a plugin that failed to import was only a warning on stderr above the table (or
    lost in a program's logging); the table and ``--json`` left it out."""
    _distribution(
        tmp_path, "broken_import", "broken_import", "import fancylib_not_there\n", "broken = broken_import:Backend\n"
    )
    code = """
import json, sys
from websearch_sync.cli import main
main(["backends", "--json"])
main(["backends"])
"""
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    listing, table = done.stdout.split("\nBACKEND", 1)
    rows = {row["name"]: row for row in json.loads(listing)}
    why = (
        "its plugin broken_import:Backend was skipped: it failed to load: ModuleNotFoundError: No module named "
        "'fancylib_not_there' (at broken_import.py:1)"  # its import's line: the author's own code that raised
    )
    assert (rows["broken"]["kind"], rows["broken"]["configured"], rows["broken"]["error"]) == ("plugin", False, why)
    assert rows["ddg_html"]["kind"] == "html" and "error" not in rows["ddg_html"]  # the others as before
    assert (rows["broken"]["plugin"], rows["ddg_html"]["plugin"]) == ("broken_import:Backend", None)
    (line,) = [line for line in table.splitlines() if line.startswith("broken ")]
    assert "plugin" in line and "no (%s...)" % why[:57] in line  # cut in the table, whole under it
    assert "  broken: %s\n" % why in table


def test_what_a_plugin_prints_as_it_is_imported_stays_off_the_commands_stdout(tmp_path):
    """stdout is a command's output: a plugin's ``print`` at import came before ``--json``'s
    JSON (and before the MCP server's first protocol message, which a client then cannot read)."""
    source = PLUGIN_SOURCE.replace("\nfrom websearch_sync", '\nprint("demo plugin loaded")\nfrom websearch_sync', 1)
    _distribution(tmp_path, "demo_search", "demo_search", source, "demo = demo_search:DemoSearch\n")
    done = _run(tmp_path, "import sys; from websearch_sync.cli import main; sys.exit(main(['backends', '--json']))")
    assert done.returncode == 0, done.stderr
    assert "demo" in {row["name"] for row in json.loads(done.stdout)}
    assert "demo plugin loaded" in done.stderr


def test_a_plugin_serving_news_too_declares_one_entry_point_per_engine_as_the_docs_say(tmp_path):
    """docs/backends.md: each engine class under an entry point of its own, sharing the ``name``."""
    page = " ".join((ROOT / "docs" / "backends.md").read_text(encoding="utf-8").split())
    declared = re.search(r'\(`(demo = "demo_search:DemoSearch")` and `(demo_news = "demo_search:DemoNews")`', page)
    lines = "".join(line.replace('"', "") + "\n" for line in declared.groups())
    source = PLUGIN_SOURCE + "\n\nclass DemoNews(DemoSearch):\n    vertical = 'news'\n"
    _distribution(tmp_path, "demo_search", "demo_search", source, lines)
    done = _run(tmp_path, "import sys; from websearch_sync.cli import main; sys.exit(main(['backends', '--json']))")
    assert done.returncode == 0, done.stderr
    rows = [row for row in json.loads(done.stdout) if row["name"].startswith("demo")]
    assert [(row["name"], row["verticals"]) for row in rows] == [("demo", ["web", "news"])], rows
    assert rows[0]["plugin"] == "demo_search:DemoSearch"  # its kind says json; this, a plugin's


def test_an_entry_point_naming_no_backend_class_says_what_it_names(tmp_path):
    """A plugin author's slips: ``demo = "demo_search"`` (no ``:Class``: the module is loaded) and
    ``demo = "demo_search:searcher"`` (an instance). Each was only "not a ... Backend subclass"."""
    source = PLUGIN_SOURCE + "\n\nfrom websearch_sync import Settings\nsearcher = DemoSearch(Settings())\nLIMIT = 3\n"
    _distribution(
        tmp_path,
        "demo_search",
        "demo_search",
        source,
        "demo = demo_search\ndemo_one = demo_search:searcher\ndemo_limit = demo_search:LIMIT\n",
    )
    done = _run(tmp_path, "import sys; from websearch_sync.cli import main; sys.exit(main(['backends', '--json']))")
    assert done.returncode == 0, done.stderr
    why = {row["name"]: row["error"] for row in json.loads(done.stdout) if row["name"].startswith("demo")}
    subclass = "was skipped: not a websearch_sync.backends.Backend subclass: "
    assert why == {
        "demo": "its plugin demo_search %sthe module demo_search (name the class too: demo_search:ClassName)"
        % subclass,
        "demo_one": "its plugin demo_search:searcher %san instance of DemoSearch (name the class, not an instance)"
        % subclass,
        "demo_limit": "its plugin demo_search:LIMIT %san int" % subclass,
    }


@pytest.mark.parametrize(
    "rewrap",
    [
        'import io, sys\nsys.stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", line_buffering=True)\n',
        'import sys\nsys.stdout.reconfigure(encoding="ascii", errors="strict")\n',
    ],
    ids=["rewrapped", "reconfigured"],
)
def test_a_plugin_rewrapping_its_stdout_as_it_is_imported_leaves_stderr_as_it_was(tmp_path, rewrap):
    """The plugin's "stdout" was the real stderr: rewrapped, the wrapper closed stderr when it was
    collected (a search's error line lost, status 1); reconfigured, stderr became ASCII."""
    _distribution(tmp_path, "demo_search", "demo_search", rewrap + PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    code = """
import sys
from websearch_sync.cli import main
encoding = sys.stderr.encoding
status = main(['backends', '--json'])
sys.stderr.write('stderr still open, encoding kept: %s\\n' % (sys.stderr.encoding == encoding))
sys.exit(status)
"""
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    assert "stderr still open, encoding kept: True" in done.stderr
    why = {row["name"]: row.get("error") for row in json.loads(done.stdout)}["demo"]
    assert why.startswith("its plugin demo_search:DemoSearch was skipped: it failed to load: AttributeError"), why


def test_a_plugin_writing_to_stdout_as_it_is_imported_loads_without_stderr(tmp_path):
    """Started with ``2>&-`` (Python's ``sys.stderr`` is None), a plugin's write to stdout at
    import raised (stdout redirected to None) and the plugin was skipped."""
    source = "import sys\nsys.stdout.write('demo plugin loaded\\n')\n" + PLUGIN_SOURCE
    _distribution(tmp_path, "demo_search", "demo_search", source, "demo = demo_search:DemoSearch\n")
    code = "import sys; from websearch_sync.cli import main; sys.stderr = None; sys.exit(main(['backends', '--json']))"
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    assert {row["name"]: row.get("error") for row in json.loads(done.stdout)}["demo"] is None
    assert "demo plugin loaded" not in done.stdout + done.stderr


def test_control_characters_a_plugin_prints_as_it_is_imported_never_reach_the_terminal(tmp_path):
    """The CLI writes no control characters but newline and tab; the plugins were loaded before
    its streams were wrapped, so a plugin's print reached stderr raw (a terminal's title, a clear screen)."""
    source = PLUGIN_SOURCE.replace(
        "\nfrom websearch_sync", '\nprint("\\x1b]0;TITLE\\x07\\x1b[2J demo plugin")\nfrom websearch_sync', 1
    )
    _distribution(tmp_path, "demo_search", "demo_search", source, "demo = demo_search:DemoSearch\n")
    done = _run(tmp_path, "import sys; from websearch_sync.cli import main; sys.exit(main(['backends', '--json']))")
    assert done.returncode == 0, done.stderr
    assert "]0;TITLE[2J demo plugin\n" in done.stderr and "\x1b" not in done.stderr and "\x07" not in done.stderr


def test_a_skipped_engine_for_another_vertical_is_named_in_the_error_about_that_vertical(tmp_path):
    """docs/backends.md's news engine under ``demo_news``, its declarations unusable: skipped under
    that entry point's name, so ``demo``'s news said "it serves web" and nothing of why."""
    source = PLUGIN_SOURCE + "\n\nclass DemoNews(DemoSearch):\n    vertical = 'news'\n    text_format = 'pdf'\n"
    entry_points = "demo = demo_search:DemoSearch\ndemo_news = demo_search:DemoNews\n"
    _distribution(tmp_path, "demo_search", "demo_search", source, entry_points)
    done = _run(
        tmp_path,
        "import sys; from websearch_sync.cli import main; sys.exit(main(['search', '-b', 'demo', '--vertical', 'news', 'q']))",
        DEMO_API_KEY="k",
    )
    assert done.returncode == 2, done.stderr
    assert (
        "error: InvalidInput/unsupported_vertical: backend demo does not search news (it serves web; its plugin "
        "demo_search:DemoNews serving news was skipped: its text_format is 'pdf', not one of html, text); backends that do:"
    ) in done.stderr, done.stderr


@pytest.mark.parametrize("group", ["websearch_sync.backend", "websearch-sync.backends", "Web-Search-Sync-Backends"])
def test_a_plugin_declared_in_a_mistyped_group_is_named_in_the_unknown_backend_error(tmp_path, monkeypatch, group):
    """A plugin whose ``pyproject.toml`` misspells the entry-point group is never read: nothing
    said so, and ``-b demo`` was an unknown backend like any typo. In this process: the group
    is read on the error's path alone (no plugin loads, so no registry state changes)."""
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n", group)
    monkeypatch.syspath_prepend(str(tmp_path))
    why = "an installed entry point demo is in the group %r, not 'websearch_sync.backends', the group the library reads"
    with pytest.raises(ws.InvalidInput, match=re.escape("unknown backend 'demo' (%s)" % (why % group))):
        ws.search("q", backend="demo")
    with pytest.raises(ws.InvalidInput, match=re.escape("names unknown backend 'demo' (%s)" % (why % group))):
        ws.Settings(backend="demo")
    # settings for it stay refused: it was never read, not skipped (a warning "its plugin was skipped")
    with pytest.raises(ws.InvalidInput, match=re.escape("names unknown backend 'demo' (%s)" % (why % group))):
        ws.Settings(providers={"demo": {"api_key": "k"}})


def test_an_entry_point_named_otherwise_than_its_backend_names_the_backend_it_registers(tmp_path):
    """``demo-api = demo_search:DemoSearch`` loads backend ``demo``: ``-b demo-api`` (the name the author
    wrote in ``pyproject.toml``) said "unknown backend" and nothing about the plugin it names."""
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, "demo_api = demo_search:DemoSearch\n")
    code = """
import websearch_sync as ws
for call in (lambda: ws.search("q", backend="demo_api"), lambda: ws.Settings(backend="demo_api")):
    try:
        call()
    except ws.InvalidInput as error:
        print(error.message)
"""
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    why = "(the plugin demo_search:DemoSearch under this entry point registers backend 'demo': name that backend)"
    search, settings = done.stdout.splitlines()
    assert search.startswith("unknown backend 'demo_api' %s; known backends: " % why), search
    assert settings.startswith("Settings.backend='demo_api' names unknown backend 'demo_api' %s" % why), settings


def test_an_entry_point_naming_its_class_after_a_dot_says_to_write_a_colon(tmp_path):
    """``demo = demo_search.DemoSearch`` (a dot for the colon) is read as a module ``demo_search.DemoSearch``:
    skipped with "No module named 'demo_search.DemoSearch'; 'demo_search' is not a package", which says what
    Python tried, not what to write."""
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, "demo = demo_search.DemoSearch\n")
    code = """
import websearch_sync as ws
try:
    ws.search("q", backend="demo")
except ws.InvalidInput as error:
    print(error.message)
"""
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    assert (
        "No module named 'demo_search.DemoSearch'; 'demo_search' is not a package (an entry point names its class"
        " after a colon: demo_search:DemoSearch))" in done.stdout
    ), done.stdout


@pytest.mark.parametrize(
    ("entry_point", "said"),
    [
        (
            "demo = demo_serch:DemoSearch\n",
            "No module named 'demo_serch' (the entry point names module 'demo_serch', which is not there (did you"
            " mean demo_search?); fix it in the plugin's pyproject.toml and install the plugin again (pip install -e"
            " .): entry points are read from the installed metadata)",
        ),
        (
            "demo = demo_search:DemoSerch\n",
            "module 'demo_search' has no attribute 'DemoSerch' (the entry point names class 'DemoSerch' of"
            " demo_search, which is not there (did you mean DemoSearch?); fix it in the plugin's pyproject.toml and"
            " install the plugin again",
        ),
    ],
)
def test_a_slip_in_an_entry_points_module_or_class_names_the_one_meant_and_how_to_fix_it(tmp_path, entry_point, said):
    """Before, only Python's words: "No module named 'demo_serch'", "module 'demo_search' has no attribute
    'DemoSerch'", saying neither that the entry point named it, nor what was meant, nor that a fix in
    pyproject.toml is read once the plugin is installed again."""
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, entry_point)
    done = _run(tmp_path, _ERROR_OF_A_SEARCH)
    assert done.returncode == 0, done.stderr
    assert said in done.stdout, done.stdout


def test_a_missing_dependency_of_a_plugin_is_not_taken_for_a_slip_in_its_entry_point(tmp_path):
    """The module the entry point names is there; what it imports is not: Python's words and the line, no hint."""
    source = "import demo_sdk_not_installed\n" + PLUGIN_SOURCE
    _distribution(tmp_path, "demo_search", "demo_search", source, "demo = demo_search:DemoSearch\n")
    done = _run(tmp_path, _ERROR_OF_A_SEARCH)
    assert "No module named 'demo_sdk_not_installed' (at demo_search.py:1)" in done.stdout, done.stdout
    assert "the entry point names" not in done.stdout


_ERROR_OF_A_SEARCH = """
import websearch_sync as ws
try:
    ws.search("q", backend="demo")
except ws.InvalidInput as error:
    print(error.message)
"""


#: A plugin that says when it is imported (a slow SDK import would be paid there), and a broken one
#: whose skip warning a command that loads the plugins says.
LOUD_PLUGIN_SOURCE = 'import sys\nsys.stderr.write("demo plugin imported\\n")\n' + PLUGIN_SOURCE


def test_a_command_that_never_names_a_backend_imports_no_plugin(tmp_path):
    """Every command loaded every plugin before it ran, ``state show`` and ``--version`` too: a
    broken plugin's skip warning repeated by each, a slow plugin's import paid by each. The plugins
    load at the registry's first question: ``backends`` loads them (once), ``state show`` none, nor
    ``state clear`` without ``--backend`` (its client's settings read every plugin's variables)."""
    _distribution(tmp_path, "demo_search", "demo_search", LOUD_PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    _distribution(
        tmp_path, "broken_import", "broken_import", "import fancylib_not_there\n", "broken = broken_import:B\n"
    )
    code = """
import sys
from websearch_sync.cli import main
sys.stderr.write("[state show]\\n")
main(["state", "show"])
sys.stderr.write("[state clear --cache]\\n")
main(["state", "clear", "--cache"])
sys.stderr.write("[state clear]\\n")
main(["state", "clear"])
sys.stderr.write("[backends]\\n")
main(["backends"])
main(["backends", "--json"])
"""
    done = _run(tmp_path, code)
    assert done.returncode == 0, done.stderr
    before, listing = done.stderr.split("[backends]\n")
    assert "demo plugin imported" not in before and "skipping backend plugin" not in before, before
    assert listing.count("demo plugin imported") == 1 and listing.count("skipping backend plugin 'broken'") == 1


@pytest.mark.parametrize("missing_ok", [False, True])
def test_an_installed_plugin_unregistered_before_the_first_question_stays_unregistered(tmp_path, missing_ok):
    """``unregister("demo")`` before anything asked about backends popped nothing (the plugins were not
    loaded yet) and the next question loaded ``demo`` back; and an unknown-backend message for it said
    "no installed plugin registers it: ... pip install -e .", though it is installed."""
    _distribution(tmp_path, "demo_search", "demo_search", PLUGIN_SOURCE, "demo = demo_search:DemoSearch\n")
    code = """
import websearch_sync as ws
from websearch_sync.backends import unregister
unregister("demo", missing_ok=%s)
print("demo" in ws.backend_names())
try:
    ws.search("python", backend="demo")
except ws.InvalidInput as error:
    print(error.detail_code)
    print(error.message)
"""
    done = _run(tmp_path, code % missing_ok, DEMO_API_KEY="k-123")
    lines = done.stdout.splitlines()
    assert lines[:2] == ["False", "unknown_backend"], done.stderr
    assert lines[2].startswith(
        "unknown backend 'demo' (the backend of the installed plugin demo_search:DemoSearch was removed in this"
        " process by unregister('demo'): register it again, or start a new process)"
    ), lines
