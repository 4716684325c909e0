"""Main-content extraction: readability plus generic boilerplate rules (each one
switchable by name, see ``rules``) and recovery of fragmentary extractions from the page's
main text region, rendered as markdown or plain text. Pure functions over HTML text; no I/O."""

from .article import extract_html

__all__ = ["extract_html"]
