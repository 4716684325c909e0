"""Hardening, part 3: hostile answers and hostile settings at the HTTP layer.

Every case was reproduced against the unfixed code (an exception other than WebSearchError,
or the wrong error class). Real sockets: ``tests/servers.py``'s raw server on 127.0.0.1.
"""

import itertools
import json
import math

import pytest
import responses
from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.net.charset import declared_charset, decode_body, meta_charset
from websearch_sync.net.ssrf import static_resolver
from websearch_sync.net.transport import MAX_RETRY_AFTER_S, HttpTransport, retry_after_seconds
from websearch_sync.reader.page import fetch_page

RESULTS = json.dumps({"results": [{"title": "Grüße", "url": "https://a.example/", "snippet": "first"}]}).encode("utf-8")
PAGE = (
    "<html><head><title>Café</title></head><body><article><h1>Grüße</h1><p>"
    + "Ein langer Absatz über Käse. " * 20
    + "</p></article></body></html>"
).encode("utf-8")

#: Labels that name no text encoding a web page can use: Python codecs that are not text
#: encodings (rot13, zlib...), that fail on most bytes (punycode, idna, undefined), that
#: browsers refuse (utf-7), that read escapes (unicode_escape), or no codec at all.
BOGUS_CHARSETS = [
    "punycode",
    "idna",
    "utf-7",
    "rot13",
    "zlib",
    "base64",
    "hex",
    "bz2",
    "uu",
    "quopri",
    "undefined",
    "unicode_escape",
    "raw_unicode_escape",
    "utf-32",
    "cp037",
    "palmos",
    "hz",
    "iso2022_kr",
    "x-user-defined",
    "mbcs",
    "no-such-charset",
]


@pytest.fixture(scope="module")
def lab():
    """One local server for the module (starting and stopping one per test costs 0.2 s each)."""
    with FaultServer({}) as server:
        yield server


class Routes:
    """One test's routes on the module's server, under a path prefix of their own."""

    _count = itertools.count()

    def __init__(self, server, routes):
        self.server = server
        self.prefix = "/t%d" % next(self._count)
        for path, handler in routes.items():
            server.routes[self.prefix + path] = handler

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    @property
    def port(self):
        return self.server.port

    def url(self, path):
        return self.server.url(self.prefix + path)

    @property
    def requests(self):
        return [r for r in self.server.requests if r.route.startswith(self.prefix + "/")]


def settings_for(url, **kwargs):
    return ws.Settings(endpoints={"testjson": url}, **kwargs)


#: The deadline of these calls, none of which is about it: 30 s. A process's first search or fetch
#: builds its wire (and a fetch its extractor): 2-7 s at a load of 6-15, over the 3 s they had.
NOT_THE_SUBJECT_MS = 30_000


def search(url, **kwargs):
    return ws.search(
        "q", backend="testjson", timeout_ms=NOT_THE_SUBJECT_MS, retries=0, settings=settings_for(url, **kwargs)
    )


# -- charsets -----------------------------------------------------------------------------------


@pytest.mark.parametrize("label", BOGUS_CHARSETS)
def test_a_bogus_charset_label_never_raises_and_utf8_wins(label):
    for body in (PAGE, PAGE + b"\xff\x80"):  # valid UTF-8, then bytes no codec reads strictly
        for content_type, content in (
            ("text/html; charset=%s" % label, body),
            ("text/html", body.replace(b"<head>", b'<head><meta charset="%s">' % label.encode())),
        ):
            text = decode_body(content, content_type)
            assert isinstance(text, str)
            if body == PAGE:
                assert "Grüße" in text and "Café" in text
    assert declared_charset("text/html; charset=%s" % label) is None
    assert meta_charset(b'<meta charset="%s">' % label.encode()) is None


@pytest.mark.parametrize(
    "label, codec",
    [
        ("windows-1252", "cp1252"),
        ("latin1", "cp1252"),
        ("GB2312", "gb18030"),
        ("shift_jis", "cp932"),
        ("euc-kr", "cp949"),
        ("windows-874", "cp874"),
        ("x-mac-cyrillic", "mac-cyrillic"),
        ("UTF8", "utf-8"),
        ("iso-8859-9", "cp1254"),
    ],
)
def test_web_encodings_are_still_recognised(label, codec):
    assert declared_charset("text/html; charset=%s" % label) == codec


@pytest.mark.parametrize("label", ["punycode", "zlib", "undefined", "idna"])
def test_a_search_answer_with_a_bogus_charset_is_read(lab, testjson, label):
    with Routes(lab, {"/s": respond(200, RESULTS, content_type="application/json; charset=%s" % label)}) as server:
        assert search(server.url("/s"))["items"][0]["title"] == "Grüße"


