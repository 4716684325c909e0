"""What the command line says when no host name resolves: the first real search a newcomer runs
on a machine without network (``WEB_SEARCH_BACKEND=auto websearch-sync search ...``) ended with
five "could not resolve the host name" lines and nothing on what to check; and what it says of a
PDF the byte cap cut, whose library hint names ``max_bytes``."""

import pytest

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.cli.output import cli_hint
from websearch_sync.testing import fake_results

HINT = "hint: this machine could not resolve the host name: check its network connection and DNS"


def _unresolved(provider, host):
    return ws.NetworkError("could not resolve the host name: %s" % host, provider=provider, detail_code="dns_error")


def test_a_chain_whose_every_host_did_not_resolve_says_what_to_check(capsys):
    answers = {"ddg_html": _unresolved("ddg_html", "html.duckduckgo.com"), "bing_html": _unresolved("bing_html", "b")}
    with fake_results(answers):
        assert main(["search", "q", "-b", "ddg_html,bing_html"]) == 4
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("error: NetworkError/dns_error: ") and lines[-1].startswith(HINT)


def test_a_page_whose_host_did_not_resolve_says_what_to_check():
    error = ws.NetworkError("could not resolve the host name exampel.com", provider="fetch", detail_code="dns_error")
    assert ("hint: %s" % cli_hint(error, None)).startswith(HINT)
    # a proxy would not help: fetch resolves a page's host here (the search's hint suggested one)
    assert "set a proxy" not in cli_hint(error, None) and "a proxy would not help" in cli_hint(error, None)


def test_a_page_whose_host_did_not_resolve_behind_a_proxy_is_not_told_to_set_one(monkeypatch):
    """``HTTPS_PROXY=... websearch-sync fetch URL`` on a machine whose DNS does not resolve the page's host
    (the proxy would): "check its network connection and DNS (or set a proxy: WEB_SEARCH_PROXY)", the proxy
    set already. fetch resolves the host here through a proxy too (docs/fetch.md), which the hint now says."""
    from websearch_sync.config import Settings
    from websearch_sync.errors import RESOLVED_HERE
    from websearch_sync.reader import page

    def unresolved(proxy):
        error = ws.NetworkError(
            "could not resolve the host name example.org", provider="fetch", detail_code="dns_error"
        )
        return page._resolved_here(error, "https://example.org/", Settings(proxy=proxy))

    monkeypatch.delenv("HTTPS_PROXY", raising=False)
    monkeypatch.delenv("https_proxy", raising=False)
    monkeypatch.delenv("ALL_PROXY", raising=False)
    monkeypatch.delenv("all_proxy", raising=False)
    assert unresolved(None).hint is None
    behind = unresolved("http://proxy.example:3128")
    assert behind.detail_code == "dns_error" and behind.hint == RESOLVED_HERE
    assert cli_hint(behind, None) == RESOLVED_HERE and "set a proxy" not in RESOLVED_HERE
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")  # the environment's proxy counts too
    assert unresolved(None).hint == RESOLVED_HERE


@pytest.mark.parametrize(
    "other",
    [
        ws.WebBlocked("wall", provider="bing_html", detail_code="captcha_required"),
        ws.Timeout("slow", provider="bing_html", detail_code="deadline_exceeded"),
    ],
)
def test_no_such_hint_when_another_backend_was_reached(capsys, other):
    with fake_results({"ddg_html": _unresolved("ddg_html", "html.duckduckgo.com"), "bing_html": other}):
        main(["search", "q", "-b", "ddg_html,bing_html", "--retries", "0"])
    err = capsys.readouterr().err
    assert "could not resolve" in err and HINT not in err


def test_a_pdf_the_byte_cap_cut_says_which_flag_raises_it():
    # the library's hint, "raise max_bytes", names the Python argument; the command line said nothing
    error = ws.WebProviderError(
        "example.org served a PDF larger than the 5000-byte cap; a PDF cannot be read in part",
        provider="fetch",
        detail_code="response_too_large",
        hint="raise max_bytes",
    )
    assert cli_hint(error, None) == "raise --max-bytes"
    # a search answer over its cap, or a PDF that decodes to too much, has no hint: none is made up
    assert cli_hint(ws.WebProviderError("too large", provider="fetch", detail_code="response_too_large"), None) is None


