"""Detail codes are constants of ``websearch_sync.errors`` and docs/errors.md lists them:
every constant is in the error table's ``detail_code`` column, every code there is a
constant (or the ``http_<status>`` family), every constant is used somewhere, and no module
spells a code as a literal where it sets or compares one (``detail_code="..."``) nor builds
one from pieces (``"bad_" + name``: such a code would be listed nowhere). The table's
``retryable`` column is each class's default for its codes, and the classes backends declare
for vendor codes and refused keys are the table's. Every exception class of the package is a row's
(or a subclass of one), or named with the reason no caller gets it; each row's class has a public
name, and a row of an error that is no ``WebSearchError`` lists no ``retryable`` nor code."""

import ast
import importlib
import pkgutil
import re
import warnings
from pathlib import Path

import pytest
import requests
from package_source import package_files, parsed, source

import websearch_sync
from websearch_sync import errors, tool
from websearch_sync.net import mocks

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
    if "detail" not in source(path):
        return
    for node in ast.walk(parsed(path)):
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


#: Rows of an error that is not its class's default for its code, each with what builds it:
#: (class, code, retryable cell) -> the error.
BUILT_OTHERWISE = {
    ("NetworkError", "connection_error", "no"): lambda: mocks.refusal(
        "h",
        requests.ConnectionError("Connection refused by Responses - the call doesn't match any registered mock."),
        None,
    ),
}


def test_the_retryable_column_is_what_each_error_says_by_default():
    """An error built with the row's class and code says ``retryable`` as the row does (a pattern
    stands for one of its codes: ``http_<status>`` for 418, ``http_5xx`` for 503); a row of
    :data:`BUILT_OTHERWISE`, as what builds it says."""
    read = [row for row in _rows() if _is_search_error(row[0])]
    assert len(read) > 100 and {cell for _, cell, _ in read} == {"yes", "no"}
    examples = {"<status>": "418", "5xx": "503", "<option>": "x"}
    wrong = [
        (cls, code, cell)
        for cls, cell, codes in read
        for code in codes
        for example in [re.sub(r"<status>|5xx|<option>", lambda m: examples[m.group()], code)]
        for built in [_row_error(cls, code, cell, example)]
        if (type(built).__name__, built.detail_code, built.retryable) != (cls, example, cell == "yes")
    ]
    assert not wrong
    assert set(BUILT_OTHERWISE) <= {(cls, code, cell) for cls, cell, codes in read for code in codes}


def _row_error(cls: str, code: str, cell: str, example: str) -> errors.WebSearchError:
    """The error a row stands for: built by :data:`BUILT_OTHERWISE`, else its class's default for ``example``."""
    build = BUILT_OTHERWISE.get((cls, code, cell))
    return build() if build is not None else getattr(errors, cls)("m", detail_code=example)


def _is_search_error(name: str) -> bool:
    return isinstance(getattr(errors, name, None), type) and issubclass(getattr(errors, name), errors.WebSearchError)


def test_a_row_of_an_error_that_is_no_search_error_has_no_retryable_nor_code():
    """``StdoutClaimed``, ``RenewalFailed``, ``WebToolError``: no ``retryable`` attribute and no detail code to list."""
    others = [(cls, cell, codes) for cls, cell, codes in _rows() if not _is_search_error(cls)]
    assert {"StdoutClaimed", "RenewalFailed", "WebToolError"} <= {cls for cls, _, _ in others}
    assert [(cls, cell, codes) for cls, cell, codes in others if (cell, codes) != ("—", [])] == []


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
    for node in ast.walk(parsed(path)):
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


# -- the error classes: every one a caller can get is in the table ----------------------------------

#: The package's exception classes no caller gets, and where each ends instead: caught inside and
#: turned into one of the table's errors, or a signal between the package's own parts. A new
#: exception class is either in the table or here, with its reason.
INTERNAL = {
    "JsonTooDeep": "read as WebParseError (engine/base.py, reader/content.py)",
    "DeadlinePassed": "read as Timeout(deadline_exceeded or dns_timeout) (engine/base.py, net/ssrf.py)",
    "HeadTooLarge": "read as NetworkError (net/wire_requests.py)",
    "MalformedHead": "read as NetworkError(malformed_headers) (net/wire_requests.py)",
    "HeadCutShort": "read as NetworkError(connection_reset): no answer (net/wire_requests.py)",
    "MalformedChunk": "read as NetworkError(incomplete_body): a broken body (net/wire_requests.py)",
    "HostRefused": "read as InvalidInput or WebProviderError(bad_redirect) naming the host rule's reason",
    "ReplayMismatch": "a recorded case's ERROR verdict of `websearch-sync verify` (contract/cases.py)",
    "OutputFailed": "the command line's error line and status 5 (cli/__init__.py)",
    "Interrupted": "the command line's status 130 (143) after its own `interrupted` (`terminated`) line (cli/__init__.py)",
    "Terminated": "SIGTERM to the installed command: its `terminated` line and status 143 (cli/output.py)",
    "BadReply": "a shared-state failure, as Redis's own errors are (client/state/server.py)",
    "ReplyTooLong": "read by redis-py as its ConnectionError: a shared-state failure (client/state/server.py)",
    "ScanCut": "read as Timeout(deadline_exceeded) of an operator's command (client/state/server.py)",
    "CallCancelled": "ends a cancelled MCP tool call, or a batch's query still running when the batch stopped: no answer to get",
    "WorkAbandoned": "ends a worker thread abandoned at its deadline; its caller got Timeout",
    "EngineFailure": "the base of the SearXNG engine errors, raised as WebBlocked, Timeout or WebProviderError",
    "_NotKept": "private to net/urls.py",
    "_NameRefused": "private to hostnames.py: a HostRefused",
    "_LabelRefused": "private to hostnames.py: a HostRefused",
    "_AnsweredMeanwhile": "private to client/search_client.py",
}

