"""A query a backend refuses before sending (longer than its own limit, more words than it
takes) costs nothing: no rate-limit slot, no wait, no attempt. The next valid query to the
same backend leaves at once. Answers are real recorded responses from fixtures/, replayed
with ``responses``; waits go through the fake clock."""

import contextlib
from pathlib import Path

import pytest
import responses
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.engine import registry

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
BRAVE_SETTINGS = ws.Settings(providers={"brave": {"api_key": "test-brave-key"}})

#: backend -> (settings, (method, url), body, content type, a query it answers, the URL of its first item)
CASES = {
    "ddg_html": (
        ws.Settings(),
        ("POST", "https://html.duckduckgo.com/html/"),
        (FIXTURES / "ddg_html" / "meka__1.html").read_bytes(),
        "text/html; charset=UTF-8",
        "rust programming language",
        "https://rust-lang.org/",
    ),
    "brave": (
        BRAVE_SETTINGS,
        ("GET", "https://api.search.brave.com/res/v1/web/search"),
        (FIXTURES / "brave" / "larallama__1.json").read_bytes(),  # 18 results: one page holds the call's
        "application/json",
        "Laravel news",
        "https://laravel-news.com/",
    ),
}

#: backend -> (a query it refuses, the refusal's message) (both under the library's 2000 characters)
REFUSALS = {
    "ddg_html": ("x" * 600, "ddg_html accepts queries shorter than 500 characters (got 600)"),
    "brave": ("y" * 450, "brave accepts queries shorter than 401 characters (got 450)"),
    "brave-words": (" ".join(["w"] * 51), "brave accepts queries of at most 50 words (got 51)"),
}


@contextlib.contextmanager
def _replayed(clock, *names):
    """A client of ``names`` (a chain) whose backends answer their recorded responses; yields it and the mock."""
    settings = CASES[names[-1]][0] if len(names) == 1 else BRAVE_SETTINGS
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        for name in names:
            _, request, body, content_type, _, _ = CASES[name]
            mock.add(*request, body=body, status=200, content_type=content_type)
        with ws.SearchClient(",".join(names), settings=settings, clock=clock) as client:
            yield client, mock


def _refused(client, refusal, name):
    query, message = REFUSALS[refusal]
    with pytest.raises(ws.InvalidInput) as info:
        client.search(query)
    assert (info.value.detail_code, info.value.provider, info.value.message) == ("query_too_long", name, message)


@pytest.mark.parametrize("name, refusal", [("ddg_html", "ddg_html"), ("brave", "brave"), ("brave", "brave-words")])
def test_after_a_refused_query_the_next_one_is_sent_at_once(name, refusal):
    clock = FakeClock()
    with _replayed(clock, name) as (client, mock):
        _refused(client, refusal, name)
        assert len(mock.calls) == 0
        answer = client.search(CASES[name][4])
        assert len(mock.calls) == 1
    assert clock.sleeps == []  # the refusal booked no slot: nothing to wait out
    assert answer["provider_meta"]["attempts"] == 1
    assert answer["items"][0]["url"] == CASES[name][5]


@pytest.mark.parametrize("name, refusal", [("ddg_html", "ddg_html"), ("brave", "brave")])
def test_a_refusal_right_after_a_request_is_immediate(name, refusal):
    clock = FakeClock()
    with _replayed(clock, name) as (client, mock):
        client.search(CASES[name][4])
        _refused(client, refusal, name)  # no wait for a slot it does not need
        assert clock.sleeps == []
        client.search(CASES[name][4], max_results=3)  # the slot is still the one after the first request
        assert len(mock.calls) == 2
    assert clock.sleeps == [registry.backend_class(name).min_interval_s]  # one pace, not two


def test_a_backend_of_a_chain_that_refuses_is_no_attempt_and_keeps_its_slot():
    clock = FakeClock()
    with _replayed(clock, "brave", "ddg_html") as (client, mock):
        answer = client.search(REFUSALS["brave-words"][0])  # brave refuses 51 words, DuckDuckGo takes them
        assert [call.request.url.split("/")[2] for call in mock.calls] == ["html.duckduckgo.com"]
        client.search(CASES["brave"][4])  # brave at once: the refusal took none of its slots
    assert answer["provider_meta"]["attempts"] == 1  # requests sent
    assert answer["items"][0]["url"] == CASES["ddg_html"][5]
    assert [(e["provider"], e["detail_code"]) for e in answer["errors"]] == [("brave", "query_too_long")]
    assert clock.sleeps == []
