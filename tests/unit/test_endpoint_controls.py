"""A tab or line break inside a configured URL (a value pasted across lines, an environment file
with an escape in it) is ``bad_endpoint`` naming the setting and the character, before any request:
``urlsplit`` dropped a tab or line break without a word (a base URL ``https://searx.exa<TAB>mple/``
searched ``searx.example``) or the request carried it encoded (``/se%0Aarch``). Whitespace around a
value is still stripped, as docs/configuration.md says."""

import pytest

import websearch_sync as ws
from websearch_sync.testing import MockResponse, MockWire


def _refusal(backend, vertical="web", **settings):
    """The ``bad_endpoint`` message of a search of ``backend`` with ``settings``; no request sent."""
    wire = MockWire(lambda request: MockResponse(status=500))
    client = ws.SearchClient(backend, settings=ws.Settings(**settings), wire=wire, retries=0)
    with pytest.raises(ws.InvalidInput) as caught:
        client.search("q", vertical=vertical)
    assert (caught.value.detail_code, wire.requests) == ("bad_endpoint", [])
    return caught.value.message


_RULE = " (a URL may hold none: refused, as in a fetch's URL)"


@pytest.mark.parametrize(
    ("backend", "vertical", "settings", "said"),
    [
        (
            "searxng",
            "web",
            {"providers": {"searxng": {"base_url": "https://searx.exa\tmple/"}}},
            "searxng: Settings.providers['searxng']['base_url'] (SEARXNG_BASE_URL) holds the control character '\\t'",
        ),
        (
            "searxng",
            "web",
            {"endpoints": {"searxng": "https://searx.example/se\narch"}},
            "searxng: Settings.endpoints['searxng'] or WEB_SEARCH_ENDPOINT_SEARXNG holds the control character '\\n'",
        ),
        (
            "service",
            "web",
            {"providers": {"service": {"url": "https://gw.example/v1\r/search", "api_key": "k"}}},
            "service: Settings.providers['service']['url'] (WEB_SEARCH_SERVICE_URL) holds the control character '\\r'",
        ),
        (
            "bocha",
            "web",
            {"providers": {"bocha": {"base_url": "https://bo.exa\tmple", "api_key": "k"}}},
            "bocha: Settings.providers['bocha']['base_url'] (BOCHA_BASE_URL) holds the control character '\\t'",
        ),
        (
            "bing_html",
            "news",
            {"endpoints": {"bing_html": "https://bing.exa\tmple/search"}},
            "bing_html: Settings.endpoints['bing_html'] or WEB_SEARCH_ENDPOINT_BING_HTML holds the control character '\\t'",
        ),
    ],
    ids=["base-url-host", "override-path", "service-url", "json-api-base-url", "override-of-a-vertical"],
)
def test_a_control_character_inside_a_configured_url_is_a_bad_endpoint_naming_it(backend, vertical, settings, said):
    assert _refusal(backend, vertical, **settings) == said + _RULE


def test_a_line_break_around_a_url_from_the_environment_is_stripped_as_before():
    """The documented strip: ``SEARXNG_BASE_URL`` read with its newline searches that instance."""
    wire = MockWire(lambda request: MockResponse(status=500))
    settings = ws.Settings.from_env({"SEARXNG_BASE_URL": "https://searx.example/\n"})
    with pytest.raises(ws.BadGateway):
        ws.SearchClient("searxng", settings=settings, wire=wire, retries=0).search("q")
    assert [request.url.split("?")[0] for request in wire.requests] == ["https://searx.example/search"]


@pytest.mark.parametrize(
    ("url", "held"),
    [("https://reader.exa\tmple/", "\t"), ("https://reader.example/\n", "\n")],
    ids=["tab-in-host", "line-break"],
)
def test_a_fetch_service_url_holding_a_control_character_is_named_and_never_asked(url, held, caplog):
    """Its tab made requests refuse it as an InvalidURL naming neither the setting nor the character;
    a trailing line break set in code was sent as ``%0A``. The page is read directly, as for any
    failure of the service, the warning saying why."""
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "text/html"}, "<p>%s</p>" % ("word " * 60)))
    client = ws.SearchClient("stub", settings=ws.Settings(fetch_service_url=url), wire=wire, retries=0)
    assert client.fetch("https://example.com/")["extractor"] != "fetch_service"
    assert [request.url for request in wire.requests] == ["https://example.com/"]
    assert "Settings.fetch_service_url (WEB_FETCH_SERVICE_URL) holds the control character %r" % held in caplog.text
