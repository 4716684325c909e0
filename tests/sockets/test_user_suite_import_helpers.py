"""A user's test suite (run as tests/sockets/test_user_suite_isolation.py runs one: a folder of its
own, the plugin through its entry point) whose modules register their backends through a helper
function they call as they are imported: ``def setup_backends(): register(Mine)``, then
``setup_backends()`` at the module's top. The import is not made again, so such a backend lasts
as one registered by the module's top level itself does, at any depth of calls; one a helper
registers inside a test is still undone after that test. The user's pytest runs in a child forked
from a Python that imported pytest and the library's third-party dependencies (user_pytest.shared_forks)."""

import pytest
from user_pytest import run_pytest, shared_forks, write_suite

#: A module of the user's with the helpers (another module's functions, called at a test module's import).
HELPERS = """
from websearch_sync.backends import register, unregister
from websearch_sync.backends.stub import Stub


class Helped(Stub):
    name = "helped"


class InTest(Stub):
    name = "in_test"


def install():
    register(Helped)
    unregister("ddg_lite")


def install_in_a_test():
    register(InTest)
"""

#: An application registering through a helper as it is imported, first imported inside a test (the
#: next test's ``import`` is cached).
LAZY_APP = """
from websearch_sync.backends import register
from websearch_sync.backends.stub import Stub


class Lazy(Stub):
    name = "lazy"


def setup_backends():
    register(Lazy)


setup_backends()
"""

USER_TESTS = {
    "imports": """
import websearch_sync as ws
from websearch_sync.backends import register
from websearch_sync.backends.stub import Stub

import helpers


class Deep(Stub):
    name = "deep"


def _register_deep():
    register(Deep)


def setup_backends():
    helpers.install()
    _register_deep()


setup_backends()


def test_one():
    names = ws.backend_names()
    assert "helped" in names and "deep" in names and "ddg_lite" not in names


def test_two():
    names = ws.backend_names()
    assert "helped" in names and "deep" in names and "ddg_lite" not in names
""",
    "lazy": """
import websearch_sync as ws


def test_imports_the_app():
    import lazy_app
    assert "lazy" in ws.backend_names()


def test_imports_it_again():
    import lazy_app
    assert "lazy" in ws.backend_names()
""",
    "in_a_test": """
import websearch_sync as ws

import helpers


def test_registers_through_a_helper():
    helpers.install_in_a_test()
    assert "in_test" in ws.backend_names()


def test_after_it():
    names = ws.backend_names()
    assert "in_test" not in names
    assert "helped" in names and "deep" in names and "lazy" in names and "ddg_lite" not in names
""",
}


#: The library first comes into use in a test that imports the application: after that test the
#: plugin puts back the backends as installed, and those that last (``registry.forget_registrations``).
FIRST_USE_TESTS = {
    "first_use": """
def test_imports_the_app():
    import lazy_app
    import websearch_sync as ws

    assert "lazy" in ws.backend_names()


def test_imports_it_again():
    import lazy_app
    import websearch_sync as ws

    assert "lazy" in ws.backend_names()
""",
}


@pytest.mark.parametrize(
    "tests, passed",
    [(USER_TESTS, "6 passed"), (FIRST_USE_TESTS, "2 passed")],
    ids=["in_use_from_collection", "first_used_in_a_test"],
)
def test_backends_a_helper_registers_at_a_modules_import_outlive_the_test(tmp_path, tests, passed, request):
    write_suite(tmp_path, {"helpers": HELPERS, "lazy_app": LAZY_APP}, tests)
    done = run_pytest(tmp_path, forks=shared_forks(request.config))
    assert done.returncode == 0, done.stdout + done.stderr
    assert passed in done.stdout
