"""Exit statuses, how errors are shown, argument types, and what reaches the terminal.

Everything the command line prints goes through :class:`TerminalStream`: control
characters other than newline and tab are removed (a page cannot move the cursor,
retitle the window or clear the screen), and text the stream's encoding cannot
represent is written as backslash escapes instead of crashing. JSON needs neither:
its escaping already keeps control characters out, and :func:`json_text` falls
back to ``\\uXXXX`` escapes when the stream is not UTF-8.
"""

import argparse
import contextlib
import io
import json
import logging
import re
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any, Callable, Optional, TextIO

from ..config import DEFAULT_TIMEOUT_MS
from ..errors import (
    ASK_FOR_IMAGES,
    BAD_ARGUMENTS,
    BAD_CACHE_MAX_ANSWERS,
    BAD_CACHE_TTL_S,
    BAD_EXTRACT_MODE,
    BAD_FILTER,
    BAD_MAX_BYTES,
    BAD_MAX_CHARS,
    BAD_MAX_CONCURRENT,
    BAD_MAX_REPEATS,
    BAD_MAX_RESULTS,
    BAD_REPEAT_WINDOW,
    BAD_RETRIES,
    BAD_SITE_FILTER,
    BAD_TIMEOUT,
    DNS_ERROR,
    IMAGE_TOO_LARGE,
    PRIVATE_ADDRESS,
    RAISE_MAX_BYTES,
    RESOLVED_HERE,
    InvalidInput,
    WebSearchError,
)
from ..forks import in_children
from ..models import MEDIA_FILTERS, VERTICALS
from ..net.browser import IMPERSONATE_CHOICES
from ..reader.lastresort import last_resort, only_handler
from ..validate import choice_hint

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

EXIT_OK = 0
EXIT_INVALID = 2
EXIT_BLOCKED = 3
EXIT_NETWORK = 4
EXIT_OTHER = 5
#: Ctrl-C and SIGTERM: 128 + the signal's number, as a shell reports a process they ended.
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
#: stdout was closed by the reader (``| head -1``): 128 + SIGPIPE, as a shell tool ends.
EXIT_BROKEN_PIPE = 141

_EXIT_BY_CODE = {
    "InvalidInput": EXIT_INVALID,
    "WebBlocked": EXIT_BLOCKED,
    "AuthError": EXIT_BLOCKED,
    "Timeout": EXIT_NETWORK,
    "NetworkError": EXIT_NETWORK,
}

#: C0 controls but tab and newline, DEL, and the C1 controls (``\x9b`` is a CSI on many terminals).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: The control characters json.dumps leaves as they are (DEL and C1), which the terminal filter would drop.
_JSON_UNESCAPED_CONTROL = re.compile("[\x7f-\x9f]")


def error_form(error: WebSearchError) -> dict[str, Any]:
    """The JSON form of ``error`` a command writes (``--json``, a batch's line): ``to_dict()`` with the
    error's ``status`` and ``retry_after`` when it has them. A batch line of a 429 or of a cool-down said
    "retry after 30 s" in its message only: a script resuming it (``--skip-done``) had to parse the words."""
    form: dict[str, Any] = dict(error.to_dict())
    if error.status is not None:
        form["status"] = error.status
    if error.retry_after is not None:
        form["retry_after"] = error.retry_after
    return form


def exit_status(error: WebSearchError) -> int:
    """The process exit status for an error (see the package docstring)."""
    return _EXIT_BY_CODE.get(error.code, EXIT_OTHER)


def _code(error: WebSearchError) -> str:
    return error.code + ("/" + error.detail_code if error.detail_code else "")


def error_line(error: WebSearchError) -> str:
    """``error: <Code>[/<detail_code>]: <message>``, the message in the command line's words: one
    opening with the Python argument a flag sets (``extract_mode must be one of ...``) names the flag
    (``--mode must be one of ...``)."""
    return "error: %s: %s" % (_code(error), _in_flags(error))


def _in_flags(error: WebSearchError) -> str:
    """``error``'s message with the Python argument it opens with spelt as its flag (:data:`_FLAG_OF`);
    an image or video filter's refusal also names the filter's flag and ``--vertical`` (``image_size
    filters images: give it with vertical='images'`` is ``--image-size filters images: give it with
    --vertical images``): the command line has no ``vertical=``."""
    named = _FLAG_OF.get(error.detail_code or "")
    message = error.message
    if named and message.startswith(named[0] + " "):
        library, ours = _CLI_WORDS.get(error.detail_code or "", ("", ""))
        return named[1] + (message[len(named[0]) :].replace(library, ours) if library else message[len(named[0]) :])
    if error.detail_code != BAD_FILTER:
        return message
    name, _, rest = message.partition(" ")
    if name in MEDIA_FILTERS:
        message = "--%s %s" % (name.replace("_", "-"), rest)
    for vertical in VERTICALS:
        message = message.replace("give it with vertical=%r" % vertical, "give it with --vertical %s" % vertical)
    return message


