"""The rule table: every rule is live and switchable by name (what the benchmark's ablation
relies on), class names are read generically, and unknown rule names are refused."""

import gzip
import json
from pathlib import Path

import lxml.html
import pytest
from test_extract import ARTICLE_PAGE
from test_extract_datatables import LIST_PAGE
from test_extract_recovery import LIST_POST, VIDEO_PAGE

from websearch_sync.extract.article import extract_html, render
from websearch_sync.extract.boilerplate import (
    class_words,
    clean_article,
    heading_boxes,
    linked_section_headings,
    preclean,
    slug_of_text,
)
from websearch_sync.extract.rules import DEFAULT_RULES, RULE_NAMES, RULES, check_rules

PARAGRAPH = "<p>%s</p>" % ("A real paragraph of the article, with enough words in it to matter. " * 3)


def _node(html):
    return lxml.html.fragment_fromstring(html, create_parent="div")


def _marked(rule):
    """A small article holding one block that ``rule`` (a tag or class-word rule) removes."""
    if rule.tags:
        tag = sorted(rule.tags)[0]
        return "<%s>marked block</%s>" % (tag, tag)
    return "<div class='x-%s-y'>marked block</div>" % sorted(rule.words)[0]


TABLE_RULES = [rule for rule in RULES if (rule.tags or rule.words) and rule.stage in ("page", "article")]


@pytest.mark.parametrize("rule", TABLE_RULES, ids=[rule.name for rule in TABLE_RULES])
def test_tag_and_word_rules_remove_their_blocks_only_when_on(rule):
    html = "<html><body>" + PARAGRAPH + _marked(rule) + PARAGRAPH + "</body></html>"
    for enabled, kept in ((DEFAULT_RULES, False), (DEFAULT_RULES - {rule.name}, True)):
        if rule.stage == "page":
            tree = lxml.html.document_fromstring(html)
            preclean(tree, enabled)
            text = render(tree.find("body"), "text")
        else:
            tree = _node(html)
            clean_article(tree, enabled)
            text = render(tree, "text")
        assert ("marked block" in text) is kept, (rule.name, enabled == DEFAULT_RULES)


def _clean(html, rules, title=None):
    tree = _node(html)
    clean_article(tree, rules, title=title)
    return render(tree, "text")


BLOCK_CASES = {
    "article.title": ("<h1>Rivers of Europe</h1>" + PARAGRAPH, "Rivers of Europe", {"title": "Rivers of Europe"}),
    # a layout table's cell opens with the title in bold, no heading
    "article.title_line": (
        "<div><b><font size='4'>Rivers of Europe</font></b><br>Added 3 March<br>" + PARAGRAPH + "</div>",
        "Rivers of Europe",
        {"title": "Rivers of Europe"},
    ),
    "article.labels": (PARAGRAPH + "<p>Advertisement</p>", "Advertisement", {}),
    "article.dates": (PARAGRAPH + "<p>Updated at 1:23 p.m. EST Nov. 19, 2019</p>", "Updated at", {}),
    "article.link_leads": (PARAGRAPH + "<p>Related: <a href='/x'>Another story</a> and more</p>", "Related:", {}),
    # the heading of a share box whose buttons are gone: nothing after it
    "article.end_headings": (
        PARAGRAPH * 2 + "<div class='share'><h3>Like this:</h3><div></div></div>",
        "Like this",
        {},
    ),
    "article.link_dense": (
        PARAGRAPH + "<ul><li><a href='/a'>Teaser one</a></li><li><a href='/b'>Two</a></li></ul>",
        "Teaser one",
        {},
    ),
    "article.link_spans": (
        "<p>Text of the paragraph <span><a href='/a'>one</a> <a href='/b'>two</a> "
        "<a href='/c'>three</a></span> and more text of it, long enough.</p>" + PARAGRAPH,
        "one two three",
        {},
    ),
    "article.meta_lines": (
        PARAGRAPH * 2 + "<p>Posted by the editor at 10:42 | Permalink</p><p>Copyright 2016 the publishers.</p>",
        "Copyright 2016",
        {},
    ),
    # a reporter's contact line and a subscription pitch after the article
    "article.contact_lines": (
        PARAGRAPH * 2 + "<p>Have a tip? Jane Doe may be reached at jdoe@example.com.</p>"
        "<p>If you enjoyed this article, we have a proposition for you: become a member.</p>",
        "may be reached at",
        {},
    ),
    # a fact box classed as a sidebar inside the article (camelCase split)
    "article.inner_boxes": (
        PARAGRAPH * 2 + "<div class='articleSidebar'><h3>Did you know?</h3><p>The library lends "
        "practical guides for three weeks at a time.</p></div>" + PARAGRAPH,
        "practical guides",
        {},
    ),
    # a compound class word ("commentlist") names a comment thread inside the article
    "article.comments": (
        PARAGRAPH * 3 + "<ol class='commentlist main'><li><p>Great post, thanks for writing "
        "it all down so clearly.</p></li></ol>",
        "Great post",
        {},
    ),
}


