"""What a demanding user of the public client expects: clear errors for input that would
otherwise be ignored or misread, and settings that cannot silently go stale."""

import dataclasses
import logging
from pathlib import Path

import pytest
from backend_kit import registered

import websearch_sync as ws
from websearch_sync.backends import Backend
from websearch_sync.cli import main
from websearch_sync.net.wire_mock import MockResponse, MockWire

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.parametrize(
    "flag",
    [["--workers", "4"], ["--stop-after-failures", "2"], ["--skip-done", "out.jsonl"], ["--progress-every", "0"]],
)
def test_a_batch_only_flag_with_a_single_query_is_a_usage_error(flag, capsys):
    assert main(["search", "python", "-b", "stub", *flag]) == 2
    err = capsys.readouterr().err
    assert "InvalidInput/bad_arguments" in err and flag[0] in err and "--queries-file" in err


@pytest.mark.parametrize(
    "field, value", [("endpoints", "https://mirror.example/html/"), ("providers", {"timeout_ms": 5})]
)
def test_settings_naming_an_unknown_backend_are_refused_with_the_closest_name(field, value):
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(**{field: {"ddg": value}})
    assert info.value.detail_code == "unknown_backend"
    assert "Settings.%s" % field in info.value.message and "did you mean ddg_html?" in info.value.message


def test_an_endpoint_for_auto_is_refused_too():
    with pytest.raises(ws.InvalidInput, match="unknown backend 'auto'"):
        ws.Settings(endpoints={"auto": "https://mirror.example/"})


class Later(Backend):
    name = "plugin_later"
    kind = "json"
    default_endpoint = "https://later.example/search"


def test_a_plugin_registered_before_its_settings_are_built_takes_an_endpoint_and_a_section():
    with pytest.raises(ws.InvalidInput, match="plugin_later"):
        ws.Settings(endpoints={"plugin_later": "https://mirror.example/"})
    with registered(Later):
        settings = ws.Settings(endpoints={"plugin_later": "https://mirror.example/"}, providers={"plugin_later": {}})
        assert settings.endpoints == {"plugin_later": "https://mirror.example/"}


def test_a_mistyped_endpoint_variable_is_still_a_warning_not_an_error(caplog):
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        settings = ws.Settings.from_env(environ={"WEB_SEARCH_ENDPOINT_DDG_QA2": "https://mirror.example/"})
    assert settings.endpoints == {}
    assert "ignoring WEB_SEARCH_ENDPOINT_DDG_QA2" in caplog.text


CHAIN = ("ddg_html", "stub")


@pytest.mark.parametrize(
    "make", [tuple, list, lambda chain: (name for name in chain)], ids=["tuple", "list", "generator"]
)
def test_backend_takes_names_in_order_from_a_tuple_a_list_or_a_generator(make):
    names = make(CHAIN)
    with ws.SearchClient(
        wire=MockWire(lambda request: MockResponse(503, {"Content-Type": "text/html"}, "down"))
    ) as client:
        response = client.search("python", backend=names, budget_ms=2000, retries=0)
    assert response["provider_meta"]["provider_name"] == "stub"  # ddg_html was asked first and failed
    assert [error["provider"] for error in response["errors"]] == ["ddg_html"]


@pytest.mark.parametrize("unordered", [{"stub"}, frozenset({"stub", "ddg_html"})])
def test_a_set_of_backends_is_refused_saying_that_a_chain_has_an_order(unordered):
    with pytest.raises(ws.InvalidInput, match="a set has no order") as info:
        ws.search("python", backend=unordered)  # type: ignore[arg-type]  # refused by the type hint too
    assert info.value.detail_code == "unknown_backend"


def test_clearing_a_backends_cool_down_also_lifts_its_endpoint_hosts(fake_clock):
    """A block that ends a call cools the backend and its endpoint's host down; clearing the
    backend lifts both, so a page of that host is read again (it was still refused)."""
    endpoint = "http://127.0.0.1:9/html/"
    answers = iter([MockResponse(429, {"Content-Type": "text/html"}, "slow down")])

    def handler(request):
        return next(answers, MockResponse(200, {"Content-Type": "text/plain"}, "a page of the engine's host"))

    settings = ws.Settings(endpoints={"ddg_html": endpoint}, allow_private=True)
    with ws.SearchClient("ddg_html", settings=settings, wire=MockWire(handler), retries=0) as client:
        with pytest.raises(ws.WebBlocked):
            client.search("python")
        with pytest.raises(ws.WebBlocked, match="cooling down"):
            client.fetch("http://127.0.0.1:9/page")
        assert client.clear_cooldowns("ddg_html") == ["ddg_html@127.0.0.1:9", "host:127.0.0.1:9"]
        assert client.fetch("http://127.0.0.1:9/page")["text"] == "a page of the engine's host"


