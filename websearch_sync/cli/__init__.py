"""The ``websearch-sync`` command line (``python -m websearch_sync`` is the same).

Exit statuses: 0 success, 2 invalid input (also bad command-line usage),
3 blocked or refused credentials (WebBlocked, AuthError), 4 timeout or network
failure (Timeout, NetworkError), 5 any other failure (BadGateway, WebParseError,
WebProviderError, ToolNotFound), 130 interrupted (Ctrl-C), 141 stdout closed by its reader,
143 terminated (SIGTERM to the installed command).

Each sub-command lives in its own module with ``add_parser(subparsers)``; the
parser it adds carries the function to run (``set_defaults(run=...)``). Building the
parser imports nothing heavy (``--help`` and ``--version`` answer without requests,
lxml or an engine): what a command runs with is imported by the function
that runs it.
"""

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import Callable, NoReturn, Optional

from ..config import VERSION as __version__
from ..config import command_line_terms
from ..engine.stdout_claim import claim_stdout, drop_output, owner_stdout
from ..errors import BAD_ARGUMENTS, InvalidInput, WebSearchError
from ..secrets import is_secret_name, userinfo_hidden
from ..shellwords import shell_quote
from . import backends_cmd, contract_cmd, fetch_cmd, mcp_cmd, search_cmd, state_cmd
from .flag_hints import (
    command_hint,
    command_names,
    command_parsers,
    flag_hint,
    joined_argument_flag_hint,
    misplaced_flag_hint,
    missing_action_hint,
    value_hint,
)
from .output import (
    EXIT_BROKEN_PIPE,
    EXIT_OTHER,
    OutputFailed,
    cli_hint,
    error_form,
    error_lines,
    exit_status,
    interruption,
    json_text,
    terminal_stream,
    terminate_as_interrupt,
    wants_json,
)

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

COMMANDS = (search_cmd, fetch_cmd, backends_cmd, contract_cmd, mcp_cmd, state_cmd)

EPILOG = """examples:
  websearch-sync search "python requests timeout" -n 3
  WEB_SEARCH_BACKEND=ddg_html websearch-sync search "rust async" --json
  websearch-sync search --queries-file queries.txt -b brave,ddg_html > results.jsonl
  websearch-sync fetch https://example.com/article --mode text
  websearch-sync backends

exit statuses: 0 ok, 1 verify/check-live/record found a problem, 2 invalid input,
3 blocked/auth, 4 timeout/network, 5 other failure, 130 interrupted, 141 output pipe closed,
143 terminated"""


#: Where pip installs the documentation pages (setup.cfg's data_files), under the environment's prefix.
INSTALLED_DOCS = ("share", "doc", "websearch-sync")


