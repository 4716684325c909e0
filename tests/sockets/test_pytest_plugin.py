"""websearch_sync.testing is a pytest plugin: installed, its fixtures are there in a user's tests
with no ``pytest_plugins`` line, and a conftest that still names it does not register it twice.
Each user run is pytest started in a child forked from a Python that imported pytest and the
library's dependencies (user_pytest.shared_forks): the plugin arrives in the child, as in a
user's run."""

import configparser
import textwrap
from importlib import metadata
from pathlib import Path

import pytest
from user_pytest import run_pytest, shared_forks

ROOT = Path(__file__).resolve().parents[2]
ENTRY_POINT = "websearch_sync.testing"

USER_TEST = textwrap.dedent("""
    import websearch_sync as ws
    from websearch_sync.testing import assert_contract

    def test_fake(websearch_fake):
        websearch_fake([{"title": "T", "url": "https://t.example/"}])
        result = ws.search("q")
        assert_contract(result, max_results=5)
        assert result["items"][0]["url"] == "https://t.example/"

    def test_replay_fixture_exists(websearch_replay):
        assert callable(websearch_replay)
""")


def test_setup_cfg_declares_the_plugin_under_the_module_name() -> None:
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    declared = dict(line.split("=", 1) for line in config["options.entry_points"]["pytest11"].strip().splitlines())
    assert {name.strip(): target.strip() for name, target in declared.items()} == {
        ENTRY_POINT: "websearch_sync.testing"
    }


def _installed_with_the_entry_point() -> bool:
    return any(ep.name == ENTRY_POINT for ep in metadata.entry_points(group="pytest11"))


@pytest.mark.parametrize(
    "conftest", [None, 'pytest_plugins = ["websearch_sync.testing"]\n'], ids=["no-conftest", "old-conftest"]
)
def test_a_users_tests_get_the_fixtures(tmp_path: Path, conftest: str, request: pytest.FixtureRequest) -> None:
    if conftest is None and not _installed_with_the_entry_point():  # pip install -e . (as .ci/run does) writes it
        pytest.skip("websearch-sync is installed from a checkout without the pytest11 entry point")
    if conftest is not None:
        (tmp_path / "conftest.py").write_text(conftest)
    (tmp_path / "test_user.py").write_text(USER_TEST)
    proc = run_pytest(tmp_path, timeout=120, forks=shared_forks(request.config))  # pytest starts in the child
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 passed" in proc.stdout
