"""Conformance: what every registered backend must do, checked against what it declares
(endpoint, settings and which of them are secret, auth statuses, longest query, rate limit)
and against what was recorded for it under ``fixtures/<name>/``.

A backend runs here as soon as it is registered; nothing in this file names one. What a
backend does differently from the others (its vendor's envelope, its options, its parser)
is tested in ``tests/unit/backends/test_<name>.py``. Answers are replayed with
``responses``; waits run on a fake clock.
"""

import json
import logging
from typing import Any
from urllib.parse import unquote_plus, urlsplit

import pytest
import requests
import responses
from backend_kit import (
    FIXTURES,
    declared_endpoint,
    dummy_config,
    env_for,
    env_vars,
    network_backends,
    project_backends,
    recorded_exchanges,
    recorded_success,
    replay_search,
    required,
    secret_settings,
)
from clocks import FakeClock
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.cli.backends_cmd import backend_rows
from websearch_sync.config import is_secret_name
from websearch_sync.contract.cases import discover
from websearch_sync.contract.conformance import STATUSES, sent_values
from websearch_sync.contract.conformance import declared_error as kit_declared_error
from websearch_sync.engine import registry
from websearch_sync.errors import WebSearchError
from websearch_sync.models import SearchParams
from websearch_sync.net.response import HttpResponse
from websearch_sync.net.status import edge_refusal
from websearch_sync.validate import search_params

pytestmark = pytest.mark.usefixtures("wire_kind")  # every test on both wire kinds (conftest.py)

ALL = project_backends()
NETWORK = network_backends()
KEYED = [name for name in NETWORK if secret_settings(registry.backend_class(name))]
REQUIRED = [(name, key) for name in ALL for key in required(registry.backend_class(name))]
LIMITED_QUERY = [name for name in NETWORK if registry.backend_class(name).max_query_chars]
SPACED = [name for name in NETWORK if registry.backend_class(name).min_interval_s > 0]
#: ``{backend: {status: (error class, why)}}`` for a backend whose bare status really means something
#: else than its declaration says. Empty: every backend maps statuses as declared.
STATUS_EXCEPTIONS: dict[str, dict[int, tuple[type[WebSearchError], str]]] = {}
QUERY = "conformance check"
OVERRIDE = "http://override.conformance.test/search"


def cls_of(name: str) -> type[Any]:
    return registry.backend_class(name)


def secrets_of(name: str) -> dict[str, str]:
    """A distinct secret per secret setting of the backend."""
    return {key: "%s-%s-SECRET-0451" % (name, key.replace("_", "-")) for key in secret_settings(cls_of(name))}


def config_of(name: str) -> dict[str, Any]:
    return dummy_config(cls_of(name), "https://%s.conformance.test/api" % name, secrets_of(name))


def settings_of(name: str, **kwargs: Any) -> ws.Settings:
    return ws.Settings(providers={name: config_of(name)}, **kwargs)


def endpoint_of(name: str) -> str:
    return declared_endpoint(cls_of(name), config_of(name))


#: Backends whose service has no use for ``site_filter`` (documented in docs/backends.md): the plain query is sent.
NO_SITE_FILTER = {"wikipedia": "an encyclopedia: the search covers one wiki, site: does not apply"}


def declared_error(name: str, status: int) -> type[WebSearchError]:
    """The error class a bare ``status`` must give (the conformance kit's rule, which plugins are held to)."""
    if status in STATUS_EXCEPTIONS.get(name, {}):
        return STATUS_EXCEPTIONS[name][status][0]
    return kit_declared_error(cls_of(name), status)


def replay(
    name: str, *, body: Any = b"status conformance", content_type: str = "text/plain", **kwargs: Any
) -> tuple[Any, list[Any]]:
    """One search of ``name`` (no retries, unless through a ``client``) against one replayed answer at
    its declared endpoint: (result or error, calls)."""
    return replay_search(
        name,
        endpoint_of(name),
        body,
        content_type=content_type,
        settings=settings_of(name),
        **dict({"query": QUERY}, **kwargs),
    )


