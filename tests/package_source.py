"""The package's source files, each read and parsed once per test process.

Several structure tests walk every module of the package (its layers and their complexity, the
one hop loop); a pass parses ~170 files (~0.5 s of CPU). The trees are shared between those
tests: read them, never change them. A check that looks for a name parses only the files that
spell it (:func:`spelling`), and one that looks for statements (imports) walks the statements
only (:func:`statements`): the expressions are most of a tree's nodes."""

import ast
import functools
import gc
from collections.abc import Iterator
from pathlib import Path

import websearch_sync

PACKAGE = Path(websearch_sync.__file__).resolve().parent


@functools.cache
def source(path: Path) -> str:
    """The text of the source file at ``path``."""
    return path.read_text(encoding="utf-8")


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the source file at ``path``, kept until the process ends and frozen out
    of the cyclic collector's way (``gc.freeze``, as tests/conftest.py does after each module):
    the package's trees are a million nodes, and every full collection while a module reading
    them ran walked them all (1.3 s of CPU in each of ``test_layering.py`` and
    ``test_public_surface.py``, more than their own work)."""
    tree = ast.parse(source(path), str(path))
    gc.freeze()
    return tree


@functools.cache
def package_files() -> tuple[Path, ...]:
    """The package's source files, in order."""
    return tuple(sorted(PACKAGE.rglob("*.py")))


def spelling(word: str) -> list[Path]:
    """The package's source files whose text holds ``word``: a file without it can hold no
    name, call or attribute of that name (an identifier is never split), so it is not parsed."""
    return [path for path in package_files() if word in source(path)]


#: The fields of a node that hold statements, or the handlers and match cases that do.
_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def statements(tree: ast.AST) -> Iterator[ast.stmt]:
    """Every statement of ``tree``, nested ones included (in a function, a class, an ``if``, a
    ``try``'s handlers, a ``match``'s cases), without walking into expressions: imports are
    statements, and a walk of the statements alone visits a few times fewer nodes."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.stmt):
            yield node
        for field in _STATEMENT_FIELDS:
            children = getattr(node, field, None)
            if isinstance(children, list):
                todo.extend(reversed(children))
