"""The JSON Schema a tool publishes and the check of what a model sends agree: every value a
model may send for an argument (at and past each limit, of the wrong JSON type, an unknown
argument) is accepted by ``call_tool``'s check exactly when the published schema accepts it.
The three documented differences: ``null``, read as "not given" (the strict form says so), an
integer written as a string of digits (``"5"``), read as that integer, and an ``enum`` value in
another case (``"News"``), read as the value, as ``search()`` and the command line read it."""

import json
import re
from decimal import Decimal
from types import MappingProxyType

import pytest

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.net.urls import MAX_URL_CHARS

SETTINGS = ws.Settings(backend="stub")


def probes(spec):
    """Values a model may send for an argument of JSON Schema ``spec``: a valid one, each limit
    and one past it, and values of the other JSON types (a number as text among them)."""
    values = [None, True, 5, 5.0, 5.5, "5", "", [], {}]
    if spec["type"] == "string":
        values.append(spec["enum"][0] if "enum" in spec else "x")
        for keyword, step in (("minLength", -1), ("maxLength", 1)):
            if keyword in spec:
                for length in (spec[keyword], spec[keyword] + step):
                    values.append("https://example.com/".ljust(length, "a")[:length] if length > 0 else "")
        values += [v.upper() for v in spec.get("enum", ())]
    if spec["type"] == "integer":
        for keyword, step in (("minimum", -1), ("maximum", 1)):
            values += [spec[keyword], spec[keyword] + step, float(spec[keyword] + step)]
    return values


def cases():
    for name in ("web.search", "web.fetch"):
        schema = tool.tool_schema(name, settings=SETTINGS)
        required = {key: "rust" if key == "query" else "https://example.com/" for key in schema["required"]}
        for argument, spec in schema["properties"].items():
            for value in probes(spec):
                yield pytest.param(
                    name,
                    schema,
                    dict(required, **{argument: value}),
                    id="%s-%s-%s" % (name, argument, json.dumps(value)[:24]),
                )
        yield pytest.param(name, schema, dict(required, unknown=1), id="%s-unknown" % name)
        yield pytest.param(name, schema, {}, id="%s-empty" % name)


@pytest.mark.parametrize("name, schema, arguments", list(cases()))
def test_the_check_accepts_exactly_what_the_schema_accepts(name, schema, arguments):
    # installed with the mcp extra (the test extra); imported here, not by every worker's collection
    jsonschema = pytest.importorskip("jsonschema")
    published = jsonschema.Draft202012Validator(schema).is_valid(
        {key: _as_read(schema["properties"].get(key), value) for key, value in arguments.items() if value is not None}
    )  # null: "not given"
    try:
        tool.validate_arguments(name, arguments, settings=SETTINGS)
        accepted = True
    except ws.InvalidInput as error:
        assert error.detail_code == "bad_arguments", error
        accepted = False
    assert accepted == published, arguments


def _as_read(spec, value):
    """``value`` as the check reads it: an integer argument's string of ASCII digits is that integer,
    an ``enum`` value in any case that value."""
    integer_text = isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value)
    if spec is not None and isinstance(value, str) and value.lower() in spec.get("enum", ()):
        return value.lower()
    return int(value) if spec is not None and spec["type"] == "integer" and integer_text else value


@pytest.mark.parametrize(
    "name, arguments, read",
    [
        ("web_search", {"query": "rust", "vertical": "News"}, {"vertical": "news"}),
        ("web_search", {"query": "rust", "time_range": "WEEK"}, {"time_range": "week"}),
        (
            "web_search",
            {"query": "rust", "vertical": "Images", "image_size": "Large"},
            {"vertical": "images", "image_size": "large"},
        ),
        ("web_fetch", {"url": "https://example.com/", "extract_mode": "Text"}, {"extract_mode": "text"}),
    ],
)
def test_an_enum_value_is_read_in_any_case(name, arguments, read):
    """``search(vertical="News")``, ``--vertical News`` and ``locale="EN_us"`` were taken, while the tools
    refused ``{"vertical": "News"}`` (``did you mean 'news'?``), costing a lenient model a turn. Every
    ``enum`` value is now read in any case, as the value it spells; a strict schema has the model send
    the listed value anyway."""
    checked = tool.validate_arguments(name.replace("_", ".", 1), arguments, settings=SETTINGS)
    assert {key: checked[key] for key in read} == read
    if name == "web_search":
        response = tool.call_tool(name, arguments, client=ws.SearchClient("stub"))
        assert "error" not in response, response
        assert response["provider_meta"].get("vertical", "web") == read.get("vertical", "web")


