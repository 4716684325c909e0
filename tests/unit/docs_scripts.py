"""The scripts under docs/ (``api_reference.py``, ``backend_tables.py``) loaded as modules, for
the tests that check what they build."""

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load(name: str) -> ModuleType:
    """``docs/<name>.py`` as a module (docs/ is no package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / ("%s.py" % name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