@pytest.mark.parametrize("label", ["punycode", "zlib", "undefined", "rot13"])
def test_fetch_of_a_page_with_a_bogus_charset_is_read(lab, label):
    page = PAGE.replace(b"<head>", b'<head><meta charset="%s">' % label.encode())
    with Routes(lab, {"/a": respond(200, page, content_type="text/html; charset=%s" % label)}) as server:
        result = ws.fetch(server.url("/a"), allow_private=True, timeout_ms=NOT_THE_SUBJECT_MS)
    assert "Grüße" in result["text"] or "Käse" in result["text"]


# -- Retry-After --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "Mon, 99 Foo 2026 25:61:61 GMT",
        "Fri, 31 Dec 9999 23:59:59 GMT, x",
        ",",
        "Wed, 21 Oct 2015 07:28:00",
        "Thu, 01 Jan 1970 00:00:00 GMT",
        "-5",
        "soon",
        "1,5",
        "\x00",
    ],
)
def test_a_malformed_retry_after_is_ignored_or_read_never_raised(value):
    wait = retry_after_seconds({"Retry-After": value})
    assert wait is None or 0 <= wait <= MAX_RETRY_AFTER_S


@pytest.mark.parametrize("value", ["99999999999999999999", "9" * 400, "Fri, 31 Dec 9999 23:59:59 GMT"])
def test_an_unbounded_retry_after_is_capped_at_one_day(value):
    assert retry_after_seconds({"Retry-After": value}) == MAX_RETRY_AFTER_S == 86400.0
    if "," not in value:  # X-RateLimit-Reset counts seconds only
        assert retry_after_seconds({"X-RateLimit-Reset": value + ", 5"}) == MAX_RETRY_AFTER_S


@pytest.mark.parametrize("value", ["inf", "Infinity", "1e18", "1e309"])
def test_an_unbounded_number_is_no_retry_after_and_a_reset_capped_at_one_day(value):
    """``Retry-After`` is digits or a date (RFC 9110): these are neither. ``X-RateLimit-Reset``, which no
    standard writes, is read as a number, capped."""
    assert retry_after_seconds({"Retry-After": value}) is None
    assert retry_after_seconds({"X-RateLimit-Reset": value + ", 5"}) == MAX_RETRY_AFTER_S == 86400.0


@pytest.mark.parametrize("value", ["nan", "NaN", "-inf"])
def test_a_retry_after_that_is_no_duration_is_ignored(value):
    wait = retry_after_seconds({"Retry-After": value})
    assert wait is None or wait == 0.0
    assert wait is None or not math.isnan(wait)


@pytest.mark.parametrize("value", ["Mon, 99 Foo 2026 25:61:61 GMT", "inf", "nan", "1e18"])
def test_a_429_with_a_hostile_retry_after_is_a_block_and_later_calls_still_work(lab, testjson, value):
    with Routes(
        lab,
        {
            "/s": respond(429, b"slow down", {"Retry-After": value}, content_type="text/plain"),
            "/ok": respond(200, RESULTS, content_type="application/json"),
        },
    ) as server:
        with ws.SearchClient(settings=settings_for(server.url("/s")), retries=0) as client:
            with pytest.raises(ws.WebBlocked) as info:
                client.search("q", backend="testjson")
            assert info.value.detail_code == "http_429"
            assert info.value.retry_after is None or info.value.retry_after <= MAX_RETRY_AFTER_S
            with pytest.raises(ws.WebSearchError) as again:  # cooling down: still a typed error, no OverflowError
                client.search("q", backend="testjson")
            assert again.value.code == "WebBlocked"


# -- header values ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "user_agent", ["Bot/1.0 (контакт)", "机器人", "agent\u2028x", "a\r\nX-Injected: 1", "emoji 😀"]
)
def test_a_user_agent_that_cannot_be_sent_is_invalid_input_before_sending(lab, testjson, user_agent):
    """Refused when the settings are built (``bad_setting``, naming the field), so before sending."""
    with Routes(lab, {"/s": respond(200, RESULTS, content_type="application/json")}) as server:
        with pytest.raises(ws.InvalidInput) as info:
            search(server.url("/s"), user_agent=user_agent)
        assert server.requests == []
    assert info.value.detail_code == "bad_setting"
    assert "Settings.user_agent cannot be sent as a User-Agent header" in info.value.message


def test_a_latin1_user_agent_is_still_sent(lab, testjson):
    with Routes(lab, {"/s": respond(200, RESULTS, content_type="application/json")}) as server:
        search(server.url("/s"), user_agent="Bot/1.0 (café)")
        assert server.requests[0].headers["user-agent"] == "Bot/1.0 (café)"


@pytest.mark.parametrize("key", ["ключ-123456", "密钥123456", "key\nX-Evil: 1"])
def test_an_api_key_that_cannot_be_sent_is_invalid_input_and_never_shown(key):
    settings = ws.Settings(providers={"brave": {"api_key": key}})
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add(responses.GET, "https://api.search.brave.com/res/v1/web/search", json={"type": "search"})
        with pytest.raises(ws.InvalidInput) as info:
            ws.search("q", backend="brave", settings=settings, retries=0)
        assert len(mock.calls) == 0
    assert info.value.detail_code == "bad_header" and info.value.provider == "brave"
    assert key not in info.value.message and "X-Subscription-Token" in info.value.message


