"""A frameset page, read by a reader that loads no frames.

A browser never shows ``<noframes>``: its content is raw text to the HTML parser (libxml2's
too, which keeps it as one string of markup) and the user-agent style sheet hides it. On an
ordinary page it is a leftover ("your browser does not support frames") and is removed with
the other junk (``boilerplate.JUNK_TAGS``). A frameset page has no body: what a browser shows
are the frames, separate documents fetch does not load. What its author wrote for a reader
that shows no frames, the role HTML 4 gave ``<noframes>``, is then the page's readable text:
that markup is parsed and becomes the page's body, so it is read as markup, never as its tags.
"""

from typing import Callable, Optional

from lxml import etree

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def unframe(root: etree._Element, parse: Callable[[str], Optional[etree._Element]]) -> None:
    """In a frameset page (``root`` has a ``<frameset>`` and no body), the markup its
    ``<noframes>`` hold, parsed by ``parse`` (a whole page's parse, not unframed again), as
    its ``<body>``, in place; any other page is left as it is."""
    if root.find("frameset") is None or root.find("body") is not None:
        return
    markup = "".join(element.text or "" for element in root.iter("noframes"))
    parsed = parse(markup) if markup.strip() else None
    body = parsed.find("body") if parsed is not None else None
    if body is not None:
        root.append(body)
