"""`websearch-sync record` and `verify`: record live answers from a local server
(endpoints pointed at 127.0.0.1 through the environment), replay them offline,
detect drift, keep secrets out of every written file."""

import gzip
import json
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from faults import head, refused_port, respond
from fixture_backends import (
    CAPTCHA_PAGE,
    PAGE_RESULTS,
    SESSION_HEADER,
    HtmlTestBackend,
    KeyedJsonBackend,
    json_api_body,
    query_of,
    result_page,
)
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.backends import HtmlEngine, attribute, elements, has_class, parse_fragment, text_of
from websearch_sync.cli import main
from websearch_sync.client.clock import SYSTEM_CLOCK
from websearch_sync.contract.cases import ReplayClock, compare, discover, load_golden, outcome_of, run_case
from websearch_sync.contract.recording import case_name_for, record_case
from websearch_sync.engine.registry import register, unregister
from websearch_sync.secrets import is_secret_name as is_secret_field

API_KEY = "sk-live-7f3a9c2e51b04d8e"
COOKIE_VALUE = "sid-93af0c11e2d84b7c"


@pytest.fixture
def backends():
    register(HtmlTestBackend)
    register(KeyedJsonBackend)
    yield
    unregister(HtmlTestBackend.name, missing_ok=True)  # a test may have unregistered it
    unregister(KeyedJsonBackend.name, missing_ok=True)


