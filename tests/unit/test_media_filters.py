"""Image and video filters (docs/verticals.md): one closed list of values per filter, refused
with the list and the closest value; sent by the engines that declare an upstream token for
them (DuckDuckGo's ``f``, the tokens ddgs sends: ddgs/engines/duckduckgo_images.py,
duckduckgo_videos.py), reported in ``not_sent`` by the others; ``auto`` asks first an engine
that sends them.

The token page and the JSON answers are the recorded ones of tests/unit/backends/test_ddg_verticals.py."""

import json
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
import responses
from clocks import FakeClock
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.cli.backends_cmd import backend_rows
from websearch_sync.client.selection import sending_everything_first
from websearch_sync.engine import registry
from websearch_sync.engine.base import Backend, Page
from websearch_sync.models import MEDIA_FILTERS, SearchParams
from websearch_sync.net.transport import HttpResponse
from websearch_sync.tool import call_tool

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ddg_html"
TOKEN_PAGE = (FIXTURES / "phrona__news_rust_programming.1.html").read_text(encoding="utf-8")
TOKEN = "4-223413263753125317115557746668718077517"
_ENDPOINTS = {"images": "i.js", "videos": "v.js"}


def _answer_request(vertical, **options):
    """The query of the JSON request a DuckDuckGo ``vertical`` search with ``options`` sends, and the answer."""
    settings = ws.Settings(impersonate="off")
    with (
        responses.RequestsMock() as mock,
        ws.SearchClient("ddg_html", settings=settings, clock=FakeClock(), cache_ttl_s=0, retries=0) as client,
    ):
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/" + _ENDPOINTS[vertical], json={"results": [], "next": None})
        response = client.search("red panda", vertical=vertical, **options)
        answer = mock.calls[1].request
    return dict(parse_qsl(urlsplit(answer.url).query, keep_blank_values=True)), response


@pytest.mark.parametrize(
    "options, f",
    [
        ({"image_size": "large"}, ",size:Large,,,,"),
        ({"image_size": "Wallpaper"}, ",size:Wallpaper,,,,"),
        ({"image_color": "monochrome"}, ",,color:Monochrome,,,"),
        ({"image_color": "color"}, ",,color:color,,,"),
        ({"image_color": "teal"}, ",,color:Teal,,,"),
        ({"image_type": "transparent"}, ",,,type:transparent,,"),
        ({"image_layout": "wide"}, ",,,,layout:Wide,"),
        ({"image_license": "creative_commons"}, ",,,,,license:any"),
        ({"image_license": "share_commercially"}, ",,,,,license:ShareCommercially"),
        ({"image_license": "public_domain"}, ",,,,,license:Public"),
        (
            {
                "image_size": "small",
                "image_color": "red",
                "image_type": "photo",
                "image_layout": "square",
                "image_license": "modify_commercially",
                "time_range": "day",
            },
            "time:Day,size:Small,color:Red,type:photo,layout:Square,license:ModifyCommercially",
        ),
        ({"time_range": "week"}, "time:Week"),  # no filter: the time alone, as before
    ],
)
def test_ddg_images_sends_each_filter_in_its_slot_of_f_as_ddgs_does(options, f):
    query, response = _answer_request("images", **options)
    assert query == {"l": "wt-wt", "o": "json", "q": "red panda", "vqd": TOKEN, "p": "-1", "f": f}
    assert "not_sent" not in response["provider_meta"]


