"""Hardening, part 1: what a real SearXNG instance does with our requests (docs/backends.md, UPSTREAMS.md).

Bodies are the recorded answers of fixtures/searxng/ with the one field a test is about changed.
The limiter test talks to a real local server that applies SearXNG's bot-detection rules for
``/search`` (searx/botdetection/http_accept*.py, http_user_agent.py, http_connection.py).
"""

import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import responses
from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.backends.searxng import SearXNG, searxng_language
from websearch_sync.models import SearchParams

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
BASE = "https://searx.example.org"
URL = BASE + "/search"


def recorded(name="shortlist__1.json"):
    return json.loads((FIXTURES / "searxng" / name).read_text(encoding="utf-8"))


def settings(**provider):
    return ws.Settings(providers={"searxng": dict({"base_url": BASE}, **provider)})


def run(body, *, url=URL, settings_=None, client=None, **kwargs):
    """One searxng search against a replayed answer: (result or error, calls)."""
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add(responses.GET, url, json=body)
        try:
            if client is not None:
                outcome = client.search("q", backend="searxng", **kwargs)
            else:
                outcome = ws.search(
                    "q", backend="searxng", settings=settings_ or settings(), **dict({"retries": 0}, **kwargs)
                )
        except ws.WebSearchError as error:
            outcome = error
        return outcome, list(mock.calls)


def sent(call):
    return {k: v[0] for k, v in parse_qs(urlsplit(call.request.url).query).items()}


# -- the limiter --------------------------------------------------------------------------------


def _limiter(conn, request, server):
    """SearXNG's bot detection for /search: 429 unless the headers look like a browser's."""
    accept = request.headers.get("accept", "")
    encodings = [e.strip() for e in request.headers.get("accept-encoding", "").split(",")]
    if (
        "text/html" not in accept
        or not request.headers.get("accept-language", "").strip()
        or not ("gzip" in encodings or "deflate" in encodings)
        or request.headers.get("connection", "").strip() == "close"
        or "python-requests" in request.headers.get("user-agent", "unknown")
    ):
        return respond(429, b"Too Many Requests", content_type="text/plain")(conn, request, server)
    body = json.dumps(recorded()).encode("utf-8")
    return respond(200, body, content_type="application/json")(conn, request, server)


@pytest.mark.parametrize("locale", [None, "de-DE"])
def test_an_instance_with_the_limiter_on_answers_our_first_request(locale):
    with FaultServer({"/search": _limiter}) as server:
        options = {"locale": locale} if locale else {}
        result = ws.search(
            "q",
            backend="searxng",
            retries=0,
            settings=ws.Settings(providers={"searxng": {"base_url": server.url("")}}),
            **options,
        )
    assert len(result["items"]) == 5
    headers = server.requests[0].headers
    assert headers["accept-language"].split(",")[0] == (locale or "*")  # no locale: any language
    assert headers["accept"].split(",")[0].strip() == "application/json"


def test_a_browser_user_agent_comes_with_the_fetch_metadata_a_browser_sends():
    """Over https, SearXNG checks Sec-Fetch-* for a browser User-Agent (ours by default):
    without Sec-Fetch-Mode navigate/cors it redirects to its home page."""
    _, calls = run(recorded())
    headers = calls[0].request.headers
    assert headers["Sec-Fetch-Mode"] in ("navigate", "cors")
    assert headers["Sec-Fetch-Site"] in ("same-origin", "same-site", "none")
    assert headers["Sec-Fetch-Dest"] in ("document", "empty")


def test_engine_errors_are_asked_for_in_english():
    _, calls = run(recorded())
    assert sent(calls[0])["locale"] == "en"


# -- engine failures, in any language -----------------------------------------------------------


def _failed(reasons):
    body = recorded()
    body["results"] = []
    body["unresponsive_engines"] = [["engine%d" % i, reason] for i, reason in enumerate(reasons)]
    return body


@pytest.mark.parametrize(
    "reason, code, detail",
    [
        ("Zeitüberschreitung", "Timeout", "engine_timeout"),
        ("zu viele Anfragen", "WebBlocked", "http_429"),
        ("Zugriff verweigert", "WebBlocked", "http_403"),
        ("délai dépassé", "Timeout", "engine_timeout"),
        ("trop de requêtes", "WebBlocked", "http_429"),
        ("accès refusé", "WebBlocked", "http_403"),
        ("请求过于频繁", "WebBlocked", "http_429"),
        ("验证码", "WebBlocked", "captcha_required"),
        ("Ausgesetzt: zu viele Anfragen", "WebBlocked", "http_429"),
        ("Suspendu: CAPTCHA", "WebBlocked", "captcha_required"),
        ("Suspended: access denied", "WebBlocked", "http_403"),
        ("Приостановлено: истекло время ожидания", "Timeout", "engine_timeout"),
        ("HTTP-Fehler", "WebProviderError", "engine_error"),
    ],
)
def test_localized_engine_reasons_are_recognised(reason, code, detail):
    error, _ = run(_failed([reason]))
    assert (error.code, error.detail_code) == (code, detail)


