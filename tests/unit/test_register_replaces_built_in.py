"""``register(cls)`` in code replaced a built-in backend of the same name without a word (an installed
plugin trying it is refused): a class named ``ddg_html`` by a slip, or a helper registering its own
engine under a built-in name, silently changed what every search of that name did. It still replaces it
(a test's fake is a documented use, undone after the test), but says so once per engine, naming the
built-in it replaces and how it is put back; ``replace=True`` says the replacement is meant."""

import logging

import pytest

import websearch_sync as ws
from websearch_sync.backends import register
from websearch_sync.backends.ddg import DuckDuckGoHtml
from websearch_sync.engine import registry
from websearch_sync.once import Once
from websearch_sync.testing import fake_results


@pytest.fixture
def said(monkeypatch, caplog):
    """The warnings about replaced built-ins logged in the test (each engine said afresh)."""
    monkeypatch.setattr(registry, "_REPLACED_SAID", Once())
    caplog.set_level(logging.WARNING, logger="websearch_sync")
    return lambda: [r.getMessage() for r in caplog.records if "the built-in backend" in r.getMessage()]


class _MyDdg(DuckDuckGoHtml):
    """Someone's own engine that happens to take a built-in's name."""


def test_replacing_a_built_in_is_said_once_naming_it_and_the_way_back(said):
    register(_MyDdg)
    assert registry.backend_class("ddg_html") is _MyDdg  # replaced, as before
    register(_MyDdg)
    (warning,) = said()
    assert "register(%s._MyDdg) replaces the built-in backend 'ddg_html'" % __name__ in warning
    assert "websearch_sync.backends.ddg.DuckDuckGoHtml" in warning
    assert "register(DuckDuckGoHtml) from websearch_sync.backends.ddg puts it back" in warning
    assert "replace=True" in warning
    register(DuckDuckGoHtml)  # the way back named: no warning, the built-in again
    assert registry.backend_class("ddg_html") is DuckDuckGoHtml and len(said()) == 1


def test_replace_true_says_it_is_meant(said):
    register(_MyDdg, replace=True)
    assert registry.backend_class("ddg_html") is _MyDdg
    assert said() == []


def test_a_new_name_and_the_testing_kits_swaps_say_nothing(said):
    class _Own(DuckDuckGoHtml):
        name = "my_own_ddg"

    register(_Own)
    with fake_results({"ddg_html": [{"title": "T", "url": "https://example.com/"}]}):
        assert ws.search("q", backend="ddg_html")["items"]
    assert said() == []


def test_an_unusable_class_is_refused_before_anything_is_said(said):
    class _Bad(DuckDuckGoHtml):
        text_format = "pdf"

    with pytest.raises(TypeError):
        register(_Bad)
    assert said() == [] and registry.backend_class("ddg_html") is DuckDuckGoHtml


def test_register_with_replace_is_a_decorator_too(said, monkeypatch):
    """``@register(replace=True)`` (and ``@register()``) decorate as ``@register`` does: a call without
    a class gives the decorator, which registers, keeps ``replace`` and returns the class."""

    @register(replace=True)
    class _Meant(DuckDuckGoHtml):
        pass

    assert registry.backend_class("ddg_html") is _Meant and said() == []

    @register()
    class _Slip(DuckDuckGoHtml):
        pass

    assert registry.backend_class("ddg_html") is _Slip and len(said()) == 0  # replaces _Meant, no built-in


def test_a_decorator_applied_at_a_scripts_top_level_lasts_as_a_plain_call_does(monkeypatch):
    """Whether a registration outlives its block is read from the frame that registers (a module's
    top level lasts): the decorator ``register(replace=True)`` returns is one frame deeper than
    ``register`` itself, and must be read from the same caller."""
    monkeypatch.setattr(registry, "_LASTING", [])
    source = "@register(replace=True)\nclass Top(Base):\n    pass\n\nregister(Other, replace=True)\n"

    class _Other(DuckDuckGoHtml):
        name = "decorated_probe_other"

    with registry.kept():
        exec(
            compile(source, "registering_script.py", "exec"),
            {"register": register, "Base": DuckDuckGoHtml, "Other": _Other},
        )
        lasting = [(name, vertical, cls.__name__) for name, vertical, cls in registry._LASTING]
        registry._LASTING.clear()
    assert lasting == [("ddg_html", "web", "Top"), ("decorated_probe_other", "web", "_Other")]


def test_adding_a_vertical_to_a_built_in_backend_is_said_once_too(said):
    """A class of a built-in's name and a vertical that backend lacks joins it (an installed plugin of
    that name is refused): allowed in code, said once naming the vertical and the backend."""

    class _Videos(DuckDuckGoHtml):
        name = "mojeek_html"
        vertical = "videos"

    with pytest.raises(ws.InvalidInput):  # mojeek_html searches no videos
        registry.backend_class("mojeek_html", "videos")
    register(_Videos)
    register(_Videos)
    (warning,) = said()
    assert "adds the vertical 'videos' to the built-in backend 'mojeek_html'" in warning
    assert "replace=True" in warning
    assert registry.backend_class("mojeek_html", "videos") is _Videos


def test_adding_a_vertical_with_replace_true_says_nothing(said):
    class _Videos(DuckDuckGoHtml):
        name = "mojeek_html"
        vertical = "videos"

    register(_Videos, replace=True)
    assert said() == [] and registry.backend_class("mojeek_html", "videos") is _Videos


def test_reset_says_a_replacement_again(said):
    """``reset()`` forgets what is said once per process, as its docstring and docs/contract.md promise:
    a later test replacing the same built-in has its warning in its own ``caplog`` (it was said only
    in the first test that replaced it)."""
    from websearch_sync.testing import reset

    register(_MyDdg)
    register(DuckDuckGoHtml)  # put back, as the plugin does after a test
    reset()
    register(_MyDdg)
    assert len(said()) == 2