@pytest.mark.parametrize(
    "options, f",
    [
        ({"video_resolution": "high"}, ",videoDefinition:high,,"),
        ({"video_resolution": "standard"}, ",videoDefinition:standard,,"),
        ({"video_duration": "short"}, ",,videoDuration:short,"),
        ({"video_duration": "long"}, ",,videoDuration:long,"),
        ({"video_license": "creative_commons"}, ",,,videoLicense:creativeCommon"),
        ({"video_license": "youtube"}, ",,,videoLicense:youtube"),
        (
            {"video_resolution": "high", "video_duration": "medium", "video_license": "youtube", "time_range": "month"},
            "publishedAfter:m,videoDefinition:high,videoDuration:medium,videoLicense:youtube",
        ),
    ],
)
def test_ddg_videos_sends_each_filter_in_its_slot_of_f_as_ddgs_does(options, f):
    query, response = _answer_request("videos", **options)
    assert query == {"l": "wt-wt", "o": "json", "q": "red panda", "vqd": TOKEN, "p": "-1", "noamp": "1", "f": f}
    assert "not_sent" not in response["provider_meta"]


def test_a_video_filter_beside_a_year_keeps_the_year_reported_and_its_slot_empty():
    query, response = _answer_request("videos", video_duration="short", time_range="year")
    assert query["f"] == ",,videoDuration:short,"
    assert response["provider_meta"]["not_sent"] == ["time_range"]


def test_every_value_of_every_filter_has_a_ddg_token():
    for vertical in ("images", "videos"):
        engine = registry.backend_class("ddg_html", vertical)
        for name, (filtered, values) in MEDIA_FILTERS.items():
            if filtered == vertical:
                assert sorted(engine.filters[name]) == sorted(values), name


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"vertical": "images", "image_size": "huge"},
            "image_size must be one of small, medium, large, wallpaper, got 'huge'",
        ),
        (
            {"vertical": "images", "image_license": "ShareCommercially"},
            "image_license must be one of creative_commons, public_domain, share, share_commercially, modify, "
            "modify_commercially, got 'ShareCommercially' (did you mean 'share_commercially'?)",
        ),
        ({"vertical": "images", "image_color": "grey"}, "got 'grey' (did you mean 'gray'?)"),
        ({"vertical": "videos", "video_duration": 30}, "video_duration must be one of short, medium, long, got 30"),
        ({"image_size": "large"}, "image_size filters images: give it with vertical='images' (this call searches web)"),
        (
            {"vertical": "images", "video_resolution": "high"},
            "video_resolution filters videos: give it with vertical='videos' (this call searches images)",
        ),
    ],
)
def test_a_bad_filter_is_refused_before_any_request_naming_what_it_takes(options, message):
    with responses.RequestsMock(), pytest.raises(ws.InvalidInput) as info:  # no request registered: none may go
        ws.search("red panda", backend="ddg_html", **options)
    assert info.value.detail_code == "bad_filter"
    assert message in info.value.message


@pytest.mark.parametrize(
    "arguments, hint",
    [
        ({"vertical": "image"}, "got 'image' (did you mean 'images'?)"),
        ({"vertical": "images", "image_size": "Larg"}, "got 'Larg' (did you mean 'large'?)"),
        ({"vertical": "images", "image_license": "ShareCommercially"}, "(did you mean 'share_commercially'?)"),
        ({"vertical": "images", "image_color": "grey"}, "got 'grey' (did you mean 'gray'?)"),
        ({"vertical": "images", "image_license": "any"}, "(ddgs's 'any' is 'creative_commons')"),
    ],
)
def test_the_search_tool_refuses_a_value_naming_the_closest_as_search_does(arguments, hint):
    """The tool's refusal named no close value where ``search()``'s does: a model sending
    ``vertical: "image"`` was only given the list. (``Large`` is now read as ``large``, as ``search()``
    reads it: test_tool_schema_agreement.)"""
    answer = call_tool("web_search", {"query": "red panda", **arguments}, client=ws.SearchClient("stub"))
    assert answer["error"]["detail_code"] == "bad_arguments"
    assert hint in answer["error"]["message"]


def test_a_filter_is_read_in_any_case():
    query, _ = _answer_request("images", image_layout="TALL")
    assert query["f"] == ",,,,layout:Tall,"


