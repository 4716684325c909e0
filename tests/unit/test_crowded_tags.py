"""A tag crowded with attributes is cut to its first MAX_ATTRIBUTES before libxml2 reads it:
libxml2 checks each attribute against every one before it, and a tag of 100,000 took 30 s of
CPU in one call no deadline stops. What libxml2 counts (lxml's parse of the markup) is the
truth each spelling is checked against."""

import configparser
import importlib.util
import logging
import re
from pathlib import Path

import lxml.html
import pytest
from clocks import AbandonedAfter
from lxml import etree

from websearch_sync.checkpoints import WorkAbandoned, abandonable
from websearch_sync.cli import main
from websearch_sync.engine.html_parsing import parse_html
from websearch_sync.extract import crowded_tags
from websearch_sync.extract.article import _parse, extract_html
from websearch_sync.extract.crowded_tags import MAX_ATTRIBUTES, thin_crowded_tags

TEXT = "The council met on Tuesday and agreed the budget for the coming year after a long debate."

#: How libxml2 reads attributes one after another: after white space, after ``/``, right after
#: a quoted value (a ``>`` inside it does not end the tag), unquoted values holding ``/`` and
#: quotes, names holding ``<`` and quotes, and valueless names.
SPELLINGS = {
    "spaces": (" ", "a%d=1"),
    "slashes": ("/", "a%d"),
    "quoted, nothing between": ("", 'a%d="1"'),
    "quoted greater-than": ("", "a%d='>'"),
    "unquoted slash and quote": ("\n", 'a%d=x/y"z'),
    "odd names": ("\t", "<a%d'"),
}
#: The attributes of the crowded tag: 200,000 (90 s of CPU unthinned) for the first three
#: spellings; a few thousand show the others (keeping the suite quick).
CROWD = {"spaces": 200_000, "slashes": 200_000, "quoted, nothing between": 200_000}


def _page(count: int, separator: str, attribute: str) -> str:
    attributes = separator.join(attribute % i for i in range(count))
    return "<html><body><p class=x %s>%s</p><p id=next>%s</p></body></html>" % (attributes, TEXT, TEXT)


def _parsed_attributes(markup: str) -> int:
    return len(lxml.html.document_fromstring(markup).find(".//p").attrib)


@pytest.mark.parametrize("spelling", list(SPELLINGS))
def test_a_crowded_tag_keeps_its_first_attributes_and_the_page_its_text(spelling):
    page = _page(CROWD.get(spelling, 3 * MAX_ATTRIBUTES), *SPELLINGS[spelling])
    thinned = thin_crowded_tags(page)
    assert _parsed_attributes(thinned) == MAX_ATTRIBUTES
    assert thinned.endswith(">%s</p><p id=next>%s</p></body></html>" % (TEXT, TEXT))
    assert extract_html(page, mode="text").text.count("agreed the budget") == 2


@pytest.mark.parametrize("spelling", list(SPELLINGS))
def test_a_tag_within_the_bound_is_left_alone(spelling):
    page = _page(MAX_ATTRIBUTES - 1, *SPELLINGS[spelling])  # with class=x: MAX_ATTRIBUTES
    assert _parsed_attributes(page) == MAX_ATTRIBUTES
    assert thin_crowded_tags(page) is page


def test_a_page_of_long_values_and_many_tags_is_left_alone():
    page = "<html><body>%s<p title='%s' style=\"%s\">%s</p></body></html>" % (
        "<br a b>" * 5000,
        "a b > " * 5000,
        "x:1; " * 5000,
        TEXT,
    )
    assert thin_crowded_tags(page) is page


def test_one_call_of_the_scan_reads_a_bounded_number_of_tags_and_the_calls_together_the_page():
    """A call holds the GIL: one over a whole 5 MB page of tags (0.8 s of CPU) kept the thread
    waiting for the extraction from its deadline. Two bounds' worth of tags, then a crowded one:
    the first call stops short of it, and reading goes on to thin it and keep the rest."""
    tags = "<td>x</td>" * crowded_tags.SCAN_TOKENS
    page = _page(3 * MAX_ATTRIBUTES, " ", "a%d=1").replace("<body>", "<body>" + tags, 1)
    assert crowded_tags._SCAN.match(page).end() < len(tags)
    thinned = thin_crowded_tags(page)
    assert thinned.startswith("<html><body>" + tags)
    assert _parsed_attributes(thinned[len("<html><body>" + tags) :]) == MAX_ATTRIBUTES
    assert thinned.endswith(">%s</p><p id=next>%s</p></body></html>" % (TEXT, TEXT))
    assert thin_crowded_tags(tags) is tags


