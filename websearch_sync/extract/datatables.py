"""A data table readability picks at its body: the table, and the paragraphs that introduce it.

readability-lxml scores a cell's text to its row and its row's parent: on a page whose article
is a data table (a list of films, a comparison of products: a row per item, a cell of
description in each), the best candidate is the table's ``<tbody>``. readability then appends
the ``<tbody>``'s siblings that score (the caption and the header row do not) and returns the
rows alone: without the header row that names the columns, the caption that names the table,
and the paragraphs before the table that say what it lists (their own text, which readability
tests, opens with a word and then a link). A ``<tbody>`` is a data table's when its table has a
caption, a ``<thead>`` or a header cell in its first row (a layout table has none); its table is
the candidate instead, and the run of paragraphs of running text just before the table (each
``region.DENSE_MIN_CHARS`` characters or more outside links, at most half link text) opens it.
"""

from typing import Optional

from lxml import etree
from lxml.html import HtmlElement

from .region import DENSE_MAX_LINK_SHARE, DENSE_MIN_CHARS
from .textlength import link_density

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def data_table(best: etree._Element) -> Optional[etree._Element]:
    """The table whose ``<tbody>`` ``best`` is, when it is a data table (a caption, a ``<thead>``
    or a header cell in its first row); None otherwise."""
    table = best.getparent() if best.tag == "tbody" else None
    if table is None or table.tag != "table":
        return None
    if table.find("caption") is not None or table.find("thead") is not None:
        return table
    first_row = best.find("tr")
    return table if first_row is not None and first_row.find("th") is not None else None


def _chars(text: Optional[str]) -> int:
    return len("".join(text.split())) if text else 0


def _running(paragraph: etree._Element) -> bool:
    """A paragraph of running text: ``DENSE_MIN_CHARS`` or more non-space characters outside
    links, at most ``DENSE_MAX_LINK_SHARE`` link text (as the page's parser builds it)."""
    if not isinstance(paragraph, HtmlElement):
        return False
    chars = _chars("".join(paragraph.itertext()))
    density = link_density(paragraph)
    return density <= DENSE_MAX_LINK_SHARE and chars * (1 - density) >= DENSE_MIN_CHARS


def introduction(table: etree._Element) -> list[etree._Element]:
    """The paragraphs of running text just before ``table`` among its siblings, in document
    order (elements without text between them skipped: a style, an anchor); the run stops at the
    first other element with text, or a paragraph that is not running text."""
    paragraphs: list[etree._Element] = []
    for sibling in table.itersiblings(preceding=True):
        if not isinstance(sibling.tag, str):
            continue
        if sibling.tag == "p" and _running(sibling):
            paragraphs.append(sibling)
        elif _chars("".join(sibling.itertext())) or sibling.tag == "p":
            break
    paragraphs.reverse()
    return paragraphs
