"""What a demanding user of the public client expects: clear errors for input that would
otherwise be ignored or misread, and settings that cannot silently go stale."""

import pytest

from websearch_sync.cli import main


@pytest.mark.parametrize(
    "flag",
    [["--workers", "4"], ["--stop-after-failures", "2"], ["--skip-done", "out.jsonl"], ["--progress-every", "0"]],
)
def test_a_batch_only_flag_with_a_single_query_is_a_usage_error(flag, capsys):
    assert main(["search", "python", "-b", "stub", *flag]) == 2
    err = capsys.readouterr().err
    assert "InvalidInput/bad_arguments" in err and flag[0] in err and "--queries-file" in err
