"""Issue 32 item 3: one hop loop in the package. Redirects (HTTP and client-side, search and
fetch) are followed only by HttpTransport.send's loop; others pass it their HopRules."""

import ast

from package_source import PACKAGE, parsed, spelling


def _calls(name: str, within_same_name: bool = True) -> dict:
    """{module: count} of calls to an attribute or function called ``name`` (with
    ``within_same_name`` false, not counting a call made inside a method of that same name:
    a wire layer's ``exchange`` handing the request to the wire it wraps is no hop loop)."""
    found: dict = {}
    for path in spelling(name):
        tree = parsed(path)
        delegating = set()
        if not within_same_name:
            for function in ast.walk(tree):
                if isinstance(function, ast.FunctionDef) and function.name == name:
                    delegating.update(id(node) for node in ast.walk(function))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and id(node) not in delegating:
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                if called == name:
                    key = str(path.relative_to(PACKAGE))
                    found[key] = found.get(key, 0) + 1
    return found


def test_only_the_transport_follows_a_hop():
    assert _calls("follow") == {"net/transport.py": 1}


def test_only_the_hop_loop_sends_over_a_wire():
    assert set(_calls("exchange", within_same_name=False)) == {"net/transport.py"}