def test_a_contact_line_needs_an_address_or_a_handle():
    # the article's own sentence about a telephone line is not a reporter's contact line
    html = PARAGRAPH + "<p>The hotline can be reached at 0800 123 456 from nine until five.</p>"
    assert "hotline can be reached" in _clean(html, DEFAULT_RULES)
    assert "proposition" not in _clean(PARAGRAPH + BLOCK_CASES["article.contact_lines"][0], DEFAULT_RULES)


def test_a_subscription_pitch_that_lists_what_members_get_is_a_contact_line_up_to_600_characters():
    pitch = (
        "If you enjoyed this article, we have a proposition for you: become a member. Members get all of our "
        "content (including the magazine), no paywalls or content meters, an advertising-minimal experience, and "
        "unique access to our writers and editors (conference calls, social-media groups, etc.). And importantly, "
        "members help keep us going. Consider it?"
    )
    assert 300 < len(pitch) < 600
    assert "proposition" not in _clean(PARAGRAPH * 4 + "<p>%s</p>" % pitch, DEFAULT_RULES)
    assert "proposition" in _clean(PARAGRAPH * 4 + "<p>%s</p>" % pitch, DEFAULT_RULES - {"article.contact_lines"})
    longer = pitch + " " + "It goes on about the magazine, its history and its writers at length. " * 4
    assert "proposition" in _clean(PARAGRAPH * 4 + "<p>%s</p>" % longer, DEFAULT_RULES)  # an article's paragraph


@pytest.mark.parametrize(
    "line",
    [
        "Follow us on Twitter @example or Facebook.",
        "Follow Newsbeat on Instagram, Facebook, Twitter and YouTube.",
        "The book is out now. Follow him on Twitter @writer. Follow us on Twitter @site.",
        "Follow Valley News's full coverage of the election at https://example.com/election",
    ],
)
def test_a_sites_call_to_follow_it_is_a_contact_line(line):
    assert "Follow" not in _clean(PARAGRAPH + "<p>%s</p>" % line, DEFAULT_RULES)
    assert "Follow" in _clean(PARAGRAPH + "<p>%s</p>" % line, DEFAULT_RULES - {"article.contact_lines"})


@pytest.mark.parametrize(
    "line",
    [
        # an author's biography: Readability.js's truth keeps it
        "Jane Doe is a reporter covering science. Follow him on Twitter @janedoe or email him.",
        # the article's own sentences
        "Follow the river on foot to the old mill, then turn left at the bridge.",
        "Follow Main Street for two miles on foot and stop at the old mill.",
        "The mayor urged residents to follow us on the map as the route was announced.",
    ],
)
def test_a_line_that_is_no_call_to_follow_the_site_stays(line):
    assert line.split()[0] in _clean(PARAGRAPH + "<p>%s</p>" % line, DEFAULT_RULES)


@pytest.mark.parametrize(
    "line",
    [
        "5 min read",
        "Reading time: 4 minutes",
        "Tempo de leitura: 1 minuto",
        "Temps de lecture : 2 min",
        "Lesezeit: 3 Min.",
    ],
)
def test_a_reading_time_line_is_a_meta_line(line):
    assert line not in _clean(PARAGRAPH + "<p>%s</p>" % line + PARAGRAPH, DEFAULT_RULES)
    assert line in _clean(PARAGRAPH + "<p>%s</p>" % line + PARAGRAPH, DEFAULT_RULES - {"article.meta_lines"})


def test_a_sentence_about_reading_time_stays():
    line = "Reading time: 4 minutes a day is what the school asks of every pupil."
    assert line in _clean(PARAGRAPH + "<p>%s</p>" % line, DEFAULT_RULES)


def test_a_reviewers_line_under_the_byline_is_a_meta_line():
    # a health site's article: the byline box, then its reviewer's line (the name a link), then the text
    head = (
        "<h2>Babies who eat peanuts early may avoid allergy</h2>"
        "<div class='author_fmt'>By <a href='/a'>Jane Doe, MA</a><br>Health News</div>"
        "<div class='reviewedBy_fmt'>Reviewed by <a href='/r'>Anna B. Carter, MD</a> </div>"
    )
    assert "Anna B. Carter" not in _clean(head + PARAGRAPH * 3, DEFAULT_RULES)
    assert "Anna B. Carter" in _clean(head + PARAGRAPH * 3, DEFAULT_RULES - {"article.meta_lines"})


def test_an_additional_reporting_line_after_the_article_is_a_meta_line():
    line = "<p><em>Additional reporting by <a href='/author/jo'>Jo Hale</a></em></p>"
    assert "Jo Hale" not in _clean(PARAGRAPH * 3 + line, DEFAULT_RULES)
    assert "Jo Hale" in _clean(PARAGRAPH * 3 + line, DEFAULT_RULES - {"article.meta_lines"})


@pytest.mark.parametrize(
    "line",
    [
        "Reviewed by the panel, the plans were sent back to the council for a third time.",
        "Edited by hand, the film runs for ninety minutes.",
    ],
)
def test_a_sentence_opening_with_reviewed_by_stays(line):
    assert line in _clean(PARAGRAPH + "<p>%s</p>" % line + PARAGRAPH, DEFAULT_RULES)


