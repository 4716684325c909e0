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
WORD = "hunter"  # a short secret that reads as a word: never looked for in prose


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
    """Only the attribute's whole value: ``title="the hunter key"`` is prose."""
    redactor = recording.Redactor([], whole=[SHORT, WORD])
    page = b'<a title="the hunter key" class="ab12xy">x</a>'
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


@pytest.mark.parametrize(
    "spelt",
    [
        "tok&amp;#x2F;en&amp;plus;9f3a77c1",  # a reference escaped again by HTML (double escaping)
        "tok\\u0026#47;en\\u0026#43;9f3a77c1",  # a reference in JSON escaping '&' (Go's encoder)
        "tok&#37;2Fen&#x25;2B9f3a77c1",  # a percent escape whose '%' is an HTML reference
        "tok\\u00252Fen%2B9f3a77c1",  # ... or JSON-escaped
    ],
)
def test_a_reference_or_a_percent_escape_inside_another_escape_is_redacted(spelt):
    redactor = recording.Redactor(["tok/en+9f3a77c1"])
    assert redactor.text("[%s]" % spelt, "body") == "[<redacted>]"


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
    "\\u002f" * 4096,
    "%252F" * 4096,
    "ab12" * 4096,
    "&amp;#" * 4096,
    "\\u0026#0" * 4096,
    "&#37;25" * 4096,
    "%26" + "a" * 16384,
    "\\u0026a%3D" * 4096,
    "%3Fab=%3D" * 4096,
]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_redacting_takes_linear_time(text):
    """The redactor's patterns read a recorded body (upstream input): 16 times the text (from
    64 KB and more) takes about 16 times as long, not 256 times (the best of three timings of the small size, of one
    of the large one and of three more when that one is over, in CPU time: other processes' load does not count)."""
    redactor = recording.Redactor(["tok/en+9f3a77c1", "a&b&c&d&e"], whole=[SHORT, "x/y=z"])

    def best(sample: str, tries: int) -> float:
        timings = []
        for _ in range(tries):
            started = time.process_time()
            redactor.text(sample, "t")
            timings.append(time.process_time() - started)
        return min(timings)

    small, large = best(text * 4, 3), best(text * 64, 1)
    if large >= max(small, 2e-3) * 64:  # timed again before failing: a preempted run is no quadratic one
        large = best(text * 64, 3)
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
    redactor = recording.Redactor([], whole=[WORD])
    for text in ("/v1/%sy/s" % WORD, "/v1/x%s/s" % WORD, "/v1/%s.html" % WORD, "and/or %s" % WORD):
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
    answer = '{"echo": "%s", "note": "the x%sy key"}'
    stored = _stored(gzip.compress((answer % (SHORT, SHORT)).encode(encoding)), [SHORT])
    assert stored[:2] == b"\x1f\x8b"  # still gzip: the backend decompresses it itself
    assert gzip.decompress(stored) == (answer % ("<redacted>", SHORT)).encode(encoding)


def test_a_short_secret_in_compressed_markup_is_redacted_where_it_stands_whole():
    page = '<input value="%s"><a href="/v1/%s/s">the %s key</a>' % ((WORD,) * 3)
    stored = _stored(gzip.compress(page.encode()), [WORD])
    assert (
        gzip.decompress(stored)
        == ('<input value="<redacted>"><a href="/v1/<redacted>/s">the %s key</a>' % WORD).encode()
    )


def test_compressed_content_that_is_no_json_keeps_its_quoted_words():
    text = b'he said "%s" twice' % WORD.encode()
    body = gzip.compress(text)
    assert _stored(body, [WORD]) == body


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


# -- 4. a short secret in prose: the length and shape rule ----------------------------------------


def _redactor(settings: Settings, sent: str = "") -> recording.Redactor:
    """The redactor ``record`` builds for ``settings`` and a request sending ``sent`` as its session token."""
    url = "https://api.example/s?q=rust" + ("&session_token=" + sent if sent else "")
    return recording._redactor_for(settings, [Exchange(request=WireRequest("GET", url))], ())


