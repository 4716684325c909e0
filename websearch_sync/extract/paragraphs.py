"""Text written as ``<br><br>``-separated runs becomes paragraphs.

readability scores paragraphs (``<p>``, and a ``<div>`` without blocks turned into one):
text kept in a table cell or a division and separated by ``<br><br>`` counts as a single
paragraph, so a table row that also holds sidebar cells outscores the cell with the
article. Inside ``td``/``th``/``div`` (or an inline wrapper such as ``<font>`` directly
inside one), every run of two or more ``<br>`` ends a paragraph: the text and inline
elements between runs are wrapped in ``<p>``. Block children are left where they are and
end a paragraph too. One pass per element that has such a run.
"""

from typing import Optional

from lxml import etree

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Elements whose ``<br><br>`` runs separate paragraphs (directly, or through inline wrappers).
_CONTAINERS = frozenset(("td", "th", "div"))
_INLINE_WRAPPERS = frozenset(("font", "span", "b", "strong", "i", "em", "center", "small", "big"))
_BLOCKS = frozenset(
    (
        "p",
        "div",
        "table",
        "ul",
        "ol",
        "dl",
        "blockquote",
        "pre",
        "form",
        "section",
        "article",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "center",
    )
)


def _blank(text: Optional[str]) -> bool:
    return not text or not text.strip()


def _has_run(parent: etree._Element) -> bool:
    for child in parent:
        if child.tag == "br" and _blank(child.tail):
            following = child.getnext()
            if following is not None and following.tag == "br":
                return True
    return False


def _container(parent: etree._Element) -> bool:
    """True for a ``td``/``th``/``div``, or an inline wrapper whose nearest non-inline
    ancestor is one."""
    element: Optional[etree._Element] = parent
    while element is not None and element.tag in _INLINE_WRAPPERS:
        element = element.getparent()
    return element is not None and element.tag in _CONTAINERS


def _split(parent: etree._Element) -> None:
    children = list(parent)
    out: list[etree._Element] = []
    paragraph = parent.makeelement("p", {})  # of the page's parser: its children stay HTML elements
    paragraph.text = parent.text
    parent.text = None

    def close() -> None:
        nonlocal paragraph
        if len(paragraph) or not _blank(paragraph.text):
            out.append(paragraph)
        paragraph = parent.makeelement("p", {})

    index = 0
    while index < len(children):
        child = children[index]
        parent.remove(child)
        if child.tag == "br":
            run = index
            while run + 1 < len(children) and children[run + 1].tag == "br" and _blank(children[run].tail):
                run += 1
            if run > index:
                for extra in children[index + 1 : run + 1]:
                    parent.remove(extra)
                close()
                paragraph.text = children[run].tail
                index = run + 1
                continue
            paragraph.append(child)
        elif isinstance(child.tag, str) and child.tag in _BLOCKS:
            tail, child.tail = child.tail, None
            close()
            out.append(child)
            paragraph.text = tail
        else:
            paragraph.append(child)
        index += 1
    close()
    parent.extend(out)


def split_br_runs(root: etree._Element) -> None:
    """Wraps the ``<br><br>``-separated runs of text inside table cells and divisions in
    ``<p>`` elements, in place (module docstring)."""
    parents = dict.fromkeys(br.getparent() for br in root.iter("br"))  # document order, each once
    for parent in parents:
        if parent is not None and _container(parent) and _has_run(parent):
            _split(parent)