def test_a_button_left_as_its_shortcode_is_a_label_line():
    # a content system printed the shortcode instead of the button (curly quotes and all)
    line = (
        "[button link=\u201dhttp://example.com/submit-review/\u201d type=\u201dbig\u201d] Send us YOUR review[/button]"
    )
    assert "Send us" not in _clean(PARAGRAPH + "<p>%s</p>" % line + PARAGRAPH, DEFAULT_RULES)
    assert "Send us" in _clean(PARAGRAPH + "<p>%s</p>" % line + PARAGRAPH, DEFAULT_RULES - {"article.labels"})
    # the article's own sentence about the shortcode is no button
    sentence = "Write [button link=/x/]Buy[/button] in the editor to get a button, and the theme draws it for you."
    assert "in the editor" in _clean(PARAGRAPH + "<p>%s</p>" % sentence, DEFAULT_RULES)


@pytest.mark.parametrize("name", sorted(BLOCK_CASES))
def test_block_rules_apply_only_when_on(name):
    html, marker, options = BLOCK_CASES[name]
    assert marker not in _clean(html, DEFAULT_RULES, **options)
    assert marker in _clean(html, DEFAULT_RULES - {name}, **options)


def _extracted(page, rules):
    return extract_html(page, mode="text", rules=rules).text


STRUCTURES = Path(__file__).resolve().parents[2] / "bench" / "extraction-structures"


def _structure_page(page):
    """A page of the structures set and its truth's lines."""
    html = gzip.decompress((STRUCTURES / "html" / ("%s.html.gz" % page)).read_bytes()).decode("utf-8")
    return html, json.loads((STRUCTURES / "ground-truth.json").read_text("utf-8"))[page]["articleBody"].splitlines()


def _row_split_page():
    """A layout table whose article column is split over three rows (paragraphs wrapped in
    <font>), navigation and sidebar cells spanning them: readability keeps one row."""

    def cell(*texts):
        return "<td valign='top'><font face='Verdana'>%s</font></td>" % "".join("<p>%s</p>" % t for t in texts)

    def part(word):
        return "The %s part of the article, with commas, clauses, and words enough to be a paragraph. " % word * 4

    links = "<br>".join("<a href='/s%d'>Section number %d</a>" % (n, n) for n in range(8))
    return (
        "<html><body><table><tr><td colspan='3'>Banner</td></tr><tr><td rowspan='3'>%s</td>%s"
        "<td rowspan='3'>%s<br>Site news: our new look site went live this month, tell us what moved.</td></tr>"
        "<tr>%s</tr><tr>%s</tr><tr><td colspan='3'>Copyright the publishers, all rights reserved, "
        "no reproduction without permission.</td></tr></table></body></html>"
        % (
            links,
            cell(part("first")),
            links,
            cell(part("second"), part("third")),
            cell(part("fourth"), "The closing paragraph of it."),
        )
    )


