"""The package's source files, each parsed once per test process.

Several structure tests walk every module of the package (its layers and their complexity, the
one hop loop); a pass parses ~140 files (~0.2 s of CPU). The trees are shared between those
tests: read them, never change them."""

import ast
import functools
from pathlib import Path


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the source file at ``path``."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))
