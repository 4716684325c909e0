"""The tavily backend: key handling, the request body, parsing, Tavily's statuses and
error bodies, and keys never showing."""

import json
import logging
from pathlib import Path

import pytest
import requests
import responses

import websearch_sync as ws
from websearch_sync.backends.tavily import Tavily
from websearch_sync.models import SearchParams

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tavily"
URL = "https://api.tavily.com/search"
KEY = "tvly-SECRET-0a1b2c3d4e5f"


def recorded(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def doc_example():
    return recorded("tavily-python-docs__leo_messi.json")


def settings(**provider):
    return ws.Settings(providers={"tavily": {"api_key": KEY, **provider}})


def search(body, *, status=200, headers=None, query="q", settings_=None, **kwargs):
    """One tavily search against a replayed answer; returns (result or error, calls)."""
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        payload = body if isinstance(body, (bytes, str)) else json.dumps(body, ensure_ascii=False)
        mock.add(responses.POST, URL, body=payload, status=status, headers=headers or {}, content_type="application/json")
        try:
            outcome = ws.search(query, backend="tavily", settings=settings_ or settings(), **dict({"retries": 0}, **kwargs))
        except ws.WebSearchError as error:
            outcome = error
        return outcome, list(mock.calls)


def sent_json(call):
    return json.loads(call.request.body)


def error_body(message):
    return {"detail": {"error": message}}


# -- configuration ----------------------------------------------------------------------


def test_missing_key_is_auth_error_before_any_request():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        with pytest.raises(ws.AuthError) as info:
            ws.search("q", backend="tavily", settings=ws.Settings())
        assert len(mock.calls) == 0
    assert info.value.detail_code == "missing_api_key" and "TAVILY_API_KEY" in info.value.message
    assert not Tavily(ws.Settings()).is_configured()


def test_environment_selects_and_configures_tavily(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "tavily")
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, URL, json=doc_example())
        result = ws.search("Who is Leo Messi?", max_results=2)
        call = mock.calls[0]
    assert call.request.headers["Authorization"] == "Bearer " + KEY
    assert sent_json(call) == {"query": "Who is Leo Messi?", "max_results": 2}
    assert result["provider_meta"]["provider_name"] == "tavily"
    assert [i["url"] for i in result["items"]] == [
        "https://www.britannica.com/biography/Lionel-Messi",
        "https://www.nytimes.com/athletic/5637953/2024/07/15/lionel-messi-argentina-ending-injury/",
    ]


def test_auto_picks_tavily_once_its_key_is_set(monkeypatch):
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, URL, json=doc_example())
        result = ws.search("q", backend="auto")
    assert result["provider_meta"]["provider_name"] == "tavily"


def test_endpoint_override_from_the_environment(monkeypatch):
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TAVILY", "http://tavily-gw.example/search")
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, "http://tavily-gw.example/search", json=doc_example())
        ws.search("q", backend="tavily")
        assert mock.calls[0].request.headers["Authorization"] == "Bearer " + KEY


def test_backends_command_lists_tavily():
    from websearch_sync.cli.backends_cmd import backend_rows

    row = next(r for r in backend_rows(ws.Settings()) if r["name"] == "tavily")
    assert row["kind"] == "json" and not row["configured"] and row["missing"] == ["TAVILY_API_KEY"]
    assert "WEB_SEARCH_ENDPOINT_TAVILY" in row["env"]


# -- the request ------------------------------------------------------------------------


def test_request_shape():
    spec = Tavily(settings()).build_request(SearchParams("who is leo messi", 7))
    assert spec.method == "POST" and spec.url == URL
    assert spec.json == {"query": "who is leo messi", "max_results": 7}
    assert spec.headers["Authorization"] == "Bearer " + KEY and spec.headers["Accept"] == "application/json"


def test_options_map_to_tavily_fields():
    params = SearchParams("q", 3, time_range="month", site_filter="fifa.com", include_content=True, options={"topic": "news"})
    assert Tavily(settings()).build_request(params).json == {
        "query": "q site:fifa.com",
        "max_results": 3,
        "topic": "news",
        "time_range": "month",
        "include_raw_content": True,
    }


def test_topic_travels_through_search():
    _, calls = search(doc_example(), topic="finance")
    assert sent_json(calls[0])["topic"] == "finance"


@pytest.mark.parametrize("topic", ["sports", "", 3, True])
def test_bad_topic_is_invalid_input_before_any_request(topic):
    outcome, calls = search(doc_example(), topic=topic)
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == "bad_topic"
    assert calls == []


# -- parsing ----------------------------------------------------------------------------


def test_content_is_the_snippet_and_raw_content_only_when_asked():
    body = doc_example()
    body["results"][0]["raw_content"] = "Page text\n\nwith paragraphs"
    plain, _ = search(body)
    assert "content" not in plain["items"][0]
    assert plain["items"][0]["snippet"] == " ".join(body["results"][0]["content"].split())
    with_content, calls = search(body, include_content=True)
    assert sent_json(calls[0])["include_raw_content"] is True
    assert with_content["items"][0]["content"] == "Page text\n\nwith paragraphs"
    assert "content" not in with_content["items"][1]  # raw_content null: no content


