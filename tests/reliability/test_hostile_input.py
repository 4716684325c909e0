"""Hostile input, property-based: the only outcomes are a valid contract result or a
``WebSearchError`` (never an ``internal_error``, which means a defect slipped through).

- queries (any Unicode, lone surrogates, control characters, RTL marks, NUL, up to
  10,000 characters) through ``SearchClient.search`` of every backend, against the
  fault lab serving each backend's recorded good answer;
- every recorded body under ``fixtures/`` mutated (truncated, tags deleted or
  duplicated, random bytes, deep nesting, JSON values of the wrong type) through the
  real parse path ``Backend.interpret`` and ``Backend.structure_report``;
- recorded HTML pages mutated through fetch's text extraction;
- ``normalize_items`` on arbitrary raw items: ranks 1..n, http(s) URLs only, no
  duplicates, at most ``max_results``, single-line encodable text.
"""

import functools
import itertools
import json
import re
from typing import Any

import faultlab
import pytest
from backend_kit import fixture_cases, required
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_examples import examples
from requests.structures import CaseInsensitiveDict
from unicode_text import UTF8_CHARS

import websearch_sync as ws
from websearch_sync.contract.cases import contract_violations
from websearch_sync.engine import registry
from websearch_sync.engine.normalize import normalize_items
from websearch_sync.net import jsontext
from websearch_sync.net.transport import HttpResponse, RequestSpec
from websearch_sync.reader.content import page_text
from websearch_sync.secrets import is_secret_name
from websearch_sync.testing import assert_contract
from websearch_sync.validate import search_params

