"""``websearch-sync record``, ``verify`` and ``check-live``: keeping parsers honest.

- ``record BACKEND QUERY``: one live search, written as a fixture case (body,
  ``.meta.json`` with secrets redacted, golden from replaying it offline).
- ``verify``: replay every case offline, compare with its golden, print a
  PASS/DRIFT/ERROR/NEW table and the diffs; ``--update`` re-pins the goldens.
- ``check-live BACKEND [QUERY...]``: live queries, reporting success / blocked /
  parse error / timeout, item counts and whether the page structure still matches.

Exit statuses besides the usual ones (see ``websearch_sync.cli``): 1 when
``verify`` found a case that is not PASS, when ``check-live`` found a query that
did not succeed, or when a recorded case does not replay.
"""

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional, TextIO

from ..config import Settings, check_one_backend
from ..engine.stdout_claim import owner_stdout
from ..errors import DNS_ERROR, WebSearchError, one_line
from ..models import VERTICALS
from ..shellwords import shell_quote
from .output import EXIT_OK, UNRESOLVED, choice_flag, error_line, exit_status, int_arg, json_text

if TYPE_CHECKING:
    from ..contract.livecheck import LiveCheck

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: verify found drift/errors/new cases, check-live found a failing query, a recording does not replay.
EXIT_CHECK_FAILED = 1
DEFAULT_FIXTURES = "fixtures"


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``record``, ``verify`` and ``check-live`` sub-commands."""
    record = commands.add_parser(
        "record",
        help="search once live and write the answer as a fixture case (secrets redacted) with its golden",
        description="One live request through the normal path (WEB_SEARCH_* settings, endpoints and keys apply), "
        "written as fixtures/<backend>/<case>.{html,json}, <case>.meta.json and <case>.expected.json.",
    )
    record.add_argument("backend", metavar="BACKEND", help="backend name (see `websearch-sync backends`)")
    record.add_argument("query", metavar="QUERY", help="the search terms")
    record.add_argument("--name", help="case name (default: derived from the query)")
    record.add_argument("--fixtures", default=DEFAULT_FIXTURES, help="fixture folder (default: ./fixtures)")
    record.add_argument(
        "-n", "--max-results", type=int_arg, help="number of results, 1..50, images 1..100, videos 1..60 (default 5)"
    )
    record.add_argument(
        "--vertical",
        **choice_flag("vertical", VERTICALS),
        default="web",
        help="web (default), news, images or videos",
    )
    record.add_argument("--timeout-ms", type=int_arg, help="deadline of the live request in milliseconds")
    record.add_argument("--force", action="store_true", help="overwrite an existing case of that name")
    record.add_argument(
        "--allow-error",
        action="store_true",
        help="also record an answer that is an error (bot wall, HTTP 5xx, unparsable page)",
    )
    record.set_defaults(run=run_record)

    verify = commands.add_parser(
        "verify",
        help="replay every fixture case offline and compare with its golden (PASS/DRIFT/ERROR/NEW)",
        description="Replays each case through the real request path with HTTP answered from the recording, "
        "on both wire kinds: the requests wire and the browser wire's request building (no test extra "
        "needed). Exit status 1 unless every case passes.",
    )
    verify.add_argument("--fixtures", default=DEFAULT_FIXTURES, help="fixture folder (default: ./fixtures)")
    verify.add_argument("--backend", help="only this backend's cases")
    verify.add_argument(
        "--update", action="store_true", help="rewrite the goldens of DRIFT and NEW cases after showing the diff"
    )
    verify.add_argument(
        "--json", action="store_true", help="print the report as one JSON object (cases, counts, notes)"
    )
    verify.set_defaults(run=run_verify)

    live = commands.add_parser(
        "check-live",
        help="run live queries and report success/blocked/parse error/timeout and page-structure drift",
        description="For scheduled jobs with network, never for CI. Exit status 1 unless every query succeeds "
        "with its page structure intact.",
    )
    live.add_argument("backend", metavar="BACKEND", help="backend name (see `websearch-sync backends`)")
    live.add_argument(
        "queries", nargs="*", default=[], metavar="QUERY", help="queries to run (default: two common ones)"
    )
    live.add_argument(
        "-n", "--max-results", type=int_arg, help="number of results, 1..50, images 1..100, videos 1..60 (default 5)"
    )
    live.add_argument(
        "--vertical",
        **choice_flag("vertical", VERTICALS),
        default="web",
        help="web (default), news, images or videos",
    )
    live.add_argument("--timeout-ms", type=int_arg, help="deadline of each query in milliseconds")
    live.add_argument("--json", action="store_true", help="print the report as JSON")
    live.set_defaults(run=run_check_live)


# -- record ----------------------------------------------------------------------------------------


def run_record(args: argparse.Namespace) -> int:
    """Record one live search as a fixture case."""
    from ..contract.cases import describe
    from ..contract.recording import record_case, stand_in_host

    check_one_backend(args.backend, "BACKEND")
    try:
        result = record_case(
            args.backend,
            args.query,
            fixtures_dir=args.fixtures,
            name=args.name,
            max_results=args.max_results,
            timeout_ms=args.timeout_ms,
            settings=Settings.from_env(backend=args.backend),
            overwrite=args.force,
            allow_error=args.allow_error,
            vertical=args.vertical,
        )
    except WebSearchError as error:
        if error.status is not None and not args.allow_error and error.code != "InvalidInput":
            sys.stderr.write(error_line(error) + "\n")
            sys.stderr.write(
                "hint: the service answered (HTTP %s); use --allow-error to record this answer as a case\n"
                % error.status
            )
            return exit_status(error)
        raise
    case = result.verdict.case
    out = owner_stdout()
    out.write("recorded %s: live answer %s\n" % (case.case_id, describe(result.live_outcome)))
    for path in result.files:
        out.write("  wrote %s\n" % path)
    if result.redacted:
        out.write("  redacted: %s\n" % ", ".join(result.redacted))
    if not result.ok:
        after_report(out, "error: the recorded case does not replay (%s); no golden written" % result.verdict.status)
        for line in result.verdict.diff:
            sys.stderr.write("  %s\n" % line)
        return EXIT_CHECK_FAILED
    if result.live_diff:
        after_report(
            out,
            "warning: replaying the case gives another answer than the live search (is the request non-deterministic?)",
        )
        for line in result.live_diff:
            sys.stderr.write("  %s\n" % line)
        return EXIT_CHECK_FAILED
    out.write(
        'review the golden against the page, then say what you compared in %s: "checked": "..."\n' % case.meta_path
    )
    local = stand_in_host(case)
    if local is not None:
        after_report(
            out,
            'note: the answer came from %s, this machine; if it is a stand-in you wrote, the case is not "recorded":'
            ' write "provenance": {"status": "synthetic", "why": "..."} in %s' % (local, case.meta_path),
        )
    return EXIT_OK


# -- verify ----------------------------------------------------------------------------------------


def _indent(lines: Sequence[str]) -> list[str]:
    return ["        " + line for line in lines]


def _summary(result: Any) -> str:
    """What a case's verdict line says after its id: the outcome (beside the golden's, for DRIFT), or the
    first line of why it cannot be replayed."""
    from ..contract.cases import describe

    summary = describe(result.outcome) if result.outcome is not None else (result.diff[0] if result.diff else "")
    if result.status == "DRIFT" and result.golden is not None:
        summary = "%s (golden: %s)" % (summary, describe(result.golden))
    return summary


def _details(result: Any) -> list[str]:
    """The lines under a DRIFT or ERROR verdict: what changed, or the rest of why."""
    if result.status == "ERROR" and result.outcome is None:
        return list(result.diff[1:])
    return list(result.diff) if result.status in ("DRIFT", "ERROR") else []


def _verdict_lines(result: Any, width: int) -> list[str]:
    """The verdict line of one replayed case, then its diff (for DRIFT and ERROR)."""
    lines = ["%-6s %-*s  %s" % (result.status, width, result.case.case_id, _summary(result))] + _indent(
        _details(result)
    )
    return [one_line(line) for line in lines]  # a file name's line break would forge a verdict line


def _orphan_notes(fixtures: str, backend: Any, results: Sequence[Any]) -> list[str]:
    """A note for each fixture file that belongs to no case; with ``backend``, of the folders its cases
    are in (``results``: chosen by the backend their meta files name, as ``verify --backend`` chose
    them, whatever the folder's name) and of the folder named after it."""
    from ..contract.cases import orphan_files

    folders = {result.case.meta_path.parent for result in results}
    return [
        "%s belongs to no case" % path
        for path in orphan_files(fixtures)
        if backend is None or path.parent in folders or path.parent.name == backend
    ]


def _provenance_notes(results: Sequence[Any]) -> list[str]:
    """A note for each thing a case's provenance lacks (docs/contract.md: what each status must name),
    which only this project's contract suite checked: a plugin's ``synthetic`` case without its ``why``,
    a status of another word, passed in silence. A note, not a verdict: the replay is what ``verify`` judges."""
    from ..contract.cases import provenance_problems

    return [
        "%s: %s" % (result.case.case_id, problem)
        for result in results
        if result.case.problem is None
        for problem in provenance_problems(result.case)
    ]


def _name_notes(results: Sequence[Any]) -> list[str]:
    """A note for each case a checkout on Windows or macOS cannot hold: a name Windows keeps for a
    device (``con``), two names differing only in letter case. A note, not a verdict: the case replays here."""
    from ..contract.cases import name_clashes, unportable_name

    notes = []
    for result in results:
        unportable = unportable_name(result.case.name)
        if unportable:
            notes.append("%s: %s" % (result.case.case_id, unportable))
    for first, second in name_clashes([result.case for result in results]):
        notes.append(
            "%s and %s differ only in letter case: one file on Windows and macOS" % (first.case_id, second.case_id)
        )
    return notes


def _replay_all(results: Sequence[Any], args: argparse.Namespace, out: Any) -> list[Any]:
    """Print each case's verdict (not with ``--json``) and, with ``--update``, rewrite the goldens of
    DRIFT and NEW cases after their diffs; the results whose golden was rewritten."""
    from ..contract.cases import write_golden

    width = max(len(one_line(r.case.case_id)) for r in results)
    updated: list[Any] = []
    for result in results:
        if not args.json:
            for line in _verdict_lines(result, width):
                out.write(line + "\n")
        if args.update and result.status in ("DRIFT", "NEW") and result.outcome is not None:
            write_golden(result.case, result.outcome)
            updated.append(result)
            if not args.json:
                out.write(one_line("        updated golden %s" % result.case.expected_path) + "\n")
    return updated


def _json_report(results: Sequence[Any], updated: Sequence[Any], report: dict[str, Any]) -> dict[str, Any]:
    """``verify --json``'s object: ``report`` (ok, counts, provenance) with each case and the notes."""
    cases = [
        {
            "case": result.case.case_id,
            "status": result.status,
            "summary": _summary(result),
            "diff": _details(result),
            "golden_updated": result in updated,
        }
        for result in results
    ]
    return dict(report, cases=cases)


def run_verify(args: argparse.Namespace) -> int:
    """Replay every case and print the verdicts (with ``--json``, one JSON object)."""
    from ..contract.cases import count_provenances, count_statuses, run_cases

    check_one_backend(args.backend, "--backend")  # a misspelt name says so, not "no cases under fixtures/ddg"
    results = run_cases(args.fixtures, args.backend)
    out = owner_stdout()
    updated = _replay_all(results, args, out)
    notes = _orphan_notes(args.fixtures, args.backend, results) + _provenance_notes(results) + _name_notes(results)
    counts = count_statuses(results)
    kinds = count_provenances([result.case for result in results])
    passed = counts["ERROR"] == 0 if args.update else counts["PASS"] == len(results)
    status = EXIT_OK if passed else EXIT_CHECK_FAILED
    if args.json:
        report = {"ok": passed, "counts": counts, "provenance": kinds, "notes": notes}
        out.write(json_text(_json_report(results, updated, report), out, indent=2) + "\n")
        return status
    for note in notes:
        out.write(one_line("note: " + note) + "\n")
    total = len(results)
    out.write(
        "%d case%s: %s\n" % (total, "" if total == 1 else "s", ", ".join("%d %s" % (counts[s], s) for s in counts))
    )
    out.write("by provenance: %s\n" % ", ".join("%d %s" % (n, kind) for kind, n in kinds.items()))
    if args.update:
        plural = "" if len(updated) == 1 else "s"
        out.write("%d golden%s updated; review them with your VCS diff\n" % (len(updated), plural))
    elif counts["NEW"] or counts["DRIFT"]:
        after_report(out, "hint: %s" % _update_hint(args, counts))
    return status


def after_report(out: Optional[TextIO], line: str) -> None:
    """``line`` on stderr after what was written to ``out`` (stdout): flushed first, so that in a log
    (stdout piped, so buffered, beside stderr: ``verify ... 2>&1 | tee log``) the hint that speaks of the
    "diff above" does not come before the report, as it did."""
    if out is not None:
        out.flush()
    sys.stderr.write(line + "\n")


def _update_hint(args: argparse.Namespace, counts: dict[str, int]) -> str:
    """What to run after ``verify`` found cases without a golden or differing from it: the exit status
    (1) alone left a first case's NEW without a next step."""
    backend = " --backend %s" % shell_quote(args.backend) if args.backend else ""
    command = "websearch-sync verify --fixtures %s%s --update" % (shell_quote(str(args.fixtures)), backend)
    new, drift = counts["NEW"], counts["DRIFT"]
    done = " and ".join(
        ["writes the goldens of the NEW cases from their replay"] * bool(new)
        + ["rewrites %s of the DRIFT cases" % ("those" if new else "the goldens")] * bool(drift)
    )
    meant = " once each diff above is a change you meant" if drift else ""
    return "`%s` %s%s; review the goldens with your VCS diff" % (command, done, meant)


# -- check-live ------------------------------------------------------------------------------------


def _structure_text(check: Any) -> str:
    if check.structure is None:
        return "structure not checked"
    missing = [name for name, found in check.structure.items() if not found]
    if missing:
        return "structure CHANGED (missing: %s)" % ", ".join(missing)
    return "structure ok"


def run_check_live(args: argparse.Namespace) -> int:
    """Run live queries and report how each went."""
    from ..contract.livecheck import check_live

    check_one_backend(args.backend, "BACKEND")
    checks = check_live(
        args.backend,
        args.queries,
        settings=Settings.from_env(backend=args.backend),
        max_results=args.max_results,
        timeout_ms=args.timeout_ms,
        vertical=args.vertical,
    )
    ok = all(check.ok for check in checks)
    out = owner_stdout()
    if args.json:
        out.write(
            json_text({"backend": args.backend, "ok": ok, "checks": [c.to_dict() for c in checks]}, out, indent=2)
            + "\n"
        )
    else:
        _write_checks(out, checks)
    if checks and all(c.error and c.error.get("detail_code") == DNS_ERROR for c in checks):
        after_report(out, "hint: %s" % UNRESOLVED)  # offline, most often: as a search says it
    return EXIT_OK if ok else EXIT_CHECK_FAILED


def _write_checks(out: TextIO, checks: "list[LiveCheck]") -> None:
    """The checks as the table a person reads: one line each, the error under a failed one, a total."""
    for check in checks:
        out.write(
            "%-4s %s  %-13s %2d %-5s  %-28s %6d ms  %s\n"
            % (
                "ok" if check.ok else "FAIL",
                check.backend,
                check.status,
                check.items,
                "item" if check.items == 1 else "items",
                _structure_text(check),
                check.latency_ms,
                check.query,
            )
        )
        if check.error:
            code = check.error["type"] + ("/" + check.error["detail_code"] if check.error.get("detail_code") else "")
            out.write("     %s: %s\n" % (code, check.error["message"]))
    failed = sum(1 for c in checks if not c.ok)
    out.write("%d quer%s, %d failed\n" % (len(checks), "y" if len(checks) == 1 else "ies", failed))
