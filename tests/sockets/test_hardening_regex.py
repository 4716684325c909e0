r"""Hardening, part 3: every regular expression in websearch_sync runs in linear time.

One long ``re`` call holds the GIL, so a pattern that backtracks over upstream input
breaks every deadline (a 64 KB page of repeated ``<meta http-equiv=refresh `` ran 65 s
past a 1 s deadline). This audit finds every compiled pattern of the package (module
and class attributes, also inside tuples and dicts), builds adversarial inputs for each
from the pattern itself, and times the worst of them at 256 KB:

- a *witness*: a string the pattern matches, built from its parse tree (one per
  alternative of a branch, a few at most);
- every prefix of a witness, repeated: the repeated openers of an unclosed construct
  (``<!--<!--<!--``, ``<meta http-equiv=refresh <meta http-equiv=refresh ``);
- a prefix followed by filler that never closes it;
- a *pump*: a witness's prefix up to an unbounded repeat, then one long run (as long as the
  input) of a character that two of the pattern's repeats can both read (``\s*X?\s*`` after
  ``<meta charset=``, nested ``(?:\w+-?)+``, ``(?:a|\s)*\s*``): such a run splits between those
  repeats in as many ways as it is long. The repeated prefixes above cannot show it, their runs
  being cut at the unit's length (the quadratic ``<meta charset=`` then spaces went unseen);
  ``test_the_audit_finds_a_planted_backtracking_pattern`` keeps it seen.

Each candidate is probed at 20 characters (one that is slow there backtracks exponentially and
is not timed further), screened at 8 KB (where a quadratic pattern already costs ~25x a
linear one); the four worst are timed again at 16 KB, and the one whose two timings project
the longest time at 256 KB (the 16 KB time times its growth from 8 KB, raised to the power of
the 16 times the size: a linear one grows 2x, a quadratic one 4x) is then timed at 256 KB; it must finish in
a quarter of a second, 1 µs of CPU per character (the slowest linear pattern takes about
a third of that; a quadratic one far more: the whitespace run before a JSON opener that
``net/botwall.py`` matched until 1124493 takes 5 s at 32 KB, about 5 minutes at 256 KB). At
1 MB the audit took 8 s of CPU, at 256 KB 2 s. Timing the two worst of the screening at 256 KB
took 1.6x the CPU of the four at 16 KB and one at 256 KB, and ranked by one timing at 8 KB alone.
A second test keeps literal patterns out of function bodies, so none escapes the audit.
"""

import gc
import itertools
import json
import math
import re
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import websearch_sync
import websearch_sync as ws

try:  # Python >= 3.11
    from re import _constants as sre_constants
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

from clocks import deadline_margin_s, machine_pace, paced_budget_s
from faults import respond
from package_patterns import package_patterns
from servers import FaultServer

PACKAGE = Path(websearch_sync.__file__).resolve().parent
SCREEN_CHARS = 8 * 1024
RANK_CHARS = 16 * 1024
RANKED = 4
TARGET_CHARS = 256 * 1024
LIMIT_S = 0.25
#: Every candidate is first scanned at ``PROBE_CHARS``, where a linear pattern takes microseconds:
#: one that takes ``PROBE_LIMIT_S`` there backtracks exponentially (``(?:\w+-?)+:`` on a run of
#: letters doubles its time with each one) and is not timed further.
PROBE_CHARS = 20
PROBE_LIMIT_S = 0.002
MAX_WITNESSES = 12
#: Characters tried for a character class, and used as filler.
ALPHABET = "a<>\"'= -/.;:0A_x&#\\\n\t中"


# -- witnesses from the parse tree --------------------------------------------------------------

_CATEGORIES = {
    sre_constants.CATEGORY_DIGIT: str.isdigit,
    sre_constants.CATEGORY_NOT_DIGIT: lambda c: not c.isdigit(),
    sre_constants.CATEGORY_SPACE: str.isspace,
    sre_constants.CATEGORY_NOT_SPACE: lambda c: not c.isspace(),
    sre_constants.CATEGORY_WORD: lambda c: c.isalnum() or c == "_",
    sre_constants.CATEGORY_NOT_WORD: lambda c: not (c.isalnum() or c == "_"),
}


