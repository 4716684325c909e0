"""What each way in costs a fresh process: ``import websearch_sync``, ``websearch-sync --version``,
a stub search (text and ``--json``), a fetch of a loopback page (``--impersonate off``, and the
browser wire when the ``browser`` extra is installed) and the MCP server (``websearch-sync mcp``
given one ``initialize`` and the end of its input, with the ``mcp`` extra). Printed per path: the
modules loaded at its end, and the medians of ``--repeat`` runs of the process's CPU (user +
system, start-up included) and wall time; for the MCP server the wall time is from the spawn to
its answer to ``initialize`` (what a client waits for before its first call), the CPU the whole
process's.

    python bench/start_cost.py [--repeat 10] [--against /work/main]

``--against TREE`` runs every path with another checkout's package too (``PYTHONPATH``), the runs
of both interleaved so that load on a shared machine falls on both alike, and prints them side by
side: the figure to compare is CPU, wall only on an idle machine. Bytecode caches are written
and read (``PYTHONDONTWRITEBYTECODE`` is dropped for the children, after one untimed run each),
as in an installed package. ``python -c pass`` is the interpreter's own start.

Not a test: nothing is asserted (tests/unit/test_lazy_import.py checks which modules each path
leaves out).
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from loopback_fetch import serve

ROOT = Path(__file__).resolve().parent.parent
#: Runs the command line as the console script does, then writes how many modules were loaded.
CLI = (
    "import os, sys\n"
    "from websearch_sync.cli import console_main\n"
    "sys.argv[0] = 'websearch-sync'\n"
    "try:\n"
    "    status = console_main()\n"
    "finally:\n"
    "    if os.environ.get('START_COST_MODULES'):\n"
    "        open(os.environ['START_COST_MODULES'], 'w').write(str(len(sys.modules)))\n"
    "sys.exit(status)\n"
)
IMPORT = (
    "import os, sys\nimport websearch_sync\n"
    "if os.environ.get('START_COST_MODULES'):\n"
    "    open(os.environ['START_COST_MODULES'], 'w').write(str(len(sys.modules)))\n"
)
#: What an MCP client sends first; then stdin closes, and the server ends once it has answered.
INITIALIZE = (
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
    b'"capabilities":{},"clientInfo":{"name":"start_cost","version":"1"}}}\n'
)
MCP = "websearch-sync mcp (wall: to the initialize answer)"
PAGE = b"<html><head><title>A page</title></head><body><article><p>%s</p></article></body></html>" % (
    b"Words of a paragraph long enough to be read as the page's text. " * 20
)


def paths(url: str, browser: bool, mcp: bool) -> dict[str, list[str]]:
    """Each way in, as the arguments of a Python child."""
    cli = ["-c", CLI]
    found = {
        "python -c pass": ["-c", "pass"],
        "import websearch_sync": ["-c", IMPORT],
        "websearch-sync --version": cli + ["--version"],
        "websearch-sync search -b stub x": cli + ["search", "-b", "stub", "x"],
        "websearch-sync search -b stub --json x": cli + ["search", "-b", "stub", "--json", "x"],
        "websearch-sync fetch (impersonate off)": cli + ["fetch", "--allow-private", "--impersonate", "off", url],
    }
    if browser:
        found["websearch-sync fetch (browser wire)"] = cli + [
            "fetch",
            "--allow-private",
            "--impersonate",
            "chrome",
            url,
        ]
    if mcp:
        found[MCP] = cli + ["mcp"]
    return found


def run(tree: str, args: Sequence[str], count_to: str = "") -> tuple[float, float]:
    """CPU and wall seconds of one child running ``args`` with ``tree``'s package (for the MCP
    server: fed :data:`INITIALIZE`, wall seconds to its first line of output)."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=tree, START_COST_MODULES=count_to, WEB_SEARCH_BACKEND="")
    serves = args[-1] == "mcp"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = subprocess.Popen(  # cwd: not a checkout, whose package ``-c`` would import before PYTHONPATH's
        [sys.executable, *args],
        env=env,
        cwd=tempfile.gettempdir(),
        stdin=subprocess.PIPE if serves else None,
        stdout=subprocess.PIPE if serves else subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if serves:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(INITIALIZE)
        child.stdin.close()
        child.stdout.readline()
        wall = time.perf_counter() - started
        child.stdout.read()
    if child.wait() != 0:
        raise subprocess.CalledProcessError(child.returncode, args)
    if not serves:
        wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def modules(tree: str, args: Sequence[str]) -> int:
    """How many modules ``args`` leaves loaded (0 for ``pass``, which does not count them)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "count")
        run(tree, args, out)
        return int(Path(out).read_text()) if os.path.exists(out) else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="runs of each path (default 10)")
    parser.add_argument("--against", help="another checkout whose package runs beside this one's")
    options = parser.parse_args()
    trees = [str(ROOT)] + ([str(Path(options.against).resolve())] if options.against else [])
    server, process = serve({"/page": PAGE})  # in a child process: its work is not the bench's
    url = "http://127.0.0.1:%d/page" % server.server_address[1]
    browser = subprocess.run([sys.executable, "-c", "import curl_cffi"], capture_output=True).returncode == 0
    mcp = subprocess.run([sys.executable, "-c", "import mcp"], capture_output=True).returncode == 0
    todo = paths(url, browser, mcp)
    counts = {(tree, label): modules(tree, args) for tree in trees for label, args in todo.items()}  # caches written
    figures: dict[tuple[str, str], list[tuple[float, float]]] = {key: [] for key in counts}
    for _ in range(options.repeat):
        for label, args in todo.items():
            for tree in trees:
                figures[tree, label].append(run(tree, args))
    process.terminate()
    process.join()
    server.server_close()
    print("medians of %d runs; CPU = user + system of the whole process, start-up included" % options.repeat)
    print("%-52s %s" % ("path", "   ".join("%-30s" % tree for tree in trees)))
    print("%-52s %s" % ("", "   ".join("%-30s" % "modules   CPU ms   wall ms" for _ in trees)))
    for label in todo:
        cells = []
        for tree in trees:
            runs = figures[tree, label]
            cpu, wall = statistics.median(c for c, _ in runs), statistics.median(w for _, w in runs)
            cells.append("%7s %8.1f %9.1f      " % (counts[tree, label] or "-", cpu * 1000, wall * 1000))
        print("%-52s %s" % (label, "   ".join(cells)))


if __name__ == "__main__":
    main()