# -- the request ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NETWORK)
def test_the_request_goes_to_the_declared_endpoint_with_the_query(name):
    spec = cls_of(name)(settings_of(name)).build_request(SearchParams(QUERY, 5, site_filter="example.org"))
    assert spec.url == endpoint_of(name)
    assert spec.method in ("GET", "POST")
    full_query = QUERY if name in NO_SITE_FILTER else QUERY + " site:example.org"
    assert full_query in sent_values(spec) or full_query in unquote_plus(urlsplit(spec.url).path), (
        "the query is not sent"
    )


@pytest.mark.parametrize("name", KEYED)
def test_secrets_travel_in_headers_never_in_the_url_or_body(name):
    spec = cls_of(name)(settings_of(name)).build_request(SearchParams(QUERY, 5))
    headers = " ".join(spec.headers.values())
    visible = spec.url + json.dumps([spec.params, spec.data, spec.json], default=str)
    for setting, secret in secrets_of(name).items():
        assert secret in headers, "%s is not sent" % setting
        assert secret not in visible, "%s is sent where logs and proxies keep it" % setting


@pytest.mark.parametrize("name", NETWORK)
def test_an_endpoint_override_replaces_the_url(name):
    cls = cls_of(name)
    in_code = ws.Settings(providers={name: config_of(name)}, endpoints={name: OVERRIDE})
    environ = dict(env_for(cls, config_of(name)), **{"WEB_SEARCH_ENDPOINT_%s" % name.upper(): OVERRIDE})
    for settings in (in_code, ws.Settings.from_env(environ=environ)):
        assert cls(settings).build_request(SearchParams(QUERY, 5)).url == OVERRIDE


@pytest.mark.parametrize("name", NETWORK)
def test_the_environment_selects_and_configures_it(name, monkeypatch):
    recorded = recorded_success(name)
    meta = recorded.case.meta
    for variable, value in env_for(cls_of(name), config_of(name)).items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setenv("WEB_SEARCH_BACKEND", name)
    with responses.RequestsMock() as mock:
        mock.add(recorded.request["method"], endpoint_of(name), body=recorded.body, content_type=recorded.content_type)
        result = ws.search(meta["query"], max_results=meta.get("max_results"), **(meta.get("options") or {}))
        sent = mock.calls[0].request
    assert result["provider_meta"]["provider_name"] == name
    assert [item["url"] for item in result["items"]] == [item["url"] for item in recorded.golden["items"]]
    for secret in secrets_of(name).values():
        assert secret in " ".join(sent.headers.values())


@pytest.mark.parametrize("name", LIMITED_QUERY)
def test_the_longest_query_is_checked_before_any_request(name, fake_clock):
    limit = cls_of(name).max_query_chars
    refused, calls = replay(name, query="x" * limit)
    assert isinstance(refused, ws.InvalidInput) and refused.detail_code == "query_too_long", repr(refused)
    assert calls == []
    _, calls = replay(name, query="x" * (limit - 1))
    assert len(calls) == 1


# -- configuration ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, setting", REQUIRED)
def test_a_missing_setting_fails_before_any_request(name, setting):
    cls = cls_of(name)
    config = config_of(name)
    del config[setting]
    settings = ws.Settings(providers={name: config})
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        with pytest.raises(ws.WebSearchError) as info:
            ws.search(QUERY, backend=name, settings=settings)
        assert len(mock.calls) == 0
    expected = (ws.AuthError, "missing_api_key") if is_secret_name(setting) else (ws.InvalidInput, "not_configured")
    assert (type(info.value), info.value.detail_code) == expected
    assert env_vars(cls).get(setting, setting) in info.value.message
    assert cls(settings).missing_settings() == [setting] and not cls(settings).is_configured()


@pytest.mark.parametrize("name", ALL)
def test_it_needs_exactly_the_settings_it_declares(name):
    cls = cls_of(name)
    assert cls(ws.Settings()).missing_settings() == list(required(cls))
    assert cls(ws.Settings()).is_configured() is not required(cls)
    if cls.kind != "offline":
        assert cls(settings_of(name)).is_configured()


