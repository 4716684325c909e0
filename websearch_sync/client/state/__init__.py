"""Shared state: the cache, rate-limit slots and cool-downs of many processes, in Redis.

Without a state URL a client keeps all three in its own process (memory, and the
optional SQLite cache file) and nothing here is used. With one
(``SearchClient(state_url=...)``, ``Settings.state_url``, ``WEB_SEARCH_STATE_URL``),
each part gets a shared tier; when Redis fails, the parts use their local state for
that call (see :class:`~.server.SharedState`).
"""

from typing import NamedTuple, Optional

from ...config import Settings, check_state_prefix
from ...errors import BAD_STATE_URL, InvalidInput
from ...once import Once
from ...validate import check_state_url
from ..clock import Clock
from .cooldowns import SharedCooldowns
from .flights import SharedFlights
from .results import RedisCache
from .server import SharedState, logger, state_server
from .slots import SharedSlots

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The (state URL, client deadline) pairs already warned of as never asking the state: once each per process.
_NEVER_ASKS = Once()


class SharedTiers(NamedTuple):
    """The shared tier of each part of a client (all ``None`` without a state URL)."""

    cache: Optional[RedisCache] = None
    slots: Optional[SharedSlots] = None
    cooldowns: Optional[SharedCooldowns] = None
    flights: Optional[SharedFlights] = None


def shared_tiers(settings: Settings, state_url: Optional[str], clock: Clock, deadline_ms: int) -> SharedTiers:
    """The shared tiers for a client: ``state_url`` if given (``""``: none), else ``settings.state_url``.

    Every Redis command is bounded by a short timeout, at most a tenth of the client's
    deadline (``deadline_ms``), so that a dead Redis costs a call little of its time.

    Raises:
        InvalidInput: as :func:`shared_state`.
    """
    state = shared_state(settings, state_url, clock, deadline_ms)
    if state is None:
        return SharedTiers()
    return SharedTiers(
        RedisCache(state, settings.secrets()), SharedSlots(state), SharedCooldowns(state), SharedFlights(state)
    )


def shared_state(settings: Settings, state_url: Optional[str], clock: Clock, deadline_ms: int) -> Optional[SharedState]:
    """The shared state ``state_url`` names if given (``""``: none), else ``settings.state_url``;
    ``None`` without one.

    Raises:
        InvalidInput: ``bad_state_url`` (also ``state_required`` without a state URL: the
            process would keep a pace and cool-downs of its own, what it was set to refuse),
            ``bad_state_prefix``, or ``missing_redis_extra`` when redis-py is not installed.
    """
    url = settings.state_url if state_url is None else state_url
    if not url and settings.state_required:
        raise InvalidInput(
            "state_required (WEB_SEARCH_STATE_REQUIRED) is set but no state URL (WEB_SEARCH_STATE_URL, state_url,"
            " --state-url): this process would keep its own cache, pace and cool-downs",
            detail_code=BAD_STATE_URL,
        )
    if not url:
        return None
    server = state_server(check_state_url(url))
    timeout_s = server.command_timeout_s(deadline_ms / 1000.0)
    if timeout_s >= deadline_ms / 1000.0 and _NEVER_ASKS.first((server.shown, deadline_ms)):
        logger.warning(
            "the shared state %s may take %.0f ms a command (its URL's socket_timeout), not less than this"
            " client's deadline (%d ms): its calls cannot ask it in time (no shared cache, cool-downs or questions"
            " in flight) and those to a paced backend fail with budget_exhausted; give the URL a shorter"
            " socket_timeout or the client a longer deadline",
            server.shown,
            timeout_s * 1000,
            deadline_ms,
        )
    return SharedState(
        server,
        check_state_prefix(settings.state_prefix),
        bool(settings.state_required),
        clock,
        timeout_s,
        deadline_ms / 1000.0,
    )
