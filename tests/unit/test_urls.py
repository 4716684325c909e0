"""The URL rules (websearch_sync.net.urls): the result form, the request form, and the keys
that say when two URLs are one page."""

from urllib.parse import urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_examples import examples

import websearch_sync as ws
from websearch_sync.client.fusion import fuse
from websearch_sync.engine.normalize import normalize_items
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.hops import RedirectPolicy
from websearch_sync.net.ssrf import AddressGuard
from websearch_sync.net.urls import (
    MAX_URL_CHARS,
    bounded_request_url,
    browser_join,
    browser_target,
    dedupe_key,
    host_in,
    http_url,
    page_key,
    request_url,
    result_url,
    same_origin,
    shown_url,
    url_parts,
)

# -- result form -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, shown",
    [
        (" https://ok.example/a?b=c ", "https://ok.example/a?b=c"),  # stripped
        ("HTTP://Ok.Example/X", "http://Ok.Example/X"),  # the scheme is lower-cased, nothing else
        ("https://ok.example/a b?q=c d#e f", "https://ok.example/a%20b?q=c%20d#e%20f"),  # as a browser sends it
        ("http://[::1]:8080/", "http://[::1]:8080/"),
        ("HTTPS://ok.example?q=a b", "https://ok.example?q=a%20b"),  # the host ends at "?" too
        # tag characters after the host (an emoji flag that a parser unquoted) are encoded, as a browser sends them
        ("https://ok.example/\U0001f3f4\U000e0067\U000e007f", "https://ok.example/\U0001f3f4%F3%A0%81%A7%F3%A0%81%BF"),
        ("https://ok.example?q=\U000e0041 b#\U000e0042", "https://ok.example?q=%F3%A0%81%81%20b#%F3%A0%81%82"),
        # a backslash before the query is the slash a browser reads (urlsplit read the host after an "@" past it)
        ("https://evil.example\\@ok.example/x", "https://evil.example/@ok.example/x"),
        ("https://ok.example\\docs\\a.html?q=a\\b#c\\d", "https://ok.example/docs/a.html?q=a\\b#c\\d"),
        # user info is left out: the host is after the last "@", where a browser goes ("@" after the host stays)
        ("https://www.paypal.com@evil.example/", "https://evil.example/"),
        ("https://a@b@evil.example:8443?q=@x", "https://evil.example:8443?q=@x"),
        ("https://evil.example/@www.paypal.com", "https://evil.example/@www.paypal.com"),
        ("https://evil.example#@www.paypal.com", "https://evil.example#@www.paypal.com"),
    ],
)
def test_the_result_form_is_the_engines_url_made_usable(raw, shown):
    assert result_url(raw) == shown


@pytest.mark.parametrize(
    "raw",
    [
        None,
        42,
        "",
        "https://",
        "//proto.relative/x",
        "/relative/path",
        "ftp://files.example/",
        "javascript:alert(1)",
        "https://exa mple.com/",  # a space in the host
        "https://ok.example/a\tb",  # whitespace other than a space
        "https://ok.example/\u200bx",  # an invisible character
        "https://ok.example/\ufeffx",
        "https://ok.example/\ud800",  # a lone surrogate
        "https://ok.example/a\x00b",
        "https://ok.example/a\nb",
        "https://ok.\U000e0041example/",  # a tag character in the host
        "https://exa mple.com",  # a space in a host with nothing after it
        "h\u200bttps://ok.example/",
        "http://[::1",  # an invalid IPv6 literal
        "http://ok.example:0/",
        "http://ok.example:99999/",
    ],
)
def test_what_is_not_an_http_url_with_a_host_is_no_result_url(raw):
    assert result_url(raw) is None


# -- dedupe key ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "one, other",
    [
        ("https://www.Example.com/a/?utm_source=x&id=1#frag", "http://example.com/a?id=1&fbclid=abc"),
        ("https://example.com/a?gclid=1&msclkid=2&utm_medium=m", "https://example.com/a"),
        ("https://EXAMPLE.com", "https://example.com/"),
    ],
)
def test_the_dedupe_key_ignores_what_does_not_change_the_page(one, other):
    assert dedupe_key(one) == dedupe_key(other)


