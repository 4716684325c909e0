"""A cache hit never skips validation, although a repeated call reuses its validation (issue 25.8)."""

import pytest

import websearch_sync as ws
from websearch_sync.backends.stub import Stub
from websearch_sync.engine.registry import register, unregister


@pytest.mark.parametrize("bad", [True, 1.0, "1", 0, 51])
def test_an_argument_equal_to_a_valid_one_but_of_another_type_is_still_refused(bad):
    with ws.SearchClient("stub") as client:
        assert client.search("q", max_results=1)["provider_meta"]["cached"] is False
        assert client.search("q", max_results=1)["provider_meta"]["cached"] is True
        with pytest.raises(ws.InvalidInput):
            client.search("q", max_results=bad)


def test_a_backend_registered_again_is_used_by_the_next_call():
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
            assert client.search("q")["items"][0]["title"] == "replaced"
            unregister("memo_probe")
            with pytest.raises(ws.InvalidInput):
                client.search("q")
    finally:
        unregister("memo_probe")
