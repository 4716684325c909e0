"""``unregister`` of a name no backend has says so, as a search naming it does.

Before: ``unregister("ddg_htm")`` returned without a word and left ``ddg_html`` registered; a plugin
author's clean-up that misspelt its backend's name never knew. Now it is ``InvalidInput(unknown_backend)``
with the registry's own explanation (``did you mean ddg_html?``), and ``missing_ok=True`` lets a
clean-up that may run after the backend is gone pass."""

import pytest

import websearch_sync as ws
from websearch_sync.backends import register, unregister
from websearch_sync.backends.stub import Stub


def test_a_misspelt_name_is_unknown_backend_with_the_closest_and_nothing_is_removed():
    with pytest.raises(ws.InvalidInput) as info:
        unregister("ddg_htm")
    assert info.value.detail_code == "unknown_backend"
    assert info.value.message.startswith("unknown backend 'ddg_htm' (did you mean ddg_html?); known backends: ")
    assert "ddg_html" in ws.backend_names()


def test_the_message_is_the_one_a_search_gets():
    with pytest.raises(ws.InvalidInput) as removing:
        unregister("nope")
    with pytest.raises(ws.InvalidInput) as searching:
        ws.search("q", backend="nope")
    assert removing.value.message == searching.value.message


@pytest.mark.parametrize("name", [None, 5, ""])
def test_a_name_that_is_no_string_is_unknown_backend(name):
    with pytest.raises(ws.InvalidInput) as info:
        unregister(name)
    assert info.value.detail_code == "unknown_backend"


def test_a_vertical_the_backend_does_not_serve_is_unsupported_vertical():
    with pytest.raises(ws.InvalidInput) as info:
        unregister("ddg_lite", "images")
    assert info.value.detail_code == "unsupported_vertical"
    assert "ddg_lite" in ws.backend_names()


def test_a_misspelt_vertical_is_bad_vertical_with_the_closest():
    with pytest.raises(ws.InvalidInput) as info:
        unregister("ddg_html", "imagez", missing_ok=True)
    assert info.value.detail_code == "bad_vertical"
    assert "(did you mean 'images'?)" in info.value.message


def test_missing_ok_lets_a_clean_up_pass_twice():
    class Gone(Stub):
        name = "gone_probe"

    register(Gone)
    unregister("gone_probe")
    assert "gone_probe" not in ws.backend_names()
    unregister("gone_probe", missing_ok=True)
    unregister("gone_probe", "news", missing_ok=True)
    with pytest.raises(ws.InvalidInput):
        unregister("gone_probe")


def test_a_known_vertical_is_removed_alone():
    unregister("ddg_html", "news")
    assert "ddg_html" in ws.backend_names()
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="ddg_html", vertical="news")
    assert info.value.detail_code == "unsupported_vertical"


def test_a_backend_unregistered_is_said_to_be_so_not_to_be_no_installed_plugin():
    """After ``unregister("ddg_lite")`` a search naming it (and a second ``unregister``) said "no installed
    plugin registers it: ... pip install -e .", which sent a plugin author to reinstall what is installed."""
    unregister("ddg_lite")
    for call in (lambda: ws.search("q", backend="ddg_lite"), lambda: unregister("ddg_lite")):
        with pytest.raises(ws.InvalidInput) as info:
            call()
        assert info.value.detail_code == "unknown_backend"
        assert info.value.message.startswith(
            "unknown backend 'ddg_lite' (the built-in backend was removed in this process by unregister('ddg_lite'):"
            " register it again, or start a new process); known backends: "
        )
    with pytest.raises(ws.InvalidInput) as info:  # still refused where settings name it, not logged as a skipped plugin
        ws.Settings(endpoints={"ddg_lite": "https://lite.example/"})
    assert info.value.detail_code == "unknown_backend"
