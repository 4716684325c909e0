"""``websearch-sync backends``: what exists, what is configured, what it reads."""

import argparse
import sys
from typing import Any, Dict, List

from ..backends import registry
from ..config import Settings
from .output import EXIT_OK, json_text

__all__ = ["add_parser", "run", "backend_rows"]


def add_parser(commands: "argparse._SubParsersAction") -> None:
    """Add the ``backends`` sub-command."""
    parser = commands.add_parser("backends", help="list the backends, whether each is configured, and what it reads")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(run=run)


def backend_rows(settings: Settings) -> List[Dict[str, Any]]:
    """One row per registered backend (environment variable names only, never values)."""
    rows = []
    for name in registry.backend_names():
        cls = registry.backend_class(name)
        backend = cls(settings)
        variables = list(cls.env_vars.values())
        if cls.kind != "offline":
            variables.append("WEB_SEARCH_ENDPOINT_" + name.upper())
        rows.append({
            "name": name,
            "kind": cls.kind,
            "configured": backend.is_configured(),
            "missing": [cls.env_vars.get(key, key) for key in backend.missing_settings()],
            "env": variables,
            "min_interval_s": cls.min_interval_s,
            "summary": cls.summary,
        })
    return rows


def _settings() -> Settings:
    """The environment's settings; a bad ``WEB_SEARCH_BACKEND`` is reported but does not hide the table."""
    settings = Settings.from_env()
    if settings.env_backend_problem:
        sys.stderr.write("warning: %s\n" % settings.env_backend_problem)
    return settings


def run(args: argparse.Namespace) -> int:
    """Print the backend table."""
    rows = backend_rows(_settings())
    if args.json:
        sys.stdout.write(json_text(rows, sys.stdout, indent=2) + "\n")
        return EXIT_OK
    header = ("BACKEND", "KIND", "CONFIGURED", "RATE LIMIT", "ENVIRONMENT")
    table = [header] + [
        (
            r["name"],
            r["kind"],
            "yes" if r["configured"] else "no (set %s)" % ", ".join(r["missing"]),
            "%.1f s" % r["min_interval_s"] if r["min_interval_s"] else "-",
            ", ".join(r["env"]) or "-",
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
    for row in table:
        sys.stdout.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1] + "\n")
    return EXIT_OK
