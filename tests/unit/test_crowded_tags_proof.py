"""Most pages skip the scan for crowded tags: ``crowded_tags._uncrowded`` proves from where a page's
``>`` and quotes lie that none of its tags can hold more than MAX_ATTRIBUTES attributes. It must never
clear a page the scan would thin: checked here on the shortest crowded tags, on tags whose quoted
values hold ``>`` (the one way a tag spans a ``>``), and, with the bound lowered to 4 attributes so
that crowded tags are small, on generated markup of quotes, ``>`` and ``<`` inside values, unquoted
values, valueless names, blanks before quotes, comments and scripts."""

import re
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_examples import examples

from websearch_sync.extract import crowded_tags
from websearch_sync.extract.crowded_tags import MAX_ATTRIBUTES, thin_crowded_tags

ROOT = Path(__file__).resolve().parents[2]
SMALL_BOUND = 4


def _module_with_bound(bound: int) -> types.ModuleType:
    """``extract/crowded_tags.py`` with MAX_ATTRIBUTES set to ``bound`` (every pattern and limit
    derived from it made again)."""
    path = Path(crowded_tags.__file__)
    source = path.read_text(encoding="utf-8")
    assert source.count("\nMAX_ATTRIBUTES = 1024\n") == 1
    module = types.ModuleType("websearch_sync.extract._crowded_tags_small")
    module.__package__ = "websearch_sync.extract"
    module.__file__ = str(path)
    exec(
        compile(source.replace("\nMAX_ATTRIBUTES = 1024\n", "\nMAX_ATTRIBUTES = %d\n" % bound), str(path), "exec"),
        module.__dict__,
    )  # noqa: S102
    return module


SMALL = _module_with_bound(SMALL_BOUND)
_SPACE = r"\t\n\f\r "
#: A crowded tag wherever it starts, whatever comes before it (a comment, a script, the inside of a
#: value): the scan's tag name, then one attribute more than the bound, each as the scan reads one.
_ANY_CROWDED = re.compile(rf"</?[a-zA-Z][^{_SPACE}/>]*(?![^{_SPACE}/>])(?:{SMALL._ATTRIBUTE}){{{SMALL_BOUND + 1}}}")

SEPARATORS = [" ", "\t", "\n", "/", "  ", " / ", "\r\n", " " * 17, "\f"]
NAMES = ["a", "b1", "<x", "'q", '"q', "=", "a<b", "x=", "on>"]
EQUALS = ["=", " = ", "\n=", "=" + " " * 16, "=" + " " * 17, " " * 20 + "= "]
#: Quoted values holding ``>`` (one or more, the other quote between them or not), ``<``, nothing;
#: unquoted values holding quotes; quotes never closed.
VALUES = ['"x"', '">"', '"a>b<c"', '">>"', "'a>b>'", "'>'", "'a\">'", '"\'>"', "x", "x'y", 'x"y', '""', "''"]
VALUES += ['"', "'", '"<p a=">"', "'->'"]
ATTRIBUTES = NAMES + [name + equals + value for name in NAMES for equals in EQUALS for value in VALUES]
#: An attribute and what comes before it: a separator, or nothing (after a quoted value).
SEPARATED = [separator + attribute for separator in [*SEPARATORS, ""] for attribute in ATTRIBUTES]
#: Markup around and between the tags: ends, openings, quotes, comments, text elements.
MARKUP = [">", "<", "<p", "</p", "<a ", "<!--", "-->", "--!>", "<script>", "</script>", "<script", "<style>"]
MARKUP += ["<textarea>", "<title>", "<plaintext>", "<?x", "<!x", "</ ", "text ", "<i>", "<br/>", "<script/>", "=>"]
PIECES = st.sampled_from(SEPARATORS + NAMES + EQUALS + VALUES + MARKUP)
TAG_NAMES = st.sampled_from(["<p", "<a", "<script", "<title", "<x<y", "</p"])
TAGS = st.builds(
    "".join,
    st.tuples(
        TAG_NAMES, st.lists(st.sampled_from(SEPARATED), min_size=SMALL_BOUND - 1, max_size=3 * SMALL_BOUND).map("".join)
    ),
)
PAGES = st.lists(st.one_of(PIECES, TAGS), max_size=40).map("".join)


