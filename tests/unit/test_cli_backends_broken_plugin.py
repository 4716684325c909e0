"""``websearch-sync backends`` with a plugin whose constructor raises (a plugin author's first hour):
every listing logged its whole traceback on stderr, and its reason (~230 characters: the message,
the file and line) widened the CONFIGURED column, so every row of the table. The row now says the
reason cut, the whole of it follows the table (and ``--json``'s ``error``), and the traceback is a
DEBUG record."""

import json
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


def test_the_reason_is_cut_in_the_table_and_said_in_full_under_it(caplog, capsys):
    out = _listing(caplog, capsys).out
    lines = out.splitlines()
    header = lines[0]
    (row,) = [line for line in lines if line.startswith("listing_broken ")]
    stub = next(line for line in lines if line.startswith("stub "))
    configured = header.index("CONFIGURED")
    width = header.index("RATE LIMIT") - configured - 2  # the column's width
    assert width <= 80, header  # was 230: the reason whole
    assert len(stub) < 200, stub
    assert row[configured:].startswith("no (internal error in backend listing_broken: RuntimeError")
    assert "..." in row
    whole = next(line for line in lines if line.strip().startswith("listing_broken: internal error"))
    assert whole.strip().endswith("a long explanation of why,") and "test_cli_backends_broken_plugin.py:" in whole


def test_json_keeps_the_whole_reason(caplog, capsys):
    rows = json.loads(_listing(caplog, capsys, "--json").out)
    (row,) = [row for row in rows if row["name"] == "listing_broken"]
    assert row["error"].rstrip().endswith("a long explanation of why,") and row["configured"] is False
