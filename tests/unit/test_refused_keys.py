"""A key a service refused is not sent to it again by the same client (client/refusedkeys.py):
a fallback chain skips that backend with the remembered refusal in ``errors``, a call to it alone
gets the same typed error without a request, another key is asked, an account refusal (plan,
credit) is remembered for a while only, ``clear_cooldowns`` forgets, and the key itself is never
kept (a hash is)."""

import json

import pytest
import responses
from backend_kit import recorded_json
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.client.refusedkeys import ACCOUNT_REFUSAL_S

TAVILY = "https://api.tavily.com/search"
BRAVE = "https://api.search.brave.com/res/v1/web/search"
KEY = "tvly-REFUSED-0a1b2c3d4e5f"


def _recorded_answer(name):
    """A recorded refusal of Tavily's: (status, body)."""
    meta = recorded_json("tavily", name)["response"]
    return meta["status"], meta["body_text"]


def _settings(key=KEY):
    return ws.Settings(providers={"tavily": {"api_key": key}, "brave": {"api_key": "brave-key"}})


def _mock(refusal="http_401_invalid_key.meta.json"):
    status, body = _recorded_answer(refusal)
    mock = responses.RequestsMock(assert_all_requests_are_fired=False)
    mock.add(responses.POST, TAVILY, body=body, status=status, content_type="application/json")
    mock.add(responses.GET, BRAVE, json=recorded_json("brave", "larallama__1.json"))  # 18 results: one page
    return mock


def _asked(mock, url):
    return [call for call in mock.calls if call.request.url.startswith(url)]


def _client(settings=None, clock=None):
    return ws.SearchClient(["tavily", "brave"], settings=settings or _settings(), clock=clock or FakeClock(), retries=0)


def test_a_refused_key_is_asked_once_and_its_refusal_stays_in_errors():
    with _mock() as mock, _client() as client:
        first = client.search("eino", cache_ttl_s=0)
        second = client.search("eino", cache_ttl_s=0)
        assert len(_asked(mock, TAVILY)) == 1  # the second call did not send the refused key again
        assert len(_asked(mock, BRAVE)) == 2
    assert first["provider_meta"]["provider_name"] == second["provider_meta"]["provider_name"] == "brave"
    met, remembered = first["errors"][0], second["errors"][0]
    assert met["type"] == remembered["type"] == "AuthError"
    assert met["detail_code"] == remembered["detail_code"] == "http_401"
    assert remembered["provider"] == "tavily"
    assert "until the key changes" in remembered["message"]
    assert "Unauthorized: missing or invalid API key" in remembered["message"]  # what Tavily said, still shown
    assert second["provider_meta"]["attempts"] == 1  # only brave's request counted


def test_the_answer_of_the_others_is_cached_once_the_refusal_is_remembered():
    """A remembered refusal refuses the call before sending, as a missing key does: the fallback's
    answer may be cached (the call that met the refusal is not: it could have been a passing one)."""
    with _mock() as mock, _client() as client:
        met = client.search("eino")
        remembered = client.search("eino")
        cached = client.search("eino")
        assert len(_asked(mock, BRAVE)) == 2 and len(_asked(mock, TAVILY)) == 1
    assert not met["provider_meta"]["cached"] and not remembered["provider_meta"]["cached"]
    assert cached["provider_meta"]["cached"] is True


def test_a_direct_call_gets_the_remembered_typed_error_without_a_request():
    with _mock() as mock, _client() as client:
        client.search("eino", cache_ttl_s=0)
        with pytest.raises(ws.AuthError) as caught:
            client.search("another query", backend="tavily")
        assert len(_asked(mock, TAVILY)) == 1
    assert caught.value.detail_code == "http_401" and caught.value.provider == "tavily"
    assert caught.value.retryable is False
    assert KEY not in str(caught.value)


def test_another_key_is_asked_and_the_key_is_kept_only_as_a_hash():
    settings = _settings()
    with _mock() as mock, _client(settings) as client:
        client.search("eino", cache_ttl_s=0)
        refused = client._cooldowns.refused
        assert KEY not in repr(refused._refused)  # a digest, not the key
        settings.providers["tavily"]["api_key"] = "tvly-NEW-KEY"  # the key changed (in place, as a user may)
        client.search("eino", cache_ttl_s=0)
        assert len(_asked(mock, TAVILY)) == 2
        assert _asked(mock, TAVILY)[1].request.headers["Authorization"] == "Bearer tvly-NEW-KEY"


def test_an_account_refusal_is_remembered_for_a_while_only():
    clock = FakeClock()
    with _mock("http_432_plan_limit.meta.json") as mock, _client(clock=clock) as client:
        client.search("eino", cache_ttl_s=0)
        skipped = client.search("eino", cache_ttl_s=0)
        assert len(_asked(mock, TAVILY)) == 1
        assert skipped["errors"][0]["detail_code"] == "http_432"
        assert "not asked again for 600 s" in skipped["errors"][0]["message"]
        clock.advance(ACCOUNT_REFUSAL_S)
        client.search("eino", cache_ttl_s=0)  # the account may have been topped up: asked again
        assert len(_asked(mock, TAVILY)) == 2


def test_clear_cooldowns_forgets_a_refused_key():
    with _mock() as mock, _client() as client:
        client.search("eino", cache_ttl_s=0)
        assert client.clear_cooldowns("tavily") == ["tavily"]
        client.search("eino", cache_ttl_s=0)
        assert len(_asked(mock, TAVILY)) == 2


def test_a_new_client_asks_again():
    with _mock() as mock:
        for _ in range(2):
            with _client() as client:
                client.search("eino", cache_ttl_s=0)
        assert len(_asked(mock, TAVILY)) == 2


def test_module_level_search_remembers_for_the_process(fake_clock):
    settings = _settings()
    with _mock() as mock:
        for _ in range(2):
            result = ws.search("eino", backend=["tavily", "brave"], settings=settings, retries=0)
        assert len(_asked(mock, TAVILY)) == 1
    assert json.dumps(result["errors"]).count("until the key changes") == 1


def test_a_key_the_service_echoes_shows_neither_in_errors_nor_in_the_remembered_refusal():
    """Tavily's words quoting the key it refused: the fallback's `errors` (not only a raised error)
    and the refusal remembered from them are redacted."""
    mock = responses.RequestsMock(assert_all_requests_are_fired=False)
    mock.add(responses.POST, TAVILY, json={"detail": {"error": "Invalid API key: " + KEY}}, status=401)
    mock.add(responses.GET, BRAVE, json=recorded_json("brave", "brave-api__minimal_trimmed.json"))
    with mock, _client() as client:
        met = client.search("eino", cache_ttl_s=0)
        remembered = client.search("eino", cache_ttl_s=0)
        with pytest.raises(ws.AuthError) as direct:
            client.search("eino", backend="tavily")
    for shown in (json.dumps(met), json.dumps(remembered), str(direct.value), repr(direct.value.to_dict())):
        assert KEY not in shown
    assert "Invalid API key" in remembered["errors"][0]["message"]
