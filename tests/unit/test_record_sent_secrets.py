"""``record`` keeps a value the backend sent under a credential's name (a token in the query, not
a setting) out of every file it writes. The field itself was stored as ``<redacted>``, but an
upstream that echoes its request (an answer quoting the query, a redirect's ``Location`` carrying
it on) wrote the token to the body file and the meta file beside it."""

import html
import json
from urllib.parse import urlencode

import pytest
from recorded_exchanges import json_exchange

from websearch_sync.backends import JsonApiEngine, RequestSpec, SearchParams, register
from websearch_sync.config import Settings
from websearch_sync.contract import recording
from websearch_sync.contract.recording import Exchange, record_case
from websearch_sync.net.wire import WireRequest

TOKEN = "tok/en+9f3a77c1"  # what quote() and quote_plus() both change
ENDPOINT = "https://echo.example/api"


class PlainEngine(JsonApiEngine):
    """Sends the query alone (its session's cookie jar carries a preference cookie)."""

    name = "plain_query"
    summary = "sends the query alone"
    default_endpoint = ENDPOINT
    results_at = "hits"
    result_fields = {"title": "name", "url": "link"}

    def build_request(self, params: SearchParams) -> RequestSpec:
        """The query."""
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.query})


class EchoTokenEngine(PlainEngine):
    """Sends a session token of its own in the query (no setting holds it)."""

    name = "echo_token"
    summary = "sends a token in its query"

    def build_request(self, params: SearchParams) -> RequestSpec:
        """The query and the token."""
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.query, "session_token": TOKEN})


def _exchanges() -> list[Exchange]:
    """What the upstream answered: a redirect carrying the query on, then an answer quoting it."""
    query = "q=rust&session_token=tok%2Fen%2B9f3a77c1"
    moved = Exchange(
        request=WireRequest("GET", ENDPOINT + "?" + query),
        status=302,
        headers={"Location": "/v2?" + query},
        url=ENDPOINT + "?" + query,
        complete=True,
    )
    answer = {"echo": "/v2?" + query, "raw": TOKEN, "hits": [{"name": "Rust", "link": "https://rust.example/"}]}
    answered = json_exchange("https://echo.example/v2?" + query, answer)
    return [moved, answered]


def test_an_echoed_token_is_written_nowhere(tmp_path, monkeypatch):
    register(EchoTokenEngine)  # undone after the test
    monkeypatch.setattr(recording, "_capture", lambda *args: ({"items": []}, _exchanges()))
    result = record_case("echo_token", "rust", fixtures_dir=tmp_path)
    assert result.ok, result.verdict.diff  # the redacted case still replays
    written = {path.name: path.read_text(encoding="utf-8") for path in (tmp_path / "echo_token").iterdir()}
    assert set(written) == {"rust.json", "rust.meta.json", "rust.expected.json"}
    for name, text in written.items():
        for form in (TOKEN, "tok%2Fen%2B9f3a77c1"):
            assert form not in text, name
    assert "exchanges[0].response.headers.Location" in result.redacted
    assert "exchanges[1].response.body" in result.redacted


def test_a_short_value_under_a_credential_name_is_not_searched_for():
    """``auth=true`` would turn every ``true`` of the answer into a placeholder."""
    request = WireRequest(
        "GET", ENDPOINT + "?auth=true&api_key=tok%2Fen%2B9f3a77c1", headers=[("Authorization", "Bearer abc")]
    )
    assert recording._sent_secrets([Exchange(request=request)]) == [TOKEN]


def test_a_secret_in_a_utf16_body_is_redacted():
    """A body is written as it came: a JSON answer in UTF-16 (with its BOM, which ``.json()``
    reads) echoing the key kept it, as only its UTF-8 spelling was looked for."""
    redactor = recording.Redactor(["brave-key-1234"])
    for encoding in ("utf-16", "utf-16-le", "utf-16-be", "utf-8"):
        body = '{"echo": "brave-key-1234"}'.encode(encoding)
        assert redactor.body(body, "response.body") == '{"echo": "<redacted>"}'.encode(encoding), encoding


