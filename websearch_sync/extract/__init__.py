"""Main-content extraction: readability plus generic boilerplate rules, rendered
as markdown or plain text. Pure functions over HTML text; no I/O."""

from .article import EXTRACT_MODES, Extraction, extract_html, visible_text

__all__ = ["extract_html", "visible_text", "Extraction", "EXTRACT_MODES"]