#: The command line's own words for a remedy the library offers (``error.hint`` is set), by detail code.
_CLI_HINTS = {
    PRIVATE_ADDRESS: "pass --allow-private only for trusted local use",
}
#: The command line's own words for a library hint, by that hint, where one detail code carries
#: several: ``unsupported_content``'s hint is to ask for images, or to install the pdf extra or
#: Pillow (an animated WebP with --images), which the message names already; the byte cap's
#: (``no_content``, a PDF's ``response_too_large``, ``image_too_large``), whose other hints are not.
_CLI_HINTS_FOR = {
    ASK_FOR_IMAGES: "fetch --images reads an image (with --json, its base64 data)",
    RESOLVED_HERE: RESOLVED_HERE,  # said as it is: not UNRESOLVED, whose "or set a proxy" is done
    RAISE_MAX_BYTES: "raise --max-bytes",
}
#: Detail codes whose other hints name no Python argument, printed as they are: an image over
#: the caps is to be fetched in a smaller rendition, or downscaled with Pillow installed.
_HINTS_AS_THEY_ARE = frozenset({IMAGE_TOO_LARGE})
#: The flag whose value a library check refused, by detail code: its message names the Python
#: argument (``max_results must be in 1..50``), which the command line spells otherwise (``-n``).
_FLAG_OF = {
    BAD_MAX_RESULTS: ("max_results", "-n"),
    BAD_TIMEOUT: ("timeout_ms", "--timeout-ms"),
    BAD_MAX_CHARS: ("max_chars", "--max-chars"),
    BAD_MAX_BYTES: ("max_bytes", "--max-bytes"),
    BAD_RETRIES: ("retries", "--retries"),
    BAD_SITE_FILTER: ("site_filter", "--site"),
    BAD_CACHE_TTL_S: ("cache_ttl_s", "--cache-ttl"),
    BAD_CACHE_MAX_ANSWERS: ("cache_max_answers", "--cache-max-answers"),
    BAD_EXTRACT_MODE: ("extract_mode", "--mode"),
    BAD_MAX_CONCURRENT: ("max_concurrent", "--max-concurrent"),
    BAD_MAX_REPEATS: ("max_repeats", "--max-repeats"),
    BAD_REPEAT_WINDOW: ("repeat_window_s", "--repeat-window"),
}
#: The library's words in such a message that the command line says otherwise, by detail code: the
#: Python form of turning the guard off, and the ``None`` a window may be in Python (no flag value).
_CLI_WORDS = {
    BAD_MAX_REPEATS: ("repeat_window_s=0, mcp --repeat-window 0", "--repeat-window 0"),
    BAD_REPEAT_WINDOW: (" (None: the tools' whole life)", ""),
}
#: What to check when no host name resolved (every backend asked, or the page's host).
UNRESOLVED = (
    "this machine could not resolve the host name: check its network connection and DNS (or set a proxy: "
    "WEB_SEARCH_PROXY), and the name's spelling"
)
#: The same for a page fetch reads: a proxy does not help it (:data:`RESOLVED_HERE`).
UNRESOLVED_PAGE = (
    "this machine could not resolve the host name: check its network connection and DNS, and the name's spelling "
    "(a proxy would not help: fetch resolves a page's host on this machine)"
)
#: Below this a deadline cannot cover one request over the network (DNS, TLS and a reply).
_USABLE_TIMEOUT_MS = 1000


def cli_hint(error: WebSearchError, timeout_ms: Optional[int]) -> Optional[str]:
    """What to do about ``error`` in command-line terms (flags, not Python arguments), or ``None``.

    ``timeout_ms`` is the ``--timeout-ms`` the command was given: a deadline too small to
    reach any service is said to be too small.
    """
    if error.code == "Timeout" and timeout_ms is not None and timeout_ms < _USABLE_TIMEOUT_MS:
        return "--timeout-ms %d is too small for a request over the network; allow a few seconds (default %d)" % (
            timeout_ms,
            DEFAULT_TIMEOUT_MS,
        )
    if error.hint is not None:
        as_it_is = error.hint if error.detail_code in _HINTS_AS_THEY_ARE else None
        return _CLI_HINTS_FOR.get(error.hint) or _CLI_HINTS.get(error.detail_code or "") or as_it_is
    unresolved = _unresolved(error)
    if unresolved is not None:
        return unresolved
    named = _FLAG_OF.get(error.detail_code or "")
    if named and error.message.startswith(named[0] + " "):
        return None  # error_line says the flag itself
    return "%s is %s on the command line" % named if named else None


