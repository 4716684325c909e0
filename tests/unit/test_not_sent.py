"""``provider_meta["not_sent"]``: each engine's ``unsent`` declaration agrees with its request builder.

For every registered engine and common input, the request is built with and without the input
(the same moment, the same settings): the declaration must say "not sent" exactly when the request
does not change. An ``Accept-Language`` header alone does not count (a browser's hint,
:mod:`websearch_sync.engine.unsent`). A builder that starts or stops sending an input fails here.
"""

import dataclasses
from collections.abc import Iterator
from typing import Any, Optional

import pytest
from backend_kit import registered
from clocks import FakeClock
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.backends.stub import Stub
from websearch_sync.backends.wikipedia import Wikipedia
from websearch_sync.engine import registry
from websearch_sync.engine.base import Backend
from websearch_sync.engine.locales import locale_region
from websearch_sync.engine.option import PAGENO
from websearch_sync.engine.registry import _engines
from websearch_sync.models import MEDIA_FILTERS, SearchParams
from websearch_sync.net.response import HttpResponse
from websearch_sync.net.transport import RequestSpec
from websearch_sync.tool import format_for_model

#: Each common input with the values a call can give (every time range: some engines drop one).
GIVEN = {
    "locale": ("de-DE", "de", "en-SG", "fa-IR", "xx-QQ", "es-419", "zh-Hant", "sr-Latn", "sr-Latn-RS", "uz-Cyrl"),
    "safe_search": ("off", "moderate", "strict"),
    "site_filter": ("example.org",),
    "time_range": ("day", "week", "month", "year"),
}

#: What a builder sends when the call gives no value (DuckDuckGo's verticals send moderate safe search;
#: Wikipedia searches the English edition, which ``en-SG`` chooses): a call giving that value
#: changes no request, yet the request carries it.
FILLED_IN = {("ddg_html", "safe_search"): "moderate", ("wikipedia", "locale"): "en-SG"}

#: A DuckDuckGo vertical's token page, for the request its token leads to.
TOKEN_PAGE = b'<html><script>vqd="4-123456789012345678901234567890"</script></html>'


def _configured(cls: type[Backend]) -> Backend:
    """``cls`` with every required setting set (a URL for a URL, a key otherwise)."""
    values = {
        s.name: "https://search.example/" if s.kind == "url" else "k-0123456789"
        for s in cls.declared_settings()
        if s.required
    }
    return cls(ws.Settings(providers={cls.name: values}))


def _engine_cases() -> list[Any]:
    return [
        pytest.param(cls, id="%s-%s" % (cls.name, cls.vertical))
        for cls in _engines()
        if cls.kind != "offline" and cls.__module__.startswith("websearch_sync.")
    ]


def _requests(backend: Backend, params: SearchParams) -> list[RequestSpec]:
    """The requests a search with ``params`` sends before its results (a token page's follower too)."""
    sent = [backend.build_request(params)]
    token_page = HttpResponse(200, CaseInsensitiveDict({"Content-Type": "text/html"}), TOKEN_PAGE, sent[0].url)
    for step in range(1, 3 if type(backend).continue_request is not Backend.continue_request else 1):
        follow: Optional[RequestSpec] = backend.continue_request(token_page, params, step)
        if follow is None:
            break
        sent.append(follow)
    return [_without_hint(spec) for spec in sent]


def refused(backend: Backend, params: SearchParams) -> bool:
    """Whether ``backend`` refuses ``params`` before any request (SearXNG and ``es-419``): nothing is sent."""
    try:
        backend.check_params(params)
    except ws.InvalidInput:
        return True
    return False


def _without_hint(spec: RequestSpec) -> RequestSpec:
    headers = {k: v for k, v in spec.headers.items() if k.lower() != "accept-language"}
    return dataclasses.replace(spec, headers=headers)


