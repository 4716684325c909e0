"""Page text written into markdown so that it renders as the text it is, not as formatting
the page did not have ("*stars*", "# not a heading", "1. not a list").

Escaped the minimal way CommonMark needs (as html2text's and markdownify's escaping do, with
CommonMark's own rules to leave alone what cannot be markup): a backslash before the
character, only where it could open or close markup. Inline, anywhere: a backslash before
punctuation (or at a piece's end, where markup may follow); ``*`` and ``~`` unless spaces
stand on both sides (then they can neither open nor close emphasis or strikethrough); ``_``
unless it stands inside a word (``snake_case``) or between spaces; every backtick; ``<``
before what opens a tag, comment or autolink; ``&`` opening an entity reference; ``]`` before
``(`` (an inline link). At the start of a line: an ATX heading's ``#``, ``>``, a bullet's
``-``/``+``, an ordered item's ``1.``/``1)``, ``[`` (a link reference definition) and a setext
underline of ``=``. Code is never escaped (a code span or block shows its text literally).
Text mode is never escaped. (``tool.markdown_text`` escapes every special character of a
search result's one-line title or snippet, on purpose: there a hostile snippet must not make a
link; a page's text keeps its lines, parentheses and ``snake_case`` readable.)
"""

import re
from typing import Callable

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: ASCII punctuation: what a backslash escapes in CommonMark (before anything else it is literal).
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: The characters that may need a backslash inline (each one decided by ``_inline``).
_SPECIAL = re.compile(r"[\\*_~`<&\]]")
_BRACKETED = re.compile(r"[\\*_~`<&\[\]]")
#: What CommonMark reads as an entity or numeric character reference after ``&``.
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: A line that opens a block: ATX heading, block quote, bullet, link reference definition, setext underline.
_BLOCK_START = re.compile(r"#{1,6}(?:\s|$)|[>\[]|[-+](?:\s|$|-)|(?<!=)=+\s*$")
#: An ordered list item's number (the backslash goes before its ``.`` or ``)``).
_ITEM_NUMBER = re.compile(r"[0-9]{1,9}(?=[.)](?:\s|$))")
#: The closing sequence of an ATX heading (``## Title ##``): dropped by a renderer.
_CLOSING_HASHES = re.compile(r"(?<=\s)#+$")


def _backslash(text: str, position: int) -> bool:
    following = text[position + 1 : position + 2]
    return not following or following in _PUNCTUATION


def _delimiter(text: str, position: int) -> bool:
    """``*`` or ``~``: markup unless spaces stand on both sides."""
    return not (text[position - 1 : position].isspace() and text[position + 1 : position + 2].isspace())


def _underscore(text: str, position: int) -> bool:
    """``_``: markup unless inside a word or between spaces."""
    before, after = text[position - 1 : position], text[position + 1 : position + 2]
    return not ((before.isalnum() and after.isalnum()) or (before.isspace() and after.isspace()))


def _tag_open(text: str, position: int) -> bool:
    after = text[position + 1 : position + 2]
    return bool(after) and ((after.isascii() and after.isalpha()) or after in "/!?")


#: Per character, whether it could be markup where it stands (a character left out, always).
_MARKUP = {
    "\\": _backslash,
    "*": _delimiter,
    "~": _delimiter,
    "_": _underscore,
    "<": _tag_open,
    "&": lambda text, position: _ENTITY.match(text, position) is not None,
    "]": lambda text, position: text[position + 1 : position + 2] in ("(", ""),
}
#: In a link's label every bracket is escaped (one would end the label).
_LABEL_MARKUP = {character: decide for character, decide in _MARKUP.items() if character != "]"}


def _escaper(table: dict[str, Callable[[str, int], bool]]) -> Callable[["re.Match[str]"], str]:
    def escaped(match: "re.Match[str]") -> str:
        character = match.group(0)
        decide = table.get(character)
        return "\\" + character if decide is None or decide(match.string, match.start()) else character

    return escaped


_ESCAPED, _LABEL_ESCAPED = _escaper(_MARKUP), _escaper(_LABEL_MARKUP)


def escape_inline(text: str, label: bool = False) -> str:
    """``text`` (page text, not code) with what could be inline markup escaped; ``label``: it
    is a link's label, where every bracket is escaped (one would end the label)."""
    return _BRACKETED.sub(_LABEL_ESCAPED, text) if label else _SPECIAL.sub(_ESCAPED, text)


def escape_line_start(text: str) -> str:
    """``text`` (already inline-escaped) as the start of a line: a block marker it begins with escaped."""
    number = _ITEM_NUMBER.match(text)
    if number is not None:
        return text[: number.end()] + "\\" + text[number.end() :]
    return "\\" + text if _BLOCK_START.match(text) else text


def escape_lines(text: str) -> str:
    """Plain ``text`` of several lines (a PDF page's) as markdown that reads as the same text:
    each line escaped, its leading spaces dropped (four would open a code block, where the
    escapes would show)."""
    return "\n".join(escape_line_start(escape_inline(line.lstrip())) for line in text.split("\n"))


def escape_heading(text: str) -> str:
    """A heading's text (already inline-escaped): a closing run of ``#`` it ends with escaped."""
    closing = _CLOSING_HASHES.search(text)
    return text if closing is None else text[: closing.start()] + "\\" + text[closing.start() :]
