"""What ``--help`` says about a flag is what the flag does: ``--option``'s VALUE is read as the
option's declared kind (``engines=123`` names an engine), which docs/cli.md says; the help used
to say that a number is read as JSON whatever the option."""

import argparse

from websearch_sync.cli import build_parser
from websearch_sync.cli.search_cmd import backend_options


def _help_of(command: str, flag: str) -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    return " ".join(next(a for a in sub._actions if flag in a.option_strings).help.split())


def test_the_option_help_says_a_value_is_read_as_its_declared_kind():
    text = _help_of("search", "--option")
    assert "declared kind" in text, text
    assert "read as JSON when it is a number" not in text, text
    assert backend_options(["engines=123", "pageno=2"]) == {"engines": "123", "pageno": 2}  # what it says holds


def _synopsis_arguments() -> dict[str, list[str]]:
    """Each command's arguments as docs/cli.md's synopsis writes them: the words after
    ``websearch-sync COMMAND`` up to its first flag or bracket (``record``: BACKEND, QUERY)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    synopsis = text.split("```", 2)[1]
    found: dict[str, list[str]] = {}
    for line in synopsis.splitlines():
        words = line.split()
        if len(words) < 2 or words[0] != "websearch-sync" or words[1].startswith("-"):
            continue
        arguments = []
        for word in words[2:]:
            if word.startswith(("-", "[", "#")) or not word.isupper():
                break
            arguments.append(word)
        found.setdefault(words[1], arguments)
    return found


def test_each_commands_usage_names_its_arguments_as_the_docs_synopsis_does():
    """``check-live --help`` wrote ``backend`` (and ``record``'s ``backend query``) where docs/cli.md and
    the usage hints (``BACKEND is given without a flag``) write ``BACKEND``: one spelling in all three."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    documented = _synopsis_arguments()
    assert documented["record"] == ["BACKEND", "QUERY"] and documented["check-live"] == ["BACKEND"]
    for name, sub in commands.items():
        usage = " ".join(sub.format_usage().split())
        for action in sub._get_positional_actions():
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.metavar and action.metavar.isupper(), (name, action.dest)
            assert action.metavar in usage, (name, usage)
        for word in documented.get(name, []):
            assert word in usage.split() or "[%s" % word in usage, (name, word, usage)
