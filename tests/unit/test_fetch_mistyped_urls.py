"""A newcomer's mistyped fetch URLs. A local file (a path, a Windows path, a ``file:`` URL) is refused saying
it is one, with the way to read an HTML file's text as the error's hint: ``/etc/passwd`` was
"only http and https URLs can be fetched, got '/etc/passwd'" with nothing to do next, and
``C:\\page.html`` "has a backslash before its query, which a browser reads as a slash (did you
mean 'C:\\page.html'?)", the path itself suggested back. A slip in the scheme gets the URL meant."""

import pytest

import websearch_sync as ws
from websearch_sync.cli import main


@pytest.mark.parametrize(
    "typed, shown",
    [
        ("/etc/passwd", "'/etc/passwd'"),
        ("./page.html", "'./page.html'"),
        ("../page.html", "'../page.html'"),
        ("~/page.html", "'~/page.html'"),
        ("C:\\Users\\me\\page.html", repr("C:\\Users\\me\\page.html")),
        (".\\page.html", repr(".\\page.html")),
        ("C:/Users/me/page.html", "'C:/Users/me/page.html'"),
        ("\\\\host\\share\\page.html", repr("\\\\host\\share\\page.html")),  # a Windows network path
        ("file:///etc/passwd", "'file:'"),  # by its scheme, as any other scheme's URL
        ("FILE:/etc/passwd", "'file:'"),
    ],
)
def test_a_local_file_is_refused_as_one_with_the_extractor_as_hint(typed, shown):
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch(typed)
    error = info.value
    assert error.detail_code == "bad_url"
    assert (
        error.message == "only http and https URLs can be fetched, got %s (a local file: fetch reads web pages)" % shown
    )
    assert "websearch_sync.extract.extract_html(" in error.hint
    assert "extract_html" not in str(error.to_dict())  # a model reading a tool result cannot run Python


@pytest.mark.parametrize(
    "typed", ["//example.com/page", "ftp://files.example/", "example.com", "http://host\\path", "s://example.com"]
)
def test_urls_are_no_local_files(typed):
    """``s://example.com``: a one-letter scheme is a drive's letter only without ``//`` (``C:/x``, ``C:\\x``)."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch(typed)
    assert "local file" not in info.value.message and info.value.hint is None


def test_the_command_line_says_local_file_without_the_python_hint(capsys):
    assert main(["fetch", "/etc/passwd"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "error: InvalidInput/bad_url: only http and https URLs can be fetched, got '/etc/passwd'"
        " (a local file: fetch reads web pages)\n"
    )


@pytest.mark.parametrize(
    "typed, meant",
    [
        ("htps://example.com/", "https://example.com/"),
        ("htp://example.com/x", "http://example.com/x"),
        ("httpss://example.com/", "https://example.com/"),
        ("HTPS://example.com/", "https://example.com/"),
        ("https:/example.com/", "https://example.com/"),  # one slash: a browser opens the host
        ("https:example.com", "https://example.com"),
        ("https:///example.com/x", "https://example.com/x"),
        ("//example.com/", "https://example.com/"),  # scheme-relative, as a page's link writes it
        ("//example.com:8443/a?q=1", "https://example.com:8443/a"),
    ],
)
def test_a_slip_in_the_scheme_gets_the_url_meant_suggested(typed, meant):
    """``htps://example.com/`` was "got 'htps:'" and ``https:/example.com/`` "has no host", naming no way on."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch(typed)
    assert info.value.detail_code == "bad_url"
    assert info.value.message.endswith("(did you mean %r?)" % meant), info.value.message


@pytest.mark.parametrize(
    "typed",
    [
        "ftp://files.example/",
        "ws://a.example/",
        "https://",
        "http:/",
        "https:/a:b:c",
        "htps://ex ample.com/",
        "htps://",
        "//",
        "//ex ample.com/",  # https://ex ample.com/ would be refused too
        "///example.com/",
    ],
)
def test_another_scheme_or_no_host_at_all_gets_no_suggestion(typed):
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch(typed)
    assert "did you mean" not in info.value.message


