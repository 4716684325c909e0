"""A backend's options are one declaration on its class (``Backend.options``, a tuple of
``Option``): one check refuses a bad value before any request with the option's detail code,
the backend reads typed, defaulted values, unknown names get the closest known one, and
the older spelling (a plain name) still works."""

from pathlib import Path

import pytest
from backend_kit import registered

import websearch_sync as ws
from websearch_sync.backends import Backend, Option, ParseResult, RequestSpec
from websearch_sync.cli.backends_cmd import backend_rows
from websearch_sync.engine import registry
from websearch_sync.engine.option import PAGENO, read_options
from websearch_sync.models import SearchParams


class Typed(Backend):
    """A plugin declaring one option of each kind."""

    name = "plugin_typed"
    kind = "json"
    default_endpoint = "https://typed.example/search"
    options = (
        Option("fresh", "bool", default=False, doc="only fresh pages"),
        Option("depth", "int", default=2, minimum=1, maximum=5, doc="how deep"),
        Option("mode", "choice", choices=("fast", "full"), default="fast", doc="how thorough"),
        Option("sources", "names", doc="which sources"),
        Option("market", "code", pattern=r"[a-z]{2}-[a-z]{2}", example="a market such as 'en-us'", doc="market"),
        PAGENO,
    )
    seen: list = []

    def build_request(self, params):
        values = {option.name: self.option(params, option.name) for option in self.declared_options()}
        Typed.seen.append(values)
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.query})

    def parse(self, response, params):
        return ParseResult(items=[])


class Untyped(Backend):
    """A plugin written before ``Option``: the names alone, values as given."""

    name = "plugin_untyped"
    kind = "offline"
    options = ("flavour",)

    def check(self, params):
        self.check_params(params)

    def search(self, params, transport, deadline):
        return ParseResult(items=[{"title": str(self.option(params, "flavour")), "url": "https://u.example/"}])


@pytest.fixture
def plugins():
    with registered(Typed, Untyped):
        yield


def params(**options):
    return SearchParams(query="q", max_results=5, options=options)


def test_the_backend_reads_typed_defaulted_values():
    backend = Typed(ws.Settings())
    assert read_options("plugin_typed", Typed.declared_options(), {}) == {
        "fresh": False,
        "depth": 2,
        "mode": "fast",
        "sources": None,
        "market": None,
        "pageno": 1,
    }
    given = params(fresh=True, depth=5, mode="full", sources=" news, it ", market="EN-GB", pageno=3)
    backend.check_params(given)
    assert [backend.option(given, name) for name in backend.option_names()] == [
        True,
        5,
        "full",
        ("news", "it"),
        "en-gb",
        3,
    ]
    assert backend.option(params(sources=["a", "b"]), "sources") == ("a", "b")


@pytest.mark.parametrize(
    "name, value, words",
    [
        ("fresh", "yes", "fresh must be true or false, got 'yes'"),
        ("fresh", 1, "fresh must be true or false"),
        ("depth", 6, "depth must be in 1..5, got 6"),
        ("depth", True, "depth must be an integer in 1..5"),
        ("mode", "FAST", "mode must be one of fast, full, got 'FAST'"),
        ("sources", [], "sources must be a name or a list of names"),
        ("sources", ["a", 1], "sources must be a name or a list of names"),
        ("sources", " , ", "sources must be a name or a list of names"),
        ("market", "english", "market must be a market such as 'en-us', got 'english'"),
        ("market", "en-us\n", "market must be a market such as 'en-us'"),
        ("pageno", 0, "pageno must be in 1..100, got 0"),
    ],
)
def test_a_refused_value_names_the_option_and_what_it_takes(name, value, words):
    with pytest.raises(ws.InvalidInput) as info:
        Typed(ws.Settings()).check_params(params(**{name: value}))
    expected = "bad_pageno" if name == "pageno" else "bad_option"
    assert (info.value.detail_code, info.value.provider) == (expected, "plugin_typed")
    assert words in info.value.message


def test_a_search_refuses_a_bad_value_before_any_request(plugins):
    Typed.seen.clear()
    with ws.testing.no_network():
        with pytest.raises(ws.InvalidInput) as info:
            ws.search("q", backend="plugin_typed", depth=9)
    assert info.value.detail_code == "bad_option" and Typed.seen == []


def test_a_mistyped_option_name_gets_the_closest_known_one(plugins):
    with pytest.raises(TypeError) as info:
        ws.search("q", backend="plugin_typed", dpeth=2)
    assert "dpeth (did you mean 'depth'?)" in str(info.value)


def test_the_older_spelling_is_an_untyped_option(plugins):
    assert Untyped.declared_options() == (Option("flavour"),)
    result = ws.search("q", backend="plugin_untyped", flavour={"any": "thing"})
    assert result["items"][0]["title"] == "{'any': 'thing'}"


def test_an_undeclared_option_is_a_defect_of_the_backend():
    """Its ``KeyError('colour')`` (in the logged traceback of the search's ``internal_error``) named the
    option only: which backend, and what to declare, the plugin author had to work out."""
    with pytest.raises(KeyError) as caught:
        Typed(ws.Settings()).option(params(), "colour")
    assert "backend plugin_typed reads option 'colour', which it does not declare (its options: " in str(caught.value)
    assert "add Option('colour', ...) to its options" in str(caught.value)


