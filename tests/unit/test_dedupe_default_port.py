"""Results whose URLs differ only by the scheme's own port (``https://host:443/a``, ``https://host/a``)
are one page: the second is removed as a duplicate (both were kept); another port is another page."""

from websearch_sync.engine.normalize import normalize_items


def urls(*given: str) -> list[str]:
    items = normalize_items([{"title": "t", "url": url, "snippet": ""} for url in given], "stub", 10)
    return [item["url"] for item in items]


def test_the_schemes_own_port_is_no_port():
    assert urls("https://example.com/a", "https://example.com:443/a", "http://example.com:80/a") == [
        "https://example.com/a"
    ]


def test_another_port_is_another_page():
    assert urls("https://example.com/a", "https://example.com:8443/a", "http://example.com:443/a") == [
        "https://example.com/a",
        "https://example.com:8443/a",
        "http://example.com:443/a",
    ]
