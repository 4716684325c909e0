"""The result blocks read for declared tests (``engine/class_blocks.py``) are the walk's.

``walk_blocks`` reads a region without its per-element walk where its tests are declared
(``ClassedTag``, ``HasClass``, ``Below``); the same tests written as functions take the walk. Both
must give the same blocks, the same element for each part and the same texts: on every recorded
page (with DuckDuckGo's tests and with tests made from the page's own most frequent classes), and
on made-up markup holding what must be left to the walk (nested blocks) or read the walk's way
(comments, processing instructions, text around them, odd spaces in class lists).
"""

import collections
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from property_examples import examples

from websearch_sync.backends import ddg
from websearch_sync.engine import class_blocks
from websearch_sync.engine.class_blocks import Below, ClassedTag, UnclassedTag
from websearch_sync.engine.html_parsing import HasClass, _PartTests, classes, parse_fragment, walk_blocks

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "fixtures").rglob("*.html"))


def _unstamp(tag):
    return tag.tag == "span" and not classes(tag)


def _as_functions(parts):
    """The same part tests, as functions (the walk runs for them)."""
    return {name: (lambda tag, inside, test=test: test(tag, inside)) for name, test in parts.items()}


def _read(blocks, names):
    return [(block.tag, dict(block.parts), {name: block.text(name) for name in names}) for block in blocks]


def _same_as_the_walk(root, is_block, parts):
    """The blocks read with the declared tests equal the walk's; whether the walk was left out."""
    tests = _PartTests(parts)
    declared = class_blocks.found(root, is_block, tests.plan, None)
    fast = walk_blocks(root, is_block, parts)
    walked = walk_blocks(root, lambda tag: is_block(tag), _as_functions(parts))
    assert _read(fast, parts) == _read(walked, parts)
    return declared is not None


def _page_tests(root, count):
    """Block tests and parts made of ``root``'s most frequent (element, class) pairs and classes."""
    pairs = collections.Counter(
        (tag.tag, name) for tag in root.iter() if isinstance(tag.tag, str) for name in classes(tag)
    )
    frequent = [pair for pair, _ in pairs.most_common(count + 6)]
    for tag, name in frequent[:count]:
        names = [other for _, other in frequent if other != name][:4]
        parts = {"part%d" % index: HasClass(other) for index, other in enumerate(names)}
        if names:
            parts["stamp"] = Below("part0", _unstamp)
            parts["unclassed"] = Below("part0", UnclassedTag("span"))
            parts["unclassed_link"] = Below("part1" if len(names) > 1 else "part0", UnclassedTag("a"))
            parts["link"] = Below("part1" if len(names) > 1 else "part0", lambda tag: tag.tag == "a")
        yield ClassedTag(tag, name), parts


@pytest.mark.parametrize("page", PAGES, ids=lambda path: "%s/%s" % (path.parent.name, path.name))
def test_every_recorded_page_reads_the_same_as_the_walk(page):
    root = parse_fragment(page.read_text(encoding="utf-8", errors="replace"))
    _same_as_the_walk(root, ddg._is_html_block, ddg._HTML_PARTS)
    for is_block, parts in _page_tests(root, 3):
        _same_as_the_walk(root, is_block, parts)


def test_duckduckgo_pages_are_read_without_the_walk():
    pages = [page for page in PAGES if page.parent.name == "ddg_html"]
    fast = 0
    for page in pages:
        markup = page.read_text(encoding="utf-8")
        region = ddg.region(markup, ddg._HTML_START, ddg._HTML_END)
        if region is not None:
            root = parse_fragment(ddg._HTML_SKIP.sub("", region))
            fast += _same_as_the_walk(root, ddg._is_html_block, ddg._HTML_PARTS)
    assert fast >= 5


BLOCK = ClassedTag("div", "result")
PARTS = {
    "title": HasClass("title"),
    "snippet": HasClass("snippet"),
    "date": Below("meta", _unstamp),
    "meta": HasClass("meta"),
    "day": Below("meta", UnclassedTag("span")),
}


