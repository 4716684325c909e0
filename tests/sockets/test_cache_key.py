"""A cache never answers for someone else: the key holds everything that can change an answer,
secrets only as hashes, and arguments are validated before the cache is consulted."""

import json

import pytest
from faults import respond
from servers import FaultServer, json_results

import websearch_sync as ws

SECRET_A = "sk-tenant-A-0123456789"
SECRET_B = "sk-tenant-B-9876543210"


def tenant(server, route, key=SECRET_A, **extra):
    return ws.Settings(endpoints={"testjson": server.url(route)}, providers={"testjson": {"api_key": key}}, **extra)


def urls(response):
    return [item["url"] for item in response["items"]]


@pytest.fixture
def two_gateways():
    routes = {"/one": json_results("https://one.example/"), "/two": json_results("https://two.example/")}
    with FaultServer(routes) as server:
        yield server


def test_a_shared_file_does_not_serve_one_gateways_answer_to_another(testjson, two_gateways, tmp_path):
    db = str(tmp_path / "shared.sqlite3")
    with ws.SearchClient("testjson", settings=tenant(two_gateways, "/one"), cache_path=db) as first:
        assert urls(first.search("q")) == ["https://one.example/"]
    with ws.SearchClient("testjson", settings=tenant(two_gateways, "/two"), cache_path=db) as second:
        answer = second.search("q")
    assert urls(answer) == ["https://two.example/"] and answer["provider_meta"]["cached"] is False


def test_another_key_is_another_cache_entry(testjson, two_gateways, tmp_path):
    db = str(tmp_path / "shared.sqlite3")
    with ws.SearchClient("testjson", settings=tenant(two_gateways, "/one"), cache_path=db) as first:
        first.search("q")
    with ws.SearchClient("testjson", settings=tenant(two_gateways, "/one", key=SECRET_B), cache_path=db) as second:
        assert second.search("q")["provider_meta"]["cached"] is False
    with ws.SearchClient("testjson", settings=tenant(two_gateways, "/one"), cache_path=db) as again:
        assert again.search("q")["provider_meta"]["cached"] is True  # same configuration: the cache serves it
    assert len(two_gateways.requests) == 2


@pytest.mark.parametrize(
    "change",
    [{"proxy": "http://127.0.0.1:9"}, {"user_agent": "other/1"}, {"allow_private": True}, {"max_response_bytes": 1234}],
)
def test_every_shared_setting_that_shapes_an_answer_is_in_the_key(testjson, two_gateways, tmp_path, change):
    db = str(tmp_path / "shared.sqlite3")
    with ws.SearchClient("testjson", settings=tenant(two_gateways, "/one"), cache_path=db) as first:
        first.search("q")
    changed = tenant(two_gateways, "/one", **change)
    with ws.SearchClient("testjson", settings=changed, cache_path=db, retries=0) as second:
        try:
            assert second.search("q", timeout_ms=500)["provider_meta"]["cached"] is False
        except ws.WebSearchError:
            pass  # the changed setting made the call fail (the proxy): what matters is that the cache did not answer


def test_settings_of_other_backends_do_not_split_the_cache(testjson, two_gateways, tmp_path):
    db = str(tmp_path / "shared.sqlite3")
    with ws.SearchClient("testjson", settings=tenant(two_gateways, "/one"), cache_path=db) as first:
        first.search("q")
    other = tenant(two_gateways, "/one").replace(
        providers={"testjson": {"api_key": SECRET_A}, "brave": {"api_key": "brave-key-1"}}
    )
    with ws.SearchClient("testjson", settings=other, cache_path=db) as second:
        assert second.search("q")["provider_meta"]["cached"] is True


def test_secrets_are_never_stored(testjson, two_gateways, tmp_path):
    db = tmp_path / "shared.sqlite3"
    settings = tenant(two_gateways, "/one", proxy=None, fetch_service_key="fetch-secret-abcdef")
    with ws.SearchClient("testjson", settings=settings, cache_path=str(db)) as client:
        client.search("q")
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert SECRET_A.encode() not in stored and b"fetch-secret-abcdef" not in stored


PAGE = (
    b"<html><head><title>Intranet</title></head><body><article><h1>Intranet</h1>"
    + b"<p>Payroll figures of the quarter, visible only inside the company network. </p>" * 5
    + b"</article></body></html>"
)


