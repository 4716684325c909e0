"""The package's regular expressions compile on the oldest Python setup.cfg allows: possessive
quantifiers and atomic groups came to ``re`` in 3.11, and an import on 3.10 failed with
``re.error: multiple repeat``.

The compiled patterns are checked (``tests/package_patterns.py`` collects them from the imported
modules): each one's parse tree must hold no ``POSSESSIVE_REPEAT`` or ``ATOMIC_GROUP``, however the
source spelled or assembled it (split constants, f-strings, ``format``, aliases of ``re``, keyword
arguments, class attributes). A scan of the source stays for what the collector cannot import or
reach: string patterns compiled inside a function (``contract/recording.py``'s, which the
function-body rule of ``tests/sockets/test_hardening_regex.py`` exempts) and modules of an
optional extra that is not installed. It reads only constants passed to ``re.<function>`` and
the module-level names they use, so it is the weaker net."""

import ast
import configparser
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import websearch_sync

try:  # Python >= 3.11
    from re import _constants as sre_constants
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

from package_patterns import package_patterns
from package_source import PACKAGE as SOURCE_ROOT
from package_source import package_files, parsed, source

PACKAGE = Path(websearch_sync.__file__).parent
SETUP_CFG = PACKAGE.parent / "setup.cfg"

#: The opcodes of syntax ``re`` parses only from 3.11 (absent before: there it does not compile).
_NEWER_OPCODES = frozenset(
    getattr(sre_constants, name) for name in ("POSSESSIVE_REPEAT", "ATOMIC_GROUP") if hasattr(sre_constants, name)
)
_NEEDS_3_11 = pytest.mark.skipif(sys.version_info < (3, 11), reason="the syntax does not compile before 3.11")


def _opcodes(value: Any) -> "set[str]":
    """The newer opcodes anywhere in a parse tree: a subpattern, or the operands of any opcode
    (groups, branches, repeats, lookarounds, conditionals nest subpatterns in tuples and lists)."""
    found: set[str] = set()
    if isinstance(value, sre_parse.SubPattern):
        for op, av in value:
            if op in _NEWER_OPCODES:
                found.add(str(op))
            found |= _opcodes(av)
    elif isinstance(value, (tuple, list)):
        for item in value:
            found |= _opcodes(item)
    return found


def newer_opcodes(pattern: "re.Pattern[Any]") -> "set[str]":
    """The opcodes of ``pattern`` that Python 3.10's ``re`` cannot compile."""
    return _opcodes(sre_parse.parse(pattern.pattern, pattern.flags))


def test_the_floor_is_older_than_possessive_quantifiers():
    config = configparser.ConfigParser()
    config.read(SETUP_CFG)
    floor = config["options"]["python_requires"].strip()
    assert floor.startswith(">=3.") and int(floor[len(">=3.") :]) < 11, floor


@_NEEDS_3_11
@pytest.mark.parametrize(
    "source, expected",
    [
        ("a*" + "+", {"POSSESSIVE_REPEAT"}),
        (r"(?>[a-z]+|x)", {"ATOMIC_GROUP"}),
        (r"\d{2,3}+", {"POSSESSIVE_REPEAT"}),
        (r"(?:ab)*+c", {"POSSESSIVE_REPEAT"}),
        (r"(?i:x|(?=y(?:[ab]?+)))", {"POSSESSIVE_REPEAT"}),
        (r"(a)?(?(1)(?>b)|c)", {"ATOMIC_GROUP"}),
        (r"(?<!z{0}+)q", {"POSSESSIVE_REPEAT"}),
        (r"[!#$%&'*+.^_`|~0-9A-Za-z-]+", set()),
        (r"[*+]x\*+y[\]*+]?", set()),
        ("a{0}+".format("b"), set()),  # noqa: UP030 - what the source scan misread as possessive
        (r"a+?b*(?:c?)", set()),
    ],
)
def test_the_check_reads_the_parse_tree(source, expected):
    assert newer_opcodes(re.compile(source)) == expected
    assert newer_opcodes(re.compile(source.encode(), re.I)) == expected


def test_no_compiled_pattern_uses_syntax_newer_than_the_floor():
    patterns = package_patterns()
    assert len(patterns) >= 30  # the collector still finds the package's patterns
    offenders = [
        "%s: %r uses %s" % (name, pattern.pattern[:60], sorted(found))
        for name, pattern in patterns.values()
        if (found := newer_opcodes(pattern))
    ]
    assert offenders == []


# -- the source scan, for patterns the collector cannot reach -----------------------------------

#: Outside a character class: ``(?>`` opens an atomic group, a quantifier followed by ``+`` is
#: possessive. A class (``[...+]``) and an escaped character are skipped whole.
_NEWER_SYNTAX = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|(?P<newer>\(\?>|(?:[*+?]|\{\d*,?\d*\})\+)")


def newer_syntax(text: str) -> "list[str]":
    """The pieces of ``text`` that ``re`` reads only from Python 3.11."""
    return [m.group("newer") for m in _NEWER_SYNTAX.finditer(text) if m.group("newer")]


def test_the_scanner_sees_newer_syntax_and_skips_classes():
    assert newer_syntax(r"a*+b") == ["*+"]
    assert newer_syntax(r"(?>[a-z]++|x?+)") == ["(?>", "++", "?+"]
    assert newer_syntax(r"\d{2,3}+") == ["{2,3}+"]
    assert newer_syntax(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+") == []
    assert newer_syntax(r"[]*+]x\*+y[\]*+]") == []
    assert newer_syntax(r"a+b*(?:c?)") == []


_RE_FUNCTIONS = {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"}


def pattern_strings(tree: ast.Module) -> "list[ast.Constant]":
    """The string constants ``re``'s calls in ``tree`` reach: their arguments, and the module-level
    assignments and functions those use (docstrings aside), transitively."""
    definitions: dict[str, ast.AST] = {}
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
            definitions[statement.name] = statement
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            for target in statement.targets if isinstance(statement, ast.Assign) else [statement.target]:
                if isinstance(target, ast.Name):
                    definitions[target.id] = statement.value
    pending: list[ast.AST] = [
        argument
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "re"
        and node.func.attr in _RE_FUNCTIONS
        for argument in node.args[:1]
    ]
    seen: set[int] = set()
    found = []
    while pending:
        root = pending.pop()
        docstrings = {
            id(node.value)
            for node in ast.walk(root)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        for node in ast.walk(root):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                found.append(node)
            elif isinstance(node, ast.Name) and node.id in definitions and id(definitions[node.id]) not in seen:
                seen.add(id(definitions[node.id]))
                pending.append(definitions[node.id])
    return found


def test_the_old_crowded_tags_patterns_are_found():
    """The possessive form of the attribute bound's scan (what failed on 3.10) is caught."""
    source = "import re\n_A = r'[^<]++'\ndef _b():\n    return rf'(?>{_A})'\n_SCAN = re.compile(_b())\n"
    assert sorted(p for node in pattern_strings(ast.parse(source)) for p in newer_syntax(node.value)) == ["(?>", "++"]


def test_no_literal_pattern_in_the_source_uses_syntax_newer_than_the_floor():
    offenders = []
    for path in package_files():  # the trees the other structure tests of this worker read too
        if "re." not in source(path):
            continue
        for node in pattern_strings(parsed(path)):
            if newer_syntax(node.value):
                offenders.append("%s:%d: %r" % (path.relative_to(SOURCE_ROOT), node.lineno, node.value[:60]))
    assert offenders == []
