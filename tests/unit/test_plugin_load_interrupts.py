"""What a plugin's import may end: its own failure (``sys.exit()`` included) skips the plugin;
the host's Ctrl-C or SIGTERM while it loads stops the host (it counted as a plugin that failed to
load, and a terminated batch ran on to exit 0)."""

import logging

import pytest

from websearch_sync.cli.output import Terminated
from websearch_sync.engine import registry


class _Entry:
    """An entry point whose ``load()`` raises ``raised``."""

    name = "stalled"
    value = "stalled:P"

    def __init__(self, raised: BaseException) -> None:
        self.raised = raised

    def load(self) -> None:
        raise self.raised


@pytest.fixture
def skipped(monkeypatch):
    """The registry's record of skipped plugins, fresh for the test."""
    monkeypatch.setattr(registry, "_SKIPPED", {})
    monkeypatch.setattr(registry, "_SKIPPED_ELSEWHERE", {})
    return registry._SKIPPED


@pytest.mark.parametrize("interrupt", [Terminated(), KeyboardInterrupt()], ids=["SIGTERM", "Ctrl-C"])
def test_an_interrupt_while_a_plugin_loads_stops_the_host(skipped, interrupt):
    with pytest.raises(type(interrupt)):
        registry._load_plugin(_Entry(interrupt))
    assert skipped == {}


def test_a_plugin_that_exits_at_import_is_skipped(skipped, caplog):
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        registry._load_plugin(_Entry(SystemExit(3)))
    assert skipped == {"stalled": "its plugin stalled:P was skipped: it failed to load: SystemExit: 3"}
    assert "skipping backend plugin 'stalled'" in caplog.text


def test_the_command_terminated_while_a_plugin_loads_says_so(skipped, monkeypatch, capsys):
    from websearch_sync.cli import main

    monkeypatch.setattr(registry, "_entry_points", lambda: [_Entry(Terminated())])
    monkeypatch.setattr(registry, "_PLUGINS_LOADED", False)
    assert main(["backends"]) == 143
    assert capsys.readouterr().err == "terminated\n"
