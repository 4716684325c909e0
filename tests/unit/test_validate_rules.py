"""One number rule everywhere, and tool arguments whose schema and check come from one declaration."""

import math

import pytest

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.cli import main as cli_main
from websearch_sync.config import MIN_FETCH_BYTES
from websearch_sync.mcp import McpTools, serve_stdio
from websearch_sync.validate import Argument, arguments_schema, check_arguments, check_number

# -- the number rule --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, limits, message",
    [
        (0, {}, "n must be a positive integer, got 0"),
        (True, {}, "n must be a positive integer, got True"),  # a bool is no count
        (2.0, {}, "n must be a positive integer, got 2.0"),  # a fraction is refused, not truncated
        ("3", {}, "n must be a positive integer, got '3'"),
        (11, {"maximum": 10}, "n must be in 1..10, got 11"),
        (1.5, {"maximum": 10}, "n must be an integer in 1..10, got 1.5"),
        (-0.5, {"minimum": 0, "integer": False}, "n must be a number >= 0, got -0.5"),
        (math.nan, {"minimum": 0, "integer": False}, "n must be a number >= 0, got nan"),  # NaN passes no limit
        (86401, {"minimum": 0, "maximum": 86400.0, "integer": False}, "n must be in 0..86400, got 86401"),
    ],
)
def test_a_refused_number_names_itself_its_range_and_the_value(value, limits, message):
    with pytest.raises(ws.InvalidInput) as info:
        check_number("n", value, detail="bad_n", provider="p", **limits)
    assert (str(info.value.message), info.value.detail_code, info.value.provider) == (message, "bad_n", "p")


@pytest.mark.parametrize(
    "value, limits",
    [
        (1, {}),
        (10, {"maximum": 10}),
        (0, {"minimum": 0}),
        (0.5, {"minimum": 0, "integer": False}),
        (math.inf, {"integer": False}),
    ],
)
def test_an_accepted_number_comes_back_unchanged(value, limits):
    assert check_number("n", value, detail="bad_n", **limits) == value


#: Every place a count or a size enters the library: its name, a call with the value, its lowest
#: value, and the detail code its refusal carries.
COUNTS = [
    ("Settings.timeout_ms", lambda v: ws.Settings(timeout_ms=v), 1, "bad_setting"),
    ("Settings.max_response_bytes", lambda v: ws.Settings(max_response_bytes=v), MIN_FETCH_BYTES, "bad_setting"),
    ("max_results", lambda v: ws.search("q", max_results=v), 1, "bad_max_results"),
    ("max_content_chars", lambda v: ws.search("q", max_content_chars=v), 1, "bad_max_content_chars"),
    ("timeout_ms", lambda v: ws.search("q", timeout_ms=v), 1, "bad_timeout"),
    ("max_chars", lambda v: ws.fetch("http://example.com/", max_chars=v), 1, "bad_max_chars"),
    ("max_bytes", lambda v: ws.fetch("http://example.com/", max_bytes=v), MIN_FETCH_BYTES, "bad_max_bytes"),
    ("max_repeats", lambda v: tool.ToolSession(ws.SearchClient("stub"), max_repeats=v), 1, "bad_max_repeats"),
    (
        "repeat_window_s",
        lambda v: tool.ToolSession(ws.SearchClient("stub"), repeat_window_s=v),
        0,
        "bad_repeat_window",
    ),
    (
        "max_concurrent",
        lambda v: serve_stdio(McpTools(ws.SearchClient("stub")), max_concurrent=v),
        1,
        "bad_max_concurrent",
    ),
    ("retries", lambda v: ws.SearchClient("stub", retries=v), 0, "bad_retries"),
    ("cache_ttl_s", lambda v: ws.SearchClient("stub", cache_ttl_s=v), 0, "bad_cache_ttl_s"),
]


def test_an_infinite_repeat_window_is_refused_and_a_zero_max_repeats_says_how_to_turn_the_guard_off():
    """``repeat_window_s=inf`` was taken (its note then said "in the last inf s"; ``None`` is the whole
    life); ``max_repeats=0``, written to turn the guard off, was refused without saying how."""
    with pytest.raises(ws.InvalidInput) as infinite:
        tool.ToolSession(ws.SearchClient("stub"), repeat_window_s=math.inf)
    assert infinite.value.detail_code == "bad_repeat_window"
    assert (
        infinite.value.message == "repeat_window_s must be a finite number >= 0 (None: the tools' whole life), got inf"
    )
    with pytest.raises(ws.InvalidInput) as zero:
        tool.ToolSession(ws.SearchClient("stub"), max_repeats=0)
    assert zero.value.message == (
        "max_repeats must be a positive integer (no guard: repeat_window_s=0, mcp --repeat-window 0), got 0"
    )


