"""Table-aware widening: an article split across the rows of a layout table.

Old layout-table pages put the navigation, the article and a sidebar in the columns of one
table, and often split the article across several rows of its column (a heading row, one row
per section). readability-lxml scores each row's paragraphs separately and keeps the best
wrapper (one cell's text) or the best row (that cell plus the navigation and sidebar cells
beside it); the other rows of the article are lost. When the article holds less than
``WIDEN_SHARE`` of the running text of the column of the cell that holds its longest text,
the article is that column instead: the cells of the same table that occupy the same grid columns (``rowspan``
and ``colspan`` counted) and are running text rather than links. Navigation and sidebar
cells sit in other columns or are link-dense; a banner or footer row spans other columns.
"""

import copy
from typing import Optional

from lxml import etree

from ..checkpoints import checked
from .region import DENSE_MIN_CHARS

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The article is widened when its cell holds less than this share of its column's running text.
WIDEN_SHARE = 0.6
#: A cell is running text with at least ``region.DENSE_MIN_CHARS`` characters outside links
#: and at most this share of link text.
CELL_MAX_LINK_SHARE = 0.3

_CELLS = ("td", "th")


def _chars(text: str) -> int:
    return len("".join(text.split()))


def _sizes(cell: etree._Element) -> tuple[int, int]:
    """(non-space characters, of them inside links) of ``cell``'s text."""
    total = _chars("".join(cell.itertext()))
    linked = sum(_chars("".join(a.itertext())) for a in cell.iter("a"))
    return total, linked


_OWN_ROWS = etree.XPath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr")  # compiled once


def _rows(table: etree._Element) -> list[etree._Element]:
    """The table's own rows (not those of nested tables), in document order."""
    return list(_OWN_ROWS(table))


def _span(cell: etree._Element, name: str) -> int:
    value = (cell.get(name) or "").strip()
    return max(1, min(int(value), 1000)) if value.isdigit() else 1


#: Grid slots ``_grid`` may visit per real cell of the table: spans (up to 1000 columns and
#: rows each) made the grid quadratic, a minute for a 29 KB table; a table that needs more is
#: no layout to widen an article in (issue 33).
GRID_WORK_PER_CELL = 16


def _grid(table: etree._Element) -> dict[etree._Element, tuple[int, int]]:
    """{cell: (first grid column, number of columns)}, cells spanning rows from above counted;
    empty when the spans would make the grid more than ``GRID_WORK_PER_CELL`` slots per real
    cell."""
    rows = _rows(table)
    cells = [[cell for cell in row if isinstance(cell.tag, str) and cell.tag in _CELLS] for row in rows]
    budget = GRID_WORK_PER_CELL * (sum(len(row) for row in cells) + 1)
    taken: dict[int, int] = {}  # grid column -> rows it stays occupied below the current row
    columns: dict[etree._Element, tuple[int, int]] = {}
    for index, row in enumerate(cells):
        column = 0
        budget -= len(taken)
        below = {c: n - 1 for c, n in taken.items() if n > 1}
        for cell in row:
            while column in taken:
                column += 1
                budget -= 1
            width = _span(cell, "colspan")
            height = min(_span(cell, "rowspan"), len(rows) - index)  # a span ends with the table
            budget -= width
            if budget < 0:
                return {}
            columns[cell] = (column, width)
            for c in range(column, column + width):
                below[c] = height - 1
            column += width
        taken = {c: n for c, n in below.items() if n > 0}
    return columns


def _normal(text: Optional[str]) -> str:
    return " ".join(text.split()) if text else ""


def _cell_holding(body: etree._Element, sample: str) -> Optional[etree._Element]:
    """The innermost table cell of ``body`` whose own text (or a child's tail) contains ``sample``."""
    first = sample.split()[0]  # a cheap test on the raw text before normalising it
    for element in checked(body.iter()):
        if not isinstance(element.tag, str):
            continue
        if element.text and first in element.text and sample in _normal(element.text):
            holder = element
        elif element.tail and first in element.tail and sample in _normal(element.tail):
            parent = element.getparent()
            if parent is None:
                continue
            holder = parent
        else:
            continue
        return next((a for a in holder.iterancestors(*_CELLS)), None) if holder.tag not in _CELLS else holder
    return None


def _running_text(cell: etree._Element) -> int:
    """Non-space characters outside links of a cell of running text, else 0."""
    total, linked = _sizes(cell)
    plain = total - linked
    return plain if plain >= DENSE_MIN_CHARS and linked <= CELL_MAX_LINK_SHARE * total else 0


def _longest(element: etree._Element) -> str:
    """The longest text piece of ``element``, whitespace normalised."""
    return max((_normal(text) for text in element.itertext()), key=len, default="")


def _column(body: etree._Element, article: etree._Element) -> list[etree._Element]:
    """The text cells of the grid column of the table cell of ``body`` that holds the
    article's longest text (that cell among them), in document order; empty when there is
    no such cell."""
    if body.find(".//td") is None:
        return []
    sample = _longest(article)
    if len(sample) < 25:
        return []
    cell = _cell_holding(body, sample)
    table = next(cell.iterancestors("table"), None) if cell is not None else None
    grid = _grid(table) if table is not None else {}
    if cell not in grid:
        return []
    siblings = [c for c, place in grid.items() if place == grid[cell] and _running_text(c)]
    return siblings if cell in siblings else []


def widen_to_column(body: etree._Element, article: etree._Element) -> Optional[etree._Element]:
    """A new ``<div>`` holding (copies of) the cells of the article's column (``_column``) when
    the article holds less than ``WIDEN_SHARE`` of their running text (a cell whose longest
    text piece is in the article counts as held); None otherwise."""
    siblings = _column(body, article)
    if not siblings:
        return None
    text = _normal(" ".join(article.itertext()))
    held = sum(_running_text(c) for c in siblings if _longest(c) in text)
    if held >= WIDEN_SHARE * sum(_running_text(c) for c in siblings):
        return None
    widened = body.makeelement("div", {})  # an HTML element: what is appended to it reads as HTML too
    for sibling in siblings:
        part = etree.SubElement(widened, "div")
        part.text = sibling.text
        for child in sibling:
            part.append(copy.deepcopy(child))
    return widened
