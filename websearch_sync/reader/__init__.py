"""Reading one page: fetch with redirects and the SSRF guard, an optional reader
service asked first, and the page's text by content type."""

from .page import DEFAULT_MAX_BYTES, DEFAULT_MAX_CHARS, add_page_content, fetch_page

__all__ = ["fetch_page", "add_page_content", "DEFAULT_MAX_BYTES", "DEFAULT_MAX_CHARS"]
