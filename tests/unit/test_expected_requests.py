"""The strict test servers (tests/expected_requests.py) fail a test asking a page it should not:
one no answer was registered for, or one already answered (``responses`` answers it again)."""

import pytest
import requests
from expected_requests import expected_requests, serve

URL = "https://www.bing.com/search"
PAGE_2 = {"q": "hello", "first": "11"}


def test_a_page_asked_once_passes():
    with expected_requests() as mock:
        serve(mock, URL, PAGE_2, "<html>page 2</html>")
        assert requests.get(URL, params=PAGE_2, timeout=5).text == "<html>page 2</html>"


def test_a_page_asked_again_fails_the_block():
    """A next_page returning the offset it was asked at would ask the same page twice."""
    with pytest.raises(AssertionError, match=r"more than once .*\('https://www.bing.com/search', 2\)"):
        with expected_requests() as mock:
            serve(mock, URL, PAGE_2, "<html>page 2</html>")
            for _ in range(2):
                requests.get(URL, params=PAGE_2, timeout=5)


def test_a_page_no_answer_was_registered_for_fails_the_block():
    with pytest.raises(AssertionError, match="did not expect"):
        with expected_requests(all_asked=False) as mock:
            serve(mock, URL, PAGE_2, "<html>page 2</html>")
            try:
                requests.get(URL, params=dict(PAGE_2, first="10"), timeout=5)
            except requests.ConnectionError:  # responses' refusal of an unmatched request
                pass