SETTINGS = settings(
    deadline=None,
    max_examples=examples(40, deep=200),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
BACKENDS = faultlab.network_backends()
ALL_CHARS = st.characters(exclude_categories=())  # every code point: controls, lone surrogates, private use
SPECIALS = [
    "\x00",
    "\u202e",
    "\u202d",
    "\u200f",
    "\u200e",
    "\u200b",
    "\ufeff",
    "\r",
    "\n",
    "\t",
    "\x0b",
    " ",
    "\u3000",
    "é",
    "中",
    "\U0001f600",
    "%",
    "&",
    "<",
    ">",
    '"',
    "'",
    "\\",
    "#",
    "?",
    "/",
    "+",
    "=",
    ";",
    "\ud800",
    "\udfff",
    "site:",
    "OR",
    "-",
    "*",
    "\x7f",
    "\x1b[31m",
]
QUERIES = st.one_of(
    st.text(ALL_CHARS, max_size=60),
    st.lists(st.sampled_from(SPECIALS + ["word", "q"]), min_size=1, max_size=30).map("".join),
    st.builds(
        lambda part, count: part * count,
        st.sampled_from(["x", "é", "中 ", "\U0001f600", "\x00", " ", "ab "]),
        st.integers(300, 10_000),
    ),
)
QUERY_REFUSALS = {"empty_query", "bad_query", "query_too_long", "unsupported_query"}  # the last: Tavily's site: alone


# -- queries ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lab_client():
    targets = [faultlab.search_target(name) for name in BACKENDS]
    with faultlab.LabServer(targets) as server:
        settings_ = faultlab.lab_settings(server, BACKENDS)
        with ws.SearchClient(settings=settings_, min_interval_s=0, cache_ttl_s=0, retries=0) as client:
            yield client


def _query_outcome(client: ws.SearchClient, backend: str, query: str) -> None:
    try:
        # The deadline is not the subject here, and parsing runs under it: a loaded machine must not time it out.
        result = client.search(query, backend=backend, max_results=10, timeout_ms=30000)
    except ws.WebSearchError as error:
        assert error.detail_code != "internal_error", "a defect surfaced as %r" % error
        assert error.code == "InvalidInput" and error.detail_code in QUERY_REFUSALS, (
            "against a good answer only the query can be refused, got %r for %r" % (error, query[:80])
        )
        json.dumps(error.to_dict(), ensure_ascii=False).encode("utf-8")  # printable
        return
    assert_contract(result, max_results=10, provider=backend)
    json.dumps(result, ensure_ascii=False).encode("utf-8")  # printable as UTF-8 (no lone surrogates)


@pytest.mark.parametrize("backend", BACKENDS + ["stub"])
@SETTINGS
@given(query=QUERIES)
def test_hostile_queries_give_results_or_a_clear_refusal(lab_client, backend, query):
    _query_outcome(lab_client, backend, query)


@pytest.mark.parametrize(
    "query, detail",
    [
        ("a\ud800b", "bad_query"),  # a lone surrogate cannot be sent anywhere (was internal_error)
        ("\udfff", "bad_query"),
        (" \t\n\u3000 ", "empty_query"),
        ("x" * 10_000, "query_too_long"),
    ],
)
def test_queries_that_cannot_be_sent_are_invalid_input(lab_client, query, detail):
    for backend in BACKENDS + ["stub"]:
        with pytest.raises(ws.InvalidInput) as info:
            lab_client.search(query, backend=backend)
        assert info.value.detail_code == detail


def test_line_breaks_and_rtl_marks_reach_the_service_intact(lab_client):
    query = "ab \u202eevil\u202c \u200f\r\nX-Injected: 1"  # a NUL is refused: test_validation.py
    result = lab_client.search(query, backend="searxng")
    assert result["items"]


# -- parsers on mutated recorded bodies --------------------------------------------------------------


@functools.cache
def recorded_bodies(backend: str) -> list[Any]:
    """``(case, response, body)`` of every recorded answer of ``backend`` with a body (read when a
    test needs them, not when the module is collected in every worker; once, not per example), of
    the process's one reading of the recordings (``backend_kit.fixture_cases``, which the lab's
    targets read too: asking ``discover`` again for each backend parsed every meta file once more,
    0.3 s of CPU)."""
    found = []
    for case in fixture_cases(backend):
        if case.problem:
            continue
        for exchange in case.exchanges():
            response = exchange.get("response") or {}
            if response.get("body") or response.get("body_text"):
                found.append((case, response, case.body_bytes(response)))
    return found


_TAG = re.compile(rb"<[^<>]{0,300}>")


def _position(data: Any, body: bytes) -> int:
    return data.draw(st.integers(0, len(body)), label="position")


#: How far into a body tags are looked for.
_TAG_SCAN_BYTES = 400_000


def _tag_span(data: Any, body: bytes):
    """One to seven consecutive tags of ``body`` (its first 400 KB), from the first tag at or after a
    drawn position: found from there, not listed for the whole body (a mutated body is new in each
    example: its every tag was listed afresh for the one span drawn)."""
    end = min(len(body), _TAG_SCAN_BYTES)
    start = data.draw(st.integers(0, end), label="tag position")
    first = _TAG.search(body, start, end) or _TAG.search(body, 0, end)
    if first is None:
        return None
    count = data.draw(st.integers(1, 7), label="tags")
    spans = [m.span() for m in itertools.islice(_TAG.finditer(body, first.start(), end), count)]
    return spans[0][0], spans[-1][1]


#: A value of another type than the one it replaces (built once: hypothesis does not cache a
#: strategy holding a dict).
JSON_REPLACEMENTS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(ALL_CHARS, max_size=20),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(UTF8_CHARS, max_size=5), st.integers(), max_size=3),
    st.just({"url": "javascript:alert(1)", "title": ["x"], "description": {"a": 1}}),
    st.just({"url": "https://dup.example/", "title": "\ud800<b>x</b>\u202e", "snippet": None}),
)


def _json_mutation(data: Any, body: bytes) -> bytes:
    """Replace one value somewhere in the JSON document by a value of another type."""
    try:
        document = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError):
        return body
    paths: list[list[Any]] = []

    def walk(node: Any, path: list[Any]) -> None:
        if len(paths) > 2000:
            return
        paths.append(path)
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, path + [key])
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, path + [index])

    walk(document, [])
    path = data.draw(st.sampled_from(paths), label="json path")
    replacement = data.draw(JSON_REPLACEMENTS, label="replacement")
    if not path:
        document = replacement
    else:
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = replacement
    return json.dumps(document).encode("utf-8")