@pytest.fixture
def html_server(backends, monkeypatch):
    """testhtml's endpoint on a local server answering the results page."""
    with FaultServer({"/html": respond(200, result_page(PAGE_RESULTS))}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTHTML", server.url("/html"))
        yield server


def read_meta(folder: Path, name: str) -> dict:
    return json.loads((folder / (name + ".meta.json")).read_text(encoding="utf-8"))


# -- record -> verify round trip ---------------------------------------------------------------------


def test_record_writes_body_meta_and_golden_and_verify_passes(html_server, tmp_path, capsys):
    live = ws.search("rust async", backend="testhtml", max_results=3, settings=ws.Settings.from_env())
    html_server.requests.clear()

    assert main(["record", "testhtml", "rust async", "--fixtures", str(tmp_path), "-n", "3"]) == 0
    out = capsys.readouterr().out
    assert "recorded testhtml/rust-async: live answer 3 items" in out
    folder = tmp_path / "testhtml"
    assert sorted(p.name for p in folder.iterdir()) == [
        "rust-async.expected.json",
        "rust-async.html",
        "rust-async.meta.json",
    ]
    assert len(html_server.requests) == 1  # one live request
    assert (folder / "rust-async.html").read_bytes() == result_page(PAGE_RESULTS)

    assert_recorded_meta(read_meta(folder, "rust-async"), html_server)

    golden = json.loads((folder / "rust-async.expected.json").read_text(encoding="utf-8"))
    assert golden == outcome_of(live)  # the golden is what the live search returned

    assert main(["verify", "--fixtures", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "PASS   testhtml/rust-async  3 items" in out
    assert out.rstrip().endswith(
        "1 case: 1 PASS, 0 NEW, 0 DRIFT, 0 ERROR\nby provenance: 1 recorded, 0 provider-docs, 0 synthetic"
    )


def assert_recorded_meta(meta, html_server):
    """What ``record`` wrote about the exchange: the request as the backend built it, the answer, the provenance."""
    assert meta["backend"] == "testhtml" and meta["query"] == "rust async" and meta["max_results"] == 3
    assert meta["request"] == {
        "method": "GET",
        "url": html_server.url("/html"),
        "query_params": {"q": "rust async", "kl": "wt-wt"},
        "headers": {"Referer": "https://search.example/"},  # what the backend sent; transport defaults left out
    }
    assert meta["response"]["status"] == 200 and meta["response"]["body"] == "rust-async.html"
    assert meta["response"]["headers"]["Content-Type"] == "text/html; charset=utf-8"
    assert meta["settings"] == {"endpoints": {"testhtml": html_server.url("/html")}}
    assert meta["library_version"] == ws.__version__
    assert meta["captured_at"].endswith("+00:00")
    assert meta["provenance"] == {
        "status": "recorded",
        "form": "complete",
        "capture_date": meta["captured_at"][:10],
        "recorded_by": "websearch-sync record",
    }


def test_a_recorded_case_replays_without_the_server(html_server, tmp_path):
    result = record_case(
        "testhtml", "rust async", fixtures_dir=tmp_path, name="offline", settings=ws.Settings.from_env()
    )
    assert result.ok and result.live_diff == []
    (case,) = discover(tmp_path)
    before = len(html_server.requests)
    assert run_case(case).status == "PASS"
    assert len(html_server.requests) == before  # replayed, not re-fetched


def test_the_replay_still_checks_the_request(html_server, tmp_path):
    record_case("testhtml", "rust async", fixtures_dir=tmp_path, name="c", settings=ws.Settings.from_env())
    meta_path = tmp_path / "testhtml" / "c.meta.json"
    meta = json.loads(meta_path.read_text())
    meta["request"]["query_params"]["kl"] = "us-en"  # the recording says the backend sent another region
    meta_path.write_text(json.dumps(meta))
    (case,) = discover(tmp_path)
    result = run_case(case)
    assert result.status == "ERROR" and result.diff[0].startswith("request mismatch: ")


def test_a_case_of_a_backend_not_registered_says_so(html_server, tmp_path):
    """A plugin that failed to load (or a mistyped backend folder): before, its cases read
    "request mismatch: expected 1 request(s), the backend sent 0"."""
    record_case("testhtml", "rust async", fixtures_dir=tmp_path, name="c", settings=ws.Settings.from_env())
    unregister("testhtml")
    (case,) = discover(tmp_path)
    result = run_case(case)
    assert result.status == "ERROR" and result.diff[0].startswith("unknown backend 'testhtml'"), result.diff


class _KitEngine(HtmlEngine):
    """A keyless engine made of the public kit: it sends a browser's ``Accept`` (issue 34's plugin author)."""

    name = "testkit_html"
    default_endpoint = "http://127.0.0.1:9/search"
    region_start = ('id="results"',)

    def query(self, params):
        return {"q": params.full_query}

    def items(self, markup, params):
        links = [a for a in elements(parse_fragment(markup)) if has_class(a, "result__a")]
        return [{"title": text_of(a), "url": attribute(a, "href"), "snippet": ""} for a in links]


class _KitFormEngine(_KitEngine):
    """The same engine posting its form (a browser's ``Cache-Control`` differs between the wires)."""

    name = "testkit_form"
    method = "POST"


@pytest.mark.parametrize("engine", [_KitEngine, _KitFormEngine])
@pytest.mark.parametrize("impersonate", ["off", "chrome"])
def test_a_keyless_engine_recorded_on_either_wire_replays_on_both(engine, impersonate, tmp_path, monkeypatch, capsys):
    """``record`` without the browser extra (the requests wire) wrote the profile-owned ``Accept``
    the browser wire never sends, so the case it had just written did not replay (exit 1)."""
    register(engine)
    try:
        with FaultServer({"/search": respond(200, result_page(PAGE_RESULTS))}) as server:
            monkeypatch.setenv("WEB_SEARCH_ENDPOINT_%s" % engine.name.upper(), server.url("/search"))
            monkeypatch.setenv("WEB_SEARCH_IMPERSONATE", impersonate)
            assert main(["record", engine.name, "rust async", "--fixtures", str(tmp_path)]) == 0, capsys.readouterr()
        assert main(["verify", "--fixtures", str(tmp_path)]) == 0, capsys.readouterr().out
    finally:
        unregister(engine.name)


def test_gzip_bodies_are_stored_decoded(backends, tmp_path, monkeypatch):
    page = result_page(PAGE_RESULTS[:2])

    def gzipped(conn, request, server):
        payload = gzip.compress(page)
        conn.sendall(
            head(
                200,
                {
                    "Content-Type": "text/html; charset=utf-8",
                    "Content-Encoding": "gzip",
                    "Content-Length": str(len(payload)),
                    "Connection": "close",
                },
            )
            + payload
        )

    with FaultServer({"/html": gzipped}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTHTML", server.url("/html"))
        result = record_case("testhtml", "zipped", fixtures_dir=tmp_path, settings=ws.Settings.from_env())
    meta = read_meta(tmp_path / "testhtml", "zipped")
    assert (tmp_path / "testhtml" / "zipped.html").read_bytes() == page
    assert "Content-Encoding" not in meta["response"]["headers"]
    assert result.ok and len(load_golden(result.verdict.case)["items"]) == 2


def test_case_names_come_from_the_query_or_name_option(html_server, tmp_path, capsys):
    assert case_name_for("Python requests: timeout?") == "python-requests-timeout"
    assert case_name_for("北京 天气").startswith("case-")
    assert main(["record", "testhtml", "rust async", "--fixtures", str(tmp_path), "--name", "../evil"]) == 2
    assert "InvalidInput/bad_case_name" in capsys.readouterr().err
    assert not (tmp_path / "evil.meta.json").exists()


def test_record_refuses_to_overwrite_without_force(html_server, tmp_path, capsys):
    argv = ["record", "testhtml", "rust async", "--fixtures", str(tmp_path), "--name", "one"]
    assert main(argv) == 0
    assert main(argv) == 2
    assert "error: InvalidInput/case_exists: " in capsys.readouterr().err
    assert main(argv + ["--force"]) == 0
    assert sorted(p.name for p in (tmp_path / "testhtml").iterdir()) == [
        "one.expected.json",
        "one.html",
        "one.meta.json",
    ]


# -- errors while recording -------------------------------------------------------------------------


def test_an_error_answer_is_not_recorded_unless_asked(backends, tmp_path, monkeypatch, capsys):
    with FaultServer({"/html": respond(200, CAPTCHA_PAGE)}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTHTML", server.url("/html"))
        assert main(["record", "testhtml", "blocked", "--fixtures", str(tmp_path)]) == 3
        err = capsys.readouterr().err
        assert err.startswith("error: WebBlocked/captcha_required: ")
        assert "--allow-error" in err
        assert not (tmp_path / "testhtml").exists()

        assert main(["record", "testhtml", "blocked", "--fixtures", str(tmp_path), "--allow-error"]) == 0
    assert "live answer error WebBlocked/captcha_required (HTTP 200)" in capsys.readouterr().out
    golden = json.loads((tmp_path / "testhtml" / "blocked.expected.json").read_text())
    assert golden == {
        "error": {"type": "WebBlocked", "detail_code": "captcha_required", "retryable": False, "status": 200}
    }
    assert main(["verify", "--fixtures", str(tmp_path)]) == 0


def test_a_retryable_error_replays_with_one_request(backends, tmp_path, monkeypatch):
    with FaultServer({"/html": respond(503, b"<html>down</html>")}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTHTML", server.url("/html"))
        result = record_case(
            "testhtml", "down", fixtures_dir=tmp_path, settings=ws.Settings.from_env(), allow_error=True
        )
        assert len(server.requests) == 1  # recording sends exactly one request (no retries)
    assert result.ok, result.verdict.diff
    assert result.verdict.outcome["error"]["type"] == "BadGateway"


def test_nothing_is_written_when_no_answer_came(backends, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTHTML", "http://127.0.0.1:%d/html" % refused_port())
    assert main(["record", "testhtml", "q", "--fixtures", str(tmp_path), "--allow-error"]) == 4
    assert capsys.readouterr().err.startswith("error: NetworkError/connection_refused: ")
    assert not tmp_path.joinpath("testhtml").exists()


def test_an_answer_from_this_machine_asks_whether_it_is_a_stand_in(html_server, tmp_path, capsys):
    """A plugin author's first cases come from a stand-in on 127.0.0.1 (the service does not answer them
    yet): record wrote "recorded", as of a live service's answer, without a word (the docs said to edit
    it by hand). Only the author knows what answered, so record asks; a real service's case has no note."""
    assert main(["record", "testhtml", "rust async", "--fixtures", str(tmp_path)]) == 0
    meta = tmp_path / "testhtml" / "rust-async.meta.json"
    host = urlsplit(html_server.url("/html")).hostname
    assert capsys.readouterr().err == (
        'note: the answer came from %s, this machine; if it is a stand-in you wrote, the case is not "recorded":'
        ' write "provenance": {"status": "synthetic", "why": "..."} in %s\n' % (host, meta)
    )
    assert main(["record", "stub", "hello world", "--fixtures", str(tmp_path)]) == 0  # no request: no note
    assert capsys.readouterr().err == ""


def test_a_missing_key_fails_before_any_request(backends, tmp_path, capsys):
    assert main(["record", "testkeyed", "q", "--fixtures", str(tmp_path)]) == 3
    assert capsys.readouterr().err.startswith("error: AuthError/missing_api_key: ")


def test_recording_the_offline_stub(tmp_path, capsys):
    assert main(["record", "stub", "hello world", "--fixtures", str(tmp_path)]) == 0
    meta = read_meta(tmp_path / "stub", "hello-world")
    assert "request" not in meta and "response" not in meta
    assert meta["provenance"]["status"] == "synthetic" and meta["provenance"]["why"]
    golden = json.loads((tmp_path / "stub" / "hello-world.expected.json").read_text())
    assert golden == outcome_of(ws.search("hello world", backend="stub"))  # recorded as named: no hint to set it
    assert main(["verify", "--fixtures", str(tmp_path), "--backend", "stub"]) == 0


# -- redaction --------------------------------------------------------------------------------------


def cookie_redirect(seen):
    """A 302 to /api (same query) that sets a session cookie."""

    def start(conn, request, server):
        seen.append(request)
        location = "/api?" + request.path.split("?", 1)[1]
        conn.sendall(
            head(
                302,
                {
                    "Location": location,
                    "Set-Cookie": "sid=%s; Path=/; HttpOnly" % COOKIE_VALUE,
                    "Content-Length": "0",
                    "Connection": "close",
                },
            )
        )

    return start


def key_echo(seen):
    """A ``testkeyed`` answer that echoes the key of the query string in its body."""

    def api(conn, request, server):
        seen.append(request)
        key = query_of(request.path)["api_key"][0]
        body = json_api_body(["https://a.example/1", "https://b.example/2"], echo="key=%s" % key)
        conn.sendall(
            head(
                200,
                {
                    "Content-Type": "application/json",
                    "Content-Length": str(len(body)),
                    "Connection": "close",
                    "X-Request-Id": "req-42",
                },
            )
            + body
        )

    return api


def test_no_secret_reaches_any_written_file(backends, tmp_path, monkeypatch):
    """The key travels in two headers, the query string and is echoed in the body; a cookie is set on a
    redirect and sent back; a credential header carries a value the settings do not know."""
    seen = []
    with FaultServer({"/start": cookie_redirect(seen), "/api": key_echo(seen)}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTKEYED", server.url("/start"))
        monkeypatch.setenv("TESTKEYED_API_KEY", API_KEY)
        assert main(["record", "testkeyed", "secret handling", "--fixtures", str(tmp_path), "-n", "2"]) == 0

    # the live exchange really carried every secret ...
    assert (
        seen[0].headers["authorization"] == "Bearer " + API_KEY and seen[0].headers["x-subscription-token"] == API_KEY
    )
    assert COOKIE_VALUE in seen[1].headers.get("cookie", "")
    # ... and none of them reached the disk
    assert_no_secret_written(tmp_path / "testkeyed")
    assert_redacted_exchanges(read_meta(tmp_path / "testkeyed", "secret-handling"))
    assert b'"echo": "key=<redacted>"' in (tmp_path / "testkeyed" / "secret-handling.json").read_bytes()

    # the redacted case still replays, without the key in the environment
    monkeypatch.delenv("TESTKEYED_API_KEY")
    (case,) = discover(tmp_path)
    result = run_case(case)
    assert result.status == "PASS", result.diff
    assert [i["url"] for i in result.outcome["items"]] == ["https://a.example/1", "https://b.example/2"]
    assert result.outcome["request_id"] == "req-42"


def assert_no_secret_written(folder):
    """Three JSON files (meta, body, golden), none holding the key, the cookie or the session header's value."""
    written = list(folder.iterdir())
    assert {p.suffix for p in written} == {".json"} and len(written) == 3
    for path in written:
        data = path.read_bytes()
        for secret in (API_KEY, COOKIE_VALUE, SESSION_HEADER[1]):
            assert secret.encode() not in data, "%s leaked into %s" % (secret, path.name)


def assert_redacted_exchanges(meta):
    """Both exchanges recorded, secrets as ``<redacted>``, cookies left out."""
    first, second = meta["exchanges"]
    assert first["response"]["status"] == 302 and "Set-Cookie" not in first["response"]["headers"]
    assert first["request"]["query_params"] == {"q": "secret handling", "count": "2", "api_key": "<redacted>"}
    assert first["request"]["headers"] == {
        "Authorization": "Bearer <redacted>",
        "X-Subscription-Token": "<redacted>",
        SESSION_HEADER[0]: "<redacted>",
        "Accept": "application/json",
    }
    assert "Cookie" not in second["request"]["headers"]
    assert second["response"]["headers"]["X-Request-Id"] == "req-42"
    assert meta["settings"]["providers"] == {"testkeyed": {"api_key": "<redacted>"}}
    assert "request" not in meta and meta["redacted"]


def test_credentials_in_an_endpoint_url_are_redacted_and_the_case_replays(backends, tmp_path):
    with FaultServer({"/html": respond(200, result_page(PAGE_RESULTS))}) as server:
        endpoint = server.url("/html").replace("http://", "http://reader:pw-93af0c11e2@")
        result = record_case(
            "testhtml", "q", fixtures_dir=tmp_path, settings=ws.Settings(endpoints={"testhtml": endpoint})
        )
        assert server.requests[0].headers["authorization"].startswith("Basic ")  # requests sent the userinfo
    assert result.ok, result.verdict.diff
    for path in (tmp_path / "testhtml").iterdir():
        assert b"pw-93af0c11e2" not in path.read_bytes() and b"reader" not in path.read_bytes()
    meta = read_meta(tmp_path / "testhtml", "q")
    assert meta["request"]["url"] == server.url("/html").replace("http://", "http://redacted:redacted@")
    # the credential the header sent is redacted wherever it appears, the header's scheme kept
    assert meta["request"]["headers"]["Authorization"] == "Basic <redacted>"


def test_a_redacted_header_must_still_be_sent(backends, tmp_path, monkeypatch):
    body = json_api_body(["https://a.example/1"])
    with FaultServer({"/api": respond(200, body, content_type="application/json")}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTKEYED", server.url("/api"))
        monkeypatch.setenv("TESTKEYED_API_KEY", API_KEY)
        record_case("testkeyed", "q", fixtures_dir=tmp_path, settings=ws.Settings.from_env())
    meta_path = tmp_path / "testkeyed" / "q.meta.json"
    meta = json.loads(meta_path.read_text())
    meta["request"]["headers"]["X-Api-Key"] = "<redacted>"  # a credential header our backend does not send
    meta_path.write_text(json.dumps(meta))
    (case,) = discover(tmp_path)
    assert run_case(case).status == "ERROR"


@pytest.mark.parametrize(
    "name, secret",
    [
        ("Authorization", True),
        ("X-Subscription-Token", True),
        ("api_key", True),
        ("apiKey", True),
        ("X-API-KEY", True),
        ("access_token", True),
        ("Cookie", True),
        ("client_secret", True),
        ("password", True),
        ("q", False),
        ("keyword", False),
        ("keywords", False),
        ("Content-Type", False),
        ("count", False),
        ("Referer", False),
    ],
)
def test_secret_field_names(name, secret):
    assert is_secret_field(name) is secret


# -- drift ------------------------------------------------------------------------------------------


def test_a_modified_page_is_reported_as_drift_with_a_diff(html_server, tmp_path, capsys):
    assert main(["record", "testhtml", "rust async", "--fixtures", str(tmp_path), "--name", "page"]) == 0
    golden = json.loads((tmp_path / "testhtml" / "page.expected.json").read_text())
    body_path = tmp_path / "testhtml" / "page.html"
    page = body_path.read_text(encoding="utf-8")
    # upstream changes: the Tokio result disappears, a title is reworded, a new result appears
    changed = page.replace(
        page[
            page.index('<div class="result"><h2><a class="result__a" href="https://tokio.rs/">') : page.index(
                '<div class="result"><h2><a class="result__a" href="https://doc.rust-lang.org'
            )
        ],
        "",
    )
    changed = changed.replace("Rust <b>async</b> book", "The Rust Async Book")
    changed = changed.replace(
        '<div id="results">\n',
        '<div id="results">\n<div class="result"><h2><a class="result__a" '
        'href="https://without.boats/">Without boats</a></h2><a class="result__snippet">Essays.</a></div>\n',
    )
    assert changed != page
    body_path.write_text(changed, encoding="utf-8")
    capsys.readouterr()

    assert main(["verify", "--fixtures", str(tmp_path)]) == 1
    assert_drift_report(capsys.readouterr().out)
    assert (
        json.loads((tmp_path / "testhtml" / "page.expected.json").read_text()) == golden
    )  # untouched without --update

    assert main(["verify", "--fixtures", str(tmp_path), "--update"]) == 0
    out = capsys.readouterr().out
    assert "- removed #2 https://tokio.rs/" in out  # the diff is shown before re-pinning
    assert "updated golden " in out and "1 golden updated" in out
    assert main(["verify", "--fixtures", str(tmp_path)]) == 0
    assert "PASS   testhtml/page" in capsys.readouterr().out


def assert_drift_report(out):
    """``verify``'s report of the changed page: one removed, one added, one changed and moved."""
    assert out.startswith("DRIFT  testhtml/page  3 items (golden: 3 items)\n")
    assert "items: 3 -> 3 (1 removed, 1 added, 1 changed)" in out
    assert '- removed #2 https://tokio.rs/  "Tokio - An asynchronous Rust runtime"' in out
    assert '+ added   #1 https://without.boats/  "Without boats"' in out
    assert "~ changed https://rust-lang.github.io/async-book/ title:" in out
    assert 'was "Rust async book"' in out and 'now "The Rust Async Book"' in out
    assert "~ moved   https://rust-lang.github.io/async-book/  #1 -> #2" in out
    assert "\n1 case: 0 PASS, 0 NEW, 1 DRIFT, 0 ERROR\n" in out


def test_a_page_whose_structure_changed_drifts_to_a_parse_error(html_server, tmp_path, capsys):
    record_case("testhtml", "rust async", fixtures_dir=tmp_path, name="page", settings=ws.Settings.from_env())
    body_path = tmp_path / "testhtml" / "page.html"
    body_path.write_text(body_path.read_text().replace('id="results"', 'id="links-v3"'))
    assert main(["verify", "--fixtures", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "DRIFT  testhtml/page  error WebParseError/unexpected_shape (HTTP 200) (golden: 3 items)" in out
    assert "- expected 3 items\n" in out and "+ got      error WebParseError/unexpected_shape (HTTP 200)" in out


def test_compare_lists_removed_added_and_changed_fields():
    old = {
        "items": [
            {"title": "A", "url": "https://a/", "snippet": "x", "provider": "p", "rank": 1},
            {"title": "B", "url": "https://b/", "snippet": "y", "provider": "p", "rank": 2},
        ]
    }
    new = {
        "items": [{"title": "B", "url": "https://b/", "snippet": "y2", "provider": "p", "rank": 1, "source": "S"}],
        "request_id": "r",
    }
    assert compare(old, old) == []
    assert compare(old, new) == [
        "items: 2 -> 1 (1 removed, 0 added, 1 changed)",
        '- removed #1 https://a/  "A"',
        "~ moved   https://b/  #2 -> #1",
        "~ changed https://b/ snippet:",
        '      was "y"',
        '      now "y2"',
        "~ changed https://b/ source:",
        "      was (absent)",
        '      now "S"',
        '~ request_id: null -> "r"',
    ]


# -- verify's other verdicts and failures -------------------------------------------------------------


def test_verify_reports_new_and_error_cases(html_server, tmp_path, capsys):
    record_case("testhtml", "rust async", fixtures_dir=tmp_path, name="a", settings=ws.Settings.from_env())
    record_case("testhtml", "rust async", fixtures_dir=tmp_path, name="b", settings=ws.Settings.from_env())
    (tmp_path / "testhtml" / "a.expected.json").unlink()
    (tmp_path / "testhtml" / "b.html").unlink()
    (tmp_path / "testhtml" / "c.meta.json").write_text("{not json")
    assert main(["verify", "--fixtures", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "NEW    testhtml/a  3 items\n" in out
    assert "ERROR  testhtml/b  cannot read the recording: " in out
    assert "ERROR  testhtml/c  unreadable meta file: " in out
    assert "3 cases: 0 PASS, 1 NEW, 0 DRIFT, 2 ERROR" in out
    assert main(["verify", "--fixtures", str(tmp_path), "--update"]) == 1  # errors cannot be re-pinned
    assert (tmp_path / "testhtml" / "a.expected.json").exists()


def test_verify_with_nothing_to_verify_fails(tmp_path, capsys):
    assert main(["verify", "--fixtures", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.startswith("error: InvalidInput/no_cases: ")
    assert main(["verify", "--fixtures", str(tmp_path)]) == 2
    assert main(["verify", "--backend", "nope"]) == 2


def test_a_replay_takes_its_waits_on_its_own_clock_without_sleeping(monkeypatch):
    """A two-page case waits its backend's pace between the pages: on the replay's clock, which
    moves on by the wait at once (``verify`` over the project's cases slept ~14 s otherwise)."""
    clock = ReplayClock()
    before = clock.monotonic()
    clock.sleep(30.0)
    assert clock.monotonic() - before >= 30.0
    monkeypatch.setattr(
        SYSTEM_CLOCK, "sleep", lambda seconds: pytest.fail("a replay waited %.2f s on the system clock" % seconds)
    )
    fixtures = Path(__file__).resolve().parents[2] / "fixtures"
    case = next(c for c in discover(fixtures, "bing_html") if c.name == "se-scraper__paging_pair")
    assert len(case.exchanges()) == 2
    assert run_case(case).status == "PASS"


PROJECT_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
_PROJECT_VERIFY: dict[str, tuple[int, str]] = {}


def _verify_project_fixtures(capsys) -> tuple[int, str]:
    """Exit status and output of one ``verify`` over the project's fixtures, run in the first
    test that asks (with its clean environment) and read by the others (~1 s of CPU a run).
    ``responses`` (the test extra) cannot be imported during the run, as after a plain
    ``pip install .``: the library never imports it, so the run is the same with it."""
    if "run" not in _PROJECT_VERIFY:
        with pytest.MonkeyPatch.context() as patch:
            patch.setitem(sys.modules, "responses", None)  # import responses -> ImportError
            status = main(["verify", "--fixtures", str(PROJECT_FIXTURES)])
        _PROJECT_VERIFY["run"] = (status, capsys.readouterr().out)
    return _PROJECT_VERIFY["run"]


def test_the_project_fixtures_verify_without_the_test_extra(capsys):
    """Every project case verifies, and verify replays through the library's own transport: no
    ``responses`` needed (a plain ``pip install .``): the shared run has it unimportable."""
    status, out = _verify_project_fixtures(capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[:-2] and all(line.startswith("PASS ") for line in lines[:-2])


def test_verify_counts_the_cases_by_provenance(capsys):
    kinds = [
        json.loads(path.read_text(encoding="utf-8"))["provenance"]["status"]
        for path in sorted(PROJECT_FIXTURES.glob("*/*.meta.json"))
    ]
    status, out = _verify_project_fixtures(capsys)
    assert status == 0
    assert out.splitlines()[-1] == "by provenance: %d recorded, %d provider-docs, %d synthetic" % (
        kinds.count("recorded"),
        kinds.count("provider-docs"),
        kinds.count("synthetic"),
    )
    assert len(kinds) == kinds.count("recorded") + kinds.count("provider-docs") + kinds.count("synthetic")