@pytest.mark.parametrize("encoding", ["utf-32", "utf-32-le", "utf-32-be"])
def test_a_secret_in_a_utf32_body_is_redacted(encoding):
    """JSON's other encoding (``json.detect_encoding`` reads it, BOM or not): the key it echoed,
    as it is or URL-encoded, was written as it came."""
    redactor = recording.Redactor([TOKEN])
    for spelt in (TOKEN, "tok%2Fen%2B9f3a77c1"):
        body = ('{"echo": "%s", "n": 1}' % spelt).encode(encoding)
        assert redactor.body(body, "response.body") == '{"echo": "<redacted>", "n": 1}'.encode(encoding), spelt


def test_only_a_cookie_named_like_a_credential_is_searched_for():
    """A preference cookie (``recent=rust programming``) is no secret: taken as one, it turned the
    recorded query ``q`` into a placeholder (a wildcard on replay) and the golden's titles into
    ``Learn <redacted> today``."""
    request = WireRequest(
        "GET",
        ENDPOINT + "?q=rust+programming",
        headers=[("Cookie", "recent=rust programming; lang=english; sessionid=s3ss10n-9f3a77c1")],
    )
    assert recording._sent_secrets([Exchange(request=request)]) == ["s3ss10n-9f3a77c1"]


def test_a_preference_cookie_leaves_the_case_as_it_came(tmp_path, monkeypatch):
    answer = {"hits": [{"name": "Learn rust programming today", "link": "https://rust.example/"}]}
    url = ENDPOINT + "?q=rust+programming"
    exchange = json_exchange(url, answer, (("Cookie", "recent=rust programming; lang=english"),))
    register(PlainEngine)  # undone after the test
    monkeypatch.setattr(recording, "_capture", lambda *args: ({"items": []}, [exchange]))
    result = record_case("plain_query", "rust programming", fixtures_dir=tmp_path)
    assert result.ok, result.verdict.diff
    folder = tmp_path / "plain_query"
    meta = json.loads((folder / "rust-programming.meta.json").read_text(encoding="utf-8"))
    assert meta["request"]["query_params"] == {"q": "rust programming"}
    assert json.loads((folder / "rust-programming.json").read_text(encoding="utf-8")) == answer
    golden = json.loads((folder / "rust-programming.expected.json").read_text(encoding="utf-8"))
    assert golden["items"][0]["title"] == "Learn rust programming today"


@pytest.mark.parametrize(
    "spelt",
    [
        "tok/en+9f3a77c1",  # as sent
        "tok%2Fen%2B9f3a77c1",  # quote(safe="")
        "tok%2fen%2b9f3a77c1",  # lowercase escapes
        "tok/en%2B9f3a77c1",  # quote() keeps "/"
        "tok%252Fen%252B9f3a77c1",  # encoded twice
        "tok\\/en+9f3a77c1",  # JSON's optional \/ (PHP's json_encode)
        "tok/en\\u002b9f3a77c1",  # JSON \u escape, lowercase hex
        "tok/en\\u002B9f3a77c1",
        "tok/en&#43;9f3a77c1",  # HTML character references
        "tok&#x2f;en&#X2B;9f3a77c1",
    ],
)
def test_every_spelling_of_a_secret_is_redacted(spelt):
    """An upstream echoing a token spells it its own way; each of these leaked."""
    redactor = recording.Redactor([TOKEN])
    assert redactor.body(('{"echo": "/v2?t=%s&x=1"}' % spelt).encode(), "body") == b'{"echo": "/v2?t=<redacted>&x=1"}'
    assert redactor.text("/v2?session_token=%s" % spelt, "Location") == "/v2?session_token=<redacted>"


def test_json_and_html_escapes_of_other_characters_are_redacted():
    secret = 'k\u00e9y "<&> 9f3a77c1'  # not ASCII, a space, a quote, what HTML escapes
    redactor = recording.Redactor([secret])
    for spelt in (json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1], html.escape(secret)):
        assert redactor.text("[%s]" % spelt, "text") == "[<redacted>]", spelt
    assert redactor.text("[k%C3%A9y+%22%3C%26%3E+9f3a77c1]", "text") == "[<redacted>]"


def test_bytes_around_a_secret_are_kept_as_they_came():
    """A body is read as UTF-8 to be searched; what is not UTF-8 is written back unchanged."""
    body = b"\xff\xfe latin-1 caf\xe9 tok%2fen%2b9f3a77c1 \xed\xa0\x80"
    assert recording.Redactor([TOKEN]).body(body, "body") == body.replace(b"tok%2fen%2b9f3a77c1", b"<redacted>")