@pytest.mark.parametrize(
    "sent, read",
    [("5", 5), ("05", 5), ("10", 10), ("1", 1), ("0" * 19 + "3", 3)],  # zeros are no digits the bound counts
)
def test_an_integer_sent_as_a_string_of_digits_is_that_integer(sent, read):
    """Models often quote numbers (``"max_results": "5"``): it was refused as a string, and the model
    had to spend a turn on it. A string of digits is the integer it writes, in the same range."""
    response = tool.call_tool("web_search", {"query": "rust", "max_results": sent}, client=ws.SearchClient("stub"))
    assert "error" not in response, response
    assert tool.validate_arguments("web.search", {"query": "rust", "max_results": sent})["max_results"] == read
    assert len(response["items"]) <= read


@pytest.mark.parametrize(
    "sent, said",
    [
        ("5.5", "must be of type integer, got a string ('5.5')"),
        ("five", "must be of type integer, got a string ('five')"),
        (" 5", "must be of type integer, got a string (' 5')"),
        ("+5", "must be of type integer, got a string ('+5')"),
        ("1_0", "must be of type integer, got a string ('1_0')"),
        ("\u0663", "must be of type integer, got a string ('\u0663')"),  # ARABIC-INDIC DIGIT THREE
        ("true", "must be of type integer, got a string ('true')"),
        ("", "must be of type integer, got a string ('')"),
        ("50", "must be in 1..10, got 50"),
        ("0", "must be in 1..10, got 0"),
        ("9" * 5000, "must be an integer in 1..10, got an integer of 5000 digits"),
        ("0" * 20 + "9" * 5000, "must be an integer in 1..10, got an integer of 5000 digits"),
        ("9" * 18, "must be in 1..10, got %s" % ("9" * 18)),
        ("-" + "9" * 18, "must be in 1..10, got -%s" % ("9" * 18)),  # the sign is no digit: read as its unsigned one
    ],
)
def test_a_string_that_is_no_integer_in_range_stays_refused(sent, said):
    with pytest.raises(ws.InvalidInput) as refused:
        tool.validate_arguments("web.search", {"query": "rust", "max_results": sent})
    assert refused.value.detail_code == "bad_arguments" and refused.value.message.endswith(said)


@pytest.mark.parametrize(
    "sent, said",
    [
        (1e100, "must be an integer in 1..10, got a number (1e+100)"),
        (-1e300, "must be an integer in 1..10, got a number (-1e+300)"),
        (1e17, "must be an integer in 1..10, got a number (1e+17)"),
        (50.0, "must be in 1..10, got 50"),  # a whole float a model's API sends stays read as its integer
    ],
)
def test_a_huge_whole_number_sent_as_a_float_is_named_as_sent(sent, said):
    """Before: ``{"max_results": 1e100}`` (JSON a model may write) was read as ``int(1e100)`` and refused as
    ``got 10000000000000000159...``, digits the model never sent. A whole float beyond 2**53, where a
    float stops holding every integer, is now named as sent."""
    with pytest.raises(ws.InvalidInput) as refused:
        tool.validate_arguments("web.search", {"query": "rust", "max_results": sent})
    assert refused.value.detail_code == "bad_arguments" and refused.value.message.endswith(said), refused.value.message


def test_the_fetch_url_publishes_the_length_fetch_takes():
    assert tool.tool_schema("web.fetch")["properties"]["url"]["maxLength"] == MAX_URL_CHARS


@pytest.mark.parametrize(
    "arguments, said",
    [
        (
            {"query": "rust", "max_results": "5.0"},
            "argument 'max_results' must be of type integer, got a string ('5.0')",
        ),
        ({"query": 5}, "argument 'query' must be of type string, got a number (5)"),
        ({"query": "rust", "include_content": "true"}, "must be of type boolean, got a string ('true')"),
        ({"query": "rust", "max_results": 2.5}, "must be of type integer, got a number (2.5)"),
        ({"query": ["rust"]}, "argument 'query' must be of type string, got an array"),
        ({"query": "rust", "locale": {"code": "en"}}, "argument 'locale' must be of type string, got an object"),
        ({"query": "rust", "max_results": True}, "must be of type integer, got a boolean (true)"),
        (
            {"query": "rust", "time_range": "x" * 500},
            "must be one of day, week, month, year, got 'xxxxxxxxxxxxxxxxxxxx...",
        ),
    ],
)
def test_a_value_of_the_wrong_type_is_named_so_the_model_can_correct_it(arguments, said):
    """The model reads what it sent, as JSON names it, beside what the schema asks for."""
    error = tool.call_tool("web_search", arguments, client=ws.SearchClient("stub"))["error"]
    assert said in error["message"], error["message"]