@pytest.mark.parametrize(
    "markup, declared",
    [
        ('<div class="result"><a class="title">A <!-- c --> b<?pi x?> c<b>d</b>e</a></div>', True),
        ('<div class="result"><p class="meta"><i>x</i><span class="s">no</span><span>2024</span></p></div>', True),
        ('<div class="result"><p class="meta"></p><span>not below</span></div>', True),
        ('<div class="result"><a class="title">x<div class="result"><a class="title">y</a></div>z</a></div>', False),
        ('<div class="x"><div class="result">a</div></div><div class="result"><p class="snippet">b</p></div>', True),
        ('<div class="result\xa0title"><a class="title">x</a></div>', True),
        ('<div class="result"><a class="title\x0csnippet">x</a><i class="meta\u3000x"><span>1</span></i></div>', True),
        ('<div class="result"><a class="title">x<span>y</span></a></div><div><div class="result">z</div></div>', True),
        ('<div class="\tresult\n"><a class=" title  snippet ">x</a><a class="title">y</a></div>', True),
        ('<div class="results"><a class="titles">x</a></div><DIV CLASS="result">y</DIV>', True),
        ('<div class="result"><p class="meta"><span class=" \t"><SPAN class="x">1</SPAN></span></p></div>', True),
        ('<div class="result"><p class="meta"><b><span class="x"><span>1</span></span></b></p></div>', True),
    ],
)
def test_made_up_markup_reads_the_same_as_the_walk(markup, declared):
    assert _same_as_the_walk(parse_fragment(markup), BLOCK, PARTS) is declared


PIECES = st.one_of(
    st.sampled_from(["<div>", "</div>", "<p>", "</p>", "<span>", "</span>", "<a>", "</a>", "<td>"]),
    st.sampled_from(['<div class="result">', '<div class="x result">', '<p class="meta">', '<a class="title">']),
    st.sampled_from(
        ['<span class="snippet meta">', '<p class="snippet\tx">', '<span class="">', "<!-- c -->", "<?p ?>"]
    ),
    st.sampled_from(['<div class="result\u3000x">', "&amp;", " ", "\n"]),
    st.text("ab \t", max_size=4),
)


@settings(max_examples=examples(300, deep=1000), deadline=None)
@given(st.lists(PIECES, max_size=30))
def test_any_markup_reads_the_same_as_the_walk(pieces):
    _same_as_the_walk(parse_fragment("".join(pieces)), BLOCK, PARTS)


@pytest.mark.parametrize("page", PAGES[::7], ids=lambda path: "%s/%s" % (path.parent.name, path.name))
def test_an_unclassed_tag_test_passes_what_the_function_it_declares_passes(page):
    """``UnclassedTag(name)`` is ``tag.tag == name and not classes(tag)`` on every element of a page
    (a class attribute of white space alone is none), the test DuckDuckGo's date part had as a function."""
    root = parse_fragment(page.read_text(encoding="utf-8", errors="replace"))
    names = {element.tag for element in root.iter() if isinstance(element.tag, str)}
    for name in sorted(names)[:12] + ["span"]:
        test = UnclassedTag(name)
        assert [test(e) for e in root.iter(etree.Element)] == [
            e.tag == name and not classes(e) for e in root.iter(etree.Element)
        ]


def test_a_block_name_lxml_reads_as_a_pattern_is_left_to_the_walk():
    """``iter("*")`` hands out every element, where the test ``tag.tag == "*"`` passes none."""
    root = parse_fragment('<div class="result"><a class="title">x</a></div>')
    assert _same_as_the_walk(root, ClassedTag("*", "result"), PARTS) is False
    assert walk_blocks(root, ClassedTag("*", "result"), PARTS) == []


def test_a_walks_tests_are_sorted_again_when_their_mapping_changed():
    """The sorted tests are kept by mapping for the next walk (``html_parsing._part_tests``): the
    same mapping changed in place is sorted again, not read with its old tests."""
    root = parse_fragment(
        '<div class="r"><a class="x">X</a><span class="y">Y</span></div><div class="r"><a class="x">X2</a></div>'
    )
    parts = {"part": HasClass("x")}
    texts = [block.text("part") for block in walk_blocks(root, ClassedTag("div", "r"), parts)]
    assert texts == [block.text("part") for block in walk_blocks(root, ClassedTag("div", "r"), parts)] == ["X", "X2"]
    parts["part"] = HasClass("y")
    assert [block.text("part") for block in walk_blocks(root, ClassedTag("div", "r"), parts)] == ["Y", ""]
    parts["other"] = Below("part", lambda tag: True)
    assert [block.text("part") for block in walk_blocks(root, ClassedTag("div", "r"), parts)] == ["Y", ""]
    with pytest.raises(LookupError):
        walk_blocks(root, ClassedTag("div", "r"), {"part": HasClass("y")})[0].text("other")