@pytest.mark.parametrize("name", ["p", "script"])
def test_a_tag_of_exactly_the_bound_where_a_call_of_the_scan_stops_is_left_alone(name):
    """A call stopping after SCAN_TOKENS tokens reads the next tag's first MAX_ATTRIBUTES as a
    crowded tag's: with none after them, nothing is dropped and the page itself comes back (a
    copy would make extraction encode the page again for nothing). (Valued attributes: of valueless
    ones the tag would hold too few separators for the scan to be needed, ``_uncrowded``.)"""
    attributes = " ".join("a%d=1" % i for i in range(MAX_ATTRIBUTES))
    page = "<i>" * (crowded_tags.SCAN_TOKENS // 2) + "<%s %s>x</%s>" % (name, attributes, name)
    assert crowded_tags._SCAN.match(page).lastgroup == ("tag" if name == "p" else name)
    assert not crowded_tags._uncrowded(page)
    assert thin_crowded_tags(page) is page


def test_both_entry_points_to_libxml2_thin_a_crowded_tag():
    """Extraction and the search engines' result parsers (``parse_html``) read pages through it."""
    page = _page(3 * MAX_ATTRIBUTES, " ", "a%d")
    assert len(parse_html(page).find(".//p").attrib) == MAX_ATTRIBUTES
    parsed = _parse(page)
    assert parsed is not None and len(parsed.find(".//p").attrib) == MAX_ATTRIBUTES
    assert "agreed the budget" in extract_html(page, mode="markdown").text


#: Markup libxml2 reads as no tag, whose ``<x a='`` would make a scan that took it for one read
#: the crowded tag after it as the inside of a quoted value: each is read as libxml2 reads it.
HIDING_PLACES = {
    "comment": "<!--<x a='-->",
    "comment closed by --!>": "<!--<x a='--!>",
    "empty comment": "<!-->",  # a scan that did not end it here would read on to the page's end
    "bogus comment": "<?<x a='>",
    "script": "<script>\"<x a='</script>",
    "script closed in capitals": "<script>\"<x a='</SCRIPT >",
    "script closed after a script in a comment": "<script><!--<script></script><x a='--></script>",
    "crowded script": "<script %s>\"<x a='</script>" % " ".join("s%d" % i for i in range(2 * MAX_ATTRIBUTES)),
    "title": "<title><x a='</title>",
    "textarea": "<textarea><x a='</textarea>",
    **{name: "<%s><x a='</%s>" % (name, name) for name in ("style", "xmp", "iframe", "noembed", "noframes")},
}
#: The hiding places whose content is longer than one call of the scan reads (CONTENT_ITEMS items):
#: read on by ``_content_end``, in the script's escape states too.
_LONG = "a<" * (crowded_tags.CONTENT_ITEMS + 1)
LONG_HIDING_PLACES = {
    "comment": "<!--%s<x a='-->" % ("a -" * (crowded_tags.CONTENT_ITEMS + 1)),
    "script": "<script>%s\"<x a='</script>" % _LONG,
    "script closed after a script in a comment": "<script><!--%s<script>%s</script><x a='--></script>" % (_LONG, _LONG),
    "script escaped and unescaped": "<script><!--%s--><x a='</script>" % _LONG,
    "crowded script": "<script %s>%s\"<x a='</script>"
    % (" ".join("s%d" % i for i in range(2 * MAX_ATTRIBUTES)), _LONG),
    "style": "<style>%s<x a='</style>" % _LONG,
}
#: A text element closed as it opens (libxml2 2.14 reads ``<script/>`` as an element without
#: content): what follows is markup again, not its text, so a crowded tag there is a tag.
SELF_CLOSED = {
    "%s %s" % (name, opener): opener % name
    for name in ("script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title", "plaintext")
    for opener in ("<%s/>", "<%s />", "<%s a/>", '<%s x="1"/>')
}


@pytest.mark.parametrize("place", [*HIDING_PLACES, *("long " + place for place in LONG_HIDING_PLACES)])
def test_a_crowded_tag_after_markup_libxml2_reads_as_text_is_thinned(place):
    attributes = " ".join("a%d" % i for i in range(3 * MAX_ATTRIBUTES))
    hiding = LONG_HIDING_PLACES[place[5:]] if place.startswith("long ") else HIDING_PLACES[place]
    page = '<html><body>%s<p b="\'>" %s>%s</p></body></html>' % (hiding, attributes, TEXT)
    root = lxml.html.document_fromstring(thin_crowded_tags(page))
    assert len(root.find(".//p").attrib) == MAX_ATTRIBUTES
    assert max(len(element.attrib) for element in root.iter()) == MAX_ATTRIBUTES


@pytest.mark.parametrize("place", list(SELF_CLOSED))
def test_a_crowded_tag_after_a_self_closed_text_element_is_thinned(place):
    attributes = " ".join("a%d" % i for i in range(3 * MAX_ATTRIBUTES))
    page = "<html><body>%s<p %s>%s</p></body></html>" % (SELF_CLOSED[place], attributes, TEXT)
    assert len(lxml.html.document_fromstring(page).find(".//p").attrib) > MAX_ATTRIBUTES  # libxml2 reads a tag
    assert len(lxml.html.document_fromstring(thin_crowded_tags(page)).find(".//p").attrib) == MAX_ATTRIBUTES
    assert len(parse_html(page).find(".//p").attrib) == MAX_ATTRIBUTES


#: Markup the scan reads as no crowded tag that extraction's own steps before libxml2 make one of:
#: control characters turned into spaces, an unclosed title closed, an early ``</body>`` removed,
#: a DOCTYPE's internal subset dropped (``repair_markup``).
MADE_BY_EXTRACTION = {
    "control characters between attributes": "<html><body><p %s>{text}</p></body></html>",
    "an unclosed title": "<html><head><title>T<p %s>{text}</p></body></html>",
    "a title closed after the body": "<html><head><title>T<p %s>{text}</p><body></title></body></html>",
    "an early end of the body in a comment": "<html><body><!-- --</body>> <p %s>{text}</p></body></html>",
    "a comment opened in an internal subset": '<!DOCTYPE html [ <!ENTITY e "y"> <!-- ]> <p %s>{text}</p> --></html>',
}


@pytest.mark.parametrize("place", list(MADE_BY_EXTRACTION))
def test_extraction_thins_the_markup_libxml2_is_given(place):
    """Thinning runs last, on the very text lxml reads: before the repair and the control
    characters' replacement, each of these pages reached libxml2 with 3,072 attributes in a tag."""
    separator = "\x01" if place.startswith("control") else " "
    attributes = separator.join("a%d" % i for i in range(3 * MAX_ATTRIBUTES))
    page = MADE_BY_EXTRACTION[place].format(text=TEXT) % attributes
    assert thin_crowded_tags(page) is page  # the scan reads no crowded tag in the page as served
    parsed = _parse(page)
    assert parsed is not None
    assert max(len(element.attrib) for element in parsed.iter() if isinstance(element.tag, str)) == MAX_ATTRIBUTES


def test_plaintext_is_text_to_the_end_of_the_page_and_left_alone():
    attributes = " ".join("a%d" % i for i in range(3 * MAX_ATTRIBUTES))
    page = "<html><body><plaintext><p %s>%s</p></body></html>" % (attributes, TEXT)
    assert lxml.html.document_fromstring(page).find(".//p") is None
    assert thin_crowded_tags(page) is page


def test_a_libxml2_older_than_the_scans_reading_is_said_and_setup_asks_for_lxml_6():
    """The scan reads markup as libxml2 2.14 does; setup.cfg allowed lxml 4.9 on, whose libxml2
    (2.9-2.13: lxml 5.3's 2.12.9, measured) read a script's ``<!--<script>``, textarea and title
    content, an end tag's quotes ... otherwise: seven such pages each handed it a tag of 20,000
    attributes (0.9 s of parse each), without a word. lxml 6's Linux and macOS wheels bundle 2.14;
    on Windows its wheels bundle 2.11, so the advice there is not to install lxml 6."""
    requirements = configparser.ConfigParser()
    requirements.read(Path(__file__).resolve().parents[2] / "setup.cfg")
    (floor,) = re.findall(r"^lxml>=(\d+)", requirements["options"]["install_requires"], re.M)
    assert int(floor) >= 6
    said = crowded_tags.older_libxml2_warning((2, 12, 9), "linux")
    assert said is not None and said.startswith("lxml runs on libxml2 2.12.9, older than 2.14")
    assert "install lxml 6" in said
    on_windows = crowded_tags.older_libxml2_warning((2, 11, 9), "win32")
    assert on_windows is not None and "install lxml 6" not in on_windows and "Windows wheels" in on_windows
    assert [crowded_tags.older_libxml2_warning(version) for version in [(2, 14, 0), (2, 15, 1), (3, 0, 0)]] == [
        None,
        None,
        None,
    ]


def test_an_older_libxml2_is_said_by_backends_not_logged_at_import(monkeypatch, caplog, capsys):
    """Logged at import, the warning reached every command's stderr on Windows (lxml's own wheels
    bundle 2.11 there); the module read afresh under a libxml2 said to be 2.11.9 logs nothing, and
    ``websearch-sync backends`` says it under its table (``--json``: on stderr)."""
    path = Path(crowded_tags.__file__)
    monkeypatch.setattr(etree, "LIBXML_VERSION", (2, 11, 9))
    with caplog.at_level(logging.DEBUG, logger="websearch_sync"):
        spec = importlib.util.spec_from_file_location("websearch_sync.extract._crowded_tags_copy", path)
        assert spec is not None and spec.loader is not None
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    assert [record.getMessage() for record in caplog.records if record.name.startswith("websearch_sync")] == []
    said = "warning: " + crowded_tags.older_libxml2_warning((2, 11, 9))
    assert main(["backends"]) == 0
    assert said + "\n" in capsys.readouterr().out
    assert main(["backends", "--json"]) == 0
    assert said + "\n" in capsys.readouterr().err
    monkeypatch.setattr(etree, "LIBXML_VERSION", (2, 14, 4))
    assert main(["backends"]) == 0
    assert "libxml2" not in capsys.readouterr().out


@pytest.mark.parametrize("opening", ["<script>", "<style>", "<!--", "<script><!--"])
def test_one_long_content_is_read_in_bounded_calls_with_checkpoints(opening):
    """A single 4 MB script of ``a<`` was one match of the scan (0.55 s holding the GIL past a
    fetch's deadline): the scan stops before a content longer than CONTENT_ITEMS items, read on
    CONTENT_ITEMS a call, each after a checkpoint where abandoned work ends. (A ``=`` in each item:
    of spaces alone the content would hold too few separators for the scan to be needed, ``_uncrowded``.)"""
    page = "<p>x</p>" + opening + "a -=<" * (4 * crowded_tags.CONTENT_ITEMS)
    assert crowded_tags._SCAN.match(page).end() == len("<p>x</p>")
    assert not crowded_tags._uncrowded(page)
    counted = AbandonedAfter(10**9)
    with abandonable(counted):
        assert thin_crowded_tags(page) is page
    assert counted.seen >= 4
    abandoned = AbandonedAfter(3)
    with abandonable(abandoned), pytest.raises(WorkAbandoned):
        thin_crowded_tags(page)


@pytest.mark.parametrize("long_content", [False, True], ids=["short content", "long content"])
@pytest.mark.parametrize("name", crowded_tags._TEXT_ELEMENTS)
def test_a_crowded_end_tag_of_a_text_element_is_thinned(name, long_content):
    """The scan reads a text element's end tag with its content (its ``<`` the content's last item):
    one of too many attributes ends the content before it and is thinned as any crowded tag, after
    a content the scan reads or one read in bounded calls (more than CONTENT_ITEMS items)."""
    content = "a<" * (crowded_tags.CONTENT_ITEMS + 1) if long_content else "a<b"
    attributes = ["a%d" % i for i in range(MAX_ATTRIBUTES + 5)]
    page = "<%s>%s</%s %s><p>x</p>" % (name, content, name, " ".join(attributes))
    kept = "<%s>%s</%s %s><p>x</p>" % (name, content, name, " ".join(attributes[:MAX_ATTRIBUTES]))
    assert thin_crowded_tags(page) == kept
