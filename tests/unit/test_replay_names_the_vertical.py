"""A search no case answers because its query was recorded for another vertical is told so: the
error listed the query among the "recorded queries" of the message saying it was not recorded
(``search("best mechanical keyboard 2026", backend="ddg_html", vertical="news")`` on this
checkout's fixtures: the query is a web case)."""

import json
import shutil
from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.testing import replay_fixtures

NEWS = Path(__file__).resolve().parents[2] / "fixtures" / "ddg_html" / "phrona__news_rust_programming"


@pytest.fixture
def folder(tmp_path):
    """The news case, and a copy of it made a web case of the same query."""
    cases = tmp_path / "ddg_html"
    cases.mkdir()
    for source in NEWS.parent.glob(NEWS.name + ".*"):
        shutil.copy(source, cases / source.name)
        shutil.copy(source, cases / source.name.replace("news_", "web_"))
    web = cases / (NEWS.name.replace("news_", "web_") + ".meta.json")
    meta = json.loads(web.read_text(encoding="utf-8"))
    assert meta.pop("vertical") == "news"
    web.write_text(json.dumps(meta), encoding="utf-8")
    return tmp_path


def _refusal(folder, query, vertical):
    with replay_fixtures(folder, backends="ddg_html"), pytest.raises(ws.WebProviderError) as caught:
        ws.search(query, backend="ddg_html", vertical=vertical)
    assert caught.value.detail_code == "no_recorded_case"
    return caught.value.message


def test_a_query_recorded_for_other_verticals_names_them(folder):
    message = _refusal(folder, "rust programming", "images")
    assert message.startswith(
        "no recorded case of ddg_html for query 'rust programming' (recorded for news and web search, not images; "
        "no images case of this backend is recorded: "
    )


def test_the_queries_listed_are_those_of_the_calls_vertical(folder):
    (folder / "ddg_html" / "phrona__web_rust_programming.meta.json").write_text(
        (folder / "ddg_html" / "phrona__web_rust_programming.meta.json")
        .read_text(encoding="utf-8")
        .replace('"rust programming"', '"rust web"'),
        encoding="utf-8",
    )
    message = _refusal(folder, "zzz", "news")
    assert "(recorded queries (news): 'rust programming'; or record one with" in message
    assert "rust web" not in message
