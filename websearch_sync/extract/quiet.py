"""readability's steps without their debug descriptions while its debug log is off, and with
its text measures computed faster.

readability-lxml formats a description of every candidate it scores, drops or keeps
(``describe(elem)``: the element, its parent, their classes and ids) into a ``log.debug``
message, whether or not the message is logged: about a twentieth of the extraction of a small
page. And it measures each paragraph, candidate and sibling with ``clean(text)`` (three
regular expressions looked up in ``re``'s cache and run over the text, rescanning each run of
whitespace) and ``text_length(element)`` (the length of that): a fifth of the extraction of a
small page. :func:`quiet_steps` gives readability's own step functions (the same code objects) a
namespace whose ``describe`` and ``text_content`` only describe while that log is enabled for
debug messages, so its debug log reads as before when it is on, whose ``clean`` and
``text_length`` are :mod:`.textlength`'s (the same strings and numbers, in one pass), and
whose ``fragment_fromstring`` makes the empty ``<div/>`` ``get_article`` collects the article
in without parsing it (30 us a page; its content is moved into the page's document anyway). The
descriptions have no other use (every call sits in a ``log.debug`` argument) and no effect on
the steps (they only read the tree; readability's own ``describe`` also keeps each described
element in a module-wide table until the next page, which is not done for a message never
logged).

The copy is taken at the first extraction: a global of readability's module rebound after it
(its ``log`` replaced by another logger object, say) is not seen by these steps, while
changing that logger's level is.
"""

import logging
import re
import types
from typing import Any, Callable

import lxml.html

from .textlength import clean_text, text_length

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: readability's ``Document`` methods that describe elements for ``log.debug``, measure text
#: with ``clean`` or ``text_length``, or make an element with ``fragment_fromstring``.
STEPS = (
    "score_paragraphs",
    "select_best_candidate",
    "sanitize",
    "add_heading_preamble",
    "merge_article_segments",
    "get_semantic_article_candidate",
    "get_semantic_main_candidate",
    "is_toc_list",
    "is_quote_lead",
    "get_article",
)

#: Markup that is one empty element (``<div/>``), as readability's ``get_article`` asks for its output.
_EMPTY_ELEMENT = re.compile(r"<([a-z]+)/>")


def _fragment_fromstring(html: str, *args: Any, **kwargs: Any) -> Any:
    """``lxml.html.fragment_fromstring``; one empty element (``<div/>``) is made rather than
    parsed: the same element, but for the parsed one's parent, which readability never reads."""
    empty = _EMPTY_ELEMENT.fullmatch(html) if not args and not kwargs else None
    return lxml.html.Element(empty.group(1)) if empty else lxml.html.fragment_fromstring(html, *args, **kwargs)


def quiet_steps(document: type) -> dict[str, Callable[..., Any]]:
    """``{name: function}`` of :data:`STEPS` of readability's ``document`` class, each running its
    own code in a copy of its module's namespace whose descriptions are made only when logged and
    whose text measures are :mod:`.textlength`'s."""
    from readability import debug, readability

    def describe(node: Any, depth: int = 1) -> str:
        return str(debug.describe(node, depth)) if readability.log.isEnabledFor(logging.DEBUG) else ""

    def text_content(elem: Any, length: int = 40) -> str:
        return str(debug.text_content(elem, length)) if readability.log.isEnabledFor(logging.DEBUG) else ""

    namespace = dict(
        vars(readability),
        describe=describe,
        text_content=text_content,
        clean=clean_text,
        text_length=text_length,
        fragment_fromstring=_fragment_fromstring,
    )
    steps: dict[str, Callable[..., Any]] = {}
    for name in STEPS:
        step = getattr(document, name)
        quiet = types.FunctionType(step.__code__, namespace, step.__name__, step.__defaults__, step.__closure__)
        quiet.__kwdefaults__, quiet.__qualname__, quiet.__doc__ = step.__kwdefaults__, step.__qualname__, step.__doc__
        steps[name] = quiet
    return steps
