"""The CLI's search carries the common options (--safe-search, --site, --time-range) and any
backend option (--option KEY=VALUE) to the backend's request; a bad option is exit 2."""

import json
from urllib.parse import parse_qsl, urlsplit

import pytest
import responses

from websearch_sync.cli import main

BASE = "https://searx.example"
ANSWER = {"query": "q", "results": [{"title": "A", "url": "https://a.example/", "content": "a"}]}


@pytest.fixture
def searxng(monkeypatch):
    monkeypatch.setenv("SEARXNG_BASE_URL", BASE)
    with responses.RequestsMock() as mock:
        mock.add(responses.GET, BASE + "/search", json=ANSWER)
        yield mock


def _searches(mock):
    """The search requests sent (a time range has the instance's ``/config`` read first)."""
    return [call for call in mock.calls if urlsplit(call.request.url).path == "/search"]


def _sent(mock):
    """The first search request's query parameters (the answer holds one result: a call for more
    asks the next page too, which answers it again, a repeat that ends the call)."""
    return dict(parse_qsl(urlsplit(_searches(mock)[0].request.url).query))


def test_common_flags_and_backend_options_reach_the_request(searxng, capsys):
    argv = [
        "search",
        "llama",
        "-b",
        "searxng",
        "--site",
        "example.org",
        "--safe-search",
        "strict",
        "--time-range",
        "week",
        "--option",
        "engines=google,bing",
        "--option",
        "pageno=2",
        "--option",
        "categories=general",
        "--json",
    ]
    assert main(argv) == 0
    sent = _sent(searxng)
    assert sent["q"] == "llama site:example.org"
    assert (sent["safesearch"], sent["time_range"], sent["engines"], sent["pageno"], sent["categories"]) == (
        "2",
        "week",
        "google,bing",
        "2",
        "general",
    )
    assert json.loads(capsys.readouterr().out)["items"][0]["url"] == "https://a.example/"


@pytest.mark.parametrize("pair", ["nope=1", "engines", "=google"])
def test_a_bad_option_is_invalid_input_with_exit_2(pair, capsys):
    assert main(["search", "q", "--option", pair]) == 2
    assert "InvalidInput/bad_arguments" in capsys.readouterr().err


def test_option_values_are_typed(searxng):
    assert main(["search", "q", "-b", "searxng", "--option", "pageno=3"]) == 0
    assert _sent(searxng)["pageno"] == "3"


def test_an_option_value_is_read_as_its_declared_kind(searxng):
    """``engines`` is a name list: a name that looks like a number stays a name (the guess by
    the text's look made it the number 123, which the option refused)."""
    assert main(["search", "q", "-b", "searxng", "--option", "engines=123", "--option", 'categories=["news"]']) == 0
    assert (_sent(searxng)["engines"], _sent(searxng)["categories"]) == ("123", "news")


def test_max_pages_bounds_the_requests_of_a_call(searxng):
    """The answer holds one result: a call of five asks page 2 as well, unless max_pages is 1."""
    assert main(["search", "q", "-b", "searxng"]) == 0
    assert [dict(parse_qsl(urlsplit(call.request.url).query)).get("pageno") for call in _searches(searxng)] == [
        None,
        "2",
    ]
    assert main(["search", "q", "-b", "searxng", "--option", "max_pages=1"]) == 0
    assert len(_searches(searxng)) == 3


@pytest.mark.parametrize("value", ["0", "9", "two"])
def test_a_bad_max_pages_is_refused_before_any_request(value, monkeypatch, capsys):
    monkeypatch.setenv("SEARXNG_BASE_URL", BASE)
    with responses.RequestsMock():  # refused before any request
        assert main(["search", "q", "-b", "searxng", "--option", "max_pages=" + value]) == 2
    assert "InvalidInput/bad_max_pages" in capsys.readouterr().err


def test_a_value_its_kind_refuses_gets_the_options_own_error(monkeypatch, capsys):
    monkeypatch.setenv("SEARXNG_BASE_URL", BASE)
    with responses.RequestsMock():  # refused before any request
        assert main(["search", "q", "-b", "searxng", "--option", "pageno=two"]) == 2
    assert "InvalidInput/bad_pageno" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["--vertical", "images", "--option", "vertical=news"],
        ["--time-range", "week", "--option", "time_range=day"],
        ["--site", "a.example", "--option", "site_filter=b.example"],
        ["--option", "pageno=2", "--option", "pageno=3"],
    ],
)
def test_an_input_set_twice_is_refused_not_silently_overridden(argv, capsys):
    """A flag and ``--option`` for the same input, or one ``--option`` KEY twice: exit 2 naming
    both (before: the ``--option`` or the last one silently won, ``--vertical images`` gave news)."""
    with responses.RequestsMock():  # refused before any request
        assert main(["search", "q", "-b", "searxng", "--json", *argv]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["detail_code"] == "bad_arguments"
    assert argv[-1].partition("=")[0] in error["message"]
