"""The transports a test can run on (issue 21): the browser one needs the ``browser`` extra."""

import pytest

from websearch_sync.net.browser import browser_available

#: Skips a test (or parameter) that needs the browser transport when the extra is missing.
needs_browser = pytest.mark.skipif(not browser_available(), reason="needs the browser extra (curl_cffi)")
#: ``impersonate`` values covering both transports of keyless engines and fetch.
BOTH = [pytest.param(None, id="browser", marks=needs_browser), pytest.param("off", id="requests")]