@pytest.mark.parametrize(
    "one, other",
    [
        ("https://example.com/a", "https://example.com/b"),
        ("https://example.com/a?id=1", "https://example.com/a?id=2"),
        ("https://example.com:8443/a", "https://example.com/a"),
        ("https://www2.example.com/a", "https://example.com/a"),  # only a leading "www." is dropped
        ("https://example.com/A", "https://example.com/a"),  # a path is case-sensitive
    ],
)
def test_the_dedupe_key_keeps_what_does(one, other):
    assert dedupe_key(one) != dedupe_key(other)


def test_duplicates_in_one_list_and_across_engines_follow_the_same_key():
    one, other = "https://www.example.com/a/", "http://example.com/a#top"
    items = normalize_items([{"title": "1", "url": one}, {"title": "2", "url": other}], "p", 10)
    assert [item["url"] for item in items] == [one]
    fused = fuse([("a", [{"title": "1", "url": one}]), ("b", [{"title": "2", "url": other}])])
    assert [(item["url"], item["providers"]) for item in fused] == [(one, ["a", "b"])]


def test_a_malformed_url_has_no_dedupe_key():
    with pytest.raises(ValueError):
        dedupe_key("http://[::1")


# -- request form and page key ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, sent",
    [
        ("HTTP://Example.COM#x", "http://example.com/#x"),
        ("https://BÜCHER.de/ä ö?x=ü", "https://xn--bcher-kva.de/%C3%A4%20%C3%B6?x=%C3%BC"),
        ("  https://example.com/%7Efoo  ", "https://example.com/~foo"),
    ],
)
def test_the_request_form_is_what_requests_sends(raw, sent):
    assert request_url(raw) == sent


@pytest.mark.parametrize(
    "raw",
    [
        5,
        "",
        "   ",
        "https://example.com/" + "a" * MAX_URL_CHARS,
        "https://example.com/a\x00b",
        "ftp://example.com/",
        "example.com/page",
        "http:///path",
        "http://example.com\\path",  # host "example.com\\path" to urlsplit, path "/%5Cpath" to requests
        "http://example.com/a\\b?q",
        "http://[::1",
        "http://example.com:99999/",
        "http://4294967296/",  # a numeric host out of range
    ],
)
def test_what_fetch_cannot_send_is_bad_url(raw):
    with pytest.raises(ws.InvalidInput) as info:
        request_url(raw)
    assert info.value.detail_code == "bad_url"


def test_a_url_refused_for_its_length_is_a_public_error():
    """``UrlTooLong`` was defined in the internal ``net.urls``: no public module exported it, and its
    ``repr`` (and a pickle) named that module. It is an ``InvalidInput`` (``bad_url``) a caller catches
    by its public name."""
    with pytest.raises(ws.UrlTooLong) as info:
        ws.fetch("https://example.com/" + "a" * MAX_URL_CHARS)
    error = info.value
    assert type(error) is ws.errors.UrlTooLong and type(error).__module__ == "websearch_sync.errors"
    assert isinstance(error, ws.InvalidInput) and error.to_dict()["type"] == "InvalidInput"
    assert error.detail_code == "bad_url" and repr(error).startswith("UrlTooLong('url is 8212 characters long")


class _Text(str):
    """A ``str`` subclass: request_url checks it every time instead of from its memo."""


@pytest.mark.parametrize("form", [str, _Text, lambda raw: " " * MAX_URL_CHARS + raw])
def test_the_request_form_is_the_same_remembered_or_not(form):
    # a plain str within the length limit comes from the memo; a subclass or a longer text is worked out each time
    for raw, sent in [
        ("HTTP://Example.COM#x", "http://example.com/#x"),
        ("https://BÜCHER.de/ä", "https://xn--bcher-kva.de/%C3%A4"),
    ]:
        assert [request_url(form(raw)) for _ in range(2)] == [sent, sent]


