"""Batch searches for ``websearch-sync search --queries-file``: one JSON line per query, in input order.

With ``workers`` > 1 the queries run in that many threads sharing one client (its
rate limits, cool-downs and cache hold across them); lines are still written in
the order of the input (one worker starts a query once the line before it is written). A
reader of the output that leaves (``| head -1``) ends the batch at once, the query running
dropped. The batch can stop after K consecutive failures, and it
always ends with a summary line on stderr: ``N ok, M failed`` and a line per kind of
failure (also when Ctrl-C or SIGTERM stops it, or its output cannot be written). While it runs, a progress line on stderr says how far it got: redrawn
after each query on a terminal, printed every ``progress_every_s`` seconds
otherwise (a log file, a CI job). ``--skip-done FILE`` resumes a batch: the queries
that succeeded in a previous run's JSONL output (:func:`done_queries`) are not run again.
"""

import contextlib
import itertools
import json
import os
import select
import stat
import sys
import threading
from collections.abc import Generator, Iterable, Iterator, Sized
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Optional, TextIO

try:
    import fcntl
except ImportError:  # Windows: a descriptor's flags cannot be asked
    fcntl = None  # type: ignore[assignment]

from ..client.clock import SYSTEM_CLOCK, CancellableClock, Clock
from ..errors import BAD_ARGUMENTS, DNS_ERROR, InvalidInput, WebSearchError, counted
from ..net.urls import INVISIBLE
from ..net.waits import wait_for
from ..validate import MAX_QUERY_CHARS
from .output import (
    EXIT_OK,
    UNRESOLVED,
    Interrupted,
    OutputFailed,
    error_form,
    exit_status,
    interruption,
    json_text,
    offline_notice,
    terminal_text,
)
from .queries import OverlongQuery

if TYPE_CHECKING:  # the search command imports the client when it runs
    from ..client.search_client import SearchClient

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Seconds between two progress lines when stderr is not a terminal.
PROGRESS_EVERY_S = 10.0

#: How a batch ended before its end when its output failed, and what the queries it did not write
#: are, in its summary line (Ctrl-C: ``interrupted``, ``not run``).
OUTPUT_FAILED = ("the output failed", "not written")  # the query whose line failed is among them: it runs again

#: How a batch ended when a query could not be read from a pipe (a line that is not UTF-8), after the
#: queries before it ran: those after it are not run (read again from a file, every line is checked first).
INPUT_FAILED = ("the input failed", "not run")

#: What one query gives: its JSON line and its exit status (``None`` when it succeeded).
Outcome = tuple[dict[str, Any], Optional[int]]


