"""How one declared bot wall is recognised (``websearch_sync.net.botwall``): hints before
patterns, every pattern, the scanned window, the wall's address; and which walls' markers a
body is scanned for."""

import logging
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from requests.structures import CaseInsensitiveDict

from websearch_sync.backends import BotWall
from websearch_sync.backends.ddg_verticals import DEEP_506, DEEP_ANOMALY
from websearch_sync.net.botwall import bot_wall, bot_wall_error
from websearch_sync.net.response import HttpResponse

WALL = BotWall(
    "test wall",
    hints=('class="wall-box',),
    patterns=(re.compile(r'<div class="wall-box"'), re.compile(r"<form\b[^<>]*action=\"/solve\"")),
)
PAGE = '<html><body><div class="wall-box">Solve it</div><form method="post" action="/solve"></form></body></html>'


def test_a_page_with_the_hint_and_every_pattern_is_the_wall():
    assert WALL.is_in(PAGE)
    assert not WALL.is_in(PAGE.replace('action="/solve"', 'action="/search"'))  # one pattern missing


def test_the_patterns_run_only_where_a_hint_is_found():
    calls = []

    class Counting:
        def search(self, text, *bounds):
            calls.append(bounds)
            return re.search("x", text)

    wall = BotWall("counted", hints=("never-there",), patterns=(Counting(),))  # type: ignore[arg-type]
    assert not wall.is_in("x" * 1000)
    assert calls == []
    assert BotWall("counted", hints=("x",), patterns=(Counting(),)).is_in("x" * 1000)  # type: ignore[arg-type]
    assert len(calls) == 1


def test_only_the_first_scan_chars_are_looked_at():
    end = PAGE.index("</form>")  # every marker ends before it
    assert BotWall(WALL.name, WALL.hints, WALL.patterns, scan_chars=end).is_in(PAGE)
    hint_end = PAGE.index('class="wall-box') + len('class="wall-box')
    assert not BotWall(WALL.name, WALL.hints, WALL.patterns, scan_chars=hint_end - 1).is_in(PAGE)
    form_end = PAGE.index('action="/solve"') + len('action="/solve"')
    assert BotWall(WALL.name, WALL.hints, WALL.patterns, scan_chars=form_end).is_in(PAGE)
    assert not BotWall(WALL.name, WALL.hints, WALL.patterns, scan_chars=form_end - 1).is_in(PAGE)


def test_a_wall_without_markers_is_recognised_by_its_address_only():
    wall = BotWall("address wall", address=lambda url: "/captcha" in url)
    assert not wall.is_in(PAGE)
    assert wall.is_at("https://e.example/captcha?x=1") and not wall.is_at(None)


def test_the_body_is_scanned_for_the_scanned_walls_and_every_address_is_compared():
    elsewhere = BotWall("address wall", address=lambda url: "/captcha" in url)
    walls = [elsewhere, WALL]
    assert bot_wall("https://e.example/", PAGE, walls) == "test wall"
    assert bot_wall("https://e.example/", PAGE, walls, scanned=[]) is None
    assert bot_wall("https://e.example/", PAGE, walls, scanned=[WALL]) == "test wall"
    assert bot_wall("https://e.example/", PAGE, walls, location="/captcha", scanned=[]) == "address wall"


@pytest.mark.parametrize(
    "kwargs, why",
    [
        ({"patterns": ("captcha",)}, "patterns must be compiled regular expressions"),
        ({"hints": ("captcha", 3)}, "hints must be strings"),
        ({"address": "https://captcha.example/"}, "address must be a function of the URL"),
        ({}, "it recognises nothing: give hints"),  # BotWall("captcha"): its name taken for its marker, never matched
        ({"hints": (), "patterns": ()}, "it recognises nothing: give hints"),
    ],
)
def test_a_wall_declared_wrong_is_refused_when_built(kwargs, why):
    """A plugin's wall of the wrong shape failed at the first page it was tried on: every
    fetch and every other engine's search (all walls are tried on them) raised."""
    with pytest.raises(TypeError, match="BotWall 'plugin wall': " + why):
        BotWall("plugin wall", **kwargs)


def test_an_address_test_that_raises_is_logged_and_skipped(caplog):
    """A plugin's address test is called on every answer of every search and fetch: a defect
    in it is logged with the wall's name, and the other walls are still recognised."""
    broken = BotWall("broken wall", address=lambda url: 1 / 0)
    good = BotWall("good wall", address=lambda url: url.endswith("/captcha"))
    with caplog.at_level(logging.ERROR, logger="websearch_sync"):
        assert bot_wall("https://site.example/captcha", "", [broken, good]) == "good wall"
    assert "bot wall 'broken wall': its address test failed" in caplog.text and "ZeroDivisionError" in caplog.text


def test_the_log_line_of_an_address_test_that_raises_shows_no_credentials_of_the_url(caplog):
    """The URL a wall is tested on may be a fetched page's (``?token=``, ``user:pass@``): the ERROR
    line names its scheme, host and path only, as every other log line of the package does."""
    broken = BotWall("broken wall", address=lambda url: 1 / 0)
    with caplog.at_level(logging.ERROR, logger="websearch_sync"):
        bot_wall("https://alice:pw123@site.example/report?token=SECRET42", "", [broken])
    assert "its address test failed on https://site.example/report; skipped" in caplog.text
    assert "pw123" not in caplog.text and "SECRET42" not in caplog.text


