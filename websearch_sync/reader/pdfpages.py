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

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, Optional, Union

from ..checkpoints import checkpoint

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What a page inherits from the page-tree nodes above it when it does not say it itself.
INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")
#: Levels of page-tree nodes (pypdf's own limit: a real tree is a few levels deep).
MAX_DEPTH = 100
#: The share of the read's time left that counting an unreadable kid's pages may spend: the
#: numbers are worth less than the pages' text, which the read goes on to with the rest.
COUNT_SHARE = 0.5


class Unreadable(NamedTuple):
    """What :func:`page_objects` gives for a kid of the page tree whose object cannot be parsed
    (one of the ``failures`` it was given): the error, and how many pages it held: a page, or
    a ``/Pages`` node of many, cannot be told apart by what failed, so it is its parent's
    ``/Count`` less its other kids' pages when those counts can hold (see
    :func:`_unreadable_pages`); ``None`` when that is unknown, and so are the numbers of the
    pages after it. A viewer shows the other pages; so does the read, which counts it as pages
    left out."""

    error: BaseException
    pages: Optional[int]


def page_objects(
    pypdf: Any, reader: Any, failures: tuple[type[BaseException], ...], remaining: Callable[[], float]
) -> Iterator[Union[Any, Unreadable]]:
    """The pages of ``reader``'s document in order, each resolved when it is asked for (pages
    a read never reaches are never parsed); :class:`Unreadable` for a kid whose object raised
    one of ``failures`` when resolved. Counting what such a kid held resolves its siblings
    ahead of the read (40,000 pages under one node: 2 s), so it gives up, the count unknown,
    once it spent :data:`COUNT_SHARE` of the seconds the read had left (``remaining()``) when
    it began: the read goes on with the pages, unnumbered, until its own reserve.
    Raises pypdf's ``PdfReadError`` for a document without a page tree, a cycle in it, or
    one deeper than :data:`MAX_DEPTH`."""
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
            yield Unreadable(error, path[-1].unreadable_pages(failures, generic, remaining))
            continue
        if not isinstance(node, generic.DictionaryObject) or not node:  # a damaged file's entry: skipped
            continue
        if any(node is ancestor.node for ancestor in path):
            raise pypdf.errors.PdfReadError("the page tree holds a cycle")
        kind = _kind(node)
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
        self.all_kids: list[Any] = list(kids) if isinstance(kids, generic.ArrayObject) else []
        self.kids: Iterator[Any] = iter(self.all_kids)
        self._unreadable: Union[Optional[int], str] = "not counted"

    def unreadable_pages(
        self, failures: tuple[type[BaseException], ...], generic: Any, remaining: Callable[[], float]
    ) -> Optional[int]:
        """The pages of this node's one unreadable kid (:func:`_unreadable_pages`), counted once
        (each kid parsed once more: pypdf keeps those it parsed)."""
        if self._unreadable == "not counted":
            self._unreadable = _unreadable_pages(self.node, self.all_kids, failures, generic, remaining)
        return self._unreadable if isinstance(self._unreadable, int) else None


def _unreadable_pages(
    node: Any,
    kids: list[Any],
    failures: tuple[type[BaseException], ...],
    generic: Any,
    remaining: Callable[[], float],
) -> Optional[int]:
    """The pages of ``node``'s one unreadable kid: its ``/Count`` less the pages of its readable
    kids (a page is one, a node its ``/Count``). ``None``, the count unknown, when there are
    several unreadable kids, a count is not a number, the count spent its share of the time
    left (see :func:`page_objects`), or
    the counts cannot hold: fewer than one page left for it, or several when every other kid
    is a page (a node's kids are pages or nodes: a kid among pages said to hold several is a
    wrong ``/Count`` more likely than a node). The counts a file states are not checked
    further: a node's ``/Count`` is believed until its pages are walked."""
    pages = node.get("/Count")
    if not isinstance(pages, int):
        return None
    give_up = remaining() * (1 - COUNT_SHARE)  # the time left at which it gives up
    unreadable = 0
    among_pages = True  # every readable kid so far a page
    for kid in kids:
        checkpoint()
        if remaining() < give_up:
            return None
        try:
            kid = kid.get_object()
        except failures:
            unreadable += 1
            continue
        if not isinstance(kid, generic.DictionaryObject) or not kid:  # skipped by the walk: no page
            continue
        if _kind(kid) == "/Pages":
            among_pages, count = False, kid.get("/Count")  # a node without one: unknown
        else:
            count = 1
        if not isinstance(count, int):
            return None
        pages -= count
    if unreadable != 1 or pages < 1 or (among_pages and pages != 1):
        return None
    return int(pages)


def _kind(node: Any) -> Any:
    """A page-tree node's ``/Type``; without one, ``/Pages`` when it has kids (as pypdf reads it)."""
    return node.get("/Type", "/Pages" if "/Kids" in node else "/Page")


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
