"""Every keyless engine recognises every registered engine's recorded walls, though a successful
answer is scanned for the engine's own walls only until it reads no results (a scan reads the
whole page, 0.4-0.9 MB on Baidu and Startpage; see engine/html_engine.py's docstring).

Pages: the recorded wall cases and results pages under fixtures/ (their goldens say which).
"""

import functools
from urllib.parse import urlsplit, urlunsplit

import pytest
from backend_kit import project_backends, web_cases
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.client.cooldown import DEFAULT_COOLDOWNS_S, Cooldowns
from websearch_sync.engine import registry
from websearch_sync.models import SearchParams
from websearch_sync.net.botwall import bot_wall
from websearch_sync.net.response import HttpResponse

HTML_ENGINES = [name for name in project_backends() if registry.backend_class(name).kind == "html"]
PARAMS = SearchParams(query="test", max_results=10)


#: Every recorded wall of every keyless engine: (case id, url, text, Location).
WALLS = [wall for name in HTML_ENGINES for wall in web_cases(name, '"captcha_required"')]


def _answer(status: int, text: str, url: str, location=None, retry_after=None) -> HttpResponse:
    headers = CaseInsensitiveDict({"Content-Type": "text/html; charset=utf-8"})
    if retry_after is not None:
        headers["Retry-After"] = retry_after
    if location:
        headers["Location"] = location
    return HttpResponse(status=status, headers=headers, content=text.encode("utf-8"), url=url)


def _engine(name: str):
    return registry.backend_class(name)(ws.Settings())


def _own(name: str, url: str, text: str, location) -> bool:
    """Whether one of ``name``'s own walls recognises the page."""
    return bot_wall(url, text, registry.backend_class(name).bot_walls, location) is not None


def test_walls_are_on_record_from_several_engines():
    engines = {case_id.split("/")[0] for case_id, _, _, _ in WALLS}
    assert len(WALLS) >= 8 and len(engines) >= 4, sorted(engines)


@pytest.mark.parametrize("status", [200, 202, 403, 429, 503])
@pytest.mark.parametrize("name", HTML_ENGINES)
def test_every_engine_blocks_on_every_recorded_wall(name, status):
    engine = _engine(name)
    foreign = 0
    for case_id, url, text, location in WALLS:
        foreign += not _own(name, url, text, location)
        with pytest.raises(ws.WebBlocked) as caught:
            engine.interpret(_answer(status, text, url, location), PARAMS)
        assert caught.value.detail_code == "captcha_required", case_id
    assert foreign, "no other engine's wall was tried on %s" % name


@pytest.mark.parametrize("status", [429, 503])
@pytest.mark.parametrize("name", HTML_ENGINES)
def test_a_wall_sent_with_retry_after_keeps_the_services_wait(name, status):
    """The recorded walls replayed with a status and a ``Retry-After: 120`` no recording pins (a
    variant): still ``captcha_required``, not retried in the call, and the wait the service gave is
    the error's ``retry_after`` (the cool-down's length) instead of being dropped for the wall's."""
    engine = _engine(name)
    for case_id, url, text, location in WALLS:
        with pytest.raises(ws.WebBlocked) as caught:
            engine.interpret(_answer(status, text, url, location, retry_after="120"), PARAMS)
        error = caught.value
        assert (error.detail_code, error.retryable, error.retry_after) == ("captcha_required", False, 120.0), case_id
        assert error.provider == name and error.status == status, case_id


@pytest.mark.parametrize("retry_after", ["0", "Wed, 21 Oct 2015 07:28:00 GMT"])
def test_a_wall_that_says_ask_again_now_keeps_the_walls_own_cool_down(retry_after):
    """A wall with ``Retry-After: 0`` (or a date gone by; a variant of the recorded walls): asked
    again at once, the engine would only serve the wall again, so the error carries no wait and
    the cool-down is the wall's default, not none."""
    engine = _engine(HTML_ENGINES[0])
    for case_id, url, text, location in WALLS:
        with pytest.raises(ws.WebBlocked) as caught:
            engine.interpret(_answer(429, text, url, location, retry_after=retry_after), PARAMS)
        assert (caught.value.detail_code, caught.value.retry_after) == ("captcha_required", None), case_id
        assert Cooldowns().duration_s(caught.value) == DEFAULT_COOLDOWNS_S["captcha_required"], case_id


#: The recorded redirect walls (Startpage's to /sp/captcha, Baidu's to /static/captcha/...).
REDIRECTS = [(case_id, url, location) for case_id, url, _, location in WALLS if location]


@pytest.mark.parametrize("name", HTML_ENGINES)
def test_a_redirect_wall_with_a_relative_location_is_still_the_wall(name):
    """The recorded redirects replayed with their ``Location`` relative (its path and query, as HTTP
    allows; a variant, no recording sends it): read against the answer's URL, still the wall."""
    assert len(REDIRECTS) >= 2
    engine = _engine(name)
    for case_id, url, location in REDIRECTS:
        parts = urlsplit(location)
        relative = urlunsplit(("", "", parts.path, parts.query, ""))
        with pytest.raises(ws.WebBlocked) as caught:
            engine.interpret(_answer(302, "", url, relative), PARAMS)
        assert caught.value.detail_code == "captcha_required", case_id


@pytest.mark.parametrize("name", HTML_ENGINES)
def test_a_location_that_is_no_url_is_no_wall_and_no_crash(name):
    with pytest.raises(ws.WebSearchError) as caught:
        _engine(name).interpret(_answer(302, "", registry.backend_class(name).default_endpoint, "http://[::1"), PARAMS)
    assert caught.value.detail_code != "captcha_required"


