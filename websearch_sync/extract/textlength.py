"""readability-lxml's text length and link density, the same numbers in a fraction of the time.

readability scores every candidate block by its link density: the length of its links' text
over the length of its own, each measured as ``len(clean(element.text_content()))``, where
``clean`` collapses whitespace with three regular expressions. The first of them,
``\\s{255,}``, is tried at every whitespace character and rescans the rest of its run each time
(quadratic in the run: indentation in a page's text is long runs), and the second,
``\\s*\\n\\s*``, rescans a run without a line break the same way. Nested candidates measure the
same text again and again: on the development pages these measurements were a quarter of the
whole extraction's time.

``clean_text`` gives ``readability.readability.clean(text)`` for every string (``clean_length``
its length; readability's steps run with it, :mod:`.quiet`): each run of whitespace is a match of
both expressions from its first character or of neither (``\\s{255,}`` matches a run of 255 or
more whitespace characters whole; ``\\s*\\n\\s*`` a run holding a line break whole). So the
first is tried only where a run starts, written to open with ``\\s`` (the regular expression
engine then skips to each whitespace character in C, where a pattern opening with a look-behind
is tried at every character: four times slower); the second is no expression at all: a run
holding a line break is the end of one line, the blank lines after it and the start of the next,
so the lines split at ``\\n`` and stripped, blank ones left out, are joined again (twenty times
faster than the anchored expression). ``str.split``, ``str.strip`` and ``\\s`` know the same
whitespace. The third expression and the second only run when the text holds a tab, two spaces
or a line break, without which they match nothing.
"""

import re

from lxml.html import HtmlElement

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: readability's ``\s{255,}`` (a run of 255 whitespace characters or more becomes 255 spaces),
#: tried only where a run starts: a whitespace character not preceded by another.
_LONG_RUN = re.compile(r"\s(?<!\s\s)\s{254,}")
#: readability's ``\t|[ \t]{2,}`` (it matches each tab, and spaces and tabs from a space on), written
#: to open with a character class (a tab alone, or a space and the spaces and tabs after it): the
#: engine skips to each tab or space in C, twice as fast as through the alternation.
_BLANKS = re.compile(r"[ \t](?:(?<=\t)|[ \t]+)")
_LONG_RUN_SPACES = " " * 255


def clean_text(text: str) -> str:
    """``readability.readability.clean(text)``, the same string computed faster (module docstring)."""
    if len(text) >= 255:  # a shorter text holds no run of 255
        text = _LONG_RUN.sub(_LONG_RUN_SPACES, text)
    if "\n" in text:
        text = _joined_lines(text)
    if "\t" in text or "  " in text:
        text = _BLANKS.sub(" ", text)
    return text.strip()


def _joined_lines(text: str) -> str:
    """What readability's substitution of ``\\s*\\n\\s*`` by a line break makes of ``text``: every run
    of whitespace holding a line break made that one line break (see the module docstring)."""
    lines = text.split("\n")
    inner = [line for line in map(str.strip, lines[1:-1]) if line]
    return "\n".join([lines[0].rstrip(), *inner, lines[-1].lstrip()])


def clean_length(text: str) -> int:
    """``len(readability.readability.clean(text))``, computed faster (module docstring)."""
    return len(clean_text(text))


def text_length(element: HtmlElement) -> int:
    """readability's ``text_length(element)``: the length of its cleaned text."""
    return clean_length(element.text_content() or "")


def link_density(element: HtmlElement) -> float:
    """readability's ``Document.get_link_density(element)``: the text length of the links inside
    ``element`` over its own (at least 1)."""
    links = sum(text_length(link) for link in element.iterdescendants("a"))  # findall(".//a")'s, unparsed
    return float(links) / max(text_length(element), 1)
