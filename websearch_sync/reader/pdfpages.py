"""The pages of a PDF, one at a time: its page tree walked as the read reaches each page.

pypdf's ``reader.pages`` resolves every page object of the document the first time it is
used, in one call no deadline can stop (about 0.05 ms a page on an idle machine: 2 s for a
3 MB file of 40,000 blank pages, which then ran on in a thread its fetch had abandoned).
So :mod:`.pdf` walks the tree itself, through pypdf's public objects, with a
:func:`~websearch_sync.checkpoints.checkpoint` at every node, building each page as pypdf
does: a :class:`pypdf.PageObject` holding the page's entries and the ones it inherits from
its ancestors (resources, boxes, rotation). A node that is its own ancestor, or a tree
deeper than :data:`MAX_DEPTH`, is a broken file (pypdf's ``PdfReadError``), as for pypdf.
"""

from collections.abc import Iterator
from typing import Any, NamedTuple, Union

from ..checkpoints import checkpoint

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What a page inherits from the page-tree nodes above it when it does not say it itself.
INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")
#: Levels of page-tree nodes (pypdf's own limit: a real tree is a few levels deep).
MAX_DEPTH = 100


class Unreadable(NamedTuple):
    """What :func:`page_objects` gives for a kid of the page tree whose object cannot be parsed
    (one of the ``failures`` it was given): the error. A viewer shows the other pages; so does
    the read, which counts it as a page left out."""

    error: BaseException


def page_objects(
    pypdf: Any, reader: Any, failures: tuple[type[BaseException], ...]
) -> Iterator[Union[Any, Unreadable]]:
    """The pages of ``reader``'s document in order, each resolved when it is asked for (pages
    a read never reaches are never parsed); :class:`Unreadable` for a kid whose object raised
    one of ``failures`` when resolved. Raises pypdf's ``PdfReadError`` for a document
    without a page tree, a cycle in it, or one deeper than :data:`MAX_DEPTH`."""
    generic = pypdf.generic
    tree = reader.root_object.get("/Pages")
    tree = tree.get_object() if tree is not None else None
    if not isinstance(tree, generic.DictionaryObject):
        raise pypdf.errors.PdfReadError("the document has no page tree")
    path = [_Node(tree, {}, generic)]  # the /Pages nodes from the root to the one walked
    while path:
        checkpoint()
        kid = next(path[-1].kids, None)
        if kid is None:
            path.pop()
            continue
        try:
            node = kid.get_object()
        except failures as error:
            yield Unreadable(error)
            continue
        if not isinstance(node, generic.DictionaryObject) or not node:  # a damaged file's entry: skipped
            continue
        if any(node is ancestor.node for ancestor in path):
            raise pypdf.errors.PdfReadError("the page tree holds a cycle")
        kind = node.get("/Type", "/Pages" if "/Kids" in node else "/Page")
        if kind == "/Pages":
            if len(path) >= MAX_DEPTH:
                raise pypdf.errors.PdfReadError("the page tree is over %d levels deep" % MAX_DEPTH)
            path.append(_Node(node, path[-1].inherited, generic))
        elif kind == "/Page":
            yield _page(pypdf, reader, kid, node, path[-1].inherited)


class _Node:
    """A ``/Pages`` node being walked: its kids still to come and what its pages inherit."""

    def __init__(self, node: Any, inherited: dict[Any, Any], generic: Any) -> None:
        self.node = node
        self.inherited = {**inherited, **{name: node[name] for name in node if name in INHERITED}}
        kids = node.get("/Kids")
        kids = kids.get_object() if kids is not None else None
        self.kids: Iterator[Any] = iter(kids if isinstance(kids, generic.ArrayObject) else ())


def _page(pypdf: Any, reader: Any, kid: Any, node: Any, inherited: dict[Any, Any]) -> Any:
    """The page ``node`` (reached through ``kid``: a reference, or the dictionary itself) as
    pypdf builds it when it lists the pages: its reference kept (pypdf resolves the page's
    resources through it), its inherited entries added."""
    reference = kid if isinstance(kid, pypdf.generic.IndirectObject) else None
    page = pypdf.PageObject(reader, reference)
    page.update(node)
    for name, value in inherited.items():
        if name not in page:
            page[name] = value
    return page
