"""``registry.kept()``: what a block (the pytest plugin: each test) registers, replaces or
unregisters is undone as it ends, so one test's ``register`` cannot change the backends of the
tests after it (docs/backends.md suggests ``register`` in a test; a backend with an ``auto_rank``
joined every later ``auto`` search, and unregistering a test's replacement of ``ddg_html``
removed the built-in ``ddg_html`` for the rest of the process)."""

import sys

import pytest
from stepping import looked_at_each_step

import websearch_sync as ws
from websearch_sync.backends import ParseResult, RequestSpec, register, unregister
from websearch_sync.backends.stub import Stub
from websearch_sync.engine import registry


class _Joining(Stub):
    name = "kept_probe"
    auto_rank = 50  # joins backend="auto"


class _Replacing(Stub):
    name = "ddg_html"

    def build_request(self, params):
        return RequestSpec("GET", "https://replaced.example/")

    def parse(self, response, params):
        return ParseResult(items=[])


def test_a_backend_registered_in_the_block_is_gone_after_it():
    with registry.kept():
        register(_Joining)
        assert "kept_probe" in ws.backend_names()
    assert "kept_probe" not in ws.backend_names()
    with pytest.raises(ws.InvalidInput, match="unknown backend"):
        ws.search("q", backend="kept_probe")


def test_a_built_in_replaced_then_unregistered_in_the_block_is_back_after_it():
    built_in = registry.backend_class("ddg_html")
    with registry.kept():
        register(_Replacing, replace=True)
        unregister("ddg_html")
        assert "ddg_html" not in ws.backend_names()
    assert "ddg_html" in ws.backend_names()
    assert registry.backend_class("ddg_html") is built_in


def test_a_block_that_registers_nothing_leaves_the_registry_as_it_was():
    before = registry.backend_names()
    with registry.kept():
        ws.search("q", backend="stub", settings=ws.Settings())
    assert registry.backend_names() == before


def test_forget_registrations_goes_back_to_the_backends_as_installed():
    """What the pytest plugin does after the test in which the library came into use (no registry
    was there to keep as that test started)."""
    built_in = registry.backend_class("ddg_html")
    with registry.kept():  # this suite's own registrations come back after
        register(_Joining)
        unregister("ddg_html")
        registry.forget_registrations()
        names = registry.backend_names()  # a question: the plugins load again
        assert "kept_probe" not in names and set(registry._BUILT_IN) <= set(names)
        assert registry.backend_class("ddg_html") is built_in


def test_another_thread_never_sees_a_built_in_missing_while_a_block_restores():
    """A server a session fixture started answers from its own thread while each test's block
    ends: the registry was emptied, then filled again, so that thread read ``unknown backend
    'ddg_html'`` between tests (reviewer: 972 times in 20,000 blocks). Another thread looks at the
    registry between every two steps of the block's code (tests/stepping.py): what it could see at
    any thread switch it sees in this one block (3,000 blocks switching threads as often as the
    interpreter could caught an emptying restore in 1 of 3 runs at load 13-15, 4 of 5 at load 10)."""

    def look():
        assert registry.backend_class("ddg_html") is not None
        names = registry.backend_names()
        assert set(registry._BUILT_IN) <= set(names), sorted(set(registry._BUILT_IN) - set(names))

    with looked_at_each_step(registry, look) as looker:
        with registry.kept():
            register(_Joining)
    assert "kept_probe" not in registry.backend_names()  # the block was restored, under the looks
    assert looker.steps > 0  # the looks were made
    assert looker.failures[:1] == []  # the first thing another thread saw wrong


class _Arriving(Stub):
    name = "kept_arriving"


def test_a_thread_going_through_the_backends_is_not_broken_by_another_registering_one():
    """A search reads the options of every engine (``backend_options``: an unknown option's message) going through the registry
    while another thread may register or unregister a backend: a name added to the dict being
    gone through was ``RuntimeError: dictionary changed size during iteration`` in the reader.
    Another thread registers then unregisters a backend between every two steps of the reader
    (tests/stepping.py)."""

    registered = []

    def change():  # the registry's size changes at each step: an iteration under way sees it
        if registered:
            unregister(registered.pop())
        else:
            registered.append(register(_Arriving).name)

    expected = registry.backend_options()  # every engine imported and checked: fewer steps below
    with registry.kept():
        with looked_at_each_step(registry, change) as changer:
            options = registry.backend_options()
    assert changer.steps > 0 and changer.failures[:1] == []
    assert options == expected


