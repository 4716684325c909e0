"""``yahoo_html`` news: Yahoo News search (``GET https://news.search.yahoo.com/search?p=…``).

Sends ``p`` and ``b`` (the first result's position, 11, 21 …) for later pages, as
SearXNG's ``searx/engines/yahoo_news.py`` and ddgs's ``ddgs/engines/yahoo_news.py`` do (a page
read for depth: where the page's own "Next" link, at ``/news/search``, starts it);
Yahoo News is English only (SearXNG's notes), so no language is sent, and it has no
time filter SearXNG knows of: ``time_range`` is not sent.

What the recorded page (2026-08, 10 articles) shows:

* ``div#web`` holds ``ul.compArticleList`` lists of ``li`` articles; the right column
  (``div#right``, trending stories) is not read.
* An article has the title link ``h4.s-title > a``, the publisher ``span.s-source``
  (its own text: the nested ``span.s-via``, "· via Yahoo News", names the syndicating
  site, not the publisher), the age ``span.s-time`` (``9 minutes ago ·``, kept as a
  relative date), the snippet ``p.s-desc`` and the picture: the image of the link
  opening the article (Yahoo's resized copy). An article without a picture starts with its
  title link; the ``img`` beside the publisher's name is the site's icon, not a picture.
* Links go through ``r.search.yahoo.com/…/RU=<target>/RK=…`` (decoded as for web
  search); a direct link to a Yahoo site carries tracking path parameters
  (``…html;_ylt=…;_ylu=…``), which are dropped.
"""

from typing import Any, Optional

from ..engine.html_parsing import Block, PartTest, Tag, attribute, has_class, parse_fragment, walk_blocks
from ..engine.media_fields import present
from ..engine.option import pageno_option
from ..models import SearchParams
from .yahoo import YahooHtml, decode_yahoo_href

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Yahoo's tracking path parameters on its own links (``…html;_ylt=…;_ylu=…``).
_TRACKING = ";_ylt="

_PARTS: dict[str, PartTest] = {
    "heading": lambda tag, inside: tag.name == "h4",
    "link": lambda tag, inside: tag.name == "a" and "heading" in inside and bool(tag.get("href")),
    "source": lambda tag, inside: tag.name == "span" and has_class(tag, "s-source"),
    "time": lambda tag, inside: tag.name == "span" and has_class(tag, "s-time"),
    "snippet": lambda tag, inside: tag.name == "p" and has_class(tag, "s-desc"),
    # The picture links to the article; the publisher's row holds the site's icon, not in a link.
    "first_link": lambda tag, inside: tag.name == "a",
    "image": lambda tag, inside: tag.name == "img" and "first_link" in inside and bool(tag.get("src")),
}


def _is_article(tag: Tag) -> bool:
    return tag.name == "li" and tag.parent is not None and has_class(tag.parent, "compArticleList")


def _own_text(tag: Optional[Tag]) -> str:
    """The text directly inside ``tag``, not that of its child elements."""
    if tag is None:
        return ""
    return " ".join(text for text in (tag.text, *(child.tail for child in tag)) if text).strip()


def article_url(href: str) -> Optional[str]:
    """The article's address: the ``RU=`` target of a redirect link, Yahoo's tracking
    path parameters dropped from a direct one."""
    url = decode_yahoo_href(href)
    return url.split(_TRACKING, 1)[0] if url else None


def _item(block: Block) -> Optional[dict[str, Any]]:
    """The raw news item of one article, or ``None`` without a usable title link."""
    link = block.parts.get("link")
    url = article_url(attribute(link, "href")) if link is not None else None
    if not url:
        return None
    image = block.parts.get("image")
    return present(
        title=block.text("heading"),
        url=url,
        snippet=block.text("snippet"),
        source=_own_text(block.parts.get("source")) or None,
        published_at=block.text("time").rstrip("\u00b7 ") or None,
        image_url=attribute(image, "src") if image is not None else None,
    )


class YahooNews(YahooHtml):
    """Yahoo News search, parsed from its results page."""

    vertical = "news"
    options = (pageno_option("10 results a page whatever max_results is (b)"),)
    unsent = ("locale", "safe_search", "time_range")  # Yahoo News takes the query and page only (docs/backends.md)
    summary = "Yahoo News search page, no key"
    default_endpoint = "https://news.search.yahoo.com/search"
    pageno_results = 10  # the recorded page's links to pages 2, 3, 4 ask b=11, 21, 31 (pz=10)
    page_link_paths = ("/news/search",)  # where the recorded page (asked at /search) links them
    region_start = ('id="web"',)
    region_end = ('id="right"',)

    def query(self, params: SearchParams) -> dict[str, str]:
        """``p`` and ``b`` (page > 1): no time range."""
        return self.paged_query(params)

    def cookies(self, params: SearchParams) -> dict[str, str]:
        """None: Yahoo News has no language or safe-search preference to carry."""
        return {}

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """The ``li`` articles of ``ul.compArticleList``."""
        blocks = walk_blocks(parse_fragment(markup, images=True), _is_article, _PARTS)
        return [item for item in map(_item, blocks) if item is not None]
