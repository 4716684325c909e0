"""The browser transport's cost: warm search time and import time, browser vs requests.

    python bench/transport.py [--rounds N]

Prints, measured side by side in this one run:
 1. one warm ``SearchClient.search`` on ``ddg_html`` against a local server answering a
    recorded DuckDuckGo page after 50 ms, over http and over https (TLS with the test
    certificate in tests/data/tls): median with ``impersonate="chrome"`` (curl_cffi) and with
    ``impersonate="off"`` (requests), and their ratio (target <= 1.05);
 2. import time in a fresh interpreter: ``import websearch_sync`` (which never imports
    curl_cffi) and ``import websearch_sync`` plus the first browser client (which does),
    medians of fresh processes.
"""

import argparse
import http.server
import os
import ssl
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websearch_sync as ws  # noqa: E402
from websearch_sync.net.browser import browser_available  # noqa: E402

PAGE = (ROOT / "fixtures" / "ddg_html" / "agent-webtool__1.html").read_bytes()
TLS = ROOT / "tests" / "data" / "tls"
DELAY_S = 0.05


def make_server(tls: bool) -> http.server.ThreadingHTTPServer:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, like the real engine
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            time.sleep(DELAY_S)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(TLS / "localhost.crt"), str(TLS / "localhost.key"))
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def warm_median(url: str, impersonate: str, rounds: int) -> float:
    settings = ws.Settings(endpoints={"ddg_html": url}, impersonate=impersonate, ca_bundle=str(TLS / "localhost.crt"))
    with ws.SearchClient("ddg_html", settings=settings, cache_ttl_s=0, min_interval_s=0, retries=0) as client:
        client.search("warm up")
        times = []
        for index in range(rounds):
            started = time.perf_counter()
            client.search("query %d" % index)
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_warm(rounds: int) -> None:
    for tls in (False, True):
        server = make_server(tls)
        url = "%s://localhost:%d/html/" % ("https" if tls else "http", server.server_address[1])
        try:
            plain = warm_median(url, "off", rounds)
            browser = warm_median(url, "chrome", rounds)
        finally:
            server.shutdown()
        print(
            "1. warm ddg_html search at 50 ms over %s: browser %.2f ms, requests %.2f ms (medians of %d); ratio %.3f (target <= 1.05)"
            % ("https" if tls else "http ", browser * 1000, plain * 1000, rounds, browser / plain)
        )


def import_medians(codes: list, runs: int) -> list:
    """Median wall time of each snippet in a fresh interpreter, the snippets interleaved run by run
    (so that the load of a shared machine falls on all of them alike)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    times: list = [[] for _ in codes]
    for _ in range(runs):
        for index, code in enumerate(codes):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            times[index].append(time.perf_counter() - started)
    return [statistics.median(t) for t in times]


def bench_import(runs: int) -> None:
    bare, package, browser = import_medians(
        [
            "pass",
            "import websearch_sync, sys; assert 'curl_cffi' not in sys.modules",
            "import websearch_sync as ws; ws.SearchClient('stub', settings=ws.Settings(impersonate='chrome')).close()",
        ],
        runs,
    )
    print(
        "2. import (fresh interpreter, medians of %d, interpreter start %.0f ms subtracted): websearch_sync %.0f ms "
        "(curl_cffi not imported); with the first browser client %.0f ms (+%.0f ms for curl_cffi)"
        % (runs, bare * 1000, (package - bare) * 1000, (browser - bare) * 1000, (browser - package) * 1000)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    if not browser_available():
        sys.exit("needs the browser extra: pip install -e '.[browser]'")
    bench_warm(args.rounds)
    bench_import(max(5, args.rounds // 8))


if __name__ == "__main__":
    main()
