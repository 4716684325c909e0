"""Builds the structures set (``html/<name>.html.gz`` and ``ground-truth.json``) from the
hand-written texts of ``articles.py``: each page wraps its article in the markup of one
structure (see README.md), with navigation, sidebars, boxes and comments around it.

    python bench/extraction-structures/build.py

Deterministic: the same texts give the same files. The truth of a page is its paragraphs,
one per line (the title is not part of it, as in the article-extraction benchmark)."""

import gzip
import html
import json
import os
import sys
from typing import Callable, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from articles import ARTICLES  # noqa: E402

SITES = ["Valley Gazette", "Riverside Community Pages", "The Hill Society", "Harbour Notes", "Northfield Online"]
NAV = ["Home", "News", "Events", "Clubs and societies", "What's on", "Photo gallery", "Contact us", "Archive"]
SIDEBAR_LINKS = ["Council meeting dates", "Bin collection calendar", "Local weather", "Classified adverts",
                 "Submit your news", "Advertise with us", "Recent photos", "Letters to the editor"]
SITE_NEWS = ("Our new look site went live this month. If something you used to find here has moved, "
             "please let us know through the contact page and we will put it back.")
AD_TEXT = "Family run garage. Servicing, MOTs and repairs at fair prices. Call today for a free quote."
FOOTER = ("Copyright the publishers. All rights reserved. Material on this site may not be reproduced "
          "without permission. We are not responsible for the content of external sites.")
NEWSLETTER = ("Get the week's local news, events and offers delivered to your inbox every Friday morning. "
              "Sign up to our free newsletter today and never miss a story from your area again. "
              "You can unsubscribe at any time, and we will never share your email address with anyone else.")
ABOUT = ("We are an independent community website run by volunteers since 2004. Everything you read here "
         "is written by local people about the places where they live and work. We rely on donations and "
         "a small amount of advertising to cover our costs, and we welcome new contributors of every age. "
         "If you would like to write for us, take photographs or help with the running of the site, "
         "please get in touch through the contact page.")
COMMENTS = [
    ("Margaret", "This brought back so many memories. My grandmother used to do exactly the same thing and "
                 "I never thought to ask her how she learned it. Thank you for writing it all down so clearly, "
                 "I will be sharing it with my own children this weekend."),
    ("Dave R", "Great write-up. I tried this last year and ran into the same problem you describe in the second "
               "part, but I never worked out what caused it. Next time I will take it more slowly and see whether "
               "that makes the difference, because I suspect I was rushing it as well."),
    ("Anon", "I am not sure I agree with all of this. In my experience the advice in the third paragraph only works "
             "in some situations, and it depends very much on where you live and what you have available. "
             "Still, a useful starting point for anyone who is new to it."),
    ("Jo from the allotments", "Lovely piece. Would you consider doing a follow-up with photographs? Some of us learn "
                               "much better from pictures than from words, and I think a few more people would give "
                               "it a go if they could see each step."),
]
RELATED = ["Council approves new play area", "Spring fair raises record sum", "Letters: parking on the green",
           "Photo gallery: the carnival procession", "Planning application for old garage site"]

TEASERS = [
    ("Spring fair raises record sum", "Stalls, a dog show and a tug of war between the two pubs brought in more money for the school "
     "than any fair before it, and the organisers are already planning next year's."),
    ("Council approves new play area", "The play area behind the sports field will get new swings, a climbing frame and a ramp for "
     "wheelchairs after councillors agreed the plans at their meeting on Tuesday night."),
    ("Letters: parking on the green", "Readers write about cars left on the verge outside the shop, the state of the footpath to "
     "the station and the sound of the church bells on Sunday mornings."),
    ("Cricket club looks for new players", "The second eleven is short of players for the coming season, and the club is holding "
     "open nets on Friday evenings for anyone who would like to give the game a try."),
    ("Planning application for old garage site", "A developer wants to build eight houses on the site of the old garage, and "
     "residents have until the end of the month to send their comments to the district council."),
    ("Photo gallery: the carnival procession", "Floats, marching bands and hundreds of people in fancy dress filled the high "
     "street for the carnival, and our photographers were there to capture the best moments."),
    ("Surgery to open on Saturday mornings", "The health centre will open for booked appointments on Saturday mornings from next "
     "month, after patients complained that they could not get time off work to see a doctor."),
    ("Walking group heads for the hills", "The walking group's summer programme includes a long day on the ridge, a gentle stroll "
     "along the canal and an evening walk ending with fish and chips by the harbour."),
]
AUTHOR_BIO = ("Sam Baker has written for the community pages since 2011. When not writing, Sam can usually be found on the "
              "allotment, walking the dog on the common or arguing about the cricket at the club bar.")
