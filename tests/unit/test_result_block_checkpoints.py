"""A parse abandoned at its deadline stops in the engines' loop over result blocks too.

``walk_blocks`` checks for abandonment as it walks the tree, but every HTML engine then builds
an item per block in a loop of its own (DuckDuckGo's, Bing's, Yahoo's, Startpage's, the
verticals'); before, that loop ran to its end after the caller had its ``Timeout`` (0.4-0.6 s of
a core on a large page). The blocks are handed out with a checkpoint every ``EVERY``. No wall clock.
"""

import threading

import pytest

from websearch_sync.backends import ddg
from websearch_sync.checkpoints import EVERY, WorkAbandoned, abandonable
from websearch_sync.engine.html_parsing import parse_fragment, walk_blocks

#: Twice a checkpoint interval of DuckDuckGo HTML result blocks.
MARKUP = "".join(
    '<div class="result results_links"><h2><a class="result__a" href="https://e%d.example/">Title %d</a></h2>'
    '<a class="result__snippet">Snippet %d</a></div>' % (i, i, i)
    for i in range(EVERY * 2)
)


def _blocks():
    return walk_blocks(parse_fragment(MARKUP), lambda tag: "result" in (tag.get("class") or "").split(), {})


def test_iterating_the_blocks_stops_once_the_parse_was_abandoned():
    blocks = _blocks()
    assert len(blocks) == EVERY * 2
    abandoned = threading.Event()
    handed = 0
    with abandonable(abandoned), pytest.raises(WorkAbandoned):
        for _block in blocks:
            handed += 1
            abandoned.set()
    assert handed <= EVERY


def test_an_engines_item_loop_stops_once_the_parse_was_abandoned(monkeypatch):
    abandoned = threading.Event()
    built = []
    make_result = ddg._result

    def result_then_abandon(*args):
        built.append(args)
        abandoned.set()  # the deadline passes while the first item is built
        return make_result(*args)

    monkeypatch.setattr(ddg, "_result", result_then_abandon)
    with abandonable(abandoned), pytest.raises(WorkAbandoned):
        ddg._parse_html_template(MARKUP)
    assert 1 <= len(built) <= EVERY


def test_blocks_not_abandoned_are_all_handed_out():
    with abandonable(threading.Event()):
        items, _eof = ddg._parse_html_template(MARKUP)
    assert [item["url"] for item in items][:2] == ["https://e0.example/", "https://e1.example/"]
    assert len(items) == EVERY * 2
