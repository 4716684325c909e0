"""The retry policy: which failures are tried again, and how long to wait before each try.

A value object in the style of urllib3's ``Retry``: ``total`` retries, an exponential
backoff (``backoff_factor * 2**attempt``, at most ``backoff_max``) shortened at random by
up to ``jitter`` of itself (so that many clients do not retry in step), and never
shorter than the service's ``Retry-After`` when ``respect_retry_after``.
"""

import dataclasses
import random
from typing import Callable

from ..errors import PDF_READS_BUSY, WebSearchError

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Retryable failures a retry inside the same call does not heal, left to the caller's next call:
#: ``pdf_reads_busy`` comes after its read waited half the time the deadline left for given-up
#: reads to end; a retry downloaded the PDF again to wait out the rest, and the call ended at its
#: deadline, three downloads later, instead of at about half of it.
CALLER_RETRIES = frozenset({PDF_READS_BUSY})


@dataclasses.dataclass(frozen=True)
class RetryPolicy:
    """How a client retries a backend's retryable failures (``error.retryable``: timeouts,
    network errors, 5xx, HTTP 429; not ``budget_exhausted`` nor a DNS miss)."""

    total: int = 2
    backoff_factor: float = 0.5
    backoff_max: float = 8.0
    jitter: float = 0.5
    respect_retry_after: bool = True

    def with_total(self, total: int) -> "RetryPolicy":
        """This policy with another number of retries (a call's ``retries=``)."""
        return self if total == self.total else dataclasses.replace(self, total=total)

    def is_retry(self, error: WebSearchError) -> bool:
        """True when ``error`` may heal by itself (its ``retryable`` flag) within the call: not one
        of :data:`CALLER_RETRIES`, retryable by a later call only."""
        return error.retryable and error.detail_code not in CALLER_RETRIES

    def backoff_s(self, attempt: int, uniform: Callable[[float, float], float] = random.uniform) -> float:
        """The backoff before retry ``attempt + 1`` (``attempt`` counts from 0), jitter applied."""
        return float(min(self.backoff_max, self.backoff_factor * (2**attempt)) * uniform(1.0 - self.jitter, 1.0))

    def delay_s(
        self, attempt: int, error: WebSearchError, uniform: Callable[[float, float], float] = random.uniform
    ) -> float:
        """The wait before retrying after ``error``: the backoff, or the Retry-After when longer."""
        delay = self.backoff_s(attempt, uniform)
        if self.respect_retry_after and error.retry_after is not None:
            delay = max(delay, error.retry_after)
        return delay


#: What a client uses unless told otherwise (two retries, 0.5 s doubling up to 8 s, half jitter).
DEFAULT_RETRY = RetryPolicy()
