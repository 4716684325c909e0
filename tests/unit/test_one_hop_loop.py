"""Issue 32 item 3: one hop loop in the package. Redirects (HTTP and client-side, search and
fetch) are followed only by HttpTransport.send's loop; others pass it their HopRules."""

import ast
from pathlib import Path

import websearch_sync

PACKAGE = Path(websearch_sync.__file__).parent


def _calls(name: str) -> dict:
    """{module: count} of calls to an attribute or function called ``name``."""
    found: dict = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                if called == name:
                    key = str(path.relative_to(PACKAGE))
                    found[key] = found.get(key, 0) + 1
    return found


def test_only_the_transport_follows_a_hop():
    assert _calls("follow") == {"net/transport.py": 1}


def test_only_the_hop_loop_sends_over_a_wire():
    assert set(_calls("exchange")) == {"net/transport.py"}
