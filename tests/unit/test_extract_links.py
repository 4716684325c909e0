"""Links in markdown resolve as a browser resolves them: against the page's ``<base href>``."""

import gzip
import re
from pathlib import Path

from websearch_sync.extract.article import extract_html

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
