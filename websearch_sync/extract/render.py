"""Render an lxml element as plain text or markdown.

Text mode keeps block boundaries as line breaks (paragraphs, headings, list items and
table rows never run into each other: no "appearanceItaly"). Markdown mode also keeps
headings (``#``), lists (``-`` / ``1.``), links (``[label](url)``), emphasis, inline
code, fenced code blocks, block quotes (``>``) and tables (``| a | b |``); the page's own text
is escaped where it would read as markdown (``mdescape``), text mode is never escaped.
"""

import re
from collections.abc import Iterator
from typing import Optional
from urllib.parse import quote

from lxml import etree

from ..checkpoints import checkpoint
from ..weburl.resolve import browser_join, url_attribute
from .mdescape import escape_heading, escape_inline, escape_line_start

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What a markdown link's destination cannot hold as it is: whitespace (a space ends it; a no-break
#: space or U+2028 a browser keeps in a link, encoded, and a line separator splits the text's lines),
#: ``(`` and ``)``, which CommonMark takes only in balanced pairs (an unbalanced one is no link),
#: ``\``, which it reads as an escape, and a tag character (U+E0000-U+E007F: an emoji flag's), which
#: the text a model gets leaves out: the link would point to another address.
_LINK_DESTINATION_UNFIT = re.compile(r"[\s()\\\U000e0000-\U000e007f]")


