"""net/encode.py encodes a request exactly as ``requests.Request(...).prepare()`` does (the
exchange's ``wire_request`` no longer prepares a whole ``requests.Request`` per call): the
URL with its query, the body, the ``Content-Type`` it implies and Basic auth from the URL, for
every request the registered backends build and for the odd shapes a plugin may send."""

from urllib.parse import urlencode

import pytest
import requests
from backend_kit import dummy_config, network_backends
from hypothesis import given, settings
from hypothesis import strategies as st
from property_examples import examples

import websearch_sync as ws
from websearch_sync.engine import registry
from websearch_sync.models import SearchParams
from websearch_sync.net.encode import encoded
from websearch_sync.net.exchange import wire_request
from websearch_sync.net.transport import RequestSpec

SHAPES = [
    RequestSpec("GET", "https://api.example/s", params={"q": "rust async", "n": 5, "safe": None}),
    RequestSpec("GET", "https://api.example/s?fixed=1", params=[("q", "ü é"), ("tag", ["a", "b"]), ("z", "")]),
    RequestSpec("GET", "https://api.example/s?", params={"q": "x"}),
    RequestSpec("GET", "https://api.example/s#part", params={"q": "x"}),
    RequestSpec("GET", "https://api.example", params="q=raw&x=1"),
    RequestSpec("GET", "https://bücher.example/p a t h/?k=ä v", params={"q": "&=+/?"}),
    RequestSpec("GET", "https://user:p%40ss@search.example/s", params={"q": "x"}),
    RequestSpec("POST", "https://html.example/html/", data={"q": "rust", "b": "", "kl": "", "df": ""}),
    RequestSpec("POST", "https://html.example/html/", data={"q": "x"}, headers={"content-type": "text/plain"}),
    RequestSpec("POST", "https://api.example/j", json={"query": "rust", "n": [1, 2], "deep": {"ü": None}}),
    RequestSpec("POST", "https://api.example/j", data={}, json={"q": "json wins over empty data"}),
    RequestSpec("POST", "https://api.example/j", data={"q": "data wins"}, json={"q": "ignored"}),
    RequestSpec("POST", "https://api.example/raw", data="raw text body"),
    RequestSpec("POST", "https://api.example/raw", data=b"raw bytes body"),
    RequestSpec("GET", "http://127.0.0.1:8080", headers={"X-Key": "k", "Accept": "application/json"}),
    RequestSpec("GET", "https://user:pw@search.example/s", headers={"authorization": "Bearer t", "Accept": "*/*"}),
]


def prepared_by_requests(spec, user_agent):
    headers = {"User-Agent": user_agent, "Accept-Encoding": "gzip, deflate"} if user_agent else {}
    headers.update(spec.headers)
    prepared = requests.Request(
        spec.method, spec.url, params=spec.params, data=spec.data, json=spec.json, headers=headers
    ).prepare()
    sent = [(name, str(value)) for name, value in prepared.headers.items() if name.lower() != "content-length"]
    return prepared.method, prepared.url, sent, prepared.body


def prepared_here(spec, user_agent):
    request = wire_request(spec, user_agent, "p")
    return request.method, request.url, request.headers, request.body


@pytest.mark.parametrize("user_agent", [None, "websearch-sync-test/1"], ids=["browser", "library"])
@pytest.mark.parametrize("spec", SHAPES, ids=range(len(SHAPES)))
def test_a_request_is_encoded_as_requests_encodes_it(spec, user_agent):
    assert prepared_here(spec, user_agent) == prepared_by_requests(spec, user_agent)


@pytest.mark.parametrize("name", network_backends())
def test_every_backends_request_is_encoded_as_requests_encodes_it(name):
    cls = registry.backend_class(name)
    settings = ws.Settings(providers={name: dummy_config(cls, "https://%s.example/api" % name, "sk-0451")})
    for params in (SearchParams("rust async", 5), SearchParams("ü & é", 10, locale="de-DE", time_range="week")):
        try:
            spec = cls(settings).build_request(params)
        except ws.InvalidInput:
            continue  # an option this backend refuses
        assert prepared_here(spec, None) == prepared_by_requests(spec, None)


@pytest.mark.parametrize(
    "spec, detail",
    [
        (RequestSpec("GET", "no-scheme.example/s"), "bad_endpoint"),
        (RequestSpec("GET", "https://"), "bad_endpoint"),
        (RequestSpec("GET", "https://api.example/s", headers={"X-Key": " leading space"}), "bad_header"),
        (RequestSpec("GET", "https://api.example/s", headers={"X-Count": 5}), "bad_header"),
    ],
)
def test_what_requests_refuses_is_refused_with_the_same_code(spec, detail):
    with pytest.raises(ws.InvalidInput) as caught:
        wire_request(spec, None, "p")
    assert caught.value.detail_code == detail


@pytest.mark.parametrize("user_agent", [None, "websearch-sync-test/1"], ids=["browser", "library"])
def test_headers_checked_once_are_encoded_the_same_the_next_time(user_agent):
    """The second request with the same headers takes them from the memo of checked headers:
    still exactly what ``requests`` sends, Content-Type and Basic auth added per request."""
    for _ in range(2):
        for spec in SHAPES:
            assert prepared_here(spec, user_agent) == prepared_by_requests(spec, user_agent)


def test_a_refused_header_is_refused_again_and_a_checked_name_with_another_value_is_checked():
    good = RequestSpec("GET", "https://api.example/s", headers={"X-Key": "fine"})
    bad = RequestSpec("GET", "https://api.example/s", headers={"X-Key": "line\r\nbreak"})
    spaced = RequestSpec("GET", "https://api.example/s", headers={"X-Key": " leading space"})
    wire_request(good, None, "p")
    for spec, detail in ((bad, "bad_header"), (spaced, "bad_header"), (bad, "bad_header")):
        with pytest.raises(ws.InvalidInput) as caught:
            wire_request(spec, None, "p")
        assert caught.value.detail_code == detail
    assert wire_request(good, None, "p").headers == [("X-Key", "fine")]


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=6) | st.sampled_from(["", " ", "&=+/?%", "ü é"])


@settings(max_examples=examples(300, deep=1000), deadline=None)
@given(st.dictionaries(TEXT, TEXT | st.integers() | st.none() | st.lists(TEXT, max_size=2), max_size=4))
def test_a_form_of_text_is_encoded_as_urlencode_encodes_it(form):
    """A form whose names and values are all text is joined without urlencode (encode.encoded's
    first branch); any other goes through it: both equal urlencode's, as requests sends them."""
    expected = requests.Request("POST", "https://a.example/", data=form).prepare().body
    assert encoded(form) == (expected or "")
    text_only = {name: value for name, value in form.items() if isinstance(value, str)}
    assert encoded(text_only) == urlencode(list(text_only.items()), doseq=True)
