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
    monkeypatch.setattr(registry, "_INTERRUPTED_LOADS", set())
    monkeypatch.setattr(registry, "_PLUGIN_ENGINES", {})
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


@pytest.fixture
def unloaded(skipped, monkeypatch):
    """Plugins not loaded yet (none done), the registry's state put back after the test."""
    with registry.kept():  # (which loads the installed plugins first)
        monkeypatch.setattr(registry, "_PLUGINS_LOADED", False)
        monkeypatch.setattr(registry, "_PLUGINS_DONE", set())
        yield


def _main(argv):
    """``main(argv)``'s status; an interrupt escaping it is this test's failure, not the session's end."""
    from websearch_sync.cli import main

    try:
        return main(argv)
    except KeyboardInterrupt as interrupt:
        pytest.fail("main() let %r through" % interrupt)


def test_the_command_terminated_while_a_plugin_loads_says_so(unloaded, monkeypatch, capsys):
    monkeypatch.setattr(registry, "_entry_points", lambda: [_Entry(Terminated())])
    assert _main(["backends"]) == 143
    assert capsys.readouterr().err == "terminated while loading backend plugin 'stalled' (stalled:P)\n"


def test_a_plugin_raising_keyboardinterrupt_at_import_is_named(unloaded, monkeypatch, capsys):
    """Every command printed a bare "interrupted": nothing said which installed plugin did it."""
    monkeypatch.setattr(registry, "_entry_points", lambda: [_Entry(KeyboardInterrupt())])
    assert _main(["backends"]) == 130
    assert capsys.readouterr().err == "interrupted while loading backend plugin 'stalled' (stalled:P)\n"


def _names():
    """``backend_names()``; an interrupt escaping it is this test's failure, not the session's end."""
    import websearch_sync as ws

    try:
        return ws.backend_names()
    except KeyboardInterrupt as interrupt:
        pytest.fail("backend_names() raised %r" % interrupt)


class _Plugin:
    """An entry point whose first ``load()`` is interrupted (``interrupted`` of them), then loads a backend."""

    def __init__(self, name: str, interrupted: int, loads: list) -> None:
        self.name = self.value = name
        self.interrupted, self.loads = interrupted, loads

    def load(self):
        from websearch_sync.backends.stub import Stub

        self.loads.append(self.name)
        if self.loads.count(self.name) <= self.interrupted:
            raise KeyboardInterrupt()
        return type("Plugin", (Stub,), {"name": self.name})


def test_a_load_interrupted_by_ctrl_c_resumes_at_the_next_question(unloaded, monkeypatch):
    """A Ctrl-C while a plugin loaded (a REPL, a notebook) lost it and every plugin after it for the
    rest of the process: the plugins counted as loaded."""
    import websearch_sync as ws

    loads: list = []
    entries = [_Plugin("resume_first", 0, loads), _Plugin("resume_second", 1, loads), _Plugin("resume_third", 0, loads)]
    monkeypatch.setattr(registry, "_entry_points", lambda: entries)
    with pytest.raises(KeyboardInterrupt):
        ws.backend_names()
    names = ws.backend_names()
    assert {"resume_first", "resume_second", "resume_third"} <= set(names)
    assert loads == ["resume_first", "resume_second", "resume_second", "resume_third"]  # the first not again


def test_a_plugin_raising_keyboardinterrupt_itself_ends_two_questions_not_every_one(unloaded, monkeypatch):
    """Each question loaded it again and was interrupted again: a long-lived process could ask the
    registry nothing more. The second interrupt in a row skips it, naming why, and is still raised."""
    import websearch_sync as ws

    loads: list = []
    entries = [_Plugin("always_interrupted", 99, loads), _Plugin("after_it", 0, loads)]
    monkeypatch.setattr(registry, "_entry_points", lambda: entries)
    for _ in range(2):
        with pytest.raises(KeyboardInterrupt):
            ws.backend_names()
    names = _names()
    _names()
    assert "after_it" in names and "always_interrupted" not in names
    assert loads == ["always_interrupted", "always_interrupted", "after_it"]
    assert "interrupted twice in a row (KeyboardInterrupt)" in registry.skipped_plugin("always_interrupted")


def test_an_interrupt_after_a_plugin_registered_is_no_conflict_with_itself(unloaded, monkeypatch):
    """Interrupted between its registration and its record, the plugin loaded again (a new class
    object, as after a module's re-import) was skipped: "already registered by" itself."""
    import websearch_sync as ws

    loads: list = []
    monkeypatch.setattr(registry, "_entry_points", lambda: [_Plugin("registered_then_interrupted", 0, loads)])
    register = registry._register

    def interrupted_after(cls):
        register(cls)
        monkeypatch.setattr(registry, "_register", register)
        raise KeyboardInterrupt()

    monkeypatch.setattr(registry, "_register", interrupted_after)
    with pytest.raises(KeyboardInterrupt):
        ws.backend_names()
    assert "registered_then_interrupted" in _names()
    assert registry.skipped_plugin("registered_then_interrupted") is None
    assert len(loads) == 2