@pytest.mark.parametrize("cls", _engine_cases())
def test_the_declaration_says_not_sent_exactly_when_the_request_goes_without_the_input(cls: type[Backend]) -> None:
    backend = _configured(cls)
    plain = SearchParams(query="solar panels", max_results=5, vertical=cls.vertical)
    without = _requests(backend, plain)
    disagreements = []
    for name, values in GIVEN.items():
        for value in values:
            given = dataclasses.replace(plain, **{name: value})
            if refused(backend, given):
                continue
            carried = _requests(backend, given) != without or FILLED_IN.get((cls.name, name)) == value
            declared = name in backend.not_sent(given)
            if carried == declared:
                disagreements.append(
                    "%s=%r: request %s, declared %s"
                    % (name, value, "carries it" if carried else "goes without it", "not sent" if declared else "sent")
                )
    assert disagreements == []


@pytest.mark.parametrize("cls", _engine_cases())
def test_each_filter_value_is_declared_not_sent_exactly_when_the_request_goes_without_it(cls: type[Backend]) -> None:
    """The image and video filters (``Backend.filters``): every value of every filter of the
    engine's vertical, sent (the request changes, and each value's request is its own) or
    reported in ``not_sent`` by name, or as ``<filter>=<value>`` for a value the engine lacks."""
    backend = _configured(cls)
    plain = SearchParams(query="solar panels", max_results=5, vertical=cls.vertical)
    without = _requests(backend, plain)
    disagreements = []
    for name, (vertical, values) in MEDIA_FILTERS.items():
        if vertical != cls.vertical:
            continue
        sent = {}
        for value in values:
            given = dataclasses.replace(plain, filters={name: value})
            requests = _requests(backend, given)
            carried = requests != without
            declared = bool({name, "%s=%s" % (name, value)} & set(backend.not_sent(given)))
            if carried == declared:
                disagreements.append(
                    "%s=%s: request %s" % (name, value, "carries it" if carried else "goes without it")
                )
            if carried:
                sent[value] = requests
        if len({repr(requests) for requests in sent.values()}) != len(sent):
            disagreements.append("%s: two values send the same request" % name)
    assert disagreements == []


def _other_language(locale: str) -> str:
    """``locale`` with a language no service lists (``de-DE`` -> ``zz-DE``)."""
    return "-".join(["zz"] + locale.split("-")[1:])


@pytest.mark.parametrize("cls", _engine_cases())
def test_each_part_of_a_locale_is_declared_not_sent_exactly_when_the_request_goes_without_it(
    cls: type[Backend],
) -> None:
    """The region is carried when the request differs from that of the locale's language alone
    (``de-DE`` against ``de``), the language when it differs from that of another language with the
    same region (``zz-DE``); the declaration must name a part exactly when it is not carried (the
    whole ``locale`` when no part given is)."""
    backend = _configured(cls)
    plain = SearchParams(query="solar panels", max_results=5, vertical=cls.vertical)
    disagreements = []
    for locale in GIVEN["locale"]:
        given = dataclasses.replace(plain, locale=locale)
        if refused(backend, given):
            continue
        sent = _requests(backend, given)
        compared = {"language": _other_language(locale)}
        if locale_region(locale):  # zh-Hant has none: a script
            compared["region"] = locale.split("-")[0]
        reported = backend.not_sent(given)
        for part, other in compared.items():
            carried = sent != _requests(backend, dataclasses.replace(plain, locale=other))
            declared = "locale" in reported or "locale." + part in reported
            if carried == declared:
                disagreements.append("%s of %r: carried %s, declared %s" % (part, locale, carried, reported))
        if all(name in reported for name in ("locale.language", "locale.region")):
            disagreements.append("%r: both parts named, not the whole locale" % locale)
    assert disagreements == []