SHORT = "ab12x"  # a session token of 5 characters: searched for where it stands whole and as a whole token
WORD = "hunter"  # a short one that reads as a word: searched for only where it stands whole


class ShortTokenEngine(PlainEngine):
    """Sends a short session token of its own in the query."""

    name = "short_token"
    summary = "sends a short token in its query"

    def build_request(self, params: SearchParams) -> RequestSpec:
        """The query and the token."""
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.query, "session_token": SHORT})


def test_a_short_sent_token_is_redacted_where_it_stands_whole_and_as_a_token(tmp_path, monkeypatch):
    """Under 8 characters a sent value was not searched for at all: the answer's echo of it, the
    redirect's ``Location`` and a header repeating it were written as they came. Inside a longer
    word it is no echo, and is kept."""
    query = "q=rust&session_token=" + SHORT
    moved = Exchange(
        request=WireRequest("GET", ENDPOINT + "?" + query),
        status=302,
        headers={"Location": "/v2?" + query, "X-Echoed": "Bearer " + SHORT, "X-Token-Echo": SHORT},
        url=ENDPOINT + "?" + query,
        complete=True,
    )
    prose = "the %s prose, x%sy stays" % (SHORT, SHORT)  # a token quoted in prose; inside a word: no echo
    answer = {
        "echo": SHORT,
        "next": "/v2?session_token=%s&p=2" % SHORT,
        "hits": [{"name": prose, "link": "https://rust.example/"}],
    }
    answered = json_exchange("https://echo.example/v2?" + query, answer)
    register(ShortTokenEngine)  # undone after the test
    monkeypatch.setattr(recording, "_capture", lambda *args: ({"items": []}, [moved, answered]))
    result = record_case("short_token", "rust", fixtures_dir=tmp_path)
    assert result.ok, result.verdict.diff  # the redacted case still replays
    folder = tmp_path / "short_token"
    body = json.loads((folder / "rust.json").read_text(encoding="utf-8"))
    assert body["echo"] == "<redacted>"
    assert body["next"] == "/v2?session_token=<redacted>&p=2"
    redacted_prose = "the <redacted> prose, x%sy stays" % SHORT
    assert body["hits"][0]["name"] == redacted_prose
    meta = json.loads((folder / "rust.meta.json").read_text(encoding="utf-8"))
    first = meta["exchanges"][0]
    assert first["response"]["headers"] == {
        "Location": "/v2?q=rust&session_token=<redacted>",
        "X-Echoed": "Bearer <redacted>",
        "X-Token-Echo": "<redacted>",
    }
    assert first["request"]["query_params"] == {"q": "rust", "session_token": "<redacted>"}
    golden = json.loads((folder / "rust.expected.json").read_text(encoding="utf-8"))
    title = golden["items"][0]["title"]  # the placeholder reads as a tag there: left out
    assert title.startswith("the ") and title.endswith(" prose, x%sy stays" % SHORT) and "ab12x " not in title


def test_an_outcome_is_cleaned_as_a_written_field_is_but_for_names_and_notes():
    """One walk serves both (:meth:`~recording.Redactor.value`, :meth:`~recording.Redactor.outcome`):
    a long secret inside text and a short one standing whole are replaced in lists and dicts all the
    way down, a short one inside a word kept. Written, each removal is noted where it was and a
    credential's or a volatile field is the placeholder whole; an outcome notes nothing and judges
    no field by its name."""
    redactor = recording.Redactor([TOKEN], volatile=["limit"], whole=[SHORT])
    nested = {"items": [{"title": "a %s b" % TOKEN, "tags": [SHORT, "x%sy" % SHORT]}], "token": "plain", "limit": "3"}
    cleaned = {"items": [{"title": "a <redacted> b", "tags": ["<redacted>", "x%sy" % SHORT]}]}
    assert redactor.outcome(nested) == dict(cleaned, token="plain", limit="3") and redactor.notes == []
    assert redactor.value("q", nested, "f") == dict(cleaned, token="<redacted>", limit="<redacted>")
    assert redactor.notes == ["f.items.title", "f.items.tags", "f.token"]


