"""The refusal of a forbidden address reads as English: "an unspecified address" (it said "a
unspecified address" for ``0.0.0.0`` and ``::``); "a loopback address" is
tests/sockets/test_first_hour_frictions.py's."""

import pytest

import websearch_sync as ws


@pytest.mark.parametrize(
    "url, said",
    [
        ("http://0.0.0.0/", "refusing to fetch from 0.0.0.0, an unspecified address"),
        ("http://[::]/", "refusing to fetch from ::, an unspecified address"),
        ("http://0/", "refusing to fetch from 0: that is 0.0.0.0, an unspecified address"),
    ],
)
def test_the_refusal_names_the_kind_of_address_with_its_article(url, said):
    with pytest.raises(ws.InvalidInput) as caught:
        ws.fetch(url)
    assert (caught.value.detail_code, caught.value.message) == ("private_address", said)
