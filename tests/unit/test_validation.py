"""Input validation: every bad input is InvalidInput, raised before any request."""

from types import SimpleNamespace

import pytest

import websearch_sync as ws
from websearch_sync.cli import main as cli_main
from websearch_sync.mcp.tools import McpTools
from websearch_sync.validate import (
    Argument,
    backend_list,
    check_arguments,
    check_options_taken,
    check_query,
    describe_sent,
    search_params,
)


@pytest.mark.parametrize("query", ["", "   ", "\n\t ", None, 123, b"bytes", ["list"], "x" * 2001])
def test_bad_queries(query):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search(query)
    assert info.value.code == "InvalidInput"
    assert info.value.retryable is False


def test_query_of_2000_characters_is_accepted():
    assert ws.search("x" * 2000)["items"]


def test_query_is_stripped():
    assert ws.search("  hello  ")["items"][0]["title"] == "hello - Overview"


@pytest.mark.parametrize("value", [0, 51, -1, True, False, "5", 5.0, 1e9])
def test_bad_max_results(value):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", max_results=value)
    assert info.value.detail_code == "bad_max_results"


@pytest.mark.parametrize("value", [1, 2, 10])
def test_max_results_bounds(value):
    assert len(ws.search("q", max_results=value)["items"]) == min(value, 3)


@pytest.mark.parametrize("vertical, most", [("images", 100), ("videos", 60), ("web", 50), ("news", 50)])
def test_image_and_video_searches_take_one_page_of_duckduckgo_as_ddgs_gives_the_others_50(vertical, most):
    """ddgs's ``images(max_results=100)`` and ``videos(max_results=60)`` are one page of DuckDuckGo's
    images and videos; each was refused here."""
    assert _params(max_results=most, vertical=vertical).max_results == most
    with pytest.raises(ws.InvalidInput) as info:
        _params(max_results=most + 1, vertical=vertical)
    assert info.value.message == "max_results must be in 1..%d, got %d" % (most, most + 1)


@pytest.mark.parametrize("value", [0, -5, True, "100", 10**9, float("nan")])
def test_bad_timeout(value):
    with pytest.raises(ws.InvalidInput):
        ws.search("q", timeout_ms=value)


@pytest.mark.parametrize("backend", ["nope", ["stub", "nope"], "", 42, ["stub", "stub"], [None]])
def test_unknown_or_malformed_backend_names(backend):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend=backend)
    assert info.value.detail_code == "unknown_backend"


def test_unknown_backend_in_settings_code_is_invalid_input():
    with pytest.raises(ws.InvalidInput):
        ws.search("q", settings=ws.Settings(backend="nope"))


def test_unknown_backend_in_client_constructor_is_invalid_input():
    with pytest.raises(ws.InvalidInput):
        ws.SearchClient("nope")


@pytest.mark.parametrize(
    "options",
    [
        {"time_range": "decade"},
        {"time_range": 7},
        {"locale": "not a locale"},
        {"safe_search": "maybe"},
        {"site_filter": "has space.com"},
        {"trace_id": "bad\r\nheader"},
        {"include_content": "yes"},
        {"max_content_chars": 0},
        {"locale": "en-US", "lang": "de"},
    ],
)
def test_bad_options(options):
    with pytest.raises(ws.InvalidInput):
        ws.search("q", **options)


def test_good_options_are_accepted():
    result = ws.search(
        "q", locale="en-US", time_range="week", safe_search="strict", trace_id="abc-123", site_filter="python.org"
    )
    assert result["items"][0]["title"] == "q site:python.org - Overview"


def test_unknown_keyword_is_a_programming_error():
    with pytest.raises(TypeError):
        ws.search("q", colour="blue")


def test_settings_validate_their_numbers():
    for kwargs in ({"timeout_ms": 0}, {"max_results": 51}, {"timeout_ms": True}, {"max_response_bytes": -1}):
        with pytest.raises(ws.InvalidInput):
            ws.Settings(**kwargs)


@pytest.mark.parametrize("name", ["timeout_ms", "budget_ms"])
@pytest.mark.parametrize("value", [1500.5, 2000.0, float("nan"), float("inf"), True, "2000"])
def test_a_per_call_timeout_must_be_a_whole_number_of_milliseconds(name, value):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", **{name: value})
    assert info.value.detail_code == ("bad_timeout" if name == "timeout_ms" else "bad_budget_ms")


