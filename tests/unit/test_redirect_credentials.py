"""docs/reliability.md's table of which redirects keep a request's credentials is the hop loop's
rule: each row is replayed through :meth:`HttpTransport.send` (a ``MockWire``, no socket), and the
last request of its chain carries the credentials the row says, or none of them. Before, the rule
(``same_origin``: the same origin, or http to https on the default ports; a trailing dot another
origin) was in the code and its tests only."""

import re
from pathlib import Path

import pytest

from websearch_sync.net.deadline import Deadline
from websearch_sync.net.hops import HopRules, RedirectPolicy
from websearch_sync.net.ssrf import AddressGuard, no_lookup
from websearch_sync.net.transport import HttpTransport, RequestSpec
from websearch_sync.net.wire_mock import MockResponse, MockWire

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reliability.md"
KEY = "k-0123456789abcdef"
#: The credentials the page names, each by its kind: a key in Authorization, a cookie, a header
#: whose name says secret (twice), and one whose value holds the configured key.
CREDENTIALS = {
    "Authorization": "Bearer " + KEY,
    "Cookie": "session=s-42",
    "X-Subscription-Token": "t-0123456789",
    "X-API-Key": "a-0123456789",
    "X-Trace": "caller-" + KEY,
}
PLAIN = {"Accept": "application/json"}


def _rows():
    """``(request URL, [redirect targets], kept)`` of each row of the page's table."""
    text = PAGE.read_text(encoding="utf-8")
    table = text.split("| request to | redirected to | credentials |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:
        start, targets, verdict = [cell.strip() for cell in line.strip("|").split("|")]
        assert verdict in ("kept", "left behind"), line
        rows.append((start.strip("`"), re.findall(r"`([^`]+)`", targets), verdict == "kept"))
    return rows


ROWS = _rows()


def test_the_table_was_read():
    assert len(ROWS) >= 10 and {kept for _, _, kept in ROWS} == {True, False}
    assert any(target.split("/")[2].endswith(".") for _, targets, _ in ROWS for target in targets)  # a trailing dot


@pytest.mark.parametrize("start, targets, kept", ROWS, ids=["->".join([row[0], *row[1]]) for row in ROWS])
def test_a_redirect_keeps_the_credentials_the_table_says(start, targets, kept):
    sent = []

    def answer(request):  # the n-th request is redirected to the n-th target, the last answered
        sent.append(request)
        if len(sent) <= len(targets):
            return MockResponse(302, {"Location": targets[len(sent) - 1]}, "")
        return MockResponse(200, {"Content-Type": "application/json"}, "{}")

    spec = RequestSpec("GET", start, headers={**CREDENTIALS, **PLAIN})
    guard = AddressGuard(resolver=no_lookup)  # a MockWire's: no host is looked up
    rules = HopRules(RedirectPolicy(start, guard, provider="engine", trust_start_host=True))  # search's policy
    HttpTransport(wire=MockWire(answer), impersonate="off").send(
        spec, deadline=Deadline(5000), provider="engine", max_bytes=1 << 20, secrets=[KEY], hops=rules
    )
    assert len(sent) == len(targets) + 1
    assert dict(sent[0].headers).items() >= CREDENTIALS.items()  # the first request carries them all
    last = dict(sent[-1].headers)
    assert last.items() >= PLAIN.items()
    assert {name: last[name] for name in CREDENTIALS if name in last} == (CREDENTIALS if kept else {})
