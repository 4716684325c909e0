"""Fragment recovery: when readability selects an implausibly small part of the page's
main text region, the region is returned; a page whose content really is short stays short.
Pages are small synthetic HTML written here, shaped like the layouts that fail."""

import lxml.html

from websearch_sync.extract.article import extract_html
from websearch_sync.extract.region import Region, is_fragment, main_region
from websearch_sync.extract.rules import DEFAULT_RULES

NAV = (
    "<header><nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/blog'>Blog</a> "
    "<a href='/about'>About us</a> <a href='/contact'>Contact</a></nav></header>"
)
FOOTER = "<footer><p>Copyright 2021 Example Media. All rights reserved. <a href='/privacy'>Privacy</a></p></footer>"

ITEMS = [
    "We landed the new update service, which prevents starting an update while another instance of the "
    "browser is running, the cause of the restart-required page some of you have seen",
    "Users who run several profiles at the same time will see this much less often from now on, and the "
    "team is collecting reports from the nightly channel to confirm the fix",
    "Printing now supports page ranges that are not contiguous, such as one to three, six and seven, "
    "which was one of the oldest open requests in the tracker",
    "The developer tools and the automation framework are now fully compatible with site isolation, "
    "congratulations to both teams for the long effort it took",
    "Nightly users can help us test site isolation by enabling it in the experimental preferences and "
    "filing bugs for anything that looks broken or slow",
    "Search engines can now be disabled one by one for tab-to-search by unchecking them in the search "
    "preferences, which hides the shortcut button too",
]

# A post written as lists whose items cite links (bug numbers), with one short notice
# paragraph, in an older layout (no <article> or <main>): readability scores paragraphs
# only and discounts link-rich containers, selects the notice and leaves out the lists
# around it, a fragment of the article.
LIST_POST = (
    "<html><head><title>These weeks in the browser | Example Blog</title></head><body>"
    "<div id='top'><ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li>"
    "<li><a href='/blog'>Blog</a></li><li><a href='/about'>About us</a></li></ul></div>"
    "<div id='page'><div class='box'><h2>These weeks in the browser</h2><div class='inner'>"
    "<h3>Highlights</h3><ul>"
    + "".join("<li>%s (<a href='/bug/%d'>bug %d, fixed</a>).</li>" % (item, n, n) for n, item in enumerate(ITEMS[:3]))
    + "</ul><div class='notice'><p>Marionette, the automation framework, is now compatible too!</p></div>"
    "<h3>Friends of the team</h3><ul>"
    + "".join("<li>%s (<a href='/bug/%d'>bug %d, fixed</a>).</li>" % (item, n, n) for n, item in enumerate(ITEMS[3:]))
    + "</ul></div></div>"
    "<div id='archives'><h3>Archives</h3><ul><li><a href='/2021/01'>January 2021</a></li>"
    "<li><a href='/2020/12'>December 2020</a></li><li><a href='/2020/11'>November 2020</a></li></ul></div>"
    "</div><div id='bottom'><div class='wrap'><p>Copyright 2021 Example Media. All rights reserved.</p></div></div>"
    "</body></html>"
)

COMMENT = (
    "<li><p class='handle'>viewer%d</p><p>I have watched this clip several times now and "
    "every time I notice something new in the background, the camera work in the second half is "
    "really something else, and the music fits it perfectly.</p></li>"
)

# A video page: the content is the clip and two sentences; long comments below it, which
# readability leaves out but the page-level rules keep (several long paragraphs).
VIDEO_PAGE = (
    "<html><head><title>Sunset over the harbour | ExampleTube</title></head><body>"
    + NAV
    + "<main><div class='watch'><h1>Sunset over the harbour</h1>"
    "<div class='player'><video src='/v/1.mp4'></video></div>"
    "<div class='description'><p>A time-lapse of the sun setting over the old harbour, filmed from the "
    "lighthouse on a clear evening in June.</p></div>"
    "<div class='comments'><h3>Comments</h3><ol>" + "".join(COMMENT % i for i in range(6)) + "</ol></div>"
    "</div><div class='up-next'><h3>Up next</h3><ul>"
    + "".join("<li><a href='/v/%d'>Another sunset clip number %d</a></li>" % (i, i) for i in range(8))
    + "</ul></div></main>"
    + FOOTER
    + "</body></html>"
)

REVIEW = "<div class='review'><p class='stars'>%d out of 5</p><p>%s</p></div>"
REVIEWS = ["Great kettle, boils fast.", "Quiet and looks good, happy with it.", "Lid is a bit stiff, otherwise fine."]

