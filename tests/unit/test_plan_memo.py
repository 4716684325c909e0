"""A cache hit never skips validation, although a repeated call reuses its validation (issue 25.8)."""

import pytest

import websearch_sync as ws
from websearch_sync.backends.stub import Stub
from websearch_sync.engine.registry import register, unregister
from websearch_sync.models import SearchParams


@pytest.mark.parametrize("bad", [True, 1.0, "1", 0, 51])
def test_an_argument_equal_to_a_valid_one_but_of_another_type_is_still_refused(bad):
    with ws.SearchClient("stub") as client:
        assert client.search("q", max_results=1)["provider_meta"]["cached"] is False
        assert client.search("q", max_results=1)["provider_meta"]["cached"] is True
        with pytest.raises(ws.InvalidInput):
            client.search("q", max_results=bad)


@pytest.mark.parametrize("again", ["q", "another query"], ids=["repeat", "new_query"])
def test_a_backend_registered_again_is_used_by_the_next_call(again):
    class Other(Stub):
        name = "memo_probe"
        timeout_ms_default = 1234

    class Replaced(Stub):
        name = "memo_probe"

        def search(self, params, transport, deadline):
            result = super().search(params, transport, deadline)
            result.items[0]["title"] = "replaced"
            return result

    register(Other)
    try:
        with ws.SearchClient("memo_probe", cache_ttl_s=0) as client:
            assert client.search("q")["items"][0]["title"] != "replaced"
            register(Replaced)
            assert client.search(again)["items"][0]["title"] == "replaced"
            unregister("memo_probe")
            with pytest.raises(ws.InvalidInput):
                client.search("q")
    finally:
        unregister("memo_probe", missing_ok=True)  # the test unregistered it, unless it failed before


class _Short(Stub):
    """A stub refusing queries of 12 characters or more, counting its checks."""

    name = "memo_short"
    max_query_chars = 12
    checks: list = []

    def check(self, params):
        type(self).checks.append(params.query)
        super().check(params)


@pytest.fixture
def short():
    register(_Short)
    _Short.checks = []
    yield _Short
    unregister("memo_short")


def test_a_new_query_with_the_arguments_of_a_validated_call_is_still_checked(short):
    """The validation of the arguments but the query is reused; the query and each backend's
    refusal of it are checked again (a query too long for the backend, an empty one)."""
    with ws.SearchClient("memo_short", cache_ttl_s=0) as client:
        assert client.search("short")["items"]
        with pytest.raises(ws.InvalidInput) as too_long:
            client.search("a query too long for it")
        assert (too_long.value.detail_code, too_long.value.provider) == ("query_too_long", "memo_short")
        with pytest.raises(ws.InvalidInput) as empty:
            client.search("   ")
        assert empty.value.detail_code == "empty_query"
        with pytest.raises(ws.InvalidInput) as bad:
            client.search("other", max_results=0)
        assert bad.value.detail_code == "bad_max_results"
        assert client.search("  other  ")["items"][0]["title"] == Stub(ws.Settings()).items("other")[0]["title"]


def test_a_backend_checks_a_call_once(short):
    """The backend checks the call before it books a slot and in its search: once for one call
    (the same backend object and parameters); a direct search of a backend still checks."""
    with ws.SearchClient("memo_short", cache_ttl_s=0) as client:
        client.search("one")
        client.search("two")
        client.search("two")  # a repeat: its validation reused, its backend built (and checking) again
    assert short.checks == ["one", "two", "two"]
    backend = short(ws.Settings())
    with pytest.raises(ws.InvalidInput):
        backend.search(SearchParams("far too long a query", 5), None, None)