MUTATIONS = {
    "truncate": lambda data, body: body[: _position(data, body)],
    "cut_span": lambda data, body: (lambda a, b: body[: min(a, b)] + body[max(a, b) :])(
        _position(data, body), _position(data, body)
    ),
    "delete_tags": lambda data, body: (lambda span: body if span is None else body[: span[0]] + body[span[1] :])(
        _tag_span(data, body)
    ),
    "duplicate_tags": lambda data, body: (
        lambda span: body if span is None else body[: span[1]] + body[span[0] : span[1]] + body[span[1] :]
    )(_tag_span(data, body)),
    "random_bytes": lambda data, body: (lambda at, junk: body[:at] + junk + body[at:])(
        _position(data, body), data.draw(st.binary(min_size=1, max_size=64), label="junk")
    ),
    "overwrite_bytes": lambda data, body: (lambda at, junk: body[:at] + junk + body[at + len(junk) :])(
        _position(data, body), data.draw(st.binary(min_size=1, max_size=64), label="junk")
    ),
    # 5,000 levels: over every bound of the parsers (libxml2's 256, MAX_JSON_DEPTH's 256, the
    # interpreter's 1,000 frames); 50,000 proved no more and took a fetch's extraction 3-5 times the CPU
    "deep_nesting": lambda data, body: (lambda at, token: body[:at] + token * 5_000 + body[at:])(
        _position(data, body), data.draw(st.sampled_from([b"<div>", b"<b><i>", b"[", b'{"a":']), label="nest")
    ),
    "json_value": _json_mutation,
}


#: One to three mutations, applied in turn.
MUTATION_CHAINS = st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=3)


def _mutated(data: Any, body: bytes) -> bytes:
    for name in data.draw(MUTATION_CHAINS, label="mutations"):
        body = MUTATIONS[name](data, body)
    return body


def _case_settings(case: Any, backend: str) -> ws.Settings:
    values = dict(case.meta.get("settings") or {})
    providers = {k: dict(v) for k, v in (values.pop("providers", None) or {}).items()}
    mine = providers.setdefault(backend, {})
    cls = registry.backend_class(backend)
    for key in required(cls):
        mine.setdefault(key, "lab-key" if is_secret_name(key) else "https://lab.example")
    return ws.Settings(providers=providers, **{k: v for k, v in values.items() if k in ("max_results", "timeout_ms")})


def _case_params(case: Any, engine: Any, vertical: str) -> Any:
    """The search a case answered, as the engine of its vertical reads it (its own options)."""
    return search_params(
        case.meta.get("query") or "q",
        case.meta.get("max_results"),
        dict(case.meta.get("options") or {}, vertical=vertical),
        ws.Settings(),
        engine.option_names(),
    )


def _response(case: Any, recorded: dict[str, Any], content: bytes) -> HttpResponse:
    headers = CaseInsensitiveDict(
        {
            k: v
            for k, v in (recorded.get("headers") or {}).items()
            if k.lower() not in ("content-encoding", "content-length")
        }
    )
    url = (case.meta.get("request") or {}).get("url") or "https://lab.example/search"
    return HttpResponse(status=recorded.get("status") or 200, headers=headers, content=content, url=url)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(
    deadline=None,
    max_examples=examples(40, deep=200),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_mutated_recorded_bodies_parse_or_fail_cleanly(backend, data):
    assert recorded_bodies(backend), "fixtures/%s has no recorded body" % backend
    case, recorded, body = data.draw(st.sampled_from(recorded_bodies(backend)), label="case")
    content = _mutated(data, body)
    # Each case read by the engine of its own vertical, with its own options (an image case's
    # image_type is no option of web search; its body is no web page either).
    vertical = case.meta.get("vertical") or "web"
    engine = registry.backend_class(backend, vertical)
    instance = engine(_case_settings(case, backend))
    params = _case_params(case, engine, vertical)
    response = _response(case, recorded, content)
    exchanges = case.exchanges()
    step = next(number for number, exchange in enumerate(exchanges, 1) if exchange.get("response") is recorded)
    if step < len(exchanges):  # a page read for the next request (DuckDuckGo's vqd token page), not for results
        _continues_or_fails_cleanly(instance, response, params, step)
        return
    report = instance.structure_report(response, params)
    assert isinstance(report, dict) and all(isinstance(v, bool) for v in report.values())
    try:
        result = instance.interpret(response, params)
    except ws.WebSearchError as error:
        assert error.detail_code != "internal_error"
        return
    assert all(isinstance(item, dict) for item in result.items)
    items = normalize_items(result.items, backend, params.max_results, vertical)
    problems = contract_violations(
        {"items": items}, max_results=params.max_results, provider=backend, vertical=vertical
    )
    assert problems == []
    for entry in result.errors:
        assert isinstance(entry.get("type"), str) and isinstance(entry.get("retryable"), bool)
    json.dumps({"items": items, "errors": result.errors}, ensure_ascii=False).encode("utf-8")


def _continues_or_fails_cleanly(instance: Any, response: HttpResponse, params: Any, step: int) -> None:
    """A mutated answer to request ``step`` of a flow of several is read as the flow reads it
    (:meth:`~websearch_sync.engine.base.Backend.continue_request`): the next request, or none,
    or a ``WebSearchError`` that is no ``internal_error``."""
    try:
        spec = instance.continue_request(response, params, step)
    except ws.WebSearchError as error:
        assert error.detail_code != "internal_error"
        return
    assert spec is None or isinstance(spec, RequestSpec)
    if spec is not None:  # what goes upstream is text a request can carry
        assert all(isinstance(value, str) for value in (spec.params or {}).values())


@functools.cache
def continued_bodies() -> list[Any]:
    """``(backend, case, response, body, step)`` of every recorded answer read for a next request
    of the same flow (DuckDuckGo's token pages, exchange 1 of its news, images and videos)."""
    return [
        (backend, case, response, body, step)
        for backend in BACKENDS
        for case, response, body in recorded_bodies(backend)
        for step, exchange in enumerate(case.exchanges()[:-1], 1)
        if exchange.get("response") is response
    ]


@SETTINGS
@given(data=st.data())
def test_mutated_pages_of_a_flow_lead_on_or_fail_cleanly(data):
    """The pages a flow reads for its next request (not for results), each mutated, through that
    reading: the case-sampling test above reaches them only by chance."""
    assert continued_bodies(), "no recorded flow of several requests"
    backend, case, recorded, body, step = data.draw(st.sampled_from(continued_bodies()), label="case")
    vertical = case.meta.get("vertical") or "web"
    engine = registry.backend_class(backend, vertical)
    params = _case_params(case, engine, vertical)
    response = _response(case, recorded, _mutated(data, body))
    _continues_or_fails_cleanly(engine(_case_settings(case, backend)), response, params, step)


#: The recorded result pages whose mutations fetch extracts.
HTML_PAGES = ("ddg_html", "baidu_html")


@settings(
    deadline=None,
    max_examples=examples(25, deep=100),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), mode=st.sampled_from(["markdown", "text"]))
