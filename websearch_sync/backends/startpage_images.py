"""``startpage_html`` images: Startpage's image search (``GET https://www.startpage.com/sp/search?cat=images``).

Web search's request (:mod:`.startpage`) with ``cat=images``; no time range is sent (the
image page offers none). Startpage shows Bing's images behind its own image proxy.

What the recorded page (2026-08, 50 images) shows: the results are not in the markup
but in the props of the page's React root, one JSON object after
``React.createElement(UIStartpage.AppSerpImages,``. Its ``render.presenter.regions
.mainline`` is a list of sections; those whose ``display_type`` starts with ``images``
(``images-bing``) hold the images (``aylf-…`` sections are suggested searches,
``product_ads-…`` ads). An image has ``title``, ``altClickUrl`` (the page it is on),
``clickUrl`` and ``thumbnailUrl`` (Startpage's proxy, ``/av/proxy-image?piurl=<the
image's address>&sp=<signature>``: the items carry the ``piurl`` address), ``width``
and ``height``. ``displayUrl`` is the page's address with highlight marks, not a site
name: no ``source``. The captcha is web search's (a redirect to ``/sp/captcha``).
"""

import json
from typing import Any, Optional

from ..engine.media_fields import nested, present, query_value, text, whole_number
from ..models import SearchParams
from .startpage import StartpageHtml

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What opens the props of the image page's React root.
PROPS_MARKER = "React.createElement(UIStartpage.AppSerpImages,"


def _sections(props: Any) -> list[Any]:
    """The sections of the page's main column (``[]`` when the props have none)."""
    sections = nested(props, "render", "presenter", "regions", "mainline")
    return sections if isinstance(sections, list) else []


def image_item(result: dict[str, Any]) -> dict[str, Any]:
    """The raw image item of one image of an ``images`` section."""
    return present(
        title=text(result.get("title")),
        url=text(result.get("altClickUrl")),
        image_url=query_value(text(result.get("clickUrl")), "piurl"),
        thumbnail_url=query_value(text(result.get("thumbnailUrl")), "piurl"),
        width=whole_number(result.get("width")),
        height=whole_number(result.get("height")),
    )


class StartpageImages(StartpageHtml):
    """Startpage image search, read from the props of its page."""

    vertical = "images"
    unsent = ("locale", "time_range")  # the locale in Accept-Language only; no date filter (docs/backends.md)
    detail_field = "thumbnail_url"
    #: One page: the recorded page holds 50 and links later pages, but no later image page is on
    #: record, so a short page asks none (its shape there is unknown); no ``max_pages``. A call for
    #: more (an image search takes up to 100) gets the 50 and is told (``not_sent``: ``max_results``).
    results_per_page = None
    max_results_limit = 50
    summary = "Startpage image search (Bing's images, proxied), no key"

    def query(self, params: SearchParams) -> dict[str, str]:
        """Web search's fields with ``cat=images`` and no time range."""
        query = super().query(params)
        query["cat"] = "images"
        query.pop("with_date", None)
        return query

    def results_region(self, text: str) -> Optional[str]:
        """The page's text from the React root's props on (``None`` without them)."""
        start = text.find(PROPS_MARKER)
        return text[start + len(PROPS_MARKER) :].lstrip() if start >= 0 else None

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """The images of the props' ``images`` sections (``[]`` when the props are no JSON object); an
        image without its page (``altClickUrl``) is left out, not the page taken for a defect."""
        try:
            props, _ = json.JSONDecoder().raw_decode(markup)
        except ValueError:
            return []
        images = [
            image_item(result)
            for section in _sections(props)
            if isinstance(section, dict) and str(section.get("display_type", "")).startswith("images")
            for result in section.get("results") or ()
            if isinstance(result, dict)
        ]
        return [image for image in images if "url" in image]