#: Locales that differ in their script alone (the language's usual script and another, with and
#: without a region): a request that says the script differs between the two.
SCRIPT_PAIRS = (
    ("sr-Latn", "sr-Cyrl"),
    ("sr-Latn-RS", "sr-Cyrl-RS"),
    ("uz-Cyrl", "uz-Latn"),
    ("uz-Cyrl-UZ", "uz-Latn-UZ"),
    ("zh-Hant", "zh-Hans"),
    ("zh-Hans-TW", "zh-Hant-TW"),
    ("zh-Hant-CN", "zh-Hans-CN"),
    ("pa-Arab", "pa-Guru"),
)


@pytest.mark.parametrize("cls", _engine_cases())
def test_a_script_is_declared_not_sent_exactly_when_the_request_cannot_tell_it(cls: type[Backend]) -> None:
    """Of two locales that differ in their script alone, the request says the script when the two
    requests differ: neither may report ``locale.script``. When they are the same, the service reads
    one script for both, and exactly one of them (the one it does not read) must report it. A pair
    whose language (or whole locale) is not sent is left out: a script goes with its language."""
    backend = _configured(cls)
    plain = SearchParams(query="solar panels", max_results=5, vertical=cls.vertical)
    disagreements = []
    for pair in SCRIPT_PAIRS:
        given = [dataclasses.replace(plain, locale=locale) for locale in pair]
        if any(refused(backend, params) for params in given):
            continue
        reported = [backend.not_sent(params) for params in given]
        if any({"locale", "locale.language"} & set(names) for names in reported):
            continue
        same = _requests(backend, given[0]) == _requests(backend, given[1])
        scripts = ["locale.script" in names for names in reported]
        if scripts.count(True) != (1 if same else 0):
            disagreements.append(
                "%s / %s: requests %s, locale.script reported %s" % (*pair, "the same" if same else "differ", scripts)
            )
    assert disagreements == []


def test_a_part_of_the_locale_is_named_when_the_other_is_sent() -> None:
    class RegionOnly(Backend):
        name = "regiononly"
        unsent = ("locale.language",)

    backend = RegionOnly(ws.Settings())
    assert backend.not_sent(SearchParams(query="q", max_results=3, locale="de-DE")) == ["locale.language"]
    assert backend.not_sent(SearchParams(query="q", max_results=3, locale="de")) == ["locale"]  # all it gave
    assert backend.not_sent(SearchParams(query="q", max_results=3)) == []


def test_a_script_is_a_part_of_the_locale_that_goes_with_its_language() -> None:
    """``locale.script`` is named alone when the language was sent; with the language, or every
    part the call gave, not sent, the locale is reported whole (a script says nothing alone)."""

    class ScriptLess(Backend):
        name = "scriptless"
        unsent = ("locale.script",)

    class LanguageLess(Backend):
        name = "languageless"
        unsent = ("locale.language",)

    def unsent(backend: type, locale: str) -> list[str]:
        return backend(ws.Settings()).not_sent(SearchParams(query="q", max_results=3, locale=locale))

    assert unsent(ScriptLess, "sr-Latn-RS") == ["locale.script"]
    assert unsent(ScriptLess, "sr-Latn") == ["locale.script"]
    assert unsent(ScriptLess, "sr-RS") == unsent(ScriptLess, "sr") == []  # no script given
    assert unsent(LanguageLess, "sr-Latn-RS") == ["locale.language", "locale.script"]
    assert unsent(LanguageLess, "sr-Latn") == ["locale"]