def in_order(
    work: Callable[[str], Outcome],
    queries: Iterable[str],
    workers: int,
    reader_gone: Callable[[], bool] = lambda: False,
    stopped: Optional[threading.Event] = None,
    read: Optional[list[int]] = None,
) -> Generator[Outcome, None, None]:
    """``work(query)`` for every query, yielded in input order, computed by ``workers`` threads.

    The work runs in threads even for one worker, so that the calling thread, waiting for the
    next outcome, notices at once (within :data:`~websearch_sync.net.waits.WAKE_S`) when
    ``reader_gone()`` says the output's reader left (``| head -1``): it raises
    ``BrokenPipeError`` then, where a query run in the calling thread was first finished (one
    more request upstream, its quota spent, for an answer no one reads) and the pipe found
    closed at the next write. Closing the iterator stops handing out queries and sets
    ``stopped``, which the work's waits obey (:meth:`~websearch_sync.client.clock.CancellableClock.cancellable`):
    queries already running end at their next wait, before any further request (a request under
    way runs to its end), in their (daemon) threads, and are dropped.

    ``queries`` is read by the workers, a query when one may start (a pipe's next line is waited
    for there, not before the first query runs); ``read``'s one number is how many were read. A
    failure to read one (a line that is not UTF-8) is raised in its place in the order.
    """
    results: dict[int, Any] = {}
    source, reading = iter(queries), threading.Lock()  # reading: one worker reads the input at a time
    counted = [0] if read is None else read
    # asked: the outcome the caller waits for; one worker takes a query only once the caller asks
    # for it (a stop, K failures or Ctrl-C, sends no more request than the work run in the calling
    # thread did), several run ahead as far as they get; end: how many there are, once the input ended
    state: dict[str, Any] = {"next": 0, "asked": 0, "stopped": False, "end": None}
    ahead = 1 if workers <= 1 else sys.maxsize
    ready = threading.Condition()

    def may_start() -> bool:
        return bool(state["stopped"]) or state["next"] < state["asked"] + ahead

    def handed_out() -> Optional[tuple[int, str]]:
        """The next query and its index, once it may start; ``None`` when there is none or the batch stopped."""
        with ready:
            wait_for(partial(ready.wait_for, may_start))
        with reading:
            if state["stopped"] or state["end"] is not None:
                return None
            index = state["next"]
            try:
                query = next(source)
            except BaseException as exc:  # the input ended, or failed: handed to the consuming thread
                with ready:
                    state["end"] = index if isinstance(exc, StopIteration) else index + 1
                    if not isinstance(exc, StopIteration):
                        results[index] = exc
                    ready.notify_all()
                return None
            with ready:
                state["next"] = counted[0] = index + 1
            return None if state["stopped"] else (index, query)  # stopped while the input was awaited

    def worker() -> None:
        for index, query in iter(handed_out, None):
            try:
                outcome: Any = work(query)
            except BaseException as exc:  # handed to the consuming thread, which raises it: a bug is not hidden
                outcome = exc
            with ready:
                results[index] = outcome
                ready.notify_all()

    known = len(queries) if isinstance(queries, Sized) else workers
    for number in range(max(1, min(workers, known))):  # one at least, to find the input empty
        threading.Thread(target=worker, name="websearch-batch-%d" % number, daemon=True).start()
    try:
        for index in itertools.count():
            with ready:
                state["asked"] = index
                ready.notify_all()
                wait_for(partial(ready.wait_for, partial(_in_or_gone, results, index, state, reader_gone)))
                if index not in results:
                    if state["end"] is not None and index >= state["end"]:
                        return
                    raise BrokenPipeError("the reader of the output closed it")
                outcome = results.pop(index)
            if isinstance(outcome, BaseException):
                raise outcome
            yield outcome
    finally:
        with ready:
            state["stopped"] = True
            ready.notify_all()
        if stopped is not None:
            stopped.set()


def _in_or_gone(results: dict[int, Any], index: int, state: dict[str, Any], reader_gone: Callable[[], bool]) -> bool:
    """Whether outcome ``index`` is in, there is none (the input ended before it), or the output's
    reader left (no outcome will be read)."""
    return index in results or (state["end"] is not None and index >= state["end"]) or reader_gone()


def reader_gone(out: TextIO) -> Callable[[], bool]:
    """A check, cheap enough for every wake of a wait, of whether the reader of ``out`` left: a
    pipe whose reading end is closed reports ``POLLERR`` to its writer (Linux; ``POLLHUP`` on
    some systems, as a terminal that hung up does). Always false where that cannot be asked (no
    ``poll``, no file descriptor: a ``StringIO``); there a closed pipe is found at the next write."""
    try:
        fd = out.fileno()
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both
        return lambda: False
    if not hasattr(select, "poll"):
        return lambda: False
    poller = select.poll()
    poller.register(fd, 0)  # no event asked: POLLERR and POLLHUP come anyway, a file never wakes it
    return lambda: any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0))


#: Most kinds of failure the summary names, one line each (the JSON lines hold every one).
MAX_FAILURE_KINDS = 5