def test_a_refused_url_is_refused_each_time_with_its_own_error():
    errors = []
    for _ in range(2):
        with pytest.raises(ws.InvalidInput) as info:
            request_url("ftp://example.com/")
        errors.append(info.value)
    assert errors[0] is not errors[1]
    assert [error.detail_code for error in errors] == ["bad_url", "bad_url"]


def test_the_page_key_drops_only_the_fragment():
    assert page_key("https://reader:Secret@example.com/a?q=1#part") == "https://reader:Secret@example.com/a?q=1"
    assert page_key("https://example.com/a") == "https://example.com/a"


def test_a_search_redirect_target_is_checked_not_rewritten():
    assert http_url("HTTPS://Example.com/a b") == "HTTPS://Example.com/a b"
    with pytest.raises(ws.InvalidInput):
        http_url("ftp://example.com/")
    with pytest.raises(ValueError):
        http_url("http://example.com:99999/")


# -- shown in messages --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url, shown",
    [
        ("https://user:Secret@example.com:8443/a/b?api_key=k#frag", "https://example.com:8443/a/b"),
        ("redis://:pw@[::1]:6379/0?password=x", "redis://[::1]:6379/0"),
        ("https://example.com/" + "p" * 100, "https://example.com/" + "p" * 76 + "..."),
        ("http://[::1", "<unparsable URL>"),
    ],
)
def test_a_url_in_a_message_carries_no_credentials(url, shown):
    assert shown_url(url) == shown


# -- comparisons ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target, keeps",
    [
        ("https://Example.com/other", True),  # same scheme, host (any case) and port
        ("https://example.com:8443/x", False),  # another port
        ("http://example.com/x", False),  # a downgrade
        ("https://example.com.evil.test/", False),
        ("https://sub.example.com/", False),
    ],
)
def test_credentials_go_along_to_the_same_origin_only(target, keeps):
    assert same_origin(urlsplit("https://example.com/start"), urlsplit(target)) is keeps


def test_an_upgrade_to_https_on_the_default_ports_keeps_the_origin():
    assert same_origin(urlsplit("http://example.com/"), urlsplit("https://example.com/"))
    assert not same_origin(urlsplit("http://example.com:8080/"), urlsplit("https://example.com/"))
    assert not same_origin(urlsplit("http://example.com/"), urlsplit("https://example.com/"), upgrade=False)


@pytest.mark.parametrize(
    "target",
    [
        "https://EXAMPLE.com/x",  # a host in capitals
        "https://example.com:443/x",  # the scheme's default port, written
        "HTTPS://example.com/x",  # a scheme in capitals
    ],
)
def test_an_origin_written_another_way_is_the_same_origin(target):
    assert same_origin(urlsplit("https://example.com/"), urlsplit(target), upgrade=False)


def test_a_trailing_dot_makes_another_origin():
    """``api.test.`` is not ``api.test`` to a browser, and the two can resolve to different hosts
    (``searx`` under DNS search domains, a short name under Kubernetes' ``ndots:5``): a redirect's
    credentials do not go along, a page's form does not post there."""
    assert not same_origin(urlsplit("https://api.test/"), urlsplit("https://api.test./x"))
    assert not same_origin(urlsplit("https://api.test./"), urlsplit("https://api.test/x"), upgrade=False)
    assert same_origin(urlsplit("https://api.test./"), urlsplit("https://API.test./x"))


def test_an_idn_host_is_the_same_origin_as_its_punycode():
    assert same_origin(urlsplit("https://xn--bcher-kva.example/"), urlsplit("https://bücher.example/x"))
    assert not same_origin(urlsplit("https://bucher.example/"), urlsplit("https://bücher.example/x"))


