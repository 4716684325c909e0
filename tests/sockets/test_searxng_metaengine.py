"""SearXNG is a meta-engine (issue 24): engine-level cool-downs, its own deadline, its limiter,
its 403s, its extras. Every test talks to a fake SearXNG on 127.0.0.1 (tests/fake_searxng.py)
that answers like the real one."""

import json

import pytest
from clocks import FakeClock, paced_budget_s
from fake_searxng import Engine, FakeSearXNG

import websearch_sync as ws
from websearch_sync.cli import main as cli_main

#: The limiter's window for JSON requests (searx/botdetection/ip_limit.py: API_WINDOW).
LIMITER_WINDOW_S = 3600.0


def client(sx, clock=None, **settings):
    provider = dict({"base_url": sx.url}, **settings)
    return ws.SearchClient(
        settings=ws.Settings(providers={"searxng": provider}), clock=clock or FakeClock(), retries=2, cache_ttl_s=0
    )


def search(c, **options):
    # one result page: the fake instance answers every pageno alike (its engines hold 3 results, a call asks 5)
    try:
        return c.search("q", **dict({"backend": "searxng", "max_pages": 1}, **options))
    except ws.WebSearchError as error:
        return error


# -- 1. engine-level failures ---------------------------------------------------------------------


def test_blocked_engines_cool_down_only_the_engines_asked_for():
    with FakeSearXNG([Engine("google"), Engine("brave", fails="too many requests", default=False)]) as sx:
        c = client(sx)
        blocked = search(c, engines="brave")
        assert isinstance(blocked, ws.WebBlocked) and blocked.retryable is False
        healthy = search(c, engines="google")
        assert not isinstance(healthy, ws.WebSearchError), "a healthy engine was refused while the instance answers it"
        assert [i["url"].split("/")[2] for i in healthy["items"]] == ["google.example"] * 3
        default = search(c)
        assert len(default["items"]) == 3
        again = search(c, engines="brave")
        assert isinstance(again, ws.WebBlocked) and "cooling down" in again.message and "engines=brave" in again.message
        assert again.provider == "searxng"
    assert len(sx.searches) == 3, "the engines that cool down were asked again"


def test_blocked_engines_leave_the_instance_s_host_open_to_fetch():
    """A block of some engines is the instance's report on them, not a wall of its host: it cooled
    the host down, and a fetch of the instance's pages was refused for the engine's cool-down."""
    with FakeSearXNG([Engine("google"), Engine("brave", fails="too many requests", default=False)]) as sx:
        c = client(sx)
        assert isinstance(search(c, engines="brave"), ws.WebBlocked)
        with pytest.raises(ws.WebParseError) as read:  # the home page is a search form: no text to read
            c.fetch(sx.server.url("/"), allow_private=True)
    assert read.value.detail_code == "no_content" and [r.route for r in sx.server.requests][-1] == "/"


def test_every_engine_error_carries_its_engine_and_retry_after():
    engines = [
        Engine("google"),
        Engine("brave", fails="too many requests"),
        Engine("duckduckgo", fails="CAPTCHA"),
        Engine("qwant", delay_s=5.0),
    ]
    with FakeSearXNG(engines, request_timeout_s=0.2) as sx:
        result = search(client(sx))
    assert [(e["engine"], e["detail_code"], e.get("retry_after")) for e in result["errors"]] == [
        ("brave", "http_429", 180.0),
        ("duckduckgo", "captcha_required", 3600.0),
        ("qwant", "engine_timeout", None),
    ]


def test_all_engines_blocked_is_back_when_the_first_engine_is():
    engines = [Engine("brave", fails="too many requests"), Engine("duckduckgo", fails="CAPTCHA")]
    with FakeSearXNG(engines) as sx:
        error = search(client(sx))
    assert (error.code, error.retry_after, error.retryable) == ("WebBlocked", 180.0, False)
    assert [(e.detail_code, e.retry_after) for e in error.errors] == [("http_429", 180.0), ("captcha_required", 3600.0)]


def test_an_engine_that_may_answer_at_once_is_asked_again():
    engines = [Engine("brave", fails="too many requests"), Engine("qwant", delay_s=5.0)]
    with FakeSearXNG(engines, request_timeout_s=0.2) as sx:
        error = search(client(sx))
        assert (error.code, error.detail_code, error.retryable) == ("Timeout", "engine_timeout", True)
    assert len(sx.searches) == 3  # a timeout heals by itself: retried (no cool-down either)