class BatchCounts:
    """Successes, failures, the current run of consecutive failures, the first failure's status,
    and each kind of failure (its code and detail code) with how many queries had it and its
    first message: a summary of "0 ok, 100000 failed" alone left the reason in the JSON lines."""

    def __init__(self) -> None:
        self.ok = 0
        self.failed = 0
        self.consecutive = 0
        self.status: Optional[int] = None
        self.kinds: dict[str, list[Any]] = {}  # "AuthError/missing_api_key": [count, first message]
        self.stopped = False  # by --stop-after-failures
        self.unresolved = True  # every failure so far no host name resolved (dns_error of each backend)

    def add(self, status: Optional[int], error: Optional[dict[str, Any]] = None) -> None:
        """Count one query's outcome (``error``: a failed query's error form)."""
        if status is None:
            self.ok += 1
            self.consecutive = 0
            return
        self.failed += 1
        self.consecutive += 1
        self.status = self.status or status
        if error is not None:
            kind = "/".join(str(part) for part in (error.get("type"), error.get("detail_code")) if part)
            self.kinds.setdefault(kind, [0, error.get("message")])[0] += 1
        failures = [error, *(error.get("errors") or [])] if error is not None else [{}]
        self.unresolved = self.unresolved and all(failure.get("detail_code") == DNS_ERROR for failure in failures)

    def failure_lines(self) -> list[str]:
        """``  3 failed: AuthError/missing_api_key: brave needs an API key ...``, a line per kind of
        failure in the order they first came, the most :data:`MAX_FAILURE_KINDS`."""
        lines = ["  %d failed: %s: %s" % (count, kind, message) for kind, (count, message) in self.kinds.items()]
        more = len(lines) - MAX_FAILURE_KINDS
        # no query reached a host, as one search's hint says (a machine offline, most often)
        offline = ["hint: %s" % UNRESOLVED] if self.failed and not self.ok and self.unresolved else []
        return lines[:MAX_FAILURE_KINDS] + (["  and %d other kinds of failure" % more] if more > 0 else []) + offline

    def summary(
        self,
        total: int,
        stop_after: Optional[int],
        ended: Optional[tuple[str, str]] = None,
        *,
        streamed: bool = False,
        skipped_done: Optional[int] = None,
    ) -> str:
        """``N ok, M failed`` (and what was not run when the batch stopped early, :attr:`stopped`); ``ended``: why
        it ended before its end and what the queries left are (``("interrupted", "not run")``, :data:`OUTPUT_FAILED`).
        ``streamed``: the queries come from a pipe, ``total`` counts those read: a batch stopped
        after K failures says the rest of the input was not read (it said nothing of stopping).
        ``skipped_done``: how many queries of a pipe ``--skip-done`` skipped (known only once read)."""
        line = "%d ok, %d failed" % (self.ok, self.failed)
        line += "" if skipped_done is None else ", %d skipped as done" % skipped_done
        skipped = total - self.ok - self.failed
        if ended:
            line = "%s: %s, %d %s" % (ended[0], line, skipped, ended[1])
        elif self.stopped and (skipped or streamed):
            line += "; stopped after %s, %d not run" % (counted(stop_after or 0, "consecutive failure"), skipped)
            line += ", the rest of the input not read" if streamed else ""
        return "\n".join([line, *self.failure_lines()])


class Progress:
    """The progress line of a batch on stderr: ``[done/total] ok, failed, rate, query`` (``total``
    ``None``: the queries come from a pipe, their number is not known, ``[done/?]``).

    On a terminal it is redrawn after every query; otherwise one line is printed when
    ``every_s`` seconds have passed since the last one (``0``: after every query).
    """

    def __init__(
        self, total: Optional[int], *, terminal: bool, every_s: float = PROGRESS_EVERY_S, clock: Clock = SYSTEM_CLOCK
    ) -> None:
        self.total = total
        self.terminal = terminal
        self.every_s = every_s
        self.clock = clock
        self.started = clock.monotonic()
        self._last = self.started

    def text(self, counts: BatchCounts, query: str) -> str:
        """``[12/100] 11 ok, 1 failed, 0.8 queries/s, last: <query>``."""
        done = counts.ok + counts.failed
        elapsed = self.clock.monotonic() - self.started
        rate = "%.1f queries/s" % (done / elapsed) if elapsed > 0 else "- queries/s"
        return "[%d/%s] %d ok, %d failed, %s, last: %s" % (
            done,
            "?" if self.total is None else self.total,
            counts.ok,
            counts.failed,
            rate,
            terminal_text(INVISIBLE.sub("", query[:60])),  # nor a direction override reversing the line
        )

    def update(self, counts: BatchCounts, query: str) -> None:
        """Show the state after one more query (when it is time to)."""
        if self.terminal:
            getattr(sys.stderr, "write_controls", sys.stderr.write)("\r%s\x1b[K" % self.text(counts, query))
            sys.stderr.flush()
            return
        now = self.clock.monotonic()
        if now - self._last >= self.every_s:
            self._last = now
            sys.stderr.write("progress: %s\n" % self.text(counts, query))
            sys.stderr.flush()

    def clear(self) -> None:
        """Remove the redrawn line before the summary (terminal only)."""
        if self.terminal:
            getattr(sys.stderr, "write_controls", sys.stderr.write)("\r\x1b[K")
            sys.stderr.flush()


