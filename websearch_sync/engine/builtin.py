"""The built-in backends as a static table: each engine's backend name, vertical, module
and class, in listing order (offline, then scrapers, then APIs; by module within a kind).

The registry lists, suggests and checks names from this table without importing a single
engine; an engine's module is imported the first time that engine is asked for (see
:mod:`.registry`). Nothing here imports anything, so ``--help`` and ``import websearch_sync``
stay cheap. ``tests/unit/test_builtin_table.py`` compares these tables with what the modules of
``websearch_sync.backends`` really declare (and prints the table to paste when they differ).
"""

from typing import NamedTuple

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The package the engines' modules live in.
PACKAGE = "websearch_sync.backends"


class BuiltIn(NamedTuple):
    """One built-in engine: what the registry needs to know before importing it."""

    name: str
    vertical: str
    module: str  # under :data:`PACKAGE`
    cls: str


BUILT_IN: tuple[BuiltIn, ...] = (
    BuiltIn("stub", "web", "stub", "Stub"),
    BuiltIn("stub", "news", "stub", "StubNews"),
    BuiltIn("stub", "images", "stub", "StubImages"),
    BuiltIn("stub", "videos", "stub", "StubVideos"),
    BuiltIn("baidu_html", "web", "baidu", "BaiduHtml"),
    BuiltIn("bing_html", "web", "bing", "BingHtml"),
    BuiltIn("bing_html", "news", "bing_news", "BingNews"),
    BuiltIn("bing_html", "images", "bing_images", "BingImages"),
    BuiltIn("bing_html", "videos", "bing_videos", "BingVideos"),
    BuiltIn("ddg_html", "web", "ddg", "DuckDuckGoHtml"),
    BuiltIn("ddg_html", "news", "ddg_verticals", "DuckDuckGoNews"),
    BuiltIn("ddg_html", "images", "ddg_verticals", "DuckDuckGoImages"),
    BuiltIn("ddg_html", "videos", "ddg_verticals", "DuckDuckGoVideos"),
    BuiltIn("ddg_lite", "web", "ddg", "DuckDuckGoLite"),
    BuiltIn("mojeek_html", "web", "mojeek", "MojeekHtml"),
    BuiltIn("startpage_html", "web", "startpage", "StartpageHtml"),
    BuiltIn("startpage_html", "images", "startpage_images", "StartpageImages"),
    BuiltIn("yahoo_html", "web", "yahoo", "YahooHtml"),
    BuiltIn("yahoo_html", "news", "yahoo_news", "YahooNews"),
    BuiltIn("bocha", "web", "bocha", "Bocha"),
    BuiltIn("brave", "web", "brave", "Brave"),
    BuiltIn("brave", "news", "brave_verticals", "BraveNews"),
    BuiltIn("brave", "images", "brave_verticals", "BraveImages"),
    BuiltIn("brave", "videos", "brave_verticals", "BraveVideos"),
    BuiltIn("jina", "web", "jina", "Jina"),
    BuiltIn("kagi", "web", "kagi", "Kagi"),
    BuiltIn("searxng", "web", "searxng", "SearXNG"),
    BuiltIn("searxng", "news", "searxng_verticals", "SearXNGNews"),
    BuiltIn("searxng", "images", "searxng_verticals", "SearXNGImages"),
    BuiltIn("searxng", "videos", "searxng_verticals", "SearXNGVideos"),
    BuiltIn("service", "web", "service", "SearchService"),
    BuiltIn("tavily", "web", "tavily", "Tavily"),
    BuiltIn("tavily", "news", "tavily_news", "TavilyNews"),
    BuiltIn("wikipedia", "web", "wikipedia", "Wikipedia"),
)

#: The environment variables each built-in backend's settings are read from (what its engines'
#: ``declared_settings()`` name, every vertical's; a backend reading none is not listed):
#: ``Settings.from_env`` imports a backend's engines to read its settings only when one of these
#: is set (:mod:`.registry`), so that a client's making imports no engine it does not ask.
ENV_VARS: dict[str, tuple[str, ...]] = {
    "bocha": ("BOCHA_API_KEY", "BOCHA_BASE_URL", "BOCHA_TIMEOUT_MS", "BOCHA_TOP_K_DEFAULT"),
    "brave": ("BRAVE_API_KEY",),
    "jina": ("JINA_API_KEY",),
    "kagi": ("KAGI_API_KEY",),
    "searxng": ("SEARXNG_BASE_URL", "SEARXNG_API_KEY", "SEARXNG_TIMEOUT_MS"),
    "service": (
        "WEB_SEARCH_SERVICE_URL",
        "WEB_SEARCH_SERVICE_KEY",
        "WEB_SEARCH_SERVICE_HEADERS",
        "WEB_SEARCH_SERVICE_REQUEST_ID_HEADER",
        "WEB_SEARCH_SERVICE_TIMEOUT_MS",
    ),
    "tavily": ("TAVILY_API_KEY",),
    "wikipedia": ("WIKIPEDIA_LANG", "WIKIPEDIA_CONTACT", "WIKIPEDIA_USER_AGENT"),
}

#: The built-in backends' names, in listing order.
NAMES: tuple[str, ...] = tuple(dict.fromkeys(engine.name for engine in BUILT_IN))