@pytest.mark.parametrize(
    "backend, vertical, options",
    [
        ("bing_html", "images", {"image_size": "large", "image_color": "red"}),
        ("bing_html", "videos", {"video_duration": "short"}),
        ("startpage_html", "images", {"image_type": "gif"}),
        ("brave", "images", {"image_layout": "wide"}),
        ("brave", "videos", {"video_license": "youtube"}),
        ("searxng", "images", {"image_license": "share"}),
        ("searxng", "videos", {"video_resolution": "high"}),
        ("stub", "images", {"image_size": "small"}),
    ],
)
def test_an_engine_without_the_filter_says_so_in_not_sent(backend, vertical, options):
    engine = registry.instance(registry.backend_class(backend, vertical), ws.Settings())
    params = SearchParams(query="q", max_results=10, vertical=vertical, filters=options)
    assert engine.not_sent(params) == sorted(options)
    assert engine.filter_tokens(params) == {}


def test_a_value_an_engine_lacks_is_reported_with_its_value():
    class Partial(Backend):
        name = "partial_filters"
        vertical = "images"
        filters = {"image_size": {"large": "big"}}

    engine = Partial(ws.Settings())
    params = SearchParams(query="q", max_results=10, vertical="images", filters={"image_size": "small"})
    assert engine.not_sent(params) == ["image_size=small"] and engine.filter_tokens(params) == {}
    params = SearchParams(query="q", max_results=10, vertical="images", filters={"image_size": "large"})
    assert engine.not_sent(params) == [] and engine.filter_tokens(params) == {"image_size": "big"}


@pytest.mark.parametrize(
    "filters",
    [
        {"image_size": {"huge": "size:Huge"}},  # a value no call can give
        {"video_duration": {"short": "videoDuration:short"}},  # another vertical's filter
        {"image_sise": {"large": "size:Large"}},  # no such filter
        {"image_size": {"large": 3}},  # a token that is no string
    ],
)
def test_a_filters_declaration_that_cannot_be_used_is_refused_at_registration(filters):
    attributes = {"name": "bad_filters", "vertical": "images", "filters": filters, "summary": "x"}
    cls = type("BadFilters", (Backend,), attributes)
    with pytest.raises(TypeError, match="its filters are"):
        registry.register(cls)


def test_auto_asks_first_the_engines_that_send_the_filters():
    params = SearchParams(query="q", max_results=10, vertical="images", filters={"image_size": "large"})
    names = ["bing_html", "startpage_html", "ddg_html"]
    assert sending_everything_first(names, ws.Settings(), params) == ["ddg_html", "bing_html", "startpage_html"]
    plain = SearchParams(query="q", max_results=10, vertical="images")
    assert sending_everything_first(names, ws.Settings(), plain) == names


def test_the_filters_are_part_of_the_cache_key_only_when_given():
    plain = SearchParams(query="q", max_results=10, vertical="images")
    large = SearchParams(query="q", max_results=10, vertical="images", filters={"image_size": "large"})
    assert plain.cache_key() != large.cache_key()
    assert len(plain.cache_key()) == len(large.cache_key()) - 1


def test_the_cli_flags_reach_the_request(capsys, fake_clock):
    with responses.RequestsMock() as mock:
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/v.js", json={"results": [], "next": None})
        argv = ["search", "rust talk", "-b", "ddg_html", "--vertical", "videos", "--video-duration", "long"]
        assert main(argv + ["--video-license", "youtube", "--impersonate", "off", "--json"]) == 0
        query = dict(parse_qsl(urlsplit(mock.calls[1].request.url).query))
    assert query["f"] == ",,videoDuration:long,videoLicense:youtube"


def test_the_cli_says_what_a_bad_filter_takes_with_exit_2(capsys):
    with responses.RequestsMock():
        assert main(["search", "q", "-b", "ddg_html", "--vertical", "images", "--image-layout", "wdie"]) == 2
    assert (
        "InvalidInput/bad_filter: --image-layout must be one of square, tall, wide, got 'wdie' (did you mean 'wide'?)"
        in (capsys.readouterr().err)
    )