def test_the_cli_lists_each_failed_engine_once(capsys, monkeypatch, fake_clock):
    engines = [
        Engine("brave", fails="too many requests"),
        Engine("duckduckgo", fails="CAPTCHA"),
        Engine("startpage", fails="CAPTCHA"),
    ]
    with FakeSearXNG(engines) as sx:
        monkeypatch.setenv("SEARXNG_BASE_URL", sx.url)
        status = cli_main(["search", "q", "-b", "searxng"])
    err = capsys.readouterr().err
    assert status != 0
    for name in ("brave", "duckduckgo", "startpage"):
        assert err.count("'%s'" % name) == 1, err


# -- 2. the deadline --------------------------------------------------------------------------------


def test_the_instance_is_given_the_deadline_and_answers_with_the_engines_in_time():
    """Without timeout_limit the instance waits for its slow engine past our deadline; with it, the
    instance answers after the time it is given, our margin (0.25 s and 15 % of what is left) before
    our deadline. The deadline: a second on an idle machine (the instance waits most of it), more on
    a slower one."""
    budget_s = paced_budget_s(1.0)
    engines = [Engine("google", results=5), Engine("qwant", delay_s=10.0 * budget_s)]
    with FakeSearXNG(engines, request_timeout_s=5.0 * budget_s) as sx:
        result = search(client(sx), timeout_ms=int(budget_s * 1000))
        sent = float(sx.searches[0]["timeout_limit"])
    assert not isinstance(result, ws.WebSearchError), result
    assert len(result["items"]) == 5
    assert [(e["engine"], e["detail_code"]) for e in result["errors"]] == [("qwant", "engine_timeout")]
    assert 0.1 <= sent <= budget_s - 0.25 - 0.15 * budget_s + 0.01  # what was left minus the margin


# -- 3. the limiter ---------------------------------------------------------------------------------


def test_the_limiters_429_is_not_retried_and_names_the_limiter():
    clock = FakeClock()
    with FakeSearXNG([Engine("google")], limiter=True) as sx:
        c = client(sx, clock)
        for _ in range(4):
            assert "items" in search(c)
        error = search(c)
        assert (error.code, error.detail_code, error.retryable, error.retry_after) == (
            "WebBlocked",
            "http_429",
            False,
            LIMITER_WINDOW_S,
        )
        assert "4 JSON requests per IP per hour" in error.message
        assert "pass_ip" in error.message and "server.limiter: false" in error.message
        assert len(sx.searches) == 5, "the limiter's 429 was retried at once"
        clock.advance(LIMITER_WINDOW_S - 60)
        assert "cooling down" in search(c).message
        assert len(sx.searches) == 5
        clock.advance(61)
        search(c)
        assert len(sx.searches) == 6  # the cool-down is the limiter's window


def test_a_public_instance_sending_us_home_is_a_block():
    with FakeSearXNG([Engine("google")], public_instance=True) as sx:
        error = search(client(sx))
    assert (error.code, error.detail_code) == ("WebBlocked", "captcha_required")
    assert "treats this client as a bot" in error.message and "use an instance you run" in error.message


# -- 4. 403s ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "instance, code, detail, words",
    [
        ({"formats": ("html",)}, "AuthError", "http_403", "enable `json`"),
        ({"front": "cloudflare"}, "WebBlocked", "captcha_required", "Cloudflare challenge"),
        ({"front": "proxy"}, "AuthError", "http_403", "HTTP 403 from something in front of the instance"),
    ],
    ids=["json-disabled", "cloudflare", "proxy"],
)
def test_403s_are_told_apart(instance, code, detail, words):
    with FakeSearXNG([Engine("google")], **instance) as sx:
        error = search(client(sx))
    assert (error.code, error.detail_code) == (code, detail)
    assert words in error.message
    if code == "AuthError" and detail == "http_403" and "proxy" in str(instance):
        assert "enable `json`" not in error.message


# -- 6. nothing dropped without a word --------------------------------------------------------------

