"""``record`` looks into a body that is compressed content (a ``.gz`` served as ``application/gzip``,
stored as ``.bin``: the wire decodes a ``Content-Encoding``, not the content itself). A key the
service echoed inside it was written as it came: it is searched decompressed, and the body
compressed again in its coding, so the case still replays what the backend read."""

import gzip
import io
import json
import zlib

import pytest

from websearch_sync.backends import JsonApiEngine, RequestSpec, SearchParams, register
from websearch_sync.config import Settings
from websearch_sync.contract import recording
from websearch_sync.contract.recording import Exchange, record_case
from websearch_sync.errors import WebProviderError
from websearch_sync.net import decoding
from websearch_sync.net.transport import HttpResponse
from websearch_sync.net.wire import WireRequest

KEY = "gz-key-9f3a77c1"
ENDPOINT = "https://gz.example/export"
ANSWER = {"echo": "/export?api_key=%s" % KEY, "hits": [{"name": "Rust", "link": "https://rust.example/"}]}
PLAIN = json.dumps(ANSWER).encode()


def _brotli(data: bytes) -> bytes:
    return bytes(pytest.importorskip("brotli").compress(data))


COMPRESS = {
    "gzip": gzip.compress,
    "deflate": zlib.compress,
    "zstd": lambda data: pytest.importorskip("zstandard").ZstdCompressor().compress(data),
    "br": _brotli,
}


class GzipExportEngine(JsonApiEngine):
    """Answers with its JSON as a gzip file (``application/gzip``), which it decompresses itself."""

    name = "gzip_export"
    summary = "a gzip file of JSON"
    default_endpoint = ENDPOINT
    provider_settings = JsonApiEngine.provider_settings
    results_at = "hits"
    result_fields = {"title": "name", "url": "link"}

    def build_request(self, params: SearchParams) -> RequestSpec:
        """The query and the key."""
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.query, "api_key": KEY})

    def data(self, response: HttpResponse) -> object:
        """The JSON inside the gzip file."""
        return json.loads(gzip.decompress(response.content))


def _redacted(body: bytes, content_type: str) -> bytes:
    exchange = Exchange(
        request=WireRequest("GET", ENDPOINT),
        status=200,
        headers={"Content-Type": content_type},
        url=ENDPOINT,
        body=bytearray(body),
        complete=True,
    )
    return recording._response_meta(exchange, recording.Redactor([KEY]), "response")[1]


@pytest.mark.parametrize("coding", list(COMPRESS))
def test_a_key_inside_a_compressed_body_is_redacted_and_the_body_stays_in_its_coding(coding):
    stored = _redacted(COMPRESS[coding](PLAIN), "application/octet-stream")
    plain = decoding.decompressed(stored, coding, recording.MAX_DECOMPRESSED_BYTES, "body")
    assert plain == PLAIN.replace(KEY.encode(), b"<redacted>")


def test_brotli_is_tried_only_under_a_declared_type():
    """Brotli has no magic: an untyped body (which may be text) is not read as brotli."""
    body = _brotli(PLAIN)
    assert _redacted(body, "") == body
    assert _redacted(body, "application/x-brotli") != body


@pytest.mark.parametrize("content_type", ["application/gzip", ""])
def test_a_compressed_body_without_a_secret_is_kept_byte_for_byte(content_type):
    body = gzip.compress(b'{"hits": []}', mtime=1234)
    assert _redacted(body, content_type) == body


def test_a_body_decompressing_beyond_the_cap_is_response_too_large(monkeypatch):
    monkeypatch.setattr(recording, "MAX_DECOMPRESSED_BYTES", 1000)
    with pytest.raises(WebProviderError) as raised:
        _redacted(gzip.compress(PLAIN + b" " * 1000), "application/gzip")
    assert raised.value.detail_code == "response_too_large"
    assert _redacted(gzip.compress(PLAIN), "application/gzip") != gzip.compress(PLAIN)  # under it: searched


def test_the_cap_is_64_mib():
    assert recording.MAX_DECOMPRESSED_BYTES == 64 * 1024 * 1024


