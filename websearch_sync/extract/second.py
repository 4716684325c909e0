"""A second opinion for near-empty extractions: trafilatura, when it is installed.

readability and the main-region recovery agree on most pages; where both keep almost
nothing of a page that has text (a layout neither reads), the whole page's visible text
is a poor answer. trafilatura reads pages by other rules (its own boilerplate model and
the jusText and readability fallbacks) and recovered every such page of an independent
658-page set. It is an optional extra (``pip install -e '.[trafilatura]'`` from a checkout):
without it, ``second_opinion`` returns None and extraction behaves as before.
"""

from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: An extraction is near-empty when it has fewer non-space characters than this ...
NEAR_EMPTY_CHARS = 250
#: ... and less than this share of the page's visible text.
NEAR_EMPTY_SHARE = 0.1
#: The ``extractor`` of a result the second opinion gave.
EXTRACTOR = "trafilatura"


#: A page "has text" from this many non-space characters of visible text.
PAGE_MIN_CHARS = 500


def near_empty(extracted_chars: int, page_chars: int) -> bool:
    """True when an extraction of ``extracted_chars`` non-space characters keeps almost
    nothing of a page whose visible text has ``page_chars`` (at least ``PAGE_MIN_CHARS``)."""
    return (
        page_chars >= PAGE_MIN_CHARS
        and extracted_chars < NEAR_EMPTY_CHARS
        and extracted_chars < NEAR_EMPTY_SHARE * page_chars
    )


def second_opinion(html: str, *, url: Optional[str], mode: str, include_comments: bool) -> Optional[str]:
    """trafilatura's extraction of ``html`` (``mode`` ``"markdown"`` or ``"text"``), or None
    when trafilatura is not installed or finds nothing."""
    try:
        import trafilatura
    except ImportError:
        return None
    markdown = mode == "markdown"
    text = trafilatura.extract(
        html,
        url=url,
        output_format="markdown" if markdown else "txt",
        include_comments=include_comments,
        include_tables=True,
        include_links=markdown,
        include_formatting=markdown,
    )
    return text if text and text.strip() else None
