"""A backend whose constructor raises (a plugin building its vendor's client without its key) logged
its whole traceback at every use: seven times in one ``check_conformance`` run (a backend built for
each check), several times on a CLI search's stderr. It is logged once per process for the class,
the full traceback at ERROR the first time; every later use raises the same typed error and logs its
traceback at DEBUG only."""

import logging

import pytest

import websearch_sync as ws
from websearch_sync.backends import HtmlEngine, register
from websearch_sync.cli import main
from websearch_sync.testing import check_conformance


class _NeedsItsClient(HtmlEngine):
    name = "ctor_fails_once"
    default_endpoint = "https://ctor.example/search"

    def __init__(self, settings=None):
        raise RuntimeError("the vendor's client needs a key")

    def query(self, params):
        return {"q": params.full_query}

    def items(self, markup, params):
        return []


def _failures(caplog, level):
    return [r for r in caplog.records if r.levelno == level and "ctor_fails_once failed unexpectedly" in r.getMessage()]


def test_one_conformance_run_logs_the_traceback_once(caplog):
    register(_NeedsItsClient)
    with caplog.at_level(logging.DEBUG, logger="websearch_sync"), pytest.raises(AssertionError) as failed:
        check_conformance("ctor_fails_once")
    assert "RuntimeError" in str(failed.value)  # each check still says why it failed
    (first,) = _failures(caplog, logging.ERROR)
    assert first.exc_info and "needs a key" in str(first.exc_info[1])
    later = _failures(caplog, logging.DEBUG)
    assert len(later) >= 4 and all(r.exc_info for r in later)  # kept for a DEBUG log, not dropped
    with caplog.at_level(logging.DEBUG, logger="websearch_sync"), pytest.raises(ws.WebProviderError) as caught:
        ws.search("q", backend="ctor_fails_once")
    assert caught.value.detail_code == "internal_error"  # the error itself is raised every time
    assert len(_failures(caplog, logging.ERROR)) == 1


def test_a_cli_search_logs_the_traceback_once(caplog, capsys):
    register(_NeedsItsClient)
    with caplog.at_level(logging.DEBUG, logger="websearch_sync"):
        assert main(["search", "q", "-b", "ctor_fails_once", "--retries", "0"]) != 0
    assert "internal error in backend ctor_fails_once" in capsys.readouterr().err
    assert len(_failures(caplog, logging.ERROR)) == 1  # stderr's log handler: one traceback


def test_each_class_is_said_once_on_its_own(caplog):
    class _Other(_NeedsItsClient):
        name = "ctor_fails_other"

    register(_NeedsItsClient)
    register(_Other)
    with caplog.at_level(logging.DEBUG, logger="websearch_sync"):
        for name in ("ctor_fails_once", "ctor_fails_other", "ctor_fails_once", "ctor_fails_other"):
            with pytest.raises(ws.WebProviderError):
                ws.search("q", backend=name)
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert errors == ["backend ctor_fails_once failed unexpectedly", "backend ctor_fails_other failed unexpectedly"]