def test_a_recorded_gzip_export_is_written_without_its_key_and_replays(tmp_path, monkeypatch):
    url = ENDPOINT + "?q=rust&api_key=" + KEY
    exchange = Exchange(
        request=WireRequest("GET", url),
        status=200,
        headers={"Content-Type": "application/gzip"},
        url=url,
        body=bytearray(gzip.compress(PLAIN)),
        complete=True,
    )
    register(GzipExportEngine)  # undone after the test
    monkeypatch.setattr(recording, "_capture", lambda *args: ({"items": []}, [exchange]))
    result = record_case("gzip_export", "rust", fixtures_dir=tmp_path, settings=Settings())
    assert result.ok, result.verdict.diff
    stored = (tmp_path / "gzip_export" / "rust.bin").read_bytes()
    assert json.loads(gzip.decompress(stored))["echo"] == "/export?api_key=<redacted>"
    assert "response.body" in result.redacted
    golden = json.loads((tmp_path / "gzip_export" / "rust.expected.json").read_text(encoding="utf-8"))
    assert golden["items"][0]["url"] == "https://rust.example/"


def _gzip_named(name: str, data: bytes) -> bytes:
    """``data`` as ``gzip`` writes a file: the file's name in the member's header, as it is."""
    out = io.BytesIO()
    with gzip.GzipFile(filename=name, mode="wb", fileobj=out, mtime=0) as member:
        member.write(data)
    return out.getvalue()


@pytest.mark.parametrize(
    "body",
    [
        _gzip_named("export-%s.json" % KEY, b'{"hits": []}'),  # the header's file name (FNAME), not compressed
        gzip.compress(b'{"hits": []}') + b"\n/export?api_key=" + KEY.encode(),  # bytes after the member
    ],
    ids=["file-name", "after-the-end"],
)
def test_a_key_in_a_compressed_body_outside_its_content_is_not_written(body):
    """Only the decompressed content was searched: the key in a gzip member's file name or in bytes
    after the stream's end (which no decoder reads) was written as it came. The body is then written
    again from its content, which is all a replay reads of it."""
    stored = _redacted(body, "application/gzip")
    assert KEY.encode() not in stored
    assert gzip.decompress(stored) == b'{"hits": []}'


def test_a_short_token_standing_as_a_json_string_inside_a_compressed_json_body_is_redacted():
    """A short sent token is replaced where it stands whole, a whole JSON string of a JSON body among
    those places; the JSON inside a gzip file was searched as any text, and ``"echo": "ab12x"`` kept it."""
    plain = b'{"echo": "ab12x", "said": "the ab12x key", "in": "xab12xy"}'
    exchange = Exchange(
        request=WireRequest("GET", ENDPOINT),
        status=200,
        headers={"Content-Type": "application/gzip"},
        url=ENDPOINT,
        body=bytearray(gzip.compress(plain)),
        complete=True,
    )
    stored = recording._response_meta(exchange, recording.Redactor([], whole=["ab12x"]), "response")[1]
    # a token reading as no word is replaced in prose too (docs/contract.md's rule), not inside a word
    assert gzip.decompress(stored) == b'{"echo": "<redacted>", "said": "the <redacted> key", "in": "xab12xy"}'


@pytest.mark.parametrize("content_type", ["application/json", "text/plain", "text/html"])
def test_a_gzip_file_served_under_a_text_type_is_searched_decompressed(content_type):
    """A ``.json.gz`` stored with its type and no ``Content-Encoding`` (an object store's upload): the
    wire leaves it compressed and it was searched as text, the key inside it written as it came. gzip's
    first bytes are no text's (``\\x8b`` begins no UTF-8 character), so the body is known whatever its type."""
    stored = _redacted(gzip.compress(PLAIN), content_type)
    assert gzip.decompress(stored) == PLAIN.replace(KEY.encode(), b"<redacted>")


def test_a_text_body_that_looks_like_zlib_is_searched_as_text():
    """A text starting ``x^`` has zlib's header bytes: under a text type only gzip and zstd, whose magic
    no text has, are looked for."""
    body = b"x^ " + PLAIN
    assert _redacted(body, "text/plain") == body.replace(KEY.encode(), b"<redacted>")
