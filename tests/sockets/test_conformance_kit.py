"""The conformance kit (``websearch_sync.testing.conformance_checks``) on any registered backend.

Every built-in backend passes it; a backend that breaks a promise fails the check that states
it; and the example plugin of docs/backends.md, made of public names only, installed as a real
distribution, passes it with a page Mojeek really served (its golden is the built-in
``mojeek_html`` parser's reviewed golden of that page: the same engine must read it the same).
"""

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from backend_kit import FIXTURES, project_backends
from python_forks import CLI, PYTEST, shared_searching
from test_plugins import _distribution
from user_pytest import run_pytest

from websearch_sync import AuthError, Timeout
from websearch_sync.backends import HtmlEngine, Option, ParseResult, SearchParams, Setting
from websearch_sync.engine import registry
from websearch_sync.testing import check_conformance, conformance_checks

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = re.search(
    r"<!-- example-plugin-start -->\s*```python\n(.*?)```",
    (ROOT / "docs" / "backends.md").read_text(encoding="utf-8"),
    re.S,
).group(1)
#: The real Mojeek pages the example is checked on: a results page and the ALTCHA wall.
MOJEEK_CASES = ("web-search-mcp__mojeek", "argos-engine__altcha")


@pytest.mark.parametrize(
    "name, vertical", [(name, vertical) for name in project_backends() for vertical in registry.verticals_of(name)]
)
def test_every_built_in_engine_passes_the_kit(name, vertical):
    """Each backend in each vertical it serves (issue 31: a bot wall or an unknown layout on a
    vertical endpoint is typed as on the web endpoint)."""
    check_conformance(name, verticals=[vertical])


def test_the_kit_checks_every_vertical_a_backend_serves():
    checks = conformance_checks("bing_html")
    assert sorted({check.vertical for check in checks}) == ["images", "news", "videos", "web"]
    assert "bing_html[news]-unknown_layout" in {str(check) for check in checks}


class _ZeroForAnything(HtmlEngine):
    """Breaks a promise: any page without results reads as "no results"."""

    name = "kit_zero_for_anything"
    default_endpoint = "https://zero.conformance.test/search"
    region_start = ("<body",)
    no_results = ("<",)
    unsent = ("locale", "safe_search", "time_range")  # what its request goes without, declared

    def query(self, params: SearchParams) -> dict:
        return {"q": params.full_query}

    def items(self, markup: str, params: SearchParams) -> list:
        return []


class _QueryNotSent(_ZeroForAnything):
    """Breaks a promise: the query never reaches the request."""

    name = "kit_query_not_sent"
    no_results = ()
    unsent = ("locale", "safe_search", "site_filter", "time_range")  # site_filter goes into the query it never sends

    def query(self, params: SearchParams) -> dict:
        return {"q": "fixed"}


class _OptionUnchecked(_ZeroForAnything):
    """Breaks a promise: its own ``check_params`` skips the declared options' check."""

    name = "kit_option_unchecked"
    no_results = ()
    options = (Option("fresh", "bool", default=False, doc="only fresh pages"),)

    def check_params(self, params: SearchParams) -> None:
        pass


class _NewsZeroForAnything(_ZeroForAnything):
    """A news engine beside a sound web engine that breaks a promise: any page reads as no news."""

    name = "kit_news_zero"
    vertical = "news"


class _SoundWeb(_QueryNotSent):
    name = "kit_news_zero"
    unsent = ("locale", "safe_search", "time_range")

    def query(self, params: SearchParams) -> dict:
        return {"q": params.full_query}


class _TimeoutSwallowed(_SoundWeb):
    """Breaks a promise: a server that never answers reads as "no results"."""

    name = "kit_timeout_swallowed"

    def search(self, params, transport, deadline):
        try:
            return super().search(params, transport, deadline)
        except Timeout:
            return ParseResult(items=[])


class _ParseRaises(_SoundWeb):
    """Breaks a promise: its reader raises on a page it does not know (a plugin's defect). The check
    raised the ``RuntimeError`` itself, out of the kit, instead of failing as its finding."""

    name = "kit_parse_raises"

    def items(self, markup: str, params: SearchParams) -> list:
        raise RuntimeError("no results list in this page")


class _InputIgnored(_SoundWeb):
    """Breaks a promise: its request goes without the time range, and no declaration says so (a call
    giving one got an answer of any date, and no ``not_sent`` told it)."""

    name = "kit_input_ignored"
    unsent = ("locale", "safe_search")


class _InputDeclaredButSent(_SoundWeb):
    """Breaks a promise: declared unsent, its request carries the time range all the same."""

    name = "kit_input_declared_but_sent"

    def query(self, params: SearchParams) -> dict:
        return {"q": params.full_query, "t": params.time_range or ""}


