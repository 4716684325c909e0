"""``auto`` without API keys: a fallback chain over the keyless engines that keeps working
when DuckDuckGo shows its challenge. Answers are real recorded pages from fixtures/."""

import json
from pathlib import Path

import pytest
import responses
from backend_kit import env_vars
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.client.selection import auto_backends, keyless_chain, resolve_backends
from websearch_sync.engine import registry
from websearch_sync.models import SearchParams
from websearch_sync.tool import call_tool, format_for_model

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
HTML = "text/html; charset=utf-8"
DDG = ("POST", "https://html.duckduckgo.com/html/")
DDG_LITE = ("POST", "https://lite.duckduckgo.com/lite/")
BING = ("GET", "https://www.bing.com/search")
MOJEEK = ("GET", "https://www.mojeek.com/search")
YAHOO = ("GET", "https://search.yahoo.com/search")

ANOMALY = (FIXTURES / "ddg_html" / "meka__ddg_anomaly.html").read_bytes()
TURNSTILE = (FIXTURES / "bing_html" / "web-search-mcp__turnstile.html").read_bytes()
ALTCHA = (FIXTURES / "mojeek_html" / "argos-engine__altcha.html").read_bytes()
BING_PAGE = (FIXTURES / "bing_html" / "web-search-mcp__http-bing.html").read_bytes()
MOJEEK_PAGE = (FIXTURES / "mojeek_html" / "web-search-mcp__mojeek.html").read_bytes()
YAHOO_PAGE = (FIXTURES / "yahoo_html" / "web-search-mcp__yahoo.html").read_bytes()
DDG_PAGE = (FIXTURES / "ddg_html" / "meka__1.html").read_bytes()
LITE_PAGE = (FIXTURES / "ddg_lite" / "rafiki__1.html").read_bytes()


def golden_urls(name):
    return [item["url"] for item in json.loads((FIXTURES / name).read_text(encoding="utf-8"))["items"]]


def serve(mock, answers):
    """Register ``{(method, url): body}`` answers (HTTP 200 HTML)."""
    for (method, url), body in answers.items():
        mock.add(method, url, body=body, status=200, content_type=HTML)


def hosts(mock):
    """The hosts asked so far (read inside the ``with`` block: the mock forgets its calls on exit)."""
    return [call.request.url.split("/")[2] for call in mock.calls]


# -- the chain -------------------------------------------------------------------------------------


def test_auto_without_keys_is_the_keyless_chain_in_its_documented_order():
    assert keyless_chain() == ("ddg_html", "bing_html", "mojeek_html", "yahoo_html", "ddg_lite")
    assert auto_backends(ws.Settings()) == list(keyless_chain())
    assert "wikipedia" not in auto_backends(ws.Settings(), "en-US")
    assert "baidu_html" not in auto_backends(ws.Settings(), "en-US")


@pytest.mark.parametrize("locale", ["zh", "zh-CN", "zh_TW", "zh-Hant-TW"])
def test_a_chinese_locale_puts_baidu_first_among_the_keyless_engines(locale):
    assert auto_backends(ws.Settings(), locale) == ["baidu_html"] + list(keyless_chain())


def test_configured_api_backends_come_before_the_keyless_chain():
    settings = ws.Settings(providers={"brave": {"api_key": "brave-key-123"}})
    assert auto_backends(settings) == ["brave"] + list(keyless_chain())


def test_a_chinese_call_through_the_client_asks_baidu_first():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {("GET", "https://www.baidu.com/s"): (FIXTURES / "baidu_html" / "sluver__1.html").read_bytes()})
        with ws.SearchClient("auto", settings=ws.Settings(), cache_ttl_s=0) as client:
            result = client.search("搜索引擎测试", locale="zh-CN", max_results=3)
        assert hosts(mock) == ["www.baidu.com"]
    assert result["provider_meta"]["provider_name"] == "baidu_html"


# -- DuckDuckGo blocked ----------------------------------------------------------------------------