def test_a_short_secret_reading_as_a_word_stands_whole_only():
    redactor = recording.Redactor([], whole=[WORD])
    assert redactor.value("state", WORD, "f") == "<redacted>"  # a query or form field's whole value
    assert redactor.value("state", "x" + WORD, "f") == "x" + WORD
    assert redactor.header("X-Forwarded", "Token " + WORD, "h") == "Token <redacted>"
    assert redactor.header("X-Note", "one two " + WORD, "h") == "one two " + WORD  # prose
    html_body = b'<p>key "%s" <a href="/x?a=1&amp;t=%s">next</a> %s</p>' % ((WORD.encode(),) * 3)
    assert redactor.body(html_body, "body") == html_body.replace(b"t=" + WORD.encode(), b"t=<redacted>")
    # a quoted word counts as a JSON string only in a JSON body
    assert redactor.body(b'{"a": "%s"}' % WORD.encode(), "body") == b'{"a": "%s"}' % WORD.encode()
    assert redactor.body(b'{"a": "%s"}' % WORD.encode(), "body", json_body=True) == b'{"a": "<redacted>"}'
    assert redactor.body(b'{"a": "say \\"%s\\""}' % WORD.encode(), "body", json_body=True).count(b"<redacted>") == 0
    wide = '{"a": "%s", "b": "%s x"}' % (WORD, WORD)
    for encoding in ("utf-16", "utf-32-be"):
        assert redactor.body(wide.encode(encoding), "b", json_body=True) == wide.replace(
            '"%s"' % WORD, '"<redacted>"'
        ).encode(encoding)


@pytest.mark.parametrize("value", ["true", "False", "NULL", "none", "abc"])
def test_a_word_or_a_value_under_4_characters_is_no_secret(value):
    request = WireRequest("GET", ENDPOINT + "?auth=%s&api_key=%s" % (value, SHORT))
    assert recording._sent_secrets([Exchange(request=request)]) == [SHORT]


class TokenTwiceEngine(PlainEngine):
    """Sends its token under a credential's name and again in a field of another name."""

    name = "token_twice"
    summary = "sends its token twice"

    def build_request(self, params: SearchParams) -> RequestSpec:
        """The query, the token, and the token again as ``state``."""
        return RequestSpec(
            "GET", self.endpoint_url(), params={"q": params.query, "session_token": TOKEN, "state": TOKEN}
        )


def test_a_sent_token_echoed_in_another_query_field_is_redacted_there_by_design(tmp_path, monkeypatch):
    """The field ``state`` holds the secret itself: written as sent, the case would hold the token.
    So it is stored as the placeholder, and the replay accepts any non-empty value there: the one
    thing the case no longer checks exactly (docs/contract.md says so)."""
    url = ENDPOINT + "?" + urlencode({"q": "rust", "session_token": TOKEN, "state": TOKEN})
    answer = {"hits": [{"name": "Rust", "link": "https://rust.example/"}]}
    exchange = json_exchange(url, answer)
    register(TokenTwiceEngine)  # undone after the test
    monkeypatch.setattr(recording, "_capture", lambda *args: ({"items": []}, [exchange]))
    result = record_case("token_twice", "rust", fixtures_dir=tmp_path)
    assert result.ok, result.verdict.diff  # it replays
    meta = json.loads((tmp_path / "token_twice" / "rust.meta.json").read_text(encoding="utf-8"))
    assert meta["request"]["query_params"] == {"q": "rust", "session_token": "<redacted>", "state": "<redacted>"}
    assert "request.query_params.state" in result.redacted
    assert TOKEN not in json.dumps(meta)


def test_a_json_typed_body_that_is_no_json_document_is_noted_not_raised():
    """A body typed as JSON that is not one document (NDJSON, ``application/x-ndjson``, a bulk API's
    lines) raised ``JSONDecodeError`` out of ``record`` after the live search, no error of the
    vocabulary: it is a raw body, not stored and noted, as any other body replay cannot match."""
    body = b'{"index": "a"}\n{"query": {"match_all": {}}}\n'
    request = WireRequest("POST", ENDPOINT, headers=[("Content-Type", "application/x-ndjson")], body=body)
    redactor = recording.Redactor([])
    recorded, _ = recording._redacted_exchanges([Exchange(request=request, status=200)], "ua", redactor)
    assert "json" not in recorded[0]["request"] and "form" not in recorded[0]["request"]
    assert redactor.notes == ["request: a application/x-ndjson body (not stored, not matched on replay)"]


