"""The passes of ``reduce_markup`` against the patterns they replace: the indentation pass
(``html_parsing._INDENT``) against the plain pattern, the noise pass (``_NOISE``, ``_NOISE_BUT_IMAGES``)
against its alternatives in their former order. The same text on every recorded page (the indentation
pass also after the noise pass, which is what it reads), on hostile runs and on hypothesis markup."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_examples import examples

from websearch_sync.engine import html_parsing

ROOT = Path(__file__).resolve().parents[2]
#: The project's recorded pages and the shared ones beside the checkout.
PAGES = sorted(
    path
    for folder in (ROOT / "fixtures", ROOT.parent / "shared" / "fixtures")
    if folder.is_dir()
    for path in folder.rglob("*")
    if path.suffix in (".html", ".htm", ".json", ".txt") and path.is_file()
)

#: The pattern the pass used before, read as the reference.
PLAIN = re.compile(r">[ \t\r]*\n\s*<")

#: The noise pattern before its emphasis alternative came first.
_FORMER_NOISE = (
    r"<(?=/?[" + html_parsing._NOISE_FIRST + r"])"
    r"(?:(script|style)\b[^<>]*>[^<]*(?:<(?!/\1\s*>)[^<]*)*(?:</\1\s*>|\Z)"
    r"|!--[^-]*(?:-(?!->)[^-]*)*(?:-->|\Z)"
    r"|(?:%s)\b[^<>]*>"
    r"|/?(?:b|em|strong|font|mark|u)\b[^<>]*>"
    r"|i\b[^<>]*>\s*</i>"
    r"|(br)\b[^<>]*>"
    r")"
)
FORMER = {
    html_parsing._NOISE: re.compile(_FORMER_NOISE % "img|input|link|meta|source|wbr", re.S | re.I),
    html_parsing._NOISE_BUT_IMAGES: re.compile(_FORMER_NOISE % "input|link|meta|source|wbr", re.S | re.I),
}


def _same_noise(text: str) -> None:
    for noise, former in FORMER.items():
        assert [(m.span(), m.groups()) for m in noise.finditer(text)] == [
            (m.span(), m.groups()) for m in former.finditer(text)
        ]
        assert noise.sub(html_parsing._noise_replacement, text) == former.sub(html_parsing._noise_replacement, text)


def _same(text: str) -> None:
    assert html_parsing._INDENT.sub("><", text) == PLAIN.sub("><", text)
    assert [m.span() for m in html_parsing._INDENT.finditer(text)] == [m.span() for m in PLAIN.finditer(text)]


def test_there_are_recorded_pages() -> None:
    assert len(PAGES) > 50


@pytest.mark.parametrize("path", PAGES, ids=lambda path: "/".join(path.parts[-2:]))
def test_recorded_pages_give_the_same_text(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    _same(text)
    _same(html_parsing._NOISE.sub("", text))
    _same_noise(text)


#: Pieces of markup the noise pass reads: every name it removes (in either case, with the characters
#: that read as their letters under re.I: the long s, the Kelvin sign), names sharing their first
#: letters, comment and text-element ends, attributes and text.
_PIECES = [
    "<",
    "</",
    ">",
    "<!--",
    "-->",
    "--!>",
    "-",
    "!",
    " ",
    "\n",
    "x",
    "=",
    '"',
    "b",
    "B",
    "br",
    "bR",
    "em",
    "strong",
    "font",
    "mark",
    "u",
    "i",
    "I",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "wbr",
    "script",
    "SCRIPT",
    "style",
    "ſtyle",
    "\u212aink",
    "span",
    "div",
    "bdi",
    "iframe",
]


@settings(max_examples=examples(300, deep=2000), deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_made_up_markup_gives_the_same_noise_matches(text: str) -> None:
    _same_noise(text)


#: Whitespace of every kind \\s reads (unicode's too), the tag ends and a letter.
_ALPHABET = " \n\t\r\x0b\x0c\x1c\x1f\x85\xa0\u2028\u3000<>a/"


@settings(max_examples=examples(300, deep=2000), deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=60))
def test_made_up_markup_gives_the_same_text(text: str) -> None:
    _same(text)


@pytest.mark.parametrize(
    "text",
    [
        ">\n" + " " * 200_000 + "x",
        ">\t" * 100_000,
        (">\n \u3000 \n" * 50_000) + "x",
        ">" + " \t\r" * 50_000 + "\n" + "\n \x85" * 50_000,
    ],
    ids=["long run, no tag", "no newline", "runs without tag", "long both sides"],
)
def test_hostile_runs_are_read_in_linear_time(text: str) -> None:
    """Runs that no ``<`` ends: the same text as the plain pattern's (each run read a bounded number of
    times: 200,000 characters read once per character would not end within the suite's timeout)."""
    _same(text)
