"""The hint after a mistyped flag in ``unrecognized arguments: ...``: the flag meant, compared by
name without the ``--`` every flag shares (with it, ``--limit`` was "close" to ``--site``), or
the command a flag belongs to when it is another command's (``search --max-chars``)."""

import argparse
import difflib
import shlex
from collections.abc import Iterator, Sequence


def flag_hint(typed: str, parser: argparse.ArgumentParser, top: argparse.ArgumentParser) -> str:
    """`` (did you mean --json?)`` after ``--jsn`` given to ``parser``, or `` (--max-chars is a flag
    of fetch)``, or `` (did you mean --format text?)`` for ``--text``, a value of ``--format``; ""
    when no flag is close: a guess from letters alone misleads more than none (``--count``).
    ``top`` is the command line's parser, whose commands are searched for another one's flag."""
    if not typed.startswith("--") or len(typed) < 3:
        return ""
    if _takes(parser, typed):  # argparse parses its own flags anywhere but after `--`
        return " (%s is a flag of %s: put it before --)" % (typed, _command(parser))
    name = typed[2:]
    value = value_hint(name, parser)
    if value:
        return value
    owners = [_command(command) for command in command_parsers(top) if command is not parser and _takes(command, typed)]
    if owners:
        return " (%s is a flag of %s)" % (typed, ", ".join(owners))
    close = closest_flag(name, parser)
    return " (did you mean %s?)" % close if close else ""


def closest_flag(name: str, parser: argparse.ArgumentParser) -> str:
    """The flag of ``parser`` that ``name`` (a flag without its ``--``) means, or "": the closest
    by a flag's name or by what it sets (its ``dest``: ``--site-filter`` means ``--site``), ``-``
    and ``_`` alike; else the one flag whose first word ``name``'s is (``--skip-existing``:
    ``--skip-done``), a word of four letters or more."""
    spelled = _spellings(parser)
    typed = name.replace("-", "_").lower()  # flags are lower case: --JSON means --json
    close = difflib.get_close_matches(typed, list(spelled), n=1)
    if close:
        return spelled[close[0]]
    first = typed.split("_")[0]
    starting = {flag for key, flag in spelled.items() if key.split("_")[0] == first}
    return starting.pop() if len(first) >= 4 and len(starting) == 1 else ""


def _spellings(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each ``--`` flag of ``parser`` by its name and by its ``dest``, ``-`` written ``_``."""
    spelled = {}
    for action in parser._actions:
        flags = [flag for flag in action.option_strings if flag.startswith("--")]
        for flag in flags:
            spelled[flag[2:].replace("-", "_")] = flag
        if flags:
            spelled.setdefault(action.dest, flags[0])
    return spelled


def _command(parser: argparse.ArgumentParser) -> str:
    """A command's name as typed after the program's (``state show``)."""
    return parser.prog.split(" ", 1)[1]


def value_hint(word: str, parser: argparse.ArgumentParser) -> str:
    """`` (did you mean --mode text?)`` for ``word``, a value of one of ``parser``'s flags given
    without it (``fetch URL text``, ``--text``); "" for any other word."""
    for action in parser._actions:
        if action.option_strings and action.choices is not None and word in action.choices:
            return " (did you mean %s %s?)" % (action.option_strings[-1], word)
    return ""


def command_parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """The parser of each command under ``parser``, a command's commands too (``state show``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                yield command
                yield from command_parsers(command)


def command_names(parser: argparse.ArgumentParser) -> list[str]:
    """The names of the commands right under ``parser``, in their order."""
    return list(_top_commands(parser))


def _top_commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser of each command right under ``parser``, by its name (not ``state show``)."""
    return {_command(command): command for command in command_parsers(parser) if " " not in _command(command)}


def command_hint(words: Sequence[str], commands: Sequence[str]) -> str:
    """The refusal of a first word that is no command (``words``: the command line), with the
    command meant: a close one (``serach``: search), else the query given without its command
    (``websearch-sync python requests --json``: ``websearch-sync search 'python requests' --json``,
    the words up to the first flag shell-quoted as one, the rest after it); argparse's "invalid
    choice" named no way on."""
    word = words[0]
    close = difflib.get_close_matches(word, list(commands), n=1)
    if close:
        return "unknown command %r (did you mean %s?)" % (word, close[0])
    flags = next((at for at, each in enumerate(words) if each.startswith("-")), len(words))
    line = [shlex.quote(" ".join(words[:flags]))] + [shlex.quote(each) for each in words[flags:]]
    return "unknown command %r: the commands are %s; to search for it: websearch-sync search %s" % (
        word,
        ", ".join(commands),
        " ".join(line),
    )


def flag_first_hint(words: Sequence[str], top: argparse.ArgumentParser) -> str:
    """The refusal of a command line that starts with a command's flag (``websearch-sync -b stub
    python``: argparse took ``stub`` for the command and refused it): the line with the command
    first, the command typed later on the line if there is one (``--backend stub mcp``: ``mcp
    --backend stub``), else the first of the commands taking the flag; "" for a flag of the
    program itself (``--version``) or of no command."""
    flag = words[0].split("=", 1)[0]
    if flag == "--" or _takes(top, flag):
        return ""
    commands = _top_commands(top)
    owners = [name for name, command in commands.items() if _takes(command, flag)]
    typed = next((at for at, word in enumerate(words) if word in commands), None)
    if typed is not None:
        if words[typed] not in owners:
            return ""
        owners = [words[typed]]
        words = [words[typed], *words[:typed], *words[typed + 1 :]]
    elif owners:
        words = [owners[0], *words]
    if not owners:
        return ""
    return "%s is a flag of %s: the command comes first (websearch-sync %s)" % (
        flag,
        ", ".join(owners),
        " ".join(shlex.quote(word) for word in words),
    )


def _takes(parser: argparse.ArgumentParser, flag: str) -> bool:
    """Whether ``flag`` (``-b``, ``--json``) is one of ``parser``'s own."""
    return any(flag in action.option_strings for action in parser._actions)
