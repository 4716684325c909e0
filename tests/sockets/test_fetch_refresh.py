"""fetch and meta refresh against a real local server: only a refresh a browser acts on is
followed (not in a comment, an IE conditional comment or <noscript>, even on a page with no
text; not a slow refresh on a page with text), and a refresh whose target fails leaves fetch on
the page that carried it."""

import pytest
from faults import redirect, refused_port, respond
from servers import FaultServer

import websearch_sync as ws

ARTICLE = (
    b"<html><head><title>Harbour works</title>%s</head><body><article><h1>Harbour works</h1><p>"
    + b"The harbour board approved the dredging plan after a long public hearing on Tuesday. " * 5
    + b"</p><p>"
    + b"Work starts in spring and the ferry keeps its timetable during the works. " * 5
    + b"</p></article></body></html>"
)
ELSEWHERE = (
    b"<html><body><p>" + b"This is the page the refresh points at, not the article. " * 5 + b"</p></body></html>"
)


def article(head: bytes) -> bytes:
    return ARTICLE.replace(b"%s", head)


def fetch(url: str) -> dict:
    """``ws.fetch`` with a deadline that is not these tests' subject: 30 s. A process's first fetch
    builds its wire and extractor (2-7 s at a load of 6-15), over the 3 s these tests had."""
    return ws.fetch(url, allow_private=True, settings=ws.Settings(), timeout_ms=30_000)


def routes_seen(server: FaultServer) -> list:
    return [request.route for request in server.requests]


def test_refresh_inside_an_ie_conditional_comment_is_not_followed():
    page = article(b'<!--[if lt IE 9]><meta http-equiv="refresh" content="0; url=/unsupported"><![endif]-->')
    with FaultServer({"/a": respond(200, page), "/unsupported": respond(200, ELSEWHERE)}) as server:
        result = fetch(server.url("/a"))
        assert routes_seen(server) == ["/a"]
    assert result["final_url"] == server.url("/a")
    assert "dredging plan" in result["text"]


def test_refresh_inside_a_plain_comment_is_not_followed():
    page = article(b"<!-- <meta http-equiv='refresh' content='0;url=/old'> -->")
    with FaultServer({"/a": respond(200, page), "/old": respond(200, ELSEWHERE)}) as server:
        fetch(server.url("/a"))
        assert routes_seen(server) == ["/a"]


def test_refresh_inside_noscript_on_a_page_with_text_is_not_followed():
    page = article(b"<noscript><meta http-equiv='refresh' content='0; url=/no-js'></noscript>")
    with FaultServer({"/a": respond(200, page), "/no-js": respond(200, ELSEWHERE)}) as server:
        result = fetch(server.url("/a"))
        assert routes_seen(server) == ["/a"]
    assert "dredging plan" in result["text"]


def test_a_stub_with_a_script_and_a_noscript_refresh_goes_where_the_script_sends_it():
    # Baidu's /link?url= form: the script for browsers with scripts, the noscript refresh for
    # the others. Here the two differ, to show which one fetch acts on.
    stub = (
        b"<html><head><script>window.location.replace('/scripted')</script>"
        b"<noscript><meta http-equiv='refresh' content=\"0;URL='/no-js'\"></noscript></head><body></body></html>"
    )
    routes = {"/link": respond(200, stub), "/scripted": respond(200, article(b"")), "/no-js": respond(200, ELSEWHERE)}
    with FaultServer(routes) as server:
        result = fetch(server.url("/link?url=abc"))
        assert routes_seen(server) == ["/link", "/scripted"]
    assert "dredging plan" in result["text"]


def test_a_stub_whose_only_redirect_is_a_noscript_refresh_is_read_as_it_is():
    stub = b"<html><head><noscript><meta http-equiv='refresh' content='0;url=/no-js?id=7'></noscript></head><body></body></html>"
    with FaultServer({"/link": respond(200, stub), "/no-js": respond(200, ELSEWHERE)}) as server:
        with pytest.raises(ws.WebParseError) as info:
            fetch(server.url("/link"))
        assert routes_seen(server) == ["/link"]
    assert info.value.detail_code == "no_content"
    # the page chose the target: the message (an error line a model reads) names its host only
    assert "<noscript> refresh points at a page on 127.0.0.1," in info.value.message
    assert "/no-js" not in info.value.message