def docs_location() -> str:
    """Where this installation's documentation is: the folder holding README.md and its ``docs/``
    pages, as pip installed them beside the package (``<prefix>/share/doc/websearch-sync``, laid out as
    the checkout, so that the README's ``docs/...`` links resolve there too), else a checkout's root."""
    checkout = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    for folder in (os.path.join(sys.prefix, *INSTALLED_DOCS), checkout):
        if os.path.isfile(os.path.join(folder, "docs", "cli.md")):  # os.path, not pathlib: --help stays cheap
            return folder
    return "the source repository (README.md, docs/)"


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage error also keeps its message (:attr:`usage_error`), so
    that a command asked for JSON can give it as the JSON error form too (docs/cli.md)."""

    usage_error: Optional[str] = None

    def error(self, message: str) -> "NoReturn":
        """Keep ``message`` on the class (sub-command parsers are other instances), then as argparse."""
        _Parser.usage_error = message
        super().error(message)


class _SilentParser(argparse.ArgumentParser):
    """A parser that reads a few flags again and says nothing of what it cannot read: the
    command's own parser has said it (a second usage and error line, of a parser named after
    ``sys.argv[0]``, ``__main__.py``, followed the real ones)."""

    def error(self, message: str) -> "NoReturn":
        """Give up on ``argv`` without a word."""
        raise SystemExit(2)


def _json_indent(argv: Optional[Sequence[str]]) -> Optional[int]:
    """The JSON indent the command line asked for (``--json``, ``--format json``/``jsonl``, a
    batch), read from ``argv`` alone: after a usage error there is no parsed namespace."""
    flags = _SilentParser(add_help=False, allow_abbrev=False)
    flags.add_argument("--json", action="store_true")
    # a value may be missing (the usage error being reported): --json still asks for JSON
    flags.add_argument("--format", nargs="?")
    flags.add_argument("--queries-file", nargs="?")
    try:
        known, _ = flags.parse_known_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit:  # e.g. --json=x: no JSON was asked for clearly
        return None
    return wants_json(known)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``websearch-sync``."""
    parser = _Parser(
        prog="websearch-sync",
        description="Search the web and read pages from the command line, with one result shape and clear errors.",
        epilog=EPILOG
        + "\n\ndocumentation: %s (README.md: start here; docs/cli.md: the commands; docs/errors.md: every error)"
        % docs_location(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version="websearch-sync " + __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for command in COMMANDS:
        command.add_parser(commands)
    for command_parser in command_parsers(parser):  # whose usage an unknown argument shows (state show's too)
        command_parser.set_defaults(command_parser=command_parser)
    return parser


def unrecognized(
    parser: argparse.ArgumentParser, unknown: Sequence[str], args: argparse.Namespace, top: argparse.ArgumentParser
) -> str:
    """argparse's ``unrecognized arguments: ...``, each mistyped flag followed by the flag meant
    (``--jsn (did you mean --json?)``, :func:`~.flag_hints.flag_hint`; ``top``'s other commands
    are searched for another command's flag): argparse names the typo and no flag to use.
    Words alone after a query are the rest of a query left unquoted (``search python requests``):
    the line shows it quoted for the shell (:func:`~websearch_sync.shellwords.shell_quote`: ``"python requests"``,
    ``say "hi"`` as ``'say "hi"'``), unless the queries come
    from ``--queries-file``; after a URL, words that look like URLs (``://`` or a dot): ``fetch``
    reads one."""
    query, url = getattr(args, "query", None), getattr(args, "url", None)
    said = _arguments_said(unknown, parser, top, url)
    words_alone = not any(argument.startswith("-") for argument in unknown)
    if isinstance(query, str) and words_alone and getattr(args, "queries_file", None) is None:
        said.append(
            "(a query of several words is one argument: quote it, %s)"
            % shell_quote(userinfo_hidden(" ".join([query, *unknown])))
        )
    elif isinstance(url, str) and words_alone and any("://" in word or "." in word for word in unknown):
        said.append("(fetch reads one URL: run it once for each)")
    elif _a_query_of_dashes(parser, unknown, args, top):
        said.append(
            "(a query with a word starting with - is one argument after --, which ends the flags: websearch-sync search -- %s)"
            % shell_quote(userinfo_hidden(" ".join([*([query] if isinstance(query, str) else []), *unknown])))
        )
    return "unrecognized arguments: %s" % " ".join(said)


def _a_query_of_dashes(
    parser: argparse.ArgumentParser, unknown: Sequence[str], args: argparse.Namespace, top: argparse.ArgumentParser
) -> bool:
    """Whether ``search``'s ``unknown`` arguments are words of a query, one starting with ``-`` at least (an
    excluded term: ``search -pinterest``, ``search python -snake``), which argparse takes for flags: none is
    a flag close to one of ours (:func:`~.flag_hints.flag_hint`) or a credential's, none starts with ``--`` (no
    word does: ``--verbose`` is a flag meant), and no ``--queries-file``."""
    if getattr(args, "queries_file", None) is not None or getattr(args, "command", None) != "search":
        return False
    dashed = [argument for argument in unknown if argument.startswith("-")]
    return bool(dashed) and not any(
        argument == "-"
        or argument.startswith("--")
        or "=" in argument
        or is_secret_name(argument)
        or _argument_hint(argument, parser, top, None)
        for argument in dashed
    )


#: What an unknown flag that names a credential (``--api-key``, ``--password``, ``--token``) is told.
CREDENTIAL_FLAG_HINT = (
    "(a key or password is no flag: set the backend's variable, e.g. BRAVE_API_KEY;"
    " `websearch-sync backends` lists each backend's)"
)
#: What stands for a credential an unknown argument held.
_HIDDEN = "***"


def _arguments_said(
    unknown: Sequence[str], parser: argparse.ArgumentParser, top: argparse.ArgumentParser, url: object
) -> list[str]:
    """Each unknown argument as :func:`unrecognized` says it, with its hint; never a credential: the
    value of a flag whose name is a credential's (:func:`~websearch_sync.secrets.is_secret_name`:
    ``--api-key KEY``, ``--token=KEY``) is ``***`` and the flag is told where keys go, and a URL's
    user info (``http://user:password@proxy``) is ``***`` (:func:`~websearch_sync.secrets.userinfo_hidden`:
    the line is printed, and logged by CI)."""
    said: list[str] = []
    value_hidden = False
    for argument in unknown:
        if value_hidden and not argument.startswith("-"):
            said.append(_HIDDEN)
            value_hidden = False
            continue
        flag, joined, _ = argument.partition("=")
        credential = argument.startswith("-") and is_secret_name(flag)
        value_hidden = credential and not joined
        if credential:
            said.append("%s%s %s" % (flag, "=" + _HIDDEN if joined else "", CREDENTIAL_FLAG_HINT))
        else:
            said.append(userinfo_hidden(argument) + _argument_hint(argument, parser, top, url))
    return said


def _argument_hint(argument: str, parser: argparse.ArgumentParser, top: argparse.ArgumentParser, url: object) -> str:
    """What follows an unknown ``argument`` in :func:`unrecognized`: the flag meant for a flag;
    after a URL, the flag a word is a value of (``fetch URL text``: ``--mode text``); else ""."""
    if argument.startswith("-"):
        return flag_hint(argument.split("=", 1)[0], parser, top)
    return value_hint(argument, parser) if isinstance(url, str) else ""


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    While it runs, stdout is the command's alone (:func:`~websearch_sync.engine.stdout_claim.claim_stdout`:
    the commands write to :func:`~websearch_sync.engine.stdout_claim.owner_stdout`, a copy of the
    stdout descriptor), ``sys.stdout`` and descriptor 1 being stderr for anything else that
    prints or writes there, a backend plugin's code in any thread; both are given back when it
    returns. The command's streams are :class:`~.output.TerminalStream` wrappers (no control
    characters, no encoding crash), except for a command whose stdout carries a protocol
    (``mcp``: only a missing stderr is replaced). A reader that closes the
    pipe (``| head -1``) ends the command quietly with status 141; output that cannot be
    written otherwise (a full disk, a process started without stdout) with one error line and
    status 5; without stderr its lines are dropped (:class:`~.output.MissingStream`).

    Not re-entrant across threads: a call while another thread's runs raises
    :class:`~websearch_sync.errors.StdoutClaimed` (stdout and its descriptor are the process's).
    """
    return _main(argv, release=True)


def console_main() -> int:
    """The ``websearch-sync`` command and ``python -m websearch_sync``: :func:`main`, after which
    stdout stays claimed (its output flushed, ``sys.stdout`` stderr's stand-in, descriptor 1 on
    stderr), so that what prints as the process ends (a plugin's ``atexit`` hook, a thread
    outliving the command) stays off the output too."""
    return _main(None, release=False)


def _main(argv: Optional[Sequence[str]], *, release: bool) -> int:
    """:func:`main`, stdout given back at the end when ``release``."""
    parser = build_parser()
    try:
        args = _parsed(parser, argv)
    except SystemExit as exc:  # argparse: --help/--version (0) or usage error (2)
        indent = _json_indent(argv) if exc.code and _Parser.usage_error is not None else None
        if (
            indent is not None and sys.stdout is not None
        ):  # the error form on stdout, as for any other failure of a JSON command
            usage = InvalidInput(_Parser.usage_error or "", detail_code=BAD_ARGUMENTS)
            sys.stdout.write(json_text({"error": usage.to_dict()}, sys.stdout, indent or None) + "\n")
        _Parser.usage_error = None
        return int(exc.code or 0)
    from ..backends.stub import offline_warning_given

    offline_warning_given()  # the commands say it themselves when results come from the offline stub
    if getattr(args, "protocol_on_stdout", False):  # mcp: stdout carries a protocol, not text for a terminal
        return _run_protocol(args, release)
    stderr = sys.stderr
    terminal_stderr = terminal_stream(stderr, "stderr")
    # the installed command owns its process: SIGTERM ends it as Ctrl-C does (a caller's process is its own)
    signals = contextlib.nullcontext() if release else terminate_as_interrupt()
    with (
        claim_stdout(terminal_stderr, lambda stdout: terminal_stream(stdout, "stdout"), release=release) as out,
        signals,
    ):
        sys.stderr = terminal_stderr  # once the claim is this thread's (another thread's command keeps its own)
        try:
            status = _run(args)
            out.flush()  # here, where a closed pipe is handled, not at interpreter exit
            return status
        except BrokenPipeError:
            drop_output()
            return EXIT_BROKEN_PIPE
        except OutputFailed as failure:
            drop_output()
            with contextlib.suppress(
                OSError, AttributeError
            ):  # stderr on the same full disk, or none: the status says it
                stderr.write("error: cannot write the output: %s\n" % failure)
            return EXIT_OTHER
        finally:
            sys.stderr = stderr


def _parsed(parser: argparse.ArgumentParser, argv: Optional[Sequence[str]]) -> argparse.Namespace:
    """``argv`` parsed, or ``SystemExit`` as argparse raises it: a usage error said with the command's
    usage (:func:`unrecognized`; argparse's ``parse_args`` shows the top level's), and the command
    alone, ``websearch-sync``, answered with the help (the commands, not "COMMAND is required")."""
    words = list(sys.argv[1:] if argv is None else argv)
    if not words:
        if sys.stderr is not None:  # started without stderr (2>&-): no lines, the status says it
            parser.print_help(sys.stderr)
        raise SystemExit(2)
    commands = command_names(parser)
    if not words[0].startswith("-") and words[0] not in commands:  # the top level takes flags, then COMMAND
        parser.error(command_hint(words, commands))
    for refusal in (misplaced_flag_hint, joined_argument_flag_hint, missing_action_hint):
        said_by, hint = refusal(words, parser)
        if hint:
            said_by.error(hint)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        command_parser = getattr(args, "command_parser", parser)
        command_parser.error(unrecognized(command_parser, unknown, args, parser))
    return args


def _run_protocol(args: argparse.Namespace, release: bool) -> int:
    """Run a command whose stdout carries a protocol (``mcp``): stdout as it is, claimed for the
    protocol from the command's start; stderr as it is, but for a missing one, whose error lines
    are dropped (:class:`~.output.MissingStream`), not a crash."""
    stderr = sys.stderr
    with claim_stdout(terminal_stream(stderr, "stderr"), release=release):
        if stderr is None:
            sys.stderr = terminal_stream(None, "stderr")
        try:
            return _run(args)
        finally:
            sys.stderr = stderr


def _run(args: argparse.Namespace) -> int:
    """Run the command (stdout claimed: what a plugin prints goes to stderr). The backend plugins
    load at the registry's first question (:func:`~websearch_sync.engine.registry.load_plugins`, once),
    not before every command: one that never asks it (``state show``, ``--help``, a usage error)
    imports none, and says none of their skip warnings; a slow import Ctrl-C'd or terminated while a
    command asks ends it as a search would (:func:`~.output.interruption` names the plugin)."""
    run: Callable[[argparse.Namespace], int] = args.run  # set by each sub-command's parser
    try:
        with command_line_terms():  # a setting is named by its variable: a command's user has no Settings
            return run(args)
    except WebSearchError as error:
        for line in error_lines(error):
            sys.stderr.write(line + "\n")
        hint = cli_hint(error, getattr(args, "timeout_ms", None))
        if hint:
            sys.stderr.write("hint: %s\n" % hint)
        indent = wants_json(args)
        if indent is not None:  # the error form, as a batch line or call_tool gives it
            out = owner_stdout()
            out.write(json_text({"error": error_form(error)}, out, indent or None) + "\n")
        return exit_status(error)
    except KeyboardInterrupt as interrupt:  # Ctrl-C, SIGTERM
        word, status = interruption(interrupt)
        if word:  # else the command said so itself
            sys.stderr.write(word + "\n")
        return status