def done_queries(path: str) -> set[str]:
    """The queries that succeeded in a batch's JSONL output at ``path`` (``--skip-done``).

    A line that is not a JSON object with a ``query`` (a line cut short when the batch was
    killed, or nested too deeply to read) is ignored, as is a failed query's line: those queries run again.
    ``InvalidInput(bad_arguments)`` when the file cannot be read, or when it has whole lines and none is
    a line a batch writes (``--skip-done queries.txt``: the queries given for the output ran every one again).
    """
    try:
        with open(path, encoding="utf-8-sig") as handle:  # -sig: a BOM an editor put before the first line
            lines = handle.read().split("\n")  # not splitlines: JSON text may hold U+2028, U+0085 as they are
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput("cannot read --skip-done %s: %s" % (path, exc), detail_code=BAD_ARGUMENTS) from None
    done: set[str] = set()
    batch_lines = 0
    for text in lines:
        line = _json_line(text)
        if not isinstance(line, dict) or not ("query" in line or "error" in line):
            continue
        batch_lines += 1  # an answer, a failed query, or a whole run's refusal (``{"error": ...}``)
        if isinstance(line.get("query"), str) and "error" not in line:
            done.add(line["query"])
    whole = [number for number, text in enumerate(lines[:-1], 1) if text.strip()]  # the last: cut short, or ""
    if whole and not batch_lines:
        raise InvalidInput(
            '--skip-done %s holds no line a batch writes (line %d is no JSON object with a "query"): give the'
            " JSONL output of the earlier run (the file its answers were appended to), not its queries"
            % (path, whole[0]),
            detail_code=BAD_ARGUMENTS,
        )
    return done


def _json_line(text: str) -> Any:
    """The JSON value of one line of a batch's output, or ``None`` when it is none."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deeply to be a batch's line
        return None


def _same_file(path: str, out: TextIO) -> bool:
    """Whether ``out`` writes to the regular file at ``path`` (false for a stream without a
    descriptor, a ``StringIO``, for no such file, and for a device or pipe: ``--skip-done
    /dev/null > /dev/null`` empties nothing and has no answers to overwrite)."""
    try:
        found = os.stat(path)
        return stat.S_ISREG(found.st_mode) and os.path.samestat(found, os.fstat(out.fileno()))
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        return False


def refuse_overwriting_resume(path: str, out: TextIO) -> None:
    """``InvalidInput(bad_arguments)`` when ``out``, the batch's output, is the ``--skip-done`` file
    opened without appending (``--skip-done out.jsonl > out.jsonl``): the shell emptied it before
    the batch began, so nothing was skipped and every query ran again (a paid batch paid twice),
    and a file opened in place (``1<>out.jsonl``) would have its answers overwritten. ``>>``
    appends, as the resume recipe says. Not judged where a descriptor's flags cannot be read."""
    if fcntl is None or not _same_file(path, out):
        return
    if not fcntl.fcntl(out.fileno(), fcntl.F_GETFL) & os.O_APPEND:
        raise InvalidInput(
            "--skip-done %s is also the output, which does not append to it (> instead of >>): the shell emptied it "
            "before the batch began; resume with >> %s" % (path, path),
            detail_code=BAD_ARGUMENTS,
        )


def end_cut_line(path: str, out: TextIO) -> None:
    """Finish the line a killed batch cut short at the end of ``path`` when ``out`` appends to it.

    The resume recipe (``--skip-done out.jsonl >> out.jsonl``) would otherwise glue the first
    new answer onto the cut line, where no JSON reader (nor the next ``--skip-done``) finds it.
    """
    if not _same_file(path, out):
        return
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(size - 1, 0))
            cut = size > 0 and handle.read(1) != b"\n"
    except OSError:  # gone meanwhile: nothing to join
        return
    if cut:
        out.write("\n")