@pytest.mark.parametrize("credentials", ["Jürgen:пароль", "用户:密码", "user:pass\u0142", "user%0D%0AX:pass"])
def test_proxy_credentials_that_cannot_be_sent_are_invalid_input(testjson, credentials):
    user, password = credentials.split(":")
    proxy = "http://%s:%s@127.0.0.1:9" % (user, password)
    with pytest.raises(ws.InvalidInput) as info:
        search("http://127.0.0.1:9/s", proxy=proxy)
    assert info.value.detail_code == "bad_proxy"
    assert password not in info.value.message


@pytest.mark.parametrize("key", ["ключ-123456", "key\r\nX-Evil: 1"])
def test_a_fetch_service_key_that_cannot_be_sent_falls_back_to_reading_the_page(lab, key):
    reader = respond(
        200, json.dumps({"data": {"content": "from the service"}}).encode(), content_type="application/json"
    )
    with Routes(lab, {"/reader": reader, "/a": respond(200, PAGE)}) as server:
        settings = ws.Settings(fetch_service_url=server.url("/reader"), fetch_service_key=key)
        transport = HttpTransport()
        try:
            result = fetch_page(
                "http://pages.test:%d%s/a" % (server.port, server.prefix),
                transport=transport,
                settings=settings,
                timeout_ms=NOT_THE_SUBJECT_MS,
                resolver=static_resolver({"pages.test": "127.0.0.1"}),
                trusted_networks=["127.0.0.1/32"],
            )
        finally:
            transport.close()
        assert [r.route for r in server.requests] == [server.prefix + "/a"]
    assert "Käse" in result["text"]


# -- malformed answers --------------------------------------------------------------------------


def _conflicting_length(conn, request, server):
    conn.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nContent-Length: 5\r\n"
        b"Connection: close\r\n\r\n" % len(RESULTS) + RESULTS
    )


def test_conflicting_content_lengths_are_the_upstream_s_fault_not_ours(lab, testjson):
    with Routes(lab, {"/s": _conflicting_length}) as server:
        with pytest.raises(ws.WebSearchError) as info:
            search(server.url("/s"))
    assert info.value.code == "NetworkError" and info.value.detail_code == "malformed_response", repr(info.value)


def test_a_malformed_answer_does_not_stop_a_fallback_chain(lab, json_backends):
    json_backends("aa", "bb")
    with Routes(
        lab, {"/aa": _conflicting_length, "/bb": respond(200, RESULTS, content_type="application/json")}
    ) as server:
        settings = ws.Settings(endpoints={"aa": server.url("/aa"), "bb": server.url("/bb")})
        result = ws.search("q", backend=["aa", "bb"], settings=settings, retries=0, timeout_ms=NOT_THE_SUBJECT_MS)
    assert result["provider_meta"]["provider_name"] == "bb"


@pytest.mark.parametrize("encoding", ["br", "zstd-unknown", "compress", "x-custom", "gzip, br", "base64"])
def test_a_body_in_an_encoding_we_cannot_decode_is_an_error_not_a_page(lab, testjson, encoding):
    body = b"\x1b\x00\xf8\x00compressed-looking-bytes"
    with Routes(
        lab, {"/s": respond(200, body, {"Content-Encoding": encoding}, content_type="application/json")}
    ) as server:
        with pytest.raises(ws.NetworkError) as info:
            search(server.url("/s"))
    assert info.value.detail_code == "bad_content_encoding"
    assert encoding.split(",")[-1].strip() in info.value.message


@pytest.mark.parametrize(
    "body",
    [b"\x1b\x00\xf8\x00" * 100, b"<html><body><p>An uncompressed page its server labels as brotli.</p></body></html>"],
    ids=["broken-brotli", "plain-html"],
)
def test_fetch_does_not_return_undecodable_bytes_as_a_page(lab, fake_clock, body):
    with Routes(lab, {"/a": respond(200, body, {"Content-Encoding": "br"})}) as server:
        with pytest.raises(ws.NetworkError) as info:
            ws.fetch(server.url("/a"), allow_private=True, timeout_ms=NOT_THE_SUBJECT_MS)
    assert info.value.detail_code == "bad_content_encoding"


@pytest.mark.parametrize("encoding", ["identity", "gzip", "GZIP", "x-gzip", "deflate", ""])
def test_encodings_we_decode_still_work(lab, testjson, encoding):
    import gzip
    import zlib

    body = {"gzip": gzip.compress, "x-gzip": gzip.compress, "deflate": zlib.compress}.get(
        encoding.lower(), lambda b: b
    )(RESULTS)
    with Routes(
        lab, {"/s": respond(200, body, {"Content-Encoding": encoding}, content_type="application/json")}
    ) as server:
        assert search(server.url("/s"))["items"][0]["title"] == "Grüße"
