"""Reading one page: fetch with redirects and the SSRF guard, an optional reader
service asked first, and the page's text by content type."""

__all__: list[str] = []  # internal: the public names are documented in docs/ and README
