"""An argument no command takes is refused with the usage of the command it was given to (argparse's
``parse_args`` showed the top level's, ``websearch-sync [-h] [--version] COMMAND ...``, which says
nothing about what the command does take)."""

import pytest

from websearch_sync.cli import main


@pytest.mark.parametrize(
    "argv, usage",
    [
        (["backends", "extra"], "usage: websearch-sync backends "),
        (["search", "-b", "stub", "q", "--bogus"], "usage: websearch-sync search "),
        (["state", "clear", "extra"], "usage: websearch-sync state "),
    ],
)
def test_an_unknown_argument_shows_its_commands_usage(capsys, argv, usage):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(usage), err
    assert "error: unrecognized arguments: %s" % argv[-1] in err
