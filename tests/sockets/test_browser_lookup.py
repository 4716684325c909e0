"""Whether the browser extra is installed is looked up once per process: every new transport asks
(its default profile is the browser's when it is), and the lookup searches the import path."""

import importlib.machinery
import importlib.util
import sys
import types

from websearch_sync.net import browser
from websearch_sync.net.transport import HttpTransport


def test_new_transports_search_the_import_path_at_most_once(monkeypatch):
    searched = []
    find_spec = importlib.util.find_spec

    def counting(name, *args):
        searched.append(name)
        return find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", counting)
    answers = {browser.browser_available() for _ in range(3)}
    for _ in range(3):
        HttpTransport().close()
    assert answers == {find_spec("curl_cffi") is not None}
    assert searched.count("curl_cffi") <= 1


def test_an_extra_installed_while_the_process_runs_is_found(monkeypatch):
    """A notebook or a long-running host installs the extra after its first client: "not
    installed" is not remembered, so the next transport defaults to the browser profile."""
    monkeypatch.setattr(browser, "_found", False)  # a process that has not found the extra yet
    with monkeypatch.context() as absent:
        absent.setitem(sys.modules, "curl_cffi", None)  # not installed: find_spec answers None
        assert not browser.browser_available()
        assert browser.resolve_impersonate(None) == "off"
    installed = types.ModuleType("curl_cffi")  # pip install ... in the same process
    installed.__spec__ = importlib.machinery.ModuleSpec("curl_cffi", None)
    monkeypatch.setitem(sys.modules, "curl_cffi", installed)
    assert browser.browser_available()
    assert browser.resolve_impersonate(None) == "chrome"
    assert browser.resolve_impersonate("chrome") == "chrome"
