"""What collecting the test suite costs one pytest process, and which heavy packages it imports.

    python bench/collection.py [--runs N]

Every xdist worker collects the whole suite before it runs a test, so this CPU is paid once per
worker (``-n 2``: twice). Runs ``pytest --collect-only -q -n 0 -p no:cacheprovider`` N times (default
3) in a child process and prints, per run, CPU (user+sys) and wall time, then the agent frameworks
and SDKs the collection imported (none expected: the tests import them when they run), and the
load average, since CPU seconds on a shared machine are the stable figure.
"""

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Packages that cost seconds to import and that only some tests need.
HEAVY = (
    "agents anthropic anyio fastmcp httpx langchain_core langgraph llama_index mcp openai pydantic pydantic_ai"
    " smolagents"
).split()
COLLECT = (
    "import sys, pytest\n"
    "code = pytest.main(['--collect-only', '-q', '-n', '0', '-p', 'no:cacheprovider'])\n"
    "print('IMPORTED', *sorted({name.split('.')[0] for name in sys.modules} & set(sys.argv[1:])))\n"
    "sys.exit(code)\n"
)


def collect_once() -> tuple[float, float, str]:
    """CPU seconds, wall seconds and the heavy packages imported, for one collection."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run(
        [sys.executable, "-c", COLLECT, *HEAVY], cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=600
    )
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit("collection failed:\n" + done.stdout[-2000:] + done.stderr[-2000:])
    imported = done.stdout.rstrip().splitlines()[-1].split()[1:]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, " ".join(imported) or "none"


def main() -> None:
    """Print the cost of each collection run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="collections to time")
    args = parser.parse_args()
    print("load average %s" % " ".join("%.2f" % load for load in os.getloadavg()))
    for run in range(1, args.runs + 1):
        cpu, wall, imported = collect_once()
        print("run %d: cpu %.2f s  wall %.2f s  heavy packages imported: %s" % (run, cpu, wall, imported))
    print("load average %s" % " ".join("%.2f" % load for load in os.getloadavg()))


if __name__ == "__main__":
    main()
