"""Detail codes are constants of ``websearch_sync.errors`` and docs/errors.md lists them:
every constant is in the error table's ``detail_code`` column, every code there is a
constant (or the ``http_<status>`` family), every constant is used somewhere, and no module
spells a code as a literal where it sets or compares one (``detail_code="..."``) nor builds
one from pieces (``"bad_" + name``: such a code would be listed nowhere). The table's
``retryable`` column is each class's default for its codes, and the classes backends declare
for vendor codes and refused keys are the table's."""

import ast
import re
from pathlib import Path

import pytest

from websearch_sync import errors, tool

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "websearch_sync"
#: Patterns the table names instead of codes: a family of codes (any status, any 5xx) or
#: the codes of every option (``bad_<option>``: each one is listed beside it).
PATTERNS = {"http_<status>", "http_5xx", "bad_<option>"}


def constants():
    """``{NAME: code}`` of the detail-code block of errors.py (between its markers)."""
    source = (PACKAGE / "errors.py").read_text(encoding="utf-8")
    block = source.split("# -- detail codes", 1)[1].split("# -- end of detail codes", 1)[0]
    names = re.findall(r"^([A-Z][A-Z0-9_]*) = ", block, re.M)
    return {name: getattr(errors, name) for name in names}


def table_codes():
    """``{code: error class}`` of the backquoted codes in the table's last column."""
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    found = {}
    for cls, rest in re.findall(r"^\| `(\w+)` \|(.*)\|\s*$", text, re.M):
        for token in re.findall(r"`([^`]+)`", rest.split("|")[-1]):
            if re.fullmatch(r"[a-z][a-z0-9_]*(<\w+>|5xx)?", token):
                found[token] = cls
    return found


def test_the_block_is_one_name_per_code_named_after_it():
    named = constants()
    assert len(named) > 90  # the block was read
    assert all(isinstance(code, str) and name == code.upper() for name, code in named.items()), named
    assert errors.http_status(429) == errors.HTTP_429


def test_every_constant_is_in_the_error_table():
    documented = table_codes()
    missing = sorted(code for code in constants().values() if code not in documented)
    assert not missing, "docs/errors.md does not list %s" % missing


def test_every_code_in_the_error_table_is_a_constant():
    codes = set(constants().values()) | PATTERNS
    unknown = sorted(code for code in table_codes() if code not in codes)
    assert not unknown, "docs/errors.md lists %s, which errors.py has no constant for" % unknown


def test_the_warnings_the_model_reads_as_notes_are_the_tables_warnings():
    """``tool.WARNINGS`` (a warning in ``errors`` is a note, not a failed source) is the table's rows
    that say "only as a warning": a warning code added to the table without it was told to a model
    as a failure."""
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    warned = set()
    for row in re.findall(r"^\| `\w+` \|(.*)\|\s*$", text, re.M):
        if "only as a warning" in row:
            warned.update(re.findall(r"`([a-z][a-z0-9_]*)`", row.split("|")[-1]))
    assert warned == set(tool.WARNINGS)


