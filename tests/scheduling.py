"""How ``pytest -n 4 --dist loadscope`` (the suite's config) shares the test modules out to its workers.

xdist's ``loadscope`` gives each worker whole modules (so a module fixture, such as the fault lab,
is built once) and hands the modules out largest first. Two things made the suite slower than
its CPU time on 2 cores:

* The agent frameworks (openai-agents, LlamaIndex, LangChain, pydantic-ai, smolagents, the MCP
  and model SDKs) take about 6 s of CPU to import, and the modules that import them went to every
  worker: each paid them. :data:`AGENT_FRAMEWORK_MODULES` run as one unit, on one worker; so do
  :data:`PACKAGE_SOURCE_MODULES`, which read the package's syntax trees (parsed once per process).
* Modules of one to five long tests (worker processes, subprocess servers, a real Redis, a
  hypothesis search) were handed out last, so one worker ran them alone at the end while the
  others had finished. The units of :data:`RUN_FIRST` start first; the others follow in
  collection order (``--no-loadscope-reorder``), the many short unit tests last.
* Four workers share 2 cores because many tests wait rather than compute; but when three of them
  ran waiting tests at once, a core stood idle. A unit of :data:`WAITING` goes to a worker only
  while fewer other workers than workers beyond the cores (here 4 - 2) run one; otherwise the
  worker gets the next unit that computes.
"""

import os
from collections.abc import Iterable, Sequence
from typing import Any, Optional

import pytest

#: The agent frameworks and model SDKs: their import costs seconds of CPU. A test module that
#: imports one (inside its tests) is listed in :data:`AGENT_FRAMEWORK_MODULES`.
AGENT_FRAMEWORK_PACKAGES = frozenset(
    {"agents", "anthropic", "langchain", "langchain_core", "langchain_mcp_adapters", "langchain_openai", "openai"}
    | {"llama_index"}
    | {"pydantic_ai", "smolagents"}
)
#: The packages whose importing test modules run in the unit of :data:`AGENT_FRAMEWORK_MODULES`: the
#: agent frameworks, and the MCP SDK (about 0.4 s of CPU for its client, and the MCP tests' shared
#: zygote, ``tests/mcp_zygote.py``, about 1.1 s: the frameworks' MCP clients need both too).
ONE_WORKER_PACKAGES = AGENT_FRAMEWORK_PACKAGES | {"mcp"}
#: What no test module may import when it is collected, which every worker does for every module:
#: the agent frameworks and the MCP SDK (about a second of CPU, pydantic models built at import),
#: and curl_cffi (an optional extra). Tests import them when they run. ``tests/conftest.py`` notes
#: what collecting imported of them.
NOT_AT_COLLECTION = AGENT_FRAMEWORK_PACKAGES | {"mcp", "mcp_types", "curl_cffi"}


#: Where ``tests/conftest.py`` keeps :func:`costly_imports` of the modules imported by collection.
COLLECTION_IMPORTS = pytest.StashKey[list[str]]()


def costly_imports(modules: Iterable[str]) -> list[str]:
    """The packages of :data:`NOT_AT_COLLECTION` among ``modules`` (names as in ``sys.modules``)."""
    return sorted({name.split(".", 1)[0] for name in modules} & NOT_AT_COLLECTION)


#: Modules whose tests import an agent framework, a model SDK or the MCP SDK in the worker's process
#: (:data:`ONE_WORKER_PACKAGES`). ``tests/unit/test_suite_setup.py`` checks that every such module is
#: listed. test_mcp.py and test_tool_media_filters.py, which import the MCP SDK's client and fork
#: their servers from the worker's MCP zygote, ran on two other workers than the frameworks' (bench/
#: suite_time.py, 2026-12-03: the SDK's client imported and a zygote started on three workers).
AGENT_FRAMEWORK_MODULES = (
    "tests/unit/test_public_surface.py",
    "tests/unit/test_api_reference.py",
    "tests/unit/test_integrations_strict.py",
    "tests/unit/test_langchain_images_moved.py",
    "tests/unit/test_tool_host_slips.py",
    "tests/sockets/test_docs_agent_examples.py",
    "tests/sockets/test_docs_image_examples.py",
    "tests/sockets/test_first_hour_frictions.py",
    "tests/sockets/test_integrations_images.py",
    "tests/sockets/test_integrations_langchain.py",
    "tests/sockets/test_integrations_llama_index.py",
    "tests/sockets/test_integrations_openai_agents.py",
    "tests/sockets/test_integrations_pydantic_ai.py",
    "tests/sockets/test_integrations_smolagents.py",
    "tests/sockets/test_langchain_openai_images.py",
    "tests/sockets/test_mcp_client_images.py",
    "tests/sockets/test_mcp_clients.py",
    "tests/sockets/test_tool_anthropic_strict.py",
    "tests/sockets/test_tool_images.py",
    "tests/sockets/test_tool_sdk_schemas.py",
    "tests/sockets/test_mcp.py",
    "tests/sockets/test_tool_media_filters.py",
)
#: The scope name of :data:`AGENT_FRAMEWORK_MODULES` (not a file: no test module is named so).
AGENT_FRAMEWORKS = "agent frameworks"

