"""A user's own test suite, run as a user runs it (a folder of its own, one process, the plugin
through its entry point): nothing one test does reaches the tests after it. Each file would fail
without one of the plugin's resets: an application's module-level client carried a block and a
cached answer into the next test (``testing.reset`` makes open clients learn afresh), and a backend
a test registered, or a built-in it replaced and unregistered, outlived it (``registry.kept``).
And a suite that never searches does not load the library through the plugin.

The suites that search run in pytest children forked from a Python that imported pytest and the
library's third-party dependencies, not the library (user_pytest.shared_forks: the library is
imported after pytest has started in the child and loaded the plugin through its entry point, as
in a user's run). The suite that never searches starts a real ``python -m pytest``: what it
checks is what that start imports."""

import pytest
from user_pytest import run_pytest, shared_forks


@pytest.fixture(scope="module")
def forks(request):
    """The fork server of user runs (user_pytest.shared_forks)."""
    return shared_forks(request.config)


APP = """
import websearch_sync as ws

CLIENT = ws.SearchClient("ddg_html", cache_ttl_s=300)


def first_url(question):
    return CLIENT.search(question)["items"][0]["url"]
"""

#: The user's test files, in the order that shows each leak (a test after the one that leaks).
USER_TESTS = {
    "blocked": """
import pytest
import websearch_sync as ws
from websearch_sync.testing import fake_results

import myapp


def test_blocked():
    with fake_results({"ddg_html": ws.WebBlocked("wall", detail_code="captcha_required")}):
        with pytest.raises(ws.WebBlocked):
            myapp.first_url("q")
""",
    "answers": """
from websearch_sync.testing import fake_results

import myapp


def test_answers():
    with fake_results({"ddg_html": [{"title": "T", "url": "https://t.example/"}]}):
        assert myapp.first_url("q") == "https://t.example/"


def test_answers_anew():
    with fake_results({"ddg_html": [{"title": "U", "url": "https://u.example/"}]}):
        assert myapp.first_url("q") == "https://u.example/"
""",
    "registers": """
from websearch_sync.backends import register, unregister
from websearch_sync.backends.stub import Stub


class Joining(Stub):
    name = "kept_probe"
    auto_rank = 50


class Replacing(Stub):
    name = "ddg_html"


def test_registers():
    register(Joining)
    register(Replacing, replace=True)
    unregister("ddg_html")
""",
    "sees": """
import websearch_sync as ws


def test_sees_the_backends_as_installed():
    names = ws.backend_names()
    assert "kept_probe" not in names and "ddg_html" in names
""",
}


def test_a_users_suite_isolates_its_tests(tmp_path, forks):
    (tmp_path / "myapp.py").write_text(APP, encoding="utf-8")
    for number, (name, text) in enumerate(USER_TESTS.items()):
        (tmp_path / ("test_%d_%s.py" % (number, name))).write_text(text, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = .\n", encoding="utf-8")
    done = run_pytest(tmp_path, forks=forks)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 passed" in done.stdout


UNRELATED = """
import sys


def test_the_plugin_is_there_and_the_library_is_not_loaded(request):
    assert request.config.pluginmanager.has_plugin("websearch_sync.testing")
    heavy = ("requests", "lxml", "websearch_sync.testing.kit", "websearch_sync.client")
    loaded = [name for name in heavy if name in sys.modules]
    assert not loaded, loaded
"""


def test_a_suite_that_never_searches_does_not_load_the_library(tmp_path):
    """pytest loads the installed plugin in every session of the environment: before, a project's
    one-test suite that never searched imported the library through it (requests, lxml and the
    client: ~500 modules, +0.3 to 0.5 s of CPU a run, measured with bytecode caches)."""
    (tmp_path / "test_unrelated.py").write_text(UNRELATED, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    done = run_pytest(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


#: An application registering its backend as it is imported (docs/backends.md: ``register`` in an
#: application), first imported inside a test: the next test's ``import`` is cached, so its
#: backend must outlive the test that imported it.
REGISTERING_APP = """
from websearch_sync.backends import register
from websearch_sync.backends.stub import Stub


@register
class Mine(Stub):
    name = "mine"
"""

APP_TESTS = """
import websearch_sync as ws


def test_one():
    import registering_app
    assert "mine" in ws.backend_names()


def test_two():
    import registering_app
    assert "mine" in ws.backend_names()
"""

#: A session fixture registering a backend, first set up by a test's ``getfixturevalue``: it is
#: cached for the session, so its backend must stay for the session.
SESSION_CONFTEST = """
import pytest


@pytest.fixture(scope="session")
def sess_backend():
    from websearch_sync.backends import register
    from websearch_sync.backends.stub import Stub

    class Theirs(Stub):
        name = "theirs"

    register(Theirs)
    return "theirs"
"""

SESSION_TESTS = """
import websearch_sync as ws


def test_a(request):
    assert request.getfixturevalue("sess_backend") in ws.backend_names()


def test_b(sess_backend):
    assert sess_backend in ws.backend_names()
"""


@pytest.mark.parametrize("first", ["app", "session"])
def test_backends_registered_at_import_or_by_a_wider_fixture_outlive_the_test(tmp_path, first, forks):
    """Which comes first is the test in which the library comes into use (the backends as installed
    are restored after it); the other runs under the kept registry of a library in use."""
    (tmp_path / "registering_app.py").write_text(REGISTERING_APP, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(SESSION_CONFTEST, encoding="utf-8")
    order = ["app", "session"] if first == "app" else ["session", "app"]
    texts = {"app": APP_TESTS, "session": SESSION_TESTS}
    for number, name in enumerate(order):
        (tmp_path / ("test_%d_%s.py" % (number, name))).write_text(texts[name], encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = .\n", encoding="utf-8")
    done = run_pytest(tmp_path, forks=forks)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed" in done.stdout
