"""SearXNG as it really runs (issue 33, point 15): what a real instance with failing engines, its
limiter, locked preferences and a bot wall in front of it does, and what the library makes of it.
Every test talks to the fake instance of tests/fake_searxng.py."""

import json
from urllib.parse import urlsplit

import pytest
from clocks import FakeClock
from fake_searxng import CLOUDFLARE_CHALLENGE, Engine, FakeSearXNG
from faults import respond

import websearch_sync as ws


def client(sx, clock=None, **settings):
    return ws.SearchClient(
        settings=ws.Settings(providers={"searxng": dict({"base_url": sx.url}, **settings)}),
        clock=clock or FakeClock(),
        retries=2,
        cache_ttl_s=0,
        backend="searxng",
    )


def search(c, **options):
    # one result page: the fake instance answers every pageno alike (its engines hold 3 results, a call asks 5)
    try:
        return c.search("q", **dict({"backend": "searxng", "max_pages": 1}, **options))
    except ws.WebSearchError as error:
        return error


# -- cool-downs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reason, suspended_s, kind_default_s",
    [("CAPTCHA", 3600.0, 600.0), ("access denied", 180.0, 300.0)],
)
def test_a_blocked_engine_cools_down_as_long_as_the_instance_suspends_it(reason, suspended_s, kind_default_s):
    """Before: the cool-down was the kind's default (600 s after a CAPTCHA, 300 s after a 403),
    not the suspension the error carried (3600 s, 180 s)."""
    clock = FakeClock()
    with FakeSearXNG([Engine("duckduckgo", fails=reason)]) as sx:
        c = client(sx, clock)
        error = search(c)
        assert isinstance(error, ws.WebBlocked) and error.retry_after == suspended_s
        clock.advance(min(suspended_s, kind_default_s) + 1)
        again = search(c)
        if suspended_s > kind_default_s:
            assert isinstance(again, ws.WebBlocked) and "cooling down" in again.message
            assert len(sx.searches) == 1
        else:
            assert len(sx.searches) == 2, "still cooling down past the instance's own suspension"


def test_after_the_limiters_429_the_cool_down_keeps_its_advice_and_stays_not_retryable():
    """Before: the cool-down's error dropped the limiter's advice and said retryable: true."""
    with FakeSearXNG([Engine("google")], limiter=True) as sx:
        c = client(sx)
        for _ in range(4):
            search(c)
        first = search(c)
        later = search(c)
        assert len(sx.searches) == 5
    assert "cooling down" in later.message
    assert (later.retryable, first.retryable) == (False, False)
    assert "pass_ip" in later.message and "server.limiter: false" in later.message
    assert later.retry_after is not None and later.retry_after <= 3600.0


# -- every engine failed ----------------------------------------------------------------------------


def test_an_all_engines_failed_errors_entries_name_their_engine_and_suspension():
    """Before: the entries of the error's ``errors`` had neither ``engine`` nor ``retry_after``."""
    engines = [Engine("brave", fails="too many requests"), Engine("qwant", delay_s=5.0)]
    with FakeSearXNG(engines, request_timeout_s=0.2) as sx:
        error = search(client(sx), max_results=3)
    assert isinstance(error, ws.Timeout)
    entries = error.to_dict()["errors"]
    assert [(e["engine"], e["detail_code"], e.get("retry_after")) for e in entries] == [
        ("brave", "http_429", 180.0),
        ("qwant", "engine_timeout", None),
    ]
    assert "engine" not in error.to_dict()  # the call's own error is the instance's, not one engine's


# -- languages --------------------------------------------------------------------------------------


def test_without_a_locale_every_language_is_searched():
    """Before: ``Accept-Language: en`` and no ``language``, so the instance searched in English only
    (SearXNG takes the language from Accept-Language when the request names none)."""
    with FakeSearXNG([Engine("google")]) as sx:
        search(client(sx))
        [sent] = sx.searches
        [request] = [r for r in sx.server.requests if r.route == "/search"]
    assert sent["language"] == "all"
    assert request.headers["accept-language"] == "*"  # the limiter wants the header: any language