#: The modules that walk the package's syntax trees (``tests/package_source.py``: ~170 files parsed
#: once per process, ~0.5 s of CPU, and kept): one unit, so one worker parses them. Spread over
#: the workers as collected, two or three of them parsed the package (2026-12-03: test_layering.py
#: and test_one_hop_loop.py on one, test_error_table.py on another). test_public_surface.py reads them
#: too, in the unit of :data:`AGENT_FRAMEWORK_MODULES` (the frameworks' import is the larger cost).
#: ``tests/unit/test_suite_setup.py`` checks that every test module reading them is in one of the two.
PACKAGE_SOURCE_MODULES = (
    "tests/unit/test_error_table.py",
    "tests/unit/test_layering.py",
    "tests/unit/test_one_hop_loop.py",
    "tests/unit/test_python_floor.py",
)
#: The scope name of :data:`PACKAGE_SOURCE_MODULES` (not a file).
PACKAGE_SOURCE = "package source trees"

#: The modules whose tests run a user's pytest suite forked from ``user_pytest.shared_forks``: one
#: unit, so one worker starts that fork server (pytest and the library's dependencies imported,
#: about 0.5 s of CPU) and pays the first run's rewriting of the library's modules (a first run
#: 1.1-1.3 s of CPU, a later one 0.3-0.4 s: bench/user_runs_bytecode.py). Spread over the workers
#: as collected, test_user_suite_import_helpers.py and test_user_suite_isolation.py, next to each
#: other, went to two workers at once, whose first runs both rewrote them. test_state_reset.py and
#: test_user_suite_plugins.py started a real ``python -m pytest`` each (1.6-1.7 s of CPU); forked
#: from this server they are later runs.
#: ``tests/unit/test_suite_setup.py`` checks that every test module calling it is listed.
USER_RUN_MODULES = (
    "tests/sockets/test_pytest_plugin.py",
    "tests/sockets/test_state_reset.py",
    "tests/sockets/test_user_suite_import_helpers.py",
    "tests/sockets/test_user_suite_isolation.py",
    "tests/sockets/test_user_suite_plugins.py",
)
#: The scope name of :data:`USER_RUN_MODULES` (not a file).
USER_RUNS = "user pytest runs"

#: The modules whose tests fork searches, CLI commands and users' pytest runs from
#: ``python_forks.shared_searching``: one unit, so one worker starts that fork server (the library,
#: its engines and pytest imported: about 0.6 s of CPU). Spread over the workers as collected, each
#: of the three ran on its own worker, and each worker started a server (bench/suite_time.py,
#: 2026-12-03, where the servers' CPU counts once they are closed, as the session ends).
#: ``tests/unit/test_suite_setup.py`` checks that every test module calling it is listed.
SEARCHING_FORK_MODULES = (
    "tests/sockets/test_cli_output.py",
    "tests/sockets/test_conformance_kit.py",
    "tests/sockets/test_plugins.py",
)
#: The scope name of :data:`SEARCHING_FORK_MODULES` (not a file).
SEARCHING_FORKS = "searching forks"

