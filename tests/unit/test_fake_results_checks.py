"""``fake_results`` checks a call as a real search checks it before any request: a query longer
than the backend's ``max_query_chars`` is ``InvalidInput(query_too_long)`` under the fake as it is
from a real client (a 500-character ``ddg_html`` query was answered under the fake); the backend's
key is still not needed (a fake has no service to authenticate to)."""

import pytest

import websearch_sync as ws
from websearch_sync.engine import registry
from websearch_sync.testing import fake_results

ITEM = {"title": "T", "url": "https://t.example/", "snippet": "s"}


def _refusal(query: str, backend: str) -> ws.InvalidInput:
    """What ``search`` raises for ``query`` on ``backend``."""
    with pytest.raises(ws.InvalidInput) as caught:
        ws.search(query, backend=backend, settings=ws.Settings())
    return caught.value


@pytest.mark.parametrize("backend", ["ddg_html", "brave"])
def test_a_query_the_backend_refuses_is_refused_under_the_fake_too(backend):
    too_long = "q" * registry.backend_class(backend).max_query_chars
    with ws.SearchClient(backend, settings=ws.Settings(providers={"brave": {"api_key": "k"}})) as client:
        with pytest.raises(ws.InvalidInput) as real:
            client.search(too_long)  # refused before any request: no network reached
    with fake_results([ITEM]) as fake:
        faked = _refusal(too_long, backend)
        answered = ws.search(too_long[:-1], backend=backend, settings=ws.Settings())  # no key: none needed
    assert faked.detail_code == real.value.detail_code == "query_too_long"
    assert faked.message == real.value.message
    assert [call.query for call in fake.calls] == [too_long[:-1]] and answered["items"][0]["url"] == ITEM["url"]


def test_the_mapping_form_checks_the_query_as_well():
    too_long = "q" * registry.backend_class("ddg_html").max_query_chars
    with fake_results({"ddg_html": [ITEM]}) as fake:
        assert _refusal(too_long, "ddg_html").detail_code == "query_too_long"
    assert fake.calls == []


def test_the_swapped_engines_are_usable_declarations_and_the_originals_come_back():
    """The kit registers its swapped engines and puts the originals back without the registry's
    declaration check (``registry.register_checked``: the check cost 30 ms a block): each swapped
    engine must pass it as ``register`` would check it, and each original is the class it was."""
    engines = [(name, vertical) for name in registry.backend_names() for vertical in registry.verticals_of(name)]
    before = {engine: registry.backend_class(*engine) for engine in engines}
    with fake_results({"ddg_html": [ITEM]}):
        swapped = {engine: registry.backend_class(*engine) for engine in engines}
    changed = [engine for engine in engines if swapped[engine] is not before[engine]]
    assert len(changed) > 10 and ("ddg_html", "web") in changed
    assert {engine: registry.declaration_problem(swapped[engine]) for engine in changed} == dict.fromkeys(changed)
    assert {engine: registry.backend_class(*engine) for engine in engines} == before
