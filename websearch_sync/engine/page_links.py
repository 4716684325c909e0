"""Where a results page's own links say its search's later pages start.

Engines that count results, not pages (Bing's ``first``, Yahoo's ``b``), link the next page
by the rank of its first result, and what a page counts is theirs: a Bing page reading 9
results links ``first=11`` (it counted a block that is no result), another reading 10 links
``first=10``. The next page is asked where the page's own "Next" link starts it, as a browser
pressing it asks (``HtmlEngine.next_page``), not after the results read.

Read by structure, whatever the language of the link or its classes: the page is parsed whole
by lxml's HTML parser (a URL in a script or a comment is no link); its links to the same search
are the ``<a href>`` with a query of their own whose URL, read against the page's address, has one of the search's paths
(Yahoo writes ``;_ylt=…`` path parameters after it: left out) and carries the search's query in
the engine's query field (Bing's ``q``; its words compared, case, blanks, quotes and Unicode form
aside: Bing and Yahoo write a phrase query back unquoted; a link to another search's pages is none of this one's; the
other fields of the request are not compared, so a query whose text is another field's value, ``10``
with ``count=10``, is found by its own field alone); the offsets they carry
in the engine's offset field are this search's pages. The "Next" link is the nearest beyond the
page's own offset (the page number links go further, "Previous" and the page's own go back).
"""

import unicodedata
from collections.abc import Collection
from typing import Optional
from urllib.parse import parse_qsl

from ..checkpoints import checked
from ..net.urls import browser_join, url_parts
from .html_parsing import Tag, parse_html

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The most digits of an offset read (a rank of a billion is none a page links).
_MAX_DIGITS = 9


def search_path(url: str) -> Optional[str]:
    """``url``'s path without path parameters (``/search;_ylt=…`` is ``/search``), ``None``
    for no URL."""
    parts = url_parts(url)
    return parts[0].path.split(";", 1)[0] if parts is not None else None


def linked_offsets(
    text: str, page_url: str, paths: Collection[str], field: str, search: tuple[str, str]
) -> frozenset[int]:
    """The offsets (``field``'s values, digits) the links of the page ``text`` (at ``page_url``)
    carry to the same search: a link whose path (:func:`search_path`) is one of ``paths`` and whose
    query holds ``search``, ``(query field, query)``, with the same value, blanks, case and quotes
    aside (the query, as the page writes it back: :func:`_words`). Empty for a page that links no page of the search (a
    fragment, a page of another search)."""
    query_field, query = search
    wanted = (query_field, _words(query))
    offsets: set[int] = set()
    for link in checked(parse_html(text).iter("a")):
        assert isinstance(link, Tag)
        href = link.get("href")
        offset = _offset(page_url, href, paths, field, wanted) if href else None
        if offset is not None:
            offsets.add(offset)
    return frozenset(offsets)


def _offset(page_url: str, href: str, paths: Collection[str], field: str, wanted: tuple[str, str]) -> Optional[int]:
    """The offset one link carries to the search (:func:`linked_offsets`), or ``None``; a link
    without a query of its own (``#``, ``javascript:;``, a fragment) is the page itself, never a page of it."""
    href = href.strip()
    own = url_parts(href)
    if own is None or not own[0].query:
        return None
    try:
        url = browser_join(page_url, href)
    except ValueError:  # no URL (``http://[``): no link to follow
        return None
    parts = url_parts(url)
    if parts is None or search_path(url) not in paths:
        return None
    fields: dict[str, str] = {}
    for name, value in parse_qsl(parts[0].query, keep_blank_values=True):
        fields.setdefault(name, value)
    query_field, query = wanted
    if query_field not in fields or _words(fields[query_field]) != query:
        return None
    offset = fields.get(field, "")
    return int(offset) if offset.isascii() and offset.isdigit() and len(offset) <= _MAX_DIGITS else None


def _words(value: str) -> str:
    """``value`` as a search compares: its words, lower-case, without quotes, in one Unicode form
    (canonical caseless, NFC). A page may write the query back lower-case, and Bing's and Yahoo's
    recorded pages write a quoted (phrase) query back without its quotes (Bing keeps them only in
    ``pq``): a phrase search's links are still its own."""
    folded = unicodedata.normalize("NFD", value).casefold().replace('"', " ")
    return " ".join(unicodedata.normalize("NFC", folded).split())


def next_offset(offsets: Collection[int], current: int) -> Optional[int]:
    """The offset of the page after the one at ``current``, as its links say: the nearest beyond
    it, ``None`` when none goes further (the last page)."""
    return min((offset for offset in offsets if offset > current), default=None)
