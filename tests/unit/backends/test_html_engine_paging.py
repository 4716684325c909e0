"""HtmlEngine.first_result_field: the next page starts after the results read, written where
the engine's request carries its query: the URL of a ``GET`` engine, the form of a ``POST`` one."""

from requests.structures import CaseInsensitiveDict

from websearch_sync.backends.bing import BingHtml
from websearch_sync.config import Settings
from websearch_sync.engine.base import Page
from websearch_sync.models import ParseResult, SearchParams
from websearch_sync.net.response import HttpResponse

PARAMS = SearchParams(query="paging", max_results=20)


def _page_two(read: int) -> Page:
    previous = HttpResponse(200, CaseInsensitiveDict(), b"", "https://www.bing.com/search")
    return Page(2, read, previous, ParseResult(items=[{}] * read))


class _PostedBing(BingHtml):
    """Bing's request posted as a form (no such engine is registered: the declaration's other kind)."""

    method = "POST"


def test_a_get_engines_next_page_starts_in_its_url_after_the_results_read():
    spec = BingHtml(Settings()).next_page(PARAMS, _page_two(read=9))
    assert spec is not None and spec.data is None
    assert dict(spec.params or {})["first"] == "10"


def test_a_post_engines_next_page_starts_in_its_form_after_the_results_read():
    """The form carries the query: the start goes there (before: into the URL beside the form,
    which held the first page's start, or none)."""
    engine = _PostedBing(Settings())
    first_page = engine.build_request(PARAMS)
    spec = engine.next_page(PARAMS, _page_two(read=9))
    assert spec is not None and not spec.params
    assert dict(spec.data or {}) == dict(first_page.data or {}, first="10")