@pytest.mark.parametrize(
    "name, vertical, locale, reported",
    [
        ("bing_html", "web", "sr-Latn-RS", ["locale.script"]),  # setlang=sr-RS: Cyrillic Serbian
        ("bing_html", "web", "sr-Latn-ME", []),  # sr-ME: Latin (CLDR likelySubtags)
        ("bing_html", "web", "zh-Hans-TW", ["locale.script"]),  # setlang=zh-TW: Traditional
        ("mojeek_html", "web", "sr-Latn-ME", ["locale.region", "locale.script"]),  # lb=sr: Cyrillic
        ("yahoo_html", "web", "uz-Cyrl", ["locale.script"]),  # vl=lang_uz: Latin
        ("ddg_html", "web", "zh-Hant-CN", ["locale.script"]),  # kl=cn-zh: Simplified
        ("wikipedia", "web", "zh-Hant", ["locale.script"]),  # the zh edition, as stored
        ("brave", "web", "pa-Arab-IN", ["locale.script"]),  # search_lang=pa: Gurmukhi
        ("brave", "web", "zh-Hans-TW", []),  # search_lang=zh-hans, country=TW
        ("searxng", "web", "sr-Latn", ["locale.script"]),
        ("searxng", "web", "zh-Hant", []),  # sent as zh-TW
        ("bing_html", "web", "sr-Cyrl-RS", []),
        ("kagi", "web", "sr-Latn", ["locale"]),  # no locale sent: the script goes with it
        ("tavily", "web", "sr-Latn-RS", ["locale.language", "locale.script"]),  # country=rs only
    ],
)
def test_a_script_the_request_drops_is_named(name: str, vertical: str, locale: str, reported: list[str]) -> None:
    """Before, only SearXNG said ``locale.script``: ``sr-Latn-RS`` went to Bing as ``setlang=sr-RS``
    (Cyrillic Serbian) and nothing said so."""
    cls = next(cls for cls in _engines() if (cls.name, cls.vertical) == (name, vertical))
    params = SearchParams(query="q", max_results=3, vertical=vertical, locale=locale)
    assert _configured(cls).not_sent(params) == reported


def test_a_wikipedia_edition_chosen_otherwise_sends_no_locale() -> None:
    wiki = ws.Settings(endpoints={"wikipedia": "https://wiki.example/w/api.php"})
    params = SearchParams(query="q", max_results=3, locale="de-DE")
    assert Wikipedia(ws.Settings()).not_sent(params) == ["locale.region"]
    assert Wikipedia(wiki).not_sent(params) == ["locale"]
    assert Wikipedia(ws.Settings()).not_sent(dataclasses.replace(params, options={"wiki": "fr"})) == ["locale"]


def test_only_inputs_the_call_gave_are_reported_sorted() -> None:
    class Quiet(Backend):
        name = "quiet"
        unsent = ("time_range", "locale", "time_range=year", "safe_search")

    backend = Quiet(ws.Settings())
    assert backend.not_sent(SearchParams(query="q", max_results=3)) == []
    assert backend.not_sent(SearchParams(query="q", max_results=3, time_range="day", locale="de")) == [
        "locale",
        "time_range",
    ]


def test_a_backend_option_the_engine_does_not_take_is_reported() -> None:
    """A chain's call may give an option another backend takes (``pageno`` for Bing): the engine
    without it answers as if it had not been given. The client's own ``max_content_chars`` is no engine's."""

    class Pageless(Backend):
        name = "pageless"

    class Paged(Backend):
        name = "paged"
        options = (PAGENO,)

    params = SearchParams(query="q", max_results=3, options={"pageno": 2, "max_content_chars": 100})
    assert Pageless(ws.Settings()).not_sent(params) == ["pageno"]
    assert Paged(ws.Settings()).not_sent(params) == []


def test_a_value_declaration_reports_that_value_only() -> None:
    class NoYear(Backend):
        name = "noyear"
        unsent = ("time_range=year",)

    backend = NoYear(ws.Settings())
    assert backend.not_sent(SearchParams(query="q", max_results=3, time_range="week")) == []
    assert backend.not_sent(SearchParams(query="q", max_results=3, time_range="year")) == ["time_range"]


class _NoDates(Stub):
    """An offline engine whose service has no time filter (as Kagi's)."""

    name = "plugin_nodates"
    unsent = ("time_range",)


class _NoYearNoSafety(Stub):
    """An offline engine without a year filter and without safe search (as Bing News)."""

    name = "plugin_noyear"
    unsent = ("safe_search", "time_range=year")


