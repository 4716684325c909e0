"""Hardening, part 1: each backend declares whether its text fields are HTML or plain text
(``Backend.text_format``), and normalization strips markup only from HTML.

Bodies are recorded answers of fixtures/ with the one field a test is about changed.
"""

import json
from pathlib import Path

import responses
from backend_kit import project_backends

import websearch_sync as ws
from websearch_sync.engine import registry
from websearch_sync.engine.base import Backend

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
BASE = "https://searx.example.org"
URL = BASE + "/search"


def recorded(name="shortlist__1.json"):
    return json.loads((FIXTURES / "searxng" / name).read_text(encoding="utf-8"))


def run(body):
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add(responses.GET, URL, json=body)
        return ws.search(
            "q", backend="searxng", retries=0, settings=ws.Settings(providers={"searxng": {"base_url": BASE}})
        ), list(mock.calls)


def test_searxng_titles_and_snippets_are_plain_text():
    body = recorded()
    body["results"][0]["title"] = "C++ template <typename T> & friends"
    body["results"][0]["content"] = "if a<b and c>d then <b>x</b> &amp; y"
    result, _ = run(body)
    item = result["items"][0]
    assert item["title"] == "C++ template <typename T> & friends"
    assert item["snippet"] == "if a<b and c>d then <b>x</b> &amp; y"


def test_plain_text_survives_a_merge_with_an_html_backend():
    body = recorded()
    body["results"][0]["title"] = "C++ template <typename T>"
    brave = json.loads((FIXTURES / "brave" / "brave-search-python-client__1.json").read_text(encoding="utf-8"))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add(responses.GET, URL, json=body)
        mock.add(responses.GET, "https://api.search.brave.com/res/v1/web/search", json=brave)
        result = ws.search(
            "q",
            backend=["searxng", "brave"],
            strategy="merge",
            retries=0,
            settings=ws.Settings(providers={"searxng": {"base_url": BASE}, "brave": {"api_key": "k-123456"}}),
        )
    titles = [item["title"] for item in result["items"] if item["provider"] == "searxng"]
    assert "C++ template <typename T>" in titles
    assert not any("<strong>" in item["snippet"] for item in result["items"])


def test_html_backends_still_lose_their_markup(fake_clock):
    brave = ws.Settings(providers={"brave": {"api_key": "k-123456"}})
    body = {
        "type": "search",
        "web": {
            "type": "search",
            "results": [
                {
                    "title": "A &amp; B",
                    "url": "https://a.example/",
                    "description": "<strong>Bostik</strong>, commonly &lt;T&gt;",
                }
            ],
        },
    }
    with responses.RequestsMock() as mock:
        mock.add(responses.GET, "https://api.search.brave.com/res/v1/web/search", json=body)
        item = ws.search("q", backend="brave", settings=brave, retries=0)["items"][0]
    assert (item["title"], item["snippet"]) == ("A & B", "Bostik, commonly <T>")


def test_a_scraped_page_s_escaped_text_is_shown_as_the_page_shows_it(monkeypatch):
    """DuckDuckGo's HTML parser reads text from the DOM: "&lt;typename T&gt;" in the page is
    the text "<typename T>", not a tag. (``responses`` replays inside requests: impersonate=off.)"""
    monkeypatch.setenv("WEB_SEARCH_IMPERSONATE", "off")
    page = (FIXTURES / "ddg_html" / "eino-ext__1.html").read_text(encoding="utf-8")
    start = page.index('class="result__a"')
    start = page.index(">", start) + 1
    end = page.index("</a>", start)
    page = page[:start] + "C++ template &lt;typename T&gt; &amp;amp;" + page[end:]
    with responses.RequestsMock() as mock:
        mock.add(
            responses.POST, "https://html.duckduckgo.com/html/", body=page, content_type="text/html; charset=utf-8"
        )
        item = ws.search("eino", backend="ddg_html", retries=0)["items"][0]
    assert item["title"] == "C++ template <typename T> &amp;"


def test_every_backend_declares_whether_its_text_is_html():
    for name in project_backends():
        cls = registry.backend_class(name)
        declared = next(klass.__dict__["text_format"] for klass in cls.__mro__ if "text_format" in klass.__dict__)
        assert declared in ("html", "text"), name
        assert any("text_format" in klass.__dict__ for klass in cls.__mro__ if klass is not Backend), name


def test_html_text_is_decoded_once_in_a_merge(fake_clock):
    """Brave's recorded answer with a description that writes markup as text (``&lt;br&gt;``,
    ``&amp;lt;``): a merge shows it as Brave alone does, ``Use <br> …; write &lt; …`` (before:
    the fused list was read as HTML a second time, ``Use to break a line; write < …``)."""
    brave = json.loads((FIXTURES / "brave" / "brave-search-python-client__1.json").read_text(encoding="utf-8"))
    brave["web"]["results"][0]["description"] = "Use &lt;br&gt; to break a line; write &amp;lt; for a literal &lt;"
    settings = ws.Settings(providers={"searxng": {"base_url": BASE}, "brave": {"api_key": "k-123456"}})
    snippets = {}
    for backends in (["brave"], ["searxng", "brave"]):
        with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
            mock.add(responses.GET, URL, json=recorded())
            mock.add(responses.GET, "https://api.search.brave.com/res/v1/web/search", json=brave)
            result = ws.search("q", backend=backends, strategy="merge", retries=0, settings=settings)
        snippets[len(backends)] = next(item["snippet"] for item in result["items"] if item["provider"] == "brave")
    assert snippets[1] == "Use <br> to break a line; write &lt; for a literal <"
    assert snippets[2] == snippets[1]
