"""The host's slips with the tool adapter (not the model's): a backend's name given as the client, a dict
given as the settings. Each is a TypeError saying what it takes, as SearchClient(settings={...}) already
was; before, an AttributeError on 'str' or 'dict' from deep inside."""

import pytest

from websearch_sync import tool


@pytest.mark.parametrize(
    "make",
    [
        lambda: tool.call_tool("web_search", {"query": "x"}, client="stub"),
        lambda: tool.ToolSession("stub"),
        lambda: tool.ToolSession(client="stub"),
    ],
)
def test_a_backend_name_given_as_the_client_is_a_type_error_naming_what_it_takes(make):
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value) == (
        "client must be a websearch_sync.SearchClient, got str (to choose a backend: client=SearchClient('stub'))"
    )


def test_a_session_of_another_object_as_client_says_its_type():
    with pytest.raises(TypeError, match=r"^client must be a websearch_sync.SearchClient, got dict$"):
        tool.ToolSession({"backend": "stub"})


@pytest.mark.parametrize("settings", ["stub", {"backend": "stub"}])
def test_tool_definitions_take_settings_as_search_client_does(settings):
    with pytest.raises(TypeError, match=r"^settings must be a websearch_sync.Settings, got (str|dict)$"):
        tool.tool_definitions(settings=settings)
