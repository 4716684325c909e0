"""The declared reading of a JSON API (``JsonApiEngine``'s ``results_at``, ``result_fields``,
``content_field``, ``request_id_at``): a JSON engine that declares where its answer lists its
results needs no ``parse``, and its answers go through the same checks as a hand-written one's
(an unknown shape is ``WebParseError``, never "no results"; items without a URL are dropped by
normalisation)."""

import pytest
from backend_kit import replay_search

import websearch_sync as ws
from websearch_sync.backends import JsonApiEngine, RequestSpec, SearchParams, register, unregister
from websearch_sync.engine.registry import declaration_problem

URL = "https://declared.example/api"


class Declared(JsonApiEngine):
    """Results at a nested path, one vendor field nested too, a request id, page text."""

    name = "declared_demo"
    summary = "a JSON engine read by its declarations alone"
    text_format = "text"
    default_endpoint = URL
    results_at = ("data", "hits")
    result_fields = {"title": "name", "url": "link", "snippet": ("about", "text"), "published_at": "date"}
    content_field = ("page", "body")
    request_id_at = ("meta", "id")

    def build_request(self, params: SearchParams) -> RequestSpec:
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.full_query}, headers=self.json_headers())


class OddField(Declared):
    """The hook for one field: a result without ``about.text`` has its first tag as the snippet."""

    name = "declared_odd"

    def item_of(self, result, params):
        item = super().item_of(result, params)
        if not item["snippet"] and result.get("tags"):
            item["snippet"] = result["tags"][0]
        return item


ANSWER = {
    "meta": {"id": 4711},
    "data": {
        "hits": [
            {
                "name": "  First ",
                "link": "https://example.org/a",
                "about": {"text": "one\n two"},
                "date": "2024-05-01",
                "page": {"body": "the page"},
            },
            {"name": "No link", "about": {"text": "dropped"}},
            "not an object",
            {"name": "Plain", "link": "https://example.org/b", "about": None, "tags": ["tagged"]},
        ]
    },
}


@pytest.fixture(autouse=True)
def registered():
    register(Declared)
    register(OddField)
    yield
    unregister(Declared.name)
    unregister(OddField.name)


def search(body, backend="declared_demo", **kwargs):
    return replay_search(backend, URL, body, **kwargs)[0]


def test_the_declarations_read_an_answer():
    result = search(ANSWER, include_content=True)
    items = result["items"]
    assert [(i["title"], i["url"], i["snippet"]) for i in items] == [
        ("First", "https://example.org/a", "one two"),
        ("Plain", "https://example.org/b", ""),  # about is null: the nested field reads as nothing
    ]
    assert items[0]["published_at"] == "2024-05-01" and items[0]["content"] == "the page"
    assert result["provider_meta"]["request_id"] == "4711"


def test_the_hook_changes_one_field():
    items = search(ANSWER, backend="declared_odd")["items"]
    assert [i["snippet"] for i in items] == ["one two", "tagged"]


def test_page_text_only_when_asked():
    assert all("content" not in item for item in search(ANSWER)["items"])


@pytest.mark.parametrize(
    "body, says",
    [
        ({"data": {}}, "without 'data.hits'"),
        ({"data": {"hits": None}}, "`data.hits` that is not a list (null)"),
        ({"data": {"hits": [{"name": "x", "url": "https://example.org/"}]}}, "none a JSON object with a `link` text"),
        ([1, 2], "without 'data'"),
    ],
)
def test_an_answer_of_another_shape_is_a_parse_error(body, says):
    error = search(body)
    assert isinstance(error, ws.WebParseError) and error.detail_code == "unexpected_shape"
    assert says in error.message


def test_an_empty_list_is_no_results():
    result = search({"data": {"hits": []}})
    assert result["items"] == [] and "request_id" not in result["provider_meta"]


def test_a_json_engine_without_results_at_or_parse_says_what_to_declare():
    class Undeclared(JsonApiEngine):
        name = "undeclared_demo"

        def build_request(self, params):
            return RequestSpec("GET", URL)

    assert "declares no results_at" in Undeclared.reader_problem()
    assert Declared.reader_problem() is None and OddField.reader_problem() is None


@pytest.mark.parametrize(
    "declaration, value",
    [
        ("results_at", ""),
        ("results_at", 3),
        ("results_at", ("data", 0)),
        ("request_id_at", ["meta", ""]),
        ("content_field", {"page": "body"}),
        ("result_fields", {"title": ("name",), "url": None}),
        ("result_fields", ["title", "url"]),
    ],
)
def test_a_declaration_of_the_wrong_kind_is_refused(declaration, value):
    broken = type("Broken", (Declared,), {declaration: value})
    assert (declaration_problem(broken) or "").startswith("its %s is %r, not " % (declaration, value))
    with pytest.raises(TypeError, match=declaration):
        register(broken)