class SkippingDone(Iterator[str]):
    """A pipe's queries less those ``--skip-done`` names as done, counting those skipped: how many
    is known only as they arrive, and the batch's summary says it (it said nothing of them)."""

    def __init__(self, queries: Iterator[str], done: set[str]) -> None:
        self.queries, self.done, self.skipped = queries, done, 0

    def __next__(self) -> str:
        """The next query not done."""
        while True:
            query = next(self.queries)
            if query not in self.done:
                return query
            self.skipped += 1


def echoed(query: str) -> str:
    """``query`` as a failed query's JSON line repeats it: its first ``MAX_QUERY_CHARS`` characters
    and "…" when it is longer (a line of megabytes was written back whole, to the output and the
    summary). Only a failed query is cut: ``--skip-done`` reads the successes' queries."""
    return query if len(query) <= MAX_QUERY_CHARS else query[:MAX_QUERY_CHARS] + "\u2026"


def run_batch(
    client: "SearchClient",
    queries: Iterable[str],
    options: dict[str, Any],
    out: TextIO,
    workers: int = 1,
    stop_after: Optional[int] = None,
    progress_every_s: float = PROGRESS_EVERY_S,
    clock: Clock = SYSTEM_CLOCK,
) -> int:
    """Search every query and write one JSON line each; the exit status of the first failure, else 0.

    Ctrl-C (or SIGTERM: ``terminated``) ends the batch with the summary line (``interrupted: N ok,
    M failed, K not run``) and raises :class:`~.output.Interrupted` (a ``KeyboardInterrupt``) for the caller's exit status.
    ``clock``: the client's; when it is a :class:`~websearch_sync.client.clock.CancellableClock`, a
    query still running when the batch stops ends at its next wait, sending no further request
    (a retry, the next backend of a chain) after :func:`~websearch_sync.cli.main` returned.
    """
    stopped = threading.Event()

    def work(query: str) -> Outcome:
        with clock.cancellable(stopped) if isinstance(clock, CancellableClock) else contextlib.nullcontext():
            try:
                if isinstance(query, OverlongQuery):  # the start of a streamed line, its rest dropped
                    raise query.error()
                return {"query": query, **client.search(query, **options)}, None
            except WebSearchError as error:
                return {"query": echoed(query), "error": error_form(error)}, exit_status(error)

    counts = BatchCounts()
    read = [0]  # how many queries were read: a pipe's are read as the batch goes
    known = len(queries) if isinstance(queries, Sized) else None
    progress = Progress(known, terminal=sys.stderr.isatty(), every_s=progress_every_s, clock=clock)
    notice: Optional[str] = None

    def summary(ended: Optional[tuple[str, str]] = None) -> str:
        skipped_done = queries.skipped if isinstance(queries, SkippingDone) else None
        total = read[0] if known is None else known
        return counts.summary(total, stop_after, ended, streamed=known is None, skipped_done=skipped_done)

    try:
        with contextlib.closing(in_order(work, queries, workers, reader_gone(out), stopped, read)) as outcomes:
            for line, status in outcomes:
                out.write(json_text(line, out) + "\n")
                out.flush()
                counts.add(status, line.get("error"))
                progress.update(counts, line["query"])
                notice = notice or (offline_notice(line) if status is None else None)
                if stop_after is not None and counts.consecutive >= stop_after:
                    counts.stopped = True
                    break
    except KeyboardInterrupt as interrupt:  # Ctrl-C, SIGTERM
        word, status = interruption(interrupt)
        progress.clear()
        sys.stderr.write(summary((word, "not run")) + "\n")
        raise Interrupted(status) from None
    except (
        WebSearchError
    ):  # a query the input could not give (a line of a pipe that is not UTF-8): the command says why
        progress.clear()
        sys.stderr.write(summary(INPUT_FAILED) + "\n")
        raise
    except BrokenPipeError:  # quiet (the reader has what it wanted), the terminal's line left clean
        progress.clear()
        raise
    except OutputFailed:  # a full disk: how far the batch got, for --skip-done (the command says why)
        with contextlib.suppress(OutputFailed):  # stderr on the same full disk: the status says it
            progress.clear()
            sys.stderr.write(summary(OUTPUT_FAILED) + "\n")
        raise
    progress.clear()
    if notice:
        sys.stderr.write(notice + "\n")
    sys.stderr.write(summary() + "\n")
    return counts.status or EXIT_OK
