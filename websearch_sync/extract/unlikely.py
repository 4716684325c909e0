"""readability-lxml's ``remove_unlikely_candidates``, walking only the elements it can remove.

readability drops each element whose class and id (``"<class> <id>"``) match its
``unlikelyCandidatesRe`` but not its ``okMaybeItsACandidateRe`` (a sidebar, a comment box, a
footer), unless it is the ``<html>`` or ``<body>``, inside or is code, or holds the article
(``main``, ``article``, ``math``). It formats that string for every element of the page
(``findall(".//*")``), though only an element with a class or an id can match (``" "`` matches
neither pattern): a tenth of the extraction of a small page, where most elements have
neither. :func:`remove_unlikely_candidates` asks lxml for the elements with a class or an id
(an XPath run in C, in document order, as ``findall`` lists them) and judges each as
readability does, with its patterns and its debug message; ``tests/unit/test_extract_unlikely.py``
holds the step to readability's on pages, so a readability release that changes it fails there.
"""

import logging
from re import Pattern
from typing import Any, Callable

from lxml import etree

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The elements readability's step can remove: those with a class or an id, in document order.
_NAMED = etree.XPath("descendant::*[@class or @id]")
#: readability's two guards, compiled once (``element.xpath(string)`` compiles on every call).
_IN_CODE = etree.XPath("ancestor-or-self::pre | ancestor-or-self::code")
_HOLDS_ARTICLE = etree.XPath("descendant-or-self::main | descendant-or-self::article | descendant-or-self::math")


def remove_unlikely_candidates(
    root: etree._Element, regexes: dict[str, Pattern[str]], log: logging.Logger, describe: Callable[[Any], str]
) -> None:
    """readability's ``remove_unlikely_candidates`` on ``root`` (``regexes``: its ``REGEXES``,
    ``log`` and ``describe``: its logger and its description of an element), in place."""
    unlikely, maybe = regexes["unlikelyCandidatesRe"], regexes["okMaybeItsACandidateRe"]
    for elem in _NAMED(root):
        names = "{} {}".format(elem.get("class", ""), elem.get("id", ""))
        if len(names) < 2:
            continue
        if (
            unlikely.search(names)
            and not maybe.search(names)
            and elem.tag not in ("html", "body")
            and not _IN_CODE(elem)
            and not _HOLDS_ARTICLE(elem)
        ):
            if log.isEnabledFor(logging.DEBUG):
                log.debug("Removing unlikely candidate - %s" % describe(elem))
            elem.drop_tree()
