"""The decoding sink reads an answer's Content-Encoding and Location whatever the case of their
names, from a wire's plain mapping (walked) and from the requests wire's CaseInsensitiveDict
(asked at once): the same codings and redirect either way."""

import pytest
from requests.structures import CaseInsensitiveDict

from websearch_sync.net.decoding import DecodingSink


class _Sink:
    def head(self, status, headers, url, framed=False):
        return True


@pytest.mark.parametrize("mapping", [dict, CaseInsensitiveDict])
@pytest.mark.parametrize("encoding, location", [("Content-Encoding", "Location"), ("CONTENT-ENCODING", "location")])
def test_the_codings_and_redirect_are_read_from_either_mapping(mapping, encoding, location):
    sink = DecodingSink(_Sink(), "example.com", None)
    assert sink.head(302, mapping({encoding: "gzip, Deflate", location: "/next", "Server": "x"}), "http://example.com/")
    assert (sink.codings, sink.redirect) == (["gzip", "deflate"], True)
    plain = DecodingSink(_Sink(), "example.com", None)
    plain.head(200, mapping({"Server": "x"}), "http://example.com/")
    assert (plain.codings, plain.redirect) == ([], False)
