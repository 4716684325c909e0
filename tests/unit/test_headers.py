"""Header values that cannot go on the wire are refused before sending, by what is wrong with
them (:mod:`websearch_sync.net.headers`); everything HTTP/1.1 can carry passes, including the
values the check's printable-ASCII shortcut hands to the full check (tab, DEL, Latin-1 letters)."""

import pytest

from websearch_sync import InvalidInput
from websearch_sync.net.headers import check_headers


@pytest.mark.parametrize(
    "value",
    ["Mozilla/5.0 (X11; Linux x86_64)", "", "a\tb", "del\x7f", "caf\u00e9", "\u00ff\u00a0nbsp", " ~!@#$%^&*()"],
)
def test_a_value_http_can_carry_passes(value):
    check_headers({"X-Value": value, value: "as a name too"}, "brave")


@pytest.mark.parametrize(
    "value, problem",
    [
        ("line\rbreak", "a line break or NUL"),
        ("line\nbreak", "a line break or NUL"),
        ("nul\x00", "a line break or NUL"),
        ("caf\u00e9 \u20ac", "the character U+20AC at position 5, outside Latin-1"),
        ("\U0001f600", "the character U+1F600 at position 0, outside Latin-1"),
        ("\ud800", "the character U+D800 at position 0, outside Latin-1"),
    ],
)
def test_a_value_http_cannot_carry_is_refused_naming_the_header_and_the_problem(value, problem):
    with pytest.raises(InvalidInput) as info:
        check_headers({"Accept": "text/html", "X-Key": value}, "brave")
    assert info.value.detail_code == "bad_header" and info.value.provider == "brave"
    assert "the X-Key header cannot be sent: its value has " + problem in str(info.value)
    assert value not in str(info.value)  # the value itself may be a key


@pytest.mark.parametrize("value, kind", [(5, "int"), (1.5, "float"), (["a"], "list")])
def test_a_value_that_is_no_text_is_refused_naming_its_type(value, kind):
    """A plugin's ``headers={"X-Page-Size": 5}`` was "a request header cannot be sent (leading whitespace
    in a value, or characters outside Latin-1)": neither, and no header named."""
    with pytest.raises(InvalidInput) as info:
        check_headers({"Accept": "text/html", "X-Page-Size": value}, "brave")
    assert info.value.detail_code == "bad_header"
    assert "the X-Page-Size header cannot be sent: its value is of type %s, not text" % kind in str(info.value)


def test_bytes_and_none_pass_as_requests_reads_them():
    check_headers({"X-Raw": b"bytes", "X-Left-Out": None}, "brave")  # None: a session header's "leave it out"