FACTS = ["Length of wall rebuilt: 40 metres", "Stone used: local limestone", "Time taken: four weekends",
         "Helpers: nine volunteers"]
BOX_TEXT = ("Want to learn more? The county wildlife trust runs free evening talks in the village hall through the winter, "
            "and the library keeps a shelf of practical guides that can be borrowed for three weeks at a time.")
CAPTION = ("Volunteers at work on Saturday morning, with the village in the background. Picture supplied by the "
           "organisers, who would like to thank everyone who came along to help.")
NOTICES = [
    "The parish council meets on the second Tuesday of each month in the village hall at half past seven, and members "
    "of the public are welcome to attend and to raise questions at the start of the meeting.",
    "The mobile library calls at the green every other Wednesday between two and three in the afternoon. Large print "
    "books and audio books can be ordered in advance from the main library.",
    "Volunteer drivers are needed to take older residents to hospital appointments. Mileage is paid, and you can "
    "offer as little as one morning a month. Please call the village office for details.",
    "The recycling centre on the industrial estate has new opening hours and is now closed on Wednesdays and "
    "Thursdays throughout the year, including bank holidays.",
    "Lost property handed in at the village shop this month includes a child's blue bicycle helmet, a set of car "
    "keys on a red fob and a pair of reading glasses in a brown case.",
]


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def links(names: List[str], sep: str = "<br>\n") -> str:
    return sep.join('<a href="/%s">%s</a>' % (name.lower().replace(" ", "-").replace("'", ""), esc(name)) for name in names)


def head(title: str, site: str) -> str:
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>%s | %s</title>\n'
            '<link rel="stylesheet" href="/style.css"></head>\n' % (esc(title), esc(site)))


def comment_list(style: int) -> str:
    """A reader comment thread, its class words varied by ``style``."""
    outer, item, body = [("commentlist main", "even thread-even", "comment-body"),
                         ("article-comments", "byuser", "commentBody"),
                         ("usercomments-column", "item", "text"), ("responses", "response", "response-text"),
                         ("replies", "reply", "reply-content")][style % 5]
    items = "".join('<li class="%s"><div class="meta"><b>%s</b> said:</div><div class="%s"><p>%s</p></div></li>\n'
                    % (item, esc(name), body, esc(text)) for name, text in COMMENTS)
    return '<h3>%d responses</h3>\n<ol class="%s">\n%s</ol>\n' % (len(COMMENTS), outer, items)


def table_rows(title: str, paras: List[str], i: int) -> str:
    site = SITES[i % 5]
    rows = "".join('<tr><td class="text">%s</td></tr>\n' % esc(p) for p in paras)
    return (head(title, site) + '<body bgcolor="#ffffff"><table width="100%%" cellpadding="4">'
            '<tr><td colspan="3" class="banner"><font size="6">%s</font></td></tr>\n'
            '<tr><td width="150" valign="top" class="nav">%s</td>\n'
            '<td valign="top"><table width="100%%"><tr><td><font size="5"><b>%s</b></font></td></tr>\n%s</table></td>\n'
            '<td width="180" valign="top" class="side"><b>Links</b><br>%s<br><br><b>Site news</b><br>%s</td></tr>\n'
            '<tr><td colspan="3" class="foot"><small>%s</small></td></tr></table></body></html>\n'
            % (esc(site), links(NAV), esc(title), rows, links(SIDEBAR_LINKS), esc(SITE_NEWS), esc(FOOTER)))


def table_cells(title: str, paras: List[str], i: int) -> str:
    site = SITES[i % 5]
    half = (len(paras) + 1) // 2
    cells = ["".join("<p>%s</p>" % esc(p) for p in part) for part in (paras[:half], paras[half:])]
    return (head(title, site) + '<body><table width="100%%"><tr><td colspan="2">%s</td></tr>\n'
            '<tr><td valign="top" width="20%%">%s</td><td valign="top"><h2>%s</h2>\n'
            '<table><tr><td valign="top" width="50%%">%s</td>\n<td valign="top" width="50%%">%s</td></tr></table></td></tr>\n'
            '<tr><td></td><td><p>%s</p>%s</td></tr>\n<tr><td colspan="2"><small>%s</small></td></tr></table></body></html>\n'
            % (esc(site), links(NAV), esc(title), cells[0], cells[1], esc(AD_TEXT),
               links(RELATED, " | "), esc(FOOTER)))


