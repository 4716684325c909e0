"""The pace as a setting (issue 25.3) and the retry policy value object (issue 22.4)."""

import pytest

import websearch_sync as ws
from websearch_sync.client.retry import DEFAULT_RETRY, RetryPolicy


def _intervals(client):
    return client._runner.intervals


def test_the_pace_is_a_setting_for_every_backend_or_one():
    assert _intervals(ws.SearchClient("stub", settings=ws.Settings(min_interval_s=0.5)))["searxng"] == 0.5
    assert _intervals(ws.SearchClient("stub", settings=ws.Settings(min_interval_s={"service": 2})))["service"] == 2.0
    # the client's argument overrides the settings' for the backends it names
    client = ws.SearchClient("stub", settings=ws.Settings(min_interval_s=0.5), min_interval_s={"searxng": 1.0})
    assert (_intervals(client)["searxng"], _intervals(client)["brave"]) == (1.0, 0.5)


def test_the_pace_is_read_from_the_environment():
    env = {"WEB_SEARCH_MIN_INTERVAL_S": "0.25", "WEB_SEARCH_MIN_INTERVAL_S_SEARXNG": "2"}
    pace = ws.Settings.from_env(env).min_interval_s
    assert pace["searxng"] == 2.0 and pace["service"] == 0.25
    assert ws.Settings.from_env({"WEB_SEARCH_MIN_INTERVAL_S": "1.5"}).min_interval_s == 1.5
    assert ws.Settings.from_env({"WEB_SEARCH_MIN_INTERVAL_S": "soon"}).min_interval_s is None  # logged, ignored


@pytest.mark.parametrize("value", [-1, float("nan"), float("inf"), "1", True, {"searxng": -2}, {"searxng": "x"}])
def test_a_bad_pace_is_refused_when_the_settings_are_built(value):
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(min_interval_s=value)
    assert info.value.detail_code == "bad_min_interval_s"


def test_a_pace_for_an_unknown_backend_is_refused_when_the_client_is_built():
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=ws.Settings(min_interval_s={"serxng": 1}))
    assert info.value.detail_code == "bad_min_interval_s"
    # explained as every unknown backend is (it named no close name before)
    assert "'serxng', which is not a backend (did you mean searxng?); known backends: stub," in info.value.message
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=ws.Settings(min_interval_s={"ddg": 1}))
    assert "(did you mean ddg_html?)" in info.value.message


def test_the_pace_does_not_change_the_cache_key():
    with ws.SearchClient("stub", settings=ws.Settings(min_interval_s=0.0)) as client:
        first = client._fingerprints.get(client.settings, ["stub"], False)
    with ws.SearchClient("stub", settings=ws.Settings(min_interval_s=1.0, state_prefix="x")) as client:
        assert client._fingerprints.get(client.settings, ["stub"], False) == first


def test_the_retry_policy_doubles_caps_jitters_and_honours_retry_after():
    policy = RetryPolicy(total=3, backoff_factor=0.5, backoff_max=3.0, jitter=0.5)
    top = lambda low, high: high  # noqa: E731  (no jitter drawn: the longest wait)
    bottom = lambda low, high: low  # noqa: E731
    assert [policy.backoff_s(n, top) for n in range(4)] == [0.5, 1.0, 2.0, 3.0]
    assert [policy.backoff_s(n, bottom) for n in range(4)] == [0.25, 0.5, 1.0, 1.5]
    slow_down = ws.WebBlocked("429", provider="brave", detail_code="http_429", status=429, retry_after=7.0)
    assert policy.delay_s(0, slow_down, top) == 7.0
    assert RetryPolicy(respect_retry_after=False).delay_s(0, slow_down, top) == 0.5
    assert policy.is_retry(slow_down) and not policy.is_retry(ws.InvalidInput("x"))
    assert DEFAULT_RETRY.with_total(2) is DEFAULT_RETRY and DEFAULT_RETRY.with_total(0).total == 0


def test_the_default_policy_is_the_documented_one():
    """docs/client.md: two retries, 0.5 s doubling up to 8 s, each wait shortened by up to half;
    a shorter Retry-After does not shorten the backoff."""
    top = lambda low, high: high  # noqa: E731
    bottom = lambda low, high: low  # noqa: E731
    assert DEFAULT_RETRY.total == 2 and DEFAULT_RETRY.respect_retry_after
    assert [DEFAULT_RETRY.backoff_s(n, top) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert [DEFAULT_RETRY.backoff_s(n, bottom) for n in range(2)] == [0.25, 0.5]
    brief = ws.WebBlocked("429", provider="brave", detail_code="http_429", status=429, retry_after=0.1)
    assert DEFAULT_RETRY.delay_s(1, brief, top) == 1.0


def test_the_cache_key_holds_the_pace_used_not_the_pace_configured(tmp_path):
    """A client with no pace set and one given the backend's own pace space its requests alike, so
    they share cached answers; one with another pace does not read them (its answer may say what
    its pace kept from it)."""
    from websearch_sync.engine import registry

    path, own = str(tmp_path / "cache.sqlite3"), registry.backend_class("stub").min_interval_s

    def cached(**pace):
        with ws.SearchClient("stub", settings=ws.Settings(), cache_path=path, **pace) as client:
            return client.search("q")["provider_meta"]["cached"]

    assert cached() is False
    assert cached(min_interval_s={"stub": own}) is True
    assert cached(min_interval_s={"stub": own + 0.25}) is False