@pytest.mark.parametrize("name", ALL)
def test_the_backends_command_describes_it_from_its_declaration(name):
    cls = cls_of(name)
    row = next(r for r in backend_rows(ws.Settings()) if r["name"] == name)
    assert (row["kind"], row["min_interval_s"], row["summary"]) == (cls.kind, cls.min_interval_s, cls.summary)
    assert row["missing"] == [env_vars(cls).get(key, key) for key in required(cls)]
    assert set(env_vars(cls).values()) <= set(row["env"])
    assert ("WEB_SEARCH_ENDPOINT_%s" % name.upper() in row["env"]) is (cls.kind != "offline")
    assert row["settings"] == [setting.describe() for setting in cls.declared_settings()]
    assert [option["name"] for option in row["options"] if "web" in option["verticals"]] == list(cls.option_names())


@pytest.mark.parametrize("name", [n for n in NETWORK if "timeout_ms" in env_vars(registry.backend_class(n))])
def test_its_own_timeout_beats_the_shared_one_and_an_explicit_one_beats_both(name):
    cls = cls_of(name)
    environ = dict(env_for(cls, config_of(name)), WEB_SEARCH_TIMEOUT_MS="20000")
    assert cls(ws.Settings.from_env(environ=environ)).timeout_ms() == 20000
    environ[env_vars(cls)["timeout_ms"]] = "300"
    backend = cls(ws.Settings.from_env(environ=environ))
    assert backend.timeout_ms() == 300 and backend.timeout_ms(900) == 900


# -- statuses and waits ------------------------------------------------------------------------------


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("name", NETWORK)
def test_a_bare_status_maps_as_declared(name, status):
    error, calls = replay(name, status=status)
    assert type(error) is declared_error(name, status), repr(error)
    assert (error.detail_code, error.status, error.provider) == ("http_%d" % status, status, name)
    assert error.retryable is (status == 429 or status >= 500)
    assert len(calls) == 1


@pytest.mark.parametrize("name", NETWORK)
def test_a_429_is_retried_after_its_retry_after_and_reported_with_it(name):
    clock = FakeClock()
    with ws.SearchClient(name, settings=settings_of(name), retries=2, cache_ttl_s=0, clock=clock) as client:
        error, calls = replay(name, status=429, headers={"Retry-After": "7"}, client=client)
    assert isinstance(error, ws.WebBlocked) and error.detail_code == "http_429", repr(error)
    assert error.retryable is True and error.retry_after == 7.0
    assert len(calls) == 3 and clock.sleeps == [7.0, 7.0]


@pytest.mark.parametrize("name", SPACED)
def test_its_rate_limit_spaces_two_searches_of_one_client(name):
    recorded = recorded_success(name)
    clock = FakeClock()
    with ws.SearchClient(name, settings=settings_of(name), retries=0, cache_ttl_s=0, clock=clock) as client:
        for query in ("first", "second"):
            result, calls = replay(
                name, body=recorded.body, content_type=recorded.content_type, client=client, query=query
            )
            assert len(calls) == 1 and result["items"], result
    assert clock.sleeps == [cls_of(name).min_interval_s]


# -- secrets ------------------------------------------------------------------------------------------


def with_secrets(body: bytes, secrets: list[str]) -> bytes:
    """A recorded body that repeats the secrets in every text it holds (as a careless service would)."""
    echo = " (%s)" % " ".join(secrets)
    try:
        data = json.loads(body)
    except ValueError:
        return body + echo.encode()

    def spiked(value: Any) -> Any:
        if isinstance(value, str):
            return value + echo
        if isinstance(value, list):
            return [spiked(v) for v in value]
        if isinstance(value, dict):
            return {k: spiked(v) for k, v in value.items()}
        return value

    return json.dumps(spiked(data)).encode()


def assert_clean(text: str, secrets: list[str], where: str) -> None:
    for secret in secrets:
        assert secret not in text, "a secret leaked in %s: %r" % (where, text)


