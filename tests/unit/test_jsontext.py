"""``net.jsontext``: the nesting of upstream JSON measured without parsing it (brackets inside
strings and escapes not counted), and refused over the limit before the recursive parser runs."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_examples import examples

from websearch_sync.engine.media_fields import json_object
from websearch_sync.net.jsontext import MAX_JSON_DEPTH, JsonTooDeep, loads, nesting_depth

#: Text full of what could be taken for structure: brackets, quotes, backslashes, escapes.
TRICKY_TEXT = st.text(alphabet='[]{}"\\/u0a\u2028\ud83d\U0001f600', max_size=12)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TRICKY_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY_TEXT, inner, max_size=3),
    max_leaves=30,
)


def depth(value):
    """The nesting of a parsed value, by walking it (small values only: recursive)."""
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


@settings(max_examples=examples(100, deep=300), deadline=None)
@given(value=VALUES, ascii_only=st.booleans(), indent=st.sampled_from([None, 1]))
def test_the_depth_measured_is_the_parsed_values(value, ascii_only, indent):
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    assert nesting_depth(text) == depth(value)


def test_the_limit_is_read_and_one_more_level_is_refused():
    assert depth(loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)) == MAX_JSON_DEPTH
    with pytest.raises(JsonTooDeep, match="^JSON nested over 256 levels deep$"):
        loads("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    with pytest.raises(JsonTooDeep):  # cut short: its start already nests too deeply
        loads('{"a": ' * 100_000)


def test_the_limit_is_read_when_more_brackets_open_beside_it():
    """Over :data:`MAX_JSON_DEPTH` brackets in all, nested no deeper than the limit: measured, and read
    (the exact-limit case above has no more openers than levels, so the measure never runs)."""
    at_the_limit = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert depth(loads("[[], " + at_the_limit[1:-1] + "]")) == MAX_JSON_DEPTH


def test_a_string_cut_short_counts_none_of_its_brackets():
    assert nesting_depth('["' + "[" * 1000) == 1
    assert loads('["' + "[" * 1000 + '"]') == ["[" * 1000]


def test_a_tiles_json_attribute_nested_too_deeply_is_no_object_not_a_recursion_error():
    """An image engine's tile metadata (Bing's ``m``): ``RecursionError`` escaped the parser."""
    assert json_object('{"murl": ' + "[" * 100_000) == {}
    assert json_object('{"murl": "https://a.example/x.png"}') == {"murl": "https://a.example/x.png"}


def test_an_integer_of_more_digits_than_python_reads_is_a_number_of_no_value_not_unreadable_json():
    """``int`` refuses over 4,300 digits (``ValueError``), so an answer holding one anywhere, even in a
    field nobody reads, was "JSON that does not parse (cut short or malformed)". It is read as the
    float it approximates (infinity), which a reader takes as no value, as ``Infinity``; asked for
    exact integers (fetch, which shows a page's JSON as written), Python's refusal stands."""
    from requests.structures import CaseInsensitiveDict

    from websearch_sync.net.response import HttpResponse

    def answer(text):
        headers = CaseInsensitiveDict({"Content-Type": "application/json"})
        return HttpResponse(status=200, headers=headers, content=text.encode(), url="https://api.example/s")

    response = answer('{"n": %s, "m": -%s, "k": 7}' % ("9" * 5000, "1" * 4301))
    value = response.json()
    assert value["n"] == float("inf") and value["m"] == float("-inf") and value["k"] == 7
    with pytest.raises(ValueError, match="4300 digits"):
        response.json(exact_integers=True)
    with pytest.raises(json.JSONDecodeError):  # what is not JSON still is not
        answer('{"n": %s,' % ("9" * 5000)).json()
