"""``--option KEY=VALUE`` for a yes/no option reads the words a yes/no variable takes.

Before: ``--option include_content=yes`` (or ``=1``, ``=on``) was refused, "include_content must be
true or false", while ``WEB_FETCH_ALLOW_PRIVATE=yes`` turns its setting on: the command line knew
``true``/``false`` alone. Now one reading of a yes/no word (``config.yes_no``) serves both."""

import pytest

import websearch_sync as ws
from websearch_sync import config
from websearch_sync.cli.search_cmd import backend_options


@pytest.mark.parametrize(
    "word, meant",
    [
        ("1", True),
        ("yes", True),
        ("On", True),
        ("TRUE", True),
        ("0", False),
        ("no", False),
        ("off", False),
        ("false", False),
    ],
)
def test_a_yes_no_option_takes_every_word_a_yes_no_variable_takes(word, meant):
    assert backend_options(["include_content=" + word]) == {"include_content": meant}
    assert backend_options(["resolve_links=" + word]) == {"resolve_links": meant}  # Baidu's, declared bool
    env = {"WEB_FETCH_ALLOW_PRIVATE": word}
    assert config.Settings.from_env(env).allow_private is meant


def test_another_word_is_left_to_the_options_own_refusal():
    """``maybe`` is no yes/no word: passed on as text, which the option's check refuses (bad_include_content)."""
    assert backend_options(["include_content=maybe"]) == {"include_content": "maybe"}
    with pytest.raises(ws.InvalidInput) as info:
        config.Settings.from_env({"WEB_FETCH_ALLOW_PRIVATE": "maybe"})
    assert info.value.detail_code == "bad_setting"


def test_the_command_line_searches_with_a_yes_no_word(capsys):
    from websearch_sync.cli import main

    assert main(["search", "q", "-b", "stub", "--option", "include_content=no"]) == 0
    assert "q - Overview" in capsys.readouterr().out
