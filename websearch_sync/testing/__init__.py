"""Helpers for test suites (ours and users'): keep searches off the network.

- :func:`no_network` makes any socket connection to a non-loopback address fail
  loudly, so a test that would reach the internet fails instead of passing by luck.
- :func:`replay_fixtures` makes every (non-offline) backend answer from a folder of
  recorded cases (``websearch-sync record`` writes them): the backend's real parser
  runs on the recorded body, through the real HTTP layer, with no socket opened.
- :func:`fake_results` makes backends answer with given items (or errors).
- :class:`MockWire` (with :class:`MockResponse`) answers every request of a
  ``SearchClient(wire=...)`` from a function, below the client's policy.
- :func:`assert_contract` checks that a result honours the canonical shape.
- :func:`reset` forgets what ``websearch_sync.search()`` and the tools' shared client keep
  for the whole process (pace, cool-downs, single-flight tables), so a test starts as a
  fresh process would.
- :func:`conformance_checks` / :func:`check_conformance` run the conformance kit (status
  mapping, unknown layouts, the deadline, recorded cases and their bot walls) on any
  registered backend, a plugin's included; ``pytest --websearch-conformance NAME`` runs it
  as tests.
- pytest fixtures ``websearch_replay`` and ``websearch_fake`` wrap the two context
  managers; this package is a pytest plugin (the ``pytest11`` entry point
  ``websearch_sync.testing``, importing nothing of the library until a test uses it: pytest
  loads it in every session), so installed, its fixtures are there in every test, and
  :func:`reset` runs before each test (not for one marked ``websearch_keep_state``); a backend
  a test registers or unregisters is undone after it (not one a module registers as it is
  imported, or a fixture wider than a test as it is set up: docs/contract.md).

Matching rule of :func:`replay_fixtures`: a search is answered by a recorded case
of the same backend whose query is the same once whitespace is collapsed
(case-sensitive), recorded for the search's first page (its ``pageno``, 1 when unset:
a recording of another page holds no answer to this page's request). When several cases match, one recorded with the same options
(``locale``, ``time_range``, ...) and ``max_results`` wins, then one with the same
options, then the first by case name. A search no case matches fails with
``WebProviderError(no_recorded_case)`` naming the recorded queries.
"""

from typing import TYPE_CHECKING

from ..engine.lazy import lazy_exports

__all__ = [
    "reset",
    "MockWire",
    "MockResponse",
    "replay_fixtures",
    "fake_results",
    "assert_contract",
    "contract_problems",
    "conformance_checks",
    "check_conformance",
    "no_network",
    "NetworkAccessBlocked",
]

# The kit (requests, lxml, the client, the contract replay...) is imported the first time one of its
# names is read: pytest imports this package in every session of the environment.
if TYPE_CHECKING:
    from ..net.wire_mock import MockResponse, MockWire
    from .kit import (
        NetworkAccessBlocked,
        assert_contract,
        check_conformance,
        conformance_checks,
        contract_problems,
        fake_results,
        no_network,
        replay_fixtures,
        reset,
    )
else:  # no __dir__ listing them: pytest and pluggy read every name dir() gives (hooks, fixtures)
    __getattr__, _ = lazy_exports(
        __name__, {name: "..net.wire_mock" if name.startswith("Mock") else ".kit" for name in __all__}
    )

try:  # the pytest fixtures exist only where pytest does
    import pytest as _pytest
except ImportError:  # pragma: no cover - pytest is in the test extra
    _pytest = None  # type: ignore[assignment]

if _pytest is not None:  # the plugin's fixtures and hooks (pytest finds them on this module by name)
    from .plugin import (  # noqa: F401
        _websearch_fresh_state,
        pytest_addoption,
        pytest_collection_modifyitems,
        pytest_configure,
        pytest_fixture_setup,
        websearch_fake,
        websearch_replay,
    )

    __all__ += ["websearch_replay", "websearch_fake"]
