"""The browser wire's status line (``wire_curl._Exchange``): the connection's HTTP version decides how
a line is read (libcurl's ``HTTP/2 200`` on HTTP/2; an HTTP/1 line held to the HTTP/1 shape), and it is
read (a ``getinfo``) only for a line libcurl does not write on HTTP/1 alone."""

from typing import Any

import pytest

from websearch_sync.errors import NetworkError
from websearch_sync.net.decoding import DECODERS
from websearch_sync.net.exchange import Body


@pytest.fixture(autouse=True)
def _curl_cffi() -> None:
    """curl_cffi (the ``browser`` extra) is imported by the tests, never at collection: every worker
    collects this module (tests/unit/test_suite_setup.py)."""
    pytest.importorskip("curl_cffi")


def version(name: str) -> int:
    """libcurl's number of the HTTP version ``name`` (``V1_1``, ``V2_0``)."""
    from curl_cffi.const import CurlHttpVersion

    return int(getattr(CurlHttpVersion, name))


def _read(status_line: bytes, version: int) -> tuple[Any, Body, list[int]]:
    """A head of ``status_line`` and a length read on a connection of ``version``; the exchange,
    its body sink and how often the version was asked."""
    from websearch_sync.net.wire_curl import _Exchange

    asked: list[int] = []

    def connection_version() -> int:
        asked.append(version)
        return version

    body = Body(
        max_bytes=1000,
        truncate=False,
        read_body=None,
        follow=False,
        method="GET",
        decoders=DECODERS,
        host="h",
        provider="p",
    )
    exchange = _Exchange(body, "https://h/", "h", "p", True, None, connection_version)
    for line in (status_line, b"Content-Length: 2\r\n", b"\r\n"):
        if exchange.header(line) != len(line):
            break
    return exchange, body, asked


@pytest.mark.parametrize("line", [b"HTTP/1.1 200 OK\r\n", b"HTTP/1.0 200 OK\r\n", b"HTTP/1.1 404 Not Found\r\n"])
def test_an_http1_line_is_read_without_asking_the_version(line: bytes) -> None:
    exchange, body, asked = _read(line, version("V1_1"))
    assert exchange.error is None and body.status == int(line.split()[1]) and not body.framed
    assert asked == []


def test_libcurls_http2_line_on_an_http2_connection_is_framed() -> None:
    exchange, body, asked = _read(b"HTTP/2 200 \r\n", version("V2_0"))
    assert exchange.error is None and body.status == 200 and body.framed
    assert asked == [version("V2_0")]


@pytest.mark.parametrize("line", [b"HTTP/2 200\r\n", b"HTTP/2.0 200 OK\r\n", b"HTTP/3 200\r\n"])
def test_a_line_of_another_version_from_an_http1_server_is_no_http(line: bytes) -> None:
    exchange, body, asked = _read(line, version("V1_1"))
    assert isinstance(exchange.error, NetworkError) and body.status == 0
    assert asked == [version("V1_1")]
