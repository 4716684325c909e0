"""What ``import websearch_sync`` and the CLI's ``--version``/``--help`` cost against
``import requests``, side by side in one run (issue 34.6: at most half), and the import of the
pytest plugin (``websearch_sync.testing``), which pytest loads in every session of the environment.

    python bench/import_cost.py [--repeat 9]

Each figure is a fresh interpreter, the measurements interleaved so that load on the
machine falls on both sides alike; printed are the medians of ``--repeat`` runs, after one
untimed run of each that writes the bytecode caches (``PYTHONDONTWRITEBYTECODE`` is dropped
for the children: an installed package has its ``.pyc`` files, a changed source would
otherwise be compiled again in every run):

1. import CPU: ``time.process_time()`` around the import statement, inside the child
   (the interpreter's own start-up is not counted), and the modules it leaves loaded;
2. command CPU: the whole child process's CPU (user + system, from ``getrusage`` of the
   children), start-up included: ``websearch-sync --version`` and ``--help`` (the console
   script beside this Python, else ``python -m websearch_sync``) against
   ``python -c 'import requests'``, and ``python -c pass`` for the start-up alone.

Not a test: nothing is asserted.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

IMPORT = "import sys, time\n{before}t = time.process_time()\nimport {module}\nprint(time.process_time() - t, len(sys.modules))"
#: What is loaded before a module is timed: the plugin's import is what pytest, already loaded, adds.
BEFORE = {"websearch_sync.testing": "import pytest\n"}


#: The children's environment: bytecode caches written and read, as in an installed package.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def import_cost(module: str) -> tuple[float, int]:
    """Seconds of CPU ``import module`` takes in a fresh interpreter, and the modules then loaded."""
    out = subprocess.run(
        [sys.executable, "-c", IMPORT.format(module=module, before=BEFORE.get(module, ""))],
        capture_output=True,
        text=True,
        check=True,
        env=ENV,
    )
    seconds, modules = out.stdout.split()
    return float(seconds), int(modules)


def command_cpu(argv: list[str]) -> float:
    """Seconds of CPU (user + system) the process running ``argv`` takes, start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cli() -> list[str]:
    """The ``websearch-sync`` command of this environment."""
    script = Path(sys.executable).parent / "websearch-sync"
    return (
        [str(script)] if script.is_file() and os.access(script, os.X_OK) else [sys.executable, "-m", "websearch_sync"]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=9, help="runs of each measurement (default 9)")
    repeat = parser.parse_args().repeat

    # websearch_sync.testing: the pytest plugin, which pytest imports in every session of the environment
    imports: dict[str, list[tuple[float, int]]] = {"websearch_sync": [], "requests": [], "websearch_sync.testing": []}
    for module in imports:
        import_cost(module)  # untimed: writes the bytecode caches
    for _ in range(repeat):
        for module, runs in imports.items():
            runs.append(import_cost(module))
    cpu = {module: statistics.median(s for s, _ in runs) for module, runs in imports.items()}
    loaded = {module: runs[0][1] for module, runs in imports.items()}
    print(
        "1. import CPU (medians of %d fresh interpreters): websearch_sync %.1f ms (%d modules loaded), "
        "requests %.1f ms (%d modules); websearch_sync/requests %.2f (target <= 0.5)"
        % (
            repeat,
            cpu["websearch_sync"] * 1000,
            loaded["websearch_sync"],
            cpu["requests"] * 1000,
            loaded["requests"],
            cpu["websearch_sync"] / cpu["requests"],
        )
    )

    print(
        "   websearch_sync.testing (the pytest plugin every session of the environment loads), pytest loaded "
        "before: %.1f ms (%d modules in all)" % (cpu["websearch_sync.testing"] * 1000, loaded["websearch_sync.testing"])
    )

    commands = {
        "websearch-sync --version": cli() + ["--version"],
        "websearch-sync --help": cli() + ["--help"],
        # the first command a newcomer runs: the offline stub, no request (its imports are the client's)
        "websearch-sync search q -b stub": cli() + ["search", "q", "-b", "stub"],
        "python -c 'import requests'": [sys.executable, "-c", "import requests"],
        "python -c pass": [sys.executable, "-c", "pass"],
    }
    runs: dict[str, list[float]] = {label: [] for label in commands}
    for argv in commands.values():
        command_cpu(argv)  # untimed: writes the bytecode caches
    for _ in range(repeat):
        for label, argv in commands.items():
            runs[label].append(command_cpu(argv))
    median = {label: statistics.median(times) for label, times in runs.items()}
    requests_cpu = median["python -c 'import requests'"]
    startup = median["python -c pass"]
    print("2. command CPU, start-up included (medians of %d; command: %s):" % (repeat, " ".join(cli())))
    for label in commands:
        print(
            "   %-32s %6.1f ms  (÷ import requests: %.2f; above start-up: %5.1f ms)"
            % (label, median[label] * 1000, median[label] / requests_cpu, (median[label] - startup) * 1000)
        )
    for label in ("websearch-sync --version", "websearch-sync --help"):
        print(
            "   %s beyond start-up ÷ import requests beyond start-up: %.2f (target <= 0.5)"
            % (label, (median[label] - startup) / (requests_cpu - startup))
        )


if __name__ == "__main__":
    main()
