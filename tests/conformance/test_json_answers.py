"""Conformance, JSON APIs: an answer of the service's own format whose shape changed is an
error, never "no results" (which would be cached and read as a success).

Each case starts from the backend's best recorded success (``fixtures/<name>/``) and changes
what a vendor changes: a renamed field.
"""

import json
from typing import Any

import pytest
from backend_kit import recorded_success
from test_conformance import NETWORK, cls_of, replay

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