BLOCK_TAGS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "html",
        "li",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
        "caption",
        "legend",
        "option",
        "optgroup",
    }
)
# Never rendered: not text a reader sees.
SKIP_TAGS = frozenset(
    {
        "script",
        "style",
        "noscript",
        "noframes",  # raw text to the parser, hidden by browsers (``frames``)
        "template",
        "svg",
        "canvas",
        "iframe",
        "object",
        "embed",
        "head",
        "title",
        "button",
        "select",
        "input",
        "textarea",
        "math",
        "audio",
        "video",
        "map",
        "link",
        "meta",
    }
)
# Blocks separated by a blank line (the others by a single line break).
_PARAGRAPH_TAGS = frozenset(
    {
        "p",
        "blockquote",
        "table",
        "figure",
        "section",
        "article",
        "main",
        "pre",
        "ul",
        "ol",
        "dl",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "header",
        "footer",
        "aside",
        "nav",
        "details",
    }
)
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_EMPHASIS = {"strong": "**", "b": "**", "em": "*", "i": "*"}
_CELL_BLOCKS = ("p", "div", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote")
#: A markdown table's short rows are padded while the padded table has at most this many
#: times its real cells (then only its header row is: the output stays bounded by the input).
PAD_LIMIT = 4
#: Elements nested deeper than this are rendered as their text, without their structure: the
#: walk recurses, and 255 nested block quotes reached Python's recursion limit.
MAX_DEPTH = 120
#: Stands for a blank line of a code block until the output's runs of blank lines are collapsed
#: (a page's text never holds it: the parser reads control characters as spaces).
_CODE_BLANK = "\x00"
#: The marker and the indentation before it (the look-behind keeps a long run of spaces linear).
_CODE_BLANK_LINE = re.compile(r"(?<! ) *\x00")
#: Stands for the end of a block inside code (the parser reads control characters as spaces).
_LINE_END = "\x01"
_LINE_ENDS = re.compile("\n?\x01+")
_CODE_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang)-([\w+#-]+)")
#: A run of backticks in inline code (its span's fence must be longer than the longest).
_BACKTICK_RUNS = re.compile("`+")


def _tag(node: etree._Element) -> str:
    return node.tag.lower() if isinstance(node.tag, str) else ""


def _layout(rows: list[etree._Element]) -> bool:
    """A layout table: no rows, or cells holding paragraphs, lists or other tables."""
    return not rows or any(_tag(d) in _CELL_BLOCKS for row in rows for cell in row for d in cell.iterdescendants())


def _collapsed(text: str) -> str:
    """Each run of whitespace one space, those at the edges kept: what substituting one space for
    each match of ``\\s+`` gives. ``str.split`` knows the same whitespace as ``\\s`` and builds the
    words in C; the substitution makes one Python-level replacement per run (five times slower on
    a paragraph)."""
    words = text.split()
    if not words:
        return " " if text else ""
    return (" " if text[0].isspace() else "") + " ".join(words) + (" " if text[-1].isspace() else "")


def _inline_text(node: etree._Element) -> str:
    """``node``'s text on one line (a heading's, a table cell's): a ``<br>`` or a block's end
    in it a space, as a browser shows those words apart (``Title<br>Subtitle`` was ``TitleSubtitle``)."""
    return " ".join(_line_text(node).split())


def _line_text(node: etree._Element) -> str:
    """``node``'s text with each line break (a ``<br>``, a block's start or end) a line feed: whitespace."""
    return "".join(_visible_strings(node, lines=True, block_starts=True)).replace(_LINE_END, "\n")


#: What the end of an element adds to code's text: a line break (``<br>``), the end of a line (a block).
_LINE_BREAKS = {"br": "\n", **dict.fromkeys(BLOCK_TAGS, _LINE_END)}


def _visible_strings(node: etree._Element, lines: bool = False, block_starts: bool = False) -> Iterator[str]:
    """The text of ``node``'s subtree in document order, skipped elements left out; a walk
    with its own stack (a page may nest elements deeper than Python's recursion limit).
    ``lines``: with the line breaks a ``<br>`` and the end of a block make (code written a
    line per ``<br>`` or per ``<div>`` inside a ``<pre>``; see :func:`_code_text`);
    ``block_starts``: and the start of a block too (text before it is on a line of its own)."""
    if _tag(node) in SKIP_TAGS or not isinstance(node.tag, str):
        return
    if node.text:
        yield node.text
    stack = [(node, iter(node))]
    while stack:
        parent, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if lines and stack:
                yield _LINE_BREAKS.get(_tag(parent), "")
            if stack and parent.tail:
                yield parent.tail
        elif isinstance(child.tag, str) and _tag(child) not in SKIP_TAGS:
            yield _opening(child, block_starts)
            stack.append((child, iter(child)))
        elif child.tail:
            yield child.tail


def _opening(element: etree._Element, block_starts: bool) -> str:
    """What ``element``'s start adds to :func:`_visible_strings`: its text, after a line break
    when it is a block and ``block_starts``."""
    return (_LINE_END if block_starts and _tag(element) in BLOCK_TAGS else "") + (element.text or "")


def _code_text(node: etree._Element) -> str:
    """The text of a ``<pre>``, a line per line however the page marks its lines up (a block's
    end ends its line unless the line ended already)."""
    text = "".join(_visible_strings(node, lines=True))
    return (_LINE_ENDS.sub("\n", text) if _LINE_END in text else text).strip("\n")


class _Renderer:
    """Accumulates output with pending block separations, so that consecutive block
    boundaries collapse into one line break (or one blank line)."""

    def __init__(self, markdown: bool, base_url: Optional[str] = None) -> None:
        self.markdown = markdown
        self.base_url = base_url
        self.out: list[str] = []
        self.pending = 0  # line breaks owed before the next text
        self.line_start = True  # nothing written on the current line yet
        self.prefix: list[str] = []  # blockquote markers / list indentation for new lines
        self.marker: Optional[str] = None  # list marker waiting for the item's first text
        self.list_stack: list[list[int]] = []  # per open list: [ordered, next number]
        self.items = 0  # open list items
        self.quote_depth = 0  # block quotes around the last text written
        self.depth = 0  # elements being walked (see MAX_DEPTH)
        #: the last code span's place in out, its text, and whether its ``<code>`` ended with a space
        self.last_code: Optional[tuple[int, str, bool]] = None

    # ------------------------------------------------------------------ output
    def block(self, count: int) -> None:
        """Requests a block boundary of ``count`` line breaks before the next text
        (at most one inside a list item, so items stay compact)."""
        if self.items:
            count = min(count, 1)
        self.pending = max(self.pending, count)

    def text(self, text: str) -> None:
        """Writes the page's own text (whitespace collapsed; in markdown, escaped where it
        would read as markup, also as the start of a line)."""
        if self.markdown:
            self.write(escape_inline(text), page_text=True)
        else:
            self.write(text)

    def write(self, text: str, raw: bool = False, page_text: bool = False) -> None:
        """Writes inline text (whitespace collapsed unless ``raw``); ``page_text``: text
        that ``text`` escaped, whose block marker is escaped when it starts a line."""
        if not raw:
            text = _collapsed(self._after_code(text))
            if self.line_start or self.pending or (self.out and self.out[-1].endswith((" ", "\n"))):
                text = text.lstrip(" ")
            if not text:
                return
        depth = sum(1 for p in self.prefix if p.startswith(">"))
        if self.pending and self.out:
            # a blank line inside a block quote keeps the quote open
            quote = ">" * min(depth, self.quote_depth)
            self.out.append("\n" + (quote + "\n") * (self.pending - 1))
            self.line_start = True
        self.pending = 0
        self.quote_depth = depth
        if self.line_start:
            if page_text:
                text = escape_line_start(text)
            if self.marker is not None:
                self.out.append("".join(self.prefix[:-1]) + self.marker)
                self.marker = None
            else:
                self.out.append("".join(self.prefix))
        self.out.append(text)
        self.line_start = text.endswith("\n")

    def _after_code(self, text: str) -> str:
        """``text``, after a space when it follows a code span whose ``<code>`` ended with one (the
        space stands outside the span, between them: :meth:`_code`)."""
        last = self._code_at_end()
        return " " + text if last is not None and last[2] else text

    def result(self) -> str:
        lines = [line.rstrip() for line in "".join(self.out).split("\n")]
        # a rule (markdown "---") before or after everything separates nothing
        edges = ("", "---") if self.markdown else ("",)
        while lines and lines[-1] in edges:
            lines.pop()
        while lines and lines[0] in edges:
            lines.pop(0)
        # runs of blank lines made one (the edges are not blank): ``re.sub(r"\n{3,}", "\n\n", ...)``
        # of the joined lines, without a scan of the whole text by the pattern
        text = "\n".join([line for before, line in zip([""] + lines, lines) if line or before])
        # the pattern's look-behind is tried at every character: only for code's blank lines
        return _CODE_BLANK_LINE.sub("", text) if _CODE_BLANK in text else text

    # ------------------------------------------------------------------ walking
    def children(self, node: etree._Element) -> None:
        if node.text:
            self.text(node.text)
        for child in node:
            self.walk(child)
            if child.tail:
                self.text(child.tail)

    def walk(self, node: etree._Element) -> None:
        """Renders one element: structural tags by their handler, inline markdown (links,
        emphasis, code), other blocks as line-separated blocks, inline elements as text."""
        tag = _tag(node)
        if not tag or tag in SKIP_TAGS:
            return
        checkpoint()  # an abandoned render stops here instead of growing its output on
        if self.depth >= MAX_DEPTH:  # deeper structure is flattened: its text as one block
            self.block(1)
            self.text(_inline_text(node))
            self.block(1)
            return
        self.depth += 1
        try:
            self._walk(node, tag)
        finally:
            self.depth -= 1

    def _walk(self, node: etree._Element, tag: str) -> None:
        handler = _HANDLERS.get(tag)
        if handler is not None:
            handler(self, node)
        elif self.markdown and self._inline_markdown(node, tag):
            return
        elif tag in BLOCK_TAGS:
            self._block(node, 2 if tag in _PARAGRAPH_TAGS else 1)
        else:
            self.children(node)

    def _block(self, node: etree._Element, count: int, prefix: Optional[str] = None) -> None:
        """Renders ``node``'s content as a block, ``count`` line breaks around it (markdown:
        its lines start with ``prefix``)."""
        self.block(count)
        if prefix and self.markdown:
            self.prefix.append(prefix)
            self.children(node)
            self.prefix.pop()
        else:
            self.children(node)
        self.block(count)

    def _br(self, node: etree._Element) -> None:
        if self.markdown and not self.line_start:
            self.write("\n", raw=True)
        else:
            self.block(1)

    def _heading(self, node: etree._Element) -> None:
        self.block(2)
        text = _inline_text(node)
        if text:
            self.write(
                ("#" * _HEADINGS[_tag(node)] + " " + escape_heading(escape_inline(text))) if self.markdown else text
            )
        self.block(2)

    def _rule(self, node: etree._Element) -> None:
        self.block(2)
        if self.markdown:
            self.write("---")
        self.block(2)

    def _inline_markdown(self, node: etree._Element, tag: str) -> bool:
        """Links, emphasis and inline code in markdown; False for anything else."""
        if tag == "a":
            self._link(node)
        elif tag in _EMPHASIS and not self._has_structure(node):
            self._wrapped(node, _EMPHASIS[tag], _EMPHASIS[tag])
        elif tag == "code" and not any(_tag(a) == "pre" for a in node.iterancestors()):
            raw = _line_text(node)
            if raw.strip():
                self._code(raw)
            elif raw and (last := self._code_at_end()) is not None:  # a space between two spans: kept
                self.last_code = (last[0], last[1], True)
            elif raw:  # only white space: the one space a browser shows (``x<code> </code>y`` is "x y")
                self.write(" ")
        else:
            return False
        return True

    def _code_at_end(self) -> Optional[tuple[int, str, bool]]:
        """The inline code span last written when nothing was written after it, else ``None``."""
        last = self.last_code
        return last if last is not None and last[0] == len(self.out) - 1 and not self.pending else None

    def _code(self, raw: str) -> None:
        """Writes ``raw`` (a ``<code>``'s text) as inline code, whitespace collapsed; right after
        another span, nothing between (``<code>a</code><code>b</code>``), as one span with it, as
        a browser shows them: two spans written together (```a``b```) read as one holding ``a``b``.
        Its edges' spaces stand outside the span (``<code>a </code>b``: ```a` b``, the space a browser
        shows; the trailing one is written with what follows, which may be another span to join)."""
        text = " ".join(raw.split())
        last = self._code_at_end()
        if last is not None:
            before, spaced = last[1:]
            text = before + (" " if spaced or raw[:1].isspace() else "") + text
            self.out.pop()
        elif raw[:1].isspace():  # outside the span, as a browser shows it: `x<code> a</code>` is "x a"
            self.write(" ")
        self.write(_code_span(text))
        self.last_code = (len(self.out) - 1, text, raw[-1:].isspace())

    def _wrapped(self, node: etree._Element, before: str, after: str, label: bool = False) -> None:
        """Writes ``node``'s text (escaped; ``label``: as a link's label) between markers,
        keeping the spaces at its edges outside them."""
        raw = _line_text(node)
        text = " ".join(raw.split())
        if not text:
            self.write(raw)
            return
        text = escape_inline(text, label=label)
        if raw[:1].isspace():
            self.write(" ")
        self.write(before + text + after)
        if raw[-1:].isspace():
            self.write(" ")

    @staticmethod
    def _has_structure(node: etree._Element) -> bool:
        return any(_tag(d) in BLOCK_TAGS or _tag(d) in ("a", "br", "code", "img") for d in node.iterdescendants())

    def _link(self, node: etree._Element) -> None:
        href = url_attribute(node.get("href") or "")
        if self.base_url and href and not href.startswith(("#", "javascript:", "mailto:", "data:")):
            try:
                href = browser_join(self.base_url, href)
            except ValueError:
                href = ""
        if not href[:8].lower().startswith(("http://", "https://")) or any(
            _tag(d) in BLOCK_TAGS for d in node.iterdescendants()
        ):
            self.children(node)
            return
        if self.out and self.out[-1].endswith("!") and not self.out[-1].endswith("\\!"):
            self.out[-1] = self.out[-1][:-1] + "\\!"  # "!" before "[" would make the link an image
        self._wrapped(
            node,
            "[",
            "](%s)" % _LINK_DESTINATION_UNFIT.sub(lambda unfit: quote(unfit.group(), safe=""), href),
            label=True,
        )

    def _pre(self, node: etree._Element) -> None:
        code = _code_text(node)
        self.block(2)
        if code.strip():
            if self.markdown:
                classes = " ".join(filter(None, [node.get("class")] + [c.get("class") for c in node.iter("code")]))
                language = _CODE_LANGUAGE.search(classes or "")
                fence = "````" if "```" in code else "```"
                self.write(fence + (language.group(1) if language else "") + "\n", raw=True)
                self._raw_lines(code)
                self.write("\n", raw=True)
                self.write(fence, raw=True)
            else:
                self._raw_lines(code)
        self.block(2)

    def _raw_lines(self, code: str) -> None:
        """Writes code as it is, its blank lines too (two between functions stay two)."""
        lines = code.split("\n")
        for index, line in enumerate(lines):
            self.write((line if line.strip() else _CODE_BLANK) + ("\n" if index < len(lines) - 1 else ""), raw=True)

    def _list(self, node: etree._Element, ordered: bool = False) -> None:
        nested = bool(self.list_stack)
        self.block(1 if nested else 2)
        start = node.get("start") or "1"
        self.list_stack.append([ordered, int(start) if start.isdigit() else 1])
        self.children(node)
        self.list_stack.pop()
        self.block(1 if nested else 2)

    def _item(self, node: etree._Element) -> None:
        self.block(1)
        if not self.markdown:
            self.items += 1
            self.children(node)
            self.items -= 1
            self.block(1)
            return
        if self.list_stack and self.list_stack[-1][0]:
            marker = "%d. " % self.list_stack[-1][1]
            self.list_stack[-1][1] += 1
        else:
            marker = "- "
        # continuation lines of the item are indented under its text
        self.prefix.append(" " * len(marker))
        self.marker = marker
        self.items += 1
        self.children(node)
        self.items -= 1
        self.marker = None
        self.prefix.pop()
        self.block(1)

    # ------------------------------------------------------------------ tables
    def _table(self, table: etree._Element) -> None:
        rows = [row for row in table.iter("tr") if self._owner(row) is table]
        if _layout(rows):
            self._block(table, 2)  # cells as blocks
            return
        grid = [
            cells
            for cells in ([_inline_text(cell) for cell in row if _tag(cell) in ("td", "th")] for row in rows)
            if any(cells)
        ]
        self.block(2)
        caption = next((_inline_text(child) for child in table if _tag(child) == "caption"), "")
        if caption:  # the table's name, a paragraph of its own before its rows
            self.text(caption)
            self.block(2)
        if not grid:
            return
        for index, line in enumerate(self._grid_lines(grid)):
            if index:
                self.block(1)
            self.write(line, raw=True)
        self.block(2)

    def _grid_lines(self, grid: list[list[str]]) -> list[str]:
        """A data table's lines: markdown rows with a header rule, or tab-separated text.

        Short rows are padded to the widest row while that keeps the table within
        ``PAD_LIMIT`` times its real cells; beyond, only the header row is (a GFM table has the
        header's number of columns, and a renderer fills a shorter row's cells itself):
        padding every row made the output rows x widest row, 1.8 GB for a 124 KB page."""
        if not self.markdown:
            return ["\t".join(row) for row in grid]
        width = max(len(row) for row in grid)
        padded = width * len(grid) <= PAD_LIMIT * sum(len(row) for row in grid)
        grid = [[escape_inline(cell).replace("|", "\\|") for cell in row] for row in grid]
        rows = [row + [""] * (width - len(row)) if padded or index == 0 else row for index, row in enumerate(grid)]
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
        return lines + ["| " + " | ".join(row) + " |" for row in rows[1:]]

    @staticmethod
    def _owner(row: etree._Element) -> Optional[etree._Element]:
        for ancestor in row.iterancestors():
            if _tag(ancestor) == "table":
                return ancestor
        return None


#: Structural tags and how they render.
_HANDLERS = {
    "br": _Renderer._br,
    "pre": _Renderer._pre,
    "li": _Renderer._item,
    "table": _Renderer._table,
    "hr": _Renderer._rule,
    "ul": _Renderer._list,
    "menu": _Renderer._list,
    "dir": _Renderer._list,
    "ol": lambda renderer, node: renderer._list(node, ordered=True),
    "blockquote": lambda renderer, node: renderer._block(node, 2, prefix="> "),
    "td": lambda renderer, node: renderer._block(node, 1),
    "th": lambda renderer, node: renderer._block(node, 1),
    **dict.fromkeys(_HEADINGS, _Renderer._heading),
}


def _code_span(text: str) -> str:
    """``text`` (whitespace collapsed, no space at its ends) as a CommonMark code span: fenced by
    one backtick more than its longest run of them, and padded with a space where it starts or
    ends with one, so the span shows ``text`` as it is."""
    fence = "`" * (max(map(len, _BACKTICK_RUNS.findall(text)), default=0) + 1)
    padded = text[:1] == "`" or text[-1:] == "`"
    return fence + (" %s " % text if padded else text) + fence


def render_element(node: etree._Element, mode: str = "text", base_url: Optional[str] = None) -> str:
    """Renders ``node``'s content as text (``mode="text"``) or markdown (``mode="markdown"``);
    ``base_url`` makes relative links absolute in markdown."""
    renderer = _Renderer(markdown=(mode == "markdown"), base_url=base_url)
    renderer.children(node)
    return renderer.result()
