"""Batch searches for ``websearch-sync search --queries-file``: one JSON line per query, in input order.

With ``workers`` > 1 the queries run in that many threads sharing one client (its
rate limits, cool-downs and cache hold across them); lines are still written in
the order of the input. The batch can stop after K consecutive failures, and it
always ends with a summary line on stderr: ``N ok, M failed``.
"""

import sys
import threading
from contextlib import closing
from typing import Any, Callable, Dict, Generator, List, Optional, TextIO, Tuple

from ..client.search_client import SearchClient
from ..errors import WebSearchError
from .output import EXIT_OK, exit_status, json_text, offline_notice, terminal_text

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What one query gives: its JSON line and its exit status (``None`` when it succeeded).
Outcome = Tuple[Dict[str, Any], Optional[int]]


def in_order(work: Callable[[str], Outcome], queries: List[str], workers: int) -> Generator[Outcome, None, None]:
    """``work(query)`` for every query, yielded in input order, computed by ``workers`` threads.

    Closing the iterator stops handing out queries; queries already running finish
    in their (daemon) threads and are dropped.
    """
    if workers <= 1 or len(queries) <= 1:
        for query in queries:
            yield work(query)
        return
    results: Dict[int, Any] = {}
    state = {"next": 0, "stopped": False}
    ready = threading.Condition()

    def worker() -> None:
        while True:
            with ready:
                if state["stopped"] or state["next"] >= len(queries):
                    return
                index = state["next"]
                state["next"] += 1
            try:
                outcome: Any = work(queries[index])
            except BaseException as exc:  # handed to the consuming thread, which raises it: a bug is not hidden
                outcome = exc
            with ready:
                results[index] = outcome
                ready.notify_all()

    for number in range(min(workers, len(queries))):
        threading.Thread(target=worker, name="websearch-batch-%d" % number, daemon=True).start()
    try:
        for index in range(len(queries)):
            with ready:
                while index not in results:
                    ready.wait()
                outcome = results.pop(index)
            if isinstance(outcome, BaseException):
                raise outcome
            yield outcome
    finally:
        with ready:
            state["stopped"] = True


class BatchCounts:
    """Successes, failures, the current run of consecutive failures, and the first failure's status."""

    def __init__(self) -> None:
        self.ok = 0
        self.failed = 0
        self.consecutive = 0
        self.status: Optional[int] = None

    def add(self, status: Optional[int]) -> None:
        """Count one query's outcome."""
        if status is None:
            self.ok += 1
            self.consecutive = 0
        else:
            self.failed += 1
            self.consecutive += 1
            self.status = self.status or status

    def summary(self, total: int, stop_after: Optional[int]) -> str:
        """``N ok, M failed`` (and what was not run when the batch stopped early)."""
        line = "%d ok, %d failed" % (self.ok, self.failed)
        skipped = total - self.ok - self.failed
        if skipped:
            line += "; stopped after %d consecutive failures, %d not run" % (stop_after or 0, skipped)
        return line


def run_batch(
    client: SearchClient, queries: List[str], options: Dict[str, Any], out: TextIO, workers: int = 1, stop_after: Optional[int] = None
) -> int:
    """Search every query and write one JSON line each; the exit status of the first failure, else 0."""

    def work(query: str) -> Outcome:
        try:
            return {"query": query, **client.search(query, **options)}, None
        except WebSearchError as error:
            return {"query": query, "error": error.to_dict()}, exit_status(error)

    counts = BatchCounts()
    progress = sys.stderr.isatty()
    notice: Optional[str] = None
    with closing(in_order(work, queries, workers)) as outcomes:
        for number, (line, status) in enumerate(outcomes, 1):
            if progress:
                _progress(number, len(queries), line["query"])
            out.write(json_text(line, out) + "\n")
            out.flush()
            counts.add(status)
            notice = notice or (offline_notice(line) if status is None else None)
            if stop_after is not None and counts.consecutive >= stop_after:
                break
    if progress:
        _progress(0, 0, "")
    if notice:
        sys.stderr.write(notice + "\n")
    sys.stderr.write(counts.summary(len(queries), stop_after) + "\n")
    return counts.status or EXIT_OK


def _progress(number: int, total: int, query: str) -> None:
    """Redraw the progress line on stderr (a terminal); ``total`` 0 clears it."""
    text = "\r\x1b[K" if not total else "\r[%d/%d] %s\x1b[K" % (number, total, terminal_text(query[:60]))
    getattr(sys.stderr, "write_controls", sys.stderr.write)(text)
    sys.stderr.flush()
