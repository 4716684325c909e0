"""What a process logs of a shared state's outages, by the times :class:`StateServer` is told of
(its callers' monotonic clock; here plain numbers): one warning an outage, however many calls meet
it, and a new one for each outage."""

import logging

from websearch_sync.client.state.server import RETRY_AFTER_S, StateServer

#: A URL no test connects to: the server is only told of failures and answers.
URL = "redis://127.0.0.1:1/0"
REFUSED = ConnectionError("Connection refused")


def _logged(caplog, events):
    """What a server told of ``events`` (``("failed" | "answered", now)``) logged, in order."""
    server = StateServer(URL)
    with caplog.at_level(logging.INFO, logger="websearch_sync"):
        for event, now in events:
            if event == "failed":
                server.failed(REFUSED, now)
            else:
                server.answered(now)
    return ["answers again" if "answers again" in r.getMessage() else r.levelname for r in caplog.records]


def test_an_outage_after_redis_came_back_is_warned_of_though_no_second_call_saw_it_back(caplog):
    """The outage ended only at a second answer 5 s after the first: a quiet process (one call
    after Redis came back) stayed "down", and its next outage, an hour later, logged nothing; the last outage's end
    is logged before the new one's warning (two warnings in a row read as one outage never over)."""
    events = [("failed", 0.0), ("answered", 10.0), ("failed", 3610.0)]
    assert _logged(caplog, events) == ["WARNING", "answers again", "WARNING"]


def test_a_redis_that_answers_reads_and_refuses_the_write_after_is_still_one_warning(caplog):
    """A replica: each call's read answered, its write refused milliseconds later, every 5 s."""
    events = [("failed", 0.0)]
    for retry in range(1, 5):
        events += [("answered", retry * RETRY_AFTER_S), ("failed", retry * RETRY_AFTER_S + 0.003)]
    assert _logged(caplog, events) == ["WARNING"]


def test_redis_back_for_5_s_is_logged_and_its_next_outage_warned_of(caplog):
    events = [("failed", 0.0), ("answered", 10.0), ("answered", 10.0 + RETRY_AFTER_S), ("failed", 3610.0)]
    assert _logged(caplog, events) == ["WARNING", "answers again", "WARNING"]
