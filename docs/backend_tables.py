"""Write docs/backends.md's table of backend options from the backends' declarations.

    python docs/backend_tables.py            # rewrite the table in docs/backends.md
    python docs/backend_tables.py --check    # exit status 1 when the table differs from the declarations

The rows are what ``websearch-sync backends --json`` lists as each backend's ``options``
(``Backend.options``, each distinct declaration once with its verticals), for the backends
this project ships; ``tests/unit/test_backend_tables.py`` runs the check, so the table cannot
drift from the code.
"""

import sys
from pathlib import Path
from typing import Any

PAGE = Path(__file__).resolve().parent / "backends.md"
START = "<!-- options-table-start -->"
END = "<!-- options-table-end -->"
HEADER = (
    "| backend | option | verticals | takes | default | what it does | a refused value |\n"
    "|---|---|---|---|---|---|---|\n"
)


def _default(value: Any) -> str:
    return "-" if value is None else "`%r`" % (value,)


def table() -> str:
    """The table, one row per backend and option declaration."""
    from websearch_sync.cli.backends_cmd import option_rows
    from websearch_sync.engine import registry

    rows = []
    for name in registry.backend_names():
        if not registry.primary_class(name).__module__.startswith("websearch_sync."):
            continue  # an installed plugin documents its own options
        for option in option_rows(name):
            rows.append(
                "| `%s` | `%s` | %s | %s | %s | %s | `%s` |\n"
                % (
                    name,
                    option["name"],
                    ", ".join(option["verticals"]),
                    option["allowed"],
                    _default(option["default"]),
                    option["doc"],
                    option["detail_code"],
                )
            )
    return HEADER + "".join(rows)


def written(page: str) -> str:
    """``page`` with the text between the table's markers replaced by :func:`table`."""
    before, rest = page.split(START, 1)
    _, after = rest.split(END, 1)
    return before + START + "\n" + table() + END + after


def main(argv: list[str]) -> int:
    """Rewrite the table, or with ``--check`` say whether it is current (exit status 0) or not (1)."""
    page = PAGE.read_text(encoding="utf-8")
    expected = written(page)
    if "--check" in argv:
        if expected != page:
            sys.stderr.write("docs/backends.md's option table is out of date: run python docs/backend_tables.py\n")
            return 1
        return 0
    PAGE.write_text(expected, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