@pytest.mark.parametrize(
    ("value", "stored"),
    [
        ("Bearer tok/en+9f3a77c1", "Bearer <redacted>"),  # the scheme kept
        ("key=k3y-9f3a77c1; sig=s1g-9f3a77c1", "<redacted>"),  # no scheme: the first pair was kept
        ("Token a=k3y-9f3a77c1, b=s1g-9f3a77c1", "Token <redacted>"),
    ],
)
def test_a_credential_header_keeps_nothing_but_its_scheme(value, stored):
    """A credential header's value was kept around what was replaced, its first word taken for a
    scheme: ``key=<secret>; sig=<secret>`` was written ``key=<secret>; <redacted>``."""
    request = WireRequest("GET", ENDPOINT, headers=[("X-Auth", value)])
    redactor = recording._redactor_for(Settings(), [Exchange(request=request)], ())
    assert recording._request_headers(request, "ua", redactor, "request") == {"X-Auth": stored}


@pytest.mark.parametrize(
    ("url", "headers", "body"),
    [
        (ENDPOINT + "?token=k3y-9f3a77c1&q=rust&token=s1g-9f3a77c1", [], None),
        (ENDPOINT, [("Content-Type", "application/x-www-form-urlencoded")], b"token=k3y-9f3a77c1&token=s1g-9f3a77c1"),
    ],
    ids=["query", "form"],
)
def test_every_value_of_a_repeated_credential_field_is_searched_for(url, headers, body):
    """A credential field sent twice (``token=a&q=rust&token=b``, a form's ``token=a&token=b``) was read
    into a mapping, the last value kept: the first was never searched for, and an answer echoing it
    wrote it to the case."""
    request = WireRequest("POST" if body else "GET", url, headers=headers, body=body)
    assert recording._sent_secrets([Exchange(request=request)]) == ["k3y-9f3a77c1", "s1g-9f3a77c1"]


def test_a_token_echoed_in_a_result_leaves_the_live_answer_redacted_too(tmp_path, monkeypatch):
    """An answer whose result links carry the sent token on (``?session_token=...``): the case is
    written redacted and its replay gives the link with the placeholder, but the live answer, as it
    came, was compared with it: every such recording ended in 'replaying the case gives another
    answer than the live search' (exit 1), the diff printing the token on stderr."""
    query = "q=rust&session_token=tok%2Fen%2B9f3a77c1"
    answer = {"hits": [{"name": "Rust", "link": "https://rust.example/go?session_token=" + TOKEN}]}
    exchange = json_exchange(ENDPOINT + "?" + query, answer)
    register(EchoTokenEngine)  # undone after the test
    monkeypatch.setattr(recording, "_capture", lambda *args: ({"items": []}, [exchange]))
    golden = record_case("echo_token", "rust", fixtures_dir=tmp_path).verdict.outcome
    assert golden is not None and golden["items"][0]["url"].endswith("session_token=<redacted>")
    live = json.loads(json.dumps(golden).replace("<redacted>", TOKEN))  # the live search's answer, as it came
    monkeypatch.setattr(recording, "_capture", lambda *args: (live, [exchange]))
    result = record_case("echo_token", "rust", fixtures_dir=tmp_path, overwrite=True)
    assert result.ok, result.verdict.diff
    assert result.live_diff == []
    assert TOKEN not in json.dumps(result.live_outcome)
    assert result.live_outcome["items"][0]["url"] == "https://rust.example/go?session_token=<redacted>"


def test_a_credential_in_a_configured_urls_query_is_not_written():
    """A secret-named query field of an endpoint or of a provider's URL setting (``?token=...``,
    which an endpoint override does not send) was written to the meta's ``settings`` as it came: only
    a URL's user info was taken for a secret there."""
    settings = Settings(
        endpoints={"searxng": "https://searx.example/?token=3ndp01nt-9f3a"},
        providers={"searxng": {"base_url": "https://searx.example/?api_key=pr0v1der-9f3a&lang=en"}},
    )
    meta = recording._settings_meta("searxng", settings, recording._redactor_for(settings, [], ()))
    assert meta["endpoints"]["searxng"] == "https://searx.example/?token=<redacted>"
    assert meta["providers"]["searxng"]["base_url"] == "https://searx.example/?api_key=<redacted>&lang=en"