@pytest.mark.parametrize(
    "start, target",
    [
        (
            "https://strasse.de/",
            "https://stra\u00dfe.de/x",
        ),  # IDNA 2003 mapped \u00df to ss: xn--strae-oqa.de is another domain
        (
            "https://\u03c3\u03bf\u03c6\u03b9\u03b1.gr/",
            "https://\u03c2\u03bf\u03c6\u03b9\u03b1.gr/x",
        ),  # and final sigma to sigma
    ],
)
def test_hosts_the_host_name_rule_tells_apart_are_other_origins(start, target):
    """Credentials went along from ``strasse.de`` to ``straße.de`` (Python's IDNA 2003 codec read both
    as ``strasse.de``), a domain its owner need not hold: the host-name rule, a browser's, keeps ``ß``."""
    assert not same_origin(urlsplit(start), urlsplit(target))
    assert not same_origin(urlsplit(target), urlsplit(start), upgrade=False)


def test_a_host_the_host_name_rule_refuses_is_on_no_origin():
    assert not same_origin(urlsplit("https://a..b.example/"), urlsplit("https://a..b.example/x"))


@pytest.mark.parametrize("target", ["javascript:next()", "data:text/html,x", "https://example.com:99999/"])
def test_a_url_without_an_http_origin_is_on_no_origin(target):
    assert not same_origin(urlsplit("https://example.com/"), urlsplit(target))


@pytest.mark.parametrize(
    "url, inside",
    [
        ("https://baidu.com/s", True),
        ("https://WAPPASS.Baidu.com/static/captcha", True),
        ("https://notbaidu.com/", False),  # a whole label must match
        ("https://baidu.com.evil.test/", False),
        ("http://[::1", False),
    ],
)
def test_a_url_is_on_a_site_when_its_host_is_the_domain_or_below_it(url, inside):
    assert host_in(url, "baidu.com") is inside


def test_a_link_in_markup_is_parsed_without_raising():
    parts, host = url_parts("https://WWW.Example.com:8443/a?b=c")
    assert (host, parts.port, parts.path, parts.query) == ("www.example.com", 8443, "/a", "b=c")
    assert url_parts("http://[::1") is None


@pytest.mark.parametrize(
    "url, result, key",
    [
        ("http://user:pw@example.com/a/", "http://example.com/a/", "//example.com/a"),
        ("http://user:pw@example.com:8080/a", "http://example.com:8080/a", "//example.com:8080/a"),
        ("http://user:pw@example.com:0/a", None, None),
        ("http://user@example.com:/a", "http://example.com:/a", "//example.com/a"),
        ("http://[::1]:8080/a", "http://[::1]:8080/a", "//::1:8080/a"),
        ("http://[::1]/a", "http://[::1]/a", "//::1/a"),
        ("http://example.com:99999/a", None, None),
    ],
)
def test_a_port_is_read_after_the_userinfo_only(url, result, key):
    """A ``:`` in the userinfo is no port; a port after the host counts (0 or out of range: no URL). The
    result form leaves the user info out."""
    assert result_url(url) == result
    if result is not None:
        assert dedupe_key(result) == key


class _RecordingGuard(AddressGuard):
    """The address guard (private addresses let through), noting each host it checks."""

    def __init__(self):
        super().__init__(allow_private=True)
        self.checked = []

    def check(self, host, port, deadline, provider=None):
        self.checked.append(host)
        return super().check(host, port, deadline, provider)