def _in_class(char: str, items: Sequence[tuple[Any, Any]]) -> bool:
    negate = bool(items) and items[0][0] is sre_constants.NEGATE
    hit = False
    for op, av in items:
        if op is sre_constants.LITERAL:
            hit = hit or ord(char) == av
        elif op in (sre_constants.RANGE, getattr(sre_constants, "RANGE_UNI_IGNORE", None)):
            hit = hit or av[0] <= ord(char) <= av[1]
        elif op is sre_constants.CATEGORY:
            hit = hit or _CATEGORIES.get(av, lambda c: False)(char)
    return hit != negate


def _class_char(items: Sequence[tuple[Any, Any]]) -> str:
    return next((c for c in ALPHABET if _in_class(c, items)), "a")


def _product(left: list[str], right: list[str]) -> list[str]:
    return [a + b for a, b in itertools.islice(itertools.product(left, right), MAX_WITNESSES)]


_REPEATS = (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, getattr(sre_constants, "POSSESSIVE_REPEAT", None))
#: Marks, in a pump witness, where a repeat that reads the pump character begins.
_PUMP_MARK = "\ue000"


def witnesses(tree: Any, groups: dict[int, str], pump: str = "") -> list[str]:
    """A few strings that follow ``tree`` (a parsed pattern), one per alternative (capped); with
    ``pump``, each unbounded repeat that can read that character is preceded by ``_PUMP_MARK``."""
    out = [""]
    for op, av in tree:
        out = _product(out, _node(op, av, groups, pump))
    return out


def _node(op: Any, av: Any, groups: dict[int, str], pump: str) -> list[str]:
    if op is sre_constants.LITERAL:
        return [chr(av)]
    if op is sre_constants.NOT_LITERAL:
        return ["x" if av != ord("x") else "y"]
    if op is sre_constants.ANY:
        return ["a"]
    if op is sre_constants.IN:
        return [_class_char(av)]
    if op in _REPEATS:
        low, high, sub = av
        count = min(max(low, 1), 3) if high != 0 else 0
        mark = _PUMP_MARK if pump and high > 1 and pump in _firsts(sub) else ""
        return [mark + w * count for w in witnesses(sub, groups, pump)]
    if op is sre_constants.SUBPATTERN:
        group, sub = av[0], av[-1]
        result = witnesses(sub, groups, pump)
        if group:
            groups[group] = result[0].replace(_PUMP_MARK, "")
        return result
    if op is sre_constants.BRANCH:
        return [w for alternative in av[1] for w in witnesses(alternative, groups, pump)][:MAX_WITNESSES]
    if op is sre_constants.GROUPREF:
        return [groups.get(av, "")]
    if op is getattr(sre_constants, "ATOMIC_GROUP", None):
        return witnesses(av, groups, pump)
    if op is sre_constants.GROUPREF_EXISTS:
        return witnesses(av[1], groups, pump)
    return [""]  # AT (anchors), ASSERT / ASSERT_NOT (lookarounds): no text


# -- pump characters: one character two repeats (or two alternatives of one) can both read ------


def _node_firsts(op: Any, av: Any) -> tuple[set[str], bool]:
    """The characters of ``ALPHABET`` (and literals) a match of one node can begin with, and
    whether it can match nothing."""
    if op is sre_constants.LITERAL:
        return {chr(av)}, False
    if op is sre_constants.NOT_LITERAL:
        return {c for c in ALPHABET if ord(c) != av}, False
    if op is sre_constants.ANY:
        return set(ALPHABET) - {"\n"}, False
    if op is sre_constants.IN:
        return {c for c in ALPHABET if _in_class(c, av)}, False
    if op in _REPEATS:
        firsts, nullable = _firsts_nullable(av[2])
        return firsts, nullable or av[0] == 0
    if op is sre_constants.SUBPATTERN:
        return _firsts_nullable(av[-1])
    if op is getattr(sre_constants, "ATOMIC_GROUP", None):
        return _firsts_nullable(av)
    if op is sre_constants.BRANCH:
        parts = [_firsts_nullable(alternative) for alternative in av[1]]
        return set().union(*(firsts for firsts, _ in parts)), any(nullable for _, nullable in parts)
    return set(), True  # anchors, lookarounds, group references