def test_ddg_challenge_moves_on_to_bing_at_once_and_its_cooldown_skips_ddg_next_time():
    clock = FakeClock()
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {DDG: ANOMALY, BING: BING_PAGE})
        with ws.SearchClient("auto", settings=ws.Settings(), cache_ttl_s=0, clock=clock) as client:
            first = client.search("javascript tutorial", max_results=10)
            assert hosts(mock) == ["html.duckduckgo.com", "www.bing.com"]  # no retry of the captcha
            second = client.search("javascript tutorial", max_results=10)
        assert hosts(mock) == ["html.duckduckgo.com", "www.bing.com", "www.bing.com"]  # DuckDuckGo not asked again
    for result in (first, second):
        assert result["provider_meta"]["provider_name"] == "bing_html"
        assert [item["url"] for item in result["items"]] == golden_urls(
            "bing_html/web-search-mcp__http-bing.expected.json"
        )
        [error] = result["errors"]
        assert (error["provider"], error["type"], error["detail_code"]) == (
            "ddg_html",
            "WebBlocked",
            "captcha_required",
        )
    assert "cooling down" in second["errors"][0]["message"]
    assert (first["provider_meta"]["attempts"], second["provider_meta"]["attempts"]) == (2, 1)
    assert clock.sleeps == [1.0]  # Bing's own 1 s spacing, waited on the fake clock; no backoff


def test_every_wall_in_the_chain_is_reported_and_the_first_engine_that_answers_wins():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {DDG: ANOMALY, BING: TURNSTILE, MOJEEK: ALTCHA, YAHOO: YAHOO_PAGE})
        with ws.SearchClient("auto", settings=ws.Settings(), cache_ttl_s=0, clock=FakeClock()) as client:
            # one page: Yahoo's shows 7 results, and its page 2 was never recorded (its case's recorded_pages)
            result = client.search("javascript tutorial", max_results=10, max_pages=1)
        assert hosts(mock) == ["html.duckduckgo.com", "www.bing.com", "www.mojeek.com", "search.yahoo.com"]
    assert result["provider_meta"]["provider_name"] == "yahoo_html"
    assert [item["url"] for item in result["items"]] == golden_urls("yahoo_html/web-search-mcp__yahoo.expected.json")
    assert [(e["provider"], e["detail_code"]) for e in result["errors"]] == [
        ("ddg_html", "captcha_required"),
        ("bing_html", "captcha_required"),
        ("mojeek_html", "captcha_required"),
    ]


def test_when_every_engine_is_blocked_the_call_fails_with_a_block_naming_all():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {DDG: ANOMALY, BING: TURNSTILE, MOJEEK: ALTCHA, YAHOO: ANOMALY, DDG_LITE: ANOMALY})
        with ws.SearchClient("auto", settings=ws.Settings(), cache_ttl_s=0, clock=FakeClock()) as client:
            with pytest.raises(ws.WebBlocked) as info:
                client.search("javascript tutorial")
        assert len(mock.calls) == 5
    assert info.value.detail_code == "captcha_required"
    assert sorted([info.value.provider] + [e.provider for e in info.value.errors]) == sorted(keyless_chain())


# -- the inputs each engine sends --------------------------------------------------------------------


def _auto(settings=None, **inputs):
    return resolve_backends("auto", None, settings or ws.Settings(), SearchParams(query="q", max_results=5, **inputs))


def test_auto_asks_the_engines_that_send_every_input_first_in_their_own_order():
    # Bing and Yahoo have no year filter; Mojeek and Yahoo search a language, not a region
    assert _auto(time_range="year") == ["ddg_html", "mojeek_html", "ddg_lite", "bing_html", "yahoo_html"]
    assert _auto(locale="de-DE") == ["ddg_html", "bing_html", "ddg_lite", "mojeek_html", "yahoo_html"]
    assert _auto(time_range="week", locale="de") == ["bing_html", "mojeek_html", "yahoo_html", "ddg_html", "ddg_lite"]
    assert _auto(time_range="week") == list(keyless_chain())  # every engine sends it: the configured order


def test_an_api_backend_that_would_ignore_an_input_waits_behind_the_engines_that_send_it():
    settings = ws.Settings(providers={"kagi": {"api_key": "kagi-key-123"}, "brave": {"api_key": "brave-key-123"}})
    assert _auto(settings)[:2] == ["brave", "kagi"]
    assert _auto(settings, time_range="day") == ["brave"] + list(keyless_chain()) + ["kagi"]
    assert resolve_backends(["kagi", "auto"], None, settings, SearchParams("q", 5, time_range="day"))[0] == "kagi"


def test_an_engine_that_drops_an_input_still_answers_when_the_others_fail_and_says_so():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {DDG: ANOMALY, MOJEEK: ALTCHA, DDG_LITE: ANOMALY, BING: BING_PAGE})
        with ws.SearchClient("auto", settings=ws.Settings(), cache_ttl_s=0, clock=FakeClock()) as client:
            result = client.search("javascript tutorial", max_results=10, time_range="year")
        assert hosts(mock) == ["html.duckduckgo.com", "www.mojeek.com", "lite.duckduckgo.com", "www.bing.com"]
    assert result["provider_meta"]["provider_name"] == "bing_html"
    assert result["provider_meta"]["not_sent"] == ["time_range"]
    assert [e["provider"] for e in result["errors"]] == ["ddg_html", "mojeek_html", "ddg_lite"]