@pytest.mark.parametrize(
    "reason", ["Suspended: too many requests", "too many requests", "Suspended: access denied", "Suspended: CAPTCHA"]
)
def test_a_suspended_engine_is_not_asked_again_at_once_and_cools_down(reason):
    client = ws.SearchClient(settings=settings(), retries=2)
    error, calls = run(_failed([reason]), client=client)
    assert isinstance(error, ws.WebBlocked) and error.retryable is False
    assert len(calls) == 1, "retried a suspended engine at once"
    again, calls = run(recorded(), client=client)
    assert isinstance(again, ws.WebBlocked) and "cooling down" in again.message
    assert calls == []


def test_a_suspended_engine_after_a_timeout_is_asked_again_only_after_its_suspension():
    error, _ = run(_failed(["Suspended: timeout"]))
    assert (error.code, error.retryable, error.retry_after) == ("Timeout", False, 5.0)
    error, _ = run(_failed(["timeout"]))
    assert (error.code, error.retryable, error.retry_after) == ("Timeout", True, None)


def test_soft_engine_errors_say_they_are_not_retryable_at_once():
    result, _ = run(recorded())
    assert [(e["detail_code"], e["retryable"]) for e in result["errors"]] == [
        ("http_429", False),
        ("captcha_required", False),
        ("captcha_required", False),
    ]


# -- languages ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "locale, language",
    [
        ("zh-Hant-TW", "zh-TW"),
        ("EN-US", "en-US"),
        ("en_us", "en-US"),
        ("de", "de"),
        ("FIL", "fil"),
        ("sr-Latn", "sr"),
        ("zh-Hans-CN", "zh-CN"),
        ("pt-br", "pt-BR"),
    ],
)
def test_locales_are_mapped_to_what_searxng_accepts(locale, language):
    assert searxng_language(locale) == language
    _, calls = run(recorded(), locale=locale)
    assert sent(calls[0])["language"] == language
    assert calls[0].request.headers["Accept-Language"].split(",")[0] == language


@pytest.mark.parametrize("locale, language", [("zh-Hant", "zh-TW"), ("zh_hant", "zh-TW"), ("zh-Hans", "zh")])
def test_traditional_chinese_without_a_region_is_not_sent_as_simplified(locale, language):
    """Before: ``zh-Hant`` was sent as ``zh``, which SearXNG's engines read as Simplified Chinese
    (searxng/searxng 9fea412, searx/data/engine_traits.json line 3021: google ``"zh": "lang_zh-CN"``,
    line 3023: ``"zh_Hant": "lang_zh-TW"``); ``zh-TW`` is what its own language list offers for it
    (searx/sxng_locales.py line 121)."""
    assert searxng_language(locale) == language
    _, calls = run(recorded(), locale=locale)
    assert sent(calls[0])["language"] == language


@pytest.mark.parametrize("locale, language", [("sr-Latn", "sr"), ("sr-Latn-RS", "sr-RS"), ("uz-Cyrl", "uz")])
def test_a_script_searxng_cannot_say_is_reported_as_not_sent(locale, language):
    """SearXNG's ``language`` has no script subtag and its locale list holds ``sr`` alone ("Српски",
    searx/sxng_locales.py): ``sr-Latn`` is searched as Cyrillic Serbian. Before, nothing said so;
    the answer names the part not sent, and the tool's text says it too."""
    result, calls = run(recorded(), locale=locale)
    assert sent(calls[0])["language"] == language
    assert result["provider_meta"]["not_sent"] == ["locale.script"]
    assert "Not applied by searxng: locale.script" in tool.format_results(result)


@pytest.mark.parametrize("locale", ["sr-Cyrl", "sr", "uz-Latn", "en-Latn", "zh-Hant", "zh-Hans-TW", "zh-Hant-CN"])
def test_a_script_searxng_reads_without_it_is_not_reported(locale):
    result, _ = run(recorded(), locale=locale)
    assert "not_sent" not in result["provider_meta"]


@pytest.mark.parametrize("locale", ["english", "es-419", "de-CH-1901", "x-klingon", "en-US-u-ca"])
def test_locales_searxng_refuses_are_invalid_input_before_sending(locale):
    error, calls = run(recorded(), locale=locale)
    assert isinstance(error, ws.InvalidInput) and error.detail_code == "bad_locale"
    assert calls == []


# -- the base URL -------------------------------------------------------------------------------


@pytest.mark.parametrize("base", [BASE + "/search", BASE + "/search/", BASE + "/search?q=", BASE + "//search//"])
def test_a_base_url_ending_in_search_is_the_instance_root(base):
    result, calls = run(recorded(), settings_=settings(base_url=base))
    assert len(result["items"]) == 5
    assert urlsplit(calls[0].request.url).path == "/search"


def test_a_base_url_under_a_path_keeps_it():
    backend = SearXNG(settings(base_url="https://host.example/searxng/search"))
    assert backend.build_request(SearchParams("q", 5)).url == "https://host.example/searxng/search"


def test_a_404_says_the_base_url_looks_wrong():
    with responses.RequestsMock() as mock:
        mock.add(
            responses.GET, "https://host.example/wrong/search", body="Not Found", status=404, content_type="text/html"
        )
        with pytest.raises(ws.WebProviderError) as info:
            ws.search("q", backend="searxng", retries=0, settings=settings(base_url="https://host.example/wrong"))
    assert info.value.detail_code == "http_404"
    assert "SEARXNG_BASE_URL" in info.value.message and "https://host.example/wrong/search" in info.value.message