def _firsts_nullable(tree: Any) -> tuple[set[str], bool]:
    out: set[str] = set()
    for op, av in tree:
        firsts, nullable = _node_firsts(op, av)
        out |= firsts
        if not nullable:
            return out, False
    return out, True


def _firsts(tree: Any) -> set[str]:
    return _firsts_nullable(tree)[0]


def _readers(tree: Any) -> list[set[str]]:
    """What each unbounded repeat of ``tree`` (nested ones too) can begin with; a repeat of a
    branch counts once per alternative (``(?:\\s| )*``: two readers of a space)."""
    found: list[set[str]] = []
    for op, av in tree:
        if op in _REPEATS:
            sub = av[2]
            while len(sub) == 1 and sub[0][0] is sre_constants.SUBPATTERN:
                sub = sub[0][1][-1]
            if av[1] > 1:
                if len(sub) == 1 and sub[0][0] is sre_constants.BRANCH:
                    found += [_firsts(alternative) for alternative in sub[0][1][1]]
                else:
                    found.append(_firsts(sub))
            found += _readers(sub)
        elif op is sre_constants.SUBPATTERN:
            found += _readers(av[-1])
        elif op is getattr(sre_constants, "ATOMIC_GROUP", None):
            found += _readers(av)
        elif op is sre_constants.BRANCH:
            for alternative in av[1]:
                found += _readers(alternative)
        elif op is sre_constants.GROUPREF_EXISTS:
            found += _readers(av[1]) + (_readers(av[2]) if av[2] else [])
        elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
            found += _readers(av[1])
    return found


def pump_characters(tree: Any) -> list[str]:
    """Characters at least two unbounded repeats of ``tree`` can read (adjacent ``\\s*X?\\s*``,
    nested ``(?:\\w+-?)+``, overlapping alternatives ``(?:a|\\s)*``): a run of one of them can be
    split between those repeats in as many ways as it is long, the shape that backtracks."""
    counts: dict[str, int] = {}
    for firsts in _readers(tree):
        for char in firsts:
            counts[char] = counts.get(char, 0) + 1
    return sorted((char for char, count in counts.items() if count >= 2), key=lambda c: (c not in ALPHABET, c))[:4]