def test_a_noscript_target_is_logged_and_one_with_a_key_by_host_and_path_only(caplog):
    stub = b"<html><head><noscript><meta http-equiv='refresh' content='0;url=/no-js?api_key=s3cret'></noscript></head></html>"
    with FaultServer({"/link": respond(200, stub)}) as server:
        with caplog.at_level("INFO", logger="websearch_sync"), pytest.raises(ws.WebParseError) as info:
            fetch(server.url("/link"))
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "s3cret" not in info.value.message and "s3cret" not in logged
    assert "/no-js" in logged and "/no-js" not in info.value.message


def test_a_refresh_after_a_noscript_one_is_the_one_followed():
    stub = (
        b"<html><head><noscript><meta http-equiv='refresh' content='0;url=/no-js'></noscript>"
        b"<meta http-equiv='refresh' content='0;url=/b'></head><body></body></html>"
    )
    with FaultServer(
        {"/a": respond(200, stub), "/b": respond(200, ELSEWHERE), "/no-js": respond(200, ELSEWHERE)}
    ) as server:
        assert fetch(server.url("/a"))["final_url"] == server.url("/b")
        assert routes_seen(server) == ["/a", "/b"]


def test_refresh_after_a_closed_comment_is_followed():
    page = b"<html><head><!--[if IE]><p>old browser</p><![endif]--><meta http-equiv='refresh' content='0; url=/b'></head></html>"
    with FaultServer({"/a": respond(200, page), "/b": respond(200, ELSEWHERE)}) as server:
        assert fetch(server.url("/a"))["final_url"] == server.url("/b")


def test_refresh_to_a_missing_page_falls_back_to_the_page_that_carried_it():
    page = article(b"<meta http-equiv='refresh' content='1;url=/gone'>")
    with FaultServer({"/a": respond(200, page), "/gone": respond(404, b"<p>Not found</p>")}) as server:
        result = fetch(server.url("/a"))
        assert routes_seen(server) == ["/a", "/gone"]
    assert result["final_url"] == server.url("/a") and result["status"] == 200
    assert "dredging plan" in result["text"]


def test_refresh_through_a_redirect_to_a_server_error_falls_back():
    page = article(b"<meta http-equiv='refresh' content='0;url=/moved'>")
    routes = {"/a": respond(200, page), "/moved": redirect("/broken"), "/broken": respond(503, b"down")}
    with FaultServer(routes) as server:
        result = fetch(server.url("/a"))
    assert result["final_url"] == server.url("/a")
    assert "dredging plan" in result["text"]


def test_refresh_to_an_unreachable_host_falls_back():
    page = article(b"<meta http-equiv='refresh' content='0;url=http://127.0.0.1:%d/x'>" % refused_port())
    with FaultServer({"/a": respond(200, page)}) as server:
        result = fetch(server.url("/a"))
    assert result["final_url"] == server.url("/a")
    assert "dredging plan" in result["text"]


def test_a_stub_without_text_still_reports_the_targets_error():
    stub = b"<html><head><meta http-equiv='refresh' content='0;url=/gone'></head><body></body></html>"
    with FaultServer({"/a": respond(200, stub), "/gone": respond(404, b"<p>Not found</p>")}) as server:
        try:
            fetch(server.url("/a"))
        except ws.WebSearchError as error:
            assert error.detail_code == "http_404"
        else:
            raise AssertionError("a stub with nothing to read is not a fallback")


def test_a_refresh_of_several_seconds_on_a_page_with_text_is_content():
    page = article(b"<meta http-equiv='refresh' content='5; url=/b'>")
    with FaultServer({"/a": respond(200, page), "/b": respond(200, ELSEWHERE)}) as server:
        result = fetch(server.url("/a"))
        assert routes_seen(server) == ["/a"]
    assert "dredging plan" in result["text"]


def test_a_redirect_notice_of_several_seconds_is_followed():
    notice = b"<html><head><meta http-equiv='refresh' content='5; url=/b'></head><body><p>This page has moved. You will be redirected in 5 seconds.</p></body></html>"
    with FaultServer({"/a": respond(200, notice), "/b": respond(200, ELSEWHERE)}) as server:
        assert fetch(server.url("/a"))["final_url"] == server.url("/b")


def test_script_redirect_inside_a_comment_is_not_followed():
    stub = b"<html><head><!-- <script>location.replace('/b')</script> --></head><body><p>Short stub page.</p></body></html>"
    with FaultServer({"/a": respond(200, stub), "/b": respond(200, ELSEWHERE)}) as server:
        fetch(server.url("/a"))
        assert routes_seen(server) == ["/a"]
