"""``check_conformance`` on a plugin that failed to load: it said "unknown backend 'demo' (its plugin
... was skipped: ...); known backends: stub, baidu_html, ..." (the reason between a generic opening and
a list of every other name). A plugin author's failing conformance test now opens with why there is
nothing to check, names the entry point and says the reason, and points at the fix."""

import pytest

from websearch_sync import InvalidInput
from websearch_sync.engine import registry
from websearch_sync.testing import check_conformance, conformance_checks


class _Entry:
    """An installed entry point whose import fails as a plugin missing its vendor's SDK does."""

    group = registry.PLUGIN_GROUP
    value = "demo_search:DemoSearch"

    def __init__(self, name):
        self.name = name

    def load(self):
        raise ImportError("No module named 'vendor_sdk'")


@pytest.fixture
def installed(monkeypatch):
    """Install the entry points given (the registry's record of plugins forgotten, before and after)."""

    def install(*names):
        registry.forget_registrations()
        monkeypatch.setattr(registry, "_entry_points", lambda: [_Entry(name) for name in names])

    yield install
    monkeypatch.undo()
    registry.forget_registrations()


@pytest.mark.parametrize("check", [check_conformance, conformance_checks])
def test_the_error_says_the_plugin_failed_to_load_its_entry_point_and_why(installed, check):
    installed("demo")
    with pytest.raises(InvalidInput) as caught:
        check("demo")
    said = caught.value.message
    assert caught.value.detail_code == "unknown_backend"
    assert said.startswith("cannot check backend 'demo': no backend has that name, because an installed plugin"), said
    assert "entry point 'demo = demo_search:DemoSearch' in the group websearch_sync.backends" in said
    assert "it failed to load: ImportError: No module named 'vendor_sdk'" in said
    assert "known backends" not in said  # the other names are no help here


def test_a_plugin_skipped_under_another_entry_point_name_is_named_as_a_maybe(installed):
    installed("demo-search")
    with pytest.raises(InvalidInput) as caught:
        check_conformance("demo")
    said = caught.value.message
    assert said.startswith("cannot check backend 'demo': no backend has that name, perhaps because"), said
    assert "plugin 'demo-search' (demo_search:DemoSearch) was skipped: it failed to load: ImportError" in said


def test_a_name_no_plugin_explains_keeps_the_usual_unknown_backend(installed):
    installed()
    with pytest.raises(InvalidInput) as caught:
        check_conformance("ddg_htm")
    assert "ddg_html" in caught.value.message and "cannot check" not in caught.value.message