def table_split(title: str, paras: List[str], i: int) -> str:
    """The article's paragraphs in <p> across rows of one table (two, then one per row):
    readability keeps the cell with the most text and only the rows that score high enough
    beside it."""
    site = SITES[i % 5]
    parts = [paras[:2]] + [[p] for p in paras[2:]]
    rows = "".join('<tr><td valign="top" class="text">%s</td></tr>\n' % "".join("<p>%s</p>" % esc(p) for p in part)
                   for part in parts)
    return (head(title, site) + '<body><table width="760" align="center"><tr><td colspan="2" class="banner">%s</td></tr>\n'
            '<tr><td width="170" valign="top" class="nav">%s</td><td valign="top"><h2>%s</h2>\n'
            '<table width="100%%" cellpadding="2">%s</table></td></tr>\n'
            '<tr><td colspan="2"><small>%s</small></td></tr></table></body></html>\n'
            % (esc(site), links(NAV + SIDEBAR_LINKS), esc(title), rows, esc(FOOTER)))


def table_br(title: str, paras: List[str], i: int) -> str:
    site = SITES[i % 5]
    text = "<br><br>\n".join(esc(p) for p in paras)
    return (head(title, site) + '<body><table border="0" width="100%%"><tr>\n'
            '<td valign="top" width="160" class="menu">%s<br><br>%s</td>\n'
            '<td valign="top" class="content"><font face="Arial"><b>%s</b><br><br>\n%s</font></td>\n'
            '<td valign="top" width="200" class="right"><b>Advertisement</b><br>%s<br><br><b>Site news</b><br>%s'
            '<br><br>%s</td></tr>\n<tr><td colspan="3"><small>%s</small></td></tr></table></body></html>\n'
            % (links(NAV), links(SIDEBAR_LINKS), esc(title), text, esc(AD_TEXT), esc(SITE_NEWS),
               links(RELATED), esc(FOOTER)))


def table_row_split(title: str, paras: List[str], i: int) -> str:
    """The article's paragraphs in <p> (wrapped in a <div> or <font>) across three rows of the
    layout table itself, the navigation and sidebar cells spanning those rows: readability
    keeps the wrapper with the most text, a third to a half of the article, and nothing of
    the other rows."""
    site = SITES[i % 5]
    parts = [paras[:2], paras[2:3], paras[3:]] if i % 2 else [paras[:1], paras[1:3], paras[3:]]
    wrap = '<font face="Verdana">%s</font>' if i % 3 else '<div class="text">%s</div>'
    cells = ['<td valign="top">%s</td>' % (wrap % "".join("<p>%s</p>" % esc(p) for p in part)) for part in parts]
    cells[0] = cells[0].replace(">", "><h2>%s</h2>" % esc(title), 1)
    return (head(title, site) + '<body><table width="100%%" cellpadding="4">'
            '<tr><td colspan="3"><font size="6">%s</font></td></tr>\n'
            '<tr><td width="150" valign="top" rowspan="3">%s</td>%s\n'
            '<td width="180" valign="top" rowspan="3"><b>Links</b><br>%s<br><br><b>Site news</b><br>%s</td></tr>\n'
            '<tr>%s</tr>\n<tr>%s</tr>\n'
            '<tr><td colspan="3"><small>%s</small></td></tr></table></body></html>\n'
            % (esc(site), links(NAV), cells[0], links(SIDEBAR_LINKS), esc(SITE_NEWS), cells[1], cells[2], esc(FOOTER)))


def _page(title: str, i: int, main: str) -> str:
    site = SITES[i % 5]
    return (head(title, site) + '<body><div id="header"><div class="logo">%s</div><div class="menu">%s</div></div>\n'
            '<div id="wrap">%s\n<div id="sidebar"><h3>Latest</h3><ul>%s</ul><h3>About</h3><div>%s</div></div></div>\n'
            '<div id="footer">%s</div></body></html>\n'
            % (esc(site), links(NAV, " | "), main, "".join("<li>%s</li>" % links([r]) for r in RELATED),
               esc(SITE_NEWS), esc(FOOTER)))


def br_text(title: str, paras: List[str], i: int) -> str:
    return _page(title, i, '<div id="content"><h2>%s</h2>\n%s<br>\n</div>' % (esc(title), "<br><br>\n".join(esc(p) for p in paras)))


def div_text(title: str, paras: List[str], i: int) -> str:
    body = "".join("<div>%s</div>\n<div>&nbsp;</div>\n" % esc(p) for p in paras)
    return _page(title, i, '<div class="main"><div class="title">%s</div>\n%s</div>' % (esc(title), body))


def _article(title: str, paras: List[str]) -> str:
    return "<h1>%s</h1>\n%s" % (esc(title), "".join("<p>%s</p>\n" % esc(p) for p in paras))


