"""The host's slips with the tool adapter and the contract kit (not the model's): a backend's name
given as the client, a dict given as the settings, a string as assert_contract's max_results. Each is
a TypeError saying what it takes, as SearchClient(settings={...}) already was; before, an
AttributeError on 'str' or 'dict', or a comparison's TypeError, from deep inside."""

import re

import pytest

from websearch_sync import InvalidInput, SearchClient, tool
from websearch_sync.tool import ToolSession


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
    with pytest.raises(TypeError, match=r"^settings must be a websearch_sync.Settings, got (str$|dict \(a mapping: )"):
        tool.tool_definitions(settings=settings)


@pytest.mark.parametrize("strict", ["false", "yes", 1, None])
def test_tool_definitions_take_strict_as_a_bool(strict):
    """Before: ``strict="false"`` (a value read from a config file) gave strict schemas without a word:
    any text is true."""
    with pytest.raises(TypeError, match=r"^strict must be True or False, got %s$" % re.escape(repr(strict))):
        tool.tool_definitions(strict=strict)


@pytest.mark.parametrize(
    "name, arguments", [("web_search", {"query": "x"}), ("web_fetch", {"url": "https://a.example/"})]
)
@pytest.mark.parametrize("images", ["yes", "no", 1, None])
def test_call_tool_refuses_images_that_is_no_bool_for_either_tool(name, arguments, images):
    """Before: a search ignored ``images="yes"`` while a fetch refused it: the host's slip was said only once
    the model fetched. docs/agent-tools.md: an ``images`` that is no bool is ``bad_images``, returned as the error,
    in the words of every other flag's refusal (JSON's ``true or false``, as fetch's own ``images`` says; it said
    ``True or False``)."""
    result = tool.call_tool(name, arguments, client=SearchClient("stub"), images=images)
    assert result == {
        "error": {
            "type": "InvalidInput",
            "message": "images must be true or false, got %r" % (images,),
            "retryable": False,
            "detail_code": "bad_images",
            "provider": None,
        }
    }
    with pytest.raises(InvalidInput) as refused:  # a session's host: the same words
        ToolSession(SearchClient("stub"), images=images)
    assert refused.value.message == result["error"]["message"]


@pytest.mark.parametrize(
    ("keywords", "said"),
    [
        ({"max_results": "5"}, "max_results must be a whole number >= 0 (the most items allowed), got '5'"),
        ({"max_results": 5.0}, "max_results must be a whole number >= 0 (the most items allowed), got 5.0"),
        ({"provider": ["stub"]}, "provider must be a backend's name, a str, got ['stub']"),
    ],
)
def test_assert_contract_given_arguments_of_the_wrong_type_says_which(keywords, said):
    """A test's slip with the contract kit's assertion: max_results="5" was "'>' not supported between
    instances of 'int' and 'str'" from inside the check."""
    from websearch_sync.testing import assert_contract

    result = {"items": [], "provider_meta": {"provider_name": "stub"}}
    with pytest.raises(TypeError) as info:
        assert_contract(result, **keywords)
    assert str(info.value) == said
    assert_contract(result, max_results=5, provider="stub")  # the same result, asked rightly, holds


@pytest.mark.parametrize("name", ["untrusted_notice", "offline_note"])
@pytest.mark.parametrize("flag", ["false", "no", 0, None])
def test_format_results_takes_its_flags_as_bools(name, flag):
    """Before: ``untrusted_notice="false"`` or ``offline_note="no"`` (a value read from a config file) kept
    the block or the note without a word, any text being true, and ``0`` turned it off."""
    result = tool.call_tool("web_search", {"query": "x"}, client=SearchClient("stub"))
    with pytest.raises(TypeError) as info:
        tool.format_results(result, **{name: flag})
    assert str(info.value) == "format_results: %s must be True or False, got %r" % (name, flag)


def test_an_error_line_keeps_the_mark_of_a_value_cut_short():
    """A refused number of 41 digits is quoted cut, ``got 10000000000000000000...``; the error line dropped
    the dots with the message's full stop, telling the model (over MCP too) it had sent 10**19."""
    result = tool.call_tool("web_search", {"query": "x", "max_results": 10**40}, client=SearchClient("stub"))
    line = tool.format_results(result)
    assert line == (
        "Error: InvalidInput (bad_arguments): argument 'max_results' must be in 1..10, got 10000000000000000000..."
        " Correct the arguments and call again."
    )
    other = {"error": {**result["error"], "message": "x must be 1..10, got 11."}}
    assert tool.format_results(other).startswith(
        "Error: InvalidInput (bad_arguments): x must be 1..10, got 11. Correct"
    )


@pytest.mark.parametrize(
    "make, called",
    [
        (lambda **given: tool.call_tool("web_search", {"query": "x"}, **given), "call_tool()"),
        (lambda **given: tool.ToolSession(**given), "ToolSession()"),
    ],
)
@pytest.mark.parametrize(
    "given, said",
    [
        ({"backend": "brave"}, "backend (it is given as client=SearchClient(backend=...))"),
        ({"timeout_ms": 5000}, "timeout_ms (it is given as client=SearchClient(settings=Settings(timeout_ms=...)))"),
        ({"clinet": None}, "clinet (did you mean 'client'?)"),
    ],
)
def test_a_keyword_the_tools_do_not_take_says_where_it_goes(make, called, given, said):
    """``call_tool(..., backend="brave")`` was Python's bare ``call_tool() got an unexpected keyword argument
    'backend'``, where ``search()``, ``fetch()`` and ``SearchClient()`` name what was meant: the tools choose
    their backend and settings by their client."""
    with pytest.raises(TypeError) as info:
        make(**given)
    assert str(info.value).startswith("%s got unexpected keyword argument(s) %s; known arguments: " % (called, said))


@pytest.mark.parametrize("framework", ["langchain", "llama_index", "openai_agents", "pydantic_ai", "smolagents"])
def test_an_integrations_tools_say_where_a_backend_goes(framework):
    """``langchain.tools(backend="brave")`` was Python's bare TypeError too: each framework's ``tools()``
    takes the backend by its client, and says so."""
    import importlib

    try:
        module = importlib.import_module("websearch_sync.integrations." + framework)
    except ImportError:  # the framework is not installed here (Python 3.10: langchain, pydantic-ai)
        pytest.skip("%s is not installed" % framework)
    with pytest.raises(TypeError) as info:
        module.tools(backend="brave")
    assert str(info.value).startswith(
        "tools() got unexpected keyword argument(s) backend (it is given as client=SearchClient(backend=...));"
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda: SearchClient("stub", settings={"timeout_ms": 5000}),
        lambda: tool.tool_definitions(settings={"timeout_ms": 5000}),
    ],
)
def test_settings_given_as_a_mapping_say_how_to_make_them(make):
    """``settings={"timeout_ms": 5000}`` (another library's way) said only ``got dict``: the keys go to
    ``Settings``, and the message shows them so."""
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value) == (
        "settings must be a websearch_sync.Settings, got dict (a mapping: give its keys to Settings,"
        " Settings(timeout_ms=...), or Settings.from_env(...) over the environment)"
    )
