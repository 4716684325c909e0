"""A user's test suite (run as tests/sockets/test_user_suite_isolation.py runs one) in a project
with a backend plugin installed (a distribution whose entry point is in ``websearch_sync.backends``):
the plugin's backend is there in every test. After the test in which the library came into use, the
pytest plugin puts the backends back as installed (``registry.forget_registrations``), the plugins
to be loaded again at the next question; they were never loaded again, and the plugin's backend was
an unknown backend in every later test. The run is forked from the user runs' server
(``user_pytest.shared_forks``: pytest and the library's third-party dependencies imported, not the
library), so the plugin's entry point is read in the child, as in a user's run."""

from user_pytest import run_pytest, shared_forks, write_suite

PLUGIN = """
from websearch_sync.backends import ParseResult, RequestSpec
from websearch_sync.backends.stub import Stub


class Theirs(Stub):
    name = "their_plugin"

    def build_request(self, params):
        return RequestSpec("GET", "https://their-plugin.example/")

    def parse(self, response, params):
        return ParseResult(items=[])
"""

TESTS = {
    "plugin": """
def test_first_use():
    import websearch_sync as ws

    assert "their_plugin" in ws.backend_names()


def test_after_it():
    import websearch_sync as ws

    assert "their_plugin" in ws.backend_names()
""",
}


def test_an_installed_plugin_is_a_backend_in_the_tests_after_the_first_use(tmp_path, request):
    write_suite(tmp_path, {"their_plugin": PLUGIN}, TESTS)
    info = tmp_path / "their_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: their-plugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[websearch_sync.backends]\ntheir_plugin = their_plugin:Theirs\n", encoding="utf-8"
    )
    done = run_pytest(tmp_path, forks=shared_forks(request.config))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout
