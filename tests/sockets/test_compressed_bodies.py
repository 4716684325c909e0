"""A compressed body that stops before its end is a body cut short, on both wires (the review's
item: a gzip stream cut inside a correct ``Content-Length`` came back as a silently shorter page,
because neither urllib3's decoders nor libcurl's say when a stream did not reach its end).

Each wire hands the body as it came to ``net.decoding``, which checks every stream's end:
``NetworkError(incomplete_body)``, retryable, as a body shorter than its ``Content-Length`` is.
What is not an error stays none: a complete stream, gzip members one after another, bytes
after a gzip member (urllib3 and browsers skip them), raw deflate, a body the byte cap cut, and
a redirect's body (never read by a browser).
"""

import functools
import gzip
import json
import zlib

import pytest
from faults import raw, respond
from servers import FaultServer
from transports import BOTH

import websearch_sync as ws
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport, RequestSpec
from websearch_sync.once import Once

PAGE = (
    b"<html><head><title>A compressed page</title></head><body><article><h1>A compressed page</h1><p>"
    + b"Every sentence of this article is here to give the page some length to compress. " * 60
    + b"</p></article></body></html>"
)


def _raw_deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush()


def _brotli(data: bytes) -> bytes:
    return pytest.importorskip("brotli").compress(data)


def _zstd(data: bytes) -> bytes:
    return pytest.importorskip("zstandard").ZstdCompressor().compress(data)


#: Content-Encoding -> how a server compresses a body in it.
CODINGS = {
    "gzip": gzip.compress,
    "deflate": zlib.compress,
    "deflate-raw": _raw_deflate,
    "br": _brotli,
    "zstd": _zstd,
}

#: The deadline of these calls, none of which is about it: 30 s. A process's first fetch builds its
#: wire and extractor: 4.6-6.6 s in a fresh interpreter at a load of 6-7, over the 5 s they had.
NOT_THE_SUBJECT_MS = 30_000


def send(url, impersonate, max_bytes=1 << 20, truncate=False):
    transport = HttpTransport(impersonate=impersonate)
    try:
        return transport.send(
            RequestSpec("GET", url, browser=True),
            deadline=Deadline(NOT_THE_SUBJECT_MS),
            provider="t",
            max_bytes=max_bytes,
            truncate=truncate,
        )
    finally:
        transport.close()


def served(coding, body):
    return respond(200, body, {"Content-Encoding": coding.split("-")[0]})


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("coding", sorted(CODINGS))
def test_a_whole_stream_is_the_page(impersonate, coding):
    with FaultServer({"/p": served(coding, CODINGS[coding](PAGE))}) as server:
        response = send(server.url("/p"), impersonate)
    assert (response.status, response.content, response.truncated) == (200, PAGE, False)


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("coding", sorted(CODINGS))
@pytest.mark.parametrize("kept", [0.5, -8], ids=["half", "all-but-8-bytes"])
def test_a_stream_cut_inside_a_correct_length_is_a_body_cut_short(impersonate, coding, kept):
    body = CODINGS[coding](PAGE)
    cut = body[: int(len(body) * kept)] if isinstance(kept, float) else body[:kept]
    with FaultServer({"/p": served(coding, cut)}) as server:  # Content-Length: the cut body's length
        with pytest.raises(ws.NetworkError) as info:
            send(server.url("/p"), impersonate)
    assert info.value.detail_code == "incomplete_body"
    assert info.value.retryable is True
    assert "compressed stream stops before its end" in info.value.message


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("framing", ["chunked", "until-close"])
def test_a_cut_stream_in_a_whole_chunked_or_unsized_body_is_cut_short_too(impersonate, framing):
    cut = gzip.compress(PAGE)[:-8]
    if framing == "chunked":
        framed = b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(cut), cut)
    else:
        framed = b"\r\n" + cut
    answer = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nConnection: close\r\n" + framed
    with FaultServer({"/p": raw(answer)}) as server:
        with pytest.raises(ws.NetworkError) as info:
            send(server.url("/p"), impersonate)
    assert info.value.detail_code == "incomplete_body"


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "body, content",
    [
        (gzip.compress(PAGE[:500]) + gzip.compress(PAGE[500:]), PAGE),  # two members
        (gzip.compress(PAGE) + b"\x00" * 16, PAGE),  # padding after the member
        (gzip.compress(PAGE) + b"trailing bytes that are no gzip", PAGE),
    ],
    ids=["two-members", "zero-padding", "trailing-garbage"],
)
def test_what_follows_a_whole_gzip_member_is_no_error(impersonate, body, content):
    with FaultServer({"/p": served("gzip", body)}) as server:
        response = send(server.url("/p"), impersonate)
    assert response.content == content


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_body_the_byte_cap_cut_is_truncated_not_broken(impersonate):
    with FaultServer({"/p": served("gzip", gzip.compress(PAGE))}) as server:
        response = send(server.url("/p"), impersonate, max_bytes=1000, truncate=True)
    assert response.truncated is True and response.content == PAGE[:1000]


@pytest.mark.parametrize("impersonate", BOTH)
def test_fetch_reports_a_cut_stream_and_follows_a_redirect_whose_body_is_cut(impersonate, fake_clock):
    cut = gzip.compress(PAGE)[:-8]
    routes = {
        "/cut": served("gzip", cut),
        "/moved": respond(302, cut, {"Location": "/whole", "Content-Encoding": "gzip"}),
        "/whole": served("gzip", gzip.compress(PAGE)),
    }
    settings = ws.Settings(impersonate=impersonate)
    with FaultServer(routes) as server:
        with pytest.raises(ws.NetworkError) as info:
            ws.fetch(server.url("/cut"), allow_private=True, timeout_ms=NOT_THE_SUBJECT_MS, settings=settings)
        page = ws.fetch(server.url("/moved"), allow_private=True, timeout_ms=NOT_THE_SUBJECT_MS, settings=settings)
    assert info.value.detail_code == "incomplete_body"
    assert page["final_url"].endswith("/whole") and "some length to compress" in page["text"]


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_search_answer_cut_inside_its_stream_fails_like_a_short_body(impersonate, testjson):
    results = json.dumps({"results": [{"title": "A", "url": "https://a.example/", "snippet": "s" * 2000}]}).encode()
    answer = respond(200, gzip.compress(results)[:-8], {"Content-Encoding": "gzip"}, content_type="application/json")
    with FaultServer({"/s": answer}) as server:
        settings = ws.Settings(endpoints={"testjson": server.url("/s")}, impersonate=impersonate)
        with pytest.raises(ws.NetworkError) as info:
            ws.search("q", backend="testjson", settings=settings, retries=0, timeout_ms=NOT_THE_SUBJECT_MS)
    assert info.value.detail_code == "incomplete_body"


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("coding", ["gzip", "deflate", "br", "zstd", "gzip, zstd"])
def test_bytes_not_in_their_coding_do_not_decompress(impersonate, coding):
    for name in coding.split(", "):
        pytest.importorskip({"br": "brotli", "zstd": "zstandard"}.get(name, "zlib"))
    with FaultServer({"/p": respond(200, b"plain text, not compressed " * 10, {"Content-Encoding": coding})}) as server:
        with pytest.raises(ws.NetworkError) as info:
            send(server.url("/p"), impersonate)
    assert info.value.detail_code == "bad_content_encoding"
    assert "(Content-Encoding: %s)" % coding in info.value.message


def test_without_brotli_and_zstandard_the_browser_wire_leaves_decoding_to_libcurl(monkeypatch, caplog):
    # curl_cffi installed without the browser extra's decoders: Chrome's profile still asks for
    # br and zstd, so libcurl decodes them (a page in them is read, not refused as undecodable)
    from websearch_sync.net import decoding, mocks

    monkeypatch.delitem(decoding._CODINGS, "br")
    monkeypatch.setattr(mocks, "_SAID", Once())
    caplog.set_level("INFO", logger="websearch_sync")
    with FaultServer({"/p": served("br", CODINGS["br"](PAGE))}) as server:
        response = send(server.url("/p"), "chrome")
    assert (response.status, response.content, response.truncated) == (200, PAGE, False)
    assert "libcurl decodes bodies" in caplog.text


@functools.cache
def _stacked(layers, level=1):
    """``PAGE`` in ``layers`` gzip codings one inside the other (``level`` 0: stored blocks, which
    build 2000 layers in a tenth of the time deflating already-compressed bytes takes)."""
    body = PAGE
    for _ in range(layers):
        body = gzip.compress(body, level)
    return respond(200, body, {"Content-Encoding": ", ".join(["gzip"] * layers)})


@pytest.mark.parametrize("impersonate", BOTH)
def test_codings_one_inside_the_other_are_decoded_up_to_five(impersonate):
    with FaultServer({"/p": _stacked(5)}) as server:
        assert send(server.url("/p"), impersonate).content == PAGE


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_longer_chain_of_codings_is_refused_not_a_recursion_error(impersonate, fake_clock):
    """2000 stacked gzip (a 48 KB body) raised RecursionError out of fetch: one generator per coding."""
    with FaultServer({"/p": _stacked(2000, level=0)}) as server:
        with pytest.raises(ws.NetworkError) as info:
            ws.fetch(
                server.url("/p"),
                allow_private=True,
                timeout_ms=NOT_THE_SUBJECT_MS,
                settings=ws.Settings(impersonate=impersonate),
            )
    assert info.value.detail_code == "bad_content_encoding"
    assert "2000 codings one inside the other" in info.value.message