def test_auto_asks_the_engines_that_take_a_backend_option_first():
    """``pageno=2``: DuckDuckGo (either endpoint) has no page parameter here and would answer
    its first page: the engines that take it are asked first."""
    expected = ["bing_html", "mojeek_html", "yahoo_html", "ddg_html", "ddg_lite"]
    assert _auto(options={"pageno": 2}) == expected


def test_an_engine_without_a_backend_option_says_so_when_it_answers():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {BING: TURNSTILE, MOJEEK: ALTCHA, YAHOO: ANOMALY, DDG: DDG_PAGE})
        with ws.SearchClient("auto", settings=ws.Settings(), cache_ttl_s=0, clock=FakeClock()) as client:
            result = client.search("rust programming language", max_results=10, pageno=2)
        assert hosts(mock) == ["www.bing.com", "www.mojeek.com", "search.yahoo.com", "html.duckduckgo.com"]
    assert result["provider_meta"]["provider_name"] == "ddg_html"
    assert result["provider_meta"]["not_sent"] == ["pageno"]  # its first page: said, not hidden
    text, _ = format_for_model(result)
    assert "Not applied by ddg_html: pageno" in text.splitlines()


# -- merge, tool, CLI ------------------------------------------------------------------------------


def test_merge_over_the_keyless_engines_fuses_the_answers_and_reports_the_blocked_one():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {DDG: ANOMALY, BING: BING_PAGE, MOJEEK: MOJEEK_PAGE, YAHOO: YAHOO_PAGE, DDG_LITE: LITE_PAGE})
        with ws.SearchClient(
            "auto", strategy="merge", settings=ws.Settings(), cache_ttl_s=0, clock=FakeClock()
        ) as client:
            # one page each: Yahoo's shows 7 results, and its page 2 was never recorded
            result = client.search("javascript tutorial", max_results=10, max_pages=1)
        assert len(mock.calls) == 5
    assert result["provider_meta"]["providers"] == ["bing_html", "mojeek_html", "yahoo_html", "ddg_lite"]
    assert [(e["provider"], e["detail_code"]) for e in result["errors"]] == [("ddg_html", "captcha_required")]
    # w3schools.com/Js/ is ranked first by Bing and Yahoo (Mojeek's /js/ is another URL): it leads the fusion
    assert result["items"][0]["url"] == "https://www.w3schools.com/Js/"
    assert set(result["items"][0]["providers"]) == {"bing_html", "yahoo_html"}


def test_the_agent_tool_uses_the_same_chain():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {DDG: ANOMALY, BING: BING_PAGE})
        with ws.SearchClient(settings=ws.Settings(backend="auto"), cache_ttl_s=0, clock=FakeClock()) as client:
            result = call_tool("web_search", {"query": "javascript tutorial"}, client=client)
        assert hosts(mock) == ["html.duckduckgo.com", "www.bing.com"]
    assert result["provider_meta"]["provider_name"] == "bing_html"
    assert result["errors"][0]["provider"] == "ddg_html"


def test_the_cli_uses_the_same_chain(capsys):
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {DDG: ANOMALY, BING: BING_PAGE})
        assert main(["search", "javascript tutorial", "-b", "auto", "-n", "3", "--json"]) == 0
        assert hosts(mock) == ["html.duckduckgo.com", "www.bing.com"]
    data = json.loads(capsys.readouterr().out)
    assert data["provider_meta"]["provider_name"] == "bing_html"
    assert [item["url"] for item in data["items"]] == golden_urls("bing_html/web-search-mcp__http-bing.expected.json")[
        :3
    ]


def test_ddg_answering_keeps_the_chain_at_its_first_engine():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {DDG: DDG_PAGE, BING: BING_PAGE})
        result = ws.search("rust programming language", backend="auto", max_results=10)
        assert hosts(mock) == ["html.duckduckgo.com"]
    assert result["provider_meta"]["provider_name"] == "ddg_html" and "errors" not in result
    assert [item["url"] for item in result["items"]] == golden_urls("ddg_html/meka__1.expected.json")


# -- documentation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["bing_html", "yahoo_html", "mojeek_html", "wikipedia"])
def test_each_keyless_engine_its_settings_and_its_detail_codes_are_documented(name):
    docs = "\n".join(p.read_text(encoding="utf-8") for p in sorted((FIXTURES.parent / "docs").glob("*.md")))
    assert "| `%s` |" % name in docs
    for var in env_vars(registry.backend_class(name)).values():
        assert "| `%s` |" % var in docs, "%s missing from the configuration table in docs/" % var
    for golden in (FIXTURES / name).glob("*.expected.json"):
        error = json.loads(golden.read_text(encoding="utf-8")).get("error") or {}
        if error.get("detail_code"):
            assert "`%s`" % error["detail_code"] in docs, golden.name


