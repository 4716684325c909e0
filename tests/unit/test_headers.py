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


class _Text(str):
    pass


HEADER_SETS = [
    {},
    {"Accept": "text/html", "User-Agent": "x/1.0"},
    {"Accept": "text/html", "X-Key": "caf\u00e9"},
    {"Accept": "text/html", "X-Key": "a\r\nInjected: 1"},
    {"Accept": "text/html", "X-Key": "tab\there"},
    {"Accept": "text/html", "X-Key": b"bytes"},
    {"Accept": "text/html", "X-Key": None},
    {"Accept": "text/html", "X-Key": 3},
    {"Accept": "text/html", b"X-Name": "bytes name"},
    {"Accept": _Text("text/html")},
    {"Accept": "text/html", "X-Key": "\u2028"},
]


def _outcome(headers):
    try:
        check_headers(headers, "brave")
    except InvalidInput as error:
        return str(error)
    return None


@pytest.mark.parametrize("headers", HEADER_SETS)
def test_the_quick_header_check_judges_as_the_per_header_one(headers, monkeypatch):
    """``_plain`` passes at once only what the per-header loop passes: the same outcome without it."""
    from websearch_sync.net import headers as module

    quick = _outcome(headers)
    monkeypatch.setattr(module, "_plain", lambda headers: False)
    assert quick == _outcome(headers)


def test_the_quick_header_check_passes_printable_ascii_text_only():
    from websearch_sync.net import headers as module

    assert module._plain(HEADER_SETS[1]) and not any(module._plain(other) for other in HEADER_SETS[2:])