@pytest.mark.parametrize("canonical", [http_url, request_url], ids=["search", "fetch"])
@pytest.mark.parametrize(
    "location",
    [
        "http:/\t/10.0.0.1/x",
        "http:/\n/10.0.0.1/x",
        "http://10.0.0.1\r/x",
        "\x00 http://10.0.0.1/x\t\x0c ",
        "h\tttp://10.0.0.1/x",
        "http:/10.0.0.1/x",
        "http:10.0.0.1/x",
        "http:\\10.0.0.1\\x",
    ],
)
def test_a_redirect_target_is_sent_as_it_is_checked(location, canonical):
    """WHATWG drops tab, CR and LF anywhere and C0 controls and spaces at the ends before reading a
    URL: from an https page to an http URL (``urljoin`` keeps another scheme's URL as written) the
    hop's URL carries none of them, and its host is the one the guard checked. And it reads
    ``http:`` on an https page as the start of a host however many slashes follow (one, none,
    backslashes): ``urljoin`` read a path without a host (``bad_redirect``)."""
    guard = _RecordingGuard()
    policy = RedirectPolicy("https://start.test/a", guard, provider=None, canonical=canonical)
    hop = policy.follow("https://start.test/a", location, Deadline(10_000))
    assert (hop.url, guard.checked) == ("http://10.0.0.1/x", ["10.0.0.1"])


@pytest.mark.parametrize("location", ["http:/\t/10.0.0.1/", "http:/10.0.0.1/x"])
def test_a_redirect_target_is_refused_as_the_private_address_it_names(location):
    policy = RedirectPolicy("https://start.test/a", AddressGuard(), provider=None, canonical=request_url)
    with pytest.raises(ws.InvalidInput) as refused:
        policy.follow("https://start.test/a", location, Deadline(10_000))
    assert refused.value.detail_code == "private_address"


@pytest.mark.parametrize(
    "location, url",
    [("c", "http://10.0.0.2/web/1/https://site.test/a/c"), ("../c", "http://10.0.0.2/web/1/https://site.test/c")],
)
def test_a_relative_target_keeps_the_empty_segments_of_the_page_path(location, url):
    """A browser keeps the ``//`` of the page's path (an archived copy's) when it resolves a
    relative redirect; ``urljoin`` dropped it (``/web/1/https:/site.test/a/c``, no such page)."""
    guard = _RecordingGuard()
    page = "http://10.0.0.2/web/1/https://site.test/a/b"
    policy = RedirectPolicy(page, guard, provider=None, canonical=request_url)
    assert policy.follow(page, location, Deadline(10_000)).url == url


@pytest.mark.parametrize("location, url", [("http:/x", "http://10.0.0.2/x"), ("http:x", "http://10.0.0.2/a/x")])
def test_the_pages_own_scheme_without_two_slashes_is_a_path_on_the_page(location, url):
    """The page's own scheme there starts a relative reference (WHATWG's "special relative or
    authority" state): ``http:/x`` on an http page is ``/x`` on that page's host."""
    guard = _RecordingGuard()
    policy = RedirectPolicy("http://10.0.0.2/a/b", guard, provider=None, canonical=request_url)
    hop = policy.follow("http://10.0.0.2/a/b", location, Deadline(10_000))
    assert (hop.url, guard.checked) == (url, ["10.0.0.2"])


@pytest.mark.parametrize(
    "base, location, url",  # each url as node's WHATWG URL (new URL(location, base).href) gives it
    [
        ("http://h.example/a/b?q=1#f", "/x/%2e%2e/y", "http://h.example/y"),
        ("http://h.example/a/b?q=1#f", "/x/.%2E/y", "http://h.example/y"),
        ("http://h.example/a/b?q=1#f", "http://o.example/a/../b", "http://o.example/b"),
        ("http://h.example/a/b?q=1#f", "//o.example/a/%2e%2e/b", "http://o.example/b"),
        ("http://h.example/a/b", "http://h.example/a/b/../../..", "http://h.example/"),
        ("http://h.example/a/b", "https:o.example/a/./b", "https://o.example/a/b"),
        ("http://h.example/%2e%2e/b", "?x", "http://h.example/b?x"),
    ],
)
def test_every_http_target_has_its_dot_segments_resolved(base, location, url):
    """Only a relative path's were: an absolute path's percent-encoded ones (``urljoin`` resolves
    ``..`` alone) and another URL's all stayed, where a browser resolves them."""
    assert browser_join(base, location) == url