@pytest.mark.parametrize("locale, language", [("de-DE", "de-DE"), ("auto", "auto"), ("all", "all")])
def test_a_locale_and_searxngs_own_words_are_sent_as_language(locale, language):
    """``locale="auto"`` (SearXNG picks the language: a current instance takes ``Accept-Language``'s,
    ``*`` here, one older than March 2026 detects the query's) was refused before any request."""
    with FakeSearXNG([Engine("google")]) as sx:
        result = search(client(sx), locale=locale)
        [sent] = sx.searches
    assert "items" in result, result
    assert sent["language"] == language


def test_locale_auto_is_refused_by_a_backend_that_cannot_pick_the_language():
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="brave", locale="auto", settings=ws.Settings(providers={"brave": {"api_key": "k" * 20}}))
    assert info.value.detail_code == "bad_locale" and "brave" in info.value.message


# -- answers ----------------------------------------------------------------------------------------

#: What SearXNG's statistics answerer gives for ``avg 1 2 3`` (``Answer.as_dict()``), with no results.
AVERAGE = {"url": None, "engine": "", "parsed_url": None, "template": "answer/legacy.html", "answer": "2"}


@pytest.mark.parametrize("style", ["text", "markdown"])
def test_an_answer_reaches_the_models_text(style):
    """Before: the tool's text for ``avg 1 2 3`` was "No results found."."""
    from websearch_sync.tool import call_tool, format_for_model

    with FakeSearXNG([Engine("google", results=0)], answers=[AVERAGE]) as sx:
        result = call_tool("web_search", {"query": "avg 1 2 3"}, client=client(sx))
    text, _ = format_for_model(result, style)
    assert text.splitlines()[0] == "Answer: 2"
    assert "No results" not in text and "failed" not in text  # an answer only is no failure


def test_answers_come_before_the_results():
    from websearch_sync.tool import call_tool, format_results

    with FakeSearXNG([Engine("google", results=2)], answers=[dict(AVERAGE, answer="Your IP is: 127.0.0.1")]) as sx:
        text = format_results(call_tool("web_search", {"query": "my ip"}, client=client(sx)))
    lines = text.splitlines()
    assert lines[0] == "Answer: Your IP is: 127.0.0.1" and lines[2].startswith("1. google result 1")


# -- a bot wall in front ----------------------------------------------------------------------------


def test_an_anubis_challenge_in_front_of_the_instance_is_a_block():
    """Before: Anubis's challenge page (HTML where JSON belongs) was WebParseError(not_json)."""
    with FakeSearXNG([Engine("google")], front="anubis") as sx:
        c = client(sx)
        error = search(c)
        again = search(c)
        assert len(sx.searches) == 1  # not retried, and the instance cools down
    assert (error.code, error.detail_code) == ("WebBlocked", "captcha_required")
    assert "Anubis" in error.message
    assert isinstance(again, ws.WebBlocked) and "cooling down" in again.message


# -- the engines and categories asked ---------------------------------------------------------------


def test_a_category_that_is_not_its_engines_first_is_no_false_warning():
    """Before: results of ``categories=science`` from an engine whose first category is ``general``
    read as "the instance ignored science" (each result names its engine's first category only)."""
    engines = [Engine("google"), Engine("wikidata", categories=("general", "science"))]
    with FakeSearXNG(engines) as sx:
        result = search(client(sx), categories="science")
        assert sx.config_reads == 1  # the results alone could not tell: /config did
    assert len(result["items"]) == 3
    assert "errors" not in result