@pytest.mark.parametrize("name, call, lowest, detail", COUNTS, ids=[c[0] for c in COUNTS])
@pytest.mark.parametrize("value", ["below", True, math.nan, "3"])
def test_every_count_is_refused_alike(name, call, lowest, detail, value):
    value = lowest - 1 if value == "below" else value
    with pytest.raises(ws.InvalidInput) as info:
        call(value)
    assert info.value.detail_code == detail
    assert info.value.message.startswith(name + " must be ") and info.value.message.endswith("got %r" % (value,))


def test_a_command_line_count_out_of_range_is_bad_arguments(capsys):
    assert cli_main(["search", "--workers", "0", "--queries-file", "-"]) != 0
    assert "--workers must be in 1..64, got 0" in capsys.readouterr().err


# -- tool arguments: one declaration ------------------------------------------------------------------

DECLARED = (
    Argument("q", "string", "Text.", required=True, min_length=1, max_length=5),
    Argument("n", "integer", "Count.", minimum=1, maximum=3),
    Argument("mode", "string", "Mode.", choices=("a", "b")),
    Argument("flag", "boolean", "Flag."),
)


def test_the_schema_is_the_declaration():
    assert arguments_schema(DECLARED) == {
        "type": "object",
        "properties": {
            "q": {"type": "string", "minLength": 1, "maxLength": 5, "description": "Text."},
            "n": {"type": "integer", "minimum": 1, "maximum": 3, "description": "Count."},
            "mode": {"type": "string", "enum": ["a", "b"], "description": "Mode."},
            "flag": {"type": "boolean", "description": "Flag."},
        },
        "required": ["q"],
        "additionalProperties": False,
    }


def _violations(name, spec):
    """Values that break one keyword of ``spec`` each (read from the schema, not from the check)."""
    # (an integer's string of digits, "5", is that integer: the one documented exception, test_tool_schema_agreement)
    wrong_type = {"string": 5, "integer": "5.5", "boolean": "yes"}[spec["type"]]
    found = [wrong_type] + ([True] if spec["type"] == "integer" else [])
    if "enum" in spec:
        found.append("not-" + spec["enum"][0])
    if "minLength" in spec:
        found.append("x" * (spec["minLength"] - 1))
    if "maxLength" in spec:
        found.append("x" * (spec["maxLength"] + 1))
    if "minimum" in spec:
        found.append(spec["minimum"] - 1)
    if "maximum" in spec:
        found.append(spec["maximum"] + 1)
    return [(name, value) for value in found]


def _edges(name, spec):
    """Values on the schema's limits, which the check must take."""
    edges = {"string": ["x"], "integer": [], "boolean": [True, False]}[spec["type"]]
    edges = list(spec["enum"]) if "enum" in spec else edges
    edges += ["x" * spec[key] for key in ("minLength", "maxLength") if key in spec]
    edges += [spec[key] for key in ("minimum", "maximum") if key in spec]
    return [(name, value) for value in edges]


SCHEMAS = {name: tool.tool_schema(name) for name in (tool.SEARCH_TOOL, tool.FETCH_TOOL)}
BREAKING = [
    (t, n, v) for t, s in SCHEMAS.items() for p, spec in s["properties"].items() for n, v in _violations(p, spec)
]
EDGES = [(t, n, v) for t, s in SCHEMAS.items() for p, spec in s["properties"].items() for n, v in _edges(p, spec)]


@pytest.mark.parametrize("tool_name, name, value", BREAKING)
def test_what_the_advertised_schema_refuses_the_check_refuses(tool_name, name, value):
    required = {"query": "q", "url": "https://example.com/"}
    arguments = {key: value for key, value in required.items() if key in SCHEMAS[tool_name]["properties"]}
    arguments[name] = value
    with pytest.raises(ws.InvalidInput) as info:
        tool.validate_arguments(tool_name, arguments)
    assert info.value.detail_code == "bad_arguments" and repr(name) in info.value.message


@pytest.mark.parametrize("tool_name, name, value", EDGES)
def test_what_the_advertised_schema_takes_the_check_takes(tool_name, name, value):
    required = {"query": "q", "url": "https://example.com/"}
    arguments = {key: value for key, value in required.items() if key in SCHEMAS[tool_name]["properties"]}
    arguments[name] = value
    assert tool.validate_arguments(tool_name, arguments) == arguments


