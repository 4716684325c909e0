"""The conformance kit replays HTTP with ``responses`` (inside ``requests``): keyless engines run
on the requests transport here, as without the browser extra. The browser transport is tested
against real loopback servers in tests/sockets/ and tests/reliability/."""

import pytest

from websearch_sync.net import browser


@pytest.fixture(autouse=True)
def _requests_transport(monkeypatch):
    monkeypatch.setattr(browser, "browser_available", lambda: False)
