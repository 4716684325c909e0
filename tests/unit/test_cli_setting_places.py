"""A command's error names where a setting is set in the command line's terms, its environment
variable (a command's user has no ``Settings`` to give: the CLI has no flag or file for keys and
endpoints); the library's error keeps the Python form beside it. Before, ``websearch-sync search q
-b brave`` said "set BRAVE_API_KEY (or Settings.providers['brave']['api_key'])"."""

import json

import pytest

import websearch_sync as ws
from websearch_sync.cli import main


@pytest.fixture
def no_brave_key(monkeypatch):
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    monkeypatch.delenv("WEB_SEARCH_ENDPOINT_BRAVE", raising=False)


def test_a_missing_key_names_the_variable_alone_on_the_command_line(no_brave_key, capsys):
    assert main(["search", "q", "-b", "brave"]) == 3
    err = capsys.readouterr().err
    assert "brave needs an API key: set BRAVE_API_KEY\n" in err, err
    assert "Settings" not in err, err


def test_the_json_error_form_says_it_so_too(no_brave_key, capsys):
    assert main(["search", "q", "-b", "brave", "--json"]) == 3
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["message"] == "brave needs an API key: set BRAVE_API_KEY"


def test_an_endpoint_refused_names_its_variable_alone(no_brave_key, monkeypatch, capsys):
    monkeypatch.setenv("BRAVE_API_KEY", "k-0123456789")
    monkeypatch.setenv("WEB_SEARCH_ENDPOINT_BRAVE", "https://brave.exa\tmple/")
    assert main(["search", "q", "-b", "brave"]) == 2
    err = capsys.readouterr().err
    assert "WEB_SEARCH_ENDPOINT_BRAVE" in err and "Settings" not in err, err


def test_the_library_keeps_the_python_form(no_brave_key):
    with pytest.raises(ws.AuthError) as caught:
        ws.search("q", backend="brave", settings=ws.Settings())
    assert caught.value.message == (
        "brave needs an API key: set BRAVE_API_KEY (or Settings.providers['brave']['api_key'])"
    )
    with pytest.raises(ws.InvalidInput) as url:
        ws.search("q", backend="https://searx.example/", settings=ws.Settings())
    assert "SEARXNG_BASE_URL (or Settings.providers['searxng']['base_url'])" in url.value.message
