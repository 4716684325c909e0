"""An ``X-RateLimit-Reset`` that is the time of the reset in Unix seconds (GitHub's form, and many
API gateways'), not a number of seconds to wait (Brave's): the wait is until that time. Read as a
wait it was capped at a day, so one 429 through such a gateway cooled the backend for a day."""

import json
import time

import pytest
from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.net.status import retry_after_seconds


def test_a_429_whose_reset_is_a_time_waits_until_then():
    reset_in = 30
    with FaultServer({}) as server:
        started = time.time()
        reset_at = int(started) + reset_in
        headers = {"X-RateLimit-Reset": str(reset_at), "X-RateLimit-Remaining": "0"}
        server.routes["/search"] = respond(429, json.dumps({"error": "rate"}).encode(), headers, "application/json")
        settings = ws.Settings(providers={"searxng": {"base_url": server.url("")}})
        with ws.SearchClient("searxng", settings=settings, retries=0) as client:
            with pytest.raises(ws.WebBlocked) as caught:
                client.search("q")
        elapsed = time.time() - started
    assert caught.value.detail_code == "http_429"
    assert reset_at - started - elapsed <= caught.value.retry_after <= reset_at - started  # until then, not a day


def test_a_reset_time_already_past_is_no_duration():
    # None: the block's own cool-down applies (0.0 suspended nothing: "ask again now")
    assert retry_after_seconds({"X-RateLimit-Reset": "1000000000"}) is None  # 2001-09-09


def test_a_small_reset_stays_a_number_of_seconds():
    assert retry_after_seconds({"X-RateLimit-Reset": "42"}) == 42.0
