"""``websearch-sync mcp``'s flags read what their help says they take."""

from websearch_sync.cli import build_parser, main


def test_the_repeat_window_takes_seconds_as_a_number():
    """``--repeat-window SECONDS`` refused ``1.5`` ("expected an integer"), where the library's
    ``repeat_window_s`` and the other seconds of the command line (``--cache-ttl``) take it."""
    assert build_parser().parse_args(["mcp", "--repeat-window", "1.5"]).repeat_window == 1.5


def test_a_repeat_window_that_is_no_number_of_seconds_is_the_librarys_error(capsys):
    assert main(["mcp", "--repeat-window", "nan"]) == 2
    assert capsys.readouterr().err.startswith("error: InvalidInput/bad_repeat_window: ")
