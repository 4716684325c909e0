"""A cache hit's notes brought up to date by the backends that revise them
(``Backend.revise_cached``): only those are built, and their hook is reported like any other."""

import pytest

import websearch_sync as ws
from websearch_sync.backends.stub import Stub
from websearch_sync.engine.registry import register
from websearch_sync.models import ParseResult


class _Noted(Stub):
    """The stub, its answer carrying a note; counts the objects built of it."""

    name = "noted_stub"
    built = 0

    def __init__(self, settings):
        type(self).built += 1
        super().__init__(settings)

    def search(self, params, transport, deadline):
        note = ws.WebProviderError("a note on the answer", provider=self.name, detail_code="time_range_unverified")
        return ParseResult(items=self.items(params.full_query), errors=[note.to_dict()])


def _hit(backend):
    """The second of two identical searches of ``backend``: a cache hit of an answer with a note."""
    with ws.SearchClient(backend=backend, cache_ttl_s=60) as client:
        client.search("q")
        return client.search("q")


def test_a_cache_hit_builds_no_backend_that_does_not_revise_its_notes():
    """Before: a hit carrying a note built every backend of the call to ask it (and a constructor
    that raises failed the hit); only a backend class that overrides ``revise_cached`` is built."""
    register(_Noted)
    with ws.SearchClient(backend="noted_stub", cache_ttl_s=60) as client:
        first = client.search("q")
        _Noted.built = 0
        hit = client.search("q")
    assert _Noted.built == 0
    assert hit["provider_meta"]["cached"] is True and hit["errors"] == first["errors"]


def _raising(self, params, errors):
    raise KeyError("a defect")


def _not_a_list(self, params, errors):
    return {"errors": errors}


def _wrong_items(self, params, errors):
    return ["a note"]


@pytest.mark.parametrize(
    "revise, detail_code, says",
    [
        (_raising, "internal_error", "internal error in backend noted_stub: KeyError"),
        (_not_a_list, "bad_parse_result", "a dict, not a list"),
        (_wrong_items, "bad_parse_result", "error 1 is a str"),
    ],
)
def test_a_revise_cached_that_fails_is_reported_as_the_backends_defect(revise, detail_code, says):
    """Before: a ``revise_cached`` that raised escaped the cache hit as a stray exception, and one
    that returned something else than notes was served (or failed later); like every hook of a
    backend, it is its defect: ``WebProviderError`` naming it."""

    class Revising(_Noted):
        revise_cached = revise

    register(Revising)
    with pytest.raises(ws.WebProviderError) as caught:
        _hit("noted_stub")
    assert caught.value.detail_code == detail_code and caught.value.provider == "noted_stub"
    assert says in caught.value.message