def _keyed(key: str) -> Settings:
    return Settings(providers={"brave": {"api_key": key}})


PROSE = "the %s key, %%2F%s, %s. (x%sy) %sz"


def test_a_short_sent_secret_that_reads_as_no_word_is_redacted_in_prose_as_a_whole_token():
    """``the ab12x key``: a short token (a letter and a digit) the answer quotes in a sentence was
    written as it came when sent."""
    redactor = _redactor(Settings(), sent=SHORT)
    text = PROSE % ((SHORT,) * 5)
    expected = "the <redacted> key, %2F<redacted>, <redacted>. (xab12xy) ab12xz"
    assert redactor.text(text, "body") == expected
    assert redactor.body(text.encode(), "body") == expected.encode()


@pytest.mark.parametrize("word", ["admin", "Secret", "HUNTER", "20245"])
def test_a_short_sent_secret_that_reads_as_a_word_is_kept_in_prose_and_redacted_where_it_stands_whole(word):
    """A value sent as ``pw=admin`` replaced in every ``administrator`` of a page would corrupt the recording."""
    redactor = _redactor(Settings(), sent=word)
    prose = "the %s panel for %sistrators, %s." % (word, word, word)
    assert redactor.text(prose, "body") == prose
    standing = '{"a": "%s", "b": "/v1/%s/s?pw=%s"}' % (word, word, word)
    assert redactor.body(standing.encode(), "body", json_body=True) == (
        b'{"a": "<redacted>", "b": "/v1/<redacted>/s?pw=<redacted>"}'
    )


def test_a_short_token_after_a_json_escape_is_a_whole_token():
    """``"line\\nab12x"``: JSON's line break before the token ends in a letter, yet the token stands alone."""
    redactor = _redactor(Settings(), sent=SHORT)
    for escape in ("\\n", "\\t", "\\r", "\\u002F"):
        assert redactor.text('{"a": "line%s%s"}' % (escape, SHORT), "body") == '{"a": "line%s<redacted>"}' % escape


@pytest.mark.parametrize("word", ["admin", "20245", SHORT])
def test_a_short_setting_is_redacted_everywhere_inside_words_too(word):
    """A setting is the user's own credential: a leak cannot be taken back, a corrupted word replays."""
    redactor = _redactor(_keyed(word))
    prose = "the %s panel for %sistrators, x%sy." % (word, word, word)
    assert redactor.text(prose, "body") == "the <redacted> panel for <redacted>istrators, x<redacted>y."


def test_a_long_setting_is_still_redacted_inside_other_text():
    redactor = _redactor(_keyed("k3y-9f3a77c1"))
    assert redactor.text("xk3y-9f3a77c1y", "body") == "x<redacted>y"


def test_a_setting_under_4_characters_is_not_looked_for():
    redactor = _redactor(_keyed("a1b"))
    assert redactor.text("?key=a1b /a1b/ the a1b", "body") == "?key=a1b /a1b/ the a1b"


# -- a UTF-16 or UTF-32 body: every rule, as in UTF-8 ---------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_a_wide_body_is_searched_as_a_utf8_one_is(encoding):
    """A UTF-16 or UTF-32 body was searched for a long secret as it is or URL-encoded only, and for
    a short one as a whole JSON string only: an attribute's value, a path segment, a token in prose,
    and a long one JSON-escaped or as an HTML reference were written as they came."""
    redactor = recording.Redactor(["tok/en+9f3a77c1"], whole=[SHORT])
    text = '<input value="%s"><a href="/v1/%s/s">the %s key</a> tok\\/en&#43;9f3a77c1 x%sy' % ((SHORT,) * 4)
    expected = '<input value="<redacted>"><a href="/v1/<redacted>/s">the <redacted> key</a> <redacted> x%sy' % SHORT
    assert redactor.body(text.encode(encoding), "body") == expected.encode(encoding)


