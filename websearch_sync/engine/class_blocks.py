"""Result blocks read without the walk's per-element steps, where its tests are declared.

:func:`~.html_parsing.walk_blocks` runs Python for every element of a results region: two steps
of its loop (a start and an end) and a part test each, about 2,500 lines of Python on a
DuckDuckGo page (ddgs's whole search runs 1,737). Where the tests say what they look for — the
block is a :class:`ClassedTag` (an element name and one of its classes), every part a
:class:`~.html_parsing.HasClass` or a :class:`Below` one of those — the blocks are the elements
lxml's ``iter(name)`` hands out (filtered in C) with the class, each block's parts the first of its
descendants whose class attribute names them (one dict lookup an element: the parts an attribute
names are kept by the attribute as written, looked up once), and each part's text is read by
lxml (``itertext``) when asked: the same blocks, parts and texts as the walk, at
about half its CPU time. (libxml2's XPath finds the same in C but costs more: its string tests of
a class list allocate at every element.)

Only where that is sure to be so (:func:`found` returns ``None`` otherwise, and the walk runs):
no ``skip``, and no block inside another (the texts of a nested block are not its outer
block's). ``tests/unit/test_class_blocks.py`` compares the two on every recorded page.
"""

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Callable, Optional

from lxml import etree

from ..checkpoints import checked

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How many blocks are read between two checkpoints: as many as the walk reads between two of its
#: own (one every 512 elements) where a block has four elements, so that a parse abandoned at its
#: deadline opens no more blocks after it than by the walk.
_BLOCKS_EVERY = 128

#: What :attr:`_Plan.by_value` gives for a class attribute not met before (truthy, unlike "none").
_NEW = ("",)
#: How many class attributes a plan keeps looked up (the pages of one engine repeat a few dozen);
#: one met after that is looked up each time it is met.
_VALUES_KEPT = 512


class ClassedTag:
    """The block test "a ``tag`` element with class ``name``" (an ``is_block`` of
    :func:`~.html_parsing.walk_blocks`), declared so that lxml can find the blocks."""

    __slots__ = ("tag", "name")

    def __init__(self, tag: str, name: str) -> None:
        self.tag = tag
        self.name = name

    def __call__(self, tag: Any) -> bool:
        return tag.tag == self.tag and self.name in (tag.get("class") or "").split()

    def __repr__(self) -> str:
        return "ClassedTag(%r, %r)" % (self.tag, self.name)


class UnclassedTag:
    """The element test "a ``tag`` element without a class" (a :class:`Below` part's ``test``),
    declared so that lxml hands out only the ``tag`` elements below the part it is below (filtered
    in C), not every element there."""

    __slots__ = ("tag",)

    def __init__(self, tag: str) -> None:
        self.tag = tag

    def __call__(self, tag: Any) -> bool:
        if tag.tag != self.tag:
            return False
        value = tag.get("class")
        return not (value and value.split())

    def __repr__(self) -> str:
        return "UnclassedTag(%r)" % self.tag


class Below:
    """The part test "below the element of part ``part``, and passing ``test``" (a
    :data:`~.html_parsing.PartTest`): the first such element of the block is the part."""

    __slots__ = ("part", "test")

    def __init__(self, part: str, test: Callable[[Any], bool]) -> None:
        self.part = part
        self.test = test

    def __call__(self, tag: Any, inside: Any) -> bool:
        return self.part in inside and self.test(tag)

    def __repr__(self) -> str:
        return "Below(%r, %r)" % (self.part, self.test)


