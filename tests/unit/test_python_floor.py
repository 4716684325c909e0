"""The package's regular expressions compile on the oldest Python setup.cfg allows: possessive
quantifiers and atomic groups came to ``re`` in 3.11, and an import on 3.10 failed with
``re.error: multiple repeat``. The source is read (3.11 itself compiles them): every string
constant a call of ``re`` reaches, through the module-level names and functions it uses."""

import ast
import configparser
import re
from pathlib import Path

import websearch_sync

PACKAGE = Path(websearch_sync.__file__).parent
SETUP_CFG = PACKAGE.parent / "setup.cfg"

#: Outside a character class: ``(?>`` opens an atomic group, a quantifier followed by ``+`` is
#: possessive. A class (``[...+]``) and an escaped character are skipped whole.
_NEWER_SYNTAX = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|(?P<newer>\(\?>|(?:[*+?]|\{\d*,?\d*\})\+)")


def newer_syntax(text: str) -> "list[str]":
    """The pieces of ``text`` that ``re`` reads only from Python 3.11."""
    return [m.group("newer") for m in _NEWER_SYNTAX.finditer(text) if m.group("newer")]


def test_the_floor_is_older_than_possessive_quantifiers():
    config = configparser.ConfigParser()
    config.read(SETUP_CFG)
    floor = config["options"]["python_requires"].strip()
    assert floor.startswith(">=3.") and int(floor[len(">=3.") :]) < 11, floor


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


def test_no_module_uses_regex_syntax_newer_than_the_floor():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "re." not in text:
            continue
        for node in pattern_strings(ast.parse(text)):
            if newer_syntax(node.value):
                offenders.append("%s:%d: %r" % (path.relative_to(PACKAGE), node.lineno, node.value[:60]))
    assert offenders == []
