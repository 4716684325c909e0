"""A newcomer's smaller frictions (issue 34.8): each message says what to do, once."""

import configparser
import functools
import http.server
import json
import re
import threading
from contextlib import closing
from importlib import metadata
from pathlib import Path

import pytest
from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.cli import build_parser
from websearch_sync.cli import main as cli_main
from websearch_sync.net.browser import browser_available
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.ssrf import static_resolver
from websearch_sync.net.transport import HttpTransport
from websearch_sync.reader.page import add_page_content, fetch_page

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("chosen", [[], ["-b", "stub"]])  # the default, or chosen (docs/cli.md says both)
def test_stub_results_are_announced_once_on_stderr(capsys, chosen):
    assert cli_main(["search", "python requests timeout", *chosen]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("1. python requests timeout")
    assert tool.OFFLINE_NOTE not in out and "from the web;" not in out  # stdout carries the results only
    assert err.count("from the web") == 1 and "offline stub backend" in err


@pytest.mark.parametrize("name", ["ddg", "duckduckgo", "DuckDuckGo"])
def test_an_informal_backend_name_suggests_the_engine_on_the_command_line(name, capsys):
    assert cli_main(["search", "q", "-b", name]) == 2
    assert "(did you mean ddg_html?)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("ddg", "ddg_html"),
        ("duckduckgo", "ddg_html"),
        ("brvae", "brave"),
        ("ddgg", "ddg_html"),  # a slip in the engine's short name, which a name's _html hid from the spelling match
        ("yaho", "yahoo_html"),
        ("bingg", "bing_html"),
    ],
)
def test_pythons_unknown_backend_error_suggests_like_the_command_line(name, meant):
    for call in (lambda: ws.search("q", backend=name), lambda: ws.SearchClient(name)):
        with pytest.raises(ws.InvalidInput) as info:
            call()
        assert info.value.detail_code == "unknown_backend"
        assert "(did you mean %s?)" % meant in str(info.value)


def test_an_unknown_backend_with_no_close_name_suggests_nothing():
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="zzzz")
    assert "did you mean" not in str(info.value)


NOT_INSTALLED = "no installed plugin registers it: a plugin's backend is known once its distribution is installed"


def test_an_unknown_backend_with_no_close_name_says_how_a_plugins_backend_becomes_known(capsys):
    """A plugin author who had not run ``pip install -e .`` (or ran the tests in another environment) read
    ``unknown backend 'acmesearch'; known backends: ...``: nothing on why their backend was not there."""
    for call in (lambda: ws.search("q", backend="acmesearch"), lambda: ws.Settings(backend="acmesearch")):
        with pytest.raises(ws.InvalidInput) as info:
            call()
        assert NOT_INSTALLED in str(info.value)
    assert cli_main(["verify", "--fixtures", str(ROOT / "fixtures"), "--backend", "acmesearch"]) == 2
    assert NOT_INSTALLED in capsys.readouterr().err
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="ddgg")
    assert NOT_INSTALLED not in str(info.value)  # a close name is the likelier slip


@pytest.mark.parametrize("value", ["maybe", "2", "enabled"])
def test_a_malformed_yes_no_variable_is_refused(monkeypatch, value, capsys):
    monkeypatch.setenv("WEB_FETCH_ALLOW_PRIVATE", value)
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings.from_env()
    assert info.value.detail_code == "bad_setting" and "WEB_FETCH_ALLOW_PRIVATE" in str(info.value)
    assert cli_main(["fetch", "https://example.com/"]) == 2
    assert "bad_setting" in capsys.readouterr().err


@pytest.mark.parametrize(("value", "allowed"), [("1", True), ("yes", True), ("ON", True), ("0", False), ("off", False)])
def test_yes_no_variables_take_the_usual_spellings(monkeypatch, value, allowed):
    monkeypatch.setenv("WEB_FETCH_ALLOW_PRIVATE", value)
    assert ws.Settings.from_env().allow_private is allowed