def test_a_locked_preference_that_overrides_the_calls_categories_is_reported():
    engines = [Engine("google"), Engine("bing news", categories=("news",), default=False)]
    with FakeSearXNG(engines, locked=("categories",)) as sx:
        c = client(sx)
        result = search(c, categories="news")
        engines_asked = search(c, engines="bing news")
    assert len(result["items"]) == 3  # the instance's default engines answered
    [warning] = result["errors"]
    assert (warning["type"], warning["detail_code"]) == ("WebProviderError", "option_overridden")
    assert "news" in warning["message"] and "preferences.lock" in warning["message"]
    [warning] = engines_asked["errors"]
    assert warning["detail_code"] == "option_overridden" and "bing news" in warning["message"]


def test_the_models_error_line_names_each_failed_engine_not_other_backends():
    from websearch_sync.tool import call_tool, format_results

    engines = [Engine("brave", fails="too many requests"), Engine("duckduckgo", fails="CAPTCHA")]
    with FakeSearXNG(engines) as sx:
        text = format_results(call_tool("web_search", {"query": "q"}, client=client(sx)))
    assert "Other backends" not in text
    assert "Its engines failed: brave WebBlocked (http_429) (suspended for 180 s)" in text
    assert "duckduckgo WebBlocked (captcha_required) (suspended for 3600 s)" in text


# -- a time range ------------------------------------------------------------------------------------


def test_engines_skipped_for_a_time_range_are_named():
    """SearXNG does not ask an engine without time-range support when a search has a time range
    (``get_params`` returns ``None``) and its answer says nothing of it: before, the results of the
    others came back as if every engine had been searched. ``/config`` names the skipped ones."""
    engines = [Engine("google"), Engine("wikipedia", time_range_support=False), Engine("bing", results=2)]
    with FakeSearXNG(engines) as sx:
        c = client(sx)
        result = search(c, time_range="week")
        unfiltered = search(c)
        assert sx.config_reads == 1  # read once for the time range, then known
    assert len(result["items"]) == 5 and engines[1].asked == 1  # asked by the search without time range only
    [warning] = result["errors"]
    assert (warning["type"], warning["detail_code"]) == ("WebProviderError", "time_range_skipped")
    assert "none of their results are here: wikipedia; asked: google, bing" in warning["message"]
    assert "errors" not in unfiltered


def test_a_time_range_no_engine_asked_supports_is_said_instead_of_no_results():
    with FakeSearXNG([Engine("google"), Engine("wikipedia", time_range_support=False)]) as sx:
        result = search(client(sx), engines="wikipedia", time_range="day")
    assert result["items"] == []
    [warning] = result["errors"]
    assert warning["detail_code"] == "time_range_skipped"
    assert "wikipedia; that was every engine of this search" in warning["message"]


