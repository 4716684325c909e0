"""The package's shape: its layers, imports that flow one way (inside functions too),
no import cycle, a small root, and functions a reader can hold in their head."""

import ast
from collections import defaultdict
from pathlib import Path

import pytest
from package_source import parsed, statements

PACKAGE = Path(__file__).resolve().parents[2] / "websearch_sync"

#: Each unit's layer: a unit may import units of lower layers only (and itself).
#: Units of the same layer are siblings that must not import each other
#: (a backend must not import fetch code: backends and reader are siblings; both
#: build on engine, the plumbing the backends share).
LAYERS: dict[str, int] = {
    "secrets": 0,
    "checkpoints": 0,
    "hostnames": 0,  # the one rule for host names (and idna): validate (site_filter), net and engine (fetch and endpoint hosts)
    "forks": 0,  # below every layer that keeps a lock: each renews its own in a forked child
    "vocabulary": 0,  # standard library only: the code tables validate checks locales and ddgs names against
    "weburl": 0,  # standard library only: URLs resolved as a browser resolves them, for extract's links and net's hops
    "shellwords": 0,  # standard library only: a word quoted for sh and PowerShell, for cli's and contract's hints
    "errors": 1,
    "once": 1,  # forks' lock only: what validate and every layer above say once per process
    "models": 2,
    "validate": 3,  # below config, which checks its numbers there
    "config": 4,
    "extract": 4,
    "net": 5,
    "engine": 6,
    "reader": 7,
    "backends": 7,
    "client": 8,
    "contract": 9,
    "tool": 9,
    "api": 10,
    "testing": 10,
    "mcp": 10,
    "integrations": 10,
    "cli": 11,
    "__main__": 12,
    "__init__": 12,
}
MAX_ROOT_MODULES = 12  # forks and hostnames: lowest-layer modules every layer imports
MAX_COMPLEXITY = 15


def _modules() -> dict[str, Path]:
    """Dotted module name (without the package) -> file."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _unit(module: str) -> str:
    return module.split(".", 1)[0]


def _imports(module: str, path: Path, known: set[str]) -> list[str]:
    """Package modules ``module`` imports anywhere in its file (functions included)."""
    is_package = path.name == "__init__.py"
    base = module.split(".") if module != "__init__" else []
    if not is_package:
        base = base[:-1]
    targets = []
    for node in statements(parsed(path)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                stem = anchor + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "websearch_sync":
                stem = node.module.split(".")[1:]
            else:
                continue
            for alias in node.names:
                candidate = ".".join(stem + [alias.name])
                targets.append(candidate if candidate in known else ".".join(stem) or "__init__")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "websearch_sync":
                    targets.append(".".join(alias.name.split(".")[1:]) or "__init__")
    return [t for t in targets if t != module]


@pytest.fixture(scope="module")
def graph() -> dict[str, list[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def test_every_unit_has_a_layer(graph):
    assert {_unit(m) for m in graph} <= set(LAYERS), {_unit(m) for m in graph} - set(LAYERS)


def test_imports_flow_one_way(graph):
    upward = []
    for module, targets in graph.items():
        for target in targets:
            source_unit, target_unit = _unit(module), _unit(target)
            if source_unit != target_unit and LAYERS[target_unit] >= LAYERS[source_unit]:
                upward.append("%s imports %s" % (module, target))
    assert not upward, upward


def test_no_import_cycle(graph):
    edges = defaultdict(set)
    for module, targets in graph.items():
        for target in targets:
            if target in graph and not (
                target == _unit(module) and graph.get(target) is not None and module.startswith(target + ".")
            ):
                edges[module].add(target)
    # a package's __init__ re-exporting its submodules is not a cycle with them
    for module in list(edges):
        edges[module] = {t for t in edges[module] if not module.startswith(t + ".")}
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt) :] + [nxt] if nxt in stack else [node, nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, cycles


def test_the_root_is_the_public_face_only():
    root_modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(root_modules) <= MAX_ROOT_MODULES, root_modules
    packages = [p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()]
    assert len(packages) >= 4, packages


def test_no_function_above_the_complexity_limit():
    radon = pytest.importorskip("radon.complexity")
    too_complex = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for block in radon.cc_visit_ast(parsed(path)):
            if block.complexity > MAX_COMPLEXITY:
                too_complex.append(
                    "%s:%d %s (%d)" % (path.relative_to(PACKAGE), block.lineno, block.fullname, block.complexity)
                )
    assert not too_complex, too_complex