def _unresolved(error: WebSearchError) -> Optional[str]:
    """What to check when no host name resolved (offline, most often: the first command a newcomer
    runs with a real backend): a page's host, which fetch resolves here, through a proxy too, or a search's."""
    if not all(failure.detail_code == DNS_ERROR for failure in [error, *error.errors]):
        return None
    return UNRESOLVED_PAGE if error.provider == "fetch" else UNRESOLVED


class _RetryLines(logging.Handler):
    """Writes each retry the client announces (a log record with ``retry_wait_s``) as one
    ``retry: ...`` line on stderr. A handler of its own would keep every other warning (a
    plugin's traceback) from Python's last-resort handler, so while no other handler sees
    them, they are handed to it as if this one were not there."""

    def emit(self, record: logging.LogRecord) -> None:
        if hasattr(record, "retry_wait_s"):
            sys.stderr.write("retry: %s\n" % record.getMessage())
            sys.stderr.flush()
        elif only_handler(self, record):
            last_resort(record)


@contextlib.contextmanager
def retry_lines() -> Iterator[None]:
    """While it is open, every retry wait of the client is one line on stderr (a long wait
    is never silent); the library's other log records go where they went without it."""
    library = logging.getLogger("websearch_sync")
    handler, level = _RetryLines(logging.INFO), library.level
    library.addHandler(handler)
    if library.getEffectiveLevel() > logging.INFO:
        library.setLevel(logging.INFO)
    try:
        yield
    finally:
        library.removeHandler(handler)
        library.setLevel(level)


def error_lines(error: WebSearchError) -> list[str]:
    """:func:`error_line`, then one line per backend of a failed chain: ``  <provider>: <Code>[/<detail>]: <message>``."""
    if not error.errors:
        return [error_line(error)]
    lines = [error_line(error)]
    for item in [error] + list(error.errors):
        lines.append("  %s: %s: %s" % (item.provider or "?", _code(item), item.message))
    return lines


