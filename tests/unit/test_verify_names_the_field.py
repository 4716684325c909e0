"""A CI log of ``verify`` names the case and the field that changed: a recorded request the
request builder no longer sends said ``query parameters do not match: sent {...}, recorded {...}``
(the two whole mappings, to be compared by eye), then the same refusal again as "the search failed
first"; a meta file whose request has no ``url`` was a ``KeyError`` traceback and a DRIFT to
``internal_error``, and a ``request`` without its ``response`` a mismatch of "0 request(s) recorded"."""

import io
import json
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from websearch_sync.cli import main
from websearch_sync.contract.cases import load_case, run_case

CASE = Path(__file__).resolve().parents[2] / "fixtures" / "brave" / "brave-search-python-client__1"


def _copy(tmp_path: Path, edit) -> Path:
    """The recorded case copied under ``tmp_path`` with its meta file edited by ``edit(meta)``."""
    folder = tmp_path / "brave"
    folder.mkdir()
    for suffix in (".json", ".expected.json"):
        shutil.copy(str(CASE) + suffix, folder / (CASE.name + suffix))
    meta = json.loads(Path(str(CASE) + ".meta.json").read_text(encoding="utf-8"))
    edit(meta)
    meta_path = folder / (CASE.name + ".meta.json")
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    return meta_path


def _recorded_count(meta):
    meta["request"]["query_params"]["count"] = "20"


def test_a_changed_query_parameter_is_named(tmp_path):
    verdict = run_case(load_case(_copy(tmp_path, _recorded_count)))
    assert verdict.status == "ERROR"
    assert verdict.diff[0].endswith("(query parameter count: sent '10', recorded '20') (requests wire)"), verdict.diff
    assert len(verdict.diff) == 1, verdict.diff  # the refusal is not said twice


def _unsent_field(meta):
    meta["request"]["query_params"]["safesearch"] = "strict"


def test_a_recorded_field_no_longer_sent_is_named(tmp_path):
    verdict = run_case(load_case(_copy(tmp_path, _unsent_field)))
    assert "(query parameter safesearch: recorded 'strict', not sent)" in verdict.diff[0], verdict.diff


def test_verify_prints_the_case_and_the_field(tmp_path):
    _copy(tmp_path, _recorded_count)
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["verify", "--fixtures", str(tmp_path)]) == 1
    line = out.getvalue().splitlines()[0]
    assert line.startswith("ERROR  brave/%s  request mismatch: " % CASE.name), line
    assert "query parameter count: sent '10', recorded '20'" in line


def _no_url(meta):
    del meta["request"]["url"]


def _no_request(meta):
    del meta["request"]


def _no_response(meta):
    del meta["response"]


def _set(part, key, value):
    def edit(meta):
        meta[part][key] = value

    return edit


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        # each was a KeyError or AttributeError traceback and a DRIFT or NEW verdict of internal_error
        (
            _set("response", "headers", [["Content-Type", "application/json"]]),
            "response.headers must be an object or null, not list",
        ),
        (_set("request", "headers", ["Accept"]), "request.headers must be an object, not list"),
        (_set("request", "query_params", ["q"]), "request.query_params must be an object, not list"),
        (_set("response", "status", 99999), "response.status must be in 100..599, not 99999"),
        (_set("response", "body", 5), "response.body must be a string or null, not int"),
        (_set("response", "status", "OK"), "response.status must be an integer (or its digits), not 'OK'"),
        (_set("response", "status", 200.5), "response.status must be an integer (or its digits), not 200.5"),
        (_set("response", "status", True), "response.status must be an integer (or its digits), not True"),
        (
            _set("response", "exception", "NoSuchError"),
            "response.exception 'NoSuchError' names no requests.exceptions class",
        ),
        (_no_url, 'malformed meta file: request must be an object with the URL requested ("url")'),
        (_no_request, 'malformed meta file: request must be an object with the URL requested ("url")'),
        (_no_response, 'malformed meta file: a "request" without the "response" recorded for it'),
        (
            _set("response", "headers", {"Content-Length": 5}),
            "response.headers.Content-Length must be a string, not int",
        ),
        # a URL urlsplit refuses: a ValueError out of the replay's address check, an internal_error verdict
        (
            _set("request", "url", "https://[api.search.brave.com/res/v1/web/search"),
            "request.url 'https://[api.search.brave.com/res/v1/web/search' is no URL (Invalid IPv6 URL)",
        ),
    ],
)
def test_a_recorded_exchange_of_the_wrong_shape_is_a_malformed_meta_file(tmp_path, edit, said):
    verdict = run_case(load_case(_copy(tmp_path, edit)))
    assert (verdict.status, verdict.diff) == (
        "ERROR",
        [said if said.startswith("malformed") else "malformed meta file: " + said],
    )