def test_a_language_name_is_not_a_wikipedia_edition(monkeypatch):
    monkeypatch.setenv("WIKIPEDIA_LANG", "english")
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="wikipedia")
    assert info.value.detail_code == "bad_setting" and "'english'" in str(info.value)
    monkeypatch.delenv("WIKIPEDIA_LANG")
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="wikipedia", wiki="english")
    assert info.value.detail_code == "bad_wiki"


@pytest.mark.parametrize("edition", ["en", "als", "simple", "zh-yue", "zh-min-nan", "be-tarask", "zh-classical"])
def test_wikipedia_edition_codes_are_accepted(edition):
    from websearch_sync.backends.wikipedia import Wikipedia

    assert Wikipedia(ws.Settings()).endpoint_url(None).startswith("https://en.")
    assert Wikipedia(ws.Settings(providers={"wikipedia": {"lang": edition}})).edition() == edition


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("example.com", "https://example.com/"),
        ("docs.python.org/3/", "https://docs.python.org/3/"),
        ("localhost:8000/x", "https://localhost:8000/x"),
        ("127.0.0.1:8000/x", "https://127.0.0.1:8000/x"),
        ("192.168.1.10", "https://192.168.1.10/"),
    ],
)
def test_a_url_typed_without_its_scheme_gets_one_suggested(typed, meant, capsys):
    assert cli_main(["fetch", typed]) == 2
    assert "(did you mean %r?)" % meant in capsys.readouterr().err


@pytest.mark.parametrize("typed", ["mailto:a@b.example", "ftp://files.example/", "not a url"])
def test_other_schemes_get_no_https_suggestion(typed):
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch(typed)
    assert info.value.detail_code == "bad_url" and "did you mean" not in str(info.value)


def test_help_lists_every_exit_status_main_returns():
    text = " ".join(build_parser().format_help().split())
    for status in ("0 ok", "2 invalid input", "5 other failure", "130 interrupted", "141 output pipe closed"):
        assert status in text


