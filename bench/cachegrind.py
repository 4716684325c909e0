"""Instructions a Python process runs, counted by valgrind's cachegrind: one count the machine's load
does not move (unlike CPU time), for the benchmarks that compare code by it
(``extraction_instructions.py``, ``search_instructions.py``)."""

import os
import re
import subprocess
import sys
import tempfile
from typing import Optional

#: How valgrind names the first process it runs (the one counted; others it starts are its children).
_CLIENT = re.compile(r"==(\d+)== Cachegrind")


def instructions(arguments: list, environment: Optional[dict] = None) -> int:
    """The instructions of ``python ARGUMENTS...`` (this interpreter), from its cachegrind summary."""
    with tempfile.TemporaryDirectory() as out:
        command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=%s/cg.%%p" % out]
        command += [sys.executable, *arguments]
        process = subprocess.run(command, capture_output=True, text=True, check=True, env=environment)
        client = _CLIENT.search(process.stderr)
        if client is None:
            raise RuntimeError("valgrind did not name the process it ran: %s" % process.stderr[-500:])
        with open(os.path.join(out, "cg.%s" % client.group(1)), encoding="utf-8") as handle:
            summary = next(line for line in handle if line.startswith("summary:"))
    return int(summary.split()[1])
