"""A test's slips with ``MockWire`` and ``MockResponse`` (docs/contract.md): a handler that is no function, a
handler returning no ``MockResponse``, a ``MockResponse`` field of the wrong type. Each is a ``TypeError``
saying what it takes; before, the search failed with "internal error in backend brave: TypeError: 'NoneType'
object is not callable" or "AttributeError: 'NoneType' object has no attribute 'body'", naming neither."""

import pytest

import websearch_sync as ws
from websearch_sync.testing import MockResponse, MockWire

SETTINGS = ws.Settings(providers={"brave": {"api_key": "k"}})


@pytest.mark.parametrize("handler", [None, 5, "https://api.search.brave.com/"])
def test_a_handler_that_is_no_function_is_refused_when_the_wire_is_made(handler):
    with pytest.raises(TypeError) as caught:
        MockWire(handler)
    assert str(caught.value) == (
        "MockWire takes a handler, a function of the request returning a MockResponse, got %s" % type(handler).__name__
    )


@pytest.mark.parametrize("answer", [None, '{"web": {"results": []}}', (200, {}, "")])
def test_a_handler_returning_no_mock_response_is_said_so(answer):
    with ws.SearchClient("brave", settings=SETTINGS, wire=MockWire(lambda request: answer), retries=0) as client:
        with pytest.raises(ws.WebProviderError) as caught:
            client.search("q")
    assert caught.value.message == (
        "internal error in backend brave: TypeError: MockWire's handler returned %s for GET api.search.brave.com:"
        " it returns a MockResponse (or raises a WebSearchError)" % type(answer).__name__
    )


@pytest.mark.parametrize(
    "fields, said",
    [
        ({"status": "200"}, "MockResponse.status must be an int (200), got str"),
        ({"status": True}, "MockResponse.status must be an int (200), got bool"),
        ({"headers": None}, "MockResponse.headers must be a mapping of header names to values, got NoneType"),
        ({"body": None}, "MockResponse.body must be bytes or str, got NoneType"),
        ({"body": {"web": {}}}, "MockResponse.body must be bytes or str, got dict"),
        ({"url": 5}, "MockResponse.url must be a URL (str) or None, got int"),
    ],
)
def test_a_mock_response_field_of_another_type_is_refused_naming_it(fields, said):
    with pytest.raises(TypeError) as caught:
        MockResponse(**fields)
    assert str(caught.value) == said


def test_a_mock_response_of_the_documented_shape_is_taken(fake_clock):
    """On the fake clock: the answer's one result makes the search ask Brave's next page at its pace
    (a second of real time, not this test's subject)."""
    body = '{"type": "search", "web": {"results": [{"title": "Tokio", "url": "https://tokio.rs/"}]}}'
    answer = MockResponse(200, {"Content-Type": "application/json"}, body)
    with ws.SearchClient("brave", settings=SETTINGS, wire=MockWire(lambda request: answer)) as client:
        assert client.search("q")["items"][0]["url"] == "https://tokio.rs/"


@pytest.mark.parametrize("answers, given", [({}, "none"), ({"brave": []}, "brave")])
def test_fake_results_without_an_answer_for_the_backend_names_those_given(answers, given):
    """``fake_results({})`` said "(answers given for: )", an empty list that read as a cut message."""
    from websearch_sync.testing import fake_results

    with fake_results(answers), pytest.raises(ws.WebProviderError) as caught:
        ws.search("q", backend="ddg_html")
    assert caught.value.message == "fake_results has no answer for backend ddg_html (answers given for: %s)" % given
