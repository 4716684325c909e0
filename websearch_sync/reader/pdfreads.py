"""How many PDF reads their fetch gave up on are still running, process-wide, and the refusal
of a new read once too many are.

A read runs in a thread its fetch abandons at the deadline or on Ctrl-C
(:func:`~websearch_sync.net.deadline.run_within`); it stops at its next
:func:`~websearch_sync.checkpoints.checkpoint`, but pypdf's parse of one page's content (up to
1 MB, about a second) has none. A batch of hostile PDFs, or an agent fetching one again and
again with a short deadline, could so leave many threads running at once, each holding a core
(or the GIL) and its decoded data. So a new read is refused at once, with the retryable
``WebProviderError(pdf_reads_busy)``, while :data:`MAX_ABANDONED_READS` abandoned reads still
run: they end within about a second, and a read begun meanwhile would share the CPU with them.
A read its fetch still waits for never counts (a batch of PDFs read at the same time is not
refused); pypdf is pure Python, so reads running at once share one core anyway.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Optional

from ..checkpoints import Abandoned, abandoned_here
from ..errors import PDF_READS_BUSY, WebProviderError

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Reads given up by their fetch that may still run before a new read is refused: a machine's
#: two cores' worth.
MAX_ABANDONED_READS = 2


class _Running:
    """The reads running now, each by what abandons it (``None``: a read run outside abandonable
    work, which nothing gives up)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reads: dict[object, Optional[Abandoned]] = {}

    def abandoned(self) -> int:
        """How many running reads their caller gave up on."""
        with self._lock:
            return self._abandoned()

    def _abandoned(self) -> int:
        return sum(1 for flag in self._reads.values() if flag is not None and flag.is_set())

    @contextmanager
    def reading(self, host: str, provider: Optional[str], status: int) -> Iterator[None]:
        """The block reads a PDF of ``host``: counted while it runs; refused at once with
        ``WebProviderError(pdf_reads_busy)`` while :data:`MAX_ABANDONED_READS` reads given up
        still run."""
        token = object()
        with self._lock:
            still = self._abandoned()
            admitted = still < MAX_ABANDONED_READS
            if admitted:
                self._reads[token] = abandoned_here()
        if not admitted:
            raise WebProviderError(
                "%s served a PDF; fetch did not read it: %d PDF reads given up earlier (at their deadline) are "
                "still running, which end within a second or so; try again then" % (host, still),
                provider=provider,
                detail_code=PDF_READS_BUSY,
                status=status,
            )
        try:
            yield
        finally:
            with self._lock:
                del self._reads[token]


#: The process's PDF reads.
RUNNING = _Running()