@pytest.mark.parametrize(
    "name, arguments",
    [
        ("web_search", {"query": "rust", "max_results": "five"}),
        ("web_search", {"query": "   "}),
        ("web_search", {"query": "rust", "locale": "english"}),
        ("web_fetch", {"url": "ftp://example.com/"}),
    ],
)
def test_an_argument_error_tells_the_model_to_correct_the_arguments(name, arguments):
    """ "Retrying the same call will not help" alone reads as "give up"; a call with other arguments will."""
    line = tool.format_results(tool.call_tool(name, arguments, client=ws.SearchClient("stub")))
    assert line.startswith("Error: InvalidInput (") and line.endswith(". Correct the arguments and call again."), line


def test_other_errors_keep_their_retry_advice():
    line = tool.format_results(tool.call_tool("web_lookup", {}, client=ws.SearchClient("stub")))
    assert line.endswith("Retrying the same call will not help."), line


def test_an_unknown_argument_close_to_a_known_one_is_named():
    """Models trained on other search tools send ``num_results`` or ``maxResults``."""
    error = tool.call_tool("web_search", {"query": "rust", "num_results": 3}, client=ws.SearchClient("stub"))["error"]
    assert error["message"].startswith("unknown argument 'num_results' (did you mean 'max_results'?) (allowed: query,")


@pytest.mark.parametrize(
    "second_status, advice",
    [(502, "Retrying later may help."), (401, "Retrying the same call will not help.")],
)
def test_a_chains_retry_advice_counts_every_backend_not_only_the_one_whose_error_is_raised(
    json_backends, second_status, advice
):
    """A wall beside a 502: the wall's error is raised (the most informative) and is not retryable,
    but the 502 may heal, and the chain asks that backend again: retrying may help."""
    from websearch_sync.testing import MockResponse, MockWire

    json_backends("aa", "bb")
    wire = MockWire(lambda request: MockResponse(403 if "aa.example" in request.url else second_status, {}, "no"))
    settings = ws.Settings(endpoints={"aa": "https://aa.example/s", "bb": "https://bb.example/s"})
    with ws.SearchClient(["aa", "bb"], settings=settings, wire=wire, retries=0) as client:
        line = tool.format_results(tool.call_tool("web_search", {"query": "q"}, client=client))
    assert line.startswith("Error: WebBlocked (http_403): ") and advice in line, line


def test_a_rate_limit_slot_after_the_calls_budget_tells_the_model_that_a_later_call_may_pass():
    """``budget_exhausted`` is not ``retryable`` (no retry within that call fits), but each tool call a
    model makes has a budget of its own: "will not help" had the model give up on search, while the
    same call once the slot is free succeeds."""
    from clocks import FakeClock

    clock = FakeClock()
    with ws.SearchClient("stub", min_interval_s={"stub": 60}, clock=clock, state_url="", cache_ttl_s=0) as client:
        assert "items" in tool.call_tool("web_search", {"query": "one"}, client=client)
        refused = tool.call_tool("web_search", {"query": "two"}, client=client)
        assert refused["error"]["detail_code"] == "budget_exhausted" and refused["error"]["retryable"] is False
        assert tool.format_results(refused).endswith(". Retrying later may help.")
        clock.advance(60)
        assert "items" in tool.call_tool("web_search", {"query": "two"}, client=client)


@pytest.mark.parametrize(
    "arguments, said",
    [
        ({"query": b"rust"}, "argument 'query' must be of type string, got a Python bytes, no JSON value"),
        (
            {"query": "rust", "max_results": Decimal(5)},
            "argument 'max_results' must be of type integer, got a Python Decimal, no JSON value",
        ),
        ({"query": {"rust"}}, "argument 'query' must be of type string, got a Python set, no JSON value"),
    ],
)
def test_a_value_no_json_holds_is_named_as_the_python_type_it_is(arguments, said):
    """Only a Python caller sends these: "got an object" named a JSON object it was not."""
    error = tool.call_tool("web_search", arguments, client=ws.SearchClient("stub"))["error"]
    assert (error["detail_code"], error["message"]) == ("bad_arguments", said)


def test_arguments_in_a_mapping_that_is_no_dict_are_read_as_the_dict_it_holds():
    """ "arguments must be a JSON object, got an object" refused a read-only mapping of good arguments."""
    result = tool.call_tool("web_search", MappingProxyType({"query": "rust"}), client=ws.SearchClient("stub"))
    assert "error" not in result and result["items"]