def unclosed_title(title: str, paras: List[str], i: int) -> str:
    page = _page(title, i, '<div class="story">%s</div>' % _article(title, paras))
    return page.replace("</title>", "", 1)


def stray_html_end(title: str, paras: List[str], i: int) -> str:
    page = _page(title, i, '<div class="story">%s</div>' % _article(title, paras))
    return page.replace('<div id="wrap">', "</body></html>\n<div id=\"wrap\">", 1)


def unclosed_head(title: str, paras: List[str], i: int) -> str:
    page = _page(title, i, '<div class="story">%s</div>' % _article(title, paras))
    return page.replace("</head>", '<script type="text/javascript">var section = "news";</script>\n', 1).replace("<body>", "", 1)


def comments_inside(title: str, paras: List[str], i: int) -> str:
    main = ('<div id="content"><div class="post"><h1>%s</h1>%s\n'
            '<div class="postmeta">Posted in <a href="/c">Notes</a></div>\n%s</div></div>'
            % (esc(title), "".join("<p>%s</p>\n" % esc(p) for p in paras), comment_list(i)))
    return _page(title, i, main)


def short_boxes(title: str, paras: List[str], i: int) -> str:
    main = ('<div class="article"><h1>%s</h1><div class="date">12 March</div>%s</div>\n'
            '<div class="newsletter-box"><h3>Never miss a story</h3><p>%s</p><form><input type="email"></form></div>\n'
            '<div class="about-us"><h3>About us</h3><p>%s</p></div>'
            % (esc(title), "".join("<p>%s</p>" % esc(p) for p in paras), esc(NEWSLETTER), esc(ABOUT)))
    return _page(title, i, main)


def tabs(title: str, paras: List[str], i: int) -> str:
    names = ["Overview", "Details", "Tips"]
    hidden = [' class="tab-pane active" role="tabpanel"', ' class="tab-pane" role="tabpanel" style="display: none"',
              ' class="tab-pane" role="tabpanel" hidden']
    panes = "".join('<div id="tab%d"%s><p>%s</p></div>\n' % (n, hidden[n % 3], esc(p)) for n, p in enumerate(paras))
    tablist = "".join('<li><a href="#tab%d">%s</a></li>' % (n, names[n % 3]) for n in range(len(paras)))
    return _page(title, i, '<div class="story"><h1>%s</h1><ul class="tabs" role="tablist">%s</ul>\n%s</div>'
                 % (esc(title), tablist, panes))


def _cards(style: int, count: int = 6) -> str:
    """A run of teaser cards, each a linked headline and a summary paragraph."""
    items = TEASERS[style % 3 : style % 3 + count]
    if style % 3 == 0:
        return '<div class="cards">%s</div>\n' % "".join(
            '<div class="card"><h3>%s</h3><p>%s</p></div>\n' % (links([h]), esc(s)) for h, s in items)
    if style % 3 == 1:
        return '<section class="stream"><h2>Latest</h2><ul>%s</ul></section>\n' % "".join(
            '<li><a href="/s%d"><h4>%s</h4></a><p>%s</p><span class="time">%d hours ago</span></li>\n'
            % (n, esc(h), esc(s), n + 2) for n, (h, s) in enumerate(items))
    return '<div class="grid">%s</div>\n' % "".join(
        '<div class="grid-item"><div class="kicker">Community</div>%s<p class="dek">%s</p></div>\n' % (links([h]), esc(s))
        for h, s in items)


def teaser_run(title: str, paras: List[str], i: int) -> str:
    """A short article (one or two short paragraphs) beside a run of teaser cards that hold
    more text than it does."""
    body = "".join("<p>%s</p>" % esc(p) for p in paras)
    article = [
        '<div class="story"><h1>%s</h1>%s</div>\n',
        '<article><h1>%s</h1><div class="body">%s</div></article>\n',
        '<main><div class="entry"><h2>%s</h2>%s</div>\n',
    ][i % 3] % (esc(title), body)
    return _page(title, i, article + _cards(i) + ("</main>" if i % 3 == 2 else ""))


def cards_after_title(title: str, paras: List[str], i: int) -> str:
    """A short article under its title heading in a block of its own, and after that block a
    run of teaser cards holding more text: readability picks the cards."""
    article = '<div class="wrap"><h1>%s</h1><div class="text">%s</div></div>\n' % (
        esc(title), "".join("<p>%s</p>" % esc(p) for p in paras))
    return _page(title, i, '<div class="main">%s%s</div>' % (article, _cards(i, 8)))


