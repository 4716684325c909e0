"""A user's mock of ``requests`` sees every request, with or without the ``browser`` extra
(issue 32, item 2): the ``responses`` example of docs/contract.md runs as written, here with
``curl_cffi`` importable (the browser wire is the default) and with the extra hidden; the same
holds for requests-mock, and for a fetch."""

import logging
import os
import re
from pathlib import Path

import pytest
import requests_mock
import responses

import websearch_sync as ws
from websearch_sync.net import browser, mocks, ssrf
from websearch_sync.net.browser import browser_available
from websearch_sync.once import Once
from websearch_sync.testing import no_network

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_DOC = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"^```python\n(.*?)^```", CONTRACT_DOC, re.S | re.M)
RESPONSES_EXAMPLE = next(block for block in EXAMPLES if "@responses.activate" in block)
MOCK_WIRE_EXAMPLE = next(block for block in EXAMPLES if "MockWire(" in block)
needs_browser = pytest.mark.skipif(
    not browser_available(), reason="needs the browser extra (curl_cffi, Python >= 3.10)"
)


@pytest.mark.parametrize("extra", ["browser-extra", "no-browser-extra"])
def test_the_responses_example_of_the_docs_passes_with_and_without_the_browser_extra(extra, monkeypatch, caplog):
    """The example as written, in this process: its settings from no environment, the process-wide
    state forgotten (the pytest plugin's reset, as in a user's run), the message said once per
    process (mocks' memory of it emptied) and only when it matters: with the extra hidden the
    requests wire is the default and needs no telling."""
    for name in [name for name in os.environ if name.startswith(("WEB_SEARCH_", "WEB_FETCH_"))]:
        monkeypatch.delenv(name)
    if extra == "browser-extra":
        if not browser_available():
            pytest.skip("needs the browser extra (curl_cffi, Python >= 3.10)")
        assert browser.resolve_impersonate(None) == "chrome", "the browser wire is the default here"
    else:
        monkeypatch.setattr(browser, "browser_available", lambda: False)
    monkeypatch.setattr(mocks, "_SAID", Once())
    caplog.set_level(logging.INFO, logger="websearch_sync")
    example: dict = {}
    exec(compile(RESPONSES_EXAMPLE, "docs/contract.md", "exec"), example)  # noqa: S102 - the docs' own example
    with no_network():
        example["test_search_with_responses"]()
    said = [record for record in caplog.records if "requests is patched by responses" in record.getMessage()]
    assert len(said) == (1 if extra == "browser-extra" else 0), said


def test_the_mock_wire_example_of_the_docs_runs(fake_clock):
    """On the fake clock: the answer holds one result, so the search asks Brave's next page, a
    second after the first at Brave's pace (real time is not this test's subject)."""
    exec(compile(MOCK_WIRE_EXAMPLE, "docs/contract.md", "exec"), {})  # noqa: S102 - the docs' own example


PAGE = (
    '<div id="links"><div class="result"><h2><a class="result__a" href="https://tokio.rs/">Tokio</a></h2>'
    '<a class="result__snippet">An asynchronous Rust runtime</a></div></div>'
)
ARTICLE = "<html><body><article><h1>Tokio</h1><p>Tokio is an asynchronous runtime for Rust.</p></article></body></html>"


@needs_browser
def test_requests_mock_sees_a_keyless_search_and_an_api_search():
    answer = '{"type": "search", "web": {"results": [{"title": "Tokio", "url": "https://tokio.rs/"}]}}'
    with requests_mock.Mocker() as mock:
        mock.post("https://html.duckduckgo.com/html/", text=PAGE, headers={"Content-Type": "text/html"})
        mock.get(
            "https://api.search.brave.com/res/v1/web/search", text=answer, headers={"Content-Type": "application/json"}
        )
        keyless = ws.search("rust async", backend="ddg_html", retries=0)
        keyed = ws.search(  # the answer holds one result: a call for more would ask Brave's next page
            "rust async", backend="brave", max_results=1, settings=ws.Settings(providers={"brave": {"api_key": "k"}})
        )
        assert mock.call_count == 2
    assert keyless["items"][0]["url"] == keyed["items"][0]["url"] == "https://tokio.rs/"
    assert mocks.requests_patched() is None  # the mock is gone


@needs_browser
def test_a_fetch_goes_through_responses_with_the_browser_extra(monkeypatch):
    """Fetch checks the page's address first; the name resolves here to a public address (no DNS in the suite)."""
    monkeypatch.setattr(ssrf, "system_resolver", lambda host, port, timeout: ["93.184.215.14"])
    with responses.RequestsMock() as mock:
        mock.add(responses.GET, "https://tokio.rs/", body=ARTICLE, content_type="text/html")
        page = ws.fetch("https://tokio.rs/")
        assert len(mock.calls) == 1
    assert "asynchronous runtime for Rust" in page["text"]
