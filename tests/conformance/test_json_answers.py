"""Conformance, JSON APIs: an answer of the service's own format whose shape changed is an
error, never "no results" (which would be cached and read as a success).

Each case starts from the backend's best recorded success (``fixtures/<name>/``) and changes
what a vendor changes: a renamed field.
"""

import json
import logging
from typing import Any

import pytest
from backend_kit import recorded_success
from test_conformance import NETWORK, cls_of, config_of, replay, secrets_of

import websearch_sync as ws

#: JSON APIs whose results carry their URL in a vendor field (Wikipedia builds it from the title).
ADDRESSED = [name for name in NETWORK if "url" in getattr(cls_of(name), "result_fields", {})]


def renamed(data: Any, old: str, new: str) -> Any:
    """``data`` with every object key ``old`` renamed ``new``, at any depth."""
    if isinstance(data, dict):
        return {(new if key == old else key): renamed(value, old, new) for key, value in data.items()}
    if isinstance(data, list):
        return [renamed(value, old, new) for value in data]
    return data


def test_every_json_api_with_result_urls_is_covered():
    assert {"brave", "bocha", "jina", "kagi", "searxng", "service", "tavily"} <= set(ADDRESSED)


@pytest.mark.parametrize("name", ADDRESSED)
def test_results_whose_url_field_was_renamed_are_an_unknown_shape_not_no_results(name):
    recorded = json.loads(recorded_success(name).body)
    error, calls = replay(name, body=renamed(recorded, "url", "link"), content_type="application/json")
    assert isinstance(error, ws.WebParseError), "read as %r" % (error,)
    assert (error.detail_code, error.provider) == ("unexpected_shape", name)
    assert "`url`" in error.message and len(calls) == 1


#: JSON APIs with an API key (``api_key``), required or not (a SearXNG behind a proxy).
KEYED_APIS = [name for name in NETWORK if cls_of(name).kind == "json" and "api_key" in secrets_of(name)]


@pytest.mark.parametrize("status", [401, 403])
@pytest.mark.parametrize("name", KEYED_APIS)
def test_a_refused_key_names_the_setting_that_holds_it_never_the_key(name, status):
    error, calls = replay(name, status=status, body=b"", content_type="text/plain")
    assert isinstance(error, ws.AuthError) and len(calls) == 1, error
    assert cls_of(name).setting("api_key").env in error.message
    assert secrets_of(name)["api_key"] not in str(error) + repr(error)


@pytest.mark.parametrize("name", KEYED_APIS)
def test_a_key_sent_over_plain_http_to_a_public_host_is_warned_about_once(name, caplog):
    plain = "http://plain-%s.example.com/api" % name
    for endpoint in (plain, plain, "https://tls-%s.example.com/api" % name, "http://127.0.0.1:8888/api"):
        settings = ws.Settings(providers={name: config_of(name)}, endpoints={name: endpoint})
        with caplog.at_level(logging.WARNING, logger="websearch_sync"):
            cls_of(name)(settings).check_configured()
    warned = [record.getMessage() for record in caplog.records if "plain http" in record.getMessage()]
    assert len(warned) == 1 and "plain-%s.example.com" % name in warned[0]
    assert "WEB_SEARCH_ENDPOINT_%s" % name.upper() in warned[0] and secrets_of(name)["api_key"] not in warned[0]
