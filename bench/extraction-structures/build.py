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


TEMPLATES: Dict[str, Callable[[str, List[str], int], str]] = {
    "table_rows": table_rows, "table_cells": table_cells, "table_split": table_split, "table_br": table_br,
    "table_row_split": table_row_split, "br_text": br_text,
    "div_text": div_text, "unclosed_title": unclosed_title, "stray_html_end": stray_html_end,
    "unclosed_head": unclosed_head, "comments_inside": comments_inside, "short_boxes": short_boxes, "tabs": tabs,
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