def untitled_cards(title: str, paras: List[str], i: int) -> str:
    """A short article whose container holds no title heading (the title is a line of the
    page's header), and a run of teaser cards after it in the same column."""
    return _page(title, i, '<div class="headline">%s</div><div class="main"><div class="text">%s</div>%s</div>' % (
        esc(title), "".join("<p>%s</p>" % esc(p) for p in paras), _cards(i + 1, 8)))


def column_lists(title: str, paras: List[str], i: int) -> str:
    """A short article in a column that also holds teasers written without ``<p>`` (a headline
    link and a summary line) and a list of links: the column has far more running text than
    the article."""
    if i % 2:
        teasers = '<ul class="list">%s</ul>' % "".join(
            "<li>%s<br><span>%s</span></li>\n" % (links([h]), esc(s)) for h, s in TEASERS)
    else:
        teasers = '<div class="list">%s</div>' % "".join(
            '<div class="item">%s<div class="summary">%s</div></div>\n' % (links([h]), esc(s)) for h, s in TEASERS)
    main = ('<div id="main-col"><div class="article"><h1>%s</h1>%s</div>\n<h3>In other news</h3>%s\n'
            '<h3>Most read</h3><ul>%s</ul></div>'
            % (esc(title), "".join("<p>%s</p>\n" % esc(p) for p in paras), teasers,
               "".join("<li>%s</li>" % links([r]) for r in RELATED)))
    return _page(title, i, main)


def inner_boxes(title: str, paras: List[str], i: int) -> str:
    """An article with boxes inside it that are not its text: a fact box classed as a
    sidebar, an article header with a kicker, byline and share line, a photo caption."""
    ps = ["<p>%s</p>\n" % esc(p) for p in paras]
    if i % 3 == 0:
        box = ('<div class="sidebar-box"><h4>Key facts</h4><ul>%s</ul><p>%s</p></div>\n'
               % ("".join("<li>%s</li>" % esc(f) for f in FACTS), esc(BOX_TEXT)))
        main = '<div class="post-content"><h1>%s</h1>%s%s%s</div>' % (esc(title), ps[0], box, "".join(ps[1:]))
    elif i % 3 == 1:
        header = ('<div class="article-header"><span class="kicker"><a href="/news">Nature</a></span><h1>%s</h1>'
                  '<div class="meta">By Sam Baker, community reporter | 12 March | 4 minute read</div>'
                  '<div class="share">Share this story with friends and neighbours: Facebook, Twitter, Email</div></div>\n'
                  % esc(title))
        photo = '<div class="photo"><img src="/p.jpg" alt=""><div class="photocaption">%s</div></div>\n' % esc(CAPTION)
        main = '<div class="article">%s%s%s%s</div>' % (header, ps[0], photo, "".join(ps[1:]))
    else:
        figure = '<figure><img src="/p.jpg" alt=""><figcaption>%s</figcaption></figure>\n' % esc(CAPTION)
        box = '<div class="articleSidebar"><h3>Did you know?</h3><p>%s</p></div>\n' % esc(BOX_TEXT)
        main = '<div class="entry"><h1>%s</h1>%s%s%s%s</div>' % (esc(title), figure, ps[0], "".join(ps[1:2]) + box,
                                                                 "".join(ps[2:]))
    return _page(title, i, main)


def after_end(title: str, paras: List[str], i: int) -> str:
    """An article whose container goes on after its last paragraph: an author box and a
    copyright line, a run of teasers, or footer-like lines."""
    ps = "".join("<p>%s</p>\n" % esc(p) for p in paras)
    if i % 3 == 0:
        after = ('<div class="author-box"><img src="/a.jpg" alt=""><h4>About the author</h4><p>%s</p></div>\n'
                 '<p class="copyright">%s</p>' % (esc(AUTHOR_BIO), esc(FOOTER)))
    elif i % 3 == 1:
        after = '<div class="more-stories"><h3>More from this section</h3>%s</div>' % "".join(
            '<div><h4>%s</h4><p>%s</p></div>\n' % (links([h]), esc(s)) for h, s in TEASERS[:4])
    else:
        after = ('<p>Posted by the editor at 10:42 in Local news | Permalink</p>\n'
                 '<p>Share this: Facebook | Twitter | Email | Print this page</p>\n'
                 '<p>Copyright 2016 the publishers. All rights reserved. This material may not be published, '
                 'broadcast, rewritten or redistributed without permission.</p>')
    return _page(title, i, '<div class="post"><h1>%s</h1>\n%s%s</div>' % (esc(title), ps, after))