@pytest.mark.parametrize(
    "classes, failing",
    [
        ((_ZeroForAnything,), "kit_zero_for_anything-unknown_layout"),
        ((_InputIgnored,), "kit_input_ignored-unsent"),
        ((_InputDeclaredButSent,), "kit_input_declared_but_sent-unsent"),
        ((_ParseRaises,), "kit_parse_raises-unknown_layout"),
        ((_QueryNotSent,), "kit_query_not_sent-request"),
        ((_SoundWeb, _NewsZeroForAnything), "kit_news_zero[news]-unknown_layout"),
        ((_OptionUnchecked,), "kit_option_unchecked-options"),
        ((_TimeoutSwallowed,), "kit_timeout_swallowed-deadline"),
    ],
)
def test_a_broken_promise_fails_its_check(classes, failing):
    for cls in classes:
        registry.register(cls)
    name = classes[0].name
    try:
        outcomes = {}
        for check in conformance_checks(name):
            try:
                check()
                outcomes[str(check)] = "pass"
            except AssertionError:
                outcomes[str(check)] = "fail"
        assert [check for check, outcome in outcomes.items() if outcome == "fail"] == [failing]
        with pytest.raises(AssertionError, match=re.escape(failing)):
            check_conformance(name)
    finally:
        registry.unregister(name)


def _example_fixtures(folder: Path) -> None:
    """Mojeek's recorded cases, renamed to the example plugin (bodies copied byte for byte)."""
    target = folder / "example_mojeek"
    target.mkdir(parents=True)
    for case in MOJEEK_CASES:
        meta = json.loads((FIXTURES / "mojeek_html" / (case + ".meta.json")).read_text(encoding="utf-8"))
        meta["backend"] = "example_mojeek"
        (target / (case + ".meta.json")).write_text(json.dumps(meta), encoding="utf-8")
        body = (meta.get("response") or {}).get("body")
        if body:
            shutil.copyfile(FIXTURES / "mojeek_html" / body, target / body)
        golden = json.loads((FIXTURES / "mojeek_html" / (case + ".expected.json")).read_text(encoding="utf-8"))
        for item in golden.get("items") or []:
            item["provider"] = "example_mojeek"
        if "provider" in (golden.get("error") or {}):
            golden["error"]["provider"] = "example_mojeek"
        (target / (case + ".expected.json")).write_text(json.dumps(golden), encoding="utf-8")


@pytest.fixture(scope="module")
def forks(request):
    """The Python for the module's pytest and CLI runs (``python -m pytest``, ``python -m
    websearch_sync``), each a child forked after pytest, websearch_sync and the modules a search
    imports were (tests/python_forks.py ``shared_searching``, one per pytest process): each is a
    user's run in a process of its own, without paying the interpreter's start and those imports
    again. Not ``websearch_sync.testing``: pytest rewrites the asserts of a plugin it imports, and
    warns when it was imported before."""
    return shared_searching(request.config)


@pytest.fixture
def example_plugin(tmp_path):
    """The docs' example engine installed as a distribution; (environment, fixtures folder)."""
    site = tmp_path / "site"
    site.mkdir()
    _distribution(site, "example-mojeek", "example_mojeek", EXAMPLE, "example_mojeek = example_mojeek:ExampleMojeek\n")
    fixtures = tmp_path / "fixtures"
    _example_fixtures(fixtures)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    return env, fixtures


def test_the_docs_example_plugin_uses_public_names_only():
    imported = re.findall(r"from (\S+) import", EXAMPLE)
    assert imported and set(imported) == {"websearch_sync.backends"}


