"""``--option KEY=VALUE`` with a nested list, however deep, is InvalidInput(bad_arguments), exit 2 (issue 23 point 11)."""

import pytest

from websearch_sync.cli import main


@pytest.mark.parametrize("depth", [2, 300, 100_000])
def test_a_nested_option_value_is_refused_with_exit_2(capsys, depth):
    value = "[" * depth + "]" * depth
    assert main(["search", "q", "-b", "stub", "--option", "engines=" + value]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "error: InvalidInput/bad_arguments: --option engines takes a number, true/false, text or a flat JSON list"
    )


def test_flat_values_still_work(capsys):
    # Flat values parse; the stub then refuses the SearXNG options as options of another backend.
    assert main(["search", "q", "-b", "stub", "--option", "pageno=2", "--option", 'engines=["a", "b"]', "--json"]) == 2
    err = capsys.readouterr().err
    assert "bad_arguments" not in err
    assert "bad_option" in err