def test_fetch_extraction_of_mutated_pages_gives_text_or_a_clean_error(data, mode):
    pages = [page for name in HTML_PAGES if name in BACKENDS for page in recorded_bodies(name)[:3]]
    case, recorded, body = data.draw(st.sampled_from(pages), label="page")
    response = _response(case, recorded, _mutated(data, body))
    try:
        page = page_text(response, mode=mode, provider="fetch")
    except ws.WebSearchError as error:
        assert error.code in ("WebParseError", "WebProviderError") and error.detail_code != "internal_error"
        return
    assert isinstance(page.text, str) and page.text.strip()
    page.text.encode("utf-8")


# -- normalize invariants ------------------------------------------------------------------------------


URLS = st.one_of(
    st.builds(
        lambda scheme, host, path: "%s://%s/%s" % (scheme, host, path),
        st.sampled_from(["http", "https", "HTTP", "HtTpS", "ftp", "javascript", "data", "file", " http", "http "]),
        st.sampled_from(
            [
                "a.example",
                "b.example",
                "A.EXAMPLE",
                "",
                "[::1]",
                "[bad",
                "x y",
                "例え.jp",
                "a.example:99999",
                "a.example:80",
            ]
        ),
        st.text(ALL_CHARS, max_size=12),
    ),
    st.text(ALL_CHARS, max_size=30),
    st.none(),
    st.integers(),
    st.lists(st.text(UTF8_CHARS, max_size=3), max_size=2),
)
TEXTS = st.one_of(
    st.none(),
    st.integers(),
    st.floats(allow_nan=True),
    st.lists(st.text(UTF8_CHARS, max_size=4), max_size=2),
    st.text(ALL_CHARS, max_size=40),
    st.lists(
        st.sampled_from(
            SPECIALS
            + [
                "<b>",
                "</b>",
                "<br>",
                "&amp;",
                "&#10;",
                "&#0;",
                "&lt;b&gt;",
                "<!-- c -->",
                "&nbsp;",
                "\u2028",
                "\u00a0",
                "\x1c",
                "word",
            ]
        ),
        max_size=20,
    ).map("".join),
)
RAW_ITEMS = st.lists(
    st.fixed_dictionaries(
        {"url": URLS},
        optional={"title": TEXTS, "snippet": TEXTS, "source": TEXTS, "published_at": TEXTS, "content": TEXTS},
    ),
    max_size=25,
)


