"""A plugin author's first draft of a JSON engine (issue 34, the plugin author's first hour):
its slips fail at the line that made them, saying what to write, never as the vendor's fault.

- ``headers=self.bearer()`` (one ``(name, value)`` pair) was "dictionary update sequence element
  #0 has length 13" from inside the transport;
- ``result_list(data, "hits")`` read the key letter by letter: ``WebParseError`` "demo answered
  without 'h' in its JSON", as if the vendor had changed its answer."""

import pytest

from websearch_sync import Settings
from websearch_sync.backends import JsonApiEngine, RequestSpec, dig
from websearch_sync.errors import WebParseError


def test_headers_that_are_not_a_dict_are_refused_when_the_request_is_built():
    with pytest.raises(TypeError, match=r"RequestSpec.headers must be a dict .* got a tuple .*json_headers"):
        RequestSpec("GET", "https://api.example/s", headers=("Authorization", "Bearer k"))  # type: ignore[arg-type]


def test_a_url_that_is_not_a_str_is_refused_naming_it():
    with pytest.raises(TypeError, match=r"RequestSpec.url must be a str, got NoneType"):
        RequestSpec("GET", None)  # type: ignore[arg-type]


class Demo(JsonApiEngine):
    name = "demo_first_draft"
    default_endpoint = "https://api.demo.example/s"


DATA = {"hits": [{"url": "https://a.example/"}], "web": {"results": []}}


@pytest.mark.parametrize(
    ("path", "found"), [("hits", DATA["hits"]), (("web", "results"), []), (["hits"], DATA["hits"])]
)
def test_a_json_path_is_one_key_or_a_sequence_of_keys(path, found):
    assert Demo(Settings()).result_list(DATA, path) == found
    assert dig(DATA, path, "demo") == found


def test_a_missing_key_given_as_a_str_is_named_whole():
    with pytest.raises(WebParseError, match="without 'results' in its JSON"):
        dig(DATA, "results", "demo")