@pytest.mark.parametrize("locale", ["english", "English", "deutsch", "e", "en-"])
def test_a_language_name_is_not_a_locale(locale):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", locale=locale)
    named = locale.lower() == "english"  # a language's name is refused naming its tag, en, and only it
    assert info.value.detail_code == "bad_locale"
    assert ("give its tag, en)" if named else "en-US") in info.value.message


@pytest.mark.parametrize("locale", ["en", "en-US", "en_GB", "zh-Hant-TW", "es-419", "fil-PH", "pt-br"])
def test_language_tags_are_locales(locale):
    assert ws.search("q", locale=locale)["items"]


def test_max_content_chars_without_include_content_is_refused_not_dropped():
    """It caps the page text include_content reads: without it, it would be ignored without a word."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", max_content_chars=100)
    assert info.value.detail_code == "bad_max_content_chars" and "include_content" in info.value.message
    with pytest.raises(ws.InvalidInput):
        ws.search("q", include_content=False, max_content_chars=100)


# -- the rules one by one (each found untested by mutating validate/__init__.py) ------------------------------

SETTINGS = SimpleNamespace(max_results=7)


def _params(max_results=None, backend_options=(), **options):
    return search_params("q", max_results, options, SETTINGS, backend_options)


def _refused(call):
    with pytest.raises(ws.InvalidInput) as info:
        call()
    return info.value.detail_code


@pytest.mark.parametrize(
    "options, code",
    [
        ({"locale": "en\n"}, "bad_locale"),  # "$" alone matches before a final newline
        ({"trace_id": "abc\n"}, "bad_trace_id"),  # sent as a header: a newline ends it
        ({"trace_id": "abc def"}, "bad_trace_id"),
        ({"site_filter": "xn--a.com"}, "bad_site_filter"),  # an xn-- label that is no punycode
    ],
)
def test_a_value_is_checked_whole(options, code):
    assert _refused(lambda: _params(**options)) == code


def test_a_query_with_a_lone_surrogate_is_refused():
    assert _refused(lambda: check_query("harbour \ud800 works")) == "bad_query"


@pytest.mark.parametrize(
    "options, field, value",
    [
        ({"site_filter": ".gov"}, "site_filter", ".gov"),  # a domain's suffix, as site:.gov
        ({"site_filter": "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.ir"}, "site_filter", None),  # Persian ZWNJ
        ({"locale": "hy-Latn-IT-arevela"}, "locale", None),  # RFC 5646's example: language, script, region, variant
        ({"locale": "en", "lang": "en"}, "locale", "en"),  # the alias given alike
        ({"safe_search": True}, "safe_search", "moderate"),
        ({"safe_search": False}, "safe_search", "off"),
    ],
)
def test_an_accepted_option_is_sent_as_documented(options, field, value):
    sent = getattr(_params(**options), field)
    assert sent == (value if value is not None else options[field])


def test_defaults_and_unset_options():
    """No ``max_results``: the settings' number; a backend's option given as ``None`` is not given;
    ``max_content_chars`` is no backend's option to refuse (include_content's cap)."""
    assert _params().max_results == 7
    assert _params(backend_options=("wiki",), wiki=None).options == {}
    check_options_taken(["max_content_chars"], {"stub": ()}, {"stub": ()})  # no InvalidInput


@pytest.mark.parametrize(
    "vertical, options, owners",
    [
        ("news", {"max_pages": 2}, "max_pages: bing_html, ddg_html, searxng, yahoo_html"),
        ("news", {"wiki": "de"}, "wiki: wikipedia, not for a news search"),
        ("web", {"max_pages": 2}, "max_pages: baidu_html, bing_html, brave, ddg_html, ddg_lite, mojeek_html, searxng"),
    ],
)
def test_an_option_of_other_backends_names_those_taking_it_for_the_calls_vertical(vertical, options, owners):
    """Before: Brave News's max_pages was said to belong to other backends, brave among them (its web
    engine's option); the owners are the engines of the call's vertical."""
    backend = "brave" if vertical == "news" else "tavily"
    settings = ws.Settings(providers={"brave": {"api_key": "k"}, "tavily": {"api_key": "k"}})
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend=backend, vertical=vertical, settings=settings, **options)
    assert info.value.detail_code == "bad_option"
    assert "belong to other backends (%s" % owners in info.value.message


def test_a_backend_taking_the_option_for_another_vertical_is_said_to_take_it_there():
    """Startpage's web search reads next pages (``max_pages``), its image search one page: the refusal
    said max_pages belonged to other backends, "not to startpage_html", which a user who had just
    given it to Startpage's web search could not make sense of."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="startpage_html", vertical="images", max_pages=1)
    assert info.value.detail_code == "bad_option"
    assert (
        "max_pages belong to other backends (max_pages: bing_html, ddg_html, searxng), not to startpage_html "
        "(startpage_html takes max_pages for web, not for images)" in info.value.message
    )


