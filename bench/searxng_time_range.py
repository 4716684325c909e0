"""What a SearXNG search with a time range costs while the instance's ``/config`` is unknown.

    python bench/searxng_time_range.py

The backend reads ``/config`` after a time-range search to name the engines the instance skipped
(``backends/searxng_config.py``). For a fake instance on 127.0.0.1 (tests/fake_searxng.py: one
engine with time-range support, one without) paced at 0, 2 and 20 s (``min_interval_s``, the
last past the call's 15 s deadline): the first call's time and warning, the same search's again
(from the cache or not), and the requests the instance got. The read is best effort: it must not
make a call wait for a rate-limit slot, and the answer it could not judge must still be cached.
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fake_searxng import Engine, FakeSearXNG  # noqa: E402

import websearch_sync as ws  # noqa: E402

INTERVALS_S = (0, 2, 20)


def timed(call):
    """``(seconds, what call() returned or raised)``."""
    started = time.monotonic()
    try:
        outcome = call()
    except ws.WebSearchError as error:
        outcome = error
    return time.monotonic() - started, outcome


def said(outcome) -> str:
    """The warnings of an answer, or the error a call failed with."""
    if isinstance(outcome, ws.WebSearchError):
        return "failed %s(%s)" % (type(outcome).__name__, outcome.detail_code)
    cached = " cached" if outcome["provider_meta"].get("cached") else ""
    return "%s%s" % ([e["detail_code"] for e in outcome.get("errors", [])], cached)


def main() -> None:
    """Print one line per pace."""
    for interval in INTERVALS_S:
        with FakeSearXNG([Engine("google"), Engine("wikipedia", time_range_support=False)]) as sx:
            settings = ws.Settings(providers={"searxng": {"base_url": sx.url}})
            with ws.SearchClient(settings=settings, min_interval_s=interval) as client:
                first_s, first = timed(lambda: client.search("q", backend="searxng", time_range="week"))
                again_s, again = timed(lambda: client.search("q", backend="searxng", time_range="week"))
            print(
                "min_interval_s=%2d: first call %6.3f s %s; again %6.3f s %s; /config reads %d, searches %d"
                % (interval, first_s, said(first), again_s, said(again), sx.config_reads, len(sx.searches))
            )


if __name__ == "__main__":
    main()
