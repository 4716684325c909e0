"""What the shared state holds now, for an operator (``websearch-sync state show``): the
cool-downs every worker obeys, the paces the fleet keeps, and how many questions are in flight
and answers cached.

Read with ``SCAN`` (never ``KEYS``: a large Redis is not held up) in the client's namespace only.
What is read is untrusted like everything in Redis: a cool-down record is parsed as the
clients parse it (one that does not parse is listed without a detail code), a key of the wrong
type is skipped.
"""

from typing import Any, NamedTuple, Optional

from .cooldowns import MAX_RECORD_BYTES, read_block
from .server import SharedState, glob
from .slots import slot_time_us

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Keys asked about per round trip (a pipeline of GETRANGE and PTTL, or GET and ZCARD, for each).
_BATCH = 500


class Cooldown(NamedTuple):
    """One shared cool-down."""

    name: str  #: the upstream key, a part of it (``searxng[engines=brave]``) or a host (``host:example.com``)
    detail_code: Optional[str]
    left_s: float


class Pace(NamedTuple):
    """One upstream's shared pace."""

    upstream: str
    processes: int  #: the processes that booked one of its slots lately (the fleet, :data:`~.slots.FLEET_WINDOW_S`)
    next_slot_s: float  #: seconds until its next free slot (0: free now)


class Survey(NamedTuple):
    """What :func:`survey` found."""

    cooldowns: list[Cooldown]
    paces: list[Pace]
    flights: int
    answers: int


def _names(redis: Any, state: SharedState, kind: str) -> list[str]:
    """The names of ``kind``'s keys in ``state``'s namespace (the part after ``<kind>:``), sorted."""
    prefix = state.key(kind, "")
    found = redis.scan_iter(match=glob(prefix) + "*", count=1000)
    return sorted(key.decode("utf-8", "replace")[len(prefix) :] for key in found)


def _count(redis: Any, state: SharedState, kind: str) -> int:
    """How many keys of ``kind`` ``state``'s namespace holds (counted, not kept: a cache may hold millions)."""
    return sum(1 for _ in redis.scan_iter(match=glob(state.key(kind, "")) + "*", count=1000))


def _in_batches(redis: Any, names: list[str], ask: Any) -> list[Any]:
    """``ask(pipeline, name)`` for each name, in pipelines of :data:`_BATCH`; each name's replies
    (an error reply in place of one the key's type refused)."""
    replies: list[Any] = []
    for start in range(0, len(names), _BATCH):
        pipe = redis.pipeline(transaction=False)
        for name in names[start : start + _BATCH]:
            ask(pipe, name)
        replies += pipe.execute(raise_on_error=False)
    return replies


def survey(state: SharedState) -> Survey:
    """The cool-downs, paces, questions in flight and cached answers of ``state``'s namespace.

    Raises:
        NetworkError: ``state_unavailable`` when Redis cannot be reached.
    """

    def read(redis: Any) -> Survey:
        cooled = _names(redis, state, "cooldown")
        replies = _in_batches(
            redis,
            cooled,
            lambda pipe, name: (
                pipe.getrange(state.key("cooldown", name), 0, MAX_RECORD_BYTES),
                pipe.pttl(state.key("cooldown", name)),
            ),
        )
        cooldowns = []
        for name, value, ttl_ms in zip(cooled, replies[::2], replies[1::2]):
            if type(ttl_ms) is int and ttl_ms > 0 and isinstance(value, bytes):
                block = read_block(value, ttl_ms / 1000.0)
                left = block.left_s if block else ttl_ms / 1000.0  # an unreadable record is obeyed by no one, but held
                cooldowns.append(Cooldown(name, block.detail_code if block else None, left))
        fleets = [name[1:-1] for name in _names(redis, state, "fleet") if name[:1] == "{" and name[-1:] == "}"]
        seconds, micros = redis.time()
        now_us = int(seconds) * 1_000_000 + int(micros)
        replies = _in_batches(
            redis,
            fleets,
            lambda pipe, name: (
                pipe.zcard(state.script_keys(name, "fleet")[0]),
                pipe.get(state.script_keys(name, "slot")[0]),
            ),
        )
        paces = [
            Pace(name, processes, max(0.0, (slot_time_us(slot) - now_us) / 1e6))
            for name, processes, slot in zip(fleets, replies[::2], replies[1::2])
            if type(processes) is int and processes > 0
        ]
        return Survey(cooldowns, paces, _count(redis, state, "flight"), _count(redis, state, "cache"))

    return state.for_operator(read, "nothing was read")