def table_cell(title: str, paras: List[str], i: int) -> str:
    """A layout table whose article cell holds less text than a noticeboard cell beside it
    (notices in ``<p>``, one per paragraph)."""
    site = SITES[i % 5]
    notices = "".join("<p>%s</p>" % esc(n) for n in NOTICES)
    article = ('<td valign="top" class="main"><h2>%s</h2>%s</td>'
               % (esc(title), "".join("<p>%s</p>" % esc(p) for p in paras)))
    side = '<td valign="top" width="240"><h3>Noticeboard</h3>%s</td>' % notices
    middle = article + "\n" + side if i % 2 else side + "\n" + article
    return (head(title, site) + '<body><table width="100%%" cellspacing="0"><tr><td colspan="3">%s</td></tr>\n'
            '<tr><td width="140" valign="top">%s</td>\n%s</tr>\n<tr><td colspan="3"><small>%s</small></td></tr>'
            '</table></body></html>\n' % (esc(site), links(NAV), middle, esc(FOOTER)))


def table_br_cell(title: str, paras: List[str], i: int) -> str:
    """``<br>`` text in a table cell mixed with other markup: a heading and a date line above
    it, single ``<br>`` line breaks inside paragraphs, an image between paragraphs and, in a
    neighbouring cell, ``<br>``-separated link lists."""
    site = SITES[i % 5]
    lines = []
    for n, p in enumerate(paras):
        half = p.find(". ") + 1
        lines.append("%s<br>\n%s" % (esc(p[:half]), esc(p[half:].strip())) if half and n % 2 == 0 else esc(p))
    text = '<br><br>\n<img src="/pic.jpg" alt=""><br><br>\n'.join(["<br><br>\n".join(lines[:2])] + lines[2:])
    cell = ('<td valign="top"><b><font size="4">%s</font></b><br>\n<i>Added 3 March</i><br><br>\n%s</td>'
            % (esc(title), text))
    if i % 2:
        cell = cell.replace('<td valign="top">', '<td valign="top"><div align="left"><font face="Verdana" size="2">', 1)
        cell = cell.replace("</td>", "</font></div></td>")
    side = '<td valign="top" width="180">%s<br><br>%s</td>' % (links(SIDEBAR_LINKS), links(RELATED))
    return (head(title, site) + '<body><table width="760"><tr><td colspan="2"><font size="6">%s</font><br>%s</td></tr>\n'
            '<tr>%s\n%s</tr>\n<tr><td colspan="2"><small>%s</small></td></tr></table></body></html>\n'
            % (esc(site), links(NAV, " | "), cell, side, esc(FOOTER)))


def hidden_panels(title: str, paras: List[str], i: int) -> str:
    """An article whose later paragraphs sit in panels hidden by CSS that are not tabs: a
    "read more" expander, or the pages of a paginated article."""
    ps = ["<p>%s</p>\n" % esc(p) for p in paras]
    if i % 2 == 0:
        main = ('<div class="story"><h1>%s</h1>%s<a href="#" class="more-link">Continue reading</a>\n'
                '<div class="more-text" style="display:none">%s</div></div>' % (esc(title), "".join(ps[:2]), "".join(ps[2:])))
    else:
        pages = "".join('<div class="page" id="page%d"%s>%s</div>\n'
                        % (n + 1, "" if n == 0 else ' style="display: none;"', "".join(ps[2 * n : 2 * n + 2]))
                        for n in range(2))
        main = ('<div class="story"><h1>%s</h1>%s<div class="pager"><a href="#page1">1</a> <a href="#page2">2</a> '
                '<a href="#page2">Next page</a></div></div>' % (esc(title), pages))
    return _page(title, i, main)


def related_widget(title: str, paras: List[str], i: int) -> str:
    """A blog post whose content block goes on with a share box and a related-posts widget, its
    class names written as one word (``relatedposts``, ``relatedarticles``): items of an image
    link, a linked headline, an excerpt, a date and a category line."""
    word = ("relatedposts", "relatedarticles")[i % 2]
    items = "".join(
        '<div class="%s-post"><a href="/r%d"><img src="/r%d.jpg" alt=""></a><h4 class="%s-title">%s</h4>'
        '<p class="%s-excerpt">%s</p><p class="%s-date">%d March</p><p class="%s-context">In "Local news"</p></div>\n'
        % (word, n, n, word, links([h]), word, esc(s), word, n + 3, word)
        for n, (h, s) in enumerate(TEASERS[3 * (i % 2) : 3 * (i % 2) + 3])
    )
    widget = ('<div class="sharedaddy"><h3>Share this:</h3><ul><li>%s</li></ul></div>\n'
              '<div id="%s" class="%s"><h3 class="%s-headline"><em>Related</em></h3><div class="%s-items">\n%s</div></div>'
              % (links(["Facebook", "Twitter", "Email"], "</li><li>"), word, word, word, word, items))
    main = ('<article class="post"><header class="entry-header"><h1 class="entry-title">%s</h1>'
            '<div class="entry-meta">Posted on 12 March by the editor</div></header>\n<div class="entry-content">%s%s</div>'
            '</article>' % (esc(title), "".join("<p>%s</p>\n" % esc(p) for p in paras), widget))
    return _page(title, i, main)


