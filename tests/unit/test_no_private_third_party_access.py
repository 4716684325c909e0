"""The HTTP layer uses ``requests``, urllib3 and curl_cffi only through their public API
(issue 32 point 4): a private attribute of theirs breaks in a minor release.

An AST scan of ``websearch_sync/net``: an attribute whose name starts with one underscore
may only be read or written on ``self``/``cls`` or on a name the module itself defines
(its classes, functions, and module-level objects built from them). Anything else, such
as ``raw._connection``, ``handle._share``, ``share._curl_share`` or ``super()._new_conn()``,
fails with its place.
"""

import ast
import pathlib

import websearch_sync.net

NET = pathlib.Path(websearch_sync.net.__file__).parent


def _own_names(tree: ast.Module) -> set[str]:
    """Names the module defines: classes, functions, and module-level objects built by calling them."""
    defined = {node.name for node in tree.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            called = node.value.func
            if isinstance(called, ast.Name) and called.id in defined:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                defined.update(t.id for t in targets if isinstance(t, ast.Name))
    return defined | {"self", "cls"}


def private_accesses(source: str, filename: str) -> list[str]:
    """``file:line: expression`` for every private attribute reached on something the module does not own."""
    tree = ast.parse(source, filename)
    own = _own_names(tree)
    found = []
    attributes = sorted(
        (node for node in ast.walk(tree) if isinstance(node, ast.Attribute)), key=lambda n: (n.lineno, n.col_offset)
    )
    for node in attributes:
        name = node.attr
        if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in own:
            continue
        found.append("%s:%d: %s" % (filename, node.lineno, ast.unparse(node)))
    return found


def test_the_scan_finds_what_it_is_for():
    source = (
        "import requests\n"
        "class A:\n"
        "    def f(self, raw, handle):\n"
        "        self._ok = raw._connection.sock\n"
        "        handle._share = 1\n"
        "        return super()._new_conn(), type(raw).__name__\n"
    )
    found = private_accesses(source, "x.py")
    assert [line.split(": ", 1)[1] for line in found] == ["raw._connection", "handle._share", "super()._new_conn"]


def test_net_reaches_no_private_attribute_of_a_third_party_object():
    found = []
    for path in sorted(NET.glob("*.py")):
        found += private_accesses(path.read_text(encoding="utf-8"), path.name)
    assert found == []