#: Units handed out first, longest first: every unit that took 4 s or more of wall in an idle
#: four-worker run (2026-11-30, 7,705 tests, ``bench/suite_time.py``; wall, CPU own + children),
#: so that none of them is the last a worker runs while the others have finished. The agent
#: frameworks' unit first although its ~435 loggers slow every later test of its worker (pytest
#: walks ``logging``'s table six times a test: about 0.5 s of CPU a run, ``bench/suite_time.py``);
#: last, it would end the run alone (docs/performance.md, suite-time-11).
RUN_FIRST = (
    AGENT_FRAMEWORKS,  # 35.3 s, 21.8 s
    "tests/sockets/test_shared_state_promises.py",  # 17.0 s, 2.9 s
    "tests/reliability/test_fault_matrix.py",  # 15.0 s, 7.1 s
    "tests/reliability/test_transport_deadlines.py",  # 12.9 s, 0.7 s
    "tests/reliability/test_hostile_input.py",  # 12.3 s, 7.8 s
    SEARCHING_FORKS,  # test_conformance_kit.py 6.8 s, 2.2 s; test_plugins.py 4.4 s, 2.9 s; test_cli_output.py
    "tests/sockets/test_searxng_config.py",  # 12.0 s, 0.1 s
    "tests/sockets/test_scaling_recipes.py",  # 10.6 s, 3.0 s
    "tests/reliability/test_parse_deadline.py",  # 8.8 s, 1.4 s
    "tests/sockets/test_shared_state.py",  # 8.5 s, 1.1 s
    "tests/sockets/test_hardening_regex.py",  # 7.7 s, 4.3 s
    "tests/reliability/test_no_secret_leaks.py",  # 7.6 s, 4.7 s
    "tests/sockets/test_shared_state_operator.py",  # 6.0 s, 0.6 s
    "tests/conformance/test_conformance.py",  # 5.9 s, 2.5 s
    "tests/sockets/test_shared_state_processes.py",  # 5.8 s, 1.5 s
    "tests/sockets/test_compressed_bodies.py",  # 5.6 s, 0.5 s
    "tests/unit/test_extract_fuzz.py",  # 5.5 s, 3.2 s
    "tests/sockets/test_fetch.py",  # 5.4 s, 1.2 s
    "tests/sockets/test_fetch_pdf.py",  # 5.3 s, 3.9 s
    "tests/sockets/test_fetch_images.py",  # 5.1 s, 1.0 s
    "tests/unit/test_typing.py",  # 5.0 s, 2.3 s
    "tests/sockets/test_http_layer.py",  # 5.0 s, 0.8 s
    "tests/sockets/test_interrupt.py",  # 4.9 s, 4.7 s
    "tests/sockets/test_searxng_query_syntax.py",  # 4.7 s, 0.1 s
    "tests/sockets/test_shared_state_cluster.py",  # 4.4 s, 0.2 s
    "tests/conformance/test_http_failures.py",  # 4.4 s, 2.3 s
    "tests/sockets/test_plugin_packaging.py",  # 4.2 s, 1.9 s
)

#: Units whose tests mostly wait (on deadlines, timeouts, other processes and servers): under 0.3 s
#: of CPU per second of wall, 2 s of wall or more, in that run. On 2 cores, four workers kept both
#: busy only while at least two of them ran something else: :func:`make_scheduler` hands one of
#: these out only while fewer other workers than that run one.
WAITING = frozenset(
    {
        "tests/sockets/test_shared_state_promises.py",
        "tests/reliability/test_transport_deadlines.py",
        "tests/sockets/test_searxng_config.py",
        "tests/sockets/test_scaling_recipes.py",
        "tests/reliability/test_parse_deadline.py",
        "tests/sockets/test_shared_state.py",
        "tests/sockets/test_shared_state_operator.py",
        "tests/sockets/test_shared_state_processes.py",
        "tests/sockets/test_compressed_bodies.py",
        "tests/sockets/test_fetch.py",
        "tests/sockets/test_fetch_images.py",
        "tests/sockets/test_http_layer.py",
        "tests/sockets/test_searxng_query_syntax.py",
        "tests/sockets/test_shared_state_cluster.py",
        "tests/sockets/test_curl_handle_reuse.py",
        "tests/sockets/test_wire_answers.py",
        "tests/sockets/test_check_live.py",
        "tests/reliability/test_fetch_deadline.py",
        "tests/sockets/test_fingerprint.py",
        "tests/sockets/test_tool_provider_limits.py",
        "tests/sockets/test_backend_deadlines.py",
        "tests/sockets/test_searxng_metaengine.py",
    }
)


#: The key of a worker's ``workerinput`` that tells it to order its tests by :func:`run_order`:
#: xdist sets every worker's own ``dist`` option to "no", so a worker cannot tell a ``loadscope``
#: run from its options (until 2026-11-30 no worker did, and the units went out as collected).
RUN_ORDER_KEY = "websearch_run_order"


