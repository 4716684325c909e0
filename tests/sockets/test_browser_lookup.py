"""Whether the browser extra is installed is looked up once per process: every new transport asks
(its default profile is the browser's when it is), and the lookup searches the import path."""

import importlib.util

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
