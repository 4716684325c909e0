"""The integrations' ``tools(...)`` refuse a host's slip in ``client`` or ``settings`` by name.

Before: ``langchain.tools("brave")`` (a backend's name where the client goes, the first argument) was
``AttributeError: 'str' object has no attribute 'settings'`` out of the shared ``agent_tools``; a
``settings`` dict was refused only by the client built from it, or not at all beside a client."""

import pytest

import websearch_sync as ws
from websearch_sync.integrations.agent_tool import agent_tools


def test_a_backend_name_for_the_client_is_a_type_error_saying_what_to_write():
    with pytest.raises(TypeError) as info:
        agent_tools("brave")
    assert str(info.value) == (
        "client must be a websearch_sync.SearchClient, got str (to choose a backend: client=SearchClient('brave'))"
    )


@pytest.mark.parametrize("client", [5, {"backend": "stub"}])
def test_another_client_is_a_type_error(client):
    with pytest.raises(TypeError, match="^client must be a websearch_sync.SearchClient, got "):
        agent_tools(client)


def test_settings_that_are_no_settings_are_a_type_error_beside_a_client_too():
    with ws.SearchClient("stub") as client:
        with pytest.raises(TypeError, match=r"^settings must be a websearch_sync.Settings, got dict \(a mapping: "):
            agent_tools(client, {"backend": "stub"})


def test_a_client_and_settings_give_the_tools():
    with ws.SearchClient("stub") as client:
        assert [tool.name for tool in agent_tools(client, ws.Settings(backend="stub"))] == ["web_search", "web_fetch"]