@pytest.mark.parametrize(
    "location, read", [("file:///etc/passwd", "file:///etc/passwd"), ("file:\\\\x\\y", "file://x/y")]
)
def test_a_file_target_keeps_its_slashes(location, read):
    """``file:`` is no host after a run of slashes (``file:///x`` has an empty host, WHATWG's file
    state): it was read as ``file://x``, host ``x``; refused as a hop either way."""
    assert browser_target(location, "https") == read


@pytest.mark.parametrize(
    "location, port", [("https://docs.test/x", 443), ("http://docs.test/x", 80), ("https://docs.test:8443/x", 8443)]
)
def test_a_hop_is_checked_at_the_port_it_connects_to(location, port):
    """The guard resolves a hop's host for the port the hop connects to: its own, else its scheme's."""
    asked = []

    def resolver(host, port, timeout_s):
        asked.append((host, port))
        return ["93.184.216.34"]

    policy = RedirectPolicy("https://start.test/a", AddressGuard(resolver=resolver), provider=None)
    policy.follow("https://start.test/a", location, Deadline(10_000))
    assert asked == [("docs.test", port)]


@pytest.mark.parametrize(
    "location, named",
    [
        ("file:///etc/passwd", "start.test redirected to a file: address that cannot be followed"),
        ("http://[::1", "start.test redirected to an address that cannot be followed"),
    ],
)
def test_a_target_that_cannot_be_followed_is_named_by_its_scheme_or_not_at_all(location, named):
    """A target the page chose is named by its scheme (``file:``), never by its path (``etc``), and
    one that cannot be read at all is not named after the page that sent it."""
    policy = RedirectPolicy("https://start.test/a", _RecordingGuard(), provider=None)
    with pytest.raises(ws.WebProviderError) as refused:
        policy.follow("https://start.test/a", location, Deadline(10_000))
    assert refused.value.detail_code == "bad_redirect" and refused.value.message.startswith(named)


def test_a_target_too_long_to_send_is_refused_saying_so():
    """A fetch's target over the longest URL it sends (:data:`MAX_URL_CHARS`, which a browser would
    still follow) was refused as "not an http(s) URL with a valid host", which it is."""
    policy = RedirectPolicy("https://start.test/a", _RecordingGuard(), provider=None, canonical=request_url)
    with pytest.raises(ws.WebProviderError) as refused:
        policy.follow("https://start.test/a", "/" + "a" * MAX_URL_CHARS, Deadline(10_000))
    assert refused.value.detail_code == "bad_redirect"
    assert refused.value.message == (
        "start.test redirected to an address on start.test that cannot be followed (over %d characters, the"
        " longest URL fetch sends)" % MAX_URL_CHARS
    )