def test_the_cli_reports_a_filter_the_backend_did_not_send(capsys):
    assert main(["search", "q", "-b", "stub", "--vertical", "images", "--image-size", "large", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["provider_meta"]["not_sent"] == ["image_size"]


def _docs_table() -> dict[str, tuple[list[str], list[str]]]:
    """docs/verticals.md's filter table: ``{option: (values, backends that send it)}``."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "verticals.md").read_text(encoding="utf-8")
    section = page.split("## Image and video filters", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = (
                re.findall(r"`([a-z_]+)`", cells[1]),
                re.findall(r"`([a-z_]+)`", cells[2]),
            )
    return rows


def test_the_docs_table_lists_every_filter_its_values_and_the_backends_that_send_each_value():
    rows = {row["name"]: row for row in backend_rows(ws.Settings())}
    expected = {
        name: (
            list(values),
            sorted(backend for backend, row in rows.items() if sorted(row["filters"].get(name, ())) == sorted(values)),
        )
        for name, (_, values) in MEDIA_FILTERS.items()
    }
    assert _docs_table() == expected
    # an engine sending some values of a filter only would need the table to say which
    assert all(
        set(row["filters"].get(name, values)) == set(values)
        for row in rows.values()
        for name, (_, values) in MEDIA_FILTERS.items()
    )


def test_one_client_sends_each_calls_own_filters_and_caches_them_apart():
    """The validated-call memo and the cache key tell calls apart by their filters."""
    settings = ws.Settings(impersonate="off")
    with responses.RequestsMock() as mock, ws.SearchClient("ddg_html", settings=settings, clock=FakeClock()) as client:
        mock.get("https://duckduckgo.com/", body=TOKEN_PAGE, content_type="text/html; charset=UTF-8")
        mock.get("https://duckduckgo.com/i.js", json={"results": [], "next": None})
        for size in ("large", "small", "large"):
            client.search("red panda", vertical="images", image_size=size)
        sent = [dict(parse_qsl(urlsplit(call.request.url).query)).get("f") for call in mock.calls]
    assert sent == [None, ",size:Large,,,,", None, ",size:Small,,,,"]  # the third call: the cached answer


def test_a_misspelt_filter_name_is_a_type_error_naming_the_filter():
    with pytest.raises(TypeError, match=r"image_sise \(did you mean 'image_size'\?\)"):
        ws.search("red panda", backend="stub", vertical="images", image_sise="large")


def _next_request(vertical, recorded, **filters):
    """The request for the page after the recorded answer ``recorded`` of a call with ``filters``."""
    engine = registry.backend_class("ddg_html", vertical)(ws.Settings())
    body = (FIXTURES / recorded).read_bytes()
    headers = {"Content-Type": "application/json"}
    answer = HttpResponse(200, CaseInsensitiveDict(headers), body, "https://duckduckgo.com/" + _ENDPOINTS[vertical])
    params = SearchParams(query="q", max_results=50, vertical=vertical, filters=filters)
    spec = engine.next_page(params, Page(2, 60, answer, engine.parse(answer, params)))
    assert spec is not None
    return spec


def test_a_next_page_without_f_is_asked_with_the_calls_filters():
    """The recorded video answer's ``next`` has no ``f``: page 2 would be unfiltered without it."""
    spec = _next_request("videos", "phrona__videos_rust_programming.2.json", video_duration="short")
    assert "f=" not in spec.url and spec.params == {"f": ",,videoDuration:short,"}
    assert _next_request("videos", "phrona__videos_rust_programming.2.json").params is None


def test_a_next_page_with_its_own_f_keeps_it():
    """The recorded image answer's ``next`` repeats the ``f`` its request sent (``f=,,,,,``)."""
    spec = _next_request("images", "duck-duck-scrape__images_minecraft.2.json", image_size="large")
    assert dict(parse_qsl(urlsplit(spec.url).query, keep_blank_values=True))["f"] == ",,,,,"
    assert "f" not in (spec.params or {})
