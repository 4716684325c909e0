"""The hint after a mistyped flag in ``unrecognized arguments: ...``: the flag meant, compared by
name without the ``--`` every flag shares (with it, ``--limit`` was "close" to ``--site``), or
the command a flag belongs to when it is another command's (``search --max-chars``)."""

import argparse
import difflib
from collections.abc import Iterator


def flag_hint(typed: str, parser: argparse.ArgumentParser, top: argparse.ArgumentParser) -> str:
    """`` (did you mean --json?)`` after ``--jsn`` given to ``parser``, or `` (--max-chars is a flag
    of fetch)``, or `` (did you mean --format text?)`` for ``--text``, a value of ``--format``; ""
    when no flag is close: a guess from letters alone misleads more than none (``--count``).
    ``top`` is the command line's parser, whose commands are searched for another one's flag."""
    if not typed.startswith("--") or len(typed) < 3:
        return ""
    name = typed[2:]
    value = value_hint(name, parser)
    if value:
        return value
    owners = [command.prog for command in command_parsers(top) if command is not parser and typed in _flags(command)]
    if owners:
        return " (%s is a flag of %s)" % (typed, ", ".join(owner.split(" ", 1)[1] for owner in owners))
    names = [flag[2:] for flag in _flags(parser)]
    close = difflib.get_close_matches(name, names, n=1)
    return " (did you mean --%s?)" % close[0] if close else ""


def value_hint(word: str, parser: argparse.ArgumentParser) -> str:
    """`` (did you mean --mode text?)`` for ``word``, a value of one of ``parser``'s flags given
    without it (``fetch URL text``, ``--text``); "" for any other word."""
    for action in parser._actions:
        if action.option_strings and action.choices is not None and word in action.choices:
            return " (did you mean %s %s?)" % (action.option_strings[-1], word)
    return ""


def _flags(parser: argparse.ArgumentParser) -> list[str]:
    """The ``--`` flags ``parser`` takes."""
    return [flag for action in parser._actions for flag in action.option_strings if flag.startswith("--")]


def command_parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """The parser of each command under ``parser``, a command's commands too (``state show``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                yield command
                yield from command_parsers(command)