def test_rfc_2965_cookie_headers_are_dropped_like_cookie_and_set_cookie():
    """``Set-Cookie2`` (RFC 2965's, which some servers still send) was written to the meta file as it
    came, its session id in it; a request's ``Cookie2`` was kept as a header replay then matched."""
    exchange = Exchange(
        request=WireRequest("GET", ENDPOINT + "?q=rust", headers=[("Cookie2", '$Version="1"')]),
        status=200,
        headers={"Content-Type": "text/plain", "Set-Cookie2": 'sid=s3ss10n-9f3a77c1; Version="1"'},
        body=bytearray(b"ok"),
        complete=True,
    )
    redactor = recording.Redactor([])
    response, _ = recording._response_meta(exchange, redactor, "response")
    assert response["headers"] == {"Content-Type": "text/plain"}
    assert recording._request_headers(exchange.request, "ua", redactor, "request") == {}
    assert redactor.notes == ["response.headers.Set-Cookie2 (dropped)", "request.headers.Cookie2 (dropped)"]


def _multipart(boundary: str, *parts: tuple[str, str]) -> bytes:
    """A ``multipart/form-data`` body of ``(name, value)`` parts."""
    body = b"".join(
        b'--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n'
        % (boundary.encode(), name.encode(), value.encode())
        for name, value in parts
    )
    return body + b"--%s--\r\n" % boundary.encode()


def test_a_credential_part_of_a_multipart_form_is_searched_for():
    """A ``multipart/form-data`` body's credential-named part (``api_token``) was never read as a sent
    secret (only query strings, urlencoded forms and JSON bodies were): an answer echoing it wrote it
    to the case. The boundary keeps its letter case (a lowercased one splits nothing)."""
    body = _multipart("XyZ-b0undary", ("q", "rust"), ("api_token", "mp-t0ken-9f3a77c1"), ("pwd", "ab12x"))
    request = WireRequest(
        "POST", ENDPOINT, headers=[("Content-Type", "multipart/form-data; boundary=XyZ-b0undary")], body=body
    )
    assert recording._sent_secrets([Exchange(request=request)]) == ["ab12x", "mp-t0ken-9f3a77c1"]
    answer = Exchange(
        request=request,
        status=200,
        headers={"Content-Type": "application/json"},
        body=bytearray(b'{"echo": "mp-t0ken-9f3a77c1", "pwd": "ab12x", "q": "rust"}'),
        complete=True,
    )
    redactor = recording._redactor_for(Settings(), [answer], ())
    written = recording._response_meta(answer, redactor, "response")[1]
    assert written == b'{"echo": "<redacted>", "pwd": "<redacted>", "q": "rust"}'
    # the body itself is not stored (replay does not match it), as before
    assert recording._request_body(request, redactor, "request") == {}


@pytest.mark.parametrize(
    "content_type",
    [
        "multipart/form-data",  # no boundary
        "multipart/form-data; boundary=other",  # a boundary the body does not use
        "multipart/form-data; boundary=XyZ\r\nX-Injected: 1",  # no header of ours
    ],
)
def test_a_multipart_body_that_does_not_split_gives_no_secret(content_type):
    body = _multipart("XyZ", ("api_token", "mp-t0ken-9f3a77c1"))
    request = WireRequest("POST", ENDPOINT, headers=[("Content-Type", content_type)], body=body)
    assert recording._sent_secrets([Exchange(request=request)]) == []


def test_a_multipart_body_beyond_the_bound_is_not_parsed(monkeypatch):
    monkeypatch.setattr(recording, "MAX_MULTIPART_BYTES", 64)
    body = _multipart("XyZ", ("api_token", "mp-t0ken-9f3a77c1"))
    request = WireRequest("POST", ENDPOINT, headers=[("Content-Type", "multipart/form-data; boundary=XyZ")], body=body)
    assert len(body) > 64 and recording._sent_secrets([Exchange(request=request)]) == []


def test_a_multipart_part_named_in_rfc_2231_form_is_read_by_its_name():
    body = b"--XyZ\r\nContent-Disposition: form-data; name*=UTF-8''api%5Ftoken\r\n\r\nmp-t0ken-9f3a77c1\r\n--XyZ--\r\n"
    request = WireRequest("POST", ENDPOINT, headers=[("Content-Type", "multipart/form-data; boundary=XyZ")], body=body)
    assert recording._sent_secrets([Exchange(request=request)]) == ["mp-t0ken-9f3a77c1"]
