"""The transports a test can run on (issue 21): the browser one needs the ``browser`` extra."""

import pytest

from websearch_sync.net.browser import browser_available

#: Skips a test (or parameter) that needs the browser transport when the extra is missing.
needs_browser = pytest.mark.skipif(not browser_available(), reason="needs the browser extra (curl_cffi)")
#: ``impersonate`` values covering both transports of keyless engines and fetch.
BOTH = [pytest.param(None, id="browser", marks=needs_browser), pytest.param("off", id="requests")]


def send_once(url, impersonate, *, timeout_ms=5000, **transport_options):
    """One browser request (``GET``, up to 1 MB) for ``url`` on the transport ``impersonate`` names,
    through a fresh ``HttpTransport`` (closed afterwards): the answer as the hop loop returns it."""
    from websearch_sync.net.deadline import Deadline
    from websearch_sync.net.transport import HttpTransport, RequestSpec

    transport = HttpTransport(impersonate=impersonate, **transport_options)
    try:
        return transport.send(
            RequestSpec("GET", url, browser=True), deadline=Deadline(timeout_ms), provider="t", max_bytes=1 << 20
        )
    finally:
        transport.close()