PAGE_CASES = {
    # readability picks the wrapper of the later paragraphs and appends those before it by
    # their own text: the second opens with a link or emphasis, its own text ends before a word
    "readability.sibling_gaps": (_structure_page("split-body-1")[0], "after a petition signed by"),
    "recovery.table_column": (_row_split_page(), "The closing paragraph"),
    # readability picks the content box of a "Read more" wrapper: the article's first paragraphs
    # are the wrapper's siblings, not the box's
    # readability merges the article's sections of the same class that score a twentieth of the
    # longest one: a section of one short paragraph between two merged ones scores less
    "readability.segment_gaps": (_structure_page("sections-1")[0], "Then the questions started"),
    "readability.wrappers": (_structure_page("read-more-1")[0], "after a trial over the summer"),
    # a list page: readability picks the data table's <tbody>, not the paragraphs that introduce it
    "readability.data_tables": (LIST_PAGE, "names films in which"),
    # an embedded post's <blockquote class="twitter-tweet"> is "unlikely" for readability
    "page.quotations": (ARTICLE_PAGE, "The Danube at sunset"),
    "page.heading_anchors": (
        "<html><body><main>" + PARAGRAPH * 2 + "<h2 id='usage'><a class='header' "
        "href='#usage'>Usage</a></h2>" + PARAGRAPH + "</main></body></html>",
        "Usage",
    ),
    # a one-line command in a documentation generator's code box: readability drops the box as too short
    "readability.code_blocks": (
        "<html><body><article>" + PARAGRAPH * 2 + "<div class='highlight'><pre><code>pip install lxml"
        "</code></pre></div>" + PARAGRAPH + "</article></body></html>",
        "pip install lxml",
    ),
    # a list whose items cite links: readability's own cleaning drops it as link-dense
    "readability.keep_lists": (
        "<html><body><div id='post'>"
        + PARAGRAPH * 2
        + "<ul>"
        + "".join(
            "<li>Item %d of the list, a sentence of text with <a href='/bug/%d'>a link to the bug report number %d</a>"
            " in it.</li>" % (n, n, n)
            for n in range(4)
        )
        + "</ul>"
        + PARAGRAPH
        + "</div></body></html>",
        "Item 2 of the list",
    ),
    # without it, readability selects again without its filter and returns the comments
    "readability.no_retry": (VIDEO_PAGE, "A time-lapse of the sun setting"),
    "recovery.fragment": (LIST_POST, "Printing now supports page ranges"),
    # the second tab's panel is hidden until its tab is clicked
    "page.tab_panels": (
        "<html><body><div class='story'>" + PARAGRAPH * 2 + "<div class='tab-pane' "
        "style='display:none'><p>Opening hours of the museum, from Tuesday to Sunday, "
        "ten until five.</p></div></div></body></html>",
        "Opening hours",
    ),
    # the rest of the article sits in a "continue reading" panel hidden by CSS (not a tab)
    "page.hidden_prose": (
        "<html><body><div class='story'>" + PARAGRAPH * 2 + "<div class='more-text' style='display:none'>"
        "<p>The second half of the story, hidden until the reader clicks to continue reading, with "
        "sentences enough to be a long paragraph of the article, and a clause or two more to be sure of it.</p>"
        "</div></div></body></html>",
        "The second half of the story",
    ),
    # a page built of components, each heading in a box of its own: readability's cleaning drops a
    # box of under 25 characters
    "readability.heading_boxes": (
        "<html><body><div class='post'>"
        + ("<div class='text'>%s</div>" % PARAGRAPH) * 2
        + "<div class='section'><div id='timetable'><h2>Timetable</h2></div></div>"
        + ("<div class='text'>%s</div>" % PARAGRAPH) * 2
        + "</div></body></html>",
        "Timetable",
    ),
    # a heading whose id is a slug of its text, the slug holding one of readability's negative
    # words ("tool" in "toolshed"): its cleaning drops a heading of negative class weight
    "readability.heading_slugs": (
        "<html><body><div class='post'>"
        + PARAGRAPH * 2
        + "<h2 id='3.-the-toolshed-by-the-harbour'>3. The toolshed by the harbour</h2>"
        + PARAGRAPH * 2
        + "</div></body></html>",
        "The toolshed by the harbour",
    ),
    # a roundup's sections headed by a link to what they review: readability's cleaning drops a
    # heading of link density over 0.33
    "readability.linked_headings": (
        "<html><body><div class='post'>"
        + PARAGRAPH
        + "".join(
            "<h3><a href='https://shop.example/item%d'>Brass kettle number %d</a></h3>%s" % (n, n, PARAGRAPH)
            for n in range(3)
        )
        + "</div></body></html>",
        "Brass kettle number 1",
    ),
    # readability keeps one short notice of this page; the main region holds the post
    "recovery.tiny": (LIST_POST, "Printing now supports page ranges"),
    # without the repair, libxml2 reads the page after an unclosed <title> as the title
    "markup.repair": (
        "<html><head><title>Notes<link rel='stylesheet' href='/s.css'></head><body>" + PARAGRAPH * 2 + "</body></html>",
        "A real paragraph",
    ),
}


#: Rules switched off for a case's both runs: another rule that would recover the same text.
ALSO_OFF = {
    "recovery.fragment": {"recovery.tiny", "recovery.second_opinion"},
    "recovery.tiny": {"recovery.fragment", "recovery.second_opinion"},
    # selected again without its filter, readability picks the comments, and the description's
    # box before their wrapper is a box of paragraphs: readability.wrappers would put it back
    "readability.no_retry": {"readability.wrappers"},
}


@pytest.mark.parametrize("name", sorted(PAGE_CASES))
def test_page_and_readability_rules_apply_only_when_on(name):
    page, marker = PAGE_CASES[name]
    rules = DEFAULT_RULES - ALSO_OFF.get(name, set())
    assert marker in _extracted(page, rules)
    assert marker not in _extracted(page, rules - {name})