def test_the_docs_example_plugin_passes_the_kit_with_real_pages(example_plugin, tmp_path, forks):
    env, fixtures = example_plugin
    tests = tmp_path / "plugin_tests"
    tests.mkdir()
    run = forks.run(
        PYTEST,
        dict(env, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1"),
        "-p",
        "websearch_sync.testing",  # the plugin alone: other installed plugins cost seconds to load
        "-p",
        "no:cacheprovider",
        "-q",
        str(tests),
        "--websearch-conformance",
        "example_mojeek",
        "--websearch-fixtures",
        str(fixtures),
        cwd=str(tmp_path),
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"\b10 passed\b", run.stdout), (
        run.stdout
    )  # with `options` (HtmlEngine declares pageno) and `unsent`


def test_the_pytest_option_on_an_unknown_backend_is_a_usage_error(tmp_path, forks):
    """A mistyped name, or a plugin that failed to load: pytest's usage error naming the backend
    and why, not an INTERNALERROR traceback of the collection hook."""
    run = run_pytest(tmp_path, "--websearch-conformance", "mojek_html", forks=forks)
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, run.stdout + run.stderr
    assert "INTERNALERROR" not in run.stdout + run.stderr
    assert "ERROR: --websearch-conformance: unknown backend 'mojek_html' (did you mean mojeek_html?)" in run.stderr


QUERY_NOT_SENT_PLUGIN = """
from websearch_sync.backends import HtmlEngine


class QueryNotSent(HtmlEngine):
    name = "kit_query_not_sent"
    default_endpoint = "https://zero.conformance.test/search"
    region_start = ("<body",)
    unsent = ("locale", "safe_search", "site_filter", "time_range")

    def query(self, params):
        return {"q": "fixed"}

    def items(self, markup, params):
        return []
"""


def _check_the_failing_plugin(folder: Path, forks, *args: str, conftest: str = "") -> subprocess.CompletedProcess:
    """pytest on ``folder``'s tests (and its ``conftest``) with ``--websearch-conformance`` of
    :data:`QUERY_NOT_SENT_PLUGIN`, whose ``request`` check fails, pytest's cache on."""
    site, tests = folder / "site", folder / "tests"
    if not site.is_dir():
        site.mkdir()
        tests.mkdir()
        _distribution(
            site, "kit-plugin", "kit_plugin", QUERY_NOT_SENT_PLUGIN, "kit_query_not_sent = kit_plugin:QueryNotSent\n"
        )
        (tests / "conftest.py").write_text(conftest, encoding="utf-8")
    run = forks.run(
        PYTEST,
        dict(
            os.environ,
            PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
            PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",
        ),
        *["-p", "websearch_sync.testing", "-q", "-rN", "--rootdir", str(folder), str(tests)],
        *["--websearch-conformance", "kit_query_not_sent", *args],
        cwd=str(folder),
        timeout=120,
    )
    assert "INTERNALERROR" not in run.stdout + run.stderr, run.stdout + run.stderr
    return run


def test_a_failed_check_under_the_pytest_option_reads_as_its_finding(tmp_path, forks):
    """Before, each failed check printed pytest's and pluggy's own frames (some 200 lines) above
    the one line saying what the backend got wrong."""
    run = _check_the_failing_plugin(tmp_path, forks)
    assert run.returncode == 1, run.stdout + run.stderr
    failures = run.stdout.split("= FAILURES =", 1)[1].split("short test summary", 1)[0]
    assert "kit_query_not_sent-request: kit_query_not_sent: the query is not in the request" in failures, failures
    assert "_pytest" not in failures and "pluggy" not in failures, failures


#: The commands docs/backends.md gives a plugin author ("Running the conformance kit on your plugin").
AUTHOR_COMMANDS = re.search(
    r"### Running the conformance kit on your plugin.*?```bash\n(.*?)```",
    (ROOT / "docs" / "backends.md").read_text(encoding="utf-8"),
    re.S,
).group(1)


def test_the_docs_record_and_verify_loop_works_on_the_example_engine(example_plugin, tmp_path, forks):
    """The docs' commands, as written, for the docs' example engine (``demo`` is its name there),
    recording from a server on 127.0.0.1 that serves the Mojeek page, on a plain install's wire
    (no browser extra). Before, ``record`` wrote a case that did not replay (exit 1)."""
    from faults import respond
    from servers import FaultServer

    env, _ = example_plugin
    page = (FIXTURES / "mojeek_html" / "web-search-mcp__mojeek.html").read_bytes()
    lines = [line.split("#", 1)[0].strip() for line in AUTHOR_COMMANDS.splitlines() if line.strip()]
    assert [line.split()[:2] for line in lines] == [
        ["websearch-sync", "backends"],
        ["websearch-sync", "record"],
        ["websearch-sync", "verify"],
    ]
    with FaultServer({"/search": respond(200, page)}) as server:
        env = dict(env, WEB_SEARCH_ENDPOINT_EXAMPLE_MOJEEK=server.url("/search"), WEB_SEARCH_IMPERSONATE="off")
        for line in lines:
            argv = shlex.split(re.sub(r"\bdemo\b", "example_mojeek", line))
            run = forks.run(CLI, env, *argv[1:], cwd=str(tmp_path), timeout=120)  # python -m websearch_sync
            assert run.returncode == 0, (line, run.stdout, run.stderr)
    assert (tmp_path / "tests" / "fixtures" / "example_mojeek" / "python-requests.expected.json").is_file()


def test_the_pytest_option_takes_a_comma_list_like_the_command_line(tmp_path, forks):
    """``--websearch-conformance ddg_lite,mojeek_html`` (``-b`` takes such a list) was one unknown
    name, "did you mean mojeek_html?"."""
    run = run_pytest(tmp_path, "--websearch-conformance", "ddg_lite,mojeek_html", "--co", forks=forks)
    assert run.returncode == pytest.ExitCode.OK, run.stdout + run.stderr
    assert "conformance[ddg_lite-request]" in run.stdout and "conformance[mojeek_html-request]" in run.stdout


def test_the_checks_the_pytest_option_adds_are_counted_as_collected(tmp_path, forks):
    """The checks were appended after pytest counted its collection: a plugin author read
    "collected 1 item" (``--collect-only``: "1 test collected") and then "10 passed"."""
    (tmp_path / "test_own.py").write_text("def test_own():\n    pass\n", encoding="utf-8")
    run = run_pytest(tmp_path, "--websearch-conformance", "ddg_lite", "--co", forks=forks)
    assert run.returncode == pytest.ExitCode.OK, run.stdout + run.stderr
    listed = [line for line in run.stdout.splitlines() if "::" in line]
    checks = [line for line in listed if line.startswith("websearch-conformance::conformance[ddg_lite-")]
    assert len(checks) > 1 and len(listed) == len(checks) + 1, run.stdout
    assert "%d tests collected" % len(listed) in run.stdout, run.stdout


def test_fixtures_without_a_backend_to_check_are_a_usage_error(tmp_path, forks):
    """``--websearch-fixtures DIR`` alone ran nothing and said nothing: the recorded cases looked
    checked."""
    run = run_pytest(tmp_path, "--websearch-fixtures", "tests/fixtures", forks=forks)
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, run.stdout + run.stderr
    assert "ERROR: --websearch-fixtures is read by --websearch-conformance BACKEND only" in run.stderr


def test_last_failed_reruns_the_failed_conformance_check_alone(tmp_path, forks):
    """pytest 9 keeps a failed test's id parsed (name ``conformance``, parameters ``kit_...-request``);
    the checks' ids were built as a name alone, so they never matched it: ``--lf`` ran every check."""
    first = _check_the_failing_plugin(tmp_path, forks).stdout
    failed = re.search(r"(\d+) failed, (\d+) passed", first)
    assert failed and failed.group(1) == "1" and int(failed.group(2)) > 1, first
    again = _check_the_failing_plugin(tmp_path, forks, "--lf").stdout
    assert re.search(r"^1 failed, %s deselected in " % failed.group(2), again, re.M), again


def test_a_conftest_sees_the_conformance_checks_among_the_collected_tests(tmp_path, forks):
    """The checks were added after a conftest's ``pytest_collection_modifyitems`` had run: marked
    slow by it, they stayed selected under ``-m "not slow"``."""
    conftest = "import pytest\n\ndef pytest_collection_modifyitems(items):\n    for item in items:\n        item.add_marker(pytest.mark.slow)\n"
    run = _check_the_failing_plugin(
        tmp_path, forks, "-m", "not slow", "-W", "ignore::pytest.PytestUnknownMarkWarning", conftest=conftest
    ).stdout
    assert re.search(r"^\d+ deselected in ", run, re.M) and "passed" not in run and "failed" not in run, run


class _ConstructorRaises(_SoundWeb):
    """A plugin whose constructor raises (building its vendor's client): each check building it raised the
    ``RuntimeError`` out of the kit (``check_conformance`` stopped at the first), and the deadline check,
    building it in a thread, said "a silent server gave None, not Timeout" beside an unhandled thread error."""

    name = "kit_constructor_raises"

    def __init__(self, settings=None):
        raise RuntimeError("the vendor's client needs a region")


class _ConstructorRefusesNoKey(_SoundWeb):
    """A plugin whose constructor itself refuses a missing key, as ``check`` would: no finding."""

    name = "kit_constructor_refuses"
    provider_settings = (Setting("api_key", env="KIT_REFUSES_KEY", required=True),)

    def __init__(self, settings=None):
        super().__init__(settings)
        if not self.config.get("api_key"):
            raise AuthError("kit_constructor_refuses needs its key", provider=self.name, detail_code="missing_api_key")


def test_a_plugin_constructor_that_raises_is_each_checks_finding_naming_where():
    registry.register(_ConstructorRaises)
    try:
        with pytest.raises(AssertionError) as caught:
            check_conformance(_ConstructorRaises.name)
        said = "kit_constructor_raises: it cannot be built: internal error in backend kit_constructor_raises: RuntimeError at"
        lines = str(caught.value).splitlines()[1:]
        failed = [line.split(":")[0].strip() for line in lines]
        checks = ("options", "request", "unsent", "statuses", "proxy_pages", "unknown_layout", "deadline")
        assert failed == ["kit_constructor_raises-%s" % check for check in checks]  # each check that builds it
        assert all(said in line and "test_conformance_kit.py" in line for line in lines), lines
    finally:
        registry.unregister(_ConstructorRaises.name)
    registry.register(_ConstructorRefusesNoKey)
    try:
        check_conformance(_ConstructorRefusesNoKey.name)
    finally:
        registry.unregister(_ConstructorRefusesNoKey.name)
