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


@pytest.mark.parametrize(
    "key, detail", [("include_content", "bad_include_content"), ("resolve_links", "bad_resolve_links")]
)
def test_another_word_is_refused_naming_the_words_taken(key, detail):
    """``maybe`` is no yes/no word: refused with the option's detail code and the words the command line
    takes (it said "must be true or false", Python's spelling, though ``yes``, ``1`` or ``on`` are taken)."""
    with pytest.raises(ws.InvalidInput) as info:
        backend_options([key + "=maybe"])
    assert info.value.detail_code == detail
    assert info.value.message == (
        "--option %s=maybe: %s is a yes/no option: use 1, true, yes or on (0, false, no or off to turn it off), "
        "in any case" % (key, key)
    )
    with pytest.raises(ws.InvalidInput) as info:
        config.Settings.from_env({"WEB_FETCH_ALLOW_PRIVATE": "maybe"})
    assert info.value.detail_code == "bad_setting"
    assert config.YES_NO_WORDS in info.value.message


def test_the_command_line_says_the_words_on_stderr(capsys):
    from websearch_sync.cli import main

    assert main(["search", "q", "-b", "stub", "--option", "include_content=maybe"]) == 2
    assert "use 1, true, yes or on (0, false, no or off to turn it off)" in capsys.readouterr().err


def test_the_command_line_searches_with_a_yes_no_word(capsys):
    from websearch_sync.cli import main

    assert main(["search", "q", "-b", "stub", "--option", "include_content=no"]) == 0
    assert "q - Overview" in capsys.readouterr().out