# An answer as SearXNG's Answer.as_dict() gives it (searx/result_types/answer.py), an infobox as
# searx/engines/wikidata.py builds it.
ANSWER = {
    "url": None,
    "engine": "plugin: self_info",
    "parsed_url": None,
    "template": "answer/legacy.html",
    "answer": "Your IP is: 127.0.0.1",
}
INFOBOX = {
    "infobox": "SearXNG",
    "id": "https://en.wikipedia.org/wiki/SearXNG",
    "content": "metasearch engine",
    "img_src": None,
    "urls": [
        {"title": "Official website", "url": "https://docs.searxng.org/", "official": True},
        {"title": "Wikidata", "url": "http://www.wikidata.org/entity/Q1"},
    ],
    "attributes": [{"label": "License", "value": "AGPL-3.0", "entity": "P275"}],
    "engine": "wikidata",
    "engines": ["wikidata"],
}


def test_answers_infoboxes_suggestions_and_corrections_reach_provider_meta():
    extras = {
        "answers": [ANSWER],
        "infoboxes": [INFOBOX],
        "suggestions": ["searxng docker"],
        "corrections": ["searxng"],
    }
    with FakeSearXNG([Engine("google")], **extras) as sx:
        result = search(client(sx))
    assert result["provider_meta"]["extras"] == {
        "answers": [{"text": "Your IP is: 127.0.0.1", "url": None, "engine": "plugin: self_info"}],
        "infoboxes": [
            {
                "title": "SearXNG",
                "content": "metasearch engine",
                "url": "https://en.wikipedia.org/wiki/SearXNG",
                "urls": [
                    {"title": "Official website", "url": "https://docs.searxng.org/"},
                    {"title": "Wikidata", "url": "http://www.wikidata.org/entity/Q1"},
                ],
                "attributes": [{"label": "License", "value": "AGPL-3.0"}],
                "engine": "wikidata",
            }
        ],
        "suggestions": ["searxng docker"],
        "corrections": ["searxng"],
    }
    assert "errors" not in result


def test_merged_backends_put_their_extras_together():
    with FakeSearXNG([Engine("google")], answers=[ANSWER], suggestions=["searxng docker"]) as sx:
        result = search(client(sx), backend=["searxng", "stub"], strategy="merge")
    assert result["provider_meta"]["providers"] == ["searxng", "stub"]
    assert result["provider_meta"]["extras"] == {
        "answers": [{"text": "Your IP is: 127.0.0.1", "url": None, "engine": "plugin: self_info"}],
        "suggestions": ["searxng docker"],
    }


def test_an_answer_only_query_says_so(capsys, monkeypatch, fake_clock):
    with FakeSearXNG([Engine("google", results=0)], answers=[ANSWER]) as sx:
        result = search(client(sx))
        monkeypatch.setenv("SEARXNG_BASE_URL", sx.url)
        assert cli_main(["search", "q", "-b", "searxng"]) == 0
    assert result["items"] == []
    assert [(e["type"], e["detail_code"]) for e in result["errors"]] == [("WebProviderError", "answer_only")]
    assert "1 answers" in result["errors"][0]["message"] and "Your IP is: 127.0.0.1" in result["errors"][0]["message"]
    assert "Your IP is: 127.0.0.1" in capsys.readouterr().err  # the CLI's "No results found." says why


@pytest.mark.parametrize(
    "option, value, hint",
    [("engines", "Google", "did you mean 'google'"), ("engines", "go", ""), ("categories", "nws", "")],
)
def test_names_the_instance_ignored_are_a_warning(option, value, hint):
    engines = [Engine("google"), Engine("bing news", categories=("news",), default=False)]
    with FakeSearXNG(engines) as sx:
        result = search(client(sx), **{option: value})
    assert len(result["items"]) == 3  # the instance ran its default engines
    [warning] = result["errors"]
    assert (warning["type"], warning["detail_code"]) == ("InvalidInput", "unknown_" + option)
    assert value in warning["message"] and hint in warning["message"]


def test_names_the_instance_knows_are_no_warning():
    engines = [Engine("google"), Engine("bing news", categories=("news",), default=False)]
    with FakeSearXNG(engines) as sx:
        c = client(sx)
        assert "errors" not in search(c, engines="bing news")
        assert "errors" not in search(c, categories="news")


