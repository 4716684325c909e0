"""SearXNG as it really runs (issue 33, point 14): the instance reads syntax in the query itself.
A ``!!bang`` makes it answer with a redirect to another site's search, which must never be
followed from the user's own address; a ``<N`` time limit in the query wins over
``timeout_limit`` and must not outlast the call's deadline. The fake instance
(tests/fake_searxng.py) answers ``!!g`` with the 302 ``searx/webapp.py`` sends and reads ``<N``
as ``searx/query.py`` does."""

import pytest
from clocks import FakeClock, paced_budget_s
from fake_searxng import Engine, FakeSearXNG
from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.backends.searxng_query import has_external_bang, unreadable_time_limit, within_deadline


def client(sx, **settings):
    return ws.SearchClient(
        settings=ws.Settings(providers={"searxng": {"base_url": sx.url}}, **settings),
        clock=FakeClock(),
        retries=2,
        cache_ttl_s=0,
    )


def test_an_external_bang_is_refused_not_followed_to_the_other_site():
    """Before: the library followed the instance's 302 and sent the query to the other site."""
    with FaultServer({"*": respond(200, b"<html>a search engine's results page</html>")}) as site:
        third_party = site.url("/search?q=").replace("127.0.0.1", "localhost")
        with FakeSearXNG([Engine("google")], bang_site=third_party) as sx:
            with pytest.raises(ws.WebProviderError) as info:
                client(sx, allow_private=True).search("!!g privacy", backend="searxng")
            assert len(sx.searches) == 1  # not retried
        assert site.requests == []
    error = info.value
    assert (error.detail_code, error.retryable) == ("offsite_redirect", False)
    assert "localhost" in error.message and "!!" in error.message
    assert "privacy" not in error.message  # the redirect's query is not repeated


@pytest.mark.parametrize("origin", ["http://localhost", "\\\\localhost"], ids=["url", "backslashes"])
def test_a_redirect_to_a_login_site_without_a_bang_in_the_query_blames_the_proxy_not_a_bang(origin):
    """An SSO proxy in front of the instance (oauth2-proxy, Authelia) sends API clients to its login
    host: before, the message told the user to drop a `!!` word the query never had. A browser reads
    ``\\\\host/path`` as ``//host/path``: a plain ``urljoin`` put it on the instance's own host."""
    with FaultServer({"*": respond(200, b"<html>sign in</html>")}) as login:
        login_page = login.url("/oauth2/start?rd=/search").replace("http://127.0.0.1", origin)
        with FakeSearXNG([Engine("google")]) as sx:
            sx.server.routes["/search"] = respond(302, b"", {"Location": login_page})
            with pytest.raises(ws.WebProviderError) as info:
                client(sx, allow_private=True).search("privacy", backend="searxng")
        assert login.requests == []
    error = info.value
    assert (error.detail_code, error.retryable) == ("offsite_redirect", False)
    assert "no external bang" in error.message and "SEARXNG_API_KEY" in error.message
    assert "drop the `!!` word" not in error.message


def test_a_redirect_on_the_instances_own_host_names_the_setting_to_fix():
    """http to https, a moved /search: not followed either; the message says where to point the base URL."""
    with FakeSearXNG([Engine("google")]) as sx:
        sx.server.routes["/old/search"] = respond(301, b"", {"Location": "/new/search?q=q&format=json"})
        c = ws.SearchClient(settings=ws.Settings(providers={"searxng": {"base_url": sx.server.url("/old")}}), retries=0)
        with pytest.raises(ws.WebProviderError) as info:
            c.search("q", backend="searxng")
        assert sx.searches == []
    assert info.value.detail_code == "http_301"
    assert "/new/search" in info.value.message and "SEARXNG_BASE_URL" in info.value.message


@pytest.mark.parametrize("word, seconds", [("<30", 30.0), ("<9000", 9.0)])
def test_a_time_limit_in_the_query_cannot_outlast_the_deadline(word, seconds):
    """Before: ``<30`` in the query won over timeout_limit, so the instance waited 4 s for its slow
    engine past the call's deadline (a Timeout); now the word is taken out and the limit capped.
    The deadline: a second on an idle machine (the instance waits most of it), more on a slower one."""
    budget_s = paced_budget_s(1.0)
    engines = [Engine("google"), Engine("qwant", delay_s=4.0 * budget_s)]
    with FakeSearXNG(engines, request_timeout_s=10.0 * budget_s) as sx:
        result = client(sx).search(  # one page: the fake instance answers every page alike
            "rust %s async" % word, backend="searxng", timeout_ms=int(budget_s * 1000), max_pages=1
        )
        [sent] = sx.searches
    assert sent["q"] == "rust async"
    assert float(sent["timeout_limit"]) < budget_s
    assert [(e["engine"], e["detail_code"]) for e in result["errors"]] == [("qwant", "engine_timeout")]
    assert within_deadline("rust %s async" % word, 100.0) == ("rust async", seconds)


@pytest.mark.parametrize(
    "query, limit, expected",
    [
        ("rust <2 async", 5.0, ("rust async", 2.0)),  # a shorter limit is the user's to ask
        ("rust <850", 5.0, ("rust", 0.85)),
        ("a <3 b <1", 5.0, ("a b", 1.0)),  # the last one is the instance's
        ("a<3 <x < <²", 5.0, ("a<3 <x < <²", 5.0)),  # not a time limit: words of the query
        ("rust <٣", 5.0, ("rust", 3.0)),  # any decimal digits, as int() reads them
        ("!go :de rust", 5.0, ("!go :de rust", 5.0)),
        ("rust x30", 5.0, ("rust x30", 5.0)),  # digits after another character than "<": a word
        ("rust <30", 5.0, ("rust", 5.0)),  # a longer limit than the call's: the call's
        ("a <99", 200.0, ("a", 99.0)),  # under 100: seconds
        ("a <100", 200.0, ("a", 0.1)),  # from 100 on: milliseconds
    ],
)
def test_time_limit_words(query, limit, expected):
    assert within_deadline(query, limit) == expected


@pytest.mark.parametrize(
    ("query", "unreadable"),
    [("rust <\u00b2", "<\u00b2"), ("rust x\u00b2", None), ("rust <2", None), ("rust <\u0663", None)],
)
def test_a_time_limit_of_digits_the_instance_cannot_read_is_found(query, unreadable):
    """``<²``: ``isdigit`` but not decimal, so the instance's ``int`` fails (HTTP 500); ``x²`` is no time limit."""
    assert unreadable_time_limit(query) == unreadable


@pytest.mark.parametrize(("query", "bang"), [("rust !!g", True), ("rust !!", False), ("rust !g", False)])
def test_an_external_bang_is_two_marks_and_a_name(query, bang):
    assert has_external_bang(query) is bang