SIDEBAR = "Family run garage, servicing and repairs at fair prices, call today for a free quote."
ABOUT = (
    "We are an independent community website run by volunteers since 2004, written by local people about the "
    "places where they live and work, and we welcome new contributors of every age."
)
PITCH = "Sign up to our free weekly newsletter, delivered to your inbox every Friday, and never miss a story again."
REMOVAL_CASES = {
    # readability drops the form and keeps the sign-up box's pitch as a sibling of a short article
    "page.form_boxes": (
        "<html><body><div id='wrap'><div><h1>Road closed</h1>" + PARAGRAPH * 3 + "</div>"
        "<div><h3>Never miss a story</h3><p>" + PITCH + "</p><form><input type='email'></form></div>"
        "</div></body></html>",
        "Sign up to our free",
    ),
    # a <br><br>-text cell is one paragraph for readability: the row with the sidebar cell wins
    "page.br_paragraphs": (
        "<html><body><table><tr><td><font>"
        + "<br><br>".join(
            ["Text of the article in a table cell, sentence after sentence, with commas, clauses, and words."] * 4
        )
        + "</font></td><td>"
        + SIDEBAR
        + "</td></tr></table></body></html>",
        SIDEBAR,
    ),
    # readability appends the site's "About us" box (a heading and a paragraph) to a short
    # article whose container holds the title heading
    "readability.title_boxes": (
        "<html><head><title>Road closed for resurfacing | Town news</title></head><body><div id='wrap'>"
        "<div class='article'><h1>Road closed for resurfacing</h1>" + PARAGRAPH + "</div>"
        "<div class='about-us'><h3>About us</h3><p>" + ABOUT + "</p></div></div></body></html>",
        "independent community website",
    ),
    # a layout table's noticeboard cell before the article's cell: readability keeps both
    "readability.title_start": (
        "<html><head><title>Road closed for resurfacing | Town news</title></head><body><table><tr><td>"
        "<h3>Noticeboard</h3>"
        + "".join(
            "<p>Notice %d: the mobile library calls at the green every other Wednesday, two to three.</p>" % n
            for n in range(4)
        )
        + "</td><td class='content'><h2>Road closed for resurfacing</h2>"
        + PARAGRAPH * 3
        + "</td></tr></table></body></html>",
        "Notice 2",
    ),
    # the article's container goes on with a run of teaser cards (readability keeps their
    # summaries and drops their headline links)
    "article.teaser_runs": (
        "<html><head><title>Road closed for resurfacing | Town news</title></head><body><div class='post'>"
        "<h1>Road closed for resurfacing</h1>"
        + PARAGRAPH * 2
        + "<div class='more'><h3>More stories</h3>"
        + "".join(
            "<div><h4><a href='/s%d'>Other story %d</a></h4><p>Summary of other story %d, a sentence about "
            "something else that happened in the town this week.</p></div>" % (n, n, n)
            for n in range(4)
        )
        + "</div></div></body></html>",
        "Summary of other story 2",
    ),
    # a short article from its title heading on, in a column of teasers written without <p>
    # (running text for the main region, none for readability): the fragment recovery would
    # widen it to the column
    "recovery.titled": (
        "<html><head><title>Road closed for resurfacing | Town news</title></head><body><div id='col'>"
        "<div class='article'><h1>Road closed for resurfacing</h1>"
        + PARAGRAPH
        + "</div><ul class='list'>"
        + "".join(
            "<li><a href='/s%d'>Story %d</a><br><span>Teaser %d, a line about another story of the site.</span></li>"
            % (n, n, n)
            for n in range(20)
        )
        + "</ul></div></body></html>",
        "Teaser 3",
    ),
}


@pytest.mark.parametrize("name", sorted(REMOVAL_CASES))
def test_page_rules_that_narrow_the_article_apply_only_when_on(name):
    page, marker = REMOVAL_CASES[name]
    assert marker not in _extracted(page, DEFAULT_RULES)
    assert marker in _extracted(page, DEFAULT_RULES - {name})


KEEP_CASES = {
    # an article that is mostly short link lines: link_dense removes each, together most of it
    "article.removal_cap": (
        "<p>Sources for this article, in the order cited:</p>"
        + "".join("<p><a href='/s%d'>Annual report of the harbour board, volume %d</a></p>" % (n, n) for n in range(6)),
        "volume 3",
    ),
}


@pytest.mark.parametrize("name", sorted(KEEP_CASES))
def test_guard_rules_keep_their_blocks_only_when_on(name):
    html, marker = KEEP_CASES[name]
    assert marker in _clean(html, DEFAULT_RULES)
    assert marker not in _clean(html, DEFAULT_RULES - {name})


def test_every_rule_has_a_switch_test():
    covered = (
        {rule.name for rule in TABLE_RULES}
        | set(BLOCK_CASES)
        | set(PAGE_CASES)
        | set(REMOVAL_CASES)
        | set(KEEP_CASES)
        | {"recovery.second_opinion"}
    )  # test_extract_second.py
    assert covered == RULE_NAMES


@pytest.mark.parametrize(
    "heading, slug",
    [
        ("<h2 id='3.-the-toolshed-by-the-harbour'>3. The toolshed by the harbour</h2>", True),
        ("<h2 id='the-toolshed'>The toolshed by the harbour</h2>", True),  # cut short
        ("<h2 id='toolbox'>The toolshed by the harbour</h2>", False),
        ("<h2 id='tool'>Tool</h2>", False),  # too short to tell a slug from a name
    ],
)
def test_a_heading_id_is_a_slug_when_it_spells_the_start_of_its_text(heading, slug):
    assert slug_of_text(lxml.html.fragment_fromstring(heading)) is slug


def test_a_heading_box_is_one_before_running_text_not_before_a_list_of_links():
    node = _node(
        "<div class='title'><h2>Timetable</h2></div>"
        + PARAGRAPH
        + "<div class='title'><h2>Related news</h2></div><ul>"
        + "".join(
            "<li><h3><a href='/s%d'>Another story of the harbour, number %d</a></h3></li>" % (n, n) for n in range(3)
        )
        + "</ul>"
    )
    assert [_text_of(box) for box in heading_boxes(node)] == ["Timetable"]