def int_arg(text: str) -> int:
    """An argparse type: an integer (range checks are the library's, so errors read the same)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected an integer, got %r" % text) from None


def choice_flag(name: str, choices: Sequence[str]) -> dict[str, Any]:
    """``add_argument``'s ``choices`` and ``type`` for a flag setting the library's ``name`` to one of
    ``choices`` (:func:`choice_arg`): ``parser.add_argument("--vertical", **choice_flag("vertical", VERTICALS))``."""
    return {"choices": choices, "type": choice_arg(name, choices)}


def choice_arg(name: str, choices: Sequence[str]) -> Callable[[str], str]:
    """An argparse type for a flag setting the library's ``name`` to one of ``choices``: a value outside
    them is argparse's ``invalid choice`` with the library's hint (:func:`~..validate.choice_hint`:
    ``ddgs's 'd' is 'day'``, ``did you mean 'images'?``), still refused before any query. Any case is
    taken (``--vertical Images``, ``--log-level DEBUG``), as the library takes ``vertical="Images"``."""

    def choice(text: str) -> str:
        if text.lower() in choices:
            return text.lower()
        raise argparse.ArgumentTypeError(
            "invalid choice: %r (choose from %s)%s" % (text, ", ".join(choices), choice_hint(name, text, choices))
        )

    choice.__name__ = name  # argparse names a type's refusal by it only when it raises ValueError
    return choice


def terminal_text(text: str) -> str:
    """``text`` without control characters other than newline and tab."""
    return _CONTROL.sub("", text)


class Terminated(KeyboardInterrupt):
    """SIGTERM (``timeout``, a cancelled CI job, ``kill``) to the installed command
    (:func:`terminate_as_interrupt`): it ends the command as Ctrl-C does (the call running
    abandoned, a batch's summary line), with its own word and status; at the default, the
    signal killed the process with no word of how far a batch got."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM, once the command has said so itself (a batch's ``interrupted: N ok, ...``
    line): the command line ends with ``status`` (130, 143) without a second line."""

    def __init__(self, status: int) -> None:
        super().__init__()
        self.status = status


def interruption(interrupt: KeyboardInterrupt) -> tuple[str, int]:
    """How ``interrupt`` ends the command: the word said (``interrupted``, ``terminated``, naming the
    backend plugin that was loading if one was; "" when
    the command said it) and the exit status, 128 and the signal's number as a shell reports it."""
    if isinstance(interrupt, Interrupted):
        return "", interrupt.status
    word, status = (
        ("terminated", EXIT_TERMINATED) if isinstance(interrupt, Terminated) else ("interrupted", EXIT_INTERRUPTED)
    )
    registry = sys.modules.get("websearch_sync.engine.registry")  # not imported: no plugin loaded (--help stays light)
    plugin = registry.interrupted_plugin(interrupt) if registry is not None else None
    return (word if plugin is None else "%s while loading backend plugin %s" % (word, plugin)), status


def _terminate(signum: int, frame: object) -> None:
    """The SIGTERM handler of :func:`terminate_as_interrupt`."""
    raise Terminated()


def _default_sigterm() -> None:
    """In a forked child (a plugin's ``multiprocessing`` pool): SIGTERM at its default again, so
    ``pool.terminate()`` ends the child, not raises :class:`Terminated` there (a traceback on stderr)."""
    if signal.getsignal(signal.SIGTERM) is _terminate:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


in_children(_default_sigterm)


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While it is open, SIGTERM raises :class:`Terminated` in the main thread, where it was at
    the default (a handler the caller set, or an ignored SIGTERM, is left as it is); restored after,
    and in a child forked meanwhile at once (its SIGTERM is not the command's)."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class OutputFailed(Exception):
    """Writing the command's output failed for another reason than a closed pipe (a full disk):
    the command ends with one error line, not a traceback (:func:`websearch_sync.cli.main`)."""


@contextlib.contextmanager
def _failing_as_output() -> Iterator[None]:
    """An ``OSError`` of the block (a closed pipe aside: its own quiet ending) as :class:`OutputFailed`."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputFailed(str(exc)) from exc


class TerminalStream(io.TextIOBase):
    """A text stream in front of another that removes control characters and never fails to encode.

    ``diagnostics``: the stream carries notes and error lines (stderr), not the output: text it
    cannot write (``2>`` a file on a full disk, a pipe whose reader left) is dropped, as a
    command started without stderr drops it; a failed progress line or summary ended a batch
    whose every answer was written with status 5, "output failed".
    """

    def __init__(self, stream: TextIO, *, diagnostics: bool = False) -> None:
        super().__init__()
        self.stream = stream
        self._failing = partial(contextlib.suppress, OSError) if diagnostics else _failing_as_output

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The wrapped stream's encoding (UTF-8 when it does not say)."""
        return getattr(self.stream, "encoding", None) or "utf-8"

    def write(self, text: str) -> int:
        """Write ``text`` cleaned for a terminal, unencodable characters as backslash escapes."""
        cleaned = terminal_text(text)
        with self._failing():
            self.stream.write(cleaned.encode(self.encoding, "backslashreplace").decode(self.encoding, "replace"))
        return len(text)

    def write_controls(self, text: str) -> None:
        """Write ``text`` as it is (our own cursor controls, e.g. the progress line)."""
        with self._failing():
            self.stream.write(text)

    def flush(self) -> None:
        """Flush the wrapped stream (nothing once it was closed: this wrapper, collected after
        the stream it wraps, must not fail on the way out)."""
        if getattr(self.stream, "closed", False):
            return
        with self._failing():
            self.stream.flush()

    def isatty(self) -> bool:
        """Whether the wrapped stream is a terminal."""
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def fileno(self) -> int:
        """The wrapped stream's file descriptor."""
        return self.stream.fileno()

    def writable(self) -> bool:
        """Always true."""
        return True


class MissingStream(io.TextIOBase):
    """What a standard stream the process was started without stands for (``>&-`` or ``2>&-``:
    Python sets ``sys.stdout`` or ``sys.stderr`` to ``None``).

    Without stdout the command's output cannot be written: its first write is
    :class:`OutputFailed`, the command's error line and status 5. Without stderr the
    diagnostics have nowhere to go and are dropped, as ``print`` drops them: the exit status
    still says how the command ended (a search that succeeded exited 1 on a traceback).
    """

    def __init__(self, name: str, *, output: bool) -> None:
        super().__init__()
        self.name = name
        self.output = output

    def write(self, text: str) -> int:
        """Fail (stdout) or drop ``text`` (stderr)."""
        if self.output and text:
            raise OutputFailed("%s is closed (the command was started without it)" % self.name)
        return len(text)

    def write_controls(self, text: str) -> None:
        """As :meth:`write` (the progress line's cursor controls)."""
        self.write(text)

    def isatty(self) -> bool:
        """Never a terminal."""
        return False

    def writable(self) -> bool:
        """Always true: the write says what becomes of the text."""
        return True


def refuse_missing_output(out: object) -> None:
    """:class:`OutputFailed` at once when ``out``, the command's stdout, is a :class:`MissingStream`
    (started with ``>&-``): a search or fetch, whose output is all it is for, would send its request
    (a batch its first query's) and fail at its first write, the request spent for nothing. Commands
    that act (``state clear``, ``record``) act, and fail at their write as before."""
    if isinstance(out, MissingStream) and out.output:
        out.write("\n")


def terminal_stream(stream: Optional[TextIO], name: str) -> io.TextIOBase:
    """``sys.stdout`` (``name="stdout"``) or ``sys.stderr`` as the command line writes to it: a
    :class:`TerminalStream`, or a :class:`MissingStream` when the process has none."""
    if stream is None:
        return MissingStream(name, output=name == "stdout")
    return TerminalStream(stream, diagnostics=name == "stderr")


def json_text(value: Any, stream: Optional[TextIO] = None, indent: Optional[int] = None) -> str:
    """``value`` as JSON for ``stream``: non-ASCII as is on a UTF-8 stream, else as ``\\uXXXX`` escapes."""
    encoding = (getattr(stream, "encoding", None) or "utf-8").lower().replace("-", "").replace("_", "")
    text = json.dumps(value, ensure_ascii=not encoding.startswith("utf"), indent=indent)
    return _JSON_UNESCAPED_CONTROL.sub(lambda found: "\\u%04x" % ord(found.group()), text)  # kept, escaped


def wants_json(args: argparse.Namespace) -> Optional[int]:
    """``None`` for text output; else the JSON indent of the command's output (0 = one line)."""
    if getattr(args, "queries_file", None) is not None or getattr(args, "format", None) == "jsonl":
        return 0
    if getattr(args, "json", False) or getattr(args, "format", None) == "json":
        return 2
    return None


def empty_notice(response: Any) -> Optional[str]:
    """Why a response has no items, when it says (its ``errors``: an engine's failure, an answer
    without web results), one ``note:`` line each; ``None`` when it has items or says nothing."""
    if not isinstance(response, dict) or response.get("items") or not response.get("errors"):
        return None
    return "\n".join(
        "note: %s: %s" % (e.get("provider") or "?", e.get("message")) for e in response["errors"] if isinstance(e, dict)
    )


def offline_notice(response: Any) -> Optional[str]:
    """A one-line notice when some results of ``response`` come from an offline backend (the stub): how to
    choose a backend only when the stub answered as the default (``provider_meta["offline_default"]``)."""
    from ..client.selection import offline_backends, offline_default

    offline = offline_backends(response)
    if not offline:
        return None
    said = "note: these results come from the offline %s backend, not from the web" % ", ".join(offline)
    if not offline_default(response):  # -b stub or WEB_SEARCH_BACKEND=stub chose it, as its snippets say
        return said
    return said + "; choose a backend with -b NAME or WEB_SEARCH_BACKEND (see `websearch-sync backends`)"


#: ``--cache-max-answers``'s help, the same for every command that has it.
CACHE_MAX_ANSWERS_HELP = "most answers the --cache-path file keeps, oldest out first (default 100000)"


def cache_file_options(cache_path: Optional[str], cache_max_answers: Optional[int]) -> dict[str, Any]:
    """The client's ``cache_path``/``cache_max_answers`` arguments from their flags;
    ``InvalidInput(bad_arguments)`` for ``--cache-max-answers`` without ``--cache-path``: it bounds
    that file only, and was checked then ignored without a word."""
    if cache_max_answers is not None and not cache_path:
        raise InvalidInput(
            "--cache-max-answers bounds the --cache-path file: give --cache-path FILE too (or drop it)",
            detail_code=BAD_ARGUMENTS,
        )
    options: dict[str, Any] = {"cache_path": cache_path}
    if cache_max_answers is not None:
        options["cache_max_answers"] = cache_max_answers
    return options


def add_impersonate(parser: argparse.ArgumentParser) -> None:
    """The ``--impersonate`` option (``Settings.impersonate``) of the commands that send requests."""
    parser.add_argument(
        "--impersonate",
        metavar="PROFILE",
        help="browser whose requests keyless engines and fetch send: %s (chrome is the default with the browser extra)"
        % ", ".join(IMPERSONATE_CHOICES),
    )
