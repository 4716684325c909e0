"""``websearch-sync mcp``'s flags read what their help says they take."""

import json
import re
from configparser import ConfigParser
from pathlib import Path

import pytest

from websearch_sync import tool
from websearch_sync.cli import build_parser
from websearch_sync.config import Settings


def test_the_repeat_window_takes_seconds_as_a_number():
    """``--repeat-window SECONDS`` refused ``1.5`` ("expected an integer"), where the library's
    ``repeat_window_s`` and the other seconds of the command line (``--cache-ttl``) take it."""
    assert build_parser().parse_args(["mcp", "--repeat-window", "1.5"]).repeat_window == 1.5


def test_the_client_configuration_in_the_docs_configures_both_tools():
    """docs/mcp.md's client entry (Claude Desktop's keys) as a client reads it: JSON whose command is
    the console script, whose args the command takes, and whose env alone configures the backends
    it names (each one alone, so that a misspelt key is seen: a chain is offered if any one of its
    backends is configured), so that the server offers the search tool as well as the fetch tool."""
    root = Path(__file__).resolve().parents[2]
    [block] = re.findall(
        r"^```json\n(\{\n  \"mcpServers\".*?)^```", (root / "docs" / "mcp.md").read_text(), re.S | re.M
    )
    [entry] = json.loads(block)["mcpServers"].values()
    setup = ConfigParser()
    setup.read(root / "setup.cfg", encoding="utf-8")
    scripts = setup["options.entry_points"]["console_scripts"].split("\n")
    assert entry["command"] in [line.split("=")[0].strip() for line in scripts if line.strip()]
    args = build_parser().parse_args(entry["args"])
    assert (args.command, args.cache_path) == ("mcp", entry["args"][-1])
    backends = entry["env"]["WEB_SEARCH_BACKEND"].split(",")
    assert Settings.from_env(entry["env"]).backend == tuple(backends)
    for backend in backends:  # each is configured by the entry's env alone: a chain offers search if one is
        alone = Settings.from_env(dict(entry["env"], WEB_SEARCH_BACKEND=backend))
        assert [d["name"] for d in tool.tool_definitions("json_schema", settings=alone)] == ["web.search", "web.fetch"]


def test_a_bad_max_concurrent_is_refused_under_its_flag(capsys):
    """``mcp --max-concurrent 0`` said ``max_concurrent must be a positive integer``, the Python name,
    where the other commands' numbers are refused under their flags (``-n must be in 1..50``)."""
    from websearch_sync.cli import main

    assert main(["mcp", "--max-concurrent", "0"]) == 2
    err = capsys.readouterr().err
    assert "error: InvalidInput/bad_max_concurrent: --max-concurrent must be a positive integer, got 0" in err, err


@pytest.mark.parametrize(
    "flags, said",
    [
        (["--repeat-window", "-1"], "bad_repeat_window: --repeat-window must be a number >= 0, got -1.0"),
        (["--repeat-window", "inf"], "bad_repeat_window: --repeat-window must be a finite number >= 0, got inf"),
        (
            ["--max-repeats", "0"],
            "bad_max_repeats: --max-repeats must be a positive integer (no guard: --repeat-window 0), got 0",
        ),
    ],
)
def test_the_repeat_guards_flags_are_refused_under_their_names(capsys, flags, said):
    """Before: ``mcp --repeat-window -1`` said ``repeat_window_s must be a number >= 0``, ``--repeat-window inf``
    added ``(None: the tools' whole life)`` (no flag value is None) and ``--max-repeats 0`` told to set
    ``repeat_window_s=0``: the Python names, where ``--max-concurrent 0`` names its flag."""
    from websearch_sync.cli import main

    assert main(["mcp", *flags]) == 2
    err = capsys.readouterr().err
    assert "error: InvalidInput/" + said in err, err
    message = err.split(": ", 2)[2]  # after the error's code, which names max_repeats itself
    assert "repeat_window_s" not in message and "max_repeats" not in message and "None" not in message, err
