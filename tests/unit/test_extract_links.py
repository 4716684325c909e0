"""Links in markdown resolve as a browser resolves them: against the page's ``<base href>``."""

import gzip
import re
from pathlib import Path

import lxml.html

from websearch_sync.extract.article import extract_html
from websearch_sync.extract.render import render_element

STRUCTURES = Path(__file__).resolve().parents[2] / "bench" / "extraction-structures"
PAGE = "table-rowspan-2"  # its navigation cell's links ("/home", "/news") stay in the extraction


def _page(head: str = "") -> str:
    html = gzip.decompress((STRUCTURES / "html" / ("%s.html.gz" % PAGE)).read_bytes()).decode("utf-8")
    return html.replace("<head>", "<head>" + head, 1)


def _links(html: str, url: str) -> list[str]:
    return re.findall(r"\]\((\S+?)\)", extract_html(html, url=url, mode="markdown").text)


def test_relative_links_resolve_against_the_page_address():
    links = _links(_page(), "https://mirror.example/copy/page.html")
    assert links and all(link.startswith("https://mirror.example/") for link in links)


def test_relative_links_resolve_against_the_base_element():
    html = _page('<base href="https://harbour.example/notes/">')
    links = _links(html, "https://mirror.example/copy/page.html")
    assert "https://harbour.example/home" in links
    assert all(link.startswith("https://harbour.example/") for link in links)


def test_a_relative_base_resolves_against_the_page_and_a_script_base_is_ignored():
    relative = _links(_page('<base href="//cdn.example/">'), "https://mirror.example/copy/page.html")
    assert "https://cdn.example/home" in relative
    script = _links(_page('<base href="javascript:void(0)">'), "https://mirror.example/copy/page.html")
    assert "https://mirror.example/home" in script


#: An archived copy's address: its path holds the original page's URL, ``//`` and all.
ARCHIVED = "https://archive.example/web/2020/https://site.example/notes/page.html"


def _article(head: str, links: str) -> str:
    prose = "<p>%s</p>" % ("A paragraph of ordinary article text. " * 8)
    return "<html><head>%s</head><body><article>%s<p>%s.</p></article></body></html>" % (head, prose, links)


def test_relative_links_keep_the_empty_segments_of_the_page_path():
    """A browser (WHATWG URL, RFC 3986 section 5.2) keeps ``//`` in a path it merges a relative
    link into; ``urljoin`` dropped it, so every relative link on an archived copy led to
    ``https:/site.example/...``."""
    html = _article(
        "", "<a href='other.html'>the other page</a>, <a href='../up.html'>up</a>, <a href='x//y.html'>two</a>"
    )
    assert _links(html, ARCHIVED) == [
        "https://archive.example/web/2020/https://site.example/notes/other.html",
        "https://archive.example/web/2020/https://site.example/up.html",
        "https://archive.example/web/2020/https://site.example/notes/x//y.html",
    ]


def test_a_relative_base_keeps_the_empty_segments_of_the_page_path():
    html = _article('<base href="../">', "See <a href='other.html'>the other page</a> for the rest of the story")
    assert _links(html, ARCHIVED) == ["https://archive.example/web/2020/https://site.example/other.html"]


def test_links_are_read_as_a_browser_reads_them():
    """A link's backslashes before its query are slashes, ``\\\\host`` opens another host, and a
    special scheme other than the page's opens a host (WHATWG URL, as the fetch's redirects read
    them: ``net.urls.browser_target``); the markdown held ``/a/\\\\elsewhere.example\\x``, a link
    no browser follows, and left ``https:other.example/p`` out as no http(s) link."""
    html = _article(
        "",
        "See <a href='\\\\elsewhere.example\\x'>one</a>, <a href='https:other.example/p'>two</a> and"
        " <a href='http://h.example/a\\b?c\\d'>three</a> for the rest of the story",
    )
    assert _links(html, "http://mirror.example/copy/page.html") == [
        "http://elsewhere.example/x",
        "https://other.example/p",
        "http://h.example/a/b?c%5Cd",  # a backslash left in the query, encoded: markdown reads "\\" as an escape
    ]


def test_a_link_keeps_the_unicode_spaces_a_browser_keeps():
    """``str.strip`` took a no-break space, U+3000 and U+2028 from an ``href``'s ends, which a
    browser keeps (WHATWG URL strips C0 controls and space): ``\\xa0//elsewhere.example/x`` led to
    another host; a browser reads a path on the page's (the expected URLs are node's WHATWG URL's)."""
    html = _article(
        "",
        "See <a href='\xa0//elsewhere.example/x'>one</a>, <a href='\u3000//elsewhere.example/x'>two</a> and"
        " <a href='\u2028http://elsewhere.example/'>three</a> for the rest of the story",
    )
    assert _links(html, "https://mirror.example/copy/page.html") == [
        "https://mirror.example/copy/%C2%A0//elsewhere.example/x",
        "https://mirror.example/copy/%E3%80%80//elsewhere.example/x",
        "https://mirror.example/copy/%E2%80%A8http://elsewhere.example/",
    ]


def test_a_base_keeps_the_unicode_spaces_a_browser_keeps():
    html = _article("<base href='\xa0//elsewhere.example/'>", "See <a href='x'>the page</a> for the rest of the story")
    assert _links(html, "https://mirror.example/copy/page.html") == [
        "https://mirror.example/copy/%C2%A0//elsewhere.example/x"
    ]


def test_a_link_with_a_capitalised_scheme_is_kept():
    """A browser follows ``HTTPS://host/p`` (its scheme is case-insensitive); the markdown left the
    link out as no http(s) link, the scheme kept as written and compared case-sensitively (the
    expected URLs are node's WHATWG URL's)."""
    html = _article(
        "",
        "See <a href='HTTPS://other.example/p'>one</a>, <a href='HTTPS:other.example/p'>two</a> and"
        " <a href='Https://other.example/p'>three</a> for the rest of the story",
    )
    assert _links(html, "http://mirror.example/copy/page.html") == ["https://other.example/p"] * 3


def test_a_link_with_a_capitalised_scheme_is_kept_without_a_page_address():
    node = lxml.html.fromstring("<div><p>see <a href='HTTPS://other.example/p'>the page</a> now</p></div>")
    assert render_element(node, "markdown") == "see [the page](HTTPS://other.example/p) now"
