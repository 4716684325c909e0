"""Over a real local socket, for every backend with a timeout setting of its own
(``<BACKEND>_TIMEOUT_MS``): a server that never answers ends the call at that timeout,
not at the shared ``WEB_SEARCH_TIMEOUT_MS``, and a call's explicit ``timeout_ms`` beats both.
Deadlines are real time, so these live here and not in the conformance tier (which uses no wall
clock); the margin comes from the machine's pace, measured around the call.
"""

import time

import pytest
from backend_kit import dummy_config, env_for, env_vars, network_backends
from clocks import deadline_margin_s, machine_pace, paced_budget_s
from faults import never_answer
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.engine import registry

OWN_TIMEOUT = [name for name in network_backends() if "timeout_ms" in env_vars(registry.backend_class(name))]
SHORT_MS, LONG_MS = 200, 20000


@pytest.mark.parametrize("explicit", [False, True], ids=["own-setting", "explicit"])
@pytest.mark.parametrize("name", OWN_TIMEOUT)
def test_a_silent_server_ends_the_call_at_the_backends_own_timeout(name, explicit):
    cls = registry.backend_class(name)
    short_ms = int(paced_budget_s(SHORT_MS / 1000) * 1000)
    with FaultServer({"*": never_answer()}) as server:
        environ = env_for(cls, dummy_config(cls, server.url("/api"), "deadline-check-key"))
        environ.update(
            {
                "WEB_SEARCH_ENDPOINT_%s" % name.upper(): server.url("/api"),
                "WEB_SEARCH_TIMEOUT_MS": str(LONG_MS),
                env_vars(cls)["timeout_ms"]: str(LONG_MS if explicit else short_ms),
            }
        )
        with machine_pace() as pace:
            started = time.monotonic()
            with pytest.raises(ws.Timeout):  # which of two equal timers fired first is not the point
                ws.search(
                    "q",
                    backend=name,
                    settings=ws.Settings.from_env(environ=environ),
                    retries=0,
                    timeout_ms=short_ms if explicit else None,
                )
            elapsed = time.monotonic() - started
        assert elapsed < short_ms / 1000 + deadline_margin_s(pace.slowdown), elapsed  # not LONG_MS
        assert len(server.received(1)) == 1  # read by the server's thread, which may run after the call ended