def test_a_fetchs_target_too_long_once_percent_encoded_is_refused_as_too_long():
    """8,100 emoji are 8 KB as written, a 97 KB request: the page chose it, and the fetch's final_url
    gave a model 195,000 characters for a max_chars of 10."""
    policy = RedirectPolicy("https://start.test/a", _RecordingGuard(), provider=None, canonical=bounded_request_url)
    with pytest.raises(ws.WebProviderError) as refused:
        policy.follow("https://start.test/a", "/" + "\U0001f600" * 8100, Deadline(10_000))
    assert refused.value.detail_code == "bad_redirect"
    assert refused.value.message.endswith("(over %d characters, the longest URL fetch sends)" % MAX_URL_CHARS)
    at_the_limit = "https://start.test/" + "%F0%9F%98%80" * ((MAX_URL_CHARS - len("https://start.test/")) // 12)
    assert bounded_request_url(at_the_limit) == at_the_limit  # sent as it is: within the limit


@pytest.mark.parametrize("canonical", [request_url, http_url])
@pytest.mark.parametrize(
    "location, named",
    [
        ("ftp://files.test/" + "a" * MAX_URL_CHARS, "a ftp: address"),
        ("http://a..b.test/" + "a" * MAX_URL_CHARS, "an address"),  # a host name the rule refuses
        ("http://[::1/" + "a" * MAX_URL_CHARS, "an address"),
    ],
)
def test_a_long_target_refused_for_another_reason_says_that_reason(canonical, location, named):
    """The reason was chosen by the target's length, whatever was wrong with it: a long ``ftp:``
    URL, or one with a bad host, was "over 8192 characters", and so on the search path
    (:func:`http_url`), which never checks the length."""
    policy = RedirectPolicy("https://start.test/a", _RecordingGuard(), provider=None, canonical=canonical)
    with pytest.raises(ws.WebProviderError) as refused:
        policy.follow("https://start.test/a", location, Deadline(10_000))
    assert refused.value.message == (
        "start.test redirected to %s that cannot be followed (not an http(s) URL with a valid host)" % named
    )


def test_a_request_form_longer_than_the_url_limit_is_answered_but_not_kept():
    """Percent-encoding makes a character up to 12: an 8 KB URL of emoji is a 98 KB request form,
    and a redirect target is the page's choice, so the memo keeps no form over the limit."""
    from websearch_sync.net import urls

    raw = "https://example.com/" + "\U0001f600" * (MAX_URL_CHARS - 20)
    urls._request_form.cache_clear()
    sent = request_url(raw)
    assert len(sent) > 10 * MAX_URL_CHARS and sent.startswith("https://example.com/%F0%9F%98%80")
    assert request_url(raw) == sent
    assert urls._request_form.cache_info().currsize == 0
    assert request_url("https://example.com/short") == "https://example.com/short"
    assert urls._request_form.cache_info().currsize == 1
    at_the_limit = "https://example.com/" + "a" * (MAX_URL_CHARS - 20)
    assert request_url(at_the_limit) == at_the_limit and urls._request_form.cache_info().currsize == 2


# -- a refused URL's message keeps its secrets out ---------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "[::1",  # urlsplit: Invalid IPv6 URL
        "example.com:99999",  # urlsplit: port out of range
        "example.com:abc",  # urlsplit: port not a number
        "[::1]x",  # requests: not a valid host or port
        "[v1.x]",  # requests: not a valid host or port
    ],
)
def test_malformed_url_message_leaves_out_user_info_and_query(host):
    """Each ``malformed url`` raise site reached: its message and dict name neither the password
    nor the key, as ``shown_url`` leaves them out of every other message."""
    with pytest.raises(ws.InvalidInput, match="malformed url") as caught:
        request_url("http://user:PASSWORD1@%s/p?api_key=KEY1#FRAG1" % host)
    shown = repr(caught.value.to_dict()) + str(caught.value)
    for secret in ("PASSWORD1", "KEY1", "FRAG1", "user:"):
        assert secret not in shown


@pytest.mark.parametrize("delimiter", ["?", "#", "/"])
@pytest.mark.parametrize("port", ["", ":99999"])
def test_a_password_holding_an_unencoded_delimiter_is_not_echoed(delimiter, port):
    """``http://user:s3cr?et@host/``: the ``?`` ends the authority, so the parser reads ``s3cr`` as the
    port, and its reason (``Port could not be cast to integer value as 's3cr'``) and the URL shown
    (``http://user:s3cr``) carried that part of the password."""
    with pytest.raises(ws.InvalidInput, match="malformed url") as caught:
        ws.fetch("http://user:s3cr%set@example.com%s/path" % (delimiter, port))
    shown = str(caught.value) + repr(caught.value.to_dict())
    assert "s3cr" not in shown and "user" not in shown.replace("user info", "")
    assert caught.value.message.startswith("malformed url 'http://example.com%s/path': the text before its" % port)
    assert "must be percent-encoded (%3F, %23, %2F)" in caught.value.message


