"""A usage error is said once, by the command's own parser."""

import pytest

from websearch_sync.cli import main


@pytest.mark.parametrize("argv", [["search", "--json", "--format"], ["search", "q", "--queries-file"]])
def test_a_flag_without_its_value_is_said_once(argv, capsys):
    """``--format`` (or ``--queries-file``) without its value: the command's usage and error line,
    then a second pair from the parser that looks for JSON flags, named ``__main__.py``."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if "error:" in line] == [
        "websearch-sync search: error: argument %s: expected one argument" % argv[-1]
    ]
    assert err.count("usage:") == 1