def assert_clean_item(item):
    """An http(s) URL, text fields on one line without control characters, no lone surrogate anywhere."""
    assert re.match(r"^https?://[^/?#\s]", item["url"])
    for key in ("title", "snippet", "source", "published_at"):
        if key in item:
            value = item[key]
            assert value == " ".join(value.split()) and not re.search(r"[\x00-\x1f\x7f]", value)
    for value in item.values():
        if isinstance(value, str):
            value.encode("utf-8")  # no lone surrogates: printable, serialisable


@SETTINGS
@given(raw=RAW_ITEMS, max_results=st.integers(1, 10))
def test_normalize_invariants(raw, max_results):
    items = normalize_items(raw, "lab", max_results)
    assert contract_violations({"items": items}, max_results=max_results, provider="lab") == []
    assert [item["rank"] for item in items] == list(range(1, len(items) + 1))
    assert len({item["url"] for item in items}) == len(items) <= max_results
    for item in items:
        assert_clean_item(item)
    valid = [r for r in raw if isinstance(r.get("url"), str) and re.match(r"^\s*https?://", r["url"], re.I)]
    if not valid:
        assert items == []


def test_lone_surrogates_never_reach_an_item():
    raw = [
        {"title": "A \ud800 B", "url": "https://a.example/x", "snippet": "c\udfffd", "source": "\ud83d"},
        {"title": "t", "url": "https://b.example/\ud83d"},
    ]
    items = normalize_items(raw, "lab", 10)
    assert [(i["title"], i["snippet"]) for i in items] == [("A B", "cd")]
    assert "source" not in items[0]


# -- deep nesting (regression: RecursionError escaped the JSON parsers and call_tool) -------------------

DEEP = b"[" * 100_000


@pytest.mark.parametrize("backend", [n for n in BACKENDS if registry.backend_class(n).kind == "json"])
def test_deeply_nested_json_is_a_parse_error(backend):
    case, recorded = next((c, r) for c, r, _ in recorded_bodies(backend) if r.get("status") == 200)
    instance = registry.backend_class(backend)(_case_settings(case, backend))
    with pytest.raises(ws.WebParseError) as info:
        instance.interpret(_response(case, recorded, DEEP), search_params("q", 5, {}, ws.Settings()))
    assert info.value.detail_code == "not_json"
    assert info.value.message.endswith(" answered with JSON nested over 256 levels deep, which is not read")


@pytest.mark.parametrize("cut", ["deeply_nested", "truncated"])
@pytest.mark.parametrize("backend", [n for n in BACKENDS if registry.backend_class(n).kind == "json"])
def test_an_answer_that_is_not_json_is_parsed_once(monkeypatch, backend, cut):
    """The structure report, the bot-wall check, the envelope and the parser all read the body: one
    that is not JSON (cut short, nested too deeply) was parsed again by each, up to 1 ms a read."""
    case, recorded, body = next((c, r, b) for c, r, b in recorded_bodies(backend) if r.get("status") == 200)
    response = _response(case, recorded, DEEP if cut == "deeply_nested" else body[: len(body) // 2])
    instance = registry.backend_class(backend)(_case_settings(case, backend))
    reads = []
    loads = jsontext.loads
    monkeypatch.setattr(jsontext, "loads", lambda text: reads.append(text) or loads(text))
    assert instance.structure_report(response, search_params("q", 5, {}, ws.Settings())) == {"recognised": False}
    with pytest.raises(ws.WebParseError) as info:
        instance.interpret(response, search_params("q", 5, {}, ws.Settings()))
    assert info.value.detail_code == "not_json" and len(reads) == 1


def test_deeply_nested_json_page_is_not_json_for_fetch():
    response = HttpResponse(
        status=200,
        headers=CaseInsensitiveDict({"Content-Type": "application/json"}),
        content=DEEP,
        url="https://lab.example/data.json",
    )
    with pytest.raises(ws.WebParseError) as info:
        page_text(response, mode="text", provider="fetch")
    assert info.value.detail_code == "not_json"


def test_call_tool_never_raises_for_deeply_nested_arguments():
    from websearch_sync import tool

    with ws.SearchClient("stub") as client:
        for name in ("web_search", "web_fetch"):
            result = tool.call_tool(name, DEEP.decode(), client=client)
            assert result["error"]["detail_code"] == "bad_arguments"