def test_malformed_url_reason_quoting_the_url_leaves_out_its_secrets(monkeypatch):
    """A parser reason that quotes the URL (requests' ``Invalid URL 'http://user:pw@...'``) is
    shown without the user info and query too."""
    import requests

    def refuse(self, url, params):
        raise requests.exceptions.InvalidURL("Invalid URL %r: No host supplied" % url)

    monkeypatch.setattr(requests.models.PreparedRequest, "prepare_url", refuse)
    with pytest.raises(ws.InvalidInput, match="malformed url") as caught:
        request_url("http://user:PASSWORD2@example.org/p?api_key=KEY2")
    shown = repr(caught.value.to_dict())
    assert "example.org/p" in shown
    assert "PASSWORD2" not in shown and "KEY2" not in shown


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("I \u2764\ufe0f it", "I \u2764\ufe0f it"),  # an emoji's presentation
        ("press 1\ufe0f\u20e3", "press 1\ufe0f\u20e3"),  # a keycap
        ("\u845b\U000e0100 city", "\u845b\U000e0100 city"),  # an ideographic variation sequence
        ("hi \U0001f600" + "".join(chr(0xE0100 + b) for b in b"secret"), "hi \U0001f600"),  # emoji smuggling
        ("a\U000e0101b\U000e0102c", "abc"),  # a supplement selector after a letter
        ("x\ufe00\ufe0f y", "x y"),  # after ASCII a VS1-VS14 selects nothing, and a run is none
        ("\ufe0f start", "start"),
    ],
)
def test_variation_selectors_that_select_nothing_are_left_out_of_results(raw, kept):
    """A run of variation selectors after one base carries hidden bytes, as tag characters do ("emoji
    smuggling"): titles and snippets left them in; one selector varying its base is kept."""
    [item] = normalize_items([{"title": raw, "url": "https://example.com/", "snippet": raw}], "stub", 5)
    assert (item["title"], item["snippet"]) == (kept, kept)


def test_result_forms_and_keys_are_remembered_only_for_plain_text_of_url_length():
    from websearch_sync.net import urls

    long_url = "https://example.com/" + "a" * urls.MAX_URL_CHARS
    before = (urls._result_form.cache_info().currsize, urls._dedupe_key.cache_info().currsize)
    assert urls.result_url("  " + long_url) is None
    assert urls.dedupe_key(long_url) == "//example.com/" + "a" * urls.MAX_URL_CHARS

    class Text(str):
        pass

    assert urls.result_url(Text("HTTPS://Example.com/x")) == "https://Example.com/x"
    assert urls.dedupe_key(Text("https://www.example.com/x/")) == "//example.com/x"
    assert (urls._result_form.cache_info().currsize, urls._dedupe_key.cache_info().currsize) == before
    assert (
        urls.result_url("HTTPS://Example.com/y") == urls.result_url("HTTPS://Example.com/y") == "https://Example.com/y"
    )
    assert urls._result_form.cache_info().hits >= 1


def test_percent_decoded_reads_every_escape_as_unquote_does():
    import itertools
    from urllib.parse import unquote

    from websearch_sync.net.urls import percent_decoded

    # escapes of punctuation (both hex cases), of "%" itself, of "\\" and of UTF-8 (whole and cut), broken
    # ones, text, and what the codec the ASCII ones are read by would read as its own escapes
    tokens = ["%", "%2", "%25", "%3A", "%3a", "%2F", "%2f", "%20", "%5C", "%E2%82%AC", "%e2%82", "%zz", "a", "é"]
    tokens += ["+", "\\", "x4", "\\x41", "\\u00e9", "\\n"]
    texts = ["".join(parts) for size in range(5) for parts in itertools.product(tokens, repeat=size)]
    assert [percent_decoded(text) for text in texts] == [unquote(text) for text in texts]
    assert percent_decoded("https%3A%2F%2Fexample.com%2F%253A%3Fq%3D%E2%82%AC") == "https://example.com/%3A?q=€"


@given(st.text(alphabet="%0129aAfFgx\\/:é\x00\x7f", max_size=24))
@settings(max_examples=examples(400, deep=4000), deadline=None)
def test_percent_decoded_is_unquote_on_any_text(text):
    from urllib.parse import unquote

    from websearch_sync.net.urls import percent_decoded

    assert percent_decoded(text) == unquote(text)