def test_the_langchain_extra_installs_what_the_agent_tools_example_imports():
    page = (ROOT / "docs" / "agent-tools.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"^```python\n(.*?)^```", page, re.S | re.M) if "langchain.tools()" in b)
    imported = re.findall(r"^from (langchain[\w.]*) import", block, re.M)
    assert "langchain.agents" in imported  # where create_agent comes from is shown
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    extra = {
        re.split(r"[<>=!~;\[ ]", line.strip())[0].lower().replace("_", "-")
        for line in config["options.extras_require"]["langchain"].strip().splitlines()
    }
    owners = metadata.packages_distributions()
    for module in imported:
        distributions = {name.lower().replace("_", "-") for name in owners[module.split(".")[0]]}
        assert distributions & extra, (module, distributions, extra)
    from langchain.agents import create_agent  # noqa: F401  (importable where the extra is installed)


def test_settings_repr_shows_only_settings(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "nosuchbackend")
    shown = repr(ws.Settings.from_env())
    assert "from_environment" not in shown and "env_backend_problem" not in shown
    assert shown.startswith("Settings(backend=None, timeout_ms=15000")


def test_include_content_failures_name_the_url_and_the_reason():
    transport = HttpTransport()
    with FaultServer({"/missing": respond(404, b"nope")}) as server:
        url = server.url("/missing")
        items = [{"title": "t", "url": url, "snippet": "s", "provider": "brave", "rank": 1}]
        errors = add_page_content(
            items,
            transport=transport,
            settings=ws.Settings(),
            deadline=Deadline(5000),
            resolver=static_resolver({}),
            trusted_networks=["127.0.0.1/32"],
        )
    transport.close()
    note = tool.format_results({"items": items, "errors": errors}).splitlines()[-1]
    assert note.startswith("Note: 1 page(s) could not be read for their content: %s (" % url)
    assert "%s/%s" % (errors[0]["type"], errors[0]["detail_code"]) in note
    assert "source(s) failed" not in tool.format_results({"items": items, "errors": errors})


@pytest.mark.parametrize("impersonate", ["chrome", "off"])
def test_https_to_a_plain_http_server_says_so(impersonate, tmp_path, capsys, fake_clock):
    """A local ``python -m http.server`` asked with https:// was "TLS failure with 127.0.0.1": no why."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            """No access log on the test's stderr."""

    handler = functools.partial(Quiet, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        url = "https://127.0.0.1:%d/" % server.server_address[1]
        if impersonate == "chrome" and not browser_available():
            pytest.skip("needs the browser extra (curl_cffi)")
        assert cli_main(["fetch", url, "--allow-private", "--impersonate", impersonate]) == 4
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    err = capsys.readouterr().err
    assert "NetworkError/tls_error: TLS failure with 127.0.0.1: it answered in plain HTTP, not TLS" in err


def test_record_names_the_body_by_a_content_type_header_of_any_spelling(tmp_path, monkeypatch):
    """Python's ``http.server`` sends ``Content-type``: the recorded page was ``<case>.bin``, not ``.html``."""
    from fixture_backends import PAGE_RESULTS, HtmlTestBackend, result_page

    from websearch_sync.engine.registry import register, unregister

    register(HtmlTestBackend)
    page = respond(200, result_page(PAGE_RESULTS), headers={"Content-type": "text/html"}, content_type=None)
    try:
        with FaultServer({"/html": page}) as server:
            monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTHTML", server.url("/html"))
            assert cli_main(["record", "testhtml", "rust async", "--fixtures", str(tmp_path), "--name", "case"]) == 0
    finally:
        unregister(HtmlTestBackend.name)
    assert sorted(path.name for path in (tmp_path / "testhtml").iterdir()) == [
        "case.expected.json",
        "case.html",
        "case.meta.json",
    ]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["search", "q", "-n", "0"], "error: InvalidInput/bad_max_results: -n must be in 1..50, got 0"),
        (["search", "q", "--timeout-ms", "0"], "error: InvalidInput/bad_timeout: --timeout-ms must be in 1..600000"),
        (["search", "q", "--retries", "11"], "error: InvalidInput/bad_retries: --retries must be in 0..10, got 11"),
        (["search", "q", "--cache-ttl", "-1"], "error: InvalidInput/bad_cache_ttl_s: --cache-ttl must be a number"),
        (["fetch", "https://a.example/", "--max-chars", "0"], "error: InvalidInput/bad_max_chars: --max-chars must be"),
        (["fetch", "https://a.example/", "--max-bytes", "0"], "error: InvalidInput/bad_max_bytes: --max-bytes must be"),
        (["fetch", "https://a.example/", "--mode", "html"], "error: InvalidInput/bad_extract_mode: --mode must be one of"),
        (["search", "q", "--site", "https://python.org/"], "hint: site_filter is --site on the command line"),
    ],
)  # fmt: skip
def test_a_refused_value_names_the_flag_it_came_from(argv, said, capsys):
    """The library's message names the Python argument (``max_results must be in 1..50``): the
    command line speaks its flag instead (``--mode``'s refusal said ``extract_mode must be one of``,
    its hint then naming ``--mode``), or, where the message names the argument elsewhere, says which
    of its flags that is."""
    assert cli_main(argv) == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith(said)


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://127.0.0.1:8000/", "refusing to fetch from 127.0.0.1, a loopback address"),
        ("http://[::1]:8000/", "refusing to fetch from ::1, a loopback address"),
        ("http://0x7f.1:8000/", "refusing to fetch from 0x7f.1: that is 127.0.0.1, a loopback address"),
        ("http://0.0.0.0/", "refusing to fetch from 0.0.0.0, an unspecified address"),
        ("http://[::]/", "refusing to fetch from ::, an unspecified address"),
        ("http://0/", "refusing to fetch from 0: that is 0.0.0.0, an unspecified address"),
    ],
)
def test_a_private_address_is_named_once(url, said):
    """``refusing to fetch from 127.0.0.1: that is 127.0.0.1, ...`` said the address twice; the
    kind of address reads as English (``0.0.0.0`` and ``::`` were "a unspecified address")."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch(url)
    assert info.value.detail_code == "private_address" and info.value.message == said


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("https://python.org/", "(a URL; its site is 'python.org'; expected a domain such as docs.python.org)"),
        ("https://docs.python.org/3/", "(a URL; its site is 'docs.python.org/3'; "),
        ("http://user@example.org:8080", "(a URL; its site is 'example.org:8080'; "),
        ("https://a..b.com/", "(a URL; expected "),  # no site to name: a..b.com is refused too
        ("https://x.org/a://b", "(a URL; its site is 'x.org/a://b'; "),  # a '://' in a path is a site's
        ("http://[::1/x", "(a URL; expected "),  # urlsplit's ValueError: no site to name
    ],
)
def test_a_url_given_as_the_site_filter_is_refused_naming_its_site(typed, said):
    """A newcomer copies the address bar into ``--site``/``site_filter``: the refusal names the
    site to give, only when that one would be taken."""
    with pytest.raises(ws.InvalidInput, match=re.escape("invalid site_filter: %r %s" % (typed, said))) as refused:
        ws.search("q", backend="stub", site_filter=typed)
    assert refused.value.detail_code == "bad_site_filter"


@pytest.mark.parametrize(
    "name",
    [
        *("api_key", "token", "apiKey", "brave_api_key", "client_secret"),
        *("brave_key", "bing_key", "serpapi_key", "subscription_key", "access_key", "secret_key", "XApiKey"),
        *("api_keys", "credentials", "auth", "authorization", "key"),
    ],
)
def test_a_key_given_to_search_says_where_keys_go(name):
    """``search(q, backend="brave", api_key=...)`` is a newcomer's guess: the refusal says a key is
    a backend's setting and how to give one, not only the search options. The second and third rows
    lost it when the hint stopped following the rule of what to hide (``brave_key``, ``XApiKey``,
    ``auth``: the names services and other libraries give their keys)."""
    with pytest.raises(TypeError) as refused:
        ws.search("q", backend="stub", **{name: "k"})
    assert str(refused.value).startswith(
        "search() got unexpected keyword argument(s) %s (a key is a backend's setting, not a search option: "
        "settings=Settings(providers={'brave': {'api_key': ...}}), for example, or the environment variable "
        "`websearch-sync backends` lists); known options: " % name
    )


@pytest.mark.parametrize(
    "name",
    [
        *("headers", "max_tokens", "session", "sort_key", "cookies", "signature", "hotkey", "_"),  # '_': no word
        *("primary_key", "foreign_key", "cache_key", "basic_auth_realm"),
    ],
)
def test_a_name_that_is_no_key_gets_no_key_hint(name):
    """The key hint used the rule of what to hide (``is_secret_name``): ``headers=``, ``max_tokens=``,
    ``session=``, ``sort_key=`` were told "a key is a backend's setting", which they are not."""
    with pytest.raises(TypeError) as refused:
        ws.search("q", backend="stub", **{name: "x"})
    assert str(refused.value).startswith("search() got unexpected keyword argument(s) %s" % name)
    assert "a key is a backend's setting" not in str(refused.value)


def _refused_by_responses() -> None:
    """A search inside ``responses`` with no mock registered for its request."""
    import responses

    with responses.RequestsMock(assert_all_requests_are_fired=False):
        ws.search("q", backend="ddg_html", settings=ws.Settings(), retries=0)


def _refused_by_requests_mock() -> None:
    """A search inside requests-mock with no mock registered for its request."""
    import requests_mock

    with requests_mock.Mocker():
        ws.search("q", backend="ddg_html", settings=ws.Settings(), retries=0)


def _refused_by_requests_mock_inside_responses() -> None:
    """requests-mock refusing while ``responses`` (an earlier fixture's) is active around it."""
    import responses

    with responses.RequestsMock(assert_all_requests_are_fired=False):
        _refused_by_requests_mock()


@pytest.mark.parametrize(
    ("search", "mock"),
    [
        (_refused_by_responses, "responses"),
        (_refused_by_requests_mock, "requests_mock"),
        (_refused_by_requests_mock_inside_responses, "requests_mock"),
    ],
)
def test_a_request_no_mock_answers_says_the_mock_refused_it(search, mock):
    """A test of one's own code with ``responses`` that forgot a mock read ``connection failed:
    html.duckduckgo.com``, as if the network had been tried; the mock's refusal (a bare
    ``ConnectionError`` of ``requests``, no socket under it) is said as such, by the mock that
    refused (not the one whose patch is outermost)."""
    with pytest.raises(ws.NetworkError) as failed:
        search()
    assert failed.value.detail_code == "connection_error"
    assert str(failed.value) == (
        "connection failed: html.duckduckgo.com (refused by %s, which patches requests: no mock is registered "
        "for this request)" % mock
    )


def test_a_connection_failure_a_test_registers_is_said_as_one():
    """The mock's refusal is told by its own words: a ``ConnectionError`` a test registers as the
    answer stays a failed connection."""
    import requests
    import responses

    with responses.RequestsMock() as mock:
        mock.add(responses.POST, "https://html.duckduckgo.com/html/", body=requests.ConnectionError("reset"))
        with pytest.raises(ws.NetworkError) as failed:
            ws.search("q", backend="ddg_html", settings=ws.Settings(), retries=0)
    assert str(failed.value) == "connection failed: html.duckduckgo.com"


def _links_misread_on_mojeeks_page():
    """The built-in Mojeek engine as a plugin reading its links wrong (``attribute(link, "hre")``),
    and the page Mojeek served (recorded): 10 results read, none with a URL."""
    from websearch_sync.backends import register
    from websearch_sync.backends.mojeek import MojeekHtml

    @register
    class LinksMisread(MojeekHtml):
        name = "links_misread"

        def items(self, markup, params):
            return [dict(item, url=None) for item in super().items(markup, params)]

    page = (ROOT / "fixtures" / "mojeek_html" / "web-search-mcp__mojeek.html").read_text(encoding="utf-8")
    return page, "text/html; charset=utf-8", "links_misread read 10 result(s)"


def _link_misread_by_a_parse():
    """A backend's own ``parse`` reading the vendor's ``link`` as nothing, on the answer
    docs/backends.md shows its demo API giving."""
    from websearch_sync.backends import Backend, ParseResult, RequestSpec, register

    @register
    class ParseMisread(Backend):
        name = "parse_misread"
        default_endpoint = "https://search.demo.example/api"

        def build_request(self, params):
            return RequestSpec("GET", self.endpoint_url(), params={"q": params.query})

        def parse(self, response, params):
            return ParseResult(items=[{"title": hit["name"], "url": hit.get("url")} for hit in response.json()["hits"]])

    backends_doc = (ROOT / "docs" / "backends.md").read_text(encoding="utf-8")
    answer = next(block for block in re.findall(r"```json\n(.*?)```", backends_doc, re.S) if '"hits"' in block)
    return answer, "application/json", "parse_misread read 2 result(s)"


def _links_left_relative_by_a_parse():
    """A backend's own ``parse`` of DuckDuckGo's page (recorded) taking each result's link as
    written, its redirect ``//duckduckgo.com/l/?uddg=...`` (no scheme): texts, none a URL to keep."""
    from bs4 import BeautifulSoup

    from websearch_sync.backends import Backend, ParseResult, RequestSpec, register

    @register
    class LinksAsWritten(Backend):
        name = "links_as_written"
        default_endpoint = "https://html.duckduckgo.com/html/"

        def build_request(self, params):
            return RequestSpec("POST", self.endpoint_url(), data={"q": params.query})

        def parse(self, response, params):
            links = BeautifulSoup(response.text, "html.parser").select("a.result__a")
            return ParseResult(items=[{"title": link.get_text(), "url": link["href"]} for link in links])

    page = (ROOT / "fixtures" / "ddg_html" / "lofi__1.html").read_text(encoding="utf-8")
    return page, "text/html; charset=utf-8", "links_as_written read 10 result(s)"


def _titles_renamed_in_wikipedias_answer():
    """Wikipedia's answer (recorded) with ``title``, which the article's URL is built from, renamed."""
    data = json.loads((ROOT / "fixtures" / "wikipedia" / "celina__wiki_search.json").read_text(encoding="utf-8"))
    for hit in data["query"]["search"]:
        hit["heading"] = hit.pop("title")
    return json.dumps(data), "application/json", "wikipedia read %d result(s)" % len(data["query"]["search"])


@pytest.mark.parametrize(
    "made",
    [
        _links_misread_on_mojeeks_page,
        _link_misread_by_a_parse,
        _links_left_relative_by_a_parse,
        _titles_renamed_in_wikipedias_answer,
    ],
)
def test_results_read_with_no_link_are_a_parse_error_not_no_results(made):
    """A parser mistake that loses every result's link, or leaves none usable (relative, a title a
    URL is built from renamed): normalisation dropped them all and the search answered 0 results,
    cached as a success. Read as the JSON engines' answer of that kind is: an unknown shape (not
    retried, the next backend of a chain asked)."""
    from websearch_sync.testing import MockResponse, MockWire

    body, kind, read = made()
    name = read.split()[0]
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": kind}, body))
    with ws.SearchClient(name, settings=ws.Settings(), wire=wire, retries=0) as client:
        with pytest.raises(ws.WebParseError) as failed:
            client.search("javascript tutorial")
    assert failed.value.detail_code == "unexpected_shape"
    assert str(failed.value) == read + (
        " from its answer, none with a usable address (an http(s) URL; an unknown shape, not 'no results')"
    )


def test_a_mocks_refusal_is_not_retried():
    """The refusal was ``connection_error``'s retryable: a user's test waited out two backoffs (2.5 s)
    for the same refusal three times. A mock with no answer for the request gives none on a retry
    (as ``network_blocked``, a test's blocked connection, is final too)."""
    import responses

    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        with pytest.raises(ws.NetworkError) as failed:
            ws.search("q", backend="ddg_html", settings=ws.Settings())
        assert len(mock.calls) == 1
    assert failed.value.retryable is False


def test_a_mocks_refusal_is_not_asked_again_at_the_hosts_next_address():
    """A fetch of a host with 3 addresses asked the mock 3 times: the next address was tried on any
    failed connection, the mock's refusal too (the same at every address)."""
    import responses

    addresses = ["93.184.215.14", "93.184.215.15", "93.184.215.16"]
    resolver = static_resolver({"docs.multi-address.org": addresses})
    with closing(HttpTransport()) as transport, responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        with pytest.raises(ws.NetworkError) as failed:
            fetch_page(
                "https://docs.multi-address.org/page", transport=transport, settings=ws.Settings(), resolver=resolver
            )
        assert len(mock.calls) == 1
    assert failed.value.retryable is False


@pytest.mark.parametrize("typed", ["stub;ddg_html", "stub ddg_html", "stub; ddg_html", "stub|ddg_html"])
def test_backends_listed_with_another_separator_than_a_comma_are_told_to_use_commas(typed, capsys, monkeypatch):
    """Before: 'did you mean ddg_html?', the closest single name, as if one backend were meant (the
    flag, the variable and Python alike)."""
    said = "(a list of backends is separated by commas: stub,ddg_html)"
    assert cli_main(["search", "q", "-b", typed]) == 2
    assert said in capsys.readouterr().err
    monkeypatch.setenv("WEB_SEARCH_BACKEND", typed)
    assert cli_main(["search", "q"]) == 2
    assert said in capsys.readouterr().err
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend=typed)
    assert said in info.value.message and "did you mean" not in info.value.message


def test_a_name_with_a_separator_whose_parts_are_not_all_backends_keeps_the_closest_name(capsys):
    assert cli_main(["search", "q", "-b", "stub;dgg"]) == 2
    err = capsys.readouterr().err
    assert "separated by commas" not in err and "(did you mean stub?)" in err
