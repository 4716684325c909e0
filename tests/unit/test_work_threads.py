"""The work a call hands to threads (a merge's backends, ``include_content``'s pages) runs in
threads the interpreter does not wait for at its end."""

import threading

import websearch_sync as ws
from websearch_sync.testing import MockResponse, MockWire, fake_results

PAGE = "<html><head><title>A</title></head><body><article><p>%s</p></article></body></html>" % ("Text. " * 80)


def test_merged_backends_run_in_daemon_threads():
    """Ctrl-C during a merge, or a process ending while a merged backend was still asking, waited
    for that backend's request (up to the call's deadline: 18.7 s after Ctrl-C against a server
    that never answered, 0.2 s for one backend): its thread was a thread pool's, which an
    interpreter joins before it ends. tests/sockets/test_interrupt.py times the real Ctrl-C."""
    seen = {}

    def answer(name):
        def items(params):
            seen[name] = threading.current_thread().daemon
            return [{"title": name, "url": "https://%s.example/" % name, "snippet": ""}]

        return items

    with fake_results({"bing_html": answer("bing"), "mojeek_html": answer("mojeek")}):
        with ws.SearchClient(["bing_html", "mojeek_html"], strategy="merge", cache_ttl_s=0) as client:
            response = client.search("q")
    assert response["provider_meta"]["providers"] == ["bing_html", "mojeek_html"]
    assert seen == {"bing": True, "mojeek": True}


def test_result_pages_are_read_in_daemon_threads():
    """``include_content`` read the result pages in a thread pool's threads: Ctrl-C while a page
    hung waited for it (10.4 s against a page answering after 12 s, now 0.2 s)."""
    readers = []

    def handler(request):
        readers.append(threading.current_thread().daemon)
        return MockResponse(200, {"Content-Type": "text/html; charset=utf-8"}, PAGE)

    items = [{"title": "A", "url": "https://a.example/", "snippet": ""}, {"title": "B", "url": "https://b.example/"}]
    with fake_results({"bing_html": items}):
        with ws.SearchClient("bing_html", wire=MockWire(handler), cache_ttl_s=0) as client:
            response = client.search("q", include_content=True)
    assert [item["content_by"] for item in response["items"]] == ["fetch", "fetch"]
    assert readers == [True, True]