def test_a_url_whose_suggestion_would_be_malformed_is_refused_as_input():
    """``https:/[::1`` read as a browser reads it, ``https://[::1``, is no URL: ``urlsplit`` raises
    ``ValueError`` on it, which must not escape ``fetch`` (nothing but a ``WebSearchError`` does)."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch("https:/[::1")
    assert info.value.detail_code == "bad_url" and "did you mean" not in info.value.message


@pytest.mark.parametrize(
    "typed, message",
    [
        (
            "htps://user:hunter2@example.com/",
            "only http and https URLs can be fetched, got 'htps://example.com/' (did you mean 'https://example.com/'?)",
        ),
        (
            "htps://api.example.com/v1?api_key=hunter2#f",
            "only http and https URLs can be fetched, got 'htps://api.example.com/v1'"
            " (did you mean 'https://api.example.com/v1'?)",
        ),
        (
            "https:/user:hunter2@api.example.com/?api_key=hunter2",
            "url 'https:/api.example.com/' has no host (did you mean 'https://api.example.com/'?)",
        ),
        (
            "https://api.example.com\\v1?api_key=hunter2",
            "url 'https://api.example.com\\\\v1' has a backslash before its query, which a browser reads as a slash"
            " (did you mean 'https://api.example.com/v1'?)",
        ),
        (  # the colon of a scheme-less URL's user info is no scheme's: its user name was shown
            "//user:hunter2@api.example.com/?api_key=hunter2",
            "only http and https URLs can be fetched, got '//api.example.com/' (did you mean 'https://api.example.com/'?)",
        ),
        ("//hunter2:hunter2@[::1/?api_key=hunter2", "malformed url '//[::1/': Invalid IPv6 URL"),
        (  # a host typed without its scheme: the suggestion was built from the whole text
            "example.com/v1?api_key=hunter2#hunter2",
            "only http and https URLs can be fetched, got 'example.com/v1' (did you mean 'https://example.com/v1'?)",
        ),
        (  # urlsplit takes the token of user info typed without its scheme for the scheme
            "hunter2:x-oauth-basic@github.com/o/r",
            "only http and https URLs can be fetched, got 'github.com/o/r'",
        ),
        (
            "/srv/page.html?token=hunter2",
            "only http and https URLs can be fetched, got '/srv/page.html' (a local file: fetch reads web pages)",
        ),
        (
            "\\\\user:hunter2@host\\share\\page.html",
            r"only http and https URLs can be fetched, got '\\\\host\\share\\page.html' (a local file: fetch reads web pages)",
        ),
    ],
)
def test_a_refused_urls_echo_and_suggestion_leave_out_user_info_and_query(typed, message):
    """As :func:`~websearch_sync.net.urls.shown_url` leaves them out of messages: the suggestion echoed
    the caller's password and key twice (``got 'htps://user:hunter2@...' (did you mean 'https://user:hunter2@...'?)``)."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch(typed)
    assert info.value.message == message
    assert "hunter2" not in str(info.value.to_dict())


@pytest.mark.parametrize(
    "typed, meant", [("md", "markdown"), ("MD", "markdown"), ("txt", "text"), ("markdwon", "markdown")]
)
def test_a_short_or_mistyped_extract_mode_gets_ours_suggested(typed, meant):
    """``md`` (another tool's name of markdown) got no suggestion: too short for a close spelling."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch("https://example.com/", extract_mode=typed)
    assert info.value.detail_code == "bad_extract_mode"
    assert info.value.message == "extract_mode must be one of markdown, text, got %r (did you mean %r?)" % (
        typed,
        meant,
    )


def test_the_command_line_suggests_markdown_for_mode_md(capsys):
    """``--mode md`` was argparse's ``invalid choice: 'md'``, naming no way on; then the library's
    ``extract_mode must be ...``, a Python name: the command line speaks its flag."""
    assert main(["fetch", "--mode", "md", "https://example.com/"]) == 2
    assert capsys.readouterr().err.splitlines()[-1:] == [
        "error: InvalidInput/bad_extract_mode: --mode must be one of markdown, text, got 'md' (did you mean 'markdown'?)",
    ]
