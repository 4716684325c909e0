"""``replay_fixtures`` answers a call only from a case recorded for the call's own first page
(its ``pageno``, 1 when unset): a recording of page 1 holds no answer to page 2's request, as
the contract replay, checking every request, refuses it. Before: the page-1 recording answered
a ``pageno=2`` call (Startpage's images), its results returned as page 2's."""

import shutil
from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.errors import WebProviderError
from websearch_sync.testing import replay_fixtures

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def test_a_page_two_call_is_not_answered_by_a_page_one_recording():
    with replay_fixtures(FIXTURES, backends="startpage_html") as replay:
        first = ws.search("rust programming", backend="startpage_html", vertical="images", max_results=50)
        with pytest.raises(WebProviderError) as refused:
            ws.search("rust programming", backend="startpage_html", vertical="images", pageno=2, max_results=50)
    assert len(first["items"]) == 50
    assert refused.value.detail_code == "no_recorded_case"
    message = str(refused.value)
    assert "page 2" in message and "startpage_html/phrona__images (page 1)" in message
    assert [call.case for call in replay.calls] == ["startpage_html/phrona__images"]  # the refused one is no call


def test_each_page_is_answered_by_its_own_case_and_an_unrecorded_page_is_refused():
    with replay_fixtures(FIXTURES, backends="bing_html") as replay:
        ws.search("test keyword", backend="bing_html", max_results=10, pageno=2, cache_ttl_s=0)
        with pytest.raises(WebProviderError) as refused:
            ws.search("test keyword", backend="bing_html", max_results=10, pageno=3, cache_ttl_s=0)
    assert [call.case for call in replay.calls] == ["bing_html/se-scraper__page2"]
    assert refused.value.detail_code == "no_recorded_case" and "page 3" in str(refused.value)


def test_a_first_page_call_is_not_answered_by_a_later_page_recording(tmp_path):
    folder = tmp_path / "bing_html"
    folder.mkdir()
    for name in ("se-scraper__page2.meta.json", "se-scraper__page2.html"):
        shutil.copy(FIXTURES / "bing_html" / name, folder)
    with replay_fixtures(tmp_path, backends="bing_html") as replay:
        answered = ws.search("test keyword", backend="bing_html", max_results=10, pageno=2, cache_ttl_s=0)
        with pytest.raises(WebProviderError) as refused:
            ws.search("test keyword", backend="bing_html", max_results=10, cache_ttl_s=0)
    assert answered["items"] and len(replay.calls) == 1
    assert refused.value.detail_code == "no_recorded_case"
    assert "page 1" in str(refused.value) and "bing_html/se-scraper__page2 (page 2)" in str(refused.value)