def test_settings_in_use_by_an_open_client_refuse_an_edit_that_would_reach_only_part_of_it():
    """Before, ``settings.proxy = ...`` after building the client changed nothing (its transport
    had read the proxy), and other edits reached the requests but not the cache key."""
    settings = ws.Settings()
    with ws.SearchClient("stub", settings=settings) as client:
        with pytest.raises(dataclasses.FrozenInstanceError, match=r"settings=settings.replace\(proxy=...\)"):
            settings.proxy = "http://proxy.example:8080"
        with pytest.raises(dataclasses.FrozenInstanceError, match="open SearchClient"):
            client.settings.timeout_ms = 1000
        with pytest.raises(AttributeError, match="cannot be replaced"):
            client.settings = ws.Settings(proxy="http://proxy.example:8080")
        changed = settings.replace(timeout_ms=1000)  # the way: an edited copy, for a new client
        changed.timeout_ms = 2000
    settings.timeout_ms = 3000  # the client is closed: nothing reads them any more
    ws.search("python", settings=settings)  # a module-level call closes its client at once
    settings.timeout_ms = 4000
    assert (settings.timeout_ms, changed.timeout_ms) == (4000, 2000)


def test_settings_backend_takes_a_generator_for_every_search_and_refuses_a_set():
    settings = ws.Settings(backend=(name for name in ("stub",)))
    with ws.SearchClient(settings=settings) as client:
        assert client.search("one")["items"] and client.search("two")["items"]  # not only the first
    with pytest.raises(ws.InvalidInput, match="a set has no order") as info:
        ws.Settings(backend={"stub", "ddg_html"})  # type: ignore[arg-type]
    assert info.value.detail_code == "unknown_backend"


def test_an_endpoint_edited_in_place_is_not_answered_from_the_cache_of_the_old_one():
    """Before, an edit inside ``settings.endpoints`` reached the next request but not the cache
    key: the answer cached from the old instance was served for the new one."""
    recorded = (FIXTURES / "searxng" / "browse-API__1.json").read_bytes()
    wire = MockWire(lambda request: MockResponse(headers={"Content-Type": "application/json"}, body=recorded))
    settings = ws.Settings(endpoints={"searxng": "http://127.0.0.1:9/"}, allow_private=True)
    with ws.SearchClient("searxng", settings=settings, wire=wire, cache_ttl_s=60, retries=0) as client:
        first = client.search("python")
        assert client.search("python")["items"] == first["items"] and len(wire.requests) == 1  # cached
        settings.endpoints["searxng"] = "http://127.0.0.2:9/"
        assert client.search("python")["items"] == first["items"]
        settings.providers["searxng"] = {"timeout_ms": 5000}  # a provider setting: a new key too
        client.search("python")
        settings.providers["searxng"]["timeout_ms"] = 6000  # edited inside the provider's section
        client.search("python")
    assert [request.url.split("/")[2] for request in wire.requests] == ["127.0.0.1:9"] + ["127.0.0.2:9"] * 3


def test_a_key_set_in_place_after_a_refusal_is_used_by_the_next_call():
    """Validated calls are remembered per client; one refused for want of a key must not be
    remembered past the key's being set in place (a guard for the memo's snapshot of the sections)."""
    recorded = (FIXTURES / "brave" / "brave-search-python-client__1.json").read_bytes()
    wire = MockWire(lambda request: MockResponse(headers={"Content-Type": "application/json"}, body=recorded))
    settings = ws.Settings(providers={"brave": {}})
    with ws.SearchClient("brave", settings=settings, wire=wire, retries=0) as client:
        with pytest.raises(ws.AuthError) as info:
            client.search("python")
        assert info.value.detail_code == "missing_api_key" and not wire.requests
        settings.providers["brave"]["api_key"] = "a-key-set-later"
        assert client.search("python")["items"]
    assert [dict(request.headers).get("X-Subscription-Token") for request in wire.requests] == ["a-key-set-later"]