def link_items(title: str, paras: List[str], i: int) -> str:
    """A progress report: an introduction, then a list of sentences, two of which are mostly one
    link (a name, then a linked account of what was done), the others text with a link or none;
    a list of links to related reports after it."""
    def item(n: int, text: str) -> str:
        if n % 2:
            name, rest = text.split(" ", 1)
            return '<li>%s <a href="/work/%d">%s</a></li>' % (esc(name), n, esc(rest))
        return "<li>%s</li>" % esc(text)
    main = ('<div class="post"><h1>%s</h1>\n<p>%s</p>\n<ul>\n%s\n</ul>\n<h3>Earlier reports</h3>\n<ul class="more">%s</ul></div>'
            % (esc(title), esc(paras[0]), "\n".join(item(n, p) for n, p in enumerate(paras[1:])),
               "".join("<li>%s</li>" % links([r]) for r in RELATED)))
    return _page(title, i, main)


def split_body(title: str, paras: List[str], i: int) -> str:
    """An article whose first three paragraphs sit in its container and the rest in a wrapper
    inside it (a "read more" expander's markup): readability picks the wrapper and appends the
    paragraphs before it by their own text, which for the second, opening with a link or with
    emphasis, ends before its first word."""
    name, rest = paras[1].split(" ", 1)
    second = ('<p><a href="/people/%d">%s</a> %s</p>' if i % 2 else "<p><em>%s</em> %s</p>") % (
        *((i,) if i % 2 else ()), esc(name), esc(rest))
    main = ('<div class="column"><h1>%s</h1>\n<p>%s</p>\n%s\n<p>%s</p>\n<div class="more">\n%s</div></div>'
            % (esc(title), esc(paras[0]), second, esc(paras[2]), "".join("<p>%s</p>\n" % esc(p) for p in paras[3:])))
    return _page(title, i, main)


def read_more(title: str, paras: List[str], i: int) -> str:
    """An article whose first three paragraphs sit in its body (the first in a box of its own,
    a standfirst) and the rest in the content box of a "Read more" wrapper (an expander: its link, an empty ad slot, the content box), an empty
    promotion box between them: readability picks the content box, whose siblings are the
    link and the ad slot, not the paragraphs."""
    ad = '<div class="ad-slot"></div>'
    main = ('<div class="story"><h1>%s</h1>\n<div class="story-body">\n%s<div class="story-promo">%s</div>\n'
            '<div id="read-more"><div class="read-more-link"><a href="#">Read more</a></div>%s'
            '<div class="read-more-content">\n%s</div></div>\n</div></div>'
            % (esc(title), '<div class="story-intro"><p><strong>%s</strong></p></div>\n%s' % (
                esc(paras[0]), "".join("<p>%s</p>\n" % esc(p) for p in paras[1:3])), ad, ad,
               "".join("<p>%s</p>\n" % esc(p) for p in paras[3:])))
    return _page(title, i, main)


#: How many paragraphs each section of a ``sections`` page holds: the third is the longest,
#: the second and fourth are one short paragraph each.
SECTION_SIZES = (3, 1, 7, 1, 2)


def sections(title: str, paras: List[str], i: int) -> str:
    """An article written as sections (each a box of paragraphs of the same class, a rule
    between them) inside ``<article>``: readability picks the longest section's box and merges
    the others that score a twentieth of it, which a section of one short paragraph does not."""
    boxes, start = [], 0
    for size in SECTION_SIZES:
        boxes.append('<section class="sec"><div class="sec-inner">\n%s</div></section>'
                     % "".join("<p>%s</p>\n" % esc(p) for p in paras[start:start + size]))
        start += size
    main = ('<article><h1>%s</h1>\n<div class="byline">By a correspondent</div>\n<div class="sections">\n%s\n</div></article>'
            % (esc(title), "\n<hr>\n".join(boxes)))
    return _page(title, i, main)


def _hover_card(name: str, n: int) -> str:
    """A person's name with its hover card: the name as a link, then a card (a picture, the name
    again, three headlines of stories about the person, a "more" link) that a reader sees on hover."""
    card = '<img src="/img/person-%d.jpg" alt=""><a class="name" href="/people/%d">%s</a>%s<a class="more" href="/people/%d">MORE</a>' % (
        n, n, esc(name), " ".join('<a class="person-story" href="/story/%d">%s</a>' % (k, esc(TEASERS[(n + k) % len(TEASERS)][0]))
                                  for k in range(3)), n)
    return ('<span class="person" data-behavior="card"><a class="person-link" href="/people/%d">%s</a>'
            '<span class="person-card"><span class="card-inner"><span>%s</span></span></span></span>' % (n, esc(name), card))


