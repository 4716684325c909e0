"""Exchanges as ``record`` captures them, for tests that give ``record_case`` its live answer."""

import json
from typing import Any

from websearch_sync.contract.recording import Exchange
from websearch_sync.net.wire import WireRequest


def json_exchange(url: str, answer: Any, request_headers: tuple[tuple[str, str], ...] = ()) -> Exchange:
    """A GET of ``url`` answered 200 with ``answer`` as JSON, read to its end."""
    return Exchange(
        request=WireRequest("GET", url, headers=list(request_headers)),
        status=200,
        headers={"Content-Type": "application/json"},
        url=url,
        body=bytearray(json.dumps(answer).encode()),
        complete=True,
    )