def test_an_option_of_no_image_engine_reads_as_english():
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="ddg_html", vertical="images", wiki="de")
    assert "(wiki: wikipedia, not for an images search)" in info.value.message


def test_ddgs_page_2_of_a_duckduckgo_web_search_says_which_searches_of_ddg_html_take_pageno():
    """ddgs's ``text(page=2)``: ``pageno`` is ddg_html's for its news, images and videos (ddgs's ``s``),
    not for its web search, whose page 2 is page 1's form; the refusal said only "not to ddg_html"."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="ddg_html", pageno=2)
    assert "not to ddg_html (ddg_html takes pageno for news, images, videos, not for web)" in info.value.message


@pytest.mark.parametrize(
    "backend, names",
    [("DDG_HTML, Stub", ["ddg_html", "stub"]), ((name for name in ["stub", "ddg_html"]), ["stub", "ddg_html"])],
)
def test_backend_names_in_order_lower_cased(backend, names):
    assert backend_list(backend) == names


def test_an_empty_name_in_a_comma_list_is_refused():
    assert _refused(lambda: backend_list("stub,,ddg_html")) == "unknown_backend"


@pytest.mark.parametrize(
    "backend, said",
    [
        ("", "backend='' names no backend: name one (websearch_sync.backend_names() lists them), or leave backend out"),
        ([], "backend=[] names no backend: name one"),
        ("stub,,ddg_html", "backend 'stub,,ddg_html' holds an empty name (a comma too many?): leave it out"),
        (["stub", " "], "backend ['stub', ' '] holds an empty name"),
        ("stub,ddg_html,STUB", "backend 'stub,ddg_html,STUB' lists 'stub' twice: name each backend once"),
    ],
)
def test_a_backend_argument_naming_none_or_one_twice_says_what_to_do(backend, said):
    """``search(backend="")`` and ``SearchClient([])`` said "empty backend name in ''" and "... in []" (an
    empty list holds no empty name), and a name given twice "lists a name twice" without the name or the
    way out: each says what is wrong with the argument and what to write instead."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient(backend)
    assert said in info.value.message and info.value.detail_code == "unknown_backend"


def test_a_tool_argument_is_checked_as_declared():
    """A boolean is no integer argument; an integer declared without a minimum takes any integer;
    no arguments at all (``None``) is an empty call; a boolean sent is described as one."""
    count = Argument("count", "integer", "how many")
    with pytest.raises(ws.InvalidInput, match=r"'count' must be of type integer, got a boolean \(true\)"):
        count.check(True)
    assert count.check(-3) == -3
    assert check_arguments([count], None) == {}
    assert describe_sent(True) == "a boolean (true)"


CONTROL_QUERIES = [
    ("a\x00b", "'\\x00' at position 1"),
    ("x \x1b[31mred", "'\\x1b' at position 2"),
    ("q\x9b2J", "'\\x9b' at position 1"),
    ("a\x7fb", "'\\x7f' at position 1"),
]


