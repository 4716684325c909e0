"""``websearch-sync verify`` replays offline, as its goldens were made: a case whose search
fetches a page (``include_content``, a result without ``raw_content``) met the test suite's
network block when its golden was written, so outside pytest the command fetched that page
live: DRIFT (``dns_error``) on a machine without DNS, a real request to the page's host on one
with it. Run in a fresh interpreter: the suite's own block must not stand in for the command's."""

import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

#: Resolution fails (as offline) and is recorded, then the CLI verifies the Tavily cases, one of
#: which (news_with_raw_content) fetches https://github.com/cloudwego/eino for its content.
SCRIPT = """
import socket, sys
resolved = []
def getaddrinfo(host, *args, **kwargs):
    resolved.append(host)
    raise socket.gaierror(socket.EAI_NONAME, "offline")
socket.getaddrinfo = getaddrinfo
from websearch_sync.cli import main
status = main(["verify", "--fixtures", sys.argv[1], "--backend", "tavily"])
print("resolved:", resolved)
sys.exit(status)
"""


def test_verify_resolves_no_host_and_passes_the_include_content_case():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(FIXTURES)], capture_output=True, text=True, timeout=120, check=False
    )
    assert "resolved: []" in done.stdout, done.stdout
    assert "PASS   tavily/news_with_raw_content" in done.stdout, done.stdout
    assert done.returncode == 0, done.stdout + done.stderr