def test_the_check_reads_null_as_absent_and_names_the_first_problem():
    assert check_arguments(DECLARED, {"q": "a", "n": None}) == {"q": "a"}
    for given, problem in [
        ([], "arguments must be a JSON object, got an array"),
        ({}, "missing required argument 'q'"),
        # a misspelt required argument: the missing one and what was sent instead, with the closest name
        (
            {"qq": "a"},
            "missing required argument 'q'; got unknown argument 'qq' (did you mean 'q'?) (allowed: q, n, mode, flag)",
        ),
        ({"q": "a", "z": 1}, "unknown argument 'z' (allowed: q, n, mode, flag)"),
        ({"q": "abcdef"}, "argument 'q' must be 1..5 characters long, got 6"),
        ({"q": "a", "n": 4}, "argument 'n' must be in 1..3, got 4"),
    ]:
        with pytest.raises(ws.InvalidInput) as info:
            check_arguments(DECLARED, given)
        assert info.value.message == problem


# -- what a refusal quotes back to the model ---------------------------------------------------------

#: What a model may send where a name or a number goes: a megabyte of it (an MCP message carries it).
HUGE_NAME = "web_fetch" * 100_000


def test_a_refusal_quotes_the_start_of_a_huge_unknown_argument_name_not_all_of_it():
    reply = tool.call_tool("web_fetch", {"url": "http://example.com/", HUGE_NAME: 1})
    message = reply["error"]["message"]
    assert message.startswith("unknown argument '%s...' (allowed: url, " % HUGE_NAME[:20]) and len(message) < 200


@pytest.mark.parametrize(
    "sent, said",
    [
        # as sent: int(1e308) has 309 digits, the first 20 of which (10000000000000000109...) no model wrote
        ("1e308", "must be an integer in 1..200000, got a number (1e+308)"),
        ("1" + "0" * 4000, "must be in 1..200000, got %s..." % ("1" + "0" * 19)),
    ],
    ids=["a float that is an integer", "4001 digits"],
)
def test_a_refusal_quotes_the_start_of_a_huge_number_not_all_its_digits(sent, said):
    reply = tool.call_tool("web_fetch", '{"url": "http://example.com/", "max_chars": %s}' % sent)
    message = reply["error"]["message"]
    assert message == "argument 'max_chars' " + said


@pytest.mark.parametrize("call", ["call_tool", "mcp"])
def test_an_unknown_tool_of_a_huge_name_is_refused_quoting_its_start(call):
    if call == "mcp":
        with ws.SearchClient("ddg_html") as client:
            reply = McpTools(client).call(HUGE_NAME, {}).result
    else:
        reply = tool.call_tool(HUGE_NAME, {})
    assert (reply["error"]["type"], reply["error"]["detail_code"]) == ("ToolNotFound", "unknown_tool")
    assert reply["error"]["message"].startswith("no tool named '%s...'; available: " % HUGE_NAME[:20])
    assert len(reply["error"]["message"]) < 200


@pytest.mark.parametrize("name, said", [(["web_fetch"], "(a list, not a string)"), (5, "(an int, not a string)")])
def test_an_unknown_tool_named_by_no_string_says_so_not_as_python_writes_the_value(name, said):
    """``call_tool(5, ...)`` said ``(a int, not a string)``."""
    reply = tool.call_tool(name, {})
    assert reply["error"]["message"].startswith("no tool named %s; available: " % said)


@pytest.mark.parametrize("sign, named", [("", "an integer"), ("-", "a negative integer")])
def test_json_arguments_holding_an_integer_of_thousands_of_digits_are_json_refused_as_out_of_range(sign, named):
    # named as the integer it was: "a number (inf)" left the model to guess what it sent
    reply = tool.call_tool("web_fetch", '{"url": "http://example.com/", "max_chars": %s%s}' % (sign, "9" * 5000))
    limit = tool.tool_schema("web_fetch")["properties"]["max_chars"]["maximum"]
    assert reply["error"]["message"] == (
        "argument 'max_chars' must be an integer in 1..%d, got %s of 5000 digits" % (limit, named)
    )
    reply = tool.call_tool("web_fetch", '{"url": %s}' % ("9" * 5000))
    assert reply["error"]["message"] == "argument 'url' must be of type string, got an integer of 5000 digits"
