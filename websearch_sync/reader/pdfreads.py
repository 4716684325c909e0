"""How many PDF reads their fetch gave up on are still running, process-wide, and the wait, or
refusal, of a new read once too many are.

A read runs in a thread its fetch abandons at the deadline or on Ctrl-C
(:func:`~websearch_sync.net.deadline.run_within`); it stops at its next
:func:`~websearch_sync.checkpoints.checkpoint`, but pypdf's parse of one page's content (up to
1 MB, about a second) has none, nor its parse of the character maps of that page's fonts before
it (within the read's decoding budget, 50 MB or ten times the file's size: about 12 MB a second,
so seconds for a hostile file's maps). A batch of hostile PDFs, or an agent fetching one again and
again with a short deadline, could so leave many threads running at once, each holding a core
(or the GIL) and its decoded data. So while :data:`MAX_ABANDONED_READS` abandoned reads still
run, a new read waits for one to end, for at most :data:`WAIT_SHARE` of the time its deadline
leaves (most end within about a second; begun meanwhile, it would share the CPU with them), and is
then refused with the retryable ``WebProviderError(pdf_reads_busy)``, before its deadline.
A read its fetch still waits for never counts (a batch of PDFs read at the same time is not
refused); pypdf is pure Python, so reads running at once share one core anyway.
"""

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Optional, Protocol

from ..checkpoints import Abandoned, abandoned_here, checkpoint
from ..errors import PDF_READS_BUSY, WebProviderError
from ..forks import renewed_in_children

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Reads given up by their fetch that may still run before a new read is refused: a machine's
#: two cores' worth.
MAX_ABANDONED_READS = 2


#: The share of the time its deadline leaves that a new read may wait for a given-up read to end:
#: a refusal still comes, typed, well before the deadline (whose own error would replace it).
WAIT_SHARE = 0.5
#: The longest one wait for a read to end, between two checkpoints (a waiting read given up stops).
_SLICE_S = 0.05


class _Remaining(Protocol):
    def remaining_s(self) -> float: ...


class _Running:
    """The reads running now, each by what abandons it (``None``: a read run outside abandonable
    work, which nothing gives up), and the reads waiting for one of them to end. Renewed in a
    forked child (:mod:`~websearch_sync.forks`): the parent's reads are not running there, and a
    lock a parent's thread held at the fork would stay held."""

    def __init__(self) -> None:
        self._ended = threading.Condition(threading.Lock())
        self._reads: dict[object, Optional[Abandoned]] = {}
        self._waiting = 0
        renewed_in_children(self)

    def forked(self) -> None:
        """In a forked child: a fresh lock, and no read running or waiting (their threads stayed
        in the parent): a child of a parent with given-up reads running refused every PDF."""
        self._ended = threading.Condition(threading.Lock())
        self._reads = {}
        self._waiting = 0

    def abandoned(self) -> int:
        """How many running reads their caller gave up on."""
        with self._ended:
            return self._abandoned()

    def waiting(self) -> int:
        """How many new reads wait for a given-up read to end."""
        with self._ended:
            return self._waiting

    def _abandoned(self) -> int:
        return sum(1 for flag in self._reads.values() if flag is not None and flag.is_set())

    @contextmanager
    def reading(
        self, host: str, provider: Optional[str], status: int, deadline: Optional[_Remaining] = None
    ) -> Iterator[None]:
        """The block reads a PDF of ``host``: counted while it runs. While
        :data:`MAX_ABANDONED_READS` reads given up still run, it waits for one to end, at most
        :data:`WAIT_SHARE` of the time ``deadline`` leaves (not at all without one), then is refused
        with ``WebProviderError(pdf_reads_busy)``."""
        token = object()
        with self._ended:
            end = time.monotonic() + (WAIT_SHARE * deadline.remaining_s() if deadline is not None else 0.0)
            self._waiting += 1
            try:
                while self._abandoned() >= MAX_ABANDONED_READS and time.monotonic() < end:
                    self._ended.wait(min(_SLICE_S, end - time.monotonic()))
                    checkpoint()  # this read's own fetch gave it up while it waited
            finally:
                self._waiting -= 1
            still = self._abandoned()
            admitted = still < MAX_ABANDONED_READS
            if admitted:
                self._reads[token] = abandoned_here()
        if not admitted:
            raise WebProviderError(
                "%s served a PDF; fetch did not read it: %d PDF reads given up earlier (at their deadline) are "
                "still running, which end at pypdf's next checkpoint (usually within a second, seconds for a "
                "page whose fonts' character maps are tens of MB); try again then" % (host, still),
                provider=provider,
                detail_code=PDF_READS_BUSY,
                status=status,
            )
        try:
            yield
        finally:
            with self._ended:
                self._reads.pop(token, None)  # not there in a child forked by the reading thread
                self._ended.notify_all()


#: The process's PDF reads.
RUNNING = _Running()
