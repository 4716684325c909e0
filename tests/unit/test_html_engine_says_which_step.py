"""An ``HtmlEngine`` whose page reads no result says which step found nothing: the results region
(``region_start``/``region_end``) or the region's items. Both said "a page that has neither results
nor a no-results notice", which left a plugin's author (the example engine of docs/backends.md with
a misspelt marker, or one whose ``items`` missed every block) and a page that moved guessing."""

import pytest

from websearch_sync import Settings
from websearch_sync.backends import HtmlEngine, SearchParams
from websearch_sync.errors import WebParseError

PAGE = '<html><body><ol class="results"><li><a href="https://a.example/">A</a></li></ol><!--end--></body></html>'


class Draft(HtmlEngine):
    name = "html_draft"
    default_endpoint = "https://search.draft.example/"
    region_start = ('class="results"',)
    region_end = ("<!--end-->",)

    def query(self, params):
        return {"q": params.full_query}

    def items(self, markup, params):
        return []  # every block missed


class MisspeltMarker(Draft):
    name = "html_misspelt_marker"
    region_start = ('class="result-list"',)


@pytest.mark.parametrize(
    "engine, said",
    [(MisspeltMarker, "(no results region found)"), (Draft, "(its results region holds no result)")],
)
def test_a_page_read_as_nothing_says_which_step_found_nothing(engine, said):
    with pytest.raises(WebParseError) as caught:
        engine(Settings()).read_page(PAGE, SearchParams(query="q", max_results=5))
    assert caught.value.message == (
        "%s answered with a page that has neither results nor a no-results notice %s" % (engine.name, said)
    )
    assert caught.value.detail_code == "unexpected_shape"