# -- candidates --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """An adversarial input of any size: ``head``, then ``unit`` repeated, then ``tail``."""

    head: str
    unit: str
    tail: str = ""

    def at(self, size: int, binary: bool = False) -> Any:
        """The input at about ``size`` characters (bytes, UTF-8, for a bytes pattern)."""
        count = max(1, (size - len(self.head) - len(self.tail)) // len(self.unit) + 1)
        text = (self.head + self.unit * count)[: max(size - len(self.tail), len(self.head) + 1)] + self.tail
        return text.encode("utf-8", "surrogatepass") if binary else text


def parse(pattern: "re.Pattern[Any]") -> Any:
    """``pattern``'s parse tree."""
    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
    return sre_parse.parse(source, pattern.flags)


def candidates(pattern: "re.Pattern[Any]") -> list[Candidate]:
    """Adversarial inputs: repeated witness prefixes, unclosed prefixes, and a witness's prefix
    followed by one long run of a pump character read where its repeats begin."""
    tree = parse(pattern)
    units = set()
    for witness in witnesses(tree, {}):
        for cut in range(1, len(witness) + 1):
            prefix = witness[:cut]
            units.add(prefix)  # repeated opener
            units.add(prefix + " ")
            if cut < len(witness):
                units.add(prefix + witness[cut] * 64)  # an opener with a long run of its next part
    result = [Candidate("", unit) for unit in sorted(units) if unit]
    for filler in "a <\n":  # one opener, then nothing that closes it
        for witness in witnesses(tree, {})[:3]:
            result.append(Candidate(witness[: max(1, len(witness) - 1)], filler))
    pumps = set()
    for char in pump_characters(tree):
        for witness in witnesses(tree, {}, pump=char):
            for cut, mark in enumerate(witness):
                if mark == _PUMP_MARK:
                    pumps.add(Candidate(witness[:cut].replace(_PUMP_MARK, ""), char))
    return result + sorted(pumps, key=lambda c: (c.head, c.unit))


def _scan(pattern: "re.Pattern[Any]", text: Any) -> float:
    """CPU seconds of this thread for one full scan (other processes' load does not count)."""
    gc.disable()
    try:
        started = time.thread_time()
        pattern.findall(text)
        return time.thread_time() - started
    finally:
        gc.enable()


def grown(pattern: "re.Pattern[Any]", candidate: Candidate, size: int) -> Any:
    """``candidate`` at ``size`` characters, as ``pattern`` reads it (text or bytes)."""
    return candidate.at(size, binary=isinstance(pattern.pattern, bytes))


def worst_candidate(
    pattern: "re.Pattern[Any]", small: int = SCREEN_CHARS, large: int = RANK_CHARS, target: int = TARGET_CHARS
) -> tuple[Candidate, float]:
    """The candidate ``pattern`` would take longest on at ``target`` characters, and that time
    projected: every candidate is timed at ``small``, the ``RANKED`` slowest again at ``large``,
    and the growth between the two holds on (from 8 KB to 16 KB, 2x for a linear pattern, 4x for a
    quadratic one)."""
    found = candidates(pattern)
    for candidate in found:
        probe = grown(pattern, candidate, PROBE_CHARS)
        # an exponential pattern is over the limit on every scan; one scan over it may be the host's
        # (a 20-character scan took 2 ms of CPU once in a CI run of the whole suite): its best of RETIMES
        if _scan(pattern, probe) > PROBE_LIMIT_S and min(_scan(pattern, probe) for _ in range(RETIMES)) > PROBE_LIMIT_S:
            return candidate, math.inf
    screened = sorted(
        ((_scan(pattern, grown(pattern, candidate, small)), i, candidate) for i, candidate in enumerate(found)),
        key=lambda row: row[0],
    )
    ranked = []
    for small_s, _, candidate in screened[-RANKED:]:
        large_s = _scan(pattern, grown(pattern, candidate, large))
        ranked.append((_projected(small_s, large_s, small, large, target), candidate))
    projection, worst = max(ranked, key=lambda row: row[0])
    if projection > 8 * LIMIT_S:
        # One preempted millisecond scan is raised to the 4th power by the projection (16 KB to 256 KB):
        # an over-limit figure is measured again, each size's best of RETIMES, before it fails a pattern.
        # Each round scans both sizes back to back and its growth is theirs: the scans of one size ran
        # twice as slow as the other's in spells (about 1 audit of 100 measured every small scan
        # in a slow spell and every large one after it: a planted quadratic pattern projected 1 s).
        rounds = [
            (_scan(pattern, grown(pattern, worst, small)), _scan(pattern, grown(pattern, worst, large)))
            for _ in range(RETIMES)
        ]
        growth = statistics.median(large_s / max(small_s, 1e-6) for small_s, large_s in rounds)
        large_s = min(large_s for _, large_s in rounds)
        projection = large_s * growth ** math.log(target / large, large / small)
    return worst, projection


#: Scans of each size when a first projection is over the limit (its noise is amplified, not its growth).
RETIMES = 5


def _projected(small_s: float, large_s: float, small: int, large: int, target: int) -> float:
    """The time at ``target`` characters, the growth from ``small`` to ``large`` holding on."""
    growth = large_s / max(small_s, 1e-6)
    return large_s * growth ** math.log(target / large, large / small)


PATTERNS = package_patterns()


def test_the_audit_sees_the_package_s_patterns():
    names = {name for name, _ in PATTERNS.values()}
    assert len(PATTERNS) >= 30
    for expected in (
        "websearch_sync.engine.declarative._REFERENCE",
        "websearch_sync.engine.html_parsing._NOISE",
        "websearch_sync.engine.normalize._TAG",
        "websearch_sync.net.charset._CHARSET_ATTRIBUTE",
    ):
        assert expected in names


@pytest.mark.parametrize("key", list(PATTERNS), ids=[name for name, _ in PATTERNS.values()])
def test_every_pattern_runs_in_linear_time_on_adversarial_input(key):
    name, pattern = PATTERNS[key]
    worst, projection = worst_candidate(pattern)
    big = grown(pattern, worst, TARGET_CHARS)
    # a pattern that would take minutes at 256 KB fails on its projection, without that wait
    assert projection < 8 * LIMIT_S, "%s would take about %.0f s on 256 KB of %r..." % (name, projection, big[:80])
    elapsed = _scan(pattern, big)
    assert elapsed < LIMIT_S, "%s took %.2f s on 256 KB of %r..." % (name, elapsed, big[:80])


#: Shapes that backtrack on a run of one character which the audit's witnesses alone missed
#: (their runs were at most 64 long, cut by repetition): adjacent optional parts (``<meta charset=``
#: then spaces, in bytes as ``net/charset.py`` read it), the same after a captured value, nested
#: quantifiers through a group (exponential).
PLANTED = {
    "adjacent optional parts": re.compile(rb"""charset\s*=\s*["']?\s*([^\s"'>;]+)"""),
    "after a captured value": re.compile(r"<a\s+href=(\S+)\s*X?\s*>"),
    "nested quantifiers": re.compile(r"(?:\w+-?)+:"),
}


@pytest.mark.parametrize("name", list(PLANTED))
def test_the_audit_finds_a_planted_backtracking_pattern(name):
    """At a small size (cheap even for a quadratic pattern), the worst candidate's projection to
    256 KB is far over the limit: a linear pattern's, 512 times its 512-character time, is under it."""
    # the largest of two audits: at these sizes a scan takes 0.1-1 ms, and in about 1 audit of 200 a
    # spell of slow small scans flattened the measured growth (4x to 2x: 1 s projected, not 500 s).
    # The second runs only when the first is under the bar, which it cannot then lower: the
    # exponential pattern's audit is six scans of 0.05 s each (its probe timed again, RETIMES).
    worst, projection = worst_candidate(PLANTED[name], small=256, large=512)
    if projection <= 8 * LIMIT_S:
        worst, projection = max(
            [(worst, projection), worst_candidate(PLANTED[name], small=256, large=512)], key=lambda row: row[1]
        )
    assert projection > 8 * LIMIT_S, "%s: worst candidate %r projects %.2f s" % (name, worst, projection)


#: A call to ``re`` with a literal pattern. It is looked for from its ``re.``, a literal the
#: scan skips to: matched from every line's start (``^[ \t]+[^#\n]*`` before the call, each line
#: read to its end and back again), the scan took 0.28 s of CPU, 100 times this one.
_CALL = re.compile(
    r"re\.(?:compile|search|match|fullmatch|sub|subn|split|findall|finditer)\(\s*[rbu]*(?:\"[^\"\n]*\"|'[^'\n]*')\s*[,)]"
)
_WORD = re.compile(r"\w")


def inline_calls(text: str) -> list[str]:
    """Each call of :data:`_CALL` in ``text`` that stands in an indented line (a function's or a
    class's body) after no comment's ``#``, from its line's start."""
    found = []
    for call in _CALL.finditer(text):
        if call.start() and _WORD.match(text, call.start() - 1):  # ``pre.sub(``, ``_re.match(``: not ``re``
            continue
        line = text.rfind("\n", 0, call.start()) + 1
        head = text[line : call.start()]
        if head[:1] in (" ", "\t") and "#" not in head:
            found.append(text[line : call.end()])
    return found


#: Files whose function-level patterns only ever see our own data (fixture names, golden
#: messages, queries turned into file names), never an upstream answer.
_NOT_UPSTREAM = {"contract/recording.py", "contract/cases.py"}


def test_no_literal_pattern_hides_in_a_function_body():
    """Patterns live at module level, where the audit above finds them."""
    assert inline_calls('x = 1\n\n\ndef f(s):\n    return re.sub(r"a+", "", s)  # x\n') == ['    return re.sub(r"a+",']
    assert inline_calls('P = re.compile(r"a+")\n    # re.sub("a", "", s)\n    pre.sub("a", "", s)\n') == []
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in _NOT_UPSTREAM:
            continue
        offenders += ["%s: %s" % (relative, call.strip()) for call in inline_calls(path.read_text(encoding="utf-8"))]
    assert offenders == []


# -- the three reported cases, end to end: each ran 65-100 s past a 1 s deadline ---------------

DEADLINE_MS = 1000
MARGIN_S = 1.0  # on an idle machine, plus the machine's measured lateness; the failure was a minute and more


def _within_deadline(call, deadline_ms=DEADLINE_MS):
    with machine_pace() as pace:
        started = time.monotonic()
        try:
            outcome = call()
        except ws.WebSearchError as error:
            outcome = error
        elapsed = time.monotonic() - started
    margin = deadline_margin_s(pace.slowdown, MARGIN_S)
    assert elapsed < deadline_ms / 1000 + margin, "a %d ms call took %.1f s (margin %.1f s)" % (
        deadline_ms,
        elapsed,
        margin,
    )
    return outcome


def test_fetch_of_a_page_of_unclosed_meta_refresh_tags_ends_in_time():
    page = b"<html><head>" + b"<meta http-equiv=refresh " * (65536 // 25)
    with FaultServer({"/a": respond(200, page)}) as server:
        outcome = _within_deadline(lambda: ws.fetch(server.url("/a"), allow_private=True, timeout_ms=DEADLINE_MS))
    assert isinstance(outcome, (dict, ws.WebSearchError))


def test_a_search_page_of_unclosed_comments_ends_in_time():
    page = b'<html><body><div id="links" class="results">' + b"<!--" * (240_000 // 4)
    with FaultServer({"/s": respond(200, page)}) as server:
        settings = ws.Settings(endpoints={"ddg_html": server.url("/s")})
        outcome = _within_deadline(
            lambda: ws.search("q", backend="ddg_html", settings=settings, timeout_ms=DEADLINE_MS, retries=0)
        )
    assert isinstance(outcome, (dict, ws.WebSearchError))


def _brave(description):
    """A Brave answer of one result with ``description`` as its snippet."""
    body = {
        "type": "search",
        "web": {"type": "search", "results": [{"title": "t", "url": "https://a.example/", "description": description}]},
    }
    return respond(200, json.dumps(body).encode(), content_type="application/json")


def _unpaced_brave(endpoint):
    """A Brave client of ``endpoint`` with no pace and no retry."""
    settings = ws.Settings(endpoints={"brave": endpoint}, providers={"brave": {"api_key": "k-123456"}})
    return ws.SearchClient("brave", settings=settings, min_interval_s=0, retries=0)


def test_a_json_snippet_of_unclosed_comments_ends_in_time():
    """The one of the three that must succeed (its snippet read as empty), so the timed search is
    not the process's first: one of a plain answer before it (30 s) builds the wire and imports the
    parser, which the 1 s had to cover (alone, at load 13, it timed out: "'Timeout' object is not
    subscriptable", 1 of 4). The deadline is 1 s on an idle machine, as many times more as it runs
    slower now. Both clients have no pace: Brave's 1 s between the two searches would leave the
    timed one too little of its budget to be sent."""
    with FaultServer({"/s": _brave("<!--" * (200_000 // 4)), "/warm": _brave("a plain snippet")}) as server:
        with _unpaced_brave(server.url("/warm")) as client:
            assert client.search("warm", timeout_ms=30_000)["items"]
        deadline_ms = int(paced_budget_s(DEADLINE_MS / 1000) * 1000)
        with _unpaced_brave(server.url("/s")) as client:
            outcome = _within_deadline(lambda: client.search("q", timeout_ms=deadline_ms), deadline_ms)
    assert isinstance(outcome, dict), repr(outcome)
    assert outcome["items"][0]["snippet"] == ""


def test_a_meta_charset_followed_by_a_run_of_spaces_is_read_in_linear_time():
    """The audit's witnesses missed it: ``charset=`` then 16,000 spaces (the size of the head
    ``meta_charset`` reads) and no value took 2 s of CPU when the spaces could be split between the
    ``\\s*`` before an optional quote and the one after it; now each space is read once."""
    from websearch_sync.net.charset import _CHARSET_ATTRIBUTE, _META_SCAN_BYTES, meta_charset

    head = b"<meta charset=" + b" " * _META_SCAN_BYTES + b"!"
    elapsed = _scan(_CHARSET_ATTRIBUTE, head)
    assert elapsed < LIMIT_S, "charset= and %d spaces took %.2f s" % (_META_SCAN_BYTES, elapsed)
    assert meta_charset(b"<meta charset=  ' utf-8'>") == "utf-8"
    assert meta_charset(b'<meta content="text/html;   charset =   windows-1251">') == "cp1251"