def test_bytes_that_are_no_wide_text_are_searched_as_before():
    """Zero bytes that decode as no UTF-16 (a lone surrogate): only the wide forms are looked for."""
    redactor = recording.Redactor(["tok/en+9f3a77c1"])
    lone = "x".encode("utf-16-le") + b"\x00\xd8"
    body = lone + "tok/en+9f3a77c1 x".encode("utf-16-le")
    assert redactor.body(body, "body") == lone + "<redacted> x".encode("utf-16-le")


# -- a URL's field value behind an escaped separator ----------------------------------------------


@pytest.mark.parametrize(
    "echo",
    [
        '{"next": "/s?q=rust\\u0026pw=%s\\u0026p=2"}',  # Go's encoder escapes '&' in every string
        '<a href="/login?to=%%2Fs%%3Fq%%3Drust%%26pw%%3D%s%%26p%%3D2">',  # a URL inside a URL's field
        "/login?to=%%2Fs%%3Fpw%%3D%s",
    ],
)
def test_a_short_secret_as_a_url_field_value_behind_an_escaped_separator_is_redacted(echo):
    """A word-like short secret (never looked for in prose) as a field's value of a URL whose ``&``,
    ``?`` and ``=`` are escaped: only a plain separator was known."""
    redactor = recording.Redactor([], whole=[WORD])
    assert redactor.text(echo % WORD, "body") == echo % "<redacted>"
    assert redactor.text(echo % (WORD + "s"), "body") == echo % (WORD + "s")


# -- a short token in prose: found by its spellings first -----------------------------------------

#: The token form as it was: its left edge as lookbehinds leading the pattern, tried at every position.
LOOKBEHIND_FIRST = (
    r"(?:(?<![^\W_])|(?<=%%[0-9A-Fa-f]{2})|(?<=%%25[0-9A-Fa-f]{2})|(?<=\\u[0-9A-Fa-f]{4})|(?<=\\[bfnrt]))"
    r"(?:%s)(?![^\W_])"
)


@pytest.mark.parametrize(
    ("tokens", "text"),
    [
        ([SHORT, "k-9x"], PROSE % ((SHORT,) * 5) + " k-9x, xk-9x, &#97;b12x, \\u0061b12x, %2Fk-9x, _k-9x_ k-9x"),
        (["a-a-a"], "ba-a-a-a, a-a-a-a-a b a-a-a"),  # one found after a letter, another starting inside it
        (["a1a1"], "ba1a1a1 a1a1a1a1 %41a1a1 a%311a1"),
        (["k-9x"], "é" + "k-9x " * 3 + "\\nk-9x \\\\k-9x ١k-9x k-9x١"),  # a letter and a digit of other scripts
    ],
)
def test_the_token_form_replaces_what_the_lookbehinds_first_replaced(tokens, text):
    """Its left edge, checked where a spelling is found, keeps what the lookbehinds kept: the search
    goes on from the next character, so a token starting inside a refused one is still found."""
    lookbehind_first = recording.re.compile(LOOKBEHIND_FIRST % "|".join(recording._spelt(s) for s in tokens))
    found = recording._short_forms(tokens, "|".join(recording._spelt(s) for s in tokens))[0][0]
    assert found.sub("<redacted>", text) == lookbehind_first.sub("<redacted>", text)
    assert found.sub("<redacted>", text) != text


def test_a_short_secret_as_a_json_string_is_found_from_its_quote_and_not_after_an_escape():
    """The JSON-string form now begins with its quote (a lookbehind first was tried at every position
    of a body: 35 times a literal search's time, ``bench/redaction.py``); it still leaves a string's
    escaped quote alone."""
    redactor = recording.Redactor([], whole=[SHORT, "kilo"])
    assert redactor.text('["kilo", "\\"kilo\\"", x"kilo", "kilos"]', "b", json_text=True) == (
        '["<redacted>", "\\"kilo\\"", x"<redacted>", "kilos"]'
    )
    assert redactor.text('"kilo"', "b", json_text=True) == '"<redacted>"'  # at the text's start