def test_what_a_module_registers_as_it_is_imported_or_a_lasting_block_outlives_the_block(monkeypatch):
    """An application's ``@register`` at import (a test's ``import`` is not made again) and a
    session fixture's registration (the plugin's :func:`registry.lasting`) outlive every block
    open; the block's own ``register`` does not."""
    monkeypatch.setattr(registry, "_LASTING", [])  # what lasts here is forgotten after this test
    with registry.kept():  # the registry as it was after this test
        with registry.kept():
            exec(compile("register(cls)", "registering_app.py", "exec"), {"register": register, "cls": _Joining})
            with registry.lasting():
                unregister("ddg_lite")
            register(_Replacing, replace=True)  # the block's own: undone
        names = ws.backend_names()
        assert "kept_probe" in names and "ddg_lite" not in names
        assert registry.backend_class("ddg_html") is not _Replacing
        registry._LASTING.clear()
    assert "kept_probe" not in ws.backend_names() and "ddg_lite" in ws.backend_names()


class _Plugin(_Replacing):
    name = "import_probe_plugin"


class _PluginEntry:
    """An installed plugin's entry point, as ``importlib.metadata`` gives it."""

    name = value = "import_probe_plugin"

    def load(self):
        return _Plugin


def test_a_plugin_loaded_while_a_module_is_imported_is_loaded_afresh_after_forget_registrations(tmp_path, monkeypatch):
    """A registration made while a module is imported lasts (at any depth: the module's helper), but
    not the plugins the registry loads then (a module asking the registry its first question at its
    import): after ``forget_registrations`` they are loaded again, from the entry points installed."""
    (tmp_path / "asks_at_import.py").write_text(
        "import websearch_sync as ws\n"
        "from websearch_sync.backends import register\n"
        "from websearch_sync.backends.stub import Stub\n\n\n"
        "class Mine(Stub):\n    name = 'import_probe_mine'\n\n\n"
        "def setup():\n    register(Mine)\n    return ws.backend_names()\n\n\n"
        "NAMES = setup()\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_entry_points", lambda: [_PluginEntry()])
    lasting = list(registry._LASTING)
    try:
        with registry.kept():
            registry.forget_registrations()  # the plugins load at the next question: the import's
            module = __import__("asks_at_import")
            assert "import_probe_plugin" in module.NAMES and "import_probe_mine" in module.NAMES
            monkeypatch.setattr(registry, "_entry_points", lambda: [])  # the plugin uninstalled
            registry.forget_registrations()
            names = ws.backend_names()
            assert "import_probe_mine" in names and "import_probe_plugin" not in names
    finally:
        sys.modules.pop("asks_at_import", None)
        registry._LASTING[:] = lasting
        registry.forget_registrations()


def test_every_way_of_registering_at_a_scripts_top_level_lasts_and_inside_a_test_does_not(monkeypatch):
    """``register`` (a call and the decorator it returns), the testing kit's ``register_checked`` and
    ``unregister`` judge alike whether a change lasts (:func:`registry._lasting_if_imported`): made at a
    module's top level it does, made by a test's own code it does not."""
    monkeypatch.setattr(registry, "_LASTING", [])
    source = (
        "register(Joining)\n@register(replace=True)\nclass Top(Replacing):\n    pass\n"
        "register_checked(Checked)\nunregister('ddg_lite')\n"
    )

    class _Checked(Stub):
        name = "checked_probe"

    names = {"register": register, "register_checked": registry.register_checked, "unregister": unregister}
    with registry.kept():
        exec(
            compile(source, "registering_script.py", "exec"),
            {**names, "Joining": _Joining, "Replacing": _Replacing, "Checked": _Checked},
        )
        at_top = [(name, vertical, cls and cls.__name__) for name, vertical, cls in registry._LASTING]
        registry._LASTING.clear()
        register(_Joining)
        registry.register_checked(_Checked)
        unregister("kept_probe")
        in_test = list(registry._LASTING)
        registry._LASTING.clear()
    assert at_top == [
        ("kept_probe", "web", "_Joining"),
        ("ddg_html", "web", "Top"),
        ("checked_probe", "web", "_Checked"),
        ("ddg_lite", None, None),
    ]
    assert in_test == []


def test_one_mechanism_decides_what_lasts():
    """What makes a registration last is written once (it stood in ``register`` and ``register_checked``
    and ``unregister``, each line by line): only :func:`registry._lasting_if_imported` asks
    :func:`registry._at_import` and adds to ``_LASTING`` a change made at import."""
    import inspect

    callers = [
        name
        for name, function in vars(registry).items()
        if inspect.isfunction(function)
        and function.__module__ == registry.__name__
        and "_at_import(" in inspect.getsource(function).split('"""')[-1]
        and name != "_at_import"
    ]
    assert callers == ["_lasting_if_imported"]