def test_a_linked_heading_heads_a_section_only_among_the_articles_paragraphs():
    node = _node(
        PARAGRAPH
        + "<h3><a href='/kettle'>Brass kettle</a></h3>"
        + PARAGRAPH
        + "<h3><a href='/teapot'>Copper teapot</a></h3><p><img src='/teapot.jpg'></p>"
        + "<p>A teapot for four cups, its handle wrapped in cane, its lid on a small chain, its spout long and curved.</p>"
        + "<h3><a href='/mugs'>Tin mugs</a></h3><p>Four of them, enamelled.</p>"
        + "<div class='card'><h3><a href='/story'>Another story</a></h3>"
        + PARAGRAPH
        + "</div>"
    )
    assert [_text_of(h) for h in linked_section_headings(node)] == ["Brass kettle", "Copper teapot"]


def _text_of(element):
    return "".join(element.itertext())


#: A summary of 80 to 124 non-space characters: long enough to open a section, too short to be a long paragraph.
SUMMARY = "A summary of the item, long enough to follow its heading as a section does, but not a long one by far."


def test_a_parent_of_many_linked_headings_has_its_paragraphs_counted_once(monkeypatch):
    """Each heading asked whether its parent holds two long paragraphs, and each asking measured the
    parent's children again: 5,000 linked headings in one <div> took 45 s. The parent is measured once."""
    from websearch_sync.extract import boilerplate

    headings = 200
    node = _node("".join("<h3><a href='/item%d'>Item %d</a></h3><p>%s</p>" % (n, n, SUMMARY) for n in range(headings)))
    measured = []
    size = boilerplate.text_size
    monkeypatch.setattr(boilerplate, "text_size", lambda element: measured.append(element) or size(element))
    assert list(linked_section_headings(node)) == []  # no long paragraph among them
    # each summary once as a heading's next block, and once as a child of the parent (before: 200 times)
    assert len(measured) == 2 * headings


def test_link_dense_keeps_headings():
    html = PARAGRAPH + "<h3><a href='/game/rez'>Rez Infinite</a></h3>" + PARAGRAPH
    assert "Rez Infinite" in _clean(html, DEFAULT_RULES)


def test_negated_class_names_say_what_an_element_is_not():
    element = _node("<div class='item no_caption no-ads without-sidebar wide-image'>x</div>")[0]
    assert class_words(element) == {"item", "wide", "image"}
    assert "marked" in _clean(PARAGRAPH + "<div class='no-caption'>marked</div>", DEFAULT_RULES)


def test_a_headline_that_the_page_title_abbreviates_is_the_title():
    # the <title> (and og:title) shorten the headline's first words: the <h1> is still the article's
    # title, returned apart, not its first line
    page = (
        "<html><head><title>HS Roundup: Valley beats Hillside to stay unbeaten</title></head><body>"
        "<article><h1>High School Roundup: Valley beats Hillside to stay unbeaten</h1>"
        + PARAGRAPH * 3
        + "</article></body></html>"
    )
    result = extract_html(page, mode="text")
    assert result.title == "HS Roundup: Valley beats Hillside to stay unbeaten"
    assert "High School Roundup" not in result.text and "A real paragraph" in result.text
    assert "High School Roundup" in extract_html(page, mode="text", rules=DEFAULT_RULES - {"article.title"}).text
    # a headline all of whose words a longer title holds in another order
    longer = page.replace(
        "<title>HS Roundup: Valley beats Hillside to stay unbeaten</title>",
        "<title>Roundup of the week, with scores and tables: High School sports as Valley beats Hillside to stay "
        "unbeaten</title>",
    )
    assert "High School Roundup" not in extract_html(longer, mode="text").text
    # a heading that shares fewer of the title's words is the article's own
    other = page.replace("<h1>High School Roundup: Valley", "<h1>Roundup of the week: Valley keeps winning, Hillside")
    assert "Roundup of the week" in extract_html(other, mode="text").text


def test_an_image_s_copyright_box_is_a_credit():
    # a news page's pictures each carry their agency's name in a box of class "...-copyright" (beside an
    # off-screen "Image copyright" label), between the paragraphs: a credit, which the article's text
    # does not read
    picture = (
        "<figure class='media-landscape full-width'><span class='image-and-copyright-container'>"
        "<img src='/pictures/singer.jpg' alt='The singer'><span class='off-screen'>Image copyright</span>"
        "<span class='story-image-copyright'>Example Pictures</span></span></figure>"
    )
    html = PARAGRAPH + picture + PARAGRAPH
    assert "Example Pictures" not in _clean(html, DEFAULT_RULES)
    assert "Example Pictures" in _clean(html, DEFAULT_RULES - {"article.captions"})
    assert _clean(html, DEFAULT_RULES).count("A real paragraph") == 6


