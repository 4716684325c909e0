"""Results pages whose result blocks nest inside each other (a hostile page: each block
holds the next one, ``levels`` deep), and the same blocks side by side (an ordinary
page of about the same size). A parser linear in the page size reads both in about the
same time; one that searches below or above each block once per block is quadratic on
the nested page. Used by tests/unit/backends/test_linear_parsers.py and bench/parse_bounds.py.
"""

from typing import Callable

__all__ = ["ENGINES", "nested_page", "flat_page", "parsers"]

#: engine -> (page head, block opening, block closing, page tail); every block is a full
#: result (title link and snippet), so a parser reads one item per block.
ENGINES: dict[str, tuple[str, str, str, str]] = {
    "bing_html": (
        '<ol id="b_results">',
        '<li class="b_algo"><h2><a href="https://e.example/%d">t<div class="b_caption"><p>s',
        "</p></div></a></h2></li>",
        "</ol>",
    ),
    "yahoo_html": (
        '<div id="web">',
        '<div class="algo"><a href="https://e.example/%d"><h3>t<div class="compText">s',
        "</div></h3></a></div>",
        "</div>",
    ),
    "ddg_html": (
        '<div id="links">',
        '<div class="result"><a class="result__a" href="https://e.example/%d">t<div class="result__snippet">s',
        "</div></a></div>",
        '</div><div class="nav-link"></div>',
    ),
    "mojeek_html": (
        '<ul class="results-standard">',
        '<li><h2><a class="title" href="https://e.example/%d">t</a></h2><p class="s">s<div>',
        "</div></p></li>",
        "</ul>",
    ),
    "startpage_html": (
        '<div class="w-gl css-1og29rd">',
        '<div class="result css-o7i03b"><a class="result-title result-link" href="https://e.example/%d">t'
        '<p class="description">s',
        "</p></a></div>",
        '</div><div class="pagination-container">',
    ),
    "baidu_html": (
        '<div id="content_left">',
        '<div class="c-container"><h3><a href="https://www.baidu.com/link?url=%d">t</a></h3>'
        '<div class="c-abstract">s<div>',
        "</div></div></div>",
        "</div>",
    ),
}


def nested_page(engine: str, levels: int) -> str:
    """``levels`` result blocks, each inside the one before."""
    head, opening, closing, tail = ENGINES[engine]
    return head + "".join(opening % i for i in range(levels)) + closing * levels + tail


def flat_page(engine: str, blocks: int) -> str:
    """``blocks`` result blocks side by side."""
    head, opening, closing, tail = ENGINES[engine]
    return head + "".join(opening % i + closing for i in range(blocks)) + tail


def parsers() -> dict[str, Callable[[str], object]]:
    """engine -> a function reading a page's raw items (the engine's own page parser)."""
    from requests.structures import CaseInsensitiveDict

    from websearch_sync.config import Settings
    from websearch_sync.engine import registry
    from websearch_sync.models import SearchParams
    from websearch_sync.net.transport import HttpResponse

    params = SearchParams(query="q", max_results=10)

    def reader(name: str) -> Callable[[str], object]:
        backend = registry.backend_class(name)(Settings())
        return lambda text: (
            backend.parse(
                HttpResponse(
                    200,
                    CaseInsensitiveDict({"Content-Type": "text/html; charset=utf-8"}),
                    text.encode(),
                    "https://e.example/",
                ),
                params,
            ).items
        )

    return {name: reader(name) for name in ENGINES}