# A product page: a short description, specs, three short reviews, a grid of related products.
PRODUCT_PAGE = (
    "<html><head><title>Steel kettle 1.7 l | Example Shop</title></head><body>"
    + NAV
    + "<main><div class='product'><h1>Steel kettle 1.7 l</h1><p class='price'>$39.90</p>"
    "<div class='product-description'><p>A brushed steel kettle with a 1.7 litre capacity, a concealed "
    "element, a washable limescale filter and automatic switch-off. The handle stays cool, and the "
    "base turns all the way round, so it suits left and right hands.</p></div>"
    "<table class='specs'><tr><th>Power</th><td>2200 W</td></tr><tr><th>Weight</th><td>1.1 kg</td></tr></table>"
    "<div class='reviews'><h2>Customer reviews</h2>"
    + "".join(REVIEW % (5 - n, text) for n, text in enumerate(REVIEWS))
    + "</div></div>"
    "<div class='related-products'><h2>You may also like</h2><ul>"
    + "".join(
        "<li><a href='/p/%d'>Product %d, steel, 1.5 l</a> <span>$%d.90</span></li>" % (i, i, 20 + i) for i in range(8)
    )
    + "</ul></div></main>"
    + FOOTER
    + "</body></html>"
)


def _without_recovery():
    return DEFAULT_RULES - {"recovery.fragment", "recovery.tiny", "recovery.second_opinion"}


def test_readability_alone_returns_a_fragment_of_the_list_post():
    # the failure the recovery is for: without it, only the notice comes back
    text = extract_html(LIST_POST, mode="text", rules=_without_recovery()).text
    assert "Marionette" in text
    assert not any(item[:40] in text for item in ITEMS)


def test_a_fragment_is_widened_to_the_main_text_region():
    result = extract_html(LIST_POST, mode="text")
    assert result.extractor == "readability"
    for item in ITEMS:
        assert item in result.text
    assert "Marionette, the automation framework" in result.text
    assert "Highlights" in result.text.split("\n")
    for boilerplate in ("Home", "January 2021", "Copyright"):
        assert boilerplate not in result.text


def test_the_recovered_region_renders_as_markdown_too():
    text = extract_html(LIST_POST, mode="markdown").text
    assert "### Highlights" in text.split("\n")
    assert any(line.startswith("- " + ITEMS[0]) for line in text.split("\n"))


def test_a_video_page_stays_short():
    result = extract_html(VIDEO_PAGE, mode="text")
    assert "A time-lapse of the sun setting over the old harbour" in result.text
    assert "I have watched this clip" not in result.text
    assert "Another sunset clip" not in result.text
    assert len(result.text) < 200
    assert result.text == extract_html(VIDEO_PAGE, mode="text", rules=_without_recovery()).text


def test_a_product_page_stays_short():
    result = extract_html(PRODUCT_PAGE, mode="text")
    assert "A brushed steel kettle with a 1.7 litre capacity" in result.text
    assert "Product 3, steel" not in result.text and "Copyright" not in result.text
    assert len(result.text) < 400
    assert result.text == extract_html(PRODUCT_PAGE, mode="text", rules=_without_recovery()).text


# --------------------------------------------------------------------------- region


def _body(html):
    return lxml.html.document_fromstring(html).find("body")


def test_main_region_is_the_running_text_not_the_link_lists():
    body = _body(
        "<body><ul>"
        + "<li><a href='/x'>a link with a long enough label to count</a></li>" * 10
        + "</ul><div id='text'>"
        + "<p>%s</p>" % ("Running text of the page, long enough. " * 4) * 3
        + "</div><div id='more-links'>"
        + "<a href='/y'>another long link label here</a> " * 10
        + "</div></body>"
    )
    region = main_region(body)
    assert region.element.get("id") == "text"
    assert region.dense_chars == 3 * len("Runningtextofthepage,longenough." * 4)


def test_main_region_leaves_out_skipped_words():
    post = "Short post text, just over the limit." * 2
    body = _body(
        "<body><ul><li><a href='/'>Home page of the site</a></li></ul>"
        "<div id='page'><div id='post'><h2>Post</h2><p>%s</p></div></div>"
        "<div class='comments'>%s</div></body>" % (post, "<p>%s</p>" % ("A long comment. " * 20) * 4)
    )
    assert main_region(body).element.tag == "body"  # post and comments together weigh the most
    region = main_region(body, frozenset({"comments"}))
    assert region.element.get("id") == "page"  # of equal weights, the outermost: with its heading
    assert region.dense_chars == len(post.replace(" ", ""))


def test_is_fragment_thresholds():
    region = Region(element=None, dense_chars=2000)
    assert is_fragment(100, region, inside=True)
    assert not is_fragment(600, region, inside=True)  # a quarter or more of the region
    assert not is_fragment(100, region, inside=False)  # not a part of the region at all
    assert not is_fragment(100, Region(element=None, dense_chars=450), inside=True)  # misses too little
