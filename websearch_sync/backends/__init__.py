"""Search backends: one small module per service, registered by name.

Each module here is an engine (the shared plumbing they build on is
``websearch_sync.engine``); importing this package registers every backend class its
modules define.

The plugin API and engine kit for third-party backends (see docs/backends.md, "Writing a
backend"): subclass :class:`Backend` (or :class:`HtmlEngine` for a results page,
:class:`JsonApiEngine` for a JSON API), declare what it reads in ``provider_settings``
(a tuple of :class:`Setting`) and the ``search()`` options it takes in ``options`` (a tuple of
:class:`Option`), build a :class:`RequestSpec` from :class:`SearchParams`,
read the :class:`HttpResponse` into a :class:`ParseResult`, and declare the class in
the ``websearch_sync.backends`` entry-point group. The parsing helpers the built-in
engines are made of (the block walker, link and date readers, bot walls) are exported
here too, so an outside engine costs what a built-in one does.
"""

from ..engine.base import Backend, dig, page_number, split_locale
from ..engine.html_engine import HtmlEngine
from ..engine.html_parsing import (
    Block,
    PartTest,
    attribute,
    classes,
    dated_item,
    elements,
    first_of,
    has_class,
    leading_date,
    parse_fragment,
    region,
    text_of,
    walk_blocks,
)
from ..engine.json_api import JsonApiBackend as JsonApiEngine
from ..engine.option import PAGENO, Option
from ..engine.registry import register_package
from ..engine.setting import Setting
from ..models import ParseResult, SearchParams
from ..net.botwall import BotWall
from ..net.transport import HttpResponse, RequestSpec
from ..net.urls import host_in, result_url, url_parts

__all__ = [
    "Backend",
    "RequestSpec",
    "HttpResponse",
    "ParseResult",
    "SearchParams",
    "Setting",
    "Option",
    "PAGENO",
    "HtmlEngine",
    "JsonApiEngine",
    "BotWall",
    "Block",
    "PartTest",
    "walk_blocks",
    "parse_fragment",
    "first_of",
    "elements",
    "classes",
    "has_class",
    "attribute",
    "text_of",
    "region",
    "dated_item",
    "leading_date",
    "url_parts",
    "host_in",
    "result_url",
    "page_number",
    "split_locale",
    "dig",
]

register_package(__name__)