def test_the_documented_chain_is_the_chain():
    client_doc = (FIXTURES.parent / "docs" / "client.md").read_text(encoding="utf-8")
    assert " → ".join("`%s`" % name for name in keyless_chain()) in client_doc


# -- each engine by name: in code, from the environment, on the command line -------------------------

ENGINES = {
    "bing_html": (BING, BING_PAGE, "bing_html/web-search-mcp__http-bing.expected.json"),
    "yahoo_html": (YAHOO, YAHOO_PAGE, "yahoo_html/web-search-mcp__yahoo.expected.json"),
    "mojeek_html": (MOJEEK, MOJEEK_PAGE, "mojeek_html/web-search-mcp__mojeek.expected.json"),
    "wikipedia": (
        ("GET", "https://en.wikipedia.org/w/api.php"),
        (FIXTURES / "wikipedia" / "perito-moreno__list-search.json").read_bytes(),
        "wikipedia/perito-moreno__list-search.expected.json",
    ),
}


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_each_engine_answers_by_name_from_the_environment_and_on_the_command_line(
    name, monkeypatch, capsys, fake_clock
):
    endpoint, answer, expected = ENGINES[name]
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {endpoint: answer})
        in_code = ws.search("q", backend=name, max_results=3, settings=ws.Settings())
        assert main(["search", "q", "-b", name, "-n", "3", "--json"]) == 0
        monkeypatch.setenv("WEB_SEARCH_BACKEND", name)
        from_env = ws.search("q", max_results=3)
        assert len(mock.calls) == 3
    on_cli = json.loads(capsys.readouterr().out)
    for result in (in_code, on_cli, from_env):
        assert result["provider_meta"]["provider_name"] == name
        assert [item["url"] for item in result["items"]] == golden_urls(expected)[:3]


# -- a query one engine cannot take (issue 23, point 14) -------------------------------------------


def test_auto_skips_an_engine_that_cannot_take_the_query_and_goes_on():
    query = "javascript tutorial " + "x" * 600  # DuckDuckGo refuses 500 characters and more; Bing takes it
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {BING: BING_PAGE})
        with ws.SearchClient("auto", settings=ws.Settings(), cache_ttl_s=0, clock=FakeClock()) as client:
            result = client.search(query, max_results=10)
        assert hosts(mock) == ["www.bing.com"]  # DuckDuckGo is not asked a query it refuses
    assert result["provider_meta"]["provider_name"] == "bing_html"
    [error] = result["errors"]
    assert (error["provider"], error["type"], error["detail_code"]) == ("ddg_html", "InvalidInput", "query_too_long")


def test_a_fallback_chain_skips_it_too_and_only_a_query_no_engine_takes_is_refused(fake_clock):
    result = ws.search("x" * 600, backend=["ddg_html", "stub"])
    assert result["provider_meta"]["provider_name"] == "stub"
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("x" * 600, backend=["ddg_html", "wikipedia"])  # Wikipedia takes 300 characters at most
    assert info.value.detail_code == "query_too_long"
    assert sorted([info.value.provider] + [e.provider for e in info.value.errors]) == ["ddg_html", "wikipedia"]


@pytest.mark.parametrize(
    "defect, detail",
    [
        (lambda *args: 1 / 0, "internal_error"),  # a bug in the engine's code (a plugin's too)
        (lambda *args: ("not a list", False), "bad_parse_result"),  # a parse of the wrong shape
    ],
)
def test_a_defect_in_one_engine_moves_the_chain_on(defect, detail, monkeypatch, caplog):
    """A broken engine (its traceback logged at ERROR) does not end every ``auto`` search: the
    next engine answers, and the defect is in ``errors``."""
    monkeypatch.setattr(registry.backend_class("ddg_html"), "region_items", defect)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        serve(mock, {DDG: DDG_PAGE, BING: BING_PAGE})
        with ws.SearchClient("auto", settings=ws.Settings(), cache_ttl_s=0, clock=FakeClock()) as client:
            result = client.search("javascript tutorial", max_results=10)
        assert hosts(mock) == ["html.duckduckgo.com", "www.bing.com"]
    assert result["provider_meta"]["provider_name"] == "bing_html"
    assert [(e["provider"], e["detail_code"]) for e in result["errors"]] == [("ddg_html", detail)]
