"""Search backends: one small module per service, registered by name.

Each module here is an engine (the shared plumbing they build on is
``websearch_sync.engine``). The registry knows them from a static table
(``websearch_sync.engine.builtin``) and imports an engine's module the first time that
engine is used; importing this package imports none of them, nor the kit below until
one of its names is read.

The plugin API and engine kit for third-party backends (see docs/backends.md, "Writing a
backend"): subclass :class:`Backend` (or :class:`HtmlEngine` for a results page,
:class:`JsonApiEngine` for a JSON API), declare what it reads in ``provider_settings``
(a tuple of :class:`Setting`) and the ``search()`` options it takes in ``options`` (a tuple of
:class:`Option`), build a :class:`RequestSpec` from :class:`SearchParams`,
read the :class:`HttpResponse` into a :class:`ParseResult`, and declare the class in
the ``websearch_sync.backends`` entry-point group (or :func:`register` it in code). The parsing helpers the built-in
engines are made of (the block walker, link and date readers, bot walls) are exported
here too, so an outside engine costs what a built-in one does.
"""

from typing import TYPE_CHECKING

__all__ = [
    "Backend",
    "RequestSpec",
    "HttpResponse",
    "ParseResult",
    "SearchParams",
    "Setting",
    "Option",
    "PAGENO",
    "pageno_option",
    "HtmlEngine",
    "JsonApiEngine",
    "BotWall",
    "Block",
    "PartTest",
    "HasClass",
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
    "register",
    "unregister",
]

if TYPE_CHECKING:
    from ..engine.base import Backend, dig, page_number
    from ..engine.html_engine import HtmlEngine
    from ..engine.html_parsing import (
        Block,
        HasClass,
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
    from ..engine.locales import split_locale
    from ..engine.option import PAGENO, Option, pageno_option
    from ..engine.registry import register, unregister
    from ..engine.setting import Setting
    from ..models import ParseResult, SearchParams
    from ..net.botwall import BotWall
    from ..net.transport import HttpResponse, RequestSpec
    from ..net.urls import host_in, result_url, url_parts
else:
    from ..engine.lazy import lazy_exports as _lazy_exports

    _PARSING = "..engine.html_parsing"
    __getattr__, __dir__ = _lazy_exports(
        __name__,
        {
            "Backend": "..engine.base",
            "dig": "..engine.base",
            "page_number": "..engine.base",
            "split_locale": "..engine.locales",
            "HtmlEngine": "..engine.html_engine",
            "JsonApiEngine": "..engine.json_api:JsonApiBackend",
            "Setting": "..engine.setting",
            "register": "..engine.registry",
            "unregister": "..engine.registry",
            "Option": "..engine.option",
            "PAGENO": "..engine.option",
            "pageno_option": "..engine.option",
            "ParseResult": "..models",
            "SearchParams": "..models",
            "BotWall": "..net.botwall",
            "HttpResponse": "..net.transport",
            "RequestSpec": "..net.transport",
            "host_in": "..net.urls",
            "result_url": "..net.urls",
            "url_parts": "..net.urls",
            **dict.fromkeys(
                (
                    "Block",
                    "HasClass",
                    "PartTest",
                    "attribute",
                    "classes",
                    "dated_item",
                    "elements",
                    "first_of",
                    "has_class",
                    "leading_date",
                    "parse_fragment",
                    "region",
                    "text_of",
                    "walk_blocks",
                ),
                _PARSING,
            ),
        },
    )