def test_replay_fixtures_says_why_a_broken_case_cannot_answer(tmp_path):
    """It listed the query among the "recorded queries" of the error saying none was recorded."""
    import websearch_sync as ws
    from websearch_sync.testing import replay_fixtures

    _copy(tmp_path, _no_url)
    with replay_fixtures(tmp_path, backends="brave"), pytest.raises(ws.WebProviderError) as caught:
        ws.search("hello world", backend="brave", max_results=10)
    assert "case brave/%s cannot answer: malformed meta file: request must be" % CASE.name in caught.value.message


def _headers_null(meta):
    meta["response"]["headers"] = None


def _body_inline_null(meta):
    meta["response"]["body_text"] = Path(str(CASE) + ".json").read_text(encoding="utf-8")
    meta["response"]["body"] = None


@pytest.mark.parametrize(
    "edit",
    [_set("response", "status", "200"), _set("response", "status", 200.0), _headers_null, _body_inline_null],
    ids=["status-digits", "status-integral-float", "headers-null", "body-null"],
)
def test_a_shape_the_replay_always_read_still_replays(tmp_path, edit):
    """The shape checks refused what the replay had read all along (``int(status)``, ``headers or
    {}``, a ``null`` body as the inline ``body_text``): a case written that way turned ERROR."""
    verdict = run_case(load_case(_copy(tmp_path, edit)))
    assert verdict.status == "PASS", verdict.diff


def _api_key(value):
    def edit(meta):
        meta["settings"] = {"providers": {"brave": {"api_key": value}}}

    return edit


def test_settings_a_meta_file_holds_that_are_refused_are_its_cases_error(tmp_path):
    """Before: a hand-written meta file's ``"settings": {"providers": {"brave": {"api_key": 5}}}`` stopped
    the whole ``verify`` (``error: InvalidInput/bad_setting: BRAVE_API_KEY must be a string, got int``,
    exit 2, no case named, the other cases not run). Now it is that case's ERROR naming the field as the
    meta file spells it."""
    _copy(tmp_path, _api_key(5))
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["verify", "--fixtures", str(tmp_path)]) == 1
    line = out.getvalue().splitlines()[0]
    assert line.startswith("ERROR  brave/%s  malformed meta file: its settings are refused: " % CASE.name), line
    assert "Settings.providers['brave']['api_key'] (BRAVE_API_KEY) must be a string, got int" in line, line


def test_replay_fixtures_names_the_case_whose_settings_are_refused(tmp_path):
    """Before: the search in ``replay_fixtures`` raised the refusal alone, naming settings its caller never gave."""
    import websearch_sync as ws
    from websearch_sync.testing import replay_fixtures

    meta_path = _copy(tmp_path, _api_key(["sk"]))
    query = json.loads(meta_path.read_text(encoding="utf-8"))["query"]
    with replay_fixtures(tmp_path, backends=["brave"]), pytest.raises(ws.InvalidInput) as refused:
        ws.search(query, backend="brave")
    assert refused.value.detail_code == "bad_setting"
    assert refused.value.message.startswith(
        "case brave/%s (%s) holds settings that are refused: " % (CASE.name, meta_path)
    )
