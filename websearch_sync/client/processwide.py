"""Process-wide local state for the module-level functions (``websearch_sync.search``).

Each module-level call builds a fresh client, so a client's own rate-limit slots and
cool-downs would last one call: during a Redis outage (or with no shared state at all)
a worker calling ``websearch_sync.search`` in a loop would keep no pace. These calls
therefore share one rate limiter, one cool-down table and one single-flight table for the
whole process, per state settings: whatever else their settings say (the wire, the user
agent...), an upstream sees one client, as the shared state sees it (its slots and
cool-downs are keyed by backend and endpoint, never by settings). Questions in flight are
keyed by everything that shapes an answer anyway.
"""

from collections import OrderedDict
from collections.abc import Hashable

from ..config import Settings
from ..forks import module_lock
from .clock import Clock
from .cooldown import Cooldowns
from .flight import Flights
from .ratelimit import RateLimiter
from .state import SharedTiers
from .state.server import DEFAULT_TIMEOUT_S

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

Parts = tuple[RateLimiter, Cooldowns, Flights]

#: Settings kept at once (least recently used forgotten): a process uses a few.
_MAX_SETTINGS = 64
_PARTS: "OrderedDict[Hashable, Parts]" = OrderedDict()
_LOCK = module_lock(__name__, "_LOCK")


#: Every deadline from this long up gives Redis commands the default timeout (a tenth of a shorter one).
_SAME_COMMAND_TIMEOUT_MS = int(DEFAULT_TIMEOUT_S * 10 * 1000)


def _settings_key(settings: Settings) -> Hashable:
    """What the parts of ``settings`` differ by: the state settings (with a shared state, the Redis
    command timeout ``timeout_ms`` gives: a tenth of it below 2.5 s, else one for all, so that a
    worker varying ``timeout_ms`` keeps one pace and one set of cool-downs through an outage)."""
    return (
        settings.state_url or "",
        settings.state_prefix,
        settings.state_required,
        min(settings.timeout_ms, _SAME_COMMAND_TIMEOUT_MS) if settings.state_url else None,
    )


def process_parts(settings: Settings, cooldown_s: dict[str, float], clock: Clock, shared: SharedTiers) -> Parts:
    """The process's rate limiter, cool-downs and single-flight table for ``settings``
    (made at the first call with these settings, from ``shared``)."""
    key = _settings_key(settings)
    with _LOCK:
        parts = _PARTS.get(key)
        if parts is None:
            cooldowns = Cooldowns(cooldown_s, clock=clock, shared=shared.cooldowns)
            parts = _PARTS[key] = (
                RateLimiter(clock, shared=shared.slots),
                cooldowns,
                Flights(shared.flights, cooldowns.cools_down),
            )
        _PARTS.move_to_end(key)
        while len(_PARTS) > _MAX_SETTINGS:
            _PARTS.popitem(last=False)
        return parts


def forget_process_parts() -> None:
    """Forget every process-wide part (tests start afresh with it)."""
    with _LOCK:
        _PARTS.clear()
