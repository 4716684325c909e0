"""Limits of ``record``'s redaction that docs/contract.md listed, closed one by one: a short secret
as an HTML attribute's value, in HTML's other character references, as a URL's path segment, inside
compressed JSON, and the length rule for a short secret in prose."""

import gzip
import json
import time

import pytest

from websearch_sync.backends import JsonApiEngine, RequestSpec, SearchParams, register
from websearch_sync.config import Settings
from websearch_sync.contract import recording
from websearch_sync.contract.recording import Exchange, record_case
from websearch_sync.net.transport import HttpResponse
from websearch_sync.net.wire import WireRequest

SHORT = "ab12x"  # a session token of 5 characters, sent under a credential's name


# -- 1. an HTML attribute's value, HTML's other character references ------------------------------


@pytest.mark.parametrize(
    "attribute",
    ['value="%s"', "value='%s'", "value=%s>", 'data-key = "%s"', "value=%s data-x=1", 'value=\\"%s\\"'],
)
def test_a_short_secret_as_an_html_attribute_value_is_redacted(attribute):
    """``<input value="ab12x">``: the page echoes the token as an attribute's whole value."""
    redactor = recording.Redactor([], whole=[SHORT])
    page = ("<input %s <p>next</p>" % (attribute % SHORT)).encode()
    cleaned = redactor.body(page, "body")
    assert SHORT.encode() not in cleaned
    assert cleaned == page.replace(SHORT.encode(), b"<redacted>")


def test_a_short_secret_inside_an_attribute_value_of_more_is_kept():
    """Only the attribute's whole value: ``title="the ab12x key"`` is prose."""
    redactor = recording.Redactor([], whole=[SHORT])
    page = b'<a title="the ab12x key" class="ab12xy">x</a>'
    assert redactor.body(page, "body") == page


@pytest.mark.parametrize(
    "spelt",
    [
        "tok&sol;en&plus;9f3a77c1",  # HTML5's named references of ASCII characters
        "tok&#47en+9f3a77c1",  # a numeric reference without its ';' (what follows cannot extend it)
        "tok/en&#x2b&#57;f3a77c1",
        "tok&#x2F;en&#43;9f3a77c1",
    ],
)
def test_html_references_of_every_kind_are_redacted(spelt):
    redactor = recording.Redactor(["tok/en+9f3a77c1"])
    assert redactor.text('<a href="/v2?t=%s&amp;p=2">' % spelt, "body") == '<a href="/v2?t=<redacted>&amp;p=2">'


def test_a_reference_without_its_semicolon_stops_where_its_number_does():
    """``&#471`` is another character than ``&#47`` followed by ``1``: no secret there."""
    redactor = recording.Redactor(["a/1bcd"])
    assert redactor.text("a&#471bcd", "t") == "a&#471bcd"
    assert redactor.text("a&#x2f1bcd", "t") == "a&#x2f1bcd"
    assert redactor.text("a&#47 1bcd", "t") == "a&#47 1bcd"
    assert redactor.text("[a&#x2f;1bcd]", "t") == "[<redacted>]"


ADVERSARIAL = [
    "=" * 4096,
    "= \t" * 4096,
    "=ab12" * 4096,
    "='ab12x" * 4096,
    "&#" + "0" * 16384,
    "&#x" + "0" * 16384,
    "&amp" * 4096,
    "&#47" * 4096,
    "/" * 16384,
    "%2F" * 4096,
    "/ab12" * 4096,
]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_redacting_takes_linear_time(text):
    """The redactor's patterns read a recorded body (upstream input): 16 times the text (from
    64 KB and more) takes about 16 times as long, not 256 times (the best of three timings of each size, in CPU time:
    other processes' load does not count)."""
    redactor = recording.Redactor(["tok/en+9f3a77c1", "a&b&c&d&e"], whole=[SHORT, "x/y=z"])

    def best(sample: str) -> float:
        timings = []
        for _ in range(3):
            started = time.process_time()
            redactor.text(sample, "t")
            timings.append(time.process_time() - started)
        return min(timings)

    small, large = best(text * 4), best(text * 64)
    assert large < max(small, 2e-3) * 64, (small, large)  # quadratic: 256 times


