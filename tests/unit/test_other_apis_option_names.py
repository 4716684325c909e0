"""A search option called by another API's name, or by this command line's flag, is refused naming
ours: ``site=`` (the command line's ``--site``) had no hint, ``count=``/``limit=``/``n=`` (Brave's,
everyone's, the command line's ``-n``) none, and ``top_k=`` (Bocha's) was "did you mean 'topic'?",
Tavily's option of another meaning. The same table serves the tool's arguments."""

import warnings
from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.cli import main
from websearch_sync.vocabulary.synonyms import OPTION_SYNONYMS


@pytest.mark.parametrize(
    "typed, ours",
    [
        ("site", "site_filter"),
        ("domain", "site_filter"),
        ("count", "max_results"),
        ("limit", "max_results"),
        ("num", "max_results"),
        ("n", "max_results"),
        ("top_k", "max_results"),
        ("country", "locale"),
        ("safe", "safe_search"),
        ("freshness", "time_range"),
        ("provider", "backend"),
    ],
)
def test_another_apis_option_name_is_refused_naming_ours(typed, ours):
    with pytest.raises(TypeError) as info, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ws.search("q", backend="stub", **{typed: 3})
    assert "argument(s) %s (did you mean %r?);" % (typed, ours) in str(info.value)


def test_the_tools_argument_names_ours_too():
    answer = tool.call_tool("web_search", {"query": "q", "count": 3})
    assert "unknown argument 'count' (did you mean 'max_results'?)" in answer["error"]["message"]


def test_a_name_whose_option_the_call_does_not_take_gets_no_such_hint():
    """``provider`` is ``backend`` for ``search()``; a tool that takes no ``backend`` names nothing for it."""
    answer = tool.call_tool("web_search", {"query": "q", "provider": "brave"})
    assert "did you mean" not in answer["error"]["message"]


@pytest.mark.parametrize(
    "typed, flag",
    [
        ("count", "-n"),
        ("n", "-n"),
        ("num", "-n"),
        ("max_results", "-n"),
        ("site", "--site"),
        ("domain", "--site"),
        ("freshness", "--time-range"),
        ("provider", "-b"),
    ],
)
def test_the_command_lines_option_names_its_flag(capsys, typed, flag):
    """``--option count=5`` had no hint and ``--option site=x`` named ``site_filter``: the command line sets
    these by flags of its own (``-n``, ``--site``)."""
    assert main(["search", "q", "-b", "stub", "--option", "%s=5" % typed]) == 2
    assert "--option %s: no backend knows this option (did you mean %s?);" % (typed, flag) in capsys.readouterr().err


def test_the_api_docs_name_every_synonym():
    """docs/api.md lists the names the refusal names ours for (``domain`` and ``num`` were left out)."""
    text = (Path(__file__).parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    sentence = text[text.index("or ours for another API's or the command line's") :][:600]
    assert [name for name in OPTION_SYNONYMS if "`%s`" % name not in sentence] == []


@pytest.mark.parametrize(
    "typed, said",
    [
        ("timelimit", "--time-range day, week, month or year: d is day"),
        ("region", "--locale, a language tag, language first: us-en is en-US; for wt-wt give none"),
        ("safesearch", "--safe-search off, moderate or strict: on is strict"),
        ("size", "--image-size"),
        ("keywords", "the query is search's argument, given without a flag"),
    ],
)
def test_the_command_lines_option_names_the_flag_for_a_ddgs_argument(capsys, typed, said):
    """``--option timelimit=d`` named search()'s ``time_range``, a keyword the command line has no
    place for: it names ``--time-range`` and ddgs's value."""
    assert main(["search", "q", "-b", "stub", "--option", "%s=d" % typed]) == 2
    error = capsys.readouterr().err
    assert "--option %s: no backend knows this option (ddgs's %s: here %s);" % (typed, typed, said) in error
