"""Results whose URLs differ only by a default port (``https://host:443/a``, ``https://host/a``)
are one page: the second is removed as a duplicate (both were kept); so are two schemes on one
default port (the key ignores the scheme: ``http://host:443/a`` is ``https://host:443/a``); another
port is another page."""

from websearch_sync.engine.normalize import normalize_items


def urls(*given: str) -> list[str]:
    items = normalize_items([{"title": "t", "url": url, "snippet": ""} for url in given], "stub", 10)
    return [item["url"] for item in items]


def test_the_schemes_own_port_is_no_port():
    assert urls("https://example.com/a", "https://example.com:443/a", "http://example.com:80/a") == [
        "https://example.com/a"
    ]


def test_one_default_port_under_two_schemes_is_one_page():
    assert urls("http://example.com:443/a", "https://example.com:443/a", "https://example.com:80/a") == [
        "http://example.com:443/a"
    ]


def test_another_port_is_another_page():
    assert urls("https://example.com/a", "https://example.com:8443/a", "http://example.com:8080/a") == [
        "https://example.com/a",
        "https://example.com:8443/a",
        "http://example.com:8080/a",
    ]
