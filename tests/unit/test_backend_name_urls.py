"""A URL given where a backend's name belongs (``-b https://searx.example/``, a newcomer's first try
at their SearXNG instance): refused naming the setting that takes it, and never echoing a password
its user info holds. Before: ``names unknown backend 'https://user:pw@searx.example/'`` twice in one
line, with no word on where an instance's address goes."""

import pytest

import websearch_sync as ws
from websearch_sync.cli import main

SECRET = "pw1234secret"
URL = "https://user:%s@searx.example/" % SECRET


@pytest.mark.parametrize("backend", [URL, "searxng," + URL, [URL], URL.upper()])
def test_a_url_as_backend_hides_its_password_and_names_the_setting(backend):
    for call in (
        lambda: ws.search("q", backend=backend),
        lambda: ws.Settings(backend=backend),
        lambda: ws.SearchClient(backend),
    ):
        with pytest.raises(ws.InvalidInput) as refused:
            call()
        message = refused.value.message
        assert refused.value.detail_code == "unknown_backend"
        assert SECRET not in message.lower(), message
        assert "SEARXNG_BASE_URL" in message, message


def test_the_command_line_and_the_environment_hide_it_too(capsys, monkeypatch):
    assert main(["search", "q", "-b", URL]) == 2
    err = capsys.readouterr().err
    assert SECRET not in err and "SEARXNG_BASE_URL" in err, err
    monkeypatch.setenv("WEB_SEARCH_BACKEND", URL)
    assert main(["search", "q"]) == 2
    assert main(["backends"]) == 0
    captured = capsys.readouterr()
    assert SECRET not in captured.err + captured.out, captured.err


def test_a_url_without_user_info_is_named_as_given():
    with pytest.raises(ws.InvalidInput) as refused:
        ws.search("q", backend="https://searx.example/")
    assert "'https://searx.example/'" in refused.value.message


@pytest.mark.parametrize("backend", [URL + ",", URL + "," + URL])
def test_a_malformed_list_holding_a_url_hides_its_password(backend):
    with pytest.raises(ws.InvalidInput) as refused:
        ws.search("q", backend=backend)
    assert SECRET not in refused.value.message.lower(), refused.value.message


#: User info the two former ways of hiding it disagreed on: the library's messages hid it up to the
#: first ``@`` within 256 characters and no white space, and showed the rest; the command line's hid
#: all up to the last ``@``.
HIDDEN_BY_ONE = [
    "https://user:pw@1234secret@searx.example/",  # an @ in the password
    "https://user:pw 1234secret@searx.example/",  # a space
    "https://%s:pw1234secret@searx.example/" % ("u" * 300),  # more than 256 characters
]


@pytest.mark.parametrize("url", HIDDEN_BY_ONE)
def test_user_info_the_messages_showed_is_hidden_in_them_as_on_the_command_line(url, capsys):
    with pytest.raises(ws.InvalidInput) as refused:
        ws.search("q", backend=url)
    assert "1234secret" not in refused.value.message.lower() and "searx.example/" in refused.value.message
    for argv in (["fetch", "https://example.com/", url], ["search", "-b", "stub", "q", url]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "1234secret" not in err and "https://***@searx.example/" in err, err


@pytest.mark.parametrize(
    "word, shown",
    [
        ("x=https://u:%s@a/,https://u:%s@b/" % (SECRET, SECRET), "x=https://***@b/"),  # two URLs: all between
        ("https://searx.example/", "https://searx.example/"),
        ("me@searx.example", "me@searx.example"),  # no scheme: no URL to read
    ],
)
def test_the_command_line_and_the_messages_hide_alike(word, shown, capsys):
    """Both call sites hide through :func:`~websearch_sync.secrets.userinfo_hidden`: what the command
    line said of an unknown argument, a backend's name is said in a message."""
    assert main(["fetch", "https://example.com/", word]) == 2
    assert "unrecognized arguments: %s" % shown in capsys.readouterr().err
    with pytest.raises(ws.InvalidInput) as refused:
        ws.search("q", backend=word.replace(",", ";"))
    assert shown.replace(",", ";").lower() in refused.value.message.lower(), refused.value.message
