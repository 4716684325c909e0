"""SearchClient benchmark against local servers that answer like SearXNG, Brave and Bocha.

    python bench/client.py [--rounds N]

Prints three figures (all measured side by side in this one run):
 1. merge over searxng/brave/bocha answering after 100/200/300 ms: wall time / slowest
    backend (target <= 1.05);
 2. one warm ``SearchClient.search`` vs a bare ``requests.Session.get`` of the same URL
    plus ``json.loads``, at 50 ms server latency: ratio of medians (target <= 1.02);
 3. a cache hit: median latency of ``SearchClient.search`` answered from the memory
    cache (target <= 5 us; validation still runs first, reused for an exact repeat).

The servers replay recorded bodies from fixtures/ and are reached through the real
configuration: SEARXNG_BASE_URL, WEB_SEARCH_ENDPOINT_BRAVE, BOCHA_BASE_URL.
"""

import argparse
import http.server
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websearch_sync as ws  # noqa: E402

BODIES = {
    "/searxng/search": ROOT / "fixtures" / "searxng" / "browse-API__1.json",
    "/brave/web": ROOT / "fixtures" / "brave" / "larallama__1.json",
    "/bocha/v1/web-search": ROOT / "fixtures" / "bocha" / "bocha-docs__web_search_example.json",
}


def make_server(delay_s: float) -> http.server.ThreadingHTTPServer:
    bodies = {path: file.read_bytes() for path, file in BODIES.items()}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, like the real services
        disable_nagle_algorithm = True  # headers and body leave at once (no delayed-ACK stalls)

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            body = bodies.get(self.path.split("?", 1)[0])
            time.sleep(delay_s)
            status = 200 if body is not None else 404
            body = body or b"{}"
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _answer

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def base(server: http.server.ThreadingHTTPServer) -> str:
    return "http://127.0.0.1:%d" % server.server_address[1]


def configure(searxng, brave, bocha) -> ws.Settings:
    os.environ.update(
        {
            "SEARXNG_BASE_URL": base(searxng) + "/searxng",
            "WEB_SEARCH_ENDPOINT_BRAVE": base(brave) + "/brave/web",
            "BRAVE_API_KEY": "bench-brave-key",
            "BOCHA_BASE_URL": base(bocha) + "/bocha",
            "BOCHA_API_KEY": "bench-bocha-key",
        }
    )
    return ws.Settings.from_env()


def bench_merge(rounds: int) -> None:
    servers = [make_server(d) for d in (0.1, 0.2, 0.3)]
    settings = configure(*servers)
    with ws.SearchClient(
        ["searxng", "brave", "bocha"], strategy="merge", settings=settings, cache_ttl_s=0, min_interval_s=0
    ) as client:
        client.search("warm up")
        alone = []
        for i in range(max(3, rounds // 3)):  # the slowest backend on its own, same path
            started = time.perf_counter()
            client.search("alone %d" % i, backend="bocha")
            alone.append(time.perf_counter() - started)
        walls = []
        for i in range(rounds):
            started = time.perf_counter()
            result = client.search("merge round %d" % i)
            walls.append(time.perf_counter() - started)
        assert result["provider_meta"]["providers"] == ["searxng", "brave", "bocha"], result["provider_meta"]
    median, slowest = statistics.median(walls), statistics.median(alone)
    print(
        "1. merge of 3 backends at 100/200/300 ms: median wall %.1f ms over %d rounds; slowest backend alone %.1f ms;"
        " wall / slowest alone = %.3f, wall / 300 ms = %.3f (target <= 1.05)"
        % (median * 1000, rounds, slowest * 1000, median / slowest, median / 0.3)
    )
    for server in servers:
        server.shutdown()


def bench_warm(rounds: int) -> None:
    server = make_server(0.05)
    settings = configure(server, server, server)
    url = base(server) + "/searxng/search"
    session = requests.Session()
    with ws.SearchClient("searxng", settings=settings, cache_ttl_s=0, min_interval_s=0) as client:
        client.search("warm up")
        session.get(url, params={"q": "warm up", "format": "json"}, timeout=10).json()
        ours, bare = [], []
        for i in range(rounds):  # interleaved, so both see the same machine load
            started = time.perf_counter()
            client.search("query %d" % i)
            ours.append(time.perf_counter() - started)
            started = time.perf_counter()
            response = session.get(url, params={"q": "query %d" % i, "format": "json"}, timeout=10)
            json.loads(response.content)
            bare.append(time.perf_counter() - started)
    ratio = statistics.median(ours) / statistics.median(bare)
    print(
        "2. warm search vs bare requests.get + json.loads at 50 ms: %.2f ms vs %.2f ms (medians of %d); ratio %.3f (target <= 1.02)"
        % (statistics.median(ours) * 1000, statistics.median(bare) * 1000, rounds, ratio)
    )
    session.close()
    server.shutdown()


def bench_cache_hit(rounds: int) -> None:
    server = make_server(0.0)
    settings = configure(server, server, server)
    with ws.SearchClient("searxng", settings=settings, cache_ttl_s=300) as client:
        client.search("cached query", max_results=5)
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            result = client.search("cached query", max_results=5)
            times.append(time.perf_counter() - started)
        assert result["provider_meta"]["cached"] is True
    times.sort()
    print(
        "3. cache hit: median %.1f us, p90 %.1f us over %d calls (target <= 5 us)"
        % (statistics.median(times) * 1e6, times[int(len(times) * 0.9)] * 1e6, rounds)
    )
    server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds for the network figures (default 30)")
    args = parser.parse_args()
    bench_merge(args.rounds)
    bench_warm(args.rounds * 3)
    bench_cache_hit(20000)


if __name__ == "__main__":
    main()