def _recorded_with_a_time_range(folder):
    """fixtures/searxng/shortlist__1 as recorded, its search made with ``time_range=week`` (the
    request said so; the instance's answer is the same): a case recorded before ``/config`` was read."""
    import shutil

    from fake_searxng import FIXTURES

    (folder / "searxng").mkdir()
    for name in ("shortlist__1.json", "shortlist__1.expected.json"):
        shutil.copy(FIXTURES / name, folder / "searxng" / name)
    meta = json.loads((FIXTURES / "shortlist__1.meta.json").read_text(encoding="utf-8"))
    meta["options"] = {"time_range": "week"}
    meta["request"]["query_params"]["time_range"] = "week"
    (folder / "searxng" / "shortlist__1.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return meta


def test_a_case_recorded_with_a_time_range_before_config_was_read_replays_its_search(tmp_path):
    """Before: /config went first and took the search's recorded answer (replay_fixtures:
    no_recorded_case; verify: ERROR request mismatch on /config). It goes after the search, best
    effort: a recording without it replays its search as recorded, and says that the time range
    could not be checked (the recording holds no /config), a note its older golden lacks: verify
    reports that drift in errors only, the items as recorded."""
    from websearch_sync.contract.cases import discover, run_case
    from websearch_sync.testing import replay_fixtures

    meta = _recorded_with_a_time_range(tmp_path)
    [case] = discover(tmp_path)
    verdict = run_case(case)
    assert verdict.status == "DRIFT" and [d.split(":")[0] for d in verdict.diff] == ["items", "~ errors"], verdict.diff
    assert verdict.diff[0].endswith("(0 removed, 0 added, 0 changed)")
    with replay_fixtures(tmp_path, backends="searxng"):
        result = ws.search(meta["query"], backend="searxng", max_results=5, time_range="week")
    assert [item["url"] for item in result["items"]] == [item["url"] for item in verdict.outcome["items"]]
    codes = [e["detail_code"] for e in result["errors"]]
    assert codes == [e["detail_code"] for e in verdict.outcome["errors"]] and codes[-1] == "time_range_unverified"
    assert "a best-effort request, answered by none" in result["errors"][-1]["message"]


def test_the_search_request_itself_is_still_checked_against_the_recording(tmp_path):
    """/config is best effort in a replay; the search is not: one the recording does not describe
    (a time range it was not recorded with) is still an ERROR."""
    from websearch_sync.contract.cases import discover, run_case

    meta = _recorded_with_a_time_range(tmp_path)
    meta["options"]["time_range"] = "month"
    (tmp_path / "searxng" / "shortlist__1.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    [case] = discover(tmp_path)
    verdict = run_case(case)
    assert verdict.status == "ERROR" and "time_range" in " ".join(verdict.diff), verdict.diff


def test_record_then_verify_keeps_the_config_read_of_a_time_range(tmp_path):
    """A new recording holds what the wire sent: the search, then /config; its replay (record's
    own, in the process that has just read /config live, and a later verify) sends both again."""
    from websearch_sync.contract.cases import discover, load_golden, run_case
    from websearch_sync.contract.recording import record_case
    from websearch_sync.testing import reset

    engines = [Engine("google"), Engine("wikipedia", time_range_support=False)]
    with FakeSearXNG(engines) as sx:
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url}})
        recorded = record_case(  # one page: the fake instance answers every page alike
            "searxng", "q", fixtures_dir=tmp_path, settings=settings, options={"time_range": "week", "max_pages": 1}
        )
    assert recorded.ok, recorded.verdict.diff
    meta = json.loads((tmp_path / "searxng" / "q.meta.json").read_text(encoding="utf-8"))
    assert [urlsplit(e["request"]["url"]).path for e in meta["exchanges"]] == ["/search", "/config"]
    [case] = discover(tmp_path)
    assert [e["detail_code"] for e in load_golden(case)["errors"]] == ["time_range_skipped"]
    reset()
    verdict = run_case(case)
    assert verdict.status == "PASS", verdict.diff


def test_two_time_range_cases_of_one_instance_recorded_in_one_process_both_keep_config(tmp_path):
    """Before: the second case's live search found /config known from the first, so its recording
    lacked the /config exchange while its golden had the warning (the live answer's); its replay
    sent /config and failed. Each recording starts from no /config known."""
    from websearch_sync.contract.cases import discover, load_golden, run_case
    from websearch_sync.contract.recording import record_case

    with FakeSearXNG([Engine("google"), Engine("wikipedia", time_range_support=False)]) as sx:
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url}})
        for query in ("q", "other"):
            recorded = record_case(  # one page: the fake instance answers every page alike
                "searxng",
                query,
                fixtures_dir=tmp_path,
                settings=settings,
                options={"time_range": "week", "max_pages": 1},
            )
            assert recorded.ok, recorded.verdict.diff
    for query in ("q", "other"):
        meta = json.loads((tmp_path / "searxng" / (query + ".meta.json")).read_text(encoding="utf-8"))
        assert [urlsplit(e["request"]["url"]).path for e in meta["exchanges"]] == ["/search", "/config"]
    cases = discover(tmp_path)
    assert [[e["detail_code"] for e in load_golden(case)["errors"]] for case in cases] == [["time_range_skipped"]] * 2
    assert [run_case(case).status for case in cases] == ["PASS", "PASS"]


