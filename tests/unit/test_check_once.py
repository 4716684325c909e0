"""``Backend.check_once`` checks a call once per backend object, but not past a hand edit of the
backend's configuration: two direct ``search()`` calls with equal parameters and a key removed or a
setting broken in between are checked again before the second request (a refusal sends nothing)."""

import pytest
import responses
from backend_kit import recorded_json

import websearch_sync as ws
from websearch_sync.backends.brave import Brave
from websearch_sync.backends.service import SearchService
from websearch_sync.models import SearchParams
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport

BRAVE = "https://api.search.brave.com/res/v1/web/search"


def _search(backend, params):
    return backend.search(params, HttpTransport(), Deadline(5000))


@pytest.fixture
def brave_answers():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add(responses.GET, BRAVE, json=recorded_json("brave", "larallama__1.json"))  # 18 results: one page
        yield mock


def test_a_key_removed_between_two_equal_calls_is_refused_before_sending(brave_answers):
    backend = Brave(ws.Settings(providers={"brave": {"api_key": "brave-key"}}))
    params = SearchParams("eino", 5)
    assert _search(backend, params).items
    backend.config.pop("api_key")
    with pytest.raises(ws.AuthError) as caught:
        _search(backend, params)
    assert caught.value.detail_code == "missing_api_key" and len(brave_answers.calls) == 1


def test_a_nested_setting_broken_in_place_is_checked_again():
    """The gateway's extra headers, a mapping edited in place: a reserved header is refused."""
    config = {"url": "https://gw.example.org/search", "api_key": "k", "headers": {"X-Tenant": "a"}}
    backend = SearchService(ws.Settings(providers={"service": config}))
    params = SearchParams("eino", 5)
    backend.check_once(params)
    backend.config["headers"]["Authorization"] = "Basic eA=="
    with pytest.raises(ws.InvalidInput) as caught:
        backend.check_once(params)
    assert caught.value.detail_code == "bad_setting"


def test_an_unchanged_configuration_is_checked_once(monkeypatch):
    backend = Brave(ws.Settings(providers={"brave": {"api_key": "brave-key"}}))
    checks = []
    monkeypatch.setattr(backend, "check", checks.append)
    params = SearchParams("eino", 5)
    for _ in range(3):
        backend.check_once(params)
    assert checks == [params]
