"""``mojeek_html``: Mojeek's results page (``GET https://www.mojeek.com/search?q=…``).

Mojeek runs its own crawler and index (its results are not Bing's or Google's). Sends
``q``, ``s`` (the first result's position) for later pages only (option ``pageno``;
sending it on the first page trips Mojeek's rate limit), ``safe=1|0`` for safe
search and ``lb=<language>`` (language bias) from the locale. ``time_range`` is
Mojeek's ``since=YYYYMMDD``: the UTC date one day, week, calendar month or year before
the search's ``SearchParams.now`` (as SearXNG's ``searx/engines/mojeek.py`` sends it,
``datetime.now() - relativedelta(<range>=1)``).

What the recorded pages (2025-2026; ``style.css?v=2.105`` → ``2.117``) show:

* ``ul.results-standard`` holds one ``li.rN`` per result (``clu-result`` for a
  clustered host), between ``<!--rs-->``/``<!--re-->`` comments; each has the display
  URL (``a.ob > p.i > span.url``), the title link ``h2 > a.title``, the snippet ``p.s``
  and maybe ``p.more`` ("See more results from …"). Links are direct.
* The bot wall is an ALTCHA captcha page (``<title>Captcha</title>``,
  ``div.captcha-wrap``, ``altcha.js``): :data:`ALTCHA`.
* No zero-result page is on record: such a page is reported as ``WebParseError``
  (``unexpected_shape``) rather than guessed at.
"""

import calendar
import datetime
import re
from typing import Any, Optional

from ..engine.html_engine import HtmlEngine
from ..engine.html_parsing import Tag, attribute, classes, elements, first_of, has_class, parse_fragment, text_of
from ..engine.locales import split_locale
from ..engine.option import pageno_option
from ..models import SearchParams
from ..net.botwall import BotWall

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Mojeek's ALTCHA captcha: ``div.captcha-wrap`` and the ``altcha.js`` script (both: an
#: ALTCHA script alone may sit in an ordinary page's form).
_ALTCHA_BOX = re.compile(r"""<div class=["']?captcha-wrap\b""")
_ALTCHA_SCRIPT = re.compile(r"<script\b[^<>]{0,400}/altcha\.js")  # one bounded class: linear on any page
ALTCHA = BotWall(
    "Mojeek's ALTCHA captcha", hints=("captcha-wrap",), patterns=(_ALTCHA_BOX, _ALTCHA_SCRIPT)
)  # the hint is in the box (a rarer string than the box's literal start, ``<div class=``)


#: The parts of a result read: the title link ``a.title`` and the snippet ``p.s``.
_PARTS = {
    "link": lambda tag: tag.name == "a" and has_class(tag, "title") and bool(tag.get("href")),
    "snippet": lambda tag: tag.name == "p" and has_class(tag, "s"),
}


def _item(block: Tag) -> Optional[dict[str, Any]]:
    """The item of one ``li`` of the results list, or ``None`` without a title link."""
    parts = first_of(block, _PARTS)
    link = parts.get("link")
    if link is None:
        return None
    return {"title": text_of(link), "url": attribute(link, "href").strip(), "snippet": text_of(parts.get("snippet"))}


def since(now: datetime.datetime, time_range: str) -> str:
    """Mojeek's ``since`` for ``time_range`` ending at ``now``: ``YYYYMMDD`` in UTC; a month or
    year back keeps the day of the month where it exists (31 March -> 28/29 February)."""
    today = now.astimezone(datetime.timezone.utc).date() if now.tzinfo else now.date()
    if time_range in ("day", "week"):
        start = today - datetime.timedelta(days=1 if time_range == "day" else 7)
    else:
        months = today.year * 12 + today.month - 1 - (1 if time_range == "month" else 12)
        year, month = months // 12, months % 12 + 1
        start = datetime.date(year, month, min(today.day, calendar.monthrange(year, month)[1]))
    return start.strftime("%Y%m%d")


class MojeekHtml(HtmlEngine):
    """Mojeek web search, parsed from the results page."""

    name = "mojeek_html"
    options = (pageno_option("10 results a page whatever max_results is (s)"),)
    auto_rank = 130
    results_per_page = 10  #: pages that gave fewer distinct results than asked: the next one
    #: Mojeek counts results (``s=11`` is page 2): the next page starts where the page's own
    #: pagination does, and a page linking none beyond itself is the last (no request more)
    first_result_field = "s"
    query_field = "q"
    first_result_step = 10  # a page linking none of its search's: the next ten on (its links step 10)
    summary = "Mojeek results page (independent index), no key"
    default_endpoint = "https://www.mojeek.com/search"
    region_start = ('class="results-standard"',)
    region_end = ("<!--le-->", 'class="pagination"')
    bot_walls = (ALTCHA,)
    volatile_params = ("since",)  # a date from the search's time: recorded as a placeholder
    unsent = ("locale.region",)  # lb is a language: en-GB is searched as en (docs/backends.md)

    def query(self, params: SearchParams) -> dict[str, str]:
        """``q``, ``s`` (page > 1), ``safe``, ``lb``, ``since``."""
        query = {"q": params.full_query}
        page = self.option(params, "pageno")
        if page > 1:
            query["s"] = str((page - 1) * 10 + 1)
        if params.safe_search:
            query["safe"] = "0" if params.safe_search == "off" else "1"
        if params.locale:
            query["lb"] = split_locale(params.locale)[0]
        if params.time_range:
            query["since"] = since(params.now, params.time_range)
        return query

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """The ``li`` children of ``ul.results-standard``."""
        lists = [
            tag for tag in elements(parse_fragment(markup)) if tag.name == "ul" and "results-standard" in classes(tag)
        ]
        blocks = [child for results in lists[:1] for child in results if isinstance(child, Tag) and child.name == "li"]
        return [item for item in map(_item, blocks) if item is not None]