@pytest.mark.parametrize("page", ["related-widget-1", "related-widget-2"])
def test_a_related_posts_widget_classed_in_one_word_is_left_out(page):
    # a blog post's content block goes on with a related-posts widget whose class names are one
    # word ("relatedposts-post": no "related" word of its own); its excerpts are long paragraphs
    # and come back with the article when the word is not read as "related" + "posts"
    html, truth = _structure_page(page)
    for rules, widget in ((DEFAULT_RULES, False), (DEFAULT_RULES - {"article.related"}, True)):
        text = extract_html(html, mode="text", rules=rules).text
        assert all(paragraph in text for paragraph in truth)
        assert ('In "Local news"' in text) is widget
    assert "related" in class_words(_node("<div class='jp-relatedposts-items'>x</div>")[0])
    assert "related" not in class_words(_node("<div class='unrelated'>x</div>")[0])


@pytest.mark.parametrize("page", ["link-items-1", "link-items-2"])
def test_link_dense_keeps_the_items_of_a_list_of_sentences(page):
    # a report's list of sentences, two of them a name and then one link ("Priya has <a>written
    # up a guide ...</a>"); the list of earlier reports after it is all links and goes
    html, truth = _structure_page(page)
    text = extract_html(html, mode="text").text
    assert all(line in text for line in truth)
    assert "Spring fair raises record sum" not in text
    without = extract_html(html, mode="text", rules=DEFAULT_RULES - {"article.link_dense"}).text
    assert "Spring fair raises record sum" in without


@pytest.mark.parametrize("page", ["hover-cards-1", "hover-cards-2"])
def test_link_dense_takes_a_hover_card_but_not_the_name_or_the_sentence_around_it(page):
    # a person's name is a link followed by its hover card (a picture, the name again, links to
    # three other stories): only the card goes; the sentence of a short paragraph, whose text is
    # mostly the card's links, and the name the sentence reads stay
    html, truth = _structure_page(page)
    text = extract_html(html, mode="text").text
    assert [line for line in text.splitlines() if line] == truth
    assert "MORE" not in text
    without = extract_html(html, mode="text", rules=DEFAULT_RULES - {"article.link_dense"}).text
    assert "MORE" in without


@pytest.mark.parametrize("page", ["cross-references-1", "cross-references-2"])
def test_a_wikis_main_article_line_is_a_link_lead(page):
    # each section of a wiki's article opens with a note box "Main article: <a>...</a>" (or "Main
    # articles: <a>...</a> and <a>...</a>"): a cross-reference to another article, not this one's text;
    # so is the note above it, "For other uses, see <a>...</a>"
    html, truth = _structure_page(page)
    text = extract_html(html, mode="text").text
    assert [line for line in text.splitlines() if line] == truth
    without = extract_html(html, mode="text", rules=DEFAULT_RULES - {"article.link_leads"}).text
    assert "Main article: " in without


def test_a_short_note_box_holding_a_link_is_a_link_lead():
    # a wiki's hatnote above the article (ARIA role "note": ancillary content); a note without a
    # link (an editor's note) and a long one stay
    other = "<div role='note' class='hatnote'>For other uses, see <a href='/x'>Rivers (disambiguation)</a>.</div>"
    assert "For other uses" not in _clean(other + PARAGRAPH * 2, DEFAULT_RULES)
    assert "For other uses" in _clean(other + PARAGRAPH * 2, DEFAULT_RULES - {"article.link_leads"})
    editor = "<div role='note'>Editor's note: this story was updated on Monday to correct a date.</div>"
    assert "Editor's note" in _clean(editor + PARAGRAPH * 2, DEFAULT_RULES)
    long_note = "<div role='note'>%s <a href='/x'>more</a></div>" % ("A note of the article's own. " * 8)
    assert "A note of the article" in _clean(long_note + PARAGRAPH * 2, DEFAULT_RULES)


@pytest.mark.parametrize("page", ["comments-1", "link-items-2"])
def test_the_heading_of_a_box_left_out_after_the_article_goes_too(page):
    # the heading of the reader comment thread ("4 responses") or of the list of earlier reports
    # ("Earlier reports") stayed when the thread or the list went, the last line of the text
    html, truth = _structure_page(page)
    assert [line for line in extract_html(html, mode="text").text.splitlines() if line] == truth
    without = extract_html(html, mode="text", rules=DEFAULT_RULES - {"article.end_headings"}).text
    assert [line for line in without.splitlines() if line][-1] in ("4 responses", "Earlier reports")


def test_a_heading_with_text_after_it_or_alone_stays():
    # a last section's heading and its paragraph; an article of one heading (nothing else holds text);
    # a heading followed by text in its own tail; a picture after the heading does not keep it
    assert "Conclusion" in _clean(PARAGRAPH + "<h2>Conclusion</h2>" + PARAGRAPH, DEFAULT_RULES)
    assert "Rivers of Europe" in _clean(
        "<h2>Rivers of <em>Europe</em></h2><div><img src='/a.png'></div>", DEFAULT_RULES
    )
    assert "Closing words" in _clean(PARAGRAPH + "<div><h3>Note</h3>Closing words of the writer.</div>", DEFAULT_RULES)
    assert "Gallery" not in _clean(PARAGRAPH + "<h3>Gallery</h3><p><img src='/a.png'>\u00a0</p>", DEFAULT_RULES)
    text = _clean(PARAGRAPH + "<h3>More</h3><h4>From <b>us</b></h4>", DEFAULT_RULES)
    assert "More" not in text and "From" not in text and "A real paragraph" in text