@pytest.fixture
def quiet_engines() -> Iterator[None]:
    with registered(_NoDates, _NoYearNoSafety):
        yield


def test_a_fallback_answer_names_what_the_backend_that_answered_did_not_send(quiet_engines: None) -> None:
    with ws.SearchClient("plugin_noyear", cache_ttl_s=0, clock=FakeClock()) as client:
        meta = client.search("q", time_range="year", safe_search="strict", locale="de-DE")["provider_meta"]
        assert meta["not_sent"] == ["safe_search", "time_range"]
        assert "not_sent_by" not in meta
        assert "not_sent" not in client.search("q", time_range="week")["provider_meta"]
        assert "not_sent" not in client.search("q")["provider_meta"]


def test_a_merge_names_what_each_backend_did_not_send(quiet_engines: None) -> None:
    with ws.SearchClient("plugin_nodates,plugin_noyear,stub", strategy="merge", cache_ttl_s=0, clock=FakeClock()) as c:
        meta = c.search("q", time_range="year", locale="de-DE")["provider_meta"]
    assert meta["not_sent"] == ["time_range"]
    assert meta["not_sent_by"] == {"plugin_nodates": ["time_range"], "plugin_noyear": ["time_range"]}


def test_the_text_for_a_model_says_what_was_not_applied(quiet_engines: None) -> None:
    with ws.SearchClient("plugin_nodates", cache_ttl_s=0, clock=FakeClock()) as client:
        result = client.search("q", time_range="day")
    text, _ = format_for_model(result)
    assert "Not applied by plugin_nodates: time_range" in text.splitlines()


def test_a_cached_answer_says_it_too_and_shares_no_list_with_the_cache(quiet_engines: None) -> None:
    with ws.SearchClient("plugin_nodates", cache_ttl_s=60, clock=FakeClock()) as client:
        client.search("q", time_range="day")["provider_meta"]["not_sent"].append("mutated")
        hit = client.search("q", time_range="day")["provider_meta"]
    assert (hit["cached"], hit["not_sent"]) == (True, ["time_range"])


class _BrokenDeclaration(Stub):
    """A plugin whose ``dropped`` has a bug."""

    name = "plugin_brokendrop"

    def dropped(self, params: SearchParams) -> tuple[str, ...]:
        raise RuntimeError("a bug in the plugin")


@pytest.mark.parametrize("strategy", ["fallback", "merge"])
def test_a_defect_in_a_plugins_declaration_is_typed_and_logged(strategy: str, caplog: Any) -> None:
    """It escaped the search as a bare RuntimeError."""
    with registered(_BrokenDeclaration):
        with ws.SearchClient("plugin_brokendrop,stub", strategy=strategy, cache_ttl_s=0, clock=FakeClock()) as client:
            with pytest.raises(ws.WebProviderError) as info:
                client.search("q", time_range="day")
    assert (info.value.detail_code, info.value.provider) == ("internal_error", "plugin_brokendrop")
    assert any(record.levelname == "ERROR" and record.exc_info for record in caplog.records)


@pytest.mark.parametrize("name", ["tavily", "jina"])
def test_asking_more_results_than_one_request_of_the_service_gives_is_reported(name: str) -> None:
    """Tavily and Jina give at most 20 results and read no next page: a call for 30 got 20 without a word."""
    backend = _configured(registry.backend_class(name))
    assert backend.not_sent(SearchParams(query="q", max_results=20)) == []
    assert backend.not_sent(SearchParams(query="q", max_results=30)) == ["max_results"]
    asked = backend.build_request(SearchParams(query="q", max_results=30))
    sent = dict(asked.params or {}).get("num") or (asked.json or {}).get("max_results")
    assert int(sent) == backend.max_results_limit == 20  # what the declaration says is what is asked


def test_a_declared_limit_is_an_int() -> None:
    class Limited(Stub):
        name = "plugin_limited"
        max_results_limit = "20"

    assert "max_results_limit" in (registry.declaration_problem(Limited) or "")