def test_an_option_of_another_backend_is_refused_like_a_misspelt_one(capsys, monkeypatch):
    with FakeSearXNG([Engine("google")]) as sx:
        with pytest.raises(ws.InvalidInput) as info:
            client(sx).search("q", backend="searxng", wiki="de")
        assert info.value.detail_code == "bad_option"
        assert "wiki" in info.value.message and "wikipedia" in info.value.message
        monkeypatch.setenv("SEARXNG_BASE_URL", sx.url)
        status = cli_main(["search", "q", "-b", "searxng", "--option", "wiki=de"])
        assert sx.searches == []
    assert status == 2 and "wiki" in capsys.readouterr().err


# -- 7. smaller points ------------------------------------------------------------------------------


def test_a_url_with_spaces_is_percent_encoded_and_near_duplicates_are_merged():
    google = Engine("google", results=1)
    first = google.result(1, "q")
    raw = [
        dict(first, url="https://Example.org/a b/"),
        dict(first, url="https://example.org/a%20b#top"),
        dict(first, url="https://example.org/a%20b?utm_source=x"),
    ]
    with FakeSearXNG([Engine("google", results=0)], extra_results=raw) as sx:
        result = search(client(sx))
    assert [i["url"] for i in result["items"]] == ["https://Example.org/a%20b/"]


def test_a_response_over_the_byte_cap_names_the_setting():
    with FakeSearXNG([Engine("google", results=50)]) as sx:
        c = ws.SearchClient(
            settings=ws.Settings(providers={"searxng": {"base_url": sx.url}}, max_response_bytes=2000), retries=0
        )
        error = search(c)
    assert error.detail_code == "response_too_large" and "WEB_SEARCH_MAX_BYTES" in error.message


def test_a_404_through_the_endpoint_override_names_that_setting():
    with FakeSearXNG([Engine("google")]) as sx:
        settings = ws.Settings(endpoints={"searxng": sx.server.url("/wrong")})
        error = search(ws.SearchClient(settings=settings, retries=0))
    assert error.detail_code == "http_404"
    assert "WEB_SEARCH_ENDPOINT_SEARXNG" in error.message and "SEARXNG_BASE_URL" not in error.message


def test_userinfo_in_the_base_url_and_an_api_key_together_are_refused():
    with FakeSearXNG([Engine("google")]) as sx:
        base = sx.url.replace("http://", "http://user:pass@")
        error = search(client(sx, base_url=base, api_key="k" * 20))
        assert sx.searches == []
    assert (error.code, error.detail_code) == ("InvalidInput", "bad_setting")
    assert "SEARXNG_API_KEY" in error.message and "pass" not in error.message


def test_check_live_with_json_disabled_reports_the_refusal(capsys, monkeypatch):
    with FakeSearXNG([Engine("google")], formats=("html",)) as sx:
        monkeypatch.setenv("SEARXNG_BASE_URL", sx.url)
        status = cli_main(["check-live", "searxng", "q"])
    out = capsys.readouterr().out
    assert status != 0
    assert "structure CHANGED" not in out
    assert "auth_error" in out and "enable `json`" in out


def test_the_extras_shape_is_what_docs_backends_md_documents():
    """docs/backends.md shows provider_meta["extras"]; this keeps the two together."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "backends.md").read_text(encoding="utf-8")
    block = text.split("<!-- searxng-extras -->")[1].split("```json")[1].split("```")[0]
    documented = json.loads(block)
    with FakeSearXNG(
        [Engine("google")], answers=[ANSWER], infoboxes=[INFOBOX], suggestions=["s"], corrections=["c"]
    ) as sx:
        extras = search(client(sx))["provider_meta"]["extras"]
    assert {k: sorted(v[0]) if isinstance(v[0], dict) else "str" for k, v in extras.items()} == {
        k: sorted(v[0]) if isinstance(v[0], dict) else "str" for k, v in documented.items()
    }


def test_a_recorded_case_replays_whatever_timeout_limit_it_sends(tmp_path):
    """record writes timeout_limit (its value depends on the moment) as the placeholder."""
    from websearch_sync.contract.recording import record_case

    with FakeSearXNG([Engine("google")]) as sx:
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url}})
        result = record_case(  # one page: the fake instance answers every page alike
            "searxng", "q", fixtures_dir=tmp_path, settings=settings, timeout_ms=5000, options={"max_pages": 1}
        )
    assert result.ok, result.verdict.diff
    meta = json.loads((tmp_path / "searxng" / "q.meta.json").read_text(encoding="utf-8"))
    assert meta["request"]["query_params"]["timeout_limit"] == "<redacted>"
