"""A usage error is said once, by the command's own parser; with ``--json`` also as JSON on stdout."""

import json

import pytest

from websearch_sync.cli import main


@pytest.mark.parametrize(
    "argv, as_json",
    [
        (["search", "--json", "--format"], True),
        (["search", "--json", "q", "--queries-file"], True),
        (["search", "q", "--queries-file"], False),
    ],
)
def test_a_flag_without_its_value_is_said_once(argv, as_json, capsys):
    """``--format`` (or ``--queries-file``) without its value: the command's usage and error line,
    then a second pair from the parser that looks for JSON flags, named ``__main__.py``. That
    parser failed on the same missing value, so ``--json`` gave no JSON error on stdout, which
    docs/cli.md promises for a usage error too."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    message = "argument %s: expected one argument" % argv[-1]
    assert [line for line in err.splitlines() if "error:" in line] == ["websearch-sync search: error: " + message]
    assert err.count("usage:") == 1
    if as_json:
        error = json.loads(out)["error"]
        assert (error["type"], error["detail_code"], error["message"]) == ("InvalidInput", "bad_arguments", message)
    else:
        assert out == ""
