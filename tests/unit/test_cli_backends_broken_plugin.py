"""``websearch-sync backends`` with a plugin whose constructor raises (a plugin author's first hour):
every listing logged its whole traceback on stderr, and its reason (~230 characters: the message,
the file and line) widened the CONFIGURED column, so every row of the table. The row now says the
reason cut, the whole of it follows the table (and ``--json``'s ``error``), and the traceback is a
DEBUG record."""

import logging

from websearch_sync.backends import Backend, RequestSpec, register
from websearch_sync.cli import main


class NeedsItsSdk(Backend):
    name = "listing_broken"
    kind = "json"
    summary = "a plugin building its SDK's client in its constructor"
    default_endpoint = "https://api.listing.example/s"

    def __init__(self, settings):
        super().__init__(settings)
        raise RuntimeError("the vendor SDK refused to start: " + "a long explanation of why, " * 5)

    def build_request(self, params):
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.query})

    def parse(self, response, params):
        raise NotImplementedError


def _listing(caplog, capsys, *flags):
    register(NeedsItsSdk)  # undone after the test (the testing plugin)
    with caplog.at_level(logging.DEBUG, logger="websearch_sync"):
        assert main(["backends", *flags]) == 0
    return capsys.readouterr()


def test_the_traceback_is_a_debug_record_not_every_listings_error(caplog, capsys):
    said = _listing(caplog, capsys)
    assert "Traceback" not in said.err
    failed = [record for record in caplog.records if "listing_broken failed unexpectedly" in record.getMessage()]
    assert failed and all(record.levelno == logging.DEBUG and record.exc_info for record in failed)