@pytest.mark.parametrize("query, named", CONTROL_QUERIES, ids=["NUL", "terminal escape", "C1 CSI", "DEL"])
def test_a_query_holding_a_control_character_is_refused_alike_everywhere(capsys, query, named):
    """NUL and terminal escapes were sent to the service as given. Refused (never stripped: the query
    searched is the one given) with the character and its position, by ``search()``, the command
    line, the agent tool and the MCP server alike (one check: ``validate.check_query``)."""
    with pytest.raises(ws.InvalidInput) as refused:
        ws.search(query, backend="stub")
    assert refused.value.detail_code == "bad_query" and named in refused.value.message
    with ws.SearchClient("stub", settings=ws.Settings(backend="stub")) as client:
        tool_error = ws.tool.call_tool("web_search", {"query": query}, client=client)["error"]
        mcp_reply = McpTools(client).call("web_search", {"query": query})
    assert (tool_error["detail_code"], mcp_reply.is_error, mcp_reply.result) == (
        "bad_query",
        True,
        {"error": tool_error},
    )
    assert cli_main(["search", query, "--backend", "stub"]) != 0
    err = capsys.readouterr().err
    assert named in err and "\x1b" not in err and "\x00" not in err and "\x7f" not in err


@pytest.mark.parametrize(
    "query, named",
    [
        ("   a\x00b", "'\\x00' at position 4"),
        ("\x1cabc\x1f", "'\\x1c' at position 0"),
        ("abc \x1f", "'\\x1f' at position 4"),
        ("\x85abc", "'\\x85' at position 0"),
        (" \ud83d ", "'\\ud83d' at position 1"),
    ],
    ids=["after spaces", "separators at the edges", "separator at the end", "NEL at the start", "lone surrogate"],
)
def test_a_refused_character_is_refused_at_the_edges_too_and_placed_in_the_query_as_given(query, named):
    """The check ran on the stripped query: ``'   a\\x00b'`` named position 1, not 4, and the separators
    U+001C-U+001F and NEL (whitespace to ``str.strip``) were dropped silently at the edges while
    refused inside. Now the query as given is checked: positions count its code points from 0."""
    with pytest.raises(ws.InvalidInput) as refused:
        check_query(query)
    assert refused.value.detail_code == "bad_query" and named in refused.value.message


@pytest.mark.parametrize("query", ["a\tb", "line\nbreak\r\nx", "form\x0cfeed", "\u202eevil\u202c \u200f"])
def test_whitespace_controls_and_direction_marks_stay_in_a_query(query):
    """Tabs, line breaks and Unicode's format characters (direction marks) are text: they are sent."""
    assert check_query(query) == query


@pytest.mark.parametrize(
    "query",
    [
        "\u200b",
        " \u200f ",
        "\ufe0f",
        "\ufeff",
        "\u2060\u200d",
        "\U000e0041\U000e0042",
        "\u00ad",
        "\u202e\u202c",
        "\u2800\u3164",
    ],
    ids=[
        "zero-width space",
        "RLM",
        "VS16",
        "BOM",
        "word joiner, ZWJ",
        "tag characters",
        "soft hyphen",
        "bidi override",
        "braille blank, hangul filler",
    ],
)
def test_a_query_of_invisible_characters_alone_is_empty_everywhere(capsys, query):
    """Before: accepted and sent (``q=%E2%80%8B``), so an engine searched for nothing a reader could
    see and the stub answered titled ``- Overview``; a pasted zero-width space or an agent's stray
    byte-order mark is no query. Refused as blank, by ``search()``, the agent tool, MCP and the CLI."""
    with pytest.raises(ws.InvalidInput) as refused:
        check_query(query)
    assert refused.value.detail_code == "empty_query"
    assert "U+%04X" % ord(query.strip()[0]) in refused.value.message
    with ws.SearchClient("stub", settings=ws.Settings(backend="stub")) as client:
        tool_error = ws.tool.call_tool("web_search", {"query": query}, client=client)["error"]
        mcp_reply = McpTools(client).call("web_search", {"query": query})
    assert tool_error["detail_code"] == "empty_query" and mcp_reply.is_error
    assert cli_main(["search", query, "--backend", "stub"]) == 2
    assert "empty_query" in capsys.readouterr().err


@pytest.mark.parametrize("query", ["python\u200brequests", "\u2764\ufe0f", "\u200fשלום", "a\u00adb"])
def test_a_query_with_a_visible_character_keeps_its_invisible_ones(query):
    assert check_query(query) == query