def unit_of(nodeid: str) -> str:
    """The unit a test runs in: its module, or :data:`AGENT_FRAMEWORKS`, :data:`PACKAGE_SOURCE`,
    :data:`USER_RUNS` or :data:`SEARCHING_FORKS` for those modules."""
    module = nodeid.split("::", 1)[0]
    if module in AGENT_FRAMEWORK_MODULES:
        return AGENT_FRAMEWORKS
    if module in USER_RUN_MODULES:
        return USER_RUNS
    if module in SEARCHING_FORK_MODULES:
        return SEARCHING_FORKS
    return PACKAGE_SOURCE if module in PACKAGE_SOURCE_MODULES else module


def run_order(nodeids: Sequence[str]) -> list[int]:
    """Indexes of ``nodeids`` in the order the workers should take them: the units of
    :data:`RUN_FIRST` in its order, then the others as collected (a stable sort)."""
    rank = {unit: position for position, unit in enumerate(RUN_FIRST)}
    return sorted(range(len(nodeids)), key=lambda i: rank.get(unit_of(nodeids[i]), len(RUN_FIRST)))


def cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def waiting_limit(workers: int, cores: int) -> Optional[int]:
    """How many workers may run a unit of :data:`WAITING` at once: the workers beyond the cores
    (at least one), or ``None`` (no limit) when every worker has a core of its own."""
    return max(1, workers - cores) if workers > cores else None


def make_scheduler(config: Any, log: Any) -> Any:
    """xdist's ``loadscope`` scheduling, with :func:`unit_of` as the unit of work, and a unit of
    :data:`WAITING` handed out only while fewer than :func:`waiting_limit` other workers run one.

    And with the controller's work per finished test kept constant. xdist's own looks each test
    handed out up in the whole collection (``list.index``) and, at every report, counts a worker's
    pending tests over every unit the worker ever ran: both grow with the suite, so the controller's
    CPU grew with its square (8,000 tests: about 2 s). Here each worker's positions are one dict,
    and each unit keeps the count of its tests not finished yet."""
    from xdist.scheduler import LoadScopeScheduling

    class UnitScheduling(LoadScopeScheduling):
        def __init__(self, config: Any, log: Any = None) -> None:
            super().__init__(config, log)
            self.positions: dict[Any, dict[str, int]] = {}  #: per worker: test id -> index in its collection
            self.left: dict[str, int] = {}  #: per unit handed out: how many of its tests have not finished

        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

        def _next_unit(self, node: Any) -> str:
            """The first unit of the queue, unless it waits and :func:`waiting_limit` other workers
            run one: then the first unit that does not wait (the first, if none is left)."""
            first = next(iter(self.workqueue))
            limit = waiting_limit(len(self.nodes), cores())
            if first not in WAITING or limit is None:
                return first
            running = sum(
                1
                for other, units in self.assigned_work.items()
                if other is not node and any(self.left.get(scope) for scope in units if scope in WAITING)
            )
            if running < limit:
                return first
            return next((scope for scope in self.workqueue if scope not in WAITING), first)

        def _reschedule(self, node: Any) -> None:
            """As xdist's, but not to a worker whose collection has not arrived: a replacement for a
            crashed worker is in ``assigned_work`` from its start, so the crash's own rescheduling
            reached it and the unit it popped was lost with a ``KeyError``. Its
            ``worker_collectionfinish`` schedules it."""
            if node in self.registered_collections:
                super()._reschedule(node)

        def _assign_work_unit(self, node: Any) -> None:
            """As xdist's: the next unit (:meth:`_next_unit`) to ``node``, its unfinished tests sent by index."""
            scope = self._next_unit(node)
            work_unit = self.workqueue.pop(scope)
            self.assigned_work.setdefault(node, {})[scope] = work_unit
            if node not in self.positions:
                self.positions[node] = {nodeid: i for i, nodeid in enumerate(self.registered_collections[node])}
            indexes = [self.positions[node][nodeid] for nodeid, completed in work_unit.items() if not completed]
            self.left[scope] = len(indexes)
            node.send_runtest_some(indexes)

        def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
            nodeid = self.registered_collections[node][item_index]
            scope = self._split_scope(nodeid)
            if not self.assigned_work[node][scope][nodeid]:
                self.left[scope] -= 1
            super().mark_test_complete(node, item_index, duration)

        def _pending_of(self, workload: dict[str, dict[str, bool]]) -> int:
            return sum(self.left[scope] for scope in workload)

    return UnitScheduling(config, log)
