"""The developer's search settings out of the environment for each test (``tests/conftest.py``).

Every test runs as on a machine with no search configured: the project's variables and every
registered backend's (plugins and test backends too) are taken away, and put back after it,
with anything else the test changed in the environment.
"""

import contextlib
import os
from collections.abc import Iterator

from websearch_sync.engine.registry import backend_class, backend_names, generation

ENV_PREFIXES = ("WEB_SEARCH_", "WEB_FETCH_", "SEARXNG_", "BRAVE_", "BOCHA_", "TAVILY_", "KAGI_", "JINA_")


#: ``(registry generation, names)``: the environment variables the registered backends declare,
#: worked out again only when what is registered changed (every test cleans them: 0.05 ms a time).
_declared_env: tuple[int, frozenset[str]] = (-1, frozenset())


def _declared_env_names() -> frozenset[str]:
    """The environment variables every registered backend reads (plugins and test backends too)."""
    global _declared_env
    current = generation()
    if _declared_env[0] != current:
        names = {s.env for name in backend_names() for s in backend_class(name).declared_settings() if s.env}
        _declared_env = (current, frozenset(names))
    return _declared_env[1]


#: pytest's own variable, rewritten at each phase of a test (setup, call, teardown): never a change
#: the test made, so never put back (doing so rewrote the whole environment after every test).
_PYTEST_OWN = "PYTEST_CURRENT_TEST"


@contextlib.contextmanager
def without_search_settings() -> Iterator[None]:
    """The developer's search settings (the project's prefixes, every registered backend's
    variables) out of the environment, and back afterwards, as ``monkeypatch.delenv`` would; and
    the environment as it was, should the test have changed it without ``monkeypatch``."""
    declared = _declared_env_names()
    removed = {
        name: os.environ.pop(name) for name in list(os.environ) if name.startswith(ENV_PREFIXES) or name in declared
    }
    before = dict(os.environ)
    before.pop(_PYTEST_OWN, None)
    try:
        yield
    finally:
        _put_back(before)
        os.environ.update(removed)


def _put_back(before: dict[str, str]) -> None:
    """The environment as ``before`` (which holds no ``PYTEST_CURRENT_TEST``: pytest's own is left
    as it is): only the variables that differ are set or removed (each one a ``putenv``), and none
    when the test changed nothing."""
    after = dict(os.environ)
    after.pop(_PYTEST_OWN, None)
    if after == before:
        return
    for name in after.keys() - before.keys():
        del os.environ[name]
    for name, value in before.items():
        if after.get(name) != value:
            os.environ[name] = value
