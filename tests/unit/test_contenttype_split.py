"""``contenttype._split_outside_quotes``: a value without a ``"`` is split by ``str.split`` instead
of the quote-aware loop (every ``Content-Type`` a search reads). It must split every value as the
loop does, with quotes and backslashes anywhere."""

import itertools

import pytest

from websearch_sync.net.contenttype import _split_outside_quotes, charset_label, media_type


def _loop(value: str, separator: str) -> list[str]:
    """The quote-aware loop alone (what the function did for every value before its shortcut)."""
    pieces, start, quoted, escaped = [], 0, False, False
    for index, char in enumerate(value):
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == separator and not quoted:
            pieces.append(value[start:index])
            start = index + 1
    pieces.append(value[start:])
    return pieces


#: Every value of up to 5 of these characters: separators, quotes, backslashes, text, blanks.
VALUES = ["".join(chars) for size in range(6) for chars in itertools.product('a;,"\\ ', repeat=size)]


@pytest.mark.parametrize("separator", [";", ","])
def test_every_short_value_splits_as_the_loop_splits_it(separator: str) -> None:
    assert len(VALUES) == 9331
    for value in VALUES:
        assert _split_outside_quotes(value, separator) == _loop(value, separator), value


@pytest.mark.parametrize(
    ("header", "media", "charset"),
    [
        ("text/html; charset=utf-8", "text/html", "utf-8"),
        ("text/html;charset=UTF-8;q=1", "text/html", "UTF-8"),
        ('text/html; charset="a;b"', "text/html", "a;b"),
        ('text/html; charset="x, application/json"', "text/html", "x, application/json"),
        ("text/html; charset=gbk, text/html", "text/html", "gbk"),
        ("text/html; charset=gbk, application/json", "application/json", None),
        ("text/html; charset=a\\;b", "text/html", "a\\"),
    ],
)
def test_headers_read_as_before(header: str, media: str, charset: str) -> None:
    assert media_type(header) == media
    assert charset_label(header) == charset
