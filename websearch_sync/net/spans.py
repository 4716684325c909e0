"""How a span of time is written in a message: readable whatever its size.

A setting may be any float (``min_interval_s=1e300`` is accepted: it means "never again"), and
``"%.1f s"`` writes such a value as a 300-digit number. Spans up to a day keep the seconds
(``2.0 s``), longer ones are days, and past a thousand years the span is no time anyone waits.
"""

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_DAY_S = 86400.0
#: Past this a span is written as a bound: no one waits that long (and the digits say nothing).
_LONGEST_S = 1000 * 365.25 * _DAY_S


def span_text(seconds: float) -> str:
    """``seconds`` for a message: ``2.0 s``, ``3.5 days``, ``1000+ years`` (infinity too)."""
    if seconds > _LONGEST_S:
        return "1000+ years"
    if seconds > _DAY_S:
        return "%.1f days" % (seconds / _DAY_S)
    return "%.1f s" % seconds
