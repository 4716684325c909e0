"""A search given an argument of the client says where it goes.

Before: ``ws.search(q, cache_path="cache.db")`` (a batch author wanting the cache to outlive the
call) said "did you mean 'cache_ttl_s'?", pointing away from the client that holds a cache file, and
``proxy=``, ``min_interval_s=`` or ``state_url=`` said nothing but the list of search options."""

import pytest

import websearch_sync as ws


@pytest.mark.parametrize(
    "name, where",
    [
        ("cache_path", "SearchClient(cache_path=...)"),
        ("cache_max_answers", "SearchClient(cache_max_answers=...)"),
        ("min_interval_s", "SearchClient(min_interval_s=...)"),
        ("cooldowns", "SearchClient(cooldowns=...)"),
        ("state_url", "SearchClient(state_url=...)"),
        ("proxy", "SearchClient(settings=Settings(proxy=...))"),
    ],
)
def test_an_argument_of_the_client_given_to_a_search_names_its_place(name, where):
    with ws.SearchClient("stub") as client:
        for search in (
            lambda **given: ws.search("rust", backend="stub", **given),
            lambda **given: client.search("rust", **given),
        ):
            with pytest.raises(TypeError) as info:
                search(**{name: 1})
            assert "got unexpected keyword argument(s) %s (it is given as %s);" % (name, where) in str(info.value)


def test_settings_is_the_clients_but_the_module_search_takes_it():
    with ws.SearchClient("stub") as client, pytest.raises(TypeError) as info:
        client.search("rust", settings=ws.Settings())
    assert "settings (it is given as SearchClient(settings=...))" in str(info.value)
    assert ws.search("rust", backend="stub", settings=ws.Settings())["items"]


@pytest.mark.parametrize(
    "name, said", [("timeout", "(did you mean 'timeout_ms'?)"), ("retires", "(did you mean 'retries'?)")]
)
def test_a_mistyped_keyword_of_the_call_is_still_named(name, said):
    with pytest.raises(TypeError) as info:
        ws.search("rust", backend="stub", **{name: 1})
    assert "%s %s;" % (name, said) in str(info.value)