def test_only_the_refusal_of_an_image_names_fetch_images():
    # unsupported_content carries three hints: ask for images, or install the pdf extra (a PDF
    # without pypdf) or Pillow (an animated WebP); the second and third said "fetch --images reads an image"
    from websearch_sync.errors import ASK_FOR_IMAGES

    def refusal(hint):
        return ws.WebProviderError("refused", provider="fetch", detail_code="unsupported_content", hint=hint)

    assert cli_hint(refusal(ASK_FOR_IMAGES), None) == "fetch --images reads an image (with --json, its base64 data)"
    assert cli_hint(refusal("install the pdf extra (pypdf)"), None) is None
    assert cli_hint(refusal("install the images extra (Pillow) to receive its first frame"), None) is None


def test_an_image_over_the_caps_keeps_its_hint_on_the_command_line():
    # every image_too_large hint was dropped: the byte cap's names the flag, the others are as they are
    def too_large(hint):
        return ws.WebProviderError("too large", provider="fetch", detail_code="image_too_large", hint=hint)

    assert [
        cli_hint(too_large(hint), None)
        for hint in (
            "raise max_bytes",
            "fetch a smaller rendition of the image",
            "install the images extra (Pillow) to downscale it",
        )
    ] == [
        "raise --max-bytes",
        "fetch a smaller rendition of the image",
        "install the images extra (Pillow) to downscale it",
    ]


def test_check_live_whose_every_query_did_not_resolve_says_what_to_check(capsys):
    """``check-live`` on a machine without network (a plugin author's first try of their backend) listed
    each query's ``dns_error`` and nothing on what to check, where ``search`` says it."""
    with fake_results({"ddg_html": _unresolved("ddg_html", "html.duckduckgo.com")}):
        assert main(["check-live", "ddg_html", "q", "r"]) == 1
    captured = capsys.readouterr()
    assert captured.out.endswith("2 queries, 2 failed\n")
    assert captured.err.startswith(HINT)


def test_check_live_with_a_query_that_reached_its_service_gives_no_such_hint(capsys):
    def answer(params):
        if params.query == "q":
            raise _unresolved("ddg_html", "html.duckduckgo.com")
        raise ws.Timeout("slow", provider="ddg_html", detail_code="read_timeout")

    with fake_results({"ddg_html": answer}):
        assert main(["check-live", "ddg_html", "q", "r", "--json"]) == 1
    assert HINT not in capsys.readouterr().err


def test_check_live_says_one_item_in_the_singular(capsys):
    with fake_results({"ddg_html": [{"title": "T", "url": "https://t.example/"}]}):
        assert main(["check-live", "ddg_html", "q"]) == 0
    assert capsys.readouterr().out.startswith("ok   ddg_html  success        1 item   structure not checked ")


def test_a_batch_whose_every_query_did_not_resolve_says_what_to_check(capsys, tmp_path):
    """One search said what to check; a batch of them (``--queries-file``, offline) ended with the
    summary alone, ``0 ok, 2 failed`` and the dns_error line, and no word of the connection."""
    queries = tmp_path / "queries.txt"
    queries.write_text("python requests\nrust async\n")
    answers = {"ddg_html": _unresolved("ddg_html", "html.duckduckgo.com"), "bing_html": _unresolved("bing_html", "b")}
    with fake_results(answers):
        assert main(["search", "--queries-file", str(queries), "-b", "ddg_html,bing_html"]) == 4
    lines = capsys.readouterr().err.splitlines()
    assert lines[-3:-1] == [
        "0 ok, 2 failed",
        "  2 failed: NetworkError/dns_error: could not resolve the host name: html.duckduckgo.com",
    ]
    assert lines[-1].startswith(HINT)


@pytest.mark.parametrize(
    "answered",
    [
        [{"title": "T", "url": "https://t.example/"}],
        ws.WebBlocked("wall", provider="ddg_html", detail_code="captcha_required"),
    ],
)
def test_no_such_hint_after_a_batch_that_reached_a_host(capsys, tmp_path, answered):
    queries = tmp_path / "queries.txt"
    queries.write_text("python requests\nrust async\n")
    answers = iter([_unresolved("ddg_html", "html.duckduckgo.com"), answered])

    def answer(params):
        given = next(answers)
        if isinstance(given, Exception):
            raise given
        return given

    with fake_results({"ddg_html": answer}):
        main(["search", "--queries-file", str(queries), "-b", "ddg_html", "--retries", "0"])
    err = capsys.readouterr().err
    assert "could not resolve" in err and HINT not in err