@pytest.mark.parametrize(
    "location", ["\\\\captcha.example\\solve", "/\t/captcha.example/solve", "http:/\t/captcha.example/solve"]
)
def test_a_wall_redirect_is_read_as_the_hop_reads_it(location):
    """A ``Location`` is read as a browser and the hop loop read it (backslashes as slashes, tabs
    dropped): the wall at another host is recognised where the redirect leads."""
    wall = BotWall("host wall", address=lambda url: urlsplit(url).hostname == "captcha.example")
    assert bot_wall("https://e.example/", PAGE, [wall], location=location, scanned=[]) == "host wall"


# -- which answers bot_wall_error scans, and the header-marked wall ---------------------------------

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ddg_html"
#: DuckDuckGo's recorded deep-results block script (no headers were recorded: see its case's meta).
BLOCK_SCRIPT = (FIXTURES / "duck-duck-scrape__news_anomaly_block.2.txt").read_bytes()
#: DuckDuckGo's recorded news answer: a JSON object.
NEWS_ANSWER = (FIXTURES / "phrona__news_rust_programming.2.json").read_bytes()


def _answer(content: bytes, headers: dict) -> HttpResponse:
    return HttpResponse(
        status=200, headers=CaseInsensitiveDict(headers), content=content, url="https://duckduckgo.com/news.js"
    )


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "application/vnd.api+json"])
def test_a_block_script_labelled_json_is_scanned(content_type):
    """An endpoint whose answers are JSON labels its block script as JSON too: a body labelled JSON
    (``application/json`` or any ``+json`` type) that does not start like JSON is scanned."""
    error = bot_wall_error(_answer(BLOCK_SCRIPT, {"Content-Type": content_type}), "ddg_html", [DEEP_ANOMALY, DEEP_506])
    assert error is not None and error.detail_code == "captcha_required"


@pytest.mark.parametrize("before", ["", "\n", " \r\n\t"])
@pytest.mark.parametrize("content_type", ["application/json", "application/vnd.api+json"])
def test_a_json_answer_is_never_scanned(content_type, before):
    """A JSON object or array, after JSON's own white space, is an API's answer, never scanned:
    a wall whose marker is a word of the recorded answer (``rust``) does not find it there. The
    same body labelled HTML is scanned (the wall would find its marker)."""
    wall = BotWall("word wall", hints=("rust programming",), patterns=(re.compile("rust programming"),))
    body = before.encode() + NEWS_ANSWER
    assert bot_wall_error(_answer(body, {"Content-Type": content_type}), "ddg_html", [wall]) is None
    assert bot_wall_error(_answer(body, {"Content-Type": "text/html"}), "ddg_html", [wall]) is not None


@pytest.mark.parametrize("value", ["challenge", "Challenge", "challenge "])
def test_cloudflare_challenge_is_read_from_its_header_whatever_its_case_and_spacing(value):
    """``cf-mitigated: challenge`` (Cloudflare's documented marker) makes any answer a wall; a
    header value's case and surrounding white space are the sender's, so they do not count."""
    error = bot_wall_error(_answer(b"<html><title>Just a moment...</title></html>", {"cf-mitigated": value}), None)
    assert error is not None and error.detail_code == "captcha_required"
    assert bot_wall_error(_answer(b"<html><title>Just a moment...</title></html>", {}), None) is None


def test_a_fetched_page_loading_a_script_named_mkd_js_is_no_wall():
    """ "mkd" is a common short name for markdown: a page loading ``/static/js/mkd.js`` is read, not
    taken for Baidu's security check (which loads ``mkd.js`` beside its ``mkdjump`` script and
    title; a rule matching the script name alone blocked such pages and cooled their host down)."""
    from websearch_sync.engine.registry import wall_error

    body = (
        b'<html><head><title>Markdown notes</title><script src="/static/js/mkd.js"></script></head>'
        b"<body><article><p>Notes written in markdown, rendered in the browser.</p></article></body></html>"
    )
    page = HttpResponse(
        status=200,
        headers=CaseInsensitiveDict({"Content-Type": "text/html"}),
        content=body,
        url="https://notes.example/page",
    )
    assert wall_error(page, None) is None


def test_nginxs_too_many_requests_page_under_a_200_is_a_rate_limit_and_a_longer_title_is_not():
    """nginx's own error page (the template of tests/fake_searxng.py's recorded 403, as nginx writes its
    429) served with a 200 was read as a results page that does not parse. A page whose title only
    names the status among other words (an article on HTTP 429) is a page."""
    from fake_searxng import NGINX_403

    page = NGINX_403.replace(b"403 Forbidden", b"429 Too Many Requests")
    error = bot_wall_error(_answer(page, {"Content-Type": "text/html"}), "ddg_html")
    assert error is not None and error.detail_code == "http_429" and error.status == 200, error
    article = page.replace(b"<title>429 Too Many Requests", b"<title>429 Too Many Requests - HTTP | MDN")
    assert bot_wall_error(_answer(article, {"Content-Type": "text/html"}), "ddg_html") is None


def test_cloudflares_challenge_page_without_its_header_is_a_wall_and_its_title_alone_is_not():
    """The managed challenge (tests/fake_searxng.py's page: its title and its ``<noscript>`` words) passed
    on without ``cf-mitigated`` (a proxy that drops the header, a cache serving it with a 200) was a page
    that does not parse. Its title and its words together are the wall; the title alone is a page."""
    from fake_searxng import CLOUDFLARE_CHALLENGE

    error = bot_wall_error(_answer(CLOUDFLARE_CHALLENGE, {"Content-Type": "text/html"}), "ddg_html")
    assert error is not None and error.detail_code == "captcha_required", error
    assert "Cloudflare challenge" in error.message, error.message
    words = CLOUDFLARE_CHALLENGE.replace(b"<title>Just a moment...</title>", b"<title>Notes</title>")
    assert bot_wall_error(_answer(words, {"Content-Type": "text/html"}), "ddg_html") is None