#: The modules read from their source instead of imported: the agent frameworks' adapters, whose
#: frameworks cost 3.5 s of CPU to import, and the MCP server's modules, whose SDK costs 0.7 s
#: (their classes' bases are judged by name, as below).
FROM_SOURCE = ("websearch_sync.integrations.", "websearch_sync.mcp.")
#: The module every adapter of :data:`FROM_SOURCE` shares, imported as the others are.
IMPORTED_ADAPTER_BASE = "websearch_sync.integrations.agent_tool"
#: A class header of the package's source (``class Name(Base, Other):``, over several lines too),
#: and one that is indented: inside a class or a function.
_CLASS = re.compile(r"^[ \t]*class (\w+)\(([^)]*)\):", re.M)
_INDENTED_CLASS = re.compile(r"^[ \t]+class (\w+)\(([^)]*)\):", re.M)


def _subclasses(root: type) -> list:
    """Every class of this process descending from ``root``."""
    found, todo = [], [root]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.append(sub)
                todo.append(sub)
    return found


def _import_the_package() -> list:
    """The package's modules read from source, not imported: those of :data:`FROM_SOURCE`, and any
    whose import failed for want of an optional dependency (named in a warning). Every other module
    is imported (once a process: most are already)."""
    unread = []
    for module in pkgutil.walk_packages(websearch_sync.__path__, "websearch_sync."):
        if module.name.startswith(FROM_SOURCE) and module.name != IMPORTED_ADAPTER_BASE:
            unread.append(module.name)
            continue
        try:
            importlib.import_module(module.name)
        except ImportError as error:
            if not _missing_dependency(error):
                raise
            unread.append(module.name)
            warnings.warn("%s not imported (%s): its classes read from its source" % (module.name, error), stacklevel=2)
    return unread


def _missing_dependency(error: ImportError) -> bool:
    """Whether ``error`` is an optional extra's dependency missing: another package's module not
    found, or an integration's ``missing_extra`` raised from one (the package's own: a bug)."""
    cause = error if error.name else error.__cause__
    return isinstance(cause, ImportError) and not (cause.name or "websearch_sync").startswith("websearch_sync")


def _source_path(module: str) -> Path:
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _exception_classes() -> tuple:
    """``({name: class}, {names})`` of the package's exception classes: those imported (every
    ``BaseException`` subclass defined in the package, found from the class itself: a base that is
    another library's exception, ``http.client.RemoteDisconnected``, counts as any), and those only
    its source shows: a class defined inside a function, or in a module :func:`_import_the_package` did
    not import, whose base is an exception class of this process by name (or such a class itself)."""
    unread = {_source_path(module) for module in _import_the_package()}
    imported = {
        cls.__name__: cls
        for cls in _subclasses(BaseException)
        if cls.__module__.startswith("websearch_sync") and "<locals>" not in cls.__qualname__
    }
    known = {cls.__name__ for cls in _subclasses(BaseException)} | {"BaseException"}
    headers = []
    for path in package_files():
        pattern = _CLASS if path in unread else _INDENTED_CLASS
        headers += [
            (name, [base.strip().split(".")[-1] for base in bases.split(",")])
            for name, bases in pattern.findall(source(path))
        ]
    from_source: set = set()
    while True:
        more = {
            name for name, bases in headers if name not in from_source and (known | from_source).intersection(bases)
        }
        if not more:
            return imported, from_source - set(imported)
        from_source |= more


def _table_classes() -> set:
    return {cls for cls, _, _ in _rows()}


def test_every_error_class_a_caller_can_get_is_in_the_table():
    """Each exception class of the package is a row's type, or a subclass of one (``NetworkAccessBlocked``
    is a ``NetworkError``: its ``code``), or :data:`INTERNAL` (caught inside). A warning is no error.
    Before, ``StdoutClaimed`` (``cli.main`` in two threads) was in the prose only; and the classes were
    found by their source's base names, so ``HeadCutShort(http.client.RemoteDisconnected)`` slipped through."""
    imported, from_source = _exception_classes()
    rows = _table_classes() - {"WebSearchError"}  # the base of every row's class but the last rows'
    assert {"WebSearchError", "StdoutClaimed", "OfflineResultsWarning", "NetworkAccessBlocked"} <= set(imported)
    assert {"HeadCutShort", "MalformedChunk"} <= set(imported)  # another library's exception as the base
    raised_as_a_row = {name for name, cls in imported.items() if rows.intersection(c.__name__ for c in cls.__mro__)}
    warned = {name for name, cls in imported.items() if issubclass(cls, Warning)}
    rows_and_base = _table_classes() | {"WebSearchError"}
    missing = sorted((set(imported) | from_source) - warned - raised_as_a_row - rows_and_base - set(INTERNAL))
    assert not missing, "docs/errors.md's table names no row for %s (or add it to INTERNAL, saying why)" % missing
    assert sorted(set(INTERNAL) - set(imported) - from_source) == []  # an entry for a class that is gone
    assert sorted(set(INTERNAL) & _table_classes()) == []


def test_every_error_class_of_the_table_has_a_public_name():
    """A caller catches each row's class by a name a public module exports."""
    from test_public_surface import PUBLIC

    exported = {name for names in PUBLIC.values() for name in names}
    assert sorted(_table_classes() - exported) == []
