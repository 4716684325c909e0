"""A recorded case whose recording holds fewer result pages than its call would read says how
many (``recorded_pages`` in its meta file): the replay bounds the search with the search's own
``max_pages``, so the case replays what was recorded. One that does not say so is an ERROR naming
the request the recording lacks and what to write; an unrecorded page is never read as "no more"."""

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.contract.cases import bounded_options, discover, meta_problem, run_case
from websearch_sync.testing import replay_fixtures

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
#: Yahoo's 2026 page: 7 results and a "Next" link (``b=8``) for a call of 10; no page 2 recorded.
CASE = "yahoo_html/web-search-mcp__yahoo"


def _case():
    return next(case for case in discover(FIXTURES, "yahoo_html") if case.case_id == CASE)


def test_a_case_saying_its_one_page_replays_within_it():
    case = _case()
    assert case.meta["recorded_pages"] == 1 and case.meta["max_results"] == 10 and len(case.exchanges()) == 1
    assert run_case(case, wires=("off",)).status == "PASS"


def test_a_case_not_saying_it_asks_the_page_the_recording_lacks_and_is_told_what_to_write():
    case = _case()
    assert "b=8&amp;pz=7" in case.body_bytes(case.exchanges()[0]["response"]).decode("utf-8")
    unsaid = dataclasses.replace(case, meta={k: v for k, v in case.meta.items() if k != "recorded_pages"})
    verdict = run_case(unsaid, wires=("off",))
    assert verdict.status == "ERROR"
    assert verdict.diff[0] == (
        "request mismatch: 1 request(s) recorded; the backend sent one more: "
        "GET https://search.yahoo.com/search?p=javascript+tutorial&b=8 (requests wire)"
    )
    assert '"recorded_pages": 1' in verdict.diff[1] and "max_pages" in verdict.diff[1]


@pytest.mark.parametrize("pages", [0, 9, -1])
def test_recorded_pages_out_of_max_pages_range_is_a_malformed_meta_file(pages):
    """Before: accepted, then passed as max_pages, which refused it (bad_max_pages) at the replay."""
    assert meta_problem(dict(_case().meta, recorded_pages=pages)) == (
        "malformed meta file: recorded_pages must be in 1..8 (the pages the recording holds), not %d" % pages
    )


def test_recorded_pages_for_an_engine_reading_one_page_is_a_malformed_meta_file():
    """Wikipedia reads one page: it takes no max_pages, which the replay would pass (bad_option)."""
    case = discover(FIXTURES, "wikipedia")[0]
    assert meta_problem(dict(case.meta, recorded_pages=1), "wikipedia") == (
        "malformed meta file: recorded_pages is for an engine reading next pages; wikipedia (web) reads one"
    )
    assert meta_problem(dict(_case().meta, recorded_pages=8)) is None  # yahoo reads pages: 1..8 stand


@pytest.mark.parametrize("given, passed", [(None, 1), (3, 1), (1, 1), (0, 0)])
def test_the_replay_asks_no_more_pages_than_recorded(given, passed):
    """A call's max_pages above recorded_pages is bounded to it; one asking fewer pages, or a value
    the search refuses (0: bad_max_pages), stands as given."""
    options = {} if given is None else {"max_pages": given}
    assert bounded_options(_case(), options) == {"max_pages": passed}


def test_a_first_page_without_results_asks_no_next_page():
    """Bing's recorded "no results" page: nothing to fill up, and a page bringing none ends the
    reading (the first too): one request, no note of a page not read."""
    import responses

    body = (FIXTURES / "bing_html" / "serp-parser__no-results-nojs.html").read_text(encoding="utf-8")
    with responses.RequestsMock() as mock:
        mock.add("GET", "https://www.bing.com/search", body=body, content_type="text/html; charset=utf-8")
        result = ws.search("q", backend="bing_html", settings=ws.Settings(), max_results=10, cache_ttl_s=0)
        assert len(mock.calls) == 1
    assert result["items"] == [] and "errors" not in result and "page_not_read" not in result["provider_meta"]


def test_recorded_pages_beside_the_calls_own_max_pages_is_a_malformed_meta_file():
    meta = dict(_case().meta, options={"max_pages": 2})
    assert meta_problem(meta) == "malformed meta file: recorded_pages is the call's max_pages: give it, not both"
    assert (
        meta_problem(dict(meta, recorded_pages="1"))
        == "malformed meta file: 'recorded_pages' must be an integer, not str"
    )


@pytest.mark.parametrize("backend", ["wikipedia", "tavily"])
def test_a_backend_that_reads_one_page_takes_no_max_pages(backend, fake_clock):
    """Neither reads a next page: ``max_pages`` is no option of theirs (refused, not ignored)."""
    settings = ws.Settings(providers={"tavily": {"api_key": "tvly-test"}})
    with ws.testing.no_network(), pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend=backend, settings=settings, max_pages=2)
    assert info.value.detail_code == "bad_option" and "max_pages" in info.value.message


def _golden_urls():
    case = _case()
    return [item["url"] for item in json.loads(case.expected_path.read_text(encoding="utf-8"))["items"]]


def test_replay_fixtures_answers_within_the_pages_a_case_says_it_holds():
    """The testing kit answers from the case as the contract replay does: one page, no error."""
    with replay_fixtures(FIXTURES, backends="yahoo_html") as replay:
        result = ws.search("javascript tutorial", backend="yahoo_html", max_results=10, cache_ttl_s=0)
    assert [item["url"] for item in result["items"]] == _golden_urls()
    assert "errors" not in result and replay.calls[0].case == CASE


def test_replay_fixtures_of_a_case_not_saying_it_reports_the_page_it_lacks(tmp_path):
    """Without ``recorded_pages`` the kit's answer says page 2 was not recorded: never a quiet "no more".
    A call for no more than a page holds reads page 2 best effort: the answer stands, and says it
    (``page_not_read``); a call for more has it in ``errors``."""
    case = _case()
    folder = tmp_path / "yahoo_html"
    folder.mkdir()
    meta = {k: v for k, v in case.meta.items() if k != "recorded_pages"}
    (folder / case.meta_path.name).write_text(json.dumps(meta), encoding="utf-8")
    shutil.copy(case.folder / case.meta["response"]["body"], folder)
    with replay_fixtures(tmp_path, backends="yahoo_html"):
        result = ws.search("javascript tutorial", backend="yahoo_html", max_results=10, cache_ttl_s=0)
        more = ws.search("javascript tutorial", backend="yahoo_html", max_results=11, cache_ttl_s=0)
    assert [item["url"] for item in result["items"]] == _golden_urls()
    assert "errors" not in result and result["provider_meta"]["page_not_read"].startswith("page 2 was not read")
    [error] = more["errors"]
    assert (error["detail_code"], error["page"]) == ("no_recorded_case", 2)
    sent = "the backend sent one more: GET https://search.yahoo.com/search?p=javascript+tutorial&b=8"
    assert sent in error["message"] and sent in result["provider_meta"]["page_not_read"]