def test_a_sentence_opening_with_main_article_is_no_link_lead():
    # the lead is a label followed by its colon, not words of a sentence
    sentence = "<p>Main article writers were paid by the line, the <a href='/x'>history</a> says.</p>"
    assert "Main article writers" in _clean(PARAGRAPH + sentence, DEFAULT_RULES)


def test_a_few_words_before_a_span_of_links_go_with_it():
    # outside the span, "More from us" is no sentence: the paragraph goes whole, not only its span
    links = "".join(
        "<a href='/%d'>%s</a> " % (n, text)
        for n, text in enumerate(
            ["Council approves new play area", "Spring fair raises record sum", "Letters: parking on the green"]
        )
    )
    html = PARAGRAPH + "<p>More from us <span>%s</span></p>" % links + PARAGRAPH
    text = _clean(html, DEFAULT_RULES)
    assert "More from us" not in text and "Spring fair" not in text


@pytest.mark.parametrize("page", ["split-body-1", "split-body-2"])
def test_a_paragraph_between_two_appended_blocks_is_appended_in_its_place(page):
    html, truth = _structure_page(page)
    text = extract_html(html, mode="text").text
    assert [line for line in text.splitlines() if line] == truth
    without = extract_html(html, mode="text", rules=DEFAULT_RULES - {"readability.sibling_gaps"}).text
    assert truth[1] not in without


@pytest.mark.parametrize("page", ["read-more-1", "read-more-2"])
def test_the_paragraphs_before_a_read_more_wrapper_open_the_article(page):
    html, truth = _structure_page(page)
    text = extract_html(html, mode="text").text
    assert [line for line in text.splitlines() if line] == truth


def test_paragraphs_after_the_wrapper_are_left_out():
    # what follows an article's body is as often a disclosure line as more of it
    html, truth = _structure_page("read-more-1")
    closing = "<p>%s</p>" % ("This page may earn a commission from links to shops, at no cost to you. " * 2)
    html = html.replace("</div></div>\n</div></div>", "</div></div>\n%s</div></div>" % closing, 1)
    assert "commission" in html
    assert [line for line in extract_html(html, mode="text").text.splitlines() if line] == truth


@pytest.mark.parametrize("page", ["sections-1", "sections-2"])
def test_a_short_section_between_two_merged_sections_is_merged_in_its_place(page):
    html, truth = _structure_page(page)
    text = extract_html(html, mode="text").text
    assert [line for line in text.splitlines() if line] == truth


def test_a_photo_between_two_merged_sections_stays_out():
    # a page built of components gives its photos the class of its text boxes
    html, truth = _structure_page("sections-1")
    photo = (
        '<section class="sec"><div class="sec-inner"><figure><img src="/flood.jpg" alt="">'
        "<figcaption>The lower road under water on the first night, seen from the bridge.</figcaption>"
        "</figure></div></section>"
    )
    html = html.replace("<hr>", "<hr>%s<hr>" % photo, 1)
    assert "The lower road under water" in html
    text = extract_html(html, mode="text").text
    assert "The lower road under water" not in text
    assert [line for line in text.splitlines() if line] == truth


def test_unknown_rule_names_are_refused():
    assert check_rules(["article.title"]) == {"article.title"}
    with pytest.raises(ValueError, match="article.nope"):
        check_rules(["article.title", "article.nope"])
    with pytest.raises(ValueError):
        extract_html("<p>x</p>", mode="text", rules={"page.nope"})
    assert extract_html("<p>plain text</p>", mode="text", rules=()).text == "plain text"


SENTENCE = (
    "Gunmen opened fire on visitors at the museum on Wednesday, killing at least nineteen people in an assault "
    "that threatened the country's tourism."
)


@pytest.mark.parametrize(
    "inline",
    [
        "<span class='dateline'>CAIRO —</span>",
        "<b class='byline-city'>CAIRO —</b>",
        "<a class='author' href='/a'>CAIRO —</a>",
    ],
)
def test_a_class_word_on_an_inline_element_inside_a_sentence_removes_nothing(inline):
    """A dateline opening the first sentence is the sentence's: a class word on an inline element
    of a paragraph with running text beside it names a word of the text, not a box."""
    text = _clean(PARAGRAPH + "<p>%s %s</p>" % (inline, SENTENCE) + PARAGRAPH, DEFAULT_RULES)
    assert "CAIRO — Gunmen opened fire" in text


def test_a_class_word_on_a_byline_paragraph_s_inline_element_still_removes_it():
    html = PARAGRAPH + "<p>By <span class='author'>Jane Smith</span>, staff reporter</p>" + PARAGRAPH
    assert "Jane Smith" not in _clean(html, DEFAULT_RULES)
    html = PARAGRAPH + "<div><span class='dateline'>CAIRO</span> %s</div>" % SENTENCE + PARAGRAPH
    assert "CAIRO" not in _clean(html, DEFAULT_RULES)  # not a paragraph: a box of its own may be anything
