"""Unit tests open no connection at all, not even to 127.0.0.1: HTTP is replayed with
``responses``. A test that needs a real local server belongs in ``tests/sockets/``."""

import warnings

import pytest

# The library is imported by the fixtures, not by this module: an xdist controller run on
# ``tests/unit`` imports this module and runs no test.


@pytest.fixture(autouse=True)
def _unit_world():
    """Every unit test in :data:`~unit_world.UNIT_WORLD`: no connection, the requests transport."""
    from unit_world import UNIT_WORLD, attributes_set

    with attributes_set(UNIT_WORLD):
        yield


@pytest.fixture
def unwarned(monkeypatch):
    """The offline stub's once-per-process warning not given yet in this process (its state reset),
    and every warning recorded: the list the fixture gives."""
    from websearch_sync.backends import stub
    from websearch_sync.once import Once

    monkeypatch.setattr(stub, "_WARNED", Once())
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        yield seen