def _strings(node):
    """The string literals ``node`` evaluates to: itself, a branch of ``a if c else b``, an item of a tuple."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [leaf for item in node.elts for leaf in _strings(item)]
    return []


def _built(node):
    """The parts of ``node`` that build a string (``"bad_" + name``, ``"http_%d" % n``, f-strings)."""
    if isinstance(node, ast.IfExp):
        return _built(node.body) + _built(node.orelse)
    if isinstance(node, ast.BoolOp):  # detail or "bad_" + name
        return [piece for value in node.values for piece in _built(value)]
    return [node] if isinstance(node, (ast.BinOp, ast.JoinedStr)) else []


def _literal_codes(path):
    """``(line, code)`` of string literals set or compared as a detail code in one module, and
    of codes built from pieces (set, or assigned to a ``detail`` variable). A module whose text
    never says ``detail`` has neither such a keyword, variable nor attribute: it is not parsed
    (six modules in ten; parsing and walking every module was the CPU of this test)."""
    source = path.read_text(encoding="utf-8")
    if "detail" not in source:
        return
    for node in ast.walk(ast.parse(source)):
        built = []
        if isinstance(node, ast.keyword) and node.arg in ("detail_code", "detail"):
            values = [node.value]
            built = _built(node.value)
        elif isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id in ("detail", "detail_code") for target in node.targets
        ):
            values = [node.value]
            built = _built(node.value)
        elif isinstance(node, ast.Compare) and any(
            isinstance(side, ast.Attribute) and side.attr == "detail_code" for side in [node.left, *node.comparators]
        ):
            values = [node.left, *node.comparators]
        else:
            continue
        for value in values:
            yield from ((leaf.lineno, leaf.value) for leaf in _strings(value))
        yield from ((piece.lineno, ast.unparse(piece)) for piece in built)


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_spells_a_detail_code_as_a_literal(path):
    found = list(_literal_codes(path))
    assert not found, "%s sets or compares detail codes as literals: %s (use websearch_sync.errors' constants)" % (
        path.relative_to(ROOT),
        found,
    )


def _rows():
    """``(class, retryable cell, codes)`` of each row of the table."""
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    for cls, rest in re.findall(r"^\| `(\w+)` \|(.*)\|\s*$", text, re.M):
        cells = rest.split("|")
        yield cls, cells[-2].strip(), re.findall(r"`([^`]+)`", cells[-1])


def test_the_retryable_column_is_what_each_error_says_by_default():
    """An error built with the row's class and code says ``retryable`` as the row does (a pattern
    stands for one of its codes: ``http_<status>`` for 418, ``http_5xx`` for 503)."""
    read = list(_rows())
    assert len(read) > 100 and {cell for _, cell, _ in read} == {"yes", "no"}
    examples = {"<status>": "418", "5xx": "503", "<option>": "x"}
    wrong = [
        (cls, code, cell)
        for cls, cell, codes in read
        for code in codes
        for example in [re.sub(r"<status>|5xx|<option>", lambda m: examples[m.group()], code)]
        if getattr(errors, cls)("m", detail_code=example).retryable != (cell == "yes")
    ]
    assert not wrong


def test_a_vendor_codes_error_class_is_the_one_its_row_names():
    """A backend's ``vendor_codes`` (a vendor's error code -> ``(class, detail code)``) raise that
    class with that code, and its ``auth_statuses`` ``AuthError(http_<status>)``: the table's row
    for the code names the class (the scan of ``Class(detail_code=...)`` calls does not see them)."""
    from websearch_sync.engine import registry

    documented: dict = {}
    for cls, _, codes in _rows():
        for code in codes:
            documented.setdefault(code, set()).add(cls)
    pairs = {
        (name, vendor, cls.__name__, detail)
        for name in registry.backend_names()
        for vendor, (cls, detail) in (getattr(registry.backend_class(name), "vendor_codes", None) or {}).items()
    }
    pairs |= {  # and the statuses a JSON API declares a refused key or account: AuthError(http_<status>)
        (name, status, "AuthError", errors.http_status(status))
        for name in registry.backend_names()
        for status in getattr(registry.backend_class(name), "auth_statuses", ())
    }
    assert len(pairs) > 20  # the declarations were read
    assert not [pair for pair in pairs if pair[2] not in documented.get(pair[3], ())]


def _names_read(path: Path, after: int = 0) -> set:
    """The names ``path``'s code reads (``NAME``, ``errors.NAME``) on lines past ``after``: not a
    comment, a string, an import or the assignment defining the name."""
    read = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.lineno > after:
            read.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.lineno > after:
            read.add(node.attr)
    return read


def test_every_constant_is_used_somewhere():
    """A code of the table is one the package can give: its constant is read by code outside its
    definition (raised, compared, declared; a comment or an import naming it is no use), or it is
    an HTTP status's (``http_status(status)`` builds those). A code left in errors.py and the table
    after its last use would promise users an error that no longer happens."""
    source = (PACKAGE / "errors.py").read_text(encoding="utf-8")
    end_of_codes = source[: source.index("# -- end of detail codes")].count("\n") + 1
    names = _names_read(PACKAGE / "errors.py", after=end_of_codes).union(
        *(_names_read(path) for path in PACKAGE.rglob("*.py") if path.name != "errors.py")
    )
    unused = [name for name, code in constants().items() if name not in names and not re.fullmatch(r"http_\d{3}", code)]
    assert len(names) > 1000  # the package was read
    assert not unused
