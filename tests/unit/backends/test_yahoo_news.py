"""yahoo_html news: the request, the recorded page (2026-08, 10 articles) read field by
field, link decoding, the right column left out, an unknown layout.

Expected values are read by eye from fixtures/yahoo_html/phrona__news.html.
"""

import pytest
import responses
from vertical_answers import answer, body

import websearch_sync as ws
from websearch_sync.backends.yahoo_news import YahooNews, article_url
from websearch_sync.config import Settings
from websearch_sync.errors import WebParseError
from websearch_sync.models import SearchParams

NEWS = YahooNews(Settings())


def params(**kwargs):
    return SearchParams(query="rust programming", max_results=10, **kwargs)


def read(**kwargs):
    response = answer(body("yahoo_html", "phrona__news.html"), NEWS.default_endpoint)
    return NEWS.interpret(response, params(**kwargs)).items


def test_request():
    spec = NEWS.build_request(params(locale="de-DE", safe_search="strict", time_range="week"))
    assert spec.url == "https://news.search.yahoo.com/search"
    assert spec.params == {"p": "rust programming"}  # English only, no time filter
    assert "Cookie" not in spec.headers
    assert NEWS.build_request(params(options={"pageno": 2})).params == {"p": "rust programming", "b": "11"}


def test_articles():
    items = read()
    assert len(items) == 10  # the trending stories of the right column are not results
    assert items[0] == {
        "title": "Man Bought Damaged, Super-Rare Lingenfelter Revenge GTO For Just $9,600",
        "url": "https://autos.yahoo.com/classic-and-collector/articles/man-bought-damaged-super-rare-180045905.html",
        "snippet": "A badly neglected Pontiac GTO with an unusually complicated history has found a new owner after...",
        "source": "Guessing Headlights",
        "published_at": "9 minutes ago",
        "image_url": "https://s.yimg.com/fz/api/res/1.2/3YfQCUUSrq340EQNSUZyLA--~C/"
        "YXBwaWQ9c3JjaGRkO2ZpPWZpbGw7aD0xMDY7cHhvZmY9MDtweW9mZj0wO3E9ODA7c209MTt3PTE2MA--/"
        "https://media.zenfs.com/en/guessing_headlights_178/a038e72d096045c39169d620563a3869",
    }
    assert [item["source"] for item in items[4:7]] == ["House Digest", "InfoWorld", "Arkansas Razorbacks On SI"]
    assert items[5]["url"] == "https://www.infoworld.com/article/4191267/rust-introduces-new-range-types.html"
    assert [item["published_at"] for item in items[-2:]] == ["6 days ago", "7 days ago"]


@pytest.mark.parametrize(
    "href, url",
    [
        (
            "https://r.search.yahoo.com/_ylt=A2RS;_ylu=Y29s/RV=2/RE=1/RO=10/RU=https%3a%2f%2fwww.polygon.com%2frust%2f/RK=2/RS=x-",
            "https://www.polygon.com/rust/",
        ),
        (
            "https://autos.yahoo.com/a/b-180045905.html;_ylt=A2RSeFW;_ylu=Y29sbw",
            "https://autos.yahoo.com/a/b-180045905.html",
        ),
        ("https://sports.yahoo.com/a.html?fr=sycsrp_catchall", "https://sports.yahoo.com/a.html?fr=sycsrp_catchall"),
        ("https://r.search.yahoo.com/_ylt=x/RV=2/RK=2/RS=y-", None),
    ],
)
def test_article_url(href, url):
    assert article_url(href) == url


def test_an_unknown_layout_is_a_parse_error():
    with pytest.raises(WebParseError):
        NEWS.interpret(
            answer("<html><body><div id=web><p>moved</p></div></body></html>", NEWS.default_endpoint), params()
        )


def test_an_article_without_a_picture_has_no_image_not_the_publishers_icon():
    """An article's picture is the image of its ``a.thmb`` link; the row with the publisher's
    name (``div.vert-source``) holds the site's 20x20 icon. The recorded page with the third
    article's picture link taken out (Yahoo lists articles without one) must give that article
    no ``image_url``, not the icon (before: ``…/search_favicon/images/40x40_….png``)."""
    page = body("yahoo_html", "phrona__news.html").decode("utf-8")
    start = page.rindex('<a class="thmb"', 0, page.index("How to watch WWE SummerSlam"))
    without_picture = page[:start] + page[page.index("</a>", start) + len("</a>") :]
    items = NEWS.interpret(answer(without_picture, NEWS.default_endpoint), params()).items
    assert items[2]["source"] == "The Sporting News" and items[2]["url"] == read()[2]["url"]
    assert "image_url" not in items[2]
    assert [item.get("image_url") for item in items[3:]] == [item["image_url"] for item in read()[3:]]


def test_a_protocol_relative_picture_is_read_as_https():
    """The recorded page with the first article's picture written protocol-relative
    (``src="//s.yimg.com/…"``, as pages often write images): on a page served over https it is
    ``https://s.yimg.com/…`` and the article keeps its ``image_url`` (before: not an http(s) URL,
    left out)."""
    page = body("yahoo_html", "phrona__news.html").decode("utf-8")
    picture = read()[0]["image_url"]
    page = page.replace('src="%s"' % picture, 'src="%s"' % picture[len("https:") :], 1)
    with responses.RequestsMock() as mock:
        mock.get(NEWS.default_endpoint, body=page, content_type="text/html; charset=utf-8")
        items = ws.search("rust programming", backend="yahoo_html", vertical="news", retries=0)["items"]
    assert items[0]["image_url"] == picture
