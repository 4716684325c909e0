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
#: pytest's own variable, rewritten at each phase of a test (setup, call, teardown): never a change
#: the test made, so never put back (doing so rewrote the whole environment after every test).
_PYTEST_OWN = "PYTEST_CURRENT_TEST"
#: The variables as ``os.environ`` keeps them (encoded: bytes on POSIX). A copy of this dict is what
#: the environment was: ``dict(os.environ)`` decodes every name and value (45 us a copy, two copies
#: a test), a copy of it takes under a microsecond.
_RAW = os.environ._data  # type: ignore[attr-defined]  # CPython's store behind os.environ
_ENCODE_KEY = os.environ.encodekey  # type: ignore[attr-defined]
_DECODE_KEY = os.environ.decodekey  # type: ignore[attr-defined]
_DECODE_VALUE = os.environ.decodevalue  # type: ignore[attr-defined]
_PYTEST_OWN_RAW = _ENCODE_KEY(_PYTEST_OWN)
_RAW_PREFIXES = tuple(_ENCODE_KEY(prefix) for prefix in ENV_PREFIXES)


#: ``(registry generation, names)``: the environment variables the registered backends declare, as
#: :data:`_RAW` spells them, worked out again only when what is registered changed (every test
#: cleans them: 0.05 ms a time).
_declared_env: tuple[int, frozenset] = (-1, frozenset())


def _declared_env_keys() -> frozenset:
    """The environment variables every registered backend reads (plugins and test backends too)."""
    global _declared_env
    current = generation()
    if _declared_env[0] != current:
        names = {s.env for name in backend_names() for s in backend_class(name).declared_settings() if s.env}
        _declared_env = (current, frozenset(_ENCODE_KEY(name) for name in names))
    return _declared_env[1]


@contextlib.contextmanager
def without_search_settings() -> Iterator[None]:
    """The developer's search settings (the project's prefixes, every registered backend's
    variables) out of the environment, and back afterwards, as ``monkeypatch.delenv`` would; and
    the environment as it was, should the test have changed it without ``monkeypatch``."""
    declared = _declared_env_keys()
    removed = {key: value for key, value in _RAW.items() if key.startswith(_RAW_PREFIXES) or key in declared}
    for key in removed:
        del os.environ[_DECODE_KEY(key)]
    before = dict(_RAW)
    before.pop(_PYTEST_OWN_RAW, None)
    try:
        yield
    finally:
        _put_back(before)
        for key, value in removed.items():
            os.environ[_DECODE_KEY(key)] = _DECODE_VALUE(value)


def _put_back(before: dict) -> None:
    """The environment as ``before`` (a copy of :data:`_RAW` without ``PYTEST_CURRENT_TEST``: pytest's
    own is left as it is): only the variables that differ are set or removed (each one a
    ``putenv``), and none when the test changed nothing."""
    after = dict(_RAW)
    after.pop(_PYTEST_OWN_RAW, None)
    if after == before:
        return
    for key in after.keys() - before.keys():
        del os.environ[_DECODE_KEY(key)]
    for key, value in before.items():
        if after.get(key) != value:
            os.environ[_DECODE_KEY(key)] = _DECODE_VALUE(value)
