"""``websearch-sync mcp``'s flags read what their help says they take."""

from websearch_sync.cli import build_parser


def test_the_repeat_window_takes_seconds_as_a_number():
    """``--repeat-window SECONDS`` refused ``1.5`` ("expected an integer"), where the library's
    ``repeat_window_s`` and the other seconds of the command line (``--cache-ttl``) take it."""
    assert build_parser().parse_args(["mcp", "--repeat-window", "1.5"]).repeat_window == 1.5
