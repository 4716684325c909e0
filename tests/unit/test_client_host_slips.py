"""A ``SearchClient`` given a ``session``, ``wire`` or ``clock`` of the wrong kind says what each takes when
it is made. Before: ``session=5`` was ``TypeError: cannot create weak reference to 'int' object``,
``session="x"`` an ``AttributeError`` on ``'str'`` at the first search, ``clock=5`` an ``AttributeError``
(``no attribute 'monotonic'``) at the first search, and ``wire=5`` every search's
``WebProviderError(internal_error)`` blamed on its backend (``'int' object has no attribute
'bypasses_requests'``)."""

import pytest
import requests

import websearch_sync as ws
from websearch_sync.testing import MockResponse, MockWire


@pytest.mark.parametrize(
    "given, said",
    [
        ({"session": 5}, "session must be a requests.Session, got int"),
        ({"session": "x"}, "session must be a requests.Session, got str"),
        ({"wire": 5}, "wire must be a wire (an object with exchange(), such as websearch_sync.testing.MockWire)"),
        ({"clock": 5}, "clock must have monotonic(), time() and sleep(seconds) (as the system clock), got int"),
    ],
)
def test_a_part_of_the_wrong_kind_is_a_type_error_saying_what_it_takes(given, said):
    with pytest.raises(TypeError) as refused:
        ws.SearchClient("ddg_html", **given)
    assert str(refused.value).startswith(said), refused.value


class _OwnClock:
    """A clock of the caller's own, no subclass of the library's: taken, as the docs say."""

    def monotonic(self):
        return 0.0

    def time(self):
        return 0.0

    def sleep(self, seconds):
        pass


@pytest.mark.parametrize(
    "given",
    [
        {"session": requests.Session()},
        {"wire": MockWire(lambda request: MockResponse(200))},
        {"wire": lambda wire: wire},  # a function wrapping each wire the client builds
        {"clock": _OwnClock()},
    ],
)
def test_the_parts_the_docs_name_are_taken(given):
    with ws.SearchClient("stub", **given) as client:
        assert client.search("q", max_results=1)["items"]
