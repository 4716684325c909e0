"""A 206 Partial Content answer (fetch sends no ``Range``; some servers and caches answer so
anyway) holding a part of the page short of the whole is returned ``truncated``: it said
``truncated: false``, a part passed off as the whole page."""

import pytest
from faults import respond
from servers import FaultServer
from test_fetch_pdf import fetch

ARTICLE = (
    b"<html><head><title>Harbour</title></head><body><article><h1>Harbour</h1><p>"
    + b"The harbour board approved the dredging plan after a long public hearing. " * 6
    + b"</p></article></body></html>"
)
WHOLE = "bytes 0-%d/%d" % (len(ARTICLE) - 1, len(ARTICLE))


@pytest.mark.parametrize(
    "content_range, truncated",
    [
        ("bytes 0-%d/%d" % (len(ARTICLE) - 1, len(ARTICLE) * 4), True),  # the first quarter
        ("bytes 100-%d/%d" % (len(ARTICLE) + 99, len(ARTICLE) + 100), True),  # not from the start
        ("bytes 0-%d/*" % (len(ARTICLE) - 1), True),  # the whole's length unknown
        (None, True),  # no Content-Range at all
        (WHOLE, False),  # all of it, sent as a part
    ],
    ids=["a first part", "a later part", "of unknown length", "no range", "the whole"],
)
def test_a_part_of_a_page_is_truncated(content_range, truncated):
    headers = {"Content-Range": content_range} if content_range else {}
    with FaultServer({"/p": respond(206, ARTICLE, headers=headers)}) as server:
        result = fetch(server.url("/p"))
    assert result["status"] == 206 and "dredging plan" in result["text"]
    assert result["truncated"] is truncated


def test_a_whole_answer_is_not():
    with FaultServer({"/p": respond(200, ARTICLE, headers={"Content-Range": "bytes 0-9/1000"})}) as server:
        assert fetch(server.url("/p"))["truncated"] is False