@functools.cache
def _results_page(name: str):
    """A recorded results page of ``name`` (its url and text) and the items it reads (parsed once
    per process, when a test first asks: every worker collects the module, one runs it)."""
    engine = _engine(name)
    for _, url, text, _ in web_cases(name, '"rank"'):
        items = engine.interpret(_answer(200, text, url), PARAMS).items
        if items:
            return url, text, items
    return None


#: The engines with a recorded results page: a golden of ranked items (chosen without parsing the
#: pages, which collecting did in every worker; each test reads its engine's, :func:`_results_page`).
RESULT_ENGINES = [name for name in HTML_ENGINES if next(web_cases(name, '"rank"'), None) is not None]


def test_results_pages_are_on_record_for_the_engines():
    assert {"ddg_html", "bing_html", "baidu_html", "mojeek_html", "yahoo_html"} <= set(RESULT_ENGINES)
    unread = [name for name in RESULT_ENGINES if _results_page(name) is None]
    assert not unread, "a golden of ranked items, and no recorded page that reads any: %s" % unread


@pytest.mark.parametrize("name", RESULT_ENGINES)
def test_a_results_page_holding_another_engines_wall_keeps_its_results(name):
    """A page that reads results is not a wall of another engine, even with that wall's whole
    markup inside it (the page scanned for every wall would be a block)."""
    url, text, items = _results_page(name)
    engine = _engine(name)
    tried = 0
    for case_id, wall_url, wall, location in WALLS:
        if location or _own(name, wall_url, wall, location):
            continue
        page = text + wall  # after the results region: the engine's items are the same
        if bot_wall(url, page, registry.bot_walls()) is None:
            continue  # a wall recognised by where its markers sit (its title, the page's start)
        assert engine.interpret(_answer(200, page, url), PARAMS).items == items, case_id
        tried += 1
    assert tried


def test_a_results_page_holding_the_engines_own_wall_is_a_block():
    """The engine's own walls are looked for before the page is read."""
    tried = []
    for name in RESULT_ENGINES:
        url, text, _ = _results_page(name)
        for case_id, _, wall, location in WALLS:
            page = text + wall
            if location or bot_wall(url, page, registry.backend_class(name).bot_walls) is None:
                continue
            with pytest.raises(ws.WebBlocked, match="bot wall"):
                _engine(name).interpret(_answer(200, page, url), PARAMS)
            tried.append((name, case_id))
    assert len({name for name, _ in tried}) >= 3, tried


def _empty_pages():
    """Recorded "no results" pages (golden: no items) of the keyless engines that read none (parsed
    when the test runs, not at every worker's collection)."""
    return [
        (name, case_id, url, text)
        for name in HTML_ENGINES
        for case_id, url, text, _ in web_cases(name, '"items": []')
        if not _engine(name).interpret(_answer(200, text, url), PARAMS).items
    ]


def test_a_no_results_page_holding_another_engines_wall_is_a_block():
    """A page that reads no results is scanned for every wall: "0 results" is never a wall's answer."""
    tried = []
    for name, case_id, url, text in _empty_pages():
        for wall_case, _, wall, location in WALLS:
            page = text + wall
            if location or _own(name, url, page, None) or bot_wall(url, page, registry.bot_walls()) is None:
                continue
            with pytest.raises(ws.WebBlocked) as caught:
                _engine(name).interpret(_answer(200, page, url), PARAMS)
            assert caught.value.detail_code == "captcha_required", (case_id, wall_case)
            tried.append(name)
    assert {"ddg_html", "bing_html"} <= set(tried), tried


def test_an_engine_reading_the_page_its_own_way_still_meets_every_wall():
    """A plugin's HtmlEngine that overrides ``parse`` keeps the check of every wall on an answer
    without results: it is made around ``parse``, not inside the shared one."""
    from websearch_sync.engine.html_engine import HtmlEngine
    from websearch_sync.models import ParseResult

    class OwnWay(HtmlEngine):
        name = "own_way_test"
        default_endpoint = "https://own-way.example/search"

        def query(self, params):
            return {"q": params.query}

        def parse(self, response, params):
            return ParseResult(items=[])  # reads nothing from any page

    engine = OwnWay(ws.Settings())
    body_walls = [(case_id, url, wall) for case_id, url, wall, location in WALLS if not location]
    assert body_walls
    for case_id, url, wall in body_walls:
        with pytest.raises(ws.WebBlocked, match="bot wall"):
            engine.interpret(_answer(200, wall, url), PARAMS)
            raise AssertionError(case_id)  # not reached when the wall is recognised


def test_the_walls_list_follows_registrations_and_patched_declarations(monkeypatch):
    """``registry.bot_walls()`` is kept between calls: a backend registered or unregistered since,
    or a class whose ``bot_walls`` was replaced, gives a new list."""
    from websearch_sync.backends.stub import Stub
    from websearch_sync.net.botwall import BotWall

    wall, patched = BotWall("probe wall", hints=("<probe-wall>",)), BotWall("patched wall", hints=("<patched>",))

    class Walled(Stub):
        name = "walls_probe"
        bot_walls = (wall,)

    before = registry.bot_walls()
    assert registry.bot_walls() == before and wall not in before
    registry.register(Walled)
    try:
        assert wall in registry.bot_walls()
        monkeypatch.setattr(Walled, "bot_walls", (patched,))
        walls = registry.bot_walls()
        assert patched in walls and wall not in walls
    finally:
        registry.unregister("walls_probe")
    assert registry.bot_walls() == before