# -- 2. a URL's path segment ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "echo",
    [
        '<a href="https://api.example/v1/%s/search?q=1">',
        "<a href=/v1/%s>",
        '{"next": "https:\\/\\/api.example\\/v1\\/%s\\/search"}',
        '<a href="/go?to=%%2Fv1%%2F%s%%2Fsearch&amp;p=2">',
        "see https://api.example/v1/%s#top",
        '"/v1/%s"',
    ],
)
def test_a_short_secret_as_a_url_path_segment_is_redacted(echo):
    """The key the backend put in its path, echoed in the answer's links: a short one stood there whole."""
    redactor = recording.Redactor([], whole=[SHORT])
    body = (echo % SHORT).encode()
    assert redactor.body(body, "body") == (echo % "<redacted>").encode()
    location = "https://api.example/v1/%s/search" % SHORT
    assert redactor.header("Location", location, "h") == "https://api.example/v1/<redacted>/search"


def test_a_path_segment_holding_more_than_a_short_secret_is_kept():
    redactor = recording.Redactor([], whole=[SHORT])
    for text in ("/v1/%sy/s" % SHORT, "/v1/x%s/s" % SHORT, "/v1/%s.html" % SHORT, "and/or %s" % SHORT):
        assert redactor.text(text, "t") == text


# -- 3. a short secret inside compressed content --------------------------------------------------


def _stored(body: bytes, whole: list[str]) -> bytes:
    exchange = Exchange(
        request=WireRequest("GET", "https://gz.example/export"),
        status=200,
        headers={"Content-Type": "application/gzip"},
        url="https://gz.example/export",
        body=bytearray(body),
        complete=True,
    )
    return recording._response_meta(exchange, recording.Redactor([], whole=whole), "response")[1]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32-le"])
def test_a_short_secret_as_a_json_string_inside_compressed_json_is_redacted(encoding):
    """A gzip file of JSON (``application/gzip``, stored as ``.bin``) was searched for a short
    secret only as a URL's field value: its whole JSON strings kept it."""
    answer = '{"echo": "%s", "note": "the %s key"}'
    stored = _stored(gzip.compress((answer % (SHORT, SHORT)).encode(encoding)), [SHORT])
    assert stored[:2] == b"\x1f\x8b"  # still gzip: the backend decompresses it itself
    assert gzip.decompress(stored) == (answer % ("<redacted>", SHORT)).encode(encoding)


def test_a_short_secret_in_compressed_markup_is_redacted_where_it_stands_whole():
    page = '<input value="%s"><a href="/v1/%s/s">%s</a>' % ((SHORT,) * 3)
    stored = _stored(gzip.compress(page.encode()), [SHORT])
    assert gzip.decompress(stored) == ('<input value="<redacted>"><a href="/v1/<redacted>/s">%s</a>' % SHORT).encode()


def test_compressed_content_that_is_no_json_keeps_its_quoted_words():
    text = b'he said "%s" twice' % SHORT.encode()
    body = gzip.compress(text)
    assert _stored(body, [SHORT]) == body


class ShortGzipEngine(JsonApiEngine):
    """Sends a short session token and answers with its JSON as a gzip file."""

    name = "short_gzip"
    summary = "a gzip file of JSON, a short token"
    default_endpoint = "https://gz.example/export"
    results_at = "hits"
    result_fields = {"title": "name", "url": "link"}

    def build_request(self, params: SearchParams) -> RequestSpec:
        """The query and the token."""
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.query, "session_token": SHORT})

    def data(self, response: HttpResponse) -> object:
        """The JSON inside the gzip file."""
        return json.loads(gzip.decompress(response.content))


def test_a_recorded_gzip_export_echoing_a_short_token_is_written_without_it_and_replays(tmp_path, monkeypatch):
    url = "https://gz.example/export?q=rust&session_token=" + SHORT
    answer = {"echo": SHORT, "hits": [{"name": "Rust", "link": "https://rust.example/"}]}
    exchange = Exchange(
        request=WireRequest("GET", url),
        status=200,
        headers={"Content-Type": "application/gzip", "Content-Length": "999"},
        url=url,
        body=bytearray(gzip.compress(json.dumps(answer).encode())),
        complete=True,
    )
    register(ShortGzipEngine)  # undone after the test
    monkeypatch.setattr(recording, "_capture", lambda *args: ({"items": []}, [exchange]))
    result = record_case("short_gzip", "rust", fixtures_dir=tmp_path, settings=Settings())
    assert result.ok, result.verdict.diff  # the body compressed again replays
    stored = (tmp_path / "short_gzip" / "rust.bin").read_bytes()
    assert json.loads(gzip.decompress(stored))["echo"] == "<redacted>"
    meta = json.loads((tmp_path / "short_gzip" / "rust.meta.json").read_text(encoding="utf-8"))
    assert "Content-Length" not in meta["response"]["headers"]  # the transfer's, not the stored body's