def test_a_client_without_allow_private_never_reads_an_intranet_page_cached_by_one_with_it(tmp_path):
    db = str(tmp_path / "shared.sqlite3")
    with FaultServer({"/payroll": respond(200, PAGE)}) as server:
        url = server.url("/payroll")
        with ws.SearchClient(settings=ws.Settings(allow_private=True), cache_path=db) as trusted:
            assert "Payroll" in trusted.fetch(url)["text"]
        with ws.SearchClient(settings=ws.Settings(), cache_path=db) as untrusted:
            with pytest.raises(ws.InvalidInput) as info:
                untrusted.fetch(url)
    assert info.value.detail_code == "private_address"


def test_a_fetch_without_allow_private_never_reads_an_intranet_page_a_fetch_with_it_cached():
    """The call's own ``allow_private`` is in the fetch key (issue 33.22: a key without it survived
    the whole suite, an SSRF hole through the cache)."""
    with FaultServer({"/payroll": respond(200, PAGE)}) as server:
        url = server.url("/payroll")
        with ws.SearchClient(settings=ws.Settings()) as client:
            assert "Payroll" in client.fetch(url, allow_private=True)["text"]
            with pytest.raises(ws.InvalidInput) as info:
                client.fetch(url)
    assert info.value.detail_code == "private_address"
    assert len(server.requests) == 1


def test_the_fetch_service_is_in_the_fetch_key(tmp_path):
    db = str(tmp_path / "shared.sqlite3")
    with FaultServer({"/p": respond(200, PAGE)}) as server:
        with ws.SearchClient(settings=ws.Settings(allow_private=True), cache_path=db) as direct:
            direct.fetch(server.url("/p"))
        via_service = ws.Settings(allow_private=True, fetch_service_url="http://127.0.0.1:9/reader/")
        with ws.SearchClient(settings=via_service, cache_path=db) as other:
            other.fetch(server.url("/p"))
        assert len(server.requests) == 2  # the second client read the page itself, not the first one's answer


def test_credentials_in_a_url_are_part_of_the_fetch_key_as_sent():
    """A password is case-sensitive: a page read with one must not answer a fetch with another
    (the key once lower-cased the whole host part, user info included)."""
    with FaultServer({"/p": respond(200, PAGE)}) as server:
        right, wrong = (server.url("/p").replace("://", "://reader:%s@") % secret for secret in ("Secret", "secret"))
        with ws.SearchClient(settings=ws.Settings(allow_private=True)) as client:
            client.fetch(right)
            client.fetch(right + "#section")  # the fragment is never sent: the same page, from the cache
            client.fetch(wrong)
        assert len(server.requests) == 2


# -- validation comes first ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "good, bad",
    [
        ({"max_results": 1}, {"max_results": True}),
        ({"max_results": 3}, {"max_results": 3.0}),
        ({"include_content": False}, {"include_content": 0}),
    ],
)
def test_a_cached_answer_never_skips_validation(good, bad):
    with ws.SearchClient("stub", settings=ws.Settings()) as client:
        client.search("q", **good)
        assert bad == good  # equal values of another type: an old cache key could not tell them apart
        with pytest.raises(ws.InvalidInput):
            client.search("q", **bad)


@pytest.mark.parametrize(
    "good, bad",
    [
        ({"max_chars": 100}, {"max_chars": 100.0}),
        ({"max_chars": 1}, {"max_chars": True}),
        ({"max_bytes": 5_000_000}, {"max_bytes": 5_000_000.0}),
    ],
)
def test_a_cached_page_never_skips_validation(good, bad):
    with FaultServer({"/p": respond(200, PAGE)}) as server:
        with ws.SearchClient(settings=ws.Settings(allow_private=True)) as client:
            client.fetch(server.url("/p"), **good)
            with pytest.raises(ws.InvalidInput):
                client.fetch(server.url("/p"), **bad)


def test_a_cached_answer_is_keyed_on_the_validated_call():
    with ws.SearchClient("stub", settings=ws.Settings(max_results=2)) as client:
        client.search("  q  ")
        hit = client.search("q", max_results=2)
    assert hit["provider_meta"]["cached"] is True


def test_stored_keys_are_json_with_no_secret(testjson, two_gateways, tmp_path):
    import sqlite3

    db = str(tmp_path / "shared.sqlite3")
    with ws.SearchClient("testjson", settings=tenant(two_gateways, "/one"), cache_path=db) as client:
        client.search("q")
    keys = [row[0] for row in sqlite3.connect(db).execute("SELECT key FROM results")]
    assert len(keys) == 1 and SECRET_A not in keys[0]
    assert json.loads(keys[0])[0] == "search" and '"q"' in keys[0]
