"""The browser transport's cost: warm search time, client CPU per search and import time.

    python bench/transport.py [--rounds N] [--cpu-rounds N]

Prints, measured side by side in this one run:
 1. one warm ``SearchClient.search`` on ``ddg_html`` against a local server answering a
    recorded DuckDuckGo page after 50 ms, over http and over https (TLS with the test
    certificate in tests/data/tls): median with ``impersonate="chrome"`` (curl_cffi) and with
    ``impersonate="off"`` (requests), and their ratio (target <= 1.05);
 2. client CPU per warm search (the process's user + system time over many searches, the
    upstream answering at once from another process, so only the client's work is counted;
    the contenders take turns in batches and each figure is its best batch):
    ``ddg_html`` on the browser wire and on the requests wire, and ddgs's DuckDuckGo engine
    (``pip install ddgs``; not a dependency of this project, skipped with a message when
    missing; over https it skips certificate verification, which rustls refuses for the
    self-signed test certificate) against the same loopback upstream and page (targets:
    ours <= ddgs, browser <= 1.05 x requests); then ddgs's client as its users call it,
    ``DDGS().text(query, backend="duckduckgo")`` (the engine plus ddgs's thread pool, ranking
    and de-duplication), for the comparison of the two libraries' public calls; the browser wire
    searching from a worker thread (where no Ctrl-C can arrive, so no hand-off); a bare
    ``requests.Session().post`` of the same form, the floor under the requests wire, and the
    requests wire's exchange alone (``HttpTransport.send`` of that form) beside it;
 3. import time in a fresh interpreter: ``import websearch_sync`` (which never imports
    curl_cffi) and ``import websearch_sync`` plus the first browser client and its wire (which do),
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


def serve_elsewhere(tls: bool) -> tuple[subprocess.Popen, str]:
    """The upstream in a child process (its CPU is not the client's): the process and its URL."""
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve", "tls" if tls else "plain"], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    port = int(child.stdout.readline())
    return child, "%s://127.0.0.1:%d/html/" % ("https" if tls else "http", port)


def serve(scheme: str) -> None:
    """``--serve``: answer at once (no delay: only the client's CPU is measured), print the port, run until killed."""
    global DELAY_S
    DELAY_S = 0.0
    server = make_server(scheme == "tls")
    print(server.server_address[1], flush=True)
    threading.Event().wait()


#: Figure 2's contenders run in this many interleaved batches; each figure is its best batch
#: (another process's work only ever adds CPU time, so the lowest batch is the least disturbed).
BATCHES = 5


def cpu_per_search(searches: dict, rounds: int) -> dict:
    """Process CPU seconds (all threads, user + system) per call of each ``searches[name](query)``:
    after 20 warm-up calls each, ``rounds`` calls in :data:`BATCHES` interleaved batches, the best batch."""
    for search in searches.values():
        run_batch(search, ["warm up %d" % index for index in range(20)])
    best = dict.fromkeys(searches, float("inf"))
    size = max(1, rounds // BATCHES)
    for batch in range(BATCHES):
        for name, search in searches.items():
            started = time.process_time()
            run_batch(search, ["query %d %d" % (batch, index) for index in range(size)])
            best[name] = min(best[name], (time.process_time() - started) / size)
    return best


def run_batch(search, queries: list) -> None:
    """``search(query)`` for each query, in a thread of its own when ``search`` was marked by
    :func:`in_worker_thread` (one thread start a batch), else here."""
    if not getattr(search, "in_worker_thread", False):
        for query in queries:
            search(query)
        return
    thread = threading.Thread(target=run_batch, args=(search.__wrapped__, queries))
    thread.start()
    thread.join()


def in_worker_thread(search):
    """``search`` marked to run its batches in a thread other than the main one (a web server's
    request thread, a batch's workers): no signal reaches such a thread, so the browser wire runs
    the transfer there without the Ctrl-C hand-off."""

    def marked(query: str) -> None:
        search(query)

    marked.__wrapped__ = search  # type: ignore[attr-defined]
    marked.in_worker_thread = True  # type: ignore[attr-defined]
    return marked


def ours(url: str, impersonate: str):
    settings = ws.Settings(endpoints={"ddg_html": url}, impersonate=impersonate, ca_bundle=str(TLS / "localhost.crt"))
    client = ws.SearchClient("ddg_html", settings=settings, cache_ttl_s=0, min_interval_s=0, retries=0)

    def search(query: str) -> None:
        assert client.search(query)["items"]

    return search, client.close


def _marked(made):
    """``ours(...)``'s pair with its search marked :func:`in_worker_thread`."""
    search, close = made
    return in_worker_thread(search), close


def ddgs_engine(url: str):
    """ddgs's DuckDuckGo engine with its search URL pointed at ``url`` (``None`` without ddgs)."""
    try:
        from ddgs.engines.duckduckgo import Duckduckgo
    except ImportError:
        return None
    engine = Duckduckgo(timeout=10, verify=False)  # rustls refuses the self-signed test certificate
    engine.search_url = url

    def search(query: str) -> None:
        assert engine.search(query)

    return search, lambda: None


def ddgs_client(url: str):
    """ddgs's public client, ``DDGS().text(query, backend="duckduckgo")`` (what a ddgs user calls:
    its engine plus a thread pool, ranking and de-duplication), its DuckDuckGo engine's search URL
    pointed at ``url`` (``None`` without ddgs)."""
    try:
        from ddgs import DDGS
        from ddgs.engines.duckduckgo import Duckduckgo
    except ImportError:
        return None
    saved = Duckduckgo.search_url
    Duckduckgo.search_url = url  # the client builds its engines per search, from the class
    client = DDGS(timeout=10, verify=False)

    def search(query: str) -> None:
        assert client.text(query, backend="duckduckgo", max_results=10)

    def close() -> None:
        Duckduckgo.search_url = saved

    return search, close


def bare_requests(url: str):
    """``requests.Session().post`` of the form a search sends, the body read: the floor under the requests wire."""
    import requests

    session = requests.Session()

    def search(query: str) -> None:
        assert session.post(
            url, data={"q": query, "b": "", "kl": ""}, timeout=10, verify=str(TLS / "localhost.crt")
        ).content

    return search, session.close


def requests_exchange(url: str):
    """The requests wire's exchange alone, ``HttpTransport.send`` of the same form (no engine, no
    client): beside the bare post, what the wire adds to ``requests`` itself."""
    from websearch_sync.net.deadline import Deadline
    from websearch_sync.net.transport import HttpTransport, RequestSpec

    transport = HttpTransport(impersonate="off", ca_bundle=str(TLS / "localhost.crt"))

    def search(query: str) -> None:
        spec = RequestSpec("POST", url, data={"q": query, "b": "", "kl": ""})
        assert transport.send(spec, deadline=Deadline(10_000), provider="ddg_html", max_bytes=5_000_000).content

    return search, transport.close


def bench_cpu(rounds: int) -> None:
    for tls in (False, True):
        child, url = serve_elsewhere(tls)
        contenders = {
            name: made
            for name, made in (
                ("browser", ours(url, "chrome")),
                ("requests", ours(url, "off")),
                ("browser in a thread", _marked(ours(url, "chrome"))),
                ("ddgs", ddgs_engine(url)),
                ("ddgs client", ddgs_client(url)),
                ("bare requests", bare_requests(url)),
                ("requests exchange", requests_exchange(url)),
            )
            if made is not None
        }
        try:
            figures = cpu_per_search({name: search for name, (search, _) in contenders.items()}, rounds)
        finally:
            for _, close in contenders.values():
                close()
            child.kill()
            child.wait()
        line = (
            "2. client CPU per warm search over %s (best of %d interleaved batches of %d): browser wire %.2f ms, "
            "requests wire %.2f ms"
            % (
                "https" if tls else "http ",
                BATCHES,
                max(1, rounds // BATCHES),
                figures["browser"] * 1000,
                figures["requests"] * 1000,
            )
        )
        line += " (browser/requests %.3f, target <= 1.05)" % (figures["browser"] / figures["requests"])
        if "ddgs" in figures:
            line += "; ddgs %.2f ms (ours/ddgs: browser %.2f, requests %.2f; target <= 1)" % (
                figures["ddgs"] * 1000,
                figures["browser"] / figures["ddgs"],
                figures["requests"] / figures["ddgs"],
            )
        else:
            line += "; ddgs not installed (pip install ddgs to compare): skipped"
        print(line)
        print(
            "   the requests wire's floor, a bare requests.Session().post of the same form: %.2f ms (the requests wire "
            "spends %.2f ms more: the parse, the checks and the client)"
            % (figures["bare requests"] * 1000, (figures["requests"] - figures["bare requests"]) * 1000)
        )
        print(
            "   the requests wire's exchange alone (HttpTransport.send of that form): %.2f ms (÷ the bare post %.2f)"
            % (figures["requests exchange"] * 1000, figures["requests exchange"] / figures["bare requests"])
        )
        print(
            "   the browser wire searching from a worker thread (no Ctrl-C hand-off there): %.2f ms (÷ the main "
            "thread's %.2f%s)"
            % (
                figures["browser in a thread"] * 1000,
                figures["browser in a thread"] / figures["browser"],
                "; ours/ddgs %.2f" % (figures["browser in a thread"] / figures["ddgs"]) if "ddgs" in figures else "",
            )
        )
        if "ddgs client" in figures:
            print(
                "   and ddgs's client, DDGS().text(backend='duckduckgo'), %.2f ms (ours/DDGS.text: browser %.2f, requests %.2f)"
                % (
                    figures["ddgs client"] * 1000,
                    figures["browser"] / figures["ddgs client"],
                    figures["requests"] / figures["ddgs client"],
                )
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
            "import websearch_sync as ws; client = ws.SearchClient('stub', settings=ws.Settings(impersonate='chrome'));"
            " client._transport.browser; client.close()",  # the wire is built at the first browser request
        ],
        runs,
    )
    print(
        "3. import (fresh interpreter, medians of %d, interpreter start %.0f ms subtracted): websearch_sync %.0f ms "
        "(curl_cffi not imported); with the first browser client %.0f ms (+%.0f ms for curl_cffi)"
        % (runs, bare * 1000, (package - bare) * 1000, (browser - bare) * 1000, (browser - package) * 1000)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--cpu-rounds", type=int, default=1000)
    parser.add_argument("--serve", choices=["plain", "tls"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    if not browser_available():
        sys.exit("needs the browser extra: pip install -e '.[browser]'")
    bench_warm(args.rounds)
    bench_cpu(args.cpu_rounds)
    bench_import(max(5, args.rounds // 8))


if __name__ == "__main__":
    main()
