"""What the shared state holds now, for an operator (``websearch-sync state show``): the
cool-downs every worker obeys, the paces the fleet keeps, and how many questions are in flight
and answers cached.

Read with one ``SCAN`` of this library's keys (never ``KEYS``: a large Redis is not held up); of
the other namespaces (other prefixes) only their names are told.
What is read is untrusted like everything in Redis: a cool-down record is parsed as the
clients parse it (one that does not parse is listed without a detail code), a key of the wrong
type is skipped.
"""

from typing import Any, NamedTuple, Optional

from .cooldowns import LIFTED, MAX_RECORD_BYTES, read_block
from .flights import RELEASED
from .server import KINDS, NAMESPACE, ScanBound, SharedState, glob, redis_now_us, scanned
from .slots import FLEET_SIZE, FLEET_WINDOW_S, MAX_FLEET, slot_time_us

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Keys asked about per round trip (a pipeline of GETRANGE and PTTL, or the fleet's count and GET, for each).
_BATCH = 500


class Cooldown(NamedTuple):
    """One shared cool-down."""

    name: str  #: the upstream key, a part of it (``searxng[engines=brave]``) or a host (``host:example.com``)
    detail_code: Optional[str]
    left_s: float


class Pace(NamedTuple):
    """One upstream's shared pace."""

    upstream: str
    #: the processes that booked one of its slots lately, counted as a booking counts them (the fleet,
    #: :data:`~.slots.FLEET_WINDOW_S`; at most :data:`~.slots.MAX_FLEET`)
    processes: int
    next_slot_s: float  #: seconds until its next free slot (0: free now)
    #: members of its fleet key of another format than this package's (planted, or a bug's), counted
    #: for none (the next booking drops them), among those a booking reads
    foreign: int


class Survey(NamedTuple):
    """What :func:`survey` found."""

    cooldowns: list[Cooldown]
    paces: list[Pace]
    flights: int
    answers: int
    #: The other namespaces of the database (other applications, or workers given another prefix).
    other_namespaces: list[str]


class _Inventory(NamedTuple):
    """One scan's findings: the names of the cool-downs and fleets of the namespace surveyed, how
    many keys of each kind it holds, and the other namespaces of the database."""

    names: dict[str, list[str]]
    counts: dict[str, int]
    others: list[str]


def _inventory(redis: Any, state: SharedState, bound: ScanBound) -> _Inventory:
    """One ``SCAN`` of every key of this library in the database. A key's namespace ends before
    its first part named like a kind of key (no prefix has such a part: ``check_state_prefix``)."""
    names: dict[str, list[str]] = {"cooldown": [], "fleet": [], "flight": []}
    counts = dict.fromkeys(KINDS, 0)
    others: set[str] = set()
    for key in scanned(redis, glob(NAMESPACE) + "*", bound):
        parts = key.decode("utf-8", "replace")[len(NAMESPACE) :].split(":")
        at = next((index for index, part in enumerate(parts) if part in KINDS), None)
        if at is None:
            continue
        namespace = NAMESPACE + "".join(part + ":" for part in parts[:at])
        if namespace != state.namespace:
            others.add(namespace)
            continue
        counts[parts[at]] += 1
        if parts[at] in names:
            names[parts[at]].append(":".join(parts[at + 1 :]))
    return _Inventory({kind: sorted(found) for kind, found in names.items()}, counts, sorted(others))


def _in_batches(redis: Any, names: list[str], ask: Any, bound: ScanBound) -> list[Any]:
    """``ask(pipeline, name)`` for each name, in pipelines of :data:`_BATCH`, each sent within
    ``bound``; each name's replies (an error reply in place of one the key's type refused)."""
    replies: list[Any] = []
    for start in range(0, len(names), _BATCH):
        bound.check()
        pipe = redis.pipeline(transaction=False)
        for name in names[start : start + _BATCH]:
            ask(pipe, name)
        replies += pipe.execute(raise_on_error=False)
    return replies


def _fleet_size(reply: Any) -> bool:
    """Whether ``reply`` is the fleet script's ``{processes, foreign members}`` (an error reply, a key
    of another type, is none)."""
    return isinstance(reply, list) and len(reply) == 2 and all(type(n) is int and n >= 0 for n in reply)


def survey(state: SharedState) -> Survey:
    """The cool-downs, paces, questions in flight and cached answers of ``state``'s namespace.

    Raises:
        NetworkError: ``state_unavailable`` when Redis cannot be reached.
        Timeout: ``deadline_exceeded`` when its scan and reads went on past the state's deadline.
    """

    def read(redis: Any, bound: ScanBound) -> Survey:
        found = _inventory(redis, state, bound)
        cooled = found.names["cooldown"]
        replies = _in_batches(
            redis,
            cooled,
            lambda pipe, name: (
                pipe.getrange(state.key("cooldown", name), 0, MAX_RECORD_BYTES),
                pipe.pttl(state.key("cooldown", name)),
            ),
            bound,
        )
        cooldowns = []
        for name, value, ttl_ms in zip(cooled, replies[::2], replies[1::2]):
            if type(ttl_ms) is int and ttl_ms > 0 and isinstance(value, bytes) and value != LIFTED:  # not lifted
                block = read_block(value, ttl_ms / 1000.0)
                left = block.left_s if block else ttl_ms / 1000.0  # an unreadable record is obeyed by no one, but held
                cooldowns.append(Cooldown(name, block.detail_code if block else None, left))
        fleets = [name[1:-1] for name in found.names["fleet"] if name[:1] == "{" and name[-1:] == "}"]
        now_us = redis_now_us(redis)
        fleet_size = redis.script_load(FLEET_SIZE) if fleets else ""  # then each fleet's in a pipeline: EVALSHA
        fleet_args = [int(FLEET_WINDOW_S * 1e6), MAX_FLEET]
        replies = _in_batches(
            redis,
            fleets,
            lambda pipe, name: (
                pipe.evalsha(fleet_size, 1, *state.script_keys(name, "fleet"), *fleet_args),
                pipe.get(state.script_keys(name, "slot")[0]),
            ),
            bound,
        )
        paces = [
            Pace(name, size[0], max(0.0, (slot_time_us(slot) - now_us) / 1e6), size[1])
            for name, size, slot in zip(fleets, replies[::2], replies[1::2])
            if _fleet_size(size) and (size[0] > 0 or size[1] > 0)
        ]
        flights = found.names["flight"]
        replies = _in_batches(
            redis, flights, lambda pipe, name: pipe.getrange(state.key("flight", name), 0, len(RELEASED)), bound
        )
        held = sum(1 for value in replies if value != RELEASED)  # a question let go holds no one (a moment)
        return Survey(cooldowns, paces, held, found.counts["cache"], found.others)

    return state.for_operator(read, "nothing was read")
