"""A query field name repeated apart (``?a=1&b=2&a=3``) is recorded with each of its values and each
is checked on replay, in order. Only consecutive values of a name were grouped, so the last group
won: the first ``a`` was neither written to the case nor compared when replaying it."""

from websearch_sync.contract import recording
from websearch_sync.contract.replay import query_params, request_mismatch
from websearch_sync.net.wire import WireRequest

ENDPOINT = "https://qr.example/search"


def test_every_value_of_a_name_repeated_apart_is_read_in_order():
    assert query_params(ENDPOINT + "?a=1&b=2&a=3") == {"a": ["1", "3"], "b": "2"}
    assert query_params(ENDPOINT + "?a=1&a=2&b=&a=3") == {"a": ["1", "2", "3"], "b": ""}
    assert query_params(ENDPOINT + "?a=1&b=2") == {"a": "1", "b": "2"}


def test_every_value_of_a_name_repeated_apart_is_recorded_and_checked_in_order():
    sent = WireRequest("GET", ENDPOINT + "?a=1&b=2&a=3")
    recorded = recording._request_meta(sent, "ua", recording.Redactor([]), "request")
    assert recorded["query_params"] == {"a": ["1", "3"], "b": "2"}
    assert request_mismatch(recorded, sent) is None
    assert request_mismatch(recorded, WireRequest("GET", ENDPOINT + "?a=9&b=2&a=3")) == (
        "query parameter a[0]: sent '9', recorded '1'"
    )
    assert request_mismatch(recorded, WireRequest("GET", ENDPOINT + "?a=3&b=2&a=1")) is not None  # in order
    assert request_mismatch(recorded, WireRequest("GET", ENDPOINT + "?a=1&b=2")) is not None  # one value short
    # the names' order among themselves is not checked (it was not before either)
    assert request_mismatch(recorded, WireRequest("GET", ENDPOINT + "?a=1&a=3&b=2")) is None