@pytest.mark.parametrize("name", KEYED)
def test_secrets_never_show_on_error_paths(name, caplog):
    caplog.set_level(logging.DEBUG)
    secrets = list(secrets_of(name).values())
    recorded = [r for r in recorded_exchanges(name) if r.error and r.body]
    assert recorded, "no recorded error answer for %s" % name
    answers = [(r.response["status"], with_secrets(r.body, secrets), r.content_type) for r in recorded]
    answers += [
        (200, ("<html><body>%s</body></html>" % " ".join(secrets)).encode(), "text/html"),
        (401, " ".join(secrets).encode(), "text/plain"),
    ]
    answers += [
        (None, requests.exceptions.ConnectTimeout("connect with %s timed out" % secrets), None),
        (None, requests.exceptions.ConnectionError("reset while sending %s" % secrets), None),
    ]
    for status, body, content_type in answers:
        with ws.SearchClient(name, settings=settings_of(name), retries=0, cache_ttl_s=0, min_interval_s=0) as client:
            outcome, calls = replay(
                name, status=status or 200, body=body, content_type=content_type or "text/plain", client=client
            )
            assert_clean(repr(client), secrets, "the client's repr")
        assert len(calls) == 1 and all(
            s in " ".join(calls[0].request.headers.values()) for s in secrets
        )  # they were sent
        if not isinstance(outcome, WebSearchError):
            assert_clean(json.dumps(outcome), secrets, "a result")
            continue
        for error in [outcome] + list(outcome.errors):
            for text in (str(error), repr(error), json.dumps(error.to_dict()), " ".join(map(str, error.args))):
                assert_clean(text, secrets, "an error of status %s" % status)
    assert_clean(caplog.text, secrets, "the logs")


@pytest.mark.parametrize("name", KEYED)
def test_reprs_never_show_secrets(name):
    cls = cls_of(name)
    secrets = list(secrets_of(name).values())
    for settings in (settings_of(name), ws.Settings.from_env(environ=env_for(cls, config_of(name)))):
        for text in (
            repr(settings),
            str(settings),
            repr(cls(settings)),
            repr(ws.SearchClient(name, settings=settings)),
        ):
            assert_clean(text, secrets, "a repr")
        assert set(secrets) <= set(cls(settings).secrets()) and set(secrets) <= set(settings.secrets())


# -- its recorded cases --------------------------------------------------------------------------------


def _case_params(meta: dict[str, Any], settings: ws.Settings) -> SearchParams:
    options = dict(meta.get("options") or {})
    return search_params(
        meta["query"], meta.get("max_results"), options, settings, [o for n in ALL for o in cls_of(n).option_names()]
    )


def _edge_refused(recorded: Any) -> bool:
    """Whether the recorded answer is Cloudflare's edge refusing the request (``edge_refusal``): its
    ``http_403`` is a block from any backend, not the status the backend declares."""
    headers = CaseInsensitiveDict(recorded.response.get("headers") or {})
    answer = HttpResponse(recorded.response["status"], headers, recorded.body, recorded.request.get("url") or "")
    return edge_refusal(answer) is not None


@pytest.mark.parametrize("name", ALL)
def test_its_recorded_cases_agree_with_its_declaration(name):
    cls = cls_of(name)
    assert discover(FIXTURES, name), "fixtures/%s has no recorded case" % name
    if cls.kind == "offline":
        return
    recorded_success(name)  # a recorded success with items exists (LookupError otherwise)
    for recorded in recorded_exchanges(name):
        meta = recorded.case.meta
        settings = ws.Settings(**(meta.get("settings") or {}))
        spec = cls(settings).build_request(_case_params(meta, settings))
        where = recorded.case.case_id
        assert recorded.request.get("url") == declared_endpoint(cls, settings.provider(name), settings.endpoints), where
        assert recorded.request.get("method") == spec.method, where
        status, error = recorded.response["status"], recorded.error
        if error.get("detail_code") == "http_%d" % status and not _edge_refused(recorded):  # a bare status
            assert error["type"] == declared_error(name, status).__name__, where
