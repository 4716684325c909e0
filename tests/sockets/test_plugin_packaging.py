"""The plugin docs' two files, exactly as docs/backends.md shows them (``demo_search.py`` and its
``pyproject.toml``), make a distribution pip installs and the library then finds by its entry
point. The docs showed only the entry-point table: a plugin author had to know the rest of a
``pyproject.toml`` (build system, name, the module to ship) and that websearch-sync is not on PyPI.

The installed example, a JSON engine read by its declarations (``results_at``, ``result_fields``,
``request_id_at``) and one ``item_of`` hook, then reads the answer the docs show, served on
127.0.0.1, into the item the docs say, and passes the conformance kit by the docs' command."""

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from faults import respond
from servers import FaultServer

from websearch_sync.engine import registry
from websearch_sync.testing import check_conformance, conformance_checks

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "backends.md").read_text(encoding="utf-8")


def _block(language: str, opening: str) -> str:
    """The docs' code block in ``language`` whose first line starts with ``opening``."""
    found = re.search(r"```%s\n(%s[^\n]*\n.*?)```" % (language, re.escape(opening)), DOCS, re.S)
    assert found, "docs/backends.md has no %s block starting %r" % (language, opening)
    return found.group(1)


#: What the docs say the demo API answers, and what a search makes of it.
ANSWER = re.search(r"What the demo API answers.*?```json\n(.*?)```", DOCS, re.S).group(1)
ITEM = json.loads(re.search(r"gives one item, `(\{.*?\})`", DOCS, re.S).group(1))
REQUEST_ID = re.search(r'and `provider_meta\["request_id"\]` `"([^"]*)"`', DOCS).group(1)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The docs' two files pip-installed into a folder; the environment that puts it on the path."""
    tmp_path = tmp_path_factory.mktemp("plugin")
    source = tmp_path / "demo-search"
    source.mkdir()
    (source / "demo_search.py").write_text(_block("python", "# demo_search.py"), encoding="utf-8")
    (source / "pyproject.toml").write_text(
        _block("toml", "# pyproject.toml of the plugin's distribution"), encoding="utf-8"
    )
    site = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--no-build-isolation"]
    built = subprocess.run(
        pip + ["--target", str(site), str(source)], capture_output=True, text=True, timeout=300, check=False
    )
    assert built.returncode == 0, built.stderr
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_SEARCH_", "DEMO_"))}
    return dict(environ, PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))


def test_the_docs_plugin_files_install_and_register_the_backend(installed, tmp_path):
    listed = subprocess.run(
        [sys.executable, "-m", "websearch_sync", "backends"],
        capture_output=True,
        text=True,
        timeout=120,
        env=installed,
        cwd=tmp_path,
        check=False,
    )
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^demo +json +web +no \(set DEMO_API_KEY\)", listed.stdout, re.M), listed.stdout + listed.stderr


#: The error the docs quote for an answer without ``hits``.
SHAPE_ERROR = re.search(r"\(`(demo answered without 'hits' in its JSON \(what is there: [^)]*\))`", DOCS).group(1)
_SEARCHES = """
import json, sys, websearch_sync as ws
out = {"result": ws.search("python", backend="demo")}
try:
    ws.search("python", backend="demo", settings=ws.Settings.from_env().replace(endpoints={"demo": sys.argv[1]}))
except ws.WebParseError as error:
    out["error"] = error.message
print(json.dumps(out))
"""


def test_the_docs_json_plugin_reads_the_docs_answer_into_the_docs_item(installed, tmp_path):
    other = json.dumps({"trace": "req-8", "results": []}).encode()
    answers = {
        "/api": respond(200, ANSWER.encode("utf-8"), content_type="application/json"),
        "/other": respond(200, other, content_type="application/json"),
    }
    with FaultServer(answers) as server:
        env = dict(installed, DEMO_API_KEY="k-1", WEB_SEARCH_ENDPOINT_DEMO=server.url("/api"))
        run = subprocess.run(
            [sys.executable, "-c", _SEARCHES, server.url("/other")],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["result"]["items"] == [ITEM]  # the declared fields, the hook's snippet, the item without a link dropped
    assert out["result"]["provider_meta"]["request_id"] == REQUEST_ID
    assert out["error"] == SHAPE_ERROR  # another shape: what is there, as the docs say


def test_the_docs_json_plugin_passes_the_conformance_kit(installed):
    """The installed plugin passes every check of the kit, as ``pytest --websearch-conformance demo``
    runs them ("Running the conformance kit on your plugin"): statuses, an unknown layout
    (``WebParseError``, never "no results"), a silent server... Run here on the module pip
    installed: the pytest option's run of the same checks, in a user's process, is checked on the
    docs' example engine (test_conformance_kit.py: passing with real pages, a failed check read as
    its finding), and the entry point registering this one by test_the_docs_plugin_files_install_...
    (a pytest process of its own cost 0.7 s of CPU)."""
    site = Path(installed["PYTHONPATH"].split(os.pathsep)[0])
    spec = importlib.util.spec_from_file_location("demo_search", site / "demo_search.py")
    assert spec is not None and spec.loader is not None, sorted(p.name for p in site.iterdir())
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    registry.register(module.DemoSearch)
    try:
        assert len(conformance_checks("demo")) == 9  # what the option's run collects (with `unsent`)
        check_conformance("demo")
    finally:
        registry.unregister("demo")