class _Plan:
    """A walk's declared tests: the parts its class tests name, by an element's class attribute
    (as it is written: the blocks of a page repeat the same few), and its :class:`Below` parts."""

    __slots__ = ("by_class", "by_value", "below")

    def __init__(self, by_class: Mapping[str, list[str]], below: list[tuple[str, Below]]) -> None:
        self.by_class = by_class
        #: The parts each class attribute met so far names (``()``: none; the key ``None``: no
        #: attribute), at most :data:`_VALUES_KEPT` of them.
        self.by_value: dict[Optional[str], tuple[str, ...]] = {None: ()}
        #: Each :class:`Below` part, its test, and what lxml hands out for the test to try (:func:`_candidates`).
        self.below = [(part, test, _candidates(test.test)) for part, test in below]

    def _named(self, value: str) -> tuple[str, ...]:
        """The parts the class attribute ``value`` names, in the order the walk records them."""
        named = tuple(part for name in value.split() for part in self.by_class.get(name, ()))
        if len(self.by_value) < _VALUES_KEPT:
            self.by_value[value] = named
        return named

    def parts(self, block: Any) -> dict[str, Any]:
        """The first element of each part below ``block`` (which holds no other block). An
        element's class attribute is looked up whole (:attr:`by_value`): split and its names
        looked up only the first time it is met in the walk, not again in every block."""
        found: dict[str, Any] = {}
        by_value = self.by_value
        for element in checked(block.iterdescendants(etree.Element)):
            parts = by_value.get(element.get("class"), _NEW)
            if parts:
                if parts is _NEW:
                    parts = self._named(element.get("class"))
                for part in parts:
                    if part not in found:
                        found[part] = element
        for part, test, candidates in self.below:
            top = found.get(test.part)
            if top is not None:
                for element in top.iterdescendants(candidates):
                    if test.test(element):
                        found[part] = element
                        break
        return found


def _candidates(test: Callable[[Any], bool]) -> Any:
    """What lxml is to hand out for ``test`` to try: an :class:`UnclassedTag`'s elements of its
    name alone (a name lxml reads as a plain one), else every element."""
    if type(test) is UnclassedTag and test.tag.isalnum():
        return test.tag
    return etree.Element


def plan(by_class: Mapping[str, list[str]], others: Sequence[tuple[str, Any]]) -> Optional[_Plan]:
    """The part tests as :func:`found` reads them (``by_class``: the :class:`~.html_parsing.HasClass`
    parts by class name; ``others``: the other part tests, by part), or ``None`` when one of them is
    neither a class test nor below one. Made once for a walk's tests and kept with them: the class
    attributes it has looked up stay looked up for the next page."""
    class_parts = {part for parts in by_class.values() for part in parts}
    below = [(part, test) for part, test in others if type(test) is Below and test.part in class_parts]
    return _Plan(by_class, below) if len(below) == len(others) else None


def _nested(blocks: Sequence[Any]) -> bool:
    """Whether a block of ``blocks`` (in document order) is inside another."""
    if not blocks:
        return False
    parent = blocks[0].getparent()
    if all(block.getparent() is parent for block in blocks):  # siblings (every page seen): none is
        return False
    # In document order the first block inside another comes right after a block it is inside,
    # so comparing neighbours finds any nesting (libxml2 nests at most 256 deep: linear).
    return any(outer in inner.iterancestors() for outer, inner in zip(blocks, blocks[1:]))


def found(
    root: Any, is_block: Callable[[Any], bool], parts: Optional[_Plan], skip: Optional[Callable[[Any], bool]]
) -> Optional[Iterator[tuple[Any, dict[str, Any]]]]:
    """The blocks below ``root`` and the first element of each of their ``parts`` (:func:`plan`),
    as :func:`~.html_parsing.walk_blocks` finds them; ``None`` where this cannot be sure to find the
    same (see the module's doc), and the walk is to run. Lazy: a block's parts are found as it is
    asked for, with a checkpoint every :data:`_BLOCKS_EVERY` blocks."""
    if parts is None or skip is not None or type(is_block) is not ClassedTag or not is_block.tag.isalnum():  # "*"
        return None
    name = is_block.name
    blocks = [tag for tag in checked(root.iterdescendants(is_block.tag)) if name in (tag.get("class") or "").split()]
    if _nested(blocks):
        return None
    return ((block, parts.parts(block)) for block in checked(blocks, _BLOCKS_EVERY))
