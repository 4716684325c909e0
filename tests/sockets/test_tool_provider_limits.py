"""What the tools hand a model stays within what the model APIs take: an image's base64 text
within Anthropic's per-image limit (which counts the base64 characters, not the image's bytes),
and the page text a search service returns itself within ``max_content_chars``."""

import base64
import sys

import pytest
from faults import respond
from images import noise_png
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.client.search_client import SearchClient
from websearch_sync.config import DEFAULT_CONTENT_CHARS
from websearch_sync.reader import image as image_reader

#: Anthropic's per-image limit, on the base64 string: its 400 reads "image exceeds 5 MB maximum:
#: N bytes > 5242880 bytes" for the base64 text of an image of 3.9 MB and more.
ANTHROPIC_BASE64_LIMIT = 5 * 1024 * 1024


@pytest.fixture(scope="module")
def four_megabytes():
    """A PNG of random pixels of about 4.3 MB: under 5 MB, but 5.8 MB as base64."""
    body = noise_png(1200, 1200)
    assert len(body) * 4 / 3 > ANTHROPIC_BASE64_LIMIT and len(body) < 5_000_000
    return body


def test_an_image_under_5_mb_whose_base64_is_over_anthropics_limit_is_downscaled(four_megabytes):
    with SearchClient(settings=ws.Settings(allow_private=True)) as client:
        with FaultServer({"/i": respond(200, four_megabytes, content_type="image/png")}) as server:
            result = tool.call_tool("web_fetch", {"url": server.url("/i")}, client=client, images=True)
    assert "error" not in result, result
    block = tool.image_block(result, "anthropic")
    assert len(block["source"]["data"]) <= ANTHROPIC_BASE64_LIMIT
    assert result["width"] < 1200 and base64.b64decode(result["data"]).startswith(b"\x89PNG")


def test_without_pillow_such_an_image_is_image_too_large(four_megabytes, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # no images extra: no downscaling
    with SearchClient(settings=ws.Settings(allow_private=True)) as client:
        with FaultServer({"/i": respond(200, four_megabytes, content_type="image/png")}) as server:
            result = tool.call_tool("web_fetch", {"url": server.url("/i")}, client=client, images=True)
    assert (result["error"]["type"], result["error"]["detail_code"]) == ("WebProviderError", "image_too_large")


def test_the_byte_cap_is_the_largest_image_whose_base64_fits():
    largest = image_reader.MAX_IMAGE_BYTES
    assert len(base64.b64encode(b"\0" * largest)) <= ANTHROPIC_BASE64_LIMIT
    assert len(base64.b64encode(b"\0" * (largest + 1))) > ANTHROPIC_BASE64_LIMIT


def test_page_text_a_search_service_returns_is_capped_at_max_content_chars(fake_clock):
    """Jina (like Tavily and the search service) returns each result's whole page with
    ``include_content``: 5 pages of 500,000 characters were 2.5 million characters for the model."""
    import responses

    page = "word " * 100_000
    answer = {
        "code": 200,
        "status": 20000,
        "data": [
            {"title": "T%d" % n, "url": "https://e%d.example.com/" % n, "description": "d", "content": page}
            for n in range(5)
        ],
    }
    settings = ws.Settings.from_env({"WEB_SEARCH_BACKEND": "jina", "JINA_API_KEY": "k"})
    with responses.RequestsMock() as mock, SearchClient(settings=settings) as client:
        mock.add(responses.GET, "https://s.jina.ai/", json=answer)
        result = tool.call_tool("web_search", {"query": "q", "include_content": True}, client=client)
        capped = client.search("q2", include_content=True, max_content_chars=100)
    assert [len(item["content"]) for item in result["items"]] == [DEFAULT_CONTENT_CHARS] * 5
    assert [item["content"] for item in capped["items"]] == [page[:100]] * 5


def test_a_result_with_a_huge_title_and_snippet_is_cut_for_the_model():
    """A service answering with titles of 100,000 and snippets of 1.6 million characters (a
    broken or hostile SearXNG instance, within the byte cap) gave the model 8.5 million characters
    for five results; each is now cut, marked by ``...``, and the whole answer stays small."""
    import responses

    answer = {
        "query": "q",
        "results": [
            {"url": "https://a%d.example/" % n, "title": "T " * 50_000, "content": "snippet " * 200_000}
            for n in range(5)
        ],
    }
    settings = ws.Settings.from_env(
        {
            "WEB_SEARCH_BACKEND": "searxng",
            "SEARXNG_BASE_URL": "https://searx.example",
            "WEB_SEARCH_MAX_BYTES": "50000000",
        }
    )
    with responses.RequestsMock() as mock, SearchClient(settings=settings) as client:
        mock.add(responses.GET, "https://searx.example/search", json=answer)
        result = tool.call_tool("web_search", {"query": "q"}, client=client)
    for item in result["items"]:
        assert len(item["title"]) == tool.MAX_TITLE_CHARS and item["title"].endswith("...")
        assert len(item["snippet"]) == tool.MAX_SNIPPET_CHARS and item["snippet"].endswith("...")
    assert len(tool.format_results(result)) < 5 * (tool.MAX_TITLE_CHARS + tool.MAX_SNIPPET_CHARS + 200)