def test_published_date_and_request_id():
    body = doc_example()
    body["results"][1]["published_date"] = "Mon, 15 Jul 2024 10:00:00 GMT"
    body["request_id"] = "123e4567-e89b-12d3-a456-426614174111"
    result, _ = search(body)
    assert result["items"][1]["published_at"] == "Mon, 15 Jul 2024 10:00:00 GMT"
    assert "published_at" not in result["items"][0]
    assert result["provider_meta"]["request_id"] == "123e4567-e89b-12d3-a456-426614174111"


def test_empty_results_is_success_with_no_items():
    result, _ = search({"query": "q", "results": [], "response_time": 0.3})
    assert result["items"] == []


@pytest.mark.parametrize("body", [{"query": "q"}, {"results": "x"}, ["x"], "not json at all"])
def test_unknown_shapes_are_parse_errors(body):
    error, _ = search(body)
    assert isinstance(error, ws.WebParseError)


# -- statuses and error bodies ---------------------------------------------------------------


@pytest.mark.parametrize("status", [401, 403, 432, 433])
def test_refused_key_or_exhausted_plan_is_auth_error_with_tavilys_words(status):
    error, _ = search(error_body("This request exceeds your plan's set usage limit."), status=status)
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_%d" % status and error.status == status
    assert "exceeds your plan's set usage limit" in error.message
    assert error.retryable is False


def test_429_is_blocked_and_retryable_with_retry_after():
    error, _ = search(error_body("Rate limit exceeded"), status=429, headers={"Retry-After": "7"})
    assert isinstance(error, ws.WebBlocked) and error.detail_code == "http_429"
    assert error.retryable is True and error.retry_after == 7.0


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_5xx_is_bad_gateway(status):
    error, _ = search("<html>down</html>", status=status)
    assert isinstance(error, ws.BadGateway) and error.retryable and error.detail_code == "http_%d" % status


def test_400_is_a_provider_error_carrying_fastapi_detail():
    error, _ = search({"detail": "Invalid topic"}, status=400)
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "http_400"
    assert "Invalid topic" in error.message


# -- secrets ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "status, body",
    [
        (401, error_body("Unauthorized: invalid API key %s" % KEY)),
        (432, error_body("key %s is over its limit" % KEY)),
        (429, "slow down %s" % KEY),
        (200, "<html>%s</html>" % KEY),
    ],
)
def test_error_paths_never_show_the_key(status, body, caplog):
    caplog.set_level(logging.DEBUG)
    with ws.SearchClient(settings=settings()) as client:
        with responses.RequestsMock() as mock:
            mock.add(responses.POST, URL, body=body if isinstance(body, str) else json.dumps(body), status=status)
            with pytest.raises(ws.WebSearchError) as info:
                client.search("q", backend="tavily", retries=0)
            assert mock.calls[0].request.headers["Authorization"] == "Bearer " + KEY
        assert KEY not in repr(client)
    for text in (str(info.value), repr(info.value), json.dumps(info.value.to_dict()), caplog.text):
        assert KEY not in text


def test_transport_errors_never_show_the_key():
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, URL, body=requests.exceptions.ConnectionError("reset while sending %s" % KEY))
        with pytest.raises(ws.NetworkError) as info:
            ws.search("q", backend="tavily", settings=settings(), retries=0)
    assert KEY not in str(info.value)


def test_reprs_never_show_the_key(monkeypatch):
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    from_env = ws.Settings.from_env()
    assert from_env.provider("tavily")["api_key"] == KEY
    for text in (repr(from_env), repr(Tavily(from_env)), repr(ws.SearchClient("tavily", settings=from_env))):
        assert KEY not in text
    assert KEY in Tavily(from_env).secrets()


# -- documentation ------------------------------------------------------------------------


def test_readme_documents_the_settings_and_every_detail_code_of_the_contract_cases():
    readme = "\n".join(p.read_text(encoding="utf-8") for p in sorted((FIXTURES.parent.parent / "docs").glob("*.md")))
    for var in Tavily.env_vars.values():
        assert "| `%s` |" % var in readme, "%s missing from the configuration table in docs/" % var
    assert "| `tavily` |" in readme
    assert "`http_432`" in readme and "`http_433`" in readme
    for golden in FIXTURES.glob("*.expected.json"):
        outcome = json.loads(golden.read_text(encoding="utf-8"))
        for entry in [outcome.get("error")] + outcome.get("errors", []):
            if entry and entry.get("detail_code"):
                assert "`%s`" % entry["detail_code"] in readme or entry["detail_code"] in ("http_400", "http_500", "http_502", "http_503"), golden.name
