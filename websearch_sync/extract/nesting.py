"""Pages nested deeper than libxml2 builds trees: read whole, the excess nesting flattened.

libxml2's HTML parser stops building the tree at 256 open elements ("Excessive depth in
document") and drops the rest of the page: a page of 300 unclosed ``<b>`` or ``<font>`` tags
(old CMS output) came back empty or cut where the nesting got deep. Its event interface has no
such limit, so such a page is parsed a second time through it, elements below
:data:`MAX_DEPTH` adding their text to their ancestor at that depth (a browser shows the text,
not the nesting). Only a tree whose last element sits near the limit is parsed again: a parse
that stopped there ends on its deepest open element.
"""

from typing import Optional, cast

from lxml import etree

from .render import BLOCK_TAGS

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How deep libxml2's tree building goes (256 open elements), less a margin; a tree whose last
#: element is this deep may have lost the rest of its page.
LIMIT_DEPTH = 250
#: How deep a rebuilt tree goes (the extraction's walks recurse along the tree).
MAX_DEPTH = 200


def cut_by_depth(root: etree._Element) -> bool:
    """Whether the parse that built ``root`` may have stopped at libxml2's depth limit."""
    depth, node = 0, root
    while len(node):
        node, depth = node[-1], depth + 1
        if depth >= LIMIT_DEPTH:
            return True
    return False


class _CappedTree:
    """A parser target that builds the tree with ``parser``'s element classes, elements below
    :data:`MAX_DEPTH` left out (their text goes to the ancestor at that depth; a block of
    theirs starts on a new line), and so are elements whose name lxml refuses to build
    (``<m<div>`` in broken markup: the parser reports it, the tree builder does not take it)."""

    def __init__(self, parser: etree.HTMLParser) -> None:
        self.builder = etree.TreeBuilder(parser=parser)
        self.depth = 0
        self.kept: list[bool] = []  # per open element: whether the builder has it

    def start(self, tag: str, attrib: dict[str, str], /) -> None:
        self.depth += 1
        kept = self.depth <= MAX_DEPTH
        if kept:
            try:
                self.builder.start(tag, dict(attrib))
            except ValueError:  # a name no element may carry: its text goes to its parent
                kept = False
        elif tag in BLOCK_TAGS:
            self.builder.data("\n")
        self.kept.append(kept)

    def end(self, tag: str, /) -> None:
        if self.kept.pop():
            self.builder.end(tag)
        elif self.depth > MAX_DEPTH and tag in BLOCK_TAGS:
            self.builder.data("\n")
        self.depth -= 1

    def data(self, text: str, /) -> None:
        self.builder.data(text)

    def comment(self, text: str, /) -> None:
        # not outside the root element (a server's comment after </html>): the tree builder takes
        # the last node outside any element for the root, and the extraction's walks need an element
        if 0 < self.depth < MAX_DEPTH:
            try:
                self.builder.comment(text)
            except ValueError:  # "--" inside, which a page may hold and lxml builds no comment of
                pass

    def close(self) -> etree._Element:
        return self.builder.close()


def parse_capped(data: bytes, parser: etree.HTMLParser) -> Optional[etree._Element]:
    """The page ``data`` (UTF-8) parsed whatever its depth, nested at most :data:`MAX_DEPTH` deep;
    ``None`` when lxml's tree builder still refuses an event of it (the caller keeps its cut tree)."""
    capped = cast("etree.ParserTarget[etree._Element]", _CappedTree(parser))  # the events it needs only
    target = etree.HTMLParser(target=capped, encoding="utf-8")
    try:
        return etree.fromstring(data, target)
    except (ValueError, etree.XMLSyntaxError):
        return None