def hover_cards(title: str, paras: List[str], i: int) -> str:
    """An article whose paragraphs name people through hover cards (the name a link, a card of
    links to other stories about them inside the sentence, shown on hover): in a short paragraph the
    card's links are most of its text, so the paragraph looks like a link list; in a long one, the
    card taken whole takes the name the sentence reads with it. A paragraph holding a card opens
    with the person's name, its first two words."""
    def paragraph(n: int, text: str) -> str:
        if n % 2 == 0:
            return "<p>%s</p>" % esc(text)
        first, second, rest = text.split(" ", 2)
        return "<p>%s %s</p>" % (_hover_card("%s %s" % (first, second), 10 * i + n), esc(rest))
    main = ('<div class="article"><h1>%s</h1>\n<div class="article-body">\n%s\n</div></div>'
            % (esc(title), "\n".join(paragraph(n, p) for n, p in enumerate(paras))))
    return _page(title, i, main)


def cross_references(title: str, paras: List[str], i: int) -> str:
    """A wiki's article: a note box pointing to the other pages of its name ("For other uses, see
    <a>...</a>"), an introduction, then sections, each under its heading (a line of the truth: no full
    stop) and opening with a cross-reference to the article it summarises ("Main article: <a>...</a>",
    "Main articles: <a>...</a> and <a>...</a>" in a note box); no note is text of this article."""
    blocks, n = [], 0
    for text in paras:
        if text.endswith("."):
            blocks.append("<p>%s</p>" % esc(text))
            continue
        targets = ["%s of the %s" % (text, w) for w in (("valley", "county") if n % 2 else ("valley",))]
        lead = "Main articles: " if len(targets) > 1 else "Main article: "
        note = lead + " and ".join('<a href="/wiki/%s">%s</a>' % (t.replace(" ", "_"), esc(t)) for t in targets)
        blocks.append('<h2 id="s%d"><span class="headline">%s</span></h2>\n<div role="note" class="hatnote">%s</div>'
                      % (n, esc(text), note))
        n += 1
    other = ('<div role="note" class="hatnote">For other uses, see <a href="/wiki/%s_(disambiguation)">%s (disambiguation)</a>.</div>'
             % (title.replace(" ", "_"), esc(title)))
    main = ('<div id="content"><h1 class="firstHeading">%s</h1>\n<div class="mw-body-content">\n%s\n%s\n</div></div>'
            % (esc(title), other, "\n".join(blocks)))
    return _page(title, i, main)


TEMPLATES: Dict[str, Callable[[str, List[str], int], str]] = {
    "table_rows": table_rows, "table_cells": table_cells, "table_split": table_split, "table_br": table_br,
    "table_row_split": table_row_split, "br_text": br_text,
    "div_text": div_text, "unclosed_title": unclosed_title, "stray_html_end": stray_html_end,
    "unclosed_head": unclosed_head, "comments_inside": comments_inside, "short_boxes": short_boxes, "tabs": tabs,
    "teaser_run": teaser_run, "cards_after_title": cards_after_title, "untitled_cards": untitled_cards,
    "column_lists": column_lists, "inner_boxes": inner_boxes, "after_end": after_end,
    "table_cell": table_cell, "table_br_cell": table_br_cell, "hidden_panels": hidden_panels,
    "related_widget": related_widget, "link_items": link_items, "split_body": split_body,
    "read_more": read_more, "sections": sections, "hover_cards": hover_cards,
    "cross_references": cross_references,
}


def main() -> None:
    """Writes html/<name>.html.gz and ground-truth.json next to this file."""
    os.makedirs(os.path.join(HERE, "html"), exist_ok=True)
    truth = {}
    for i, (name, structure, title, paras) in enumerate(ARTICLES):
        page = TEMPLATES[structure](title, paras, i)
        with gzip.GzipFile(os.path.join(HERE, "html", name + ".html.gz"), "wb", mtime=0) as handle:
            handle.write(page.encode("utf-8"))
        truth[name] = {"articleBody": "\n".join(paras), "url": "", "title": title, "structure": structure}
    with open(os.path.join(HERE, "ground-truth.json"), "w", encoding="utf-8") as handle:
        json.dump(truth, handle, indent=1, sort_keys=True, ensure_ascii=False)
        handle.write("\n")


if __name__ == "__main__":
    main()
