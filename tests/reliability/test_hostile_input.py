"""Hostile input, property-based: the only outcomes are a valid contract result or a
``WebSearchError`` (never an ``internal_error``, which means a defect slipped through).

- queries (any Unicode, lone surrogates, control characters, RTL marks, NUL, up to
  10,000 characters) through ``SearchClient.search`` of every backend, against the
  fault lab serving each backend's recorded good answer;
- every recorded body under ``fixtures/`` mutated (truncated, tags deleted or
  duplicated, random bytes, deep nesting, JSON values of the wrong type) through the
  real parse path ``Backend.interpret`` and ``Backend.structure_report``;
- recorded HTML pages mutated through fetch's text extraction;
- ``normalize_items`` on arbitrary raw items: ranks 1..n, http(s) URLs only, no
  duplicates, at most ``max_results``, single-line encodable text.
"""

import json
import re
from typing import Any, Dict, List

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from requests.structures import CaseInsensitiveDict

import faultlab
import websearch_sync as ws
from websearch_sync.backends import registry
from websearch_sync.config import is_secret_name
from websearch_sync.contract import contract_violations, discover
from websearch_sync.fetch_content import page_text
from websearch_sync.http import HttpResponse
from websearch_sync.normalize import normalize_items
from websearch_sync.testing import assert_contract
from websearch_sync.validate import search_params

SETTINGS = settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
BACKENDS = faultlab.network_backends()
ALL_CHARS = st.characters(exclude_categories=())  # every code point: controls, lone surrogates, private use
SPECIALS = ["\x00", "\u202e", "\u202d", "\u200f", "\u200e", "\u200b", "\ufeff", "\r", "\n", "\t", "\x0b", " ", "\u3000",
            "é", "中", "\U0001F600", "%", "&", "<", ">", '"', "'", "\\", "#", "?", "/", "+", "=", ";", "\ud800", "\udfff",
            "site:", "OR", "-", "*", "\x7f", "\x1b[31m"]
QUERIES = st.one_of(
    st.text(ALL_CHARS, max_size=60),
    st.lists(st.sampled_from(SPECIALS + ["word", "q"]), min_size=1, max_size=30).map("".join),
    st.builds(lambda part, count: part * count, st.sampled_from(["x", "é", "中 ", "\U0001F600", "\x00", " ", "ab "]),
              st.integers(300, 10_000)),
)
QUERY_REFUSALS = {"empty_query", "bad_query", "query_too_long"}


# -- queries ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lab_client():
    targets = [faultlab.search_target(name) for name in BACKENDS]
    with faultlab.LabServer(targets) as server:
        settings_ = faultlab.lab_settings(server, BACKENDS)
        with ws.SearchClient(settings=settings_, min_interval_s=0, cache_ttl_s=0, retries=0) as client:
            yield client


def _query_outcome(client: ws.SearchClient, backend: str, query: str) -> None:
    try:
        result = client.search(query, backend=backend, max_results=10, timeout_ms=3000)
    except ws.WebSearchError as error:
        assert error.detail_code != "internal_error", "a defect surfaced as %r" % error
        assert error.code == "InvalidInput" and error.detail_code in QUERY_REFUSALS, (
            "against a good answer only the query can be refused, got %r for %r" % (error, query[:80]))
        json.dumps(error.to_dict(), ensure_ascii=False).encode("utf-8")  # printable
        return
    assert_contract(result, max_results=10, provider=backend)
    json.dumps(result, ensure_ascii=False).encode("utf-8")  # printable as UTF-8 (no lone surrogates)


@pytest.mark.parametrize("backend", BACKENDS + ["stub"])
@SETTINGS
@given(query=QUERIES)
def test_hostile_queries_give_results_or_a_clear_refusal(lab_client, backend, query):
    _query_outcome(lab_client, backend, query)


@pytest.mark.parametrize(
    "query, detail",
    [
        ("a\ud800b", "bad_query"),        # a lone surrogate cannot be sent anywhere (was internal_error)
        ("\udfff", "bad_query"),
        (" \t\n\u3000 ", "empty_query"),
        ("x" * 10_000, "query_too_long"),
    ],
)
def test_queries_that_cannot_be_sent_are_invalid_input(lab_client, query, detail):
    for backend in BACKENDS + ["stub"]:
        with pytest.raises(ws.InvalidInput) as info:
            lab_client.search(query, backend=backend)
        assert info.value.detail_code == detail


def test_control_characters_and_rtl_marks_reach_the_service_intact(lab_client):
    query = "a\x00b \u202eevil\u202c \u200f\r\nX-Injected: 1"
    result = lab_client.search(query, backend="searxng")
    assert result["items"]


# -- normalize invariants ------------------------------------------------------------------------------


URLS = st.one_of(
    st.builds(lambda scheme, host, path: "%s://%s/%s" % (scheme, host, path),
              st.sampled_from(["http", "https", "HTTP", "HtTpS", "ftp", "javascript", "data", "file", " http", "http "]),
              st.sampled_from(["a.example", "b.example", "A.EXAMPLE", "", "[::1]", "[bad", "x y", "例え.jp", "a.example:99999", "a.example:80"]),
              st.text(ALL_CHARS, max_size=12)),
    st.text(ALL_CHARS, max_size=30),
    st.none(), st.integers(), st.lists(st.text(max_size=3), max_size=2),
)
TEXTS = st.one_of(
    st.none(), st.integers(), st.floats(allow_nan=True), st.lists(st.text(max_size=4), max_size=2),
    st.text(ALL_CHARS, max_size=40),
    st.lists(st.sampled_from(SPECIALS + ["<b>", "</b>", "<br>", "&amp;", "&#10;", "&#0;", "&lt;b&gt;", "<!-- c -->", "&nbsp;",
                                         "\u2028", "\u00a0", "\x1c", "word"]), max_size=20).map("".join),
)
RAW_ITEMS = st.lists(
    st.fixed_dictionaries(
        {"url": URLS},
        optional={"title": TEXTS, "snippet": TEXTS, "source": TEXTS, "published_at": TEXTS, "content": TEXTS},
    ),
    max_size=25,
)


@SETTINGS
@given(raw=RAW_ITEMS, max_results=st.integers(1, 10))
def test_normalize_invariants(raw, max_results):
    items = normalize_items(raw, "lab", max_results)
    assert contract_violations({"items": items}, max_results=max_results, provider="lab") == []
    assert [item["rank"] for item in items] == list(range(1, len(items) + 1))
    assert len({item["url"] for item in items}) == len(items) <= max_results
    for item in items:
        assert re.match(r"^https?://[^/?#\s]", item["url"])
        for key in ("title", "snippet", "source", "published_at"):
            if key in item:
                value = item[key]
                assert value == " ".join(value.split()) and not re.search(r"[\x00-\x1f\x7f]", value)
        for value in item.values():
            if isinstance(value, str):
                value.encode("utf-8")  # no lone surrogates: printable, serialisable
    valid = [r for r in raw if isinstance(r.get("url"), str) and re.match(r"^\s*https?://", r["url"], re.I)]
    if not valid:
        assert items == []


def test_lone_surrogates_never_reach_an_item():
    raw = [{"title": "A \ud800 B", "url": "https://a.example/x", "snippet": "c\udfffd", "source": "\ud83d"},
           {"title": "t", "url": "https://b.example/\ud83d"}]
    items = normalize_items(raw, "lab", 10)
    assert [(i["title"], i["snippet"]) for i in items] == [("A B", "cd")]
    assert "source" not in items[0]
