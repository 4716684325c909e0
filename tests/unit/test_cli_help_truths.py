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
