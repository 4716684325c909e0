"""readability.title_boxes: a box readability appends after an article container that holds
the title heading (a heading and a paragraph of the site's own) is left out, and only then:
the article's next section (sharing the container's class, or after a container without the
title) stays, and the trimmed article is not taken for a fragment of the page."""

import lxml.html

from websearch_sync.extract.article import extract_html
from websearch_sync.extract.boxes import follows_title
from websearch_sync.extract.rules import DEFAULT_RULES

TITLE = "Road closed for resurfacing next week"
ARTICLE = (
    "<p>The high street will be closed between the bridge and the war memorial from Monday to Wednesday next "
    "week while the road is resurfaced. Buses will be diverted along Station Road, and the Tuesday market will "
    "move to the school car park.</p>"
)
ABOUT = (
    "<p>We are an independent community website run by volunteers since 2004. Everything you read here is "
    "written by local people about the places where they live and work. We rely on donations and a small amount "
    "of advertising to cover our costs, and we welcome new contributors of every age. If you would like to write "
    "for us, take photographs or help with the running of the site, please get in touch through the contact "
    "page.</p>"
)
SECOND = (
    "<p>The council says the work is the first of three phases, with the bridge approach to follow in the "
    "summer and the market square, which needs new drainage, in the autumn of next year.</p>"
)
SIDEBAR = (
    "<div id='sidebar'><h3>About</h3><div>Our new look site went live this month. If something you used to find "
    "here has moved, please let us know through the contact page and we will put it back.</div><h3>Letters</h3>"
    "<div>Letters to the editor are welcome on any local subject. Keep them under three hundred words, include "
    "your name and the area where you live, and send them by Tuesday for the weekend edition.</div></div>"
)


def page(main: str) -> str:
    return "<html><head><title>%s | Town news</title></head><body><div id='wrap'>%s%s</div></body></html>" % (
        TITLE,
        main,
        SIDEBAR,
    )


def text(html: str, rules=DEFAULT_RULES) -> str:
    return extract_html(html, mode="text", rules=rules).text


def test_a_short_article_comes_back_without_the_about_box_beside_it():
    html = page(
        "<div class='article'><h1>%s</h1>%s</div><div class='about-us'><h3>About us</h3>%s</div>"
        % (TITLE, ARTICLE, ABOUT)
    )
    extracted = text(html)
    # the box is left out, and the article it leaves is not widened to the page as a fragment
    assert "Station Road" in extracted
    assert "volunteers" not in extracted and "new look site" not in extracted
    assert "volunteers" in text(html, DEFAULT_RULES - {"readability.title_boxes"})


def test_the_next_section_sharing_the_containers_class_is_kept():
    html = page(
        "<div class='section'><h1>%s</h1>%s%s</div><div class='section'><h2>What comes next</h2>%s</div>"
        % (TITLE, ARTICLE, ARTICLE.replace("high street", "road by the station"), SECOND)
    )
    assert "first of three phases" in text(html)


def test_a_heading_opened_sibling_of_a_container_without_the_title_is_kept():
    html = page(
        "<h1>%s</h1><div class='body'>%s</div><div class='more'><h2>What comes next</h2>%s</div>"
        % (TITLE, ARTICLE, SECOND)
    )
    assert "first of three phases" in text(html)


def test_a_block_after_the_title_and_the_article_under_it_does_not_follow_the_title():
    page = lxml.html.fromstring(
        "<div><div><h1>Footbridge reopens</h1><p>"
        + "The river authority opened the new footbridge. " * 2
        + "</p><p>"
        + "Engineers raised the deck above the spring high water. " * 2
        + "</p></div>"
        "<div class='more'><p>Other stories</p></div>"
        "<div><h1>Footbridge reopens</h1><p>By the town reporter</p></div><div class='body'><p>Text.</p></div></div>"
    )
    after_article, after_heading = page.find_class("more")[0], page.find_class("body")[0]
    assert not follows_title(after_article, "Footbridge reopens")  # the sibling is the article itself
    assert follows_title(after_heading, "Footbridge reopens")  # a heading with a byline: the title's block


def test_a_block_after_the_title_and_its_standfirst_follows_the_title():
    """A standfirst of 100+ characters under the title is the title's block, not the article (a
    reviewer's page: the body after it lost its "from the title on", and the teaser cards after
    the body were kept)."""
    page = lxml.html.fromstring(
        "<div><div class='head'><h1>Footbridge reopens</h1><p>"
        + "After eighteen months of work on the old stone piers, walkers can cross the river again. " * 2
        + "</p></div><div class='story'><p>Text.</p></div></div>"
    )
    assert follows_title(page.find_class("story")[0], "Footbridge reopens")