@pytest.mark.parametrize(
    "declaration, words",
    [
        (lambda: Option(""), "must be a search.. keyword"),
        (lambda: Option("x", "float"), "kind must be one of"),
        (lambda: Option("x", "choice"), "give its choices"),
        (lambda: Option("x", "code"), "give the pattern"),
        (lambda: Option("x", "int", default=0), "default is refused"),
        (lambda: Option("x", "choice", choices=("a",), default="b"), "default is refused"),
    ],
)
def test_an_unusable_declaration_is_refused_where_it_is_written(declaration, words):
    with pytest.raises(TypeError, match=words):
        declaration()


def test_a_plugin_with_unusable_options_is_not_registered():
    twice = type("Twice", (Typed,), {"name": "plugin_twice", "options": (Option("a"), "a")})
    wrong = type("Wrong", (Typed,), {"name": "plugin_wrong", "options": ({"name": "a"},)})
    assert "options" in registry.declaration_problem(twice)
    assert "options" in registry.declaration_problem(wrong)


def test_every_built_in_option_says_what_it_does_and_its_detail_code_is_documented():
    text = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text(encoding="utf-8")
    for name in registry.backend_names():
        for vertical in registry.verticals_of(name):
            for option in registry.backend_class(name, vertical).declared_options():
                assert option.kind != "any" and option.doc, (name, option.name)
                assert "`%s`" % option.detail in text, (name, option.name, option.detail)


def test_the_backends_listing_shows_the_declarations_and_the_endpoint(plugins):
    rows = {row["name"]: row for row in backend_rows(ws.Settings())}
    typed = rows["plugin_typed"]
    assert typed["endpoint"] == "https://typed.example/search"
    depth = next(option for option in typed["options"] if option["name"] == "depth")
    assert depth == {
        "name": "depth",
        "kind": "int",
        "default": 2,
        "minimum": 1,
        "maximum": 5,
        "allowed": "an integer in 1..5",
        "detail_code": "bad_option",
        "doc": "how deep",
        "verticals": ["web"],
    }
    assert [option["name"] for option in typed["options"]] == list(Typed.option_names())
    assert rows["plugin_untyped"]["options"][0]["kind"] == "any" and rows["plugin_untyped"]["endpoint"] is None
    topics = [(option["verticals"], option.get("choices")) for option in rows["tavily"]["options"]]
    assert topics == [(["web"], ["general", "news", "finance"]), (["news"], ["news"])]
    assert rows["searxng"]["endpoint"] is None  # no SEARXNG_BASE_URL: nowhere to send
    assert [s["default"] for s in rows["wikipedia"]["settings"] if s["name"] == "lang"] == ["en"]
    assert [s["default"] for s in rows["bocha"]["settings"] if s["name"] == "base_url"] == ["https://api.bochaai.com"]


def test_the_listed_endpoint_never_shows_credentials():
    settings = ws.Settings(providers={"searxng": {"base_url": "https://user:hunter2@searx.example/?token=s3cret"}})
    row = next(row for row in backend_rows(settings) if row["name"] == "searxng")
    assert row["endpoint"] == "https://searx.example/search"


def test_a_setting_reads_its_declared_default_when_unset():
    wikipedia = registry.backend_class("wikipedia")
    assert wikipedia(ws.Settings()).setting_value("lang") == "en"
    assert wikipedia(ws.Settings(providers={"wikipedia": {"lang": "de"}})).setting_value("lang") == "de"
    service = registry.backend_class("service")
    assert service(ws.Settings()).request_id_header() == "X-Request-Id"


@pytest.mark.parametrize(
    "typo, meant",
    [
        ("retires", "retries"),
        ("timeout", "timeout_ms"),
        ("strategie", "strategy"),
        ("max_result", "max_results"),
        ("setings", "settings"),  # the module-level search()'s own
    ],
)
def test_a_mistyped_keyword_of_search_itself_gets_that_keyword(typo, meant):
    # docs/api.md: "a name no backend takes is a TypeError naming the closest one"; the closest
    # is search()'s own keyword, not a backend option that looks alike (timeout: image_layout)
    with pytest.raises(TypeError) as info:
        ws.search("q", backend="stub", **{typo: 1})
    assert "%s (did you mean %r?)" % (typo, meant) in str(info.value)


def test_an_option_given_at_its_default_keys_apart_unless_its_engine_says_omitting_sends_it():
    """A plugin's option leaves the call giving its default and the call omitting it apart (its
    engine may tell them apart reading ``params.options``); ``pageno_option`` and an option
    declared ``omitted_sends_default=True`` fold the default into the omitted call's key."""
    from websearch_sync.engine.option import Option, omitted_defaults, pageno_option

    plugin_option = Option("depth", kind="int", default=1)
    assert omitted_defaults({"depth": 1}, [[plugin_option]]) == {"depth": 1}
    folded = Option("depth", kind="int", default=1, omitted_sends_default=True)
    assert omitted_defaults({"depth": 1}, [[folded]]) == {}
    assert omitted_defaults({"pageno": 1}, [[pageno_option("ten a page")]]) == {}
    assert omitted_defaults({"pageno": 2}, [[pageno_option("ten a page")]]) == {"pageno": 2}
