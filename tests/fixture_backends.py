"""Test backends and pages for the record / verify / check-live / testing-helper tests.

``testhtml`` is a small HTML scraper (a results container, one ``div.result`` per
hit, a captcha wall recognised in ``classify``) with its own ``structure_report``;
``testkeyed`` is a JSON API that sends its key in two headers and the query string.
Both read their endpoint from ``Settings.endpoints`` / ``WEB_SEARCH_ENDPOINT_<NAME>``,
so tests point them at a local server.
"""

import html
import json
from collections.abc import Sequence
from urllib.parse import parse_qs, urlsplit

from bs4 import BeautifulSoup

from websearch_sync.engine.base import Backend, dig, json_body
from websearch_sync.errors import WebBlocked, WebParseError
from websearch_sync.models import ParseResult
from websearch_sync.net.transport import RequestSpec

#: A credential header whose value does not come from the settings (so only its name says it is secret).
SESSION_HEADER = ("X-Session-Token", "sess-constant-0451-do-not-store")


class HtmlTestBackend(Backend):
    """A tiny HTML scraper."""

    name = "testhtml"
    kind = "html"
    summary = "test-only HTML backend"
    default_endpoint = "http://127.0.0.1:9/html"

    def build_request(self, params):
        return RequestSpec(
            "GET",
            self.endpoint_url(),
            params={"q": params.full_query, "kl": params.locale or "wt-wt"},
            headers={"Referer": "https://search.example/"},
        )

    def classify(self, response):
        if b"anomaly-modal" in response.content:
            return WebBlocked(
                "challenge page", provider=self.name, detail_code="captcha_required", status=response.status
            )
        return None

    def parse(self, response, params):
        soup = BeautifulSoup(response.text, "lxml")
        container = soup.select_one("#results")
        if container is None:
            raise WebParseError(
                "no #results container", provider=self.name, detail_code="unexpected_shape", status=response.status
            )
        items = []
        for result in container.select("div.result"):
            link = result.select_one("a.result__a")
            snippet = result.select_one(".result__snippet")
            items.append(
                {
                    "title": link.get_text(" "),
                    "url": link.get("href"),
                    "snippet": snippet.get_text(" ") if snippet else "",
                }
            )
        return ParseResult(items=items)

    def structure_report(self, response, params=None):
        soup = BeautifulSoup(response.text, "lxml")
        return {
            "results_container": soup.select_one("#results") is not None,
            "result_links": bool(soup.select("#results div.result a.result__a"))
            or soup.select_one(".no-results") is not None,
            "next_page_form": soup.select_one("form.nav-link") is not None,
        }


class KeyedJsonBackend(Backend):
    """A JSON API with a key in the Authorization and X-Subscription-Token headers and in the query string."""

    name = "testkeyed"
    kind = "json"
    summary = "test-only keyed JSON backend"
    default_endpoint = "http://127.0.0.1:9/api"
    env_vars = {"api_key": "TESTKEYED_API_KEY"}
    required = ("api_key",)

    def build_request(self, params):
        key = self.config["api_key"]
        return RequestSpec(
            "GET",
            self.endpoint_url(),
            params={"q": params.full_query, "count": params.max_results, "api_key": key},
            headers={
                "Authorization": "Bearer %s" % key,
                "X-Subscription-Token": key,
                SESSION_HEADER[0]: SESSION_HEADER[1],
                "Accept": "application/json",
            },
        )

    def parse(self, response, params):
        data = json_body(response, self.name)
        return ParseResult(items=[dict(r) for r in dig(data, ["web", "results"], self.name)], request_id=data.get("id"))


def result_page(results: Sequence[tuple[str, str, str]], *, next_page: bool = True, container: bool = True) -> bytes:
    """An HTML results page: ``results`` are (title, url, snippet)."""
    rows = "".join(
        '<div class="result"><h2><a class="result__a" href="%s">%s</a></h2><a class="result__snippet">%s</a></div>\n'
        % (html.escape(url), title, snippet)
        for title, url, snippet in results
    )
    if not results:
        rows = '<div class="no-results">No results.</div>'
    body = '<div id="results">\n%s</div>' % rows if container else '<div id="links-v2">%s</div>' % rows
    nav = '<form class="nav-link" action="/html/" method="post"><input name="s" value="10"></form>' if next_page else ""
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>results</title></head><body>%s%s</body></html>'
        % (body, nav)
    ).encode("utf-8")


PAGE_RESULTS = [
    (
        "Rust <b>async</b> book",
        "https://rust-lang.github.io/async-book/",
        "Asynchronous programming in Rust &amp; more.",
    ),
    (
        "Tokio - An asynchronous Rust runtime",
        "https://tokio.rs/",
        "Tokio is an   event-driven, non-blocking I/O platform.",
    ),
    ("async/await - Rust by Example", "https://doc.rust-lang.org/rust-by-example/async.html", "Using async/await."),
    ("Ad: buy async", "javascript:void(0)", "not a web result"),
]

CAPTCHA_PAGE = b'<html><body><div class="anomaly-modal">Unfortunately, bots use DuckDuckGo too.</div></body></html>'


def query_of(path: str) -> dict[str, list[str]]:
    """The parsed query string of a request path."""
    return parse_qs(urlsplit(path).query)


def json_api_body(urls: Sequence[str], *, echo: str = "") -> bytes:
    """A ``testkeyed`` answer listing ``urls`` (``echo`` is copied into the body, like an API echoing its input)."""
    results = [{"title": "Result %d" % i, "url": url, "snippet": "Snippet %d" % i} for i, url in enumerate(urls, 1)]
    return json.dumps({"id": "req-42", "echo": echo, "web": {"results": results}}).encode("utf-8")