def test_a_time_range_does_not_turn_a_paced_search_into_a_failure():
    """Before: with one request every 20 s, /config (read first for the time range) took the call's
    slot and the search failed budget_exhausted. The search goes first; /config gets no slot free
    at once in the call, so the results stand, said unverified. Nor does the next call (60 s later,
    its slot free) read /config before its search: before, the read that got no slot left a wish to
    read it first, which took that call's slot and failed its search."""
    clock = FakeClock()
    with FakeSearXNG([Engine("google"), Engine("wikipedia", time_range_support=False)]) as sx:
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url}})
        with ws.SearchClient(settings=settings, clock=clock, cache_ttl_s=0, min_interval_s=20) as c:
            result = c.search("q", backend="searxng", time_range="week")
            clock.advance(60)
            later = c.search("q", backend="searxng", time_range="week")
        assert sx.config_reads == 0 and len(sx.searches) == 2
    for answer in (result, later):
        assert len(answer["items"]) == 3 and [e["detail_code"] for e in answer["errors"]] == ["time_range_unverified"]


@pytest.mark.parametrize(
    "answer",
    [
        respond(429, b"Too Many Requests", {"Retry-After": "120"}, content_type="text/plain"),
        respond(403, CLOUDFLARE_CHALLENGE, {"cf-mitigated": "challenge", "Server": "cloudflare"}),
    ],
    ids=["429-retry-after", "cloudflare-challenge"],
)
def test_a_block_on_config_cools_the_instance_down_as_a_search_would(answer):
    """Before: /config's 429 or challenge was dropped as 'no config' and the next search went
    straight into the block. Its answer is judged as the search's: the instance cools down."""
    clock = FakeClock()

    def taking_a_second(conn, request, server):  # the call's success clears a block recorded as it began
        clock.advance(1.0)
        answer(conn, request, server)

    with FakeSearXNG([Engine("google"), Engine("wikipedia", time_range_support=False)]) as sx:
        sx.server.routes["/config"] = taking_a_second
        c = client(sx, clock)
        first = search(c, time_range="week")
        again = search(c)
        assert len(sx.searches) == 1 and sx.config_reads == 1
    [note] = first["errors"]  # the search itself stands, the time range unverified: the block says why
    assert len(first["items"]) == 3 and note["detail_code"] == "time_range_unverified"
    assert isinstance(again, ws.WebBlocked) and "cooling down" in again.message


@pytest.mark.parametrize("style", ["text", "markdown"])
@pytest.mark.parametrize(
    "config, said",
    [(True, ("wikipedia", "asked: google")), (False, ("could not check", "/config could not be read"))],
    ids=["skipped", "unverified"],
)
def test_the_models_text_says_a_warning_as_a_note_not_as_a_failed_source(style, config, said):
    """Before: the time_range_skipped warning was counted among the failed sources ('4 source(s)
    failed: ... searxng WebProviderError'), its message lost. The agent tools (and the MCP server,
    format_for_model) show the same text. So does time_range_unverified (an instance without /config)."""
    from websearch_sync.integrations.agent_tool import agent_tools

    engines = [Engine("google"), Engine("wikipedia", time_range_support=False), Engine("brave", fails="CAPTCHA")]
    with FakeSearXNG(engines, config=config) as sx:
        [web_search] = [t for t in agent_tools(client(sx), style=style) if t.name == "web_search"]
        text = web_search.run({"query": "q", "time_range": "week"}).text
    notes = [line for line in text.splitlines() if line.startswith("Note")]
    assert len(notes) == 2, notes
    assert "time range" in notes[0] and all(words in notes[0] for words in said)
    assert notes[1] == "Note: 1 source(s) failed: searxng WebBlocked (captcha_required)"