@settings(max_examples=examples(200, deep=600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(page=PAGES)
def test_no_page_of_a_crowded_tag_is_cleared(page):
    """Wherever a run of more than the bound's attributes starts, the page is left to the scan; and
    what the page becomes is what the scan alone makes of it."""
    cleared = SMALL._uncrowded(page)
    if _ANY_CROWDED.search(page):
        assert not cleared
    if cleared:
        assert SMALL._thinned(page) is page
    assert SMALL.thin_crowded_tags(page) == SMALL._thinned(page)


@settings(max_examples=examples(100, deep=300), deadline=None)
@given(before=PAGES, tag=TAGS, after=PAGES, ends=st.sampled_from(["", ">", ">>", "x>"]))
def test_a_crowded_tag_among_other_markup_is_never_cleared(before, tag, after, ends):
    """A generated tag (often crowded), its neighbours' ``>`` as close as they come."""
    page = before + ends + tag + ends + after
    if _ANY_CROWDED.search(page):
        assert not SMALL._uncrowded(page)
    assert SMALL.thin_crowded_tags(page) == SMALL._thinned(page)


#: Values holding ``>`` (one or more, the other quote between them or not) and some that hold none.
ENDS_IN_VALUES = ['">"', '">>"', '"a>b>c"', "'>>'", "'>\"'", '">\'>"', '"x"', "x", "''"]
#: Attributes as short as they come (a character and a separator: no room to spare in the proof's
#: window), and valued ones, their quoted values holding ``>``, blanks (more than 16 too) around ``=``.
LONE_ATTRIBUTES = [separator + name for separator in [" ", "/", "\n"] for name in ["a", "=", "<", "'", '"']]
LONE_ATTRIBUTES += [
    separator + name + equals + value
    for separator in [" ", "/", ""]
    for name in ["a", "<x", "'"]
    for equals in ["=", " = ", "=" + " " * 17]
    for value in ENDS_IN_VALUES
]
CROWDED_TAGS = st.builds(
    "".join,
    st.tuples(
        st.sampled_from(["<p", "</p", "<a<"]),
        st.lists(st.sampled_from(LONE_ATTRIBUTES), min_size=SMALL_BOUND + 1, max_size=2 * SMALL_BOUND).map("".join),
    ),
)


@settings(max_examples=examples(600, deep=2000), deadline=None)
@given(
    tag=CROWDED_TAGS,
    before=st.sampled_from(["", ">", "x>", "'>", '">', "<!--"]),
    after=st.sampled_from(["", ">", "></p>", "'>", '">']),
)
def test_a_lone_tag_of_more_attributes_than_the_bound_is_never_cleared(tag, before, after):
    """A tag alone, each of its attributes one of the spellings above, a ``>`` as close as can be on
    either side."""
    page = before + tag + after
    if _ANY_CROWDED.search(page):
        assert not SMALL._uncrowded(page)
    assert SMALL.thin_crowded_tags(page) == SMALL._thinned(page)


#: The shortest spellings of an attribute (a name's character and a separator), and quoted values
#: holding ``>`` right after their ``=`` or after blanks (more than the 16 looked at, too).
SHORTEST = {
    "spaces": (" b", ""),
    "slashes": ("/b", ""),
    "names of '=' after slashes": ("/=", ""),
    "quoted, nothing between": ('b=""', " "),
}


@pytest.mark.parametrize("spelling", list(SHORTEST))
def test_the_shortest_crowded_tag_between_two_ends_is_thinned(spelling):
    """One attribute over the bound in the fewest characters, a ``>`` right before and after it: a
    window of the proof one character wider would hold the tag's own ``>`` and clear the page."""
    attribute, separator = SHORTEST[spelling]
    tag = "<a" + separator + attribute * (MAX_ATTRIBUTES + 1)
    page = "<p>x>" + tag + "><p>y</p>"
    assert not crowded_tags._uncrowded(page)
    assert thin_crowded_tags(page) != page
    assert thin_crowded_tags(page) == crowded_tags._thinned(page)


@pytest.mark.parametrize("inside", [">", "> b >"])
@pytest.mark.parametrize("quote", ['"', "'"])
@pytest.mark.parametrize("blanks", ["", " ", "\n\t", " " * 16, " " * 17, " " * 40])
def test_a_crowded_tag_spanning_ends_inside_its_values_is_thinned(quote, blanks, inside):
    """Every 500 attributes a value holding ``>`` (too few to spend the proof's budget): each such
    ``>`` must be seen as inside a value, however many blanks come between its ``=`` and quote, and
    however far after its quote (a second ``>``)."""
    block = " b" * 500
    value = " c=%s%s%s%s" % (blanks, quote, inside, quote)
    tag = "<p" + value.join([block] * 4) + ">"
    page = "<html><body>" + tag + "text</p></body></html>"
    assert tag.count(">") == 1 + 3 * inside.count(">")
    assert not crowded_tags._uncrowded(page)
    assert thin_crowded_tags(page) != page


def test_ordinary_search_pages_are_cleared():
    """DuckDuckGo's and Bing's recorded pages skip the scan, whole (their results, parsed on each
    search, a part of them): the proof's purpose."""
    paths = sorted((ROOT / "fixtures" / "ddg_html").glob("*.html")) + [
        ROOT / "fixtures" / "bing_html" / "se-scraper__page1.html",
        ROOT / "fixtures" / "bing_html" / "serp-parser__bing-nojs.html",
    ]
    assert len(paths) > 10
    for path in paths:
        assert crowded_tags._uncrowded(path.read_text(encoding="utf-8")), path


def test_long_stretches_without_a_hard_end_are_counted_not_refused():
    """A stretch of text with no ``>`` longer than the window is cleared when it holds few separators,
    and a value holding markup (a ``>`` after ``="``) does not end a stretch."""
    text = "<p>" + "word." * 2000 + "</p>"
    assert crowded_tags._uncrowded(text)
    assert not crowded_tags._uncrowded("<p>" + "word " * 2000 + "</p>")
    assert not crowded_tags._uncrowded('<p title="<b>' + " b" * 2000 + '">x</p>')


def test_a_value_holding_two_ends_past_a_window_without_one_is_read_whole():
    """The second ``>`` of a value, no quote between the two, is inside it as much as the first: the
    last quote before it is the value's, found before the first (the search for the next hard end
    carries it)."""
    tag = '<p%s c="%s>%s>"%s>' % (" b" * 600, "x" * (2 * MAX_ATTRIBUTES), "x" * 10, " b" * 600)
    page = tag + "text</p>"
    assert not crowded_tags._uncrowded(page)
    assert thin_crowded_tags(page) != page
