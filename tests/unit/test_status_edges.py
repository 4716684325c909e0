"""How long a service asks us to wait, at the edges of its headers (``net/status.py``), on the
recorded form of Brave's windows (``X-RateLimit-Reset: 1, 1419704`` beside
``X-RateLimit-Remaining: 0, 1998``: one value per window, shortest first)."""

from websearch_sync.net.status import retry_after_seconds


def test_when_both_windows_are_used_up_the_wait_is_the_longer_one():
    headers = {"X-RateLimit-Remaining": "0, 0", "X-RateLimit-Reset": "1, 3600"}
    assert retry_after_seconds(headers) == 3600.0


def test_windows_that_do_not_pair_up_give_the_first_window_s_wait():
    """Three remaining counts for two resets: which count is which window's is unknown."""
    headers = {"X-RateLimit-Remaining": "5, 0, 0", "X-RateLimit-Reset": "1, 3600"}
    assert retry_after_seconds(headers) == 1.0
