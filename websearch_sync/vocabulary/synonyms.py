"""Other search APIs' names for our options, and this command line's: what the refusal of an
unknown option or tool argument names instead. Each is still refused (an alias taken silently
would hide that the values differ: Brave's ``freshness`` is ``pd``, ours ``day``); the table only
makes the message name ours, where letters alone name nothing (``site``) or another option
(``top_k``: ``topic``, Tavily's)."""

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: ``{another API's or the command line's name: ours}``; ddgs's are in :mod:`.ddgs`.
OPTION_SYNONYMS = {
    "site": "site_filter",  # the command line's --site
    "domain": "site_filter",
    "count": "max_results",  # Brave's, Bing's
    "limit": "max_results",
    "num": "max_results",  # Google's
    "n": "max_results",  # the command line's -n
    "top_k": "max_results",  # Bocha's, Jina's
    "country": "locale",  # a locale holds the country: en-US
    "safe": "safe_search",  # Google's
    "freshness": "time_range",  # Brave's, Bing's
    "provider": "backend",  # what each item's "provider" names
    "mode": "extract_mode",  # the command line's --mode (fetch)
    "max_length": "max_chars",  # the MCP reference fetch server's
    "proxies": "proxy",  # requests' (Settings, SearchClient)
    "link": "url",  # fetch(): a result's link, as vendors and HTML name it
    "href": "url",
    "uri": "url",
}

#: ``{our option: {another tool's value (lower case): ours}}`` for short forms no close spelling of
#: which is ours (``md`` is too short for a "did you mean" of ``markdown``); ddgs's are in :mod:`.ddgs`.
VALUE_SYNONYMS = {
    "extract_mode": {"md": "markdown", "txt": "text", "plain": "text"},
    "format": {"md": "markdown", "txt": "text", "plain": "text", "ndjson": "jsonl"},  # the command line's --format
    "time_range": {
        **dict.fromkeys(("24h", "1d"), "day"),  # a duration, as people and many tools write one
        **dict.fromkeys(("7d", "1w"), "week"),
        **dict.fromkeys(("30d", "31d", "1mo"), "month"),  # not 1m: a minute to some
        **dict.fromkeys(("365d", "12mo", "1y"), "year"),
        **{"pd": "day", "pw": "week", "pm": "month", "py": "year"},  # Brave's freshness
    },
    "safe_search": {"0": "off", "1": "moderate", "2": "strict"},  # SearXNG's safesearch
    "vertical": {"general": "web"},  # SearXNG's category
}
